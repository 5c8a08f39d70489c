"""Coffee Traders' lines a fresh player misread (issue 29 item 1, session 18): a warehouse's
Stock counters spent and the coffee its production station gains, folded, say that second
step's verb ("…, then gain 1 Guatemala"), in every language (was: "Colombia, Guatemala,
Indonesia, then Guatemala", read as a fourth Stock counter); an Animal counter wears its
coffee's colour and shape wherever it is offered (a row of contracts' bonus too)."""

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


def test_an_animal_counter_as_a_row_bonus_wears_its_coffee_s_colour_and_shape() -> None:
    """A row of contracts' bonus "Ethiopia Animal counter" as the Animal counter a
    plantation takes is shown: the coffee's colour and shape first (was: a paw alone)."""
    from meeple_hall.bot.presenters import coffee as presenter
    from meeple_hall.games.coffee.words import coffee_name
    from meeple_hall.games.core import Decision, Option
    from meeple_hall.games.core.catalogues import render
    from meeple_hall.renderers.coffee import COFFEE_SHAPES

    counter = Option("animal.eth", coffee_name("eth"), {"item": "animal", "coffee": "eth"})
    civet = Option("civet", "x", {"item": "civet"})
    for kind in ("row_bonus", "animal"):
        decision = Decision(seat=0, kind=kind, prompt="x", options=(counter, civet))
        style = presenter.option_style(decision, counter)
        assert style is not None and style.emoji == presenter.COFFEE_EMOJI["eth"], kind
        shape = presenter.SHAPE_SYMBOLS[COFFEE_SHAPES["eth"]]
        assert render("en", style.label).startswith(f"{shape} "), kind
        assert presenter.option_style(decision, civet).emoji != style.emoji
