"""A panel asking for an exact number of choices says that number once ("Choose 2."), not
a range from it to itself ("Choose 2 to 2."), in each language; a range stays a range."""

from __future__ import annotations

import random
from typing import Any

import pytest

from meeple_hall import games
from meeple_hall.bot.i18n import t
from meeple_hall.bot.panel_clicks import model_game
from meeple_hall.bot.panels import build_panel
from meeple_hall.games import Action, Decision
from meeple_hall.games.testing import random_choices
from tests.bot.conftest import LANGUAGES

PLAYERS = 3


def first_decision(game_id: str, wanted: Any) -> tuple[Any, Decision]:
    """The first pending decision of seeded random games that `wanted` accepts, and its state."""
    engine = games.get(game_id)
    for seed in range(1, 20):
        state, rng = engine.new(PLAYERS, seed), random.Random(seed)
        while pending := engine.decisions(state):
            for decision in pending:
                if wanted(decision):
                    return state, decision
            decision = rng.choice(pending)
            state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    raise AssertionError(f"no such decision in {game_id}")


def content(game_id: str, state: Any, decision: Decision, locale: str) -> str:
    game = model_game(games.get(game_id), state, PLAYERS)
    return build_panel(game, decision.seat, decision, locale)[0]


@pytest.mark.parametrize("locale", LANGUAGES)
def test_an_exact_count_is_said_once(locale: str) -> None:
    state, decision = first_decision(
        "burgundy", lambda d: d.min_choices == d.max_choices > 1 and len(d.options) > d.min_choices
    )
    shown = content("burgundy", state, decision, locale)
    n = decision.min_choices
    assert t(locale, "panel.choose_exactly", n=n) in shown
    assert t(locale, "panel.choose_range", low=n, high=n) not in shown


@pytest.mark.parametrize("locale", LANGUAGES)
def test_a_range_is_still_a_range(locale: str) -> None:
    state, decision = first_decision("coffee", lambda d: d.min_choices < d.max_choices > 1)
    shown = content("coffee", state, decision, locale)
    low, high = decision.min_choices, decision.max_choices
    assert t(locale, "panel.choose_range", low=low, high=high) in shown
