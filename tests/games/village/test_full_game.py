"""Whole games scored again by hand from the BB final scoring tables."""

from __future__ import annotations

import pytest

from games.village import data
from games.village.state import ALIVE, CHURCH, COUNCIL
from tests.games.village.helpers import playout

TRAVEL = {0: 0, 1: 1, 2: 3, 3: 6, 4: 10, 5: 14, 6: 18}
CHURCH_POINTS = {1: 2, 2: 3, 3: 4, 4: 6}
COUNCIL_POINTS = {1: 0, 2: 2, 3: 4, 4: 6}


def chronicle_points(n: int) -> int:
    return 0 if n < 3 else {3: 4, 4: 7}.get(n, 12)


@pytest.mark.parametrize(("num_players", "seed"), [(1, 21), (2, 22), (4, 24)])
def test_final_scores_follow_the_rulebook_tables(num_players: int, seed: int) -> None:
    from games.village import engine

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
