"""Pictures and option labels for each game, drawn only from an engine's `view()`.

A game's module `renderers/<game_id>.py` provides:

- `render(view: dict) -> PIL.Image.Image`: the table as a spectator sees it (no words:
  icons, colours and numbers; words belong to messages, which are localised);
- optionally `option_style(decision: Decision, option: Option) -> OptionStyle | None`:
  a shorter label, an emoji and a one-line description for a panel's buttons and menus;
- optionally `FOLDED: frozenset[str]`: the decision kinds a panel folds into the decision
  before them, to save clicks (bot/panels.py), and `chain_style(decisions, options) ->
  OptionStyle | None` for such a folded line (else its options' labels are joined);
- optionally `private_text(view: dict) -> str`: the seat's secrets (`view(state, seat)`)
  as short Markdown for `/hand` and DMs;
- optionally `render_private(view: dict) -> PIL.Image.Image | None`: a picture of those
  secrets (a screen, a hand of tiles) sent with `/hand` and the DMs;
- optionally `rules_text() -> str`: Markdown for `/rules`: a short summary of the game as
  played here, its options, and which component facts are reconstructed.

Games without a module fall back to `renderers.generic`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

from PIL import Image

from meeple_hall.games.core import Decision, Option


@dataclass(frozen=True, slots=True)
class OptionStyle:
    label: str | None = None
    emoji: str | None = None
    description: str | None = None


class Renderer(Protocol):
    def render(self, view: dict[str, Any]) -> Image.Image: ...


_OVERRIDES: dict[str, Any] = {}
_REGISTERED: dict[str, Any] = {}


def register(game_id: str, renderer: Any) -> None:
    """Use `renderer` (any object with the module functions above) for `game_id`."""
    _OVERRIDES[game_id] = renderer
    _REGISTERED[game_id] = renderer


def registered_at_run_time(game_id: str) -> bool:
    """Whether `game_id`'s renderer was given by `register` rather than found by its module
    name: another process (bot/render.py's picture workers) would not find it."""
    given = _REGISTERED.get(game_id)
    return given is not None and _OVERRIDES.get(game_id) is given


def for_game(game_id: str) -> Any:
    if game_id in _OVERRIDES:
        return _OVERRIDES[game_id]
    try:
        module: ModuleType = importlib.import_module(f"{__name__}.{game_id}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{game_id}":
            raise
        from meeple_hall.renderers import generic as module
    _OVERRIDES[game_id] = module
    return module


def render(game_id: str, view: dict[str, Any]) -> Image.Image:
    return for_game(game_id).render(view)


def option_style(game_id: str, decision: Decision, option: Option) -> OptionStyle:
    styler = getattr(for_game(game_id), "option_style", None)
    return (styler(decision, option) if styler else None) or OptionStyle()


def folded_kinds(game_id: str) -> frozenset[str]:
    return frozenset(getattr(for_game(game_id), "FOLDED", frozenset()))


def chain_style(
    game_id: str, decisions: tuple[Decision, ...], options: tuple[Option, ...]
) -> OptionStyle | None:
    styler = getattr(for_game(game_id), "chain_style", None)
    return styler(decisions, options) if styler else None


def render_private(game_id: str, view: dict[str, Any]) -> Image.Image | None:
    draw = getattr(for_game(game_id), "render_private", None)
    return draw(view) if draw is not None else None


def rules_text(game_id: str) -> str:
    describe = getattr(for_game(game_id), "rules_text", None)
    return describe() if describe is not None else ""


def private_text(game_id: str, view: dict[str, Any]) -> str:
    describe = getattr(for_game(game_id), "private_text", None)
    if describe is not None:
        return describe(view)
    from meeple_hall.renderers import generic

    return generic.private_text(view)
