"""Round-robin schedules: the fewest rounds in which every pair of players meets at least
once at a table, for up to 12 players and every split into tables `pairing.table_sizes`
makes (a *shape*: the table sizes of a round, largest first).

The shortest schedules are not searched when a tournament starts: a local search finds short
ones fast but not always the shortest (11 players at 3+2+2+2+2 in 8 rounds it often misses), and
proving that none is shorter takes up to minutes. They are worked out once and kept in
`data/core/round_robin.json`, each with how it is known to be shortest: `bound` (as many
rounds as `lower_bound`) or `exhaustive` (`exhaustive` finds no schedule one round shorter).
`python -m meeple_hall.bot.round_robin` writes that file again (minutes), and `--check`
proves it again (the tests prove all but 12 players at tables of 3, which takes minutes).
A shape not in it (a game with another player range) is searched at run time, shortest not
guaranteed.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Iterator, Sequence
from functools import cache
from importlib.resources import files
from itertools import combinations, permutations
from pathlib import Path

Table = tuple[int, ...]
Round = tuple[Table, ...]
Shape = tuple[int, ...]

MAX_PLAYERS = 12
DATA = ("core", "round_robin.json")
SEARCH_SEEDS = 6  # local searches tried per number of rounds
SEARCH_STEPS = 200_000  # swaps per local search


def pairs_per_round(shape: Shape) -> int:
    return sum(math.comb(s, 2) for s in shape)


def lower_bound(players: int, shape: Shape) -> int:
    """No schedule is shorter: a round seats `pairs_per_round` pairs together, and a player
    meets at most (largest table − 1) others a round."""
    if players < 2:
        return 0
    by_pairs = math.ceil(math.comb(players, 2) / max(pairs_per_round(shape), 1))
    by_player = math.ceil((players - 1) / max(max(shape) - 1, 1))
    return max(by_pairs, by_player)


def covers(players: int, rounds: Sequence[Round]) -> bool:
    met = {pair for r in rounds for table in r for pair in combinations(sorted(table), 2)}
    return len(met) == math.comb(players, 2)


def local_search(
    players: int, shape: Shape, rounds: int, rng: random.Random, steps: int = SEARCH_STEPS
) -> list[Round] | None:
    """A schedule of `rounds` rounds found by swapping two players of one round between
    tables (annealing on the number of pairs that never meet); None if none was found.
    Players beyond the shape's seats sit out (a bye) that round."""
    seat_table = [t for t, size in enumerate(shape) for _ in range(size)]
    seat_table += [-1] * (players - len(seat_table))
    schedule = [rng.sample(range(players), players) for _ in range(rounds)]  # seat -> player
    met = [[0] * players for _ in range(players)]

    def table_of(order: list[int], table: int) -> list[int]:
        return [order[s] for s in range(players) if seat_table[s] == table]

    for order in schedule:
        for table in range(len(shape)):
            for a, b in combinations(table_of(order, table), 2):
                met[a][b] += 1
                met[b][a] += 1
    unmet = sum(met[a][b] == 0 for a, b in combinations(range(players), 2))
    heat = 1.0
    for _ in range(steps):
        if unmet == 0:
            return [_as_round(order, seat_table, len(shape)) for order in schedule]
        order = rng.choice(schedule)
        i, j = rng.randrange(players), rng.randrange(players)
        ti, tj = seat_table[i], seat_table[j]
        if ti == tj:
            continue
        pi, pj = order[i], order[j]
        with_i = [q for q in table_of(order, ti) if q != pi] if ti >= 0 else []
        with_j = [q for q in table_of(order, tj) if q != pj] if tj >= 0 else []
        change = 0  # pairs newly unmet minus pairs newly met
        for q in with_i:
            change += (met[pi][q] == 1) - (met[pj][q] == 0)
        for q in with_j:
            change += (met[pj][q] == 1) - (met[pi][q] == 0)
        if change <= 0 or rng.random() < math.exp(-change / heat):
            for q in with_i:
                met[pi][q] -= 1
                met[q][pi] -= 1
                met[pj][q] += 1
                met[q][pj] += 1
            for q in with_j:
                met[pj][q] -= 1
                met[q][pj] -= 1
                met[pi][q] += 1
                met[q][pi] += 1
            order[i], order[j] = pj, pi
            unmet += change
        heat = max(0.05, heat * 0.99995)
    return None


def _as_round(order: list[int], seat_table: list[int], tables: int) -> Round:
    seated = (
        tuple(sorted(order[s] for s in range(len(order)) if seat_table[s] == t))
        for t in range(tables)
    )
    return tuple(sorted(seated))


# -- the complete search -------------------------------------------------------------------
def partitions(players: Sequence[int], shape: Sequence[int]) -> Iterator[Round]:
    """Every split of `players` (ascending) into tables of the shape's sizes, once each: a
    table lists its players in order, and the tables go by their first player."""
    if not players:
        yield ()
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(shape)):
        left = list(shape)
        left.remove(size)
        for others in combinations(rest, size - 1):
            remaining = [p for p in rest if p not in others]
            for tail in partitions(remaining, left):
                yield ((first, *others), *tail)


def _orbit(first: Round, other: Round) -> tuple[tuple[int, ...], ...]:
    """What is left of `other` once the players are renamed in every way that keeps `first`
    (within its tables, and its tables of one size among themselves): how many players of
    each table of `first` sit at each table of `other`. Two rounds with the same are the
    same round up to such renaming."""
    first = tuple(sorted(first, key=len, reverse=True))  # rows by size, whatever the names
    row = {p: i for i, table in enumerate(first) for p in table}
    columns = []
    for table in other:
        counts = [0] * len(first)
        for p in table:
            counts[row[p]] += 1
        columns.append(counts)
    sizes = [len(t) for t in first]
    best = None
    for perm in permutations(range(len(first))):
        if any(sizes[perm[i]] != sizes[i] for i in range(len(first))):
            continue
        key = tuple(sorted(tuple(c[perm[i]] for i in range(len(first))) for c in columns))
        if best is None or key < best:
            best = key
    assert best is not None
    return best


def exhaustive(players: int, shape: Shape, rounds: int) -> list[Round] | None:
    """A schedule of `rounds` rounds, or None when there is none: a complete search.

    Take two rounds of a schedule whose kind (`_orbit` of one against the other) is the
    least of any two of its rounds: after renaming the players, the first seats them in
    order and the second is the first round listed of its kind; the other rounds, in
    ascending order, make no lesser kind with any round. The search tries all of those. It
    gives up a branch when more pairs have met twice than the rounds leave room for
    (`slack`), when one player has (`own_slack`), or when some players could no longer meet
    everyone in the rounds left."""
    shape = tuple(sorted(shape, reverse=True))
    if sum(shape) != players:
        return None
    search = _Search(players, shape, rounds)
    return None if search.slack < 0 else search.run()


class _Search:
    """The state of one `exhaustive` search: its bounds, and the rounds tried."""

    def __init__(self, players: int, shape: Shape, rounds: int) -> None:
        self.players, self.shape, self.rounds = players, shape, rounds
        self.slack = rounds * pairs_per_round(shape) - math.comb(players, 2)
        self.smallest, self.largest = min(shape), max(shape)
        self.own_slack = rounds * (self.largest - 1) - (players - 1)
        self.extra_per_round = sum(s * (s - 1) for s in shape) - players * (self.smallest - 1)
        self.everyone = (1 << players) - 1
        self.order = list(range(players))

    def run(self) -> list[Round] | None:
        shape = self.shape
        round1 = tuple(tuple(range(sum(shape[:i]), sum(shape[: i + 1]))) for i in range(len(shape)))
        met1 = self.seat([1 << p for p in range(self.players)], round1)
        if all(m == self.everyone for m in met1):
            return [round1]
        if self.rounds < 2:
            return None
        kinds: dict[tuple, Round] = {}
        for r in partitions(self.order, shape):
            if r != round1:
                kinds.setdefault(_orbit(round1, r), r)
        for kind in sorted(kinds):
            found = self.from_second(met1, round1, kinds[kind], kind)
            if found is not None:
                return found
        return None

    def from_second(
        self, met1: list[int], round1: Round, round2: Round, kind: tuple
    ) -> list[Round] | None:
        twice = [0] * self.players
        for table in round2:
            for a, b in combinations(table, 2):
                if met1[a] >> b & 1:
                    twice[a] += 1
                    twice[b] += 1
        if sum(twice) // 2 > self.slack or max(twice) > self.own_slack:
            return None
        if _orbit(round2, round1) < kind:
            return None
        return self.search(self.seat(met1, round2), sum(twice) // 2, twice, [round1, round2], kind)

    @staticmethod
    def seat(met: list[int], r: Round) -> list[int]:
        met = list(met)
        for table in r:
            mask = sum(1 << p for p in table)
            for p in table:
                met[p] |= mask
        return met

    def can_finish(self, met: list[int], left: int) -> bool:
        need = [self.players - bin(m).count("1") for m in met]  # `met` holds each player too
        if max(need) > left * (self.largest - 1):
            return False
        extra = sum(max(0, n - left * (self.smallest - 1)) for n in need)
        return extra <= left * self.extra_per_round

    def search(
        self, met: list[int], used: int, twice: list[int], chosen: list[Round], least: tuple
    ) -> list[Round] | None:
        if all(m == self.everyone for m in met):
            return chosen
        left = self.rounds - len(chosen)
        if left == 0 or not self.can_finish(met, left):
            return None
        last = chosen[-1] if len(chosen) > 2 else None
        for r, r_used, r_twice in self.grow(
            met, last, self.order, list(self.shape), [], True, used, twice
        ):
            if r == last or any(_orbit(c, r) < least or _orbit(r, c) < least for c in chosen):
                continue
            found = self.search(self.seat(met, r), r_used, r_twice, [*chosen, r], least)
            if found is not None:
                return found
        return None

    def grow(
        self,
        met: list[int],
        lower: Round | None,
        free: list[int],
        sizes: list[int],
        tables: list[Table],
        equal: bool,
        used: int,
        twice: list[int],
    ) -> Iterator[tuple[Round, int, list[int]]]:
        """Each round after `lower` (ascending) within the slacks, its tables so far being
        `tables`: (round, pairs met twice so far, per player)."""
        if not free:
            yield tuple(tables), used, twice
            return
        head, rest = free[0], free[1:]
        index = len(tables)
        for size in sorted(set(sizes)):
            left = list(sizes)
            left.remove(size)
            for others in combinations(rest, size - 1):
                table = (head, *others)
                still_equal = False
                if equal and lower is not None:
                    if table < lower[index]:
                        continue
                    still_equal = table == lower[index]
                counted = self.met_again(met, table, used, twice)
                if counted is None:
                    continue
                remaining = [p for p in rest if p not in others]
                yield from self.grow(
                    met, lower, remaining, left, [*tables, table], still_equal, *counted
                )

    def met_again(
        self, met: list[int], table: Table, used: int, twice: list[int]
    ) -> tuple[int, list[int]] | None:
        """The pairs met twice, in all and per player, with `table` seated; None beyond the
        slacks."""
        again = [(a, b) for a, b in combinations(table, 2) if met[a] >> b & 1]
        if used + len(again) > self.slack:
            return None
        if not again:
            return used, twice
        counts = list(twice)
        for a, b in again:
            counts[a] += 1
            counts[b] += 1
        if max(counts[a] for pair in again for a in pair) > self.own_slack:
            return None
        return used + len(again), counts


# -- the stored table ------------------------------------------------------------------------
def key(players: int, shape: Shape) -> str:
    return f"{players}:{','.join(map(str, shape))}"


@cache
def stored() -> dict[str, dict]:
    with (files("meeple_hall.data").joinpath(*DATA)).open(encoding="utf-8") as f:
        return json.load(f)["schedules"]


def schedule(players: int, shape: Shape) -> list[Round]:
    """The shortest schedule known for `players` at tables of this shape (player numbers
    0 … players−1), from the stored table; a shape not in it is searched now."""
    entry = stored().get(key(players, shape))
    if entry is not None:
        return [tuple(tuple(t) for t in r) for r in entry["rounds"]]
    rng = random.Random(key(players, shape))
    length = lower_bound(players, shape)
    while True:
        for _ in range(SEARCH_SEEDS):
            found = local_search(players, shape, length, rng)
            if found is not None:
                return found
        length += 1


def shortest(players: int, shape: Shape) -> tuple[list[Round], str]:
    """The shortest schedule and how it is known shortest (`bound` or `exhaustive`): from
    the lower bound up, a local search, else the complete search, which also proves a
    number of rounds impossible."""
    rng = random.Random(key(players, shape))
    length = lower_bound(players, shape)
    proof = "bound"
    while True:
        for _ in range(SEARCH_SEEDS):
            found = local_search(players, shape, length, rng)
            if found is not None:
                return found, proof
        if sum(shape) != players:  # byes: the complete search does not seat them
            proof = "search"
        else:
            found = exhaustive(players, shape, length)
            if found is not None:
                return found, proof
            proof = "exhaustive" if proof != "search" else proof
        length += 1


def shapes() -> list[tuple[int, Shape]]:
    """Every (players, shape) a round-robin of 2 to 12 players can be seated in, for games
    of up to 6 players (players beyond the shape's seats have a bye: an odd number at a
    two-player game)."""
    from meeple_hall.bot.pairing import table_sizes

    found = set()
    for high in range(2, 7):
        for size in range(2, high + 1):
            for players in range(2, MAX_PLAYERS + 1):
                sizes, _ = table_sizes(players, size, 2, high)
                found.add((players, tuple(sizes)))
    return sorted(found)


def check() -> None:
    """Prove again that each stored schedule covers every pair and is shortest (12 players
    at tables of 3 takes minutes: 6 rounds are shown impossible), printing the time each."""
    for name, entry in stored().items():
        players, shape = int(name.split(":")[0]), tuple(map(int, name.split(":")[1].split(",")))
        rounds = schedule(players, shape)
        started = time.perf_counter()
        assert covers(players, rounds), name
        if entry["shortest_by"] == "bound":
            assert len(rounds) == lower_bound(players, shape), name
        else:
            assert exhaustive(players, shape, len(rounds) - 1) is None, name
        took = time.perf_counter() - started
        print(f"{name}: {len(rounds)} rounds, shortest by {entry['shortest_by']} ({took:.1f} s)")


def write(path: Path) -> None:
    """Work out the schedules missing from the table at `path` (all, if it has none)."""
    kept = json.loads(path.read_text())["schedules"] if path.exists() else {}
    table = {}
    for players, shape in shapes():
        if key(players, shape) in kept:
            table[key(players, shape)] = kept[key(players, shape)]
            continue
        rounds, proof = shortest(players, shape)
        table[key(players, shape)] = {
            "rounds": [[list(t) for t in r] for r in rounds],
            "lower_bound": lower_bound(players, shape),
            "shortest_by": proof,
        }
        print(f"{key(players, shape)}: {len(rounds)} rounds ({proof})", flush=True)
    about = json.dumps(
        "Shortest round-robin schedules (every pair of players meets at least once), by "
        "players and table sizes. Written by `python -m meeple_hall.bot.round_robin` "
        "(bot/round_robin.py), checked by `python -m meeple_hall.bot.round_robin --check`: "
        "shortest_by 'bound' = as many rounds as the lower bound; 'exhaustive' = a complete "
        "search finds no schedule one round shorter; players beyond the tables' seats sit "
        "out (a bye)."
    )
    # One schedule a line: the file stays short enough to read.
    lines = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in table.items())
    path.write_text(f'{{\n "about": {about},\n "schedules": {{\n{lines}\n }}\n}}\n')


def main() -> None:
    parser = argparse.ArgumentParser(description="The table of shortest round-robins.")
    parser.add_argument("path", nargs="?", type=Path, default=Path("data", *DATA))
    parser.add_argument(
        "--check", action="store_true", help="prove the stored table again instead of writing"
    )
    args = parser.parse_args()
    if args.check:
        check()
    else:
        write(args.path)


if __name__ == "__main__":
    main()
