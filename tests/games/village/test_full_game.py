"""Whole games scored again by hand from the BB final scoring tables."""

from __future__ import annotations

import pytest

from meeple_hall.games.village import data
from meeple_hall.games.village.state import ALIVE, CHURCH, COUNCIL
from tests.games.village.helpers import playout

TRAVEL = {0: 0, 1: 1, 2: 3, 3: 6, 4: 10, 5: 14, 6: 18}
CHURCH_POINTS = {1: 2, 2: 3, 3: 4, 4: 6}
COUNCIL_POINTS = {1: 0, 2: 2, 3: 4, 4: 6}


def chronicle_points(n: int) -> int:
    return 0 if n < 3 else {3: 4, 4: 7}.get(n, 12)


@pytest.mark.parametrize(("num_players", "seed"), [(1, 21), (2, 22), (4, 24)])
def test_final_scores_follow_the_rulebook_tables(num_players: int, seed: int) -> None:
    from meeple_hall.games.village import engine

    *_, state = playout(num_players, seed)
    result = engine.result(state)
    assert result is not None
    for seat, p in enumerate(state.players):
        written = sum(slots.count(str(seat)) for slots in state.chronicle.values())
        expected = (
            p.prestige
            + TRAVEL[len(p.cities)]
            + sum(CHURCH_POINTS[m.stage] for m in p.members if m.place == CHURCH)
            + sum(COUNCIL_POINTS[m.stage] for m in p.members if m.place == COUNCIL)
            + chronicle_points(written)
            + sum(data.customers()[t].points for t in p.customers)
            + p.coins
        )
        assert result.scores[seat] == expected
    keys = [
        (result.scores[s], p.grain, sum(m.place in ALIVE for m in p.members))
        for s, p in enumerate(state.players)
    ]
    best = max(keys)
    assert {s for s, k in enumerate(keys) if k == best} == set(result.winners)


def test_a_scripted_ending_to_a_known_result() -> None:
    """Seat 1 travels north (3 prestige), dies into the last grave and so ends the game;
    seat 2 takes a final turn; the final mass gives seat 1 the church majority (+2).
    Seat 1: 5 prestige + 1 city (1) + church stage 2 (3) + council stage 3 (4) + a 6-point
    customer + 1 coin = 20. Seat 2: 3 in the chronicle (4) + 1 coin = 5."""
    from meeple_hall.games.village import engine
    from tests.games.village.test_rulebook_examples import at_turn, choose

    state = engine.new(2, seed=31, options={"compensation": "off"})
    state = at_turn(state, 0, travel=["brown"], family=["black"])
    me, other = state.players
    me.goods["wagon"], me.cubes["brown"] = 1, 1
    me.time = data.track_length() - 1
    me.members[4].place, me.members[4].stage = COUNCIL, 3
    me.members[5].place, me.members[5].stage = CHURCH, 2
    me.customers = ["c01"]
    state.chronicle["farm"] = ["1" if s == "" else s for s in state.chronicle["farm"]]
    state.chronicle["crafts"][0] = "1"
    for member in other.members[:3]:
        member.place, member.where = "chronicle", "farm"
    free = [i for i, g in enumerate(state.graves) if g == ""]
    for i in free[:-1]:
        state.graves[i] = "x"

    state = choose(state, 0, "travel-brown")
    state = choose(state, 0, "go-north-0")
    state = choose(state, 0, "die-1")  # a #1 from the farm: farm spaces full, last grave
    assert state.ending and state.ender == 0
    state = choose(state, 1, "family-black")
    state = choose(state, 1, "born")
    assert state.phase == "over"
    result = engine.result(state)
    assert result is not None
    assert result.scores == (20, 5)
    assert result.breakdown[0] == {
        "prestige track": 5,
        "travel": 1,
        "church": 3,
        "council": 4,
        "chronicle": 0,
        "customers": 6,
        "coins": 1,
    }
    assert result.ranks == (1, 2)
