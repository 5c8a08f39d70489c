"""The stored round-robin schedules: one for every player count and table split a game can
ask for, each seating everyone at most once a round, covering every pair, and shortest (as many
rounds as the lower bound, or one round fewer shown impossible by the complete search)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from meeple_hall import games
from meeple_hall.bot import pairing
from meeple_hall.bot import round_robin as rr
from meeple_hall.bot.pairing import table_sizes

STORED = sorted(rr.stored())
# 12 players at tables of 3: the complete search needs minutes to show 6 rounds impossible;
# `python -m meeple_hall.bot.round_robin --check` proves it (bench/README.md has the time).
SLOW_PROOFS = {"12:3,3,3,3"}


def parse(name: str) -> tuple[int, tuple[int, ...]]:
    players, shape = name.split(":")
    return int(players), tuple(int(s) for s in shape.split(","))


@pytest.mark.parametrize("game_id", sorted(games.ids()))
def test_every_split_a_game_can_ask_for_is_stored(game_id):
    engine = games.get(game_id)
    low, high = max(engine.min_players, 2), engine.max_players
    for size in range(low, high + 1):
        for players in range(2, rr.MAX_PLAYERS + 1):
            sizes, _ = table_sizes(players, size, engine.min_players, engine.max_players)
            assert rr.key(players, tuple(sizes)) in rr.stored(), (game_id, size, players)


@pytest.mark.parametrize("name", STORED)
def test_a_stored_schedule_seats_everyone_once_a_round_and_covers_every_pair(name):
    players, shape = parse(name)
    rounds = rr.schedule(players, shape)
    byes = Counter()  # players beyond the seats sit out: an odd number at two-player tables
    for r in rounds:
        seated = [p for table in r for p in table]
        assert len(set(seated)) == len(seated) == sum(shape) and set(seated) <= set(range(players))
        assert Counter(len(table) for table in r) == Counter(shape)
        byes.update(set(range(players)) - set(seated))
    if sum(shape) < players:
        assert max(byes.values()) - min(byes.values()) <= 1 and len(byes) == players
    met = {frozenset(pair) for r in rounds for table in r for pair in combinations(table, 2)}
    assert len(met) == players * (players - 1) // 2
    entry = rr.stored()[name]
    assert entry["lower_bound"] == rr.lower_bound(players, shape)
    if entry["shortest_by"] == "bound":
        assert len(rounds) == rr.lower_bound(players, shape)
    else:
        assert entry["shortest_by"] == "exhaustive" and len(rounds) > rr.lower_bound(players, shape)


@pytest.mark.parametrize(
    "name",
    [n for n in STORED if rr.stored()[n]["shortest_by"] == "exhaustive" and n not in SLOW_PROOFS],
)
def test_one_round_fewer_is_impossible_where_the_bound_is_not_met(name):
    players, shape = parse(name)
    assert rr.exhaustive(players, shape, len(rr.schedule(players, shape)) - 1) is None


@pytest.mark.parametrize(
    "name", ["5:3,2", "6:3,3", "7:3,2,2", "8:4,4", "9:3,3,3", "9:3,2,2,2", "10:4,3,3"]
)
def test_the_complete_search_finds_a_schedule_where_one_exists(name):
    """So that its None means something: at the stored length it finds one (other than the
    stored one, which came mostly from the local search)."""
    players, shape = parse(name)
    found = rr.exhaustive(players, shape, len(rr.schedule(players, shape)))
    assert found is not None and rr.covers(players, found)


@pytest.mark.parametrize(
    ("players", "size", "rounds"),
    [
        (9, 3, 4),  # Kirkman's schoolgirls, cut to 9: the affine plane of order 3
        (12, 4, 5),  # the lower bound is 4; 4 rounds are impossible
        (12, 3, 7),  # the lower bound is 6; 6 rounds are impossible
        (12, 6, 3),
        (11, 3, 6),  # 3+3+3+2
        (8, 2, 7),  # one opponent a round: everyone once
    ],
)
def test_known_shortest_round_robins(players, size, rounds):
    ids = [100 + 7 * i for i in range(players)]
    schedule = pairing.round_robin(ids, size, 2, max(size, 4), seed=3)
    met = {frozenset(p) for r in schedule for t in r.tables for p in combinations(t, 2)}
    assert met == {frozenset(p) for p in combinations(ids, 2)}
    assert len(schedule) == rounds
    assert all(not r.byes for r in schedule)


def test_round_robin_places_players_by_seed_and_spreads_first_seats():
    ids = list(range(8))
    one = pairing.round_robin(ids, 4, 2, 4, seed=1)
    other = pairing.round_robin(ids, 4, 2, 4, seed=2)
    assert one == pairing.round_robin(ids, 4, 2, 4, seed=1)
    assert one != other
    firsts = Counter(t[0] for r in one for t in r.tables)
    assert max(firsts.values()) == 1  # 6 first seats in 3 rounds, nobody first twice


def test_a_split_not_stored_is_searched():
    assert rr.key(13, (7, 6)) not in rr.stored()
    rounds = rr.schedule(13, (7, 6))
    assert rr.covers(13, rounds) and len(rounds) >= rr.lower_bound(13, (7, 6))
