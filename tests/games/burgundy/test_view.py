"""What the table shows: everything public for spectators, sold goods only to their owner."""

import json

from meeple_hall.games.burgundy import engine
from meeple_hall.games.core.messages import jsonable

from .helpers import options, play, setup_player, table


def test_spectators_see_counts_of_face_down_things_only():
    state = table(3)
    view = engine.view(state, None)
    assert "you" not in view
    assert view["supply"]["black"] == len(state.supply["black"])
    assert view["phase_goods_left"] == [0, 5, 5, 5, 5]
    text = json.dumps(view)
    assert "rng" not in text and "box" not in view


def test_sold_goods_kinds_are_private_to_their_owner():
    state = table(2)
    setup_player(state, dice=(4, 4), goods={4: 2})
    state = play(state, "4", "sell")
    assert engine.view(state, None)["players"][0]["sold"] == 2
    assert engine.view(state, 0)["you"]["sold"] == {"4": 2}
    assert engine.view(state, 1)["you"]["sold"] == {}
    public = engine.view(state, None)
    mine = engine.view(state, 0)
    del mine["you"]
    assert mine == public


def test_the_view_names_the_die_in_use_and_the_step():
    state = table(2)
    setup_player(state, dice=(3, 3))
    state = play(state, "3")
    view = engine.view(state, None)
    assert view["step"] == "action"
    assert view["pending"] == {"kind": "action", "value": 3, "castle": False, "die": 0}


def test_the_view_gives_as_many_events_as_the_table_s_log_shows():
    """The Log button lists the view's last 15 events (games/core/contract.py LOG_SHOWN); the
    view used to give 8, so a player saw barely one turn of a 4-player round."""
    from meeple_hall.games.core.contract import LOG_SHOWN

    state = table(4)
    while state.round == 1:
        state = play(state, options(state)[0], "workers")
    assert len(state.log) > LOG_SHOWN
    shown = engine.view(state, None)["log"]
    assert len(shown) == LOG_SHOWN and shown == jsonable(state.log[-LOG_SHOWN:])
