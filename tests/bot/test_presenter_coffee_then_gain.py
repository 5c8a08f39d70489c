"""Coffee Traders' warehouse lines (issue 29 item 1, session 18, a fresh player's findings):
the Stock counters spent and the coffee the warehouse's production station gains, folded,
say that second step's verb ("…, then gain 1 Guatemala"), in every language (was: "Colombia,
Guatemala, Indonesia, then Guatemala", read as a fourth Stock counter)."""

from __future__ import annotations

import random

import pytest

from meeple_hall.bot import panels
from meeple_hall.bot.panel_clicks import model_game
from meeple_hall.games.coffee import engine
from meeple_hall.games.core import Action
from meeple_hall.games.testing import random_choices

SAID = {"en-US": ", then gain 1 ", "zh-TW": "，接著獲得", "ja": "1個を得る"}


def _stock_panel(locale: str) -> list[str]:
    """The labels of the first warehouse panel (Stock counters to spend) of a seeded game."""
    state, rng = engine.new(2, 1), random.Random(1)
    seq = 0
    while pending := engine.decisions(state):
        decision = pending[0]
        if decision.kind == "stock":
            live = model_game(engine, state, 2, seq=seq)
            _, components = panels.build_panel(live, decision.seat, decision, locale)
            return [
                str(child.get("label", ""))
                for row in components.to_components()
                for child in row.get("components", [])
                if child.get("type") == 2
            ]
        chosen = rng.choice(pending)
        state = engine.apply(state, Action(chosen.seat, random_choices(chosen, rng)))
        seq += 1
    raise AssertionError("no warehouse")


@pytest.mark.parametrize("locale", sorted(SAID))
def test_a_warehouse_line_says_it_gains_the_coffee_after_the_counters(locale: str) -> None:
    labels = [label for label in _stock_panel(locale) if SAID[locale] in label]
    assert len(labels) == 5  # one per coffee gained, each saying so
