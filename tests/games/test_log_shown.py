"""Every game keeps the last 40 events of its log and its view gives the last 15, as many as
the table's Log lists (games/core/contract.py LOG_SHOWN): a view of 8 events showed barely one
turn of a 4-player round."""

from __future__ import annotations

import random

import pytest

from meeple_hall import games
from meeple_hall.games import Action
from meeple_hall.games.core.contract import LOG_SHOWN
from meeple_hall.games.core.messages import jsonable
from meeple_hall.games.testing import random_choices

LOG_KEPT = 40


@pytest.mark.parametrize("game_id", ["burgundy", "coffee", "keyflower", "village"])
def test_the_view_gives_as_many_events_as_the_log_lists_and_the_state_keeps_40(game_id):
    engine = games.get(game_id)
    state = engine.new(num_players=4, seed=3)
    rng = random.Random(3)
    lengths = []
    while (pending := engine.decisions(state)) and len(lengths) < 600:
        decision = pending[0]
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
        lengths.append(len(state.log))
        if len(state.log) > LOG_SHOWN:
            shown = engine.view(state, None)["log"]
            assert shown == jsonable(state.log[-LOG_SHOWN:])
            assert len(shown) == LOG_SHOWN
    assert max(lengths) == LOG_KEPT
