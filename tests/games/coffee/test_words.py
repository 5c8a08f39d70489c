"""What the choices say against what they do, found by playing through the bot with the
rulebook beside it (issue 14): the Arabica step's column, the Animal counter a Coffee Bar
space brings, why a step is asked for, where a piggyback builds, what a plantation costs."""

from __future__ import annotations

from meeple_hall.games.coffee import arabica, engine, sell
from meeple_hall.games.coffee.state import Prompt
from meeple_hall.games.coffee.work import plant_space_options
from meeple_hall.games.core import Action
from meeple_hall.games.core.catalogues import render
from tests.games.coffee.helpers import clear_board, fresh, plant


def labels(decision) -> dict[str, str]:
    return {o.id: render("en", o.label) for o in decision.options}


def asked(state, prompt: Prompt):
    state.prompts.insert(0, prompt)
    return engine.decisions(state)[0]


def test_an_arabica_step_says_the_column_it_reaches_or_that_it_is_lost() -> None:
    """ "Brazil (now column 2)" named the column the disc stands on, read as the one it
    reaches. EN "Arabica Track": only 1 player can be in the 7th column; a step that cannot
    advance goes to waste."""
    state = fresh(4)
    player = state.players[0]
    player.arabica.update(gua=2, col=6, bra=6, eth=7)
    state.seventh["bra"] = 1  # another player holds Brazil's 7th column
    decision = asked(state, Prompt(0, "advance"))
    shown = labels(decision)
    assert shown["gua"] == "Guatemala: column 2 → 3"
    assert shown["col"] == "Colombia: column 6 → 7"
    assert shown["bra"] == "Brazil: stays in column 6 (the step is lost)"
    assert shown["eth"] == "Ethiopia: stays in column 7 (the step is lost)"
    after = engine.apply(state, Action(0, ("gua",)))
    assert after.players[0].arabica["gua"] == 3


def test_a_wild_animal_counter_says_why_a_track_is_chosen() -> None:
    state = fresh(4)
    state.prompts.clear()
    arabica.gain_counter(state, 0, arabica.WILD)
    decision = engine.decisions(state)[0]
    assert decision.kind == "advance"
    assert render("en", decision.prompt).startswith("Wild Animal counter: advance 1 column")
    # a step chosen as a bonus keeps the plain question
    plain = asked(fresh(4), Prompt(0, "advance"))
    assert render("en", plain.prompt) == "Advance 1 column on which Arabica track?"


def test_a_coffee_bar_space_with_an_animal_counter_names_it() -> None:
    """EN Phase 5 B5: the bottom spaces give the Animal counter below them; the label said
    only coins and VP."""
    state = fresh(4)
    player = state.players[0]
    for coffee in player.coffee:
        player.coffee[coffee] = 6
    shown = {render("en", o.label) for o in sell.bar_options(state, 0)}
    for key, counter in state.bar_animals.items():
        bar = key.split(".")[0]
        number = list(state.bars).index(bar) + 1
        name = "Wild Animal counter" if counter == arabica.WILD else "Animal counter"
        with_counter = [s for s in shown if s.startswith(f"Coffee Bar {number}") and name in s]
        assert with_counter, (key, counter)
    plain = [s for s in shown if "counter" not in s]
    assert plain and all(s.endswith(" VP)") for s in plain)


def test_a_piggyback_build_names_the_cooperative_not_what_was_built() -> None:
    """EN Phase 3 B5: a follower builds "in the same place" (player board / cooperative),
    any building that goes there, not the builder's building."""
    state = fresh(4)
    prompt = Prompt(1, "piggy_build", {"builder": 0, "place": "eth", "rest": []})
    state.players[1].coffee["bra"] = 1
    decision = asked(state, prompt)
    assert render("en", decision.prompt) == (
        "Piggyback: build in Ethiopia too, as P1 did, for 1 coffee to them?"
    )
    board = Prompt(1, "piggy_build", {"builder": 0, "place": None, "rest": []})
    decision = asked(state, board)
    assert "build a warehouse too" in render("en", decision.prompt)


def test_a_plantation_space_says_the_donkeys_it_costs() -> None:
    """EN Phase 1 A3: the donkey moves from the company supply onto the pathway; "1 donkey"
    alone read like one gained."""
    state = fresh(4)
    clear_board(state)
    plant(state, "gua", 1, 0, owner=0, level=1)
    state.players[0].donkeys = 1
    state.players[0].plantations["B"] = [2]
    shown = [render("en", o.label) for o in plant_space_options(state, 0, "B")]
    assert any(s.endswith("from space 1 below, paying 1 donkey") for s in shown), shown
