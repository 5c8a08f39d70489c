"""The organisers' tools as pure functions (issue 28): points per place of their own, a
round 1 seeded by rating (the strongest spread over the tables), the final table of the
best, and the final's order on top of the standings."""

from __future__ import annotations

import pytest

from meeple_hall.bot import pairing, standings
from meeple_hall.bot.standings import TableResult


def test_custom_points_per_place_score_the_table_and_share_ties():
    custom = (6, 4, 2, 1)
    assert standings.points_for_ranks([2, 1, 3, 4], custom) == [4, 6, 2, 1]
    assert standings.points_for_ranks([1, 2, 3], custom) == [6, 4, 2]  # a table of three
    assert standings.points_for_ranks([1, 1, 3], custom) == [5, 5, 2]
    assert standings.points_for_ranks([1, 2, 3, 4, 5], custom)[-1] == 0  # past the list
    results = [TableResult(1, (10, 11, 12, 13), (1, 2, 3, 4), (50, 40, 30, 20))]
    ranked = standings.standings([10, 11, 12, 13, 14], results, {1: [14]}, None, custom)
    points = {s.user_id: s.points for s in ranked}
    assert points == {10: 6, 11: 4, 12: 2, 13: 1, 14: 3.25}  # the bye: the round's average
    assert standings.standings([10, 11], results, {})[0].points == 10  # default table


@pytest.mark.parametrize(
    ("custom", "size", "fits"),
    [
        ((6, 4, 2, 1), 4, True),
        ((6, 4, 2, 1), 3, True),
        ((6, 4, 2), 4, False),  # a fourth place has no points
        ((4, 6, 2, 1), 4, False),  # rises
        ((6, 4, 2, -1), 4, False),
    ],
)
def test_points_fit_a_table(custom, size, fits):
    assert standings.points_fit(custom, size) is fits


def test_seeding_by_rating_spreads_the_strongest_over_the_tables():
    by_rating = list(range(1, 10))  # 1 strongest
    seeded = pairing.seeded_round(by_rating, 3, 2, 4, pairing.History())
    assert sorted(len(t) for t in seeded.tables) == [3, 3, 3] and seeded.byes == ()
    top_three = [next(i for i, t in enumerate(seeded.tables) if p in t) for p in (1, 2, 3)]
    assert sorted(top_three) == [0, 1, 2]  # the three strongest at three tables
    assert {frozenset(t) for t in seeded.tables} == {
        frozenset({1, 6, 7}),
        frozenset({2, 5, 8}),
        frozenset({3, 4, 9}),
    }


def test_the_final_table_seats_the_best():
    final = pairing.final_table([5, 3, 8, 1, 2], 4, pairing.History())
    assert final.byes == () and len(final.tables) == 1
    assert sorted(final.tables[0]) == [1, 3, 5, 8]


def test_the_final_decides_the_top_of_the_standings():
    swiss = [TableResult(1, (1, 2, 3, 4), (1, 2, 3, 4), (9, 8, 7, 6))]
    ranked = standings.standings([1, 2, 3, 4, 5], swiss, {})
    final = TableResult(2, (1, 2, 3), (3, 1, 2), (5, 9, 7))
    order = [s.user_id for s in standings.final_first(ranked, final)]
    assert order[:3] == [2, 3, 1] and set(order[3:]) == {4, 5}
    assert standings.final_first(ranked, None) == ranked
