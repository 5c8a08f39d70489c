"""Burgundy's decisions declared as steps (games/core/steps.py, games/burgundy/steps.py): the
die asked with nothing pending, a castle's extra action asked again after buying, the pick-N
goods of a ship, and the pending steps kept as they were stored."""

from meeple_hall.games.burgundy import engine
from meeple_hall.games.burgundy.state import Frame
from meeple_hall.games.burgundy.steps import STEPS, step_kind
from meeple_hall.games.core import Action

from .helpers import decision, options, play, setup_player, table, tid


def test_every_decision_is_a_declared_step_and_the_die_is_asked_with_nothing_pending():
    assert engine.steps is STEPS
    assert STEPS.kinds == {
        *("die", "castle", "action", "take", "place", "buy"),
        *("discard", "ship", "shipgoods", "warehouse", "effect_take", "townhall"),
    }
    state = table()
    assert state.stack == [] and decision(state).kind == step_kind(state) == "die"
    state = play(state, options(state)[0])
    assert [f.kind for f in state.stack] == ["action"] and decision(state).kind == "action"


def test_buying_during_a_castle_s_extra_action_asks_the_castle_again():
    state = table()
    setup_player(state, dice=(6, 6), silver=2, storage=["castle"], estate={12: "market"})
    state = play(state, "6", "place", "castle@7")
    assert decision(state).kind == "castle" and "buy" in options(state)
    state = play(state, "buy")
    assert [f.kind for f in state.stack] == ["castle", "buy"]
    state = play(state, options(state)[0])
    assert decision(state).kind == "castle" and "buy" not in options(state)
    assert state.players[0].silver == 0 and state.players[0].bought


def test_a_ship_over_the_three_kinds_limit_asks_as_many_kinds_as_there_is_room_for():
    state = table()
    setup_player(state, dice=(2, 2), storage=["ship"], goods={1: 1})
    state.depot_goods = [[], [3, 4, 5], [], [], [], []]
    state = play(state, "2", "place", "ship@18")
    state = play(state, "2")
    asked = decision(state)
    assert (asked.kind, asked.min_choices, asked.max_choices) == ("shipgoods", 2, 2)
    assert [o.fields["goods"] for o in asked.options] == [3, 4, 5]
    state = play(state, ("5", "3"))
    assert state.players[0].goods == {1: 1, 3: 1, 5: 1} and state.depot_goods[1] == [4]


def test_a_pending_step_is_stored_as_it_was_and_asked_again_after_loading():
    state = table()
    setup_player(state, dice=(3, 3), storage=["bank", "mine", "ship"])
    state = play(state, "3", "take", options(play(state, "3", "take"))[0])
    assert [f.kind for f in state.stack] == ["discard"]
    assert state.stack[0] == Frame("discard", tile=state.stack[0].tile)
    loaded = engine.load(engine.dump(state))
    assert engine.decisions(loaded) == engine.decisions(state)
    bank = next(o.id for o in decision(loaded).options if o.fields["tile"] == "bank")
    after = engine.apply(loaded, Action(0, (bank,)))
    assert tid("bank") in after.box and tid("bank") not in after.players[0].storage
