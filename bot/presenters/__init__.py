"""What a game's options and secrets look like in words: one presenter module per game.

Renderers draw (Pillow only); presenters speak. A game's module `bot/presenters/<game_id>.py`
provides, each optional:

- `option_style(decision: Decision, option: Option) -> OptionStyle | None`: a shorter
  label, an emoji and a one-line description for a panel's buttons and menus, from the
  option and its decision's kind (a panel keeps the styles it shows by these, across
  states); `STYLED_IN_CONTEXT: frozenset[str]`: the decision kinds whose options' styles
  read more of the decision (its other options: Keyflower's cells that would read alike),
  never kept;
- `FOLDED: frozenset[str]`: the decision kinds a panel folds into the decision before
  them, to save clicks (bot/panels.py), and `chain_style(decisions, options) ->
  OptionStyle | None` for such a folded line (else its options' labels are joined);
- `FOLDED_AFTER: dict[str, frozenset[str]]`: for a folded kind listed here, the kinds of
  decision it folds into (any, for a kind not listed): a tile's cell folds into the tile
  chosen, never into the tile placed before it;
- `FOLDED_ANSWERS: dict[str, frozenset[str]]`: for a folded kind listed here, the answers
  (by their `action` field, else their option id) that fold; the others are asked after the
  line before them, which the panel keeps alone too (a delivery folds with a second one, not
  with the trades; a Keyflower use folds an upgrade and finishing, not a carry's chain);
- `folds_line(decisions, options) -> bool`: whether a folded line may go on to its last
  answer, seen whole (the steps before it too): where the per-kind rules above are not
  enough (a trade in a Sell turn folds with the deliveries it makes possible only);
- `pick_sets(decision: Decision) -> list[tuple[str, ...]] | None`: for a decision of several
  choices, the answers worth a line each (option ids, in the decision's order): its panel
  shows one line per set, so that the decision after it can fold into each (Coffee
  Traders' coffee for a "different kinds" space, then the Arabica step it brings); None
  keeps the menu of several choices;
- `private_text(view: dict) -> Text`: the seat's secrets (`view(state, seat)`) as short
  Markdown for `/hand` and DMs;
- `rules_text() -> Text`: Markdown for `/rules`: a short summary of the game as played
  here, its options, and which component facts are reconstructed.

A presenter reads what the engine gives (views, decisions, options and their fields); it
never parses an option id.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from meeple_hall.games.core import Decision, Option, Text
from meeple_hall.games.core.catalogues import LANGUAGES, render


@dataclass(frozen=True, slots=True)
class OptionStyle:
    """How a panel shows an option: a label (shorter than the engine's), an emoji and a
    one-line description; words as messages (or plain text) until the panel renders them
    in the reader's language."""

    label: Text | None = None
    emoji: str | None = None
    description: Text | None = None


# A number a decision's picture writes on what a panel line names (the engine's `mark`: a
# tile, a cell, a space, a workshop) as that line's emoji: 1-10 as keycaps, then A-Z (as
# renderers/phone/keyflower.py `mark_name` writes past 10).
KEYCAPS = (
    *(f"{d}\ufe0f\u20e3" for d in "123456789"),
    "🔟",
    *(chr(0x1F1E6 + i) for i in range(26)),
)


def keycap(mark: Any) -> str | None:
    """The emoji of a picture's number `mark` (1, 2, …); None where it is none."""
    return KEYCAPS[mark - 1] if isinstance(mark, int) and 1 <= mark <= len(KEYCAPS) else None


# Discord's limits on a panel's words: a button's label, a menu line's label and its
# description (longer ones are cut).
BUTTON_LABEL_MAX = 80
MENU_LABEL_MAX = 100
DESCRIPTION_MAX = 100


def fits(text: Text, most: int) -> bool:
    """Whether `text` is at most `most` characters in every language (a presenter's
    longer words go to the description where they would pass Discord's limits)."""
    return all(len(render(lang, text)) <= most for lang in LANGUAGES)


_FOUND: dict[str, Any] = {}


def register(game_id: str, presenter: Any) -> None:
    """Use `presenter` (any object with the module functions above) for `game_id`."""
    _FOUND[game_id] = presenter


def for_game(game_id: str) -> Any:
    """The game's presenter: the one registered, else its module; a game without one is
    shown with the engine's labels and its secrets listed."""
    if game_id not in _FOUND:
        try:
            _FOUND[game_id] = importlib.import_module(f"{__name__}.{game_id}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{game_id}":
                raise
            _FOUND[game_id] = None
    return _FOUND[game_id]


def option_style(game_id: str, decision: Decision, option: Option) -> OptionStyle:
    styler = getattr(for_game(game_id), "option_style", None)
    return (styler(decision, option) if styler else None) or OptionStyle()


def styled_in_context(game_id: str, kinds: tuple[str, ...]) -> bool:
    """Whether any of these decision kinds has options whose styles read more of their
    decision than its kind (its other options): a panel keeps no style of a line through
    them (bot/panels.py)."""
    context: frozenset[str] = getattr(for_game(game_id), "STYLED_IN_CONTEXT", frozenset())
    return not context.isdisjoint(kinds)


def folded_kinds(game_id: str) -> frozenset[str]:
    return frozenset(getattr(for_game(game_id), "FOLDED", frozenset()))


def folds_after(game_id: str, before: str, kind: str) -> bool:
    """Whether a panel may fold a decision of folded `kind` into one of kind `before`."""
    after = getattr(for_game(game_id), "FOLDED_AFTER", {}).get(kind)
    return after is None or before in after


def folds_answer(game_id: str, kind: str, option: Option) -> bool:
    """Whether a panel may fold `option`, an answer to a decision of folded `kind`."""
    answers = getattr(for_game(game_id), "FOLDED_ANSWERS", {}).get(kind)
    return answers is None or option.fields.get("action", option.id) in answers


def folds_line(game_id: str, decisions: tuple[Decision, ...], options: tuple[Option, ...]) -> bool:
    """Whether a panel may offer the folded line of these answers (its last one folded)."""
    judge = getattr(for_game(game_id), "folds_line", None)
    return judge(decisions, options) if judge else True


def pick_sets(game_id: str, decision: Decision) -> list[tuple[str, ...]] | None:
    """A decision of several choices as the sets of options its panel offers a line each
    (None: a menu of several choices, as every such decision had)."""
    if decision.max_choices == 1:
        return None
    picker = getattr(for_game(game_id), "pick_sets", None)
    return picker(decision) if picker else None


def chain_style(
    game_id: str, decisions: tuple[Decision, ...], options: tuple[Option, ...]
) -> OptionStyle | None:
    styler = getattr(for_game(game_id), "chain_style", None)
    return styler(decisions, options) if styler else None


def rules_text(game_id: str) -> Text:
    describe = getattr(for_game(game_id), "rules_text", None)
    return describe() if describe is not None else ""


def private_text(game_id: str, view: dict[str, Any]) -> Text:
    describe = getattr(for_game(game_id), "private_text", None)
    if describe is not None:
        return describe(view)
    return _listed_secrets(view)


def _listed_secrets(view: dict[str, Any]) -> str:
    """A game without its own words for secrets: its private view's fields, one a line."""
    you = view.get("you")
    if not isinstance(you, dict):
        return ""
    return "\n".join(f"**{key}**: {_plain(value)}" for key, value in you.items() if key != "seat")


def _plain(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_plain(v) for v in value) or "—"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_plain(v)}" for k, v in value.items()) or "—"
    return str(value)


__all__ = [
    "OptionStyle",
    "chain_style",
    "folded_kinds",
    "folds_after",
    "folds_line",
    "option_style",
    "pick_sets",
    "private_text",
    "register",
    "rules_text",
    "styled_in_context",
]
