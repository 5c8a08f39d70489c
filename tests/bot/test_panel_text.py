"""A panel's own words in each language: an exact number of choices said once ("Choose 2."),
not as a range from it to itself ("Choose 2 to 2."), a range still a range; the buttons'
descriptions under the prompt joined to their option with the language's own colon."""

from __future__ import annotations

import random
from typing import Any

import pytest

from meeple_hall import games
from meeple_hall.bot import presenters
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
    # a choice of several shown as such, not a line per set (pick_sets: Burgundy's ship goods,
    # its last such choice, are lines of sets now); Coffee Traders' trade at one's ratio
    state, decision = first_decision(
        "coffee",
        lambda d: (
            d.min_choices == d.max_choices > 1
            and len(d.options) > d.min_choices
            and presenters.pick_sets("coffee", d) is None
        ),
    )
    shown = content("coffee", state, decision, locale)
    n = decision.min_choices
    assert t(locale, "panel.choose_exactly", n=n) in shown
    assert t(locale, "panel.choose_range", low=n, high=n) not in shown


@pytest.mark.parametrize("locale", LANGUAGES)
def test_a_range_is_still_a_range(locale: str) -> None:
    state, decision = first_decision("coffee", lambda d: d.min_choices < d.max_choices > 1)
    shown = content("coffee", state, decision, locale)
    low, high = decision.min_choices, decision.max_choices
    assert t(locale, "panel.choose_range", low=low, high=high) in shown


def legend_lines(game_id: str, locale: str) -> list[str]:
    """The description lines of the first panel of buttons with descriptions met."""
    engine = games.get(game_id)
    state, rng = engine.new(PLAYERS, 1), random.Random(1)
    while pending := engine.decisions(state):
        shown = content(game_id, state, pending[0], locale)
        lines = [line for line in shown.splitlines() if line.startswith("• ")]
        if lines:
            return lines
        decision = rng.choice(pending)
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    raise AssertionError(f"no button described in {game_id}")


@pytest.mark.parametrize(("locale", "colon"), [("en", ": "), ("zh-TW", "："), ("ja", "：")])
def test_a_buttons_description_follows_the_languages_colon(locale: str, colon: str) -> None:
    lines = legend_lines("burgundy", locale)
    assert all(colon in line for line in lines), lines
    if colon != ": ":
        assert not any(": " in line for line in lines), lines
