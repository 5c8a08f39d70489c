"""A panel keeps its lines' styles across states (issue 29 item 5, a panel's own work): a
line's style is worked out once per language and what it is made of (each step's decision
kind and option), and is the same as worked out afresh; a decision kind whose option styles
read the rest of the decision (`STYLED_IN_CONTEXT`) is never kept. A panel of several pages
styles the lines of the page it sends only."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest

from meeple_hall import games
from meeple_hall.bot import panels, presenters
from meeple_hall.bot.panel_clicks import model_game
from meeple_hall.games.core import Decision, GameEngine, Option, Result, Rng
from meeple_hall.games.testing import random_game
from tests.bot.conftest import LANGUAGES, REAL_GAMES

PLAYERS = 3
SAMPLED = 12  # states of each game and seed, spread over the whole game


def _afresh(
    game_id: str,
    decisions: tuple[Decision, ...],
    options: tuple[Option, ...],
    locale: Any,
    full: bool,
) -> panels.ShownStyle:
    return panels._line_style(game_id, decisions, options, locale, full and len(options) > 1)


def _every_style(game_id: str) -> list[dict[str, panels.ShownStyle]]:
    """Each sampled state's panels' styles (every pending decision, every language), the
    states of two random games in turn in one live game, as the bot meets them."""
    engine = games.get(game_id)
    game = None
    found = []
    for seed in (1, 2):
        states = random_game(engine, PLAYERS, seed)
        stride = max(1, len(states) // SAMPLED)
        for seq, state in enumerate(states[::stride]):
            if game is None:
                game = model_game(engine, state, PLAYERS)
            game.state, game.seq = state, seq
            for decision in game.decisions():
                lines = panels.offered_lines(game, decision.seat, decision)
                for locale in LANGUAGES:
                    found.append(panels.line_styles(game_id, lines, locale))
    return found


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_styles_kept_are_the_styles_worked_out_afresh(game_id, monkeypatch):
    panels._STYLES.clear()
    kept = _every_style(game_id)
    assert panels._STYLES  # and kept they were
    monkeypatch.setattr(panels, "_kept_style", _afresh)
    fresh = _every_style(game_id)
    assert len(kept) == len(fresh) > SAMPLED
    for one, other in zip(kept, fresh, strict=True):
        assert one == other


class Counted:
    """A presenter counting the option styles it works out; an option's label reads
    `(again)` where another option of its decision has the same label."""

    STYLED_IN_CONTEXT = frozenset({"cell"})
    asked: ClassVar[list[str]] = []

    @classmethod
    def option_style(cls, decision: Decision, option: Option) -> presenters.OptionStyle:
        cls.asked.append(option.id)
        label = str(option.label)
        if decision.kind == "cell" and [str(o.label) for o in decision.options].count(label) > 1:
            label += " (again)"
        return presenters.OptionStyle(label=label, emoji="🔷")


@pytest.fixture
def counted(monkeypatch):
    monkeypatch.setitem(presenters._FOUND, "counted", Counted)
    monkeypatch.setattr(Counted, "asked", [])
    return Counted


def _style(decision: Decision, option_id: str, locale: str = "en") -> panels.ShownStyle:
    line = panels.Line((decision,), (option_id,))
    return panels.line_style("counted", line, locale)


def test_a_line_s_style_is_worked_out_once_a_language_whatever_the_state(counted):
    one = Decision(0, "tile", "Which?", (Option("a", "Alpha", {"n": 1}), Option("b", "Beta")))
    # another state's decision, made afresh: the same option, equal but not the same object
    two = Decision(0, "tile", "Which now?", (Option("a", "Alpha", {"n": 1}), Option("c", "C")))
    assert _style(one, "a") == _style(two, "a") == panels.ShownStyle("Alpha", "🔷")
    assert counted.asked == ["a"]
    _style(two, "a", "ja")
    assert counted.asked == ["a", "a"]  # each language its own words
    # an option with other fields (or another label, or of another kind) is another option
    three = Decision(0, "tile", "Which?", (Option("a", "Alpha", {"n": 2}),))
    four = Decision(0, "dice", "Which?", (Option("a", "Alpha", {"n": 1}),))
    _style(three, "a")
    _style(four, "a")
    assert counted.asked == ["a", "a", "a", "a"]


def test_an_option_styled_in_its_decision_s_context_is_worked_out_each_time(counted):
    alone = Decision(0, "cell", "Where?", (Option("x1", "West"), Option("x2", "East")))
    alike = Decision(0, "cell", "Where?", (Option("x1", "West"), Option("x3", "West")))
    assert _style(alone, "x1").label == "West"
    assert _style(alike, "x1").label == "West (again)"
    assert _style(alone, "x1").label == "West"
    assert counted.asked == ["x1", "x1", "x1"]


# -- a panel of several pages: only the page sent is styled ---------------------------------
@dataclass
class WideState:
    rng: Rng
    done: list[str] = field(default_factory=list)


class WideEngine(GameEngine[WideState]):
    """One decision of 130 options: two pages of menus."""

    id = "wide"
    name = "Wide"
    min_players = 1
    max_players = 1
    state_type = WideState

    def setup(self, num_players: int, rng: Rng, options: dict[str, str]) -> WideState:
        return WideState(rng=rng)

    def decisions(self, state: WideState) -> list[Decision]:
        if state.done:
            return []
        options = tuple(Option(f"o{i}", f"Option {i}") for i in range(130))
        return [Decision(0, "wide", "Which?", options)]

    def perform(self, state: WideState, decision: Decision, choices: tuple[str, ...]) -> None:
        state.done.append(choices[0])

    def view(self, state: WideState, seat: int | None) -> dict[str, Any]:
        return {"num_players": 1, "done": list(state.done)}

    def result(self, state: WideState) -> Result | None:
        return Result((1,), (1,), ({"moves": 1},)) if state.done else None


def test_only_the_lines_of_the_page_sent_are_styled(monkeypatch):
    engine = WideEngine()
    state = engine.new(1, 1)
    styled: list[int] = []
    real = panels.line_styles

    def counted(game_id: str, lines: list[panels.Line], locale: Any) -> dict[str, Any]:
        styled.append(len(lines))
        return real(game_id, lines, locale)

    monkeypatch.setattr(panels, "line_styles", counted)
    built = []
    for page in (0, 1):
        game = model_game(engine, state, 1)
        decision = game.decisions()[0]
        content, view = panels.build_panel(game, 0, decision, "en", page=page)
        built.append((content, view.to_components()))
    assert styled == [100, 30]
    # the same panels as with every line styled
    monkeypatch.setattr(panels, "_on_page", lambda lines, page: lines)
    for page in (0, 1):
        game = model_game(engine, state, 1)
        content, view = panels.build_panel(game, 0, game.decisions()[0], "en", page=page)
        assert built[page] == (content, view.to_components())
    assert styled[2:] == [130, 130]
