"""Pairing: table sizes for every count and game, Swiss repeat avoidance and seat balance,
round-robin coverage, elimination, byes; tournament points and tie-breaks."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from meeple_hall import games
from meeple_hall.bot import pairing, round_robin, standings
from meeple_hall.bot.pairing import History, swiss_round, table_sizes


@pytest.mark.parametrize("game_id", sorted(games.ids()))
def test_table_sizes_are_valid_for_every_count_and_game(game_id):
    engine = games.get(game_id)
    low, high = max(engine.min_players, 2), engine.max_players
    for size in range(low, high + 1):
        for players in range(3, 41):
            sizes, byes = table_sizes(players, size, engine.min_players, engine.max_players)
            assert sum(sizes) + byes == players
            assert all(low <= s <= high for s in sizes), (players, size, sizes)
            assert byes < low  # a bye only where no split can seat everyone
            if players % size == 0:
                assert sizes == [size] * (players // size) and byes == 0
            near_low, near_high = max(size - 1, low), min(size + 1, high)
            if any(k * near_low <= players <= k * near_high for k in range(1, players + 1)):
                # uneven counts take one seat more or fewer where that is enough
                assert all(abs(s - size) <= 1 for s in sizes), (players, size, sizes)


def test_byes_go_to_the_lowest_standing_who_had_none():
    history = History()
    order = list(range(5))  # a 3–4 player game: 5 players cannot all sit
    first = swiss_round(order, 4, 3, 4, history)
    assert first.byes == (4,)
    history.add_bye(4)
    for table in first.tables:
        history.add_table(table)
    second = swiss_round(order, 4, 3, 4, history)
    assert second.byes == (3,)


def test_swiss_avoids_repeat_opponents_while_avoidable():
    rng = random.Random(3)
    history = History()
    players = list(range(16))
    for _ in range(3):
        rng.shuffle(players)  # standings after random results
        round_ = swiss_round(players, 4, 2, 4, history)
        assert sorted(p for t in round_.tables for p in t) == sorted(players)
        for table in round_.tables:
            assert all(history.met[frozenset(pair)] == 0 for pair in combinations(table, 2))
            history.add_table(table)


def test_swiss_keeps_similar_standing_together():
    round_ = swiss_round(list(range(12)), 4, 2, 4, History())
    assert [sorted(t) for t in round_.tables] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]


def test_swiss_spreads_first_seats():
    rng = random.Random(5)
    history = History()
    players = list(range(8))
    for _ in range(4):
        rng.shuffle(players)
        for table in swiss_round(players, 4, 2, 4, history).tables:
            history.add_table(table)
    firsts = [history.firsts(p) for p in range(8)]
    assert sum(firsts) == 8 and max(firsts) - min(firsts) <= 1, firsts


@pytest.mark.parametrize(("players", "size", "best"), [(4, 4, 1), (8, 4, 3), (9, 3, 4)])
def test_round_robin_meets_everyone_in_the_fewest_rounds(players, size, best):
    schedule = pairing.round_robin(list(range(players)), size, 2, max(size, 4))
    met = {frozenset(p) for r in schedule for t in r.tables for p in combinations(t, 2)}
    assert met == {frozenset(p) for p in combinations(range(players), 2)}
    sizes, _ = table_sizes(players, size, 2, max(size, 4))
    assert len(schedule) == best == round_robin.lower_bound(players, tuple(sizes))


@pytest.mark.parametrize("players", [5, 7, 10, 12])
def test_round_robin_covers_every_pair(players):
    schedule = pairing.round_robin(list(range(players)), 4, 2, 4)
    met = {frozenset(p) for r in schedule for t in r.tables for p in combinations(t, 2)}
    assert len(met) == players * (players - 1) // 2
    sizes, _ = table_sizes(players, 4, 2, 4)
    assert len(schedule) >= round_robin.lower_bound(players, tuple(sizes))


def test_elimination_until_one_final_table():
    players = list(range(16))
    rounds = 0
    while True:
        rounds += 1
        round_ = pairing.elimination_round(players, 4, 2, 4, History())
        if len(round_.tables) == 1 and not round_.byes:
            break
        on = list(round_.byes)
        for table in round_.tables:
            on += list(table[: pairing.advancing(len(table), None)])
        assert len(on) < len(players)
        players = sorted(on)
    assert rounds == 2 and len(players) == 4  # 16 → 4 tables → their 4 winners: the final
    # snake seeding: the four best sit at four different tables
    first = pairing.elimination_round(list(range(16)), 4, 2, 4, History())
    assert sorted(min(t) for t in first.tables) == [0, 1, 2, 3]
    assert pairing.advancing(5, None) == 2 and pairing.advancing(3, None) == 1
    assert pairing.advancing(4, 9) == 3


def test_points_share_tied_places():
    assert standings.points_for_ranks([1, 2, 3, 4]) == [10, 6, 3, 1]
    assert standings.points_for_ranks([1, 1, 3, 4]) == [8, 8, 3, 1]
    assert standings.points_for_ranks([2, 1, 2]) == [3.5, 10, 3.5]
    for size, points in standings.POINTS.items():
        assert len(points) == size and list(points) == sorted(points, reverse=True)


def test_tie_breaks_in_order():
    r = standings.TableResult
    results = [
        r(1, (1, 2, 3), (1, 2, 3), (30, 20, 10)),
        r(1, (4, 5, 6), (1, 2, 3), (50, 10, 5)),
        r(2, (1, 3, 6), (2, 3, 1), (20, 10, 40)),
        r(2, (4, 2, 5), (2, 1, 3), (30, 60, 5)),
    ]
    table = {s.user_id: s for s in standings.standings(range(1, 7), results, {})}
    # 1 and 4 both have 15 points; 4's opponents have more (41 against 35)
    assert table[1].points == table[4].points == 15
    assert table[4].opponents_points > table[1].opponents_points
    order = [s.user_id for s in standings.standings(range(1, 7), results, {})]
    assert order.index(4) < order.index(1)
    # equal points and opponents' points: the share of the winner's score decides
    same = [r(1, (1, 2), (1, 1), (10, 10)), r(1, (3, 4), (1, 2), (10, 5))]
    s = {x.user_id: x for x in standings.standings(range(1, 5), same, {}, None)}
    assert s[1].winner_share == 1.0 and s[4].winner_share == 0.5
    # then total score
    tied = [r(1, (1, 2), (1, 1), (10, 10)), r(1, (3, 4), (1, 1), (20, 20))]
    order = [x.user_id for x in standings.standings(range(1, 5), tied, {})]
    assert order[:2] == [3, 4] and order[2:] == [1, 2]


def test_bye_scores_the_round_average_or_the_organisers_number():
    r = standings.TableResult
    results = [r(1, (1, 2, 3, 4), (1, 2, 3, 4), (4, 3, 2, 1))]
    avg = {s.user_id: s.points for s in standings.standings(range(1, 6), results, {1: [5]})}
    assert avg[5] == 5.0  # (10 + 6 + 3 + 1) / 4
    fixed = {s.user_id: s.points for s in standings.standings(range(1, 6), results, {1: [5]}, 7)}
    assert fixed[5] == 7
