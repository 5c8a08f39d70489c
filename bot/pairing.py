"""Seating a tournament round: how many tables of which size, who sits together, in which
seat order, and who has a bye. Pure functions of the standings and the history so far.

- `table_sizes`: tables of the chosen size; when the players do not divide evenly, some
  tables take one seat more or fewer, always within the game's player range; byes only
  when no such split exists.
- `swiss_round`: players of similar standing together, repeat opponents avoided as far as
  possible, first seats spread across rounds.
- `round_robin`: the fewest rounds in which every pair of players meets at least once (the
  schedules of bot/round_robin.py), the players placed in it at random, first seats spread.
- `elimination_round`: strong players spread over the tables (snake seeding).
- `seeded_round`: a Swiss round 1 by rating, snake-seeded so the strongest do not meet
  first; `final_table`: the best N at one table.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from meeple_hall.bot.round_robin import schedule as round_robin_schedule

REPEAT_COST = 1000  # per earlier meeting of two players at the same table
FIRST_SEAT_COST = 4  # per earlier first seat of the one who would now sit first
SWAP_WINDOW = 3  # swiss: swaps reach this many tables up or down the standings


@dataclass
class History:
    """What earlier rounds did: who met whom, seat positions, byes."""

    met: Counter[frozenset[int]] = field(default_factory=Counter)
    positions: dict[int, list[int]] = field(default_factory=dict)  # seat indexes, 0 = first
    byes: Counter[int] = field(default_factory=Counter)

    def add_table(self, seats: Sequence[int]) -> None:
        for a, b in combinations(seats, 2):
            self.met[frozenset((a, b))] += 1
        for position, player in enumerate(seats):
            self.positions.setdefault(player, []).append(position)

    def add_bye(self, player: int) -> None:
        self.byes[player] += 1

    def firsts(self, player: int) -> int:
        return sum(1 for p in self.positions.get(player, []) if p == 0)

    def mean_position(self, player: int, size: int = 4) -> float:
        """Average relative seat (0 first … 1 last); 0.5 for a player new to the tables."""
        seen = self.positions.get(player)
        if not seen:
            return 0.5
        return sum(seen) / len(seen) / max(size - 1, 1)


@dataclass(frozen=True)
class Pairing:
    tables: tuple[tuple[int, ...], ...]  # each in seat order
    byes: tuple[int, ...] = ()


def size_range(size: int, min_players: int, max_players: int) -> tuple[int, int]:
    """The table sizes allowed: one either side of `size`, within the game's range (and at
    least two players a table)."""
    low_game, high_game = max(min_players, 2), max_players
    size = min(max(size, low_game), high_game)
    return max(size - 1, low_game), min(size + 1, high_game)


def table_sizes(
    players: int, size: int, min_players: int, max_players: int
) -> tuple[list[int], int]:
    """(table sizes, largest first; number of byes) for `players` players: as few byes as
    the game's range allows (none from two players on), then tables as close to `size` as
    possible (least squared difference), so uneven counts take one seat more or fewer
    where that is enough."""
    low, high = max(min_players, 2), max_players
    size = min(max(size, low), high)
    for byes in range(players + 1):
        seated = players - byes
        best: tuple[int, list[int]] | None = None
        for count in range(1, seated // low + 1):
            if not count * low <= seated <= count * high:
                continue
            base, extra = divmod(seated, count)
            sizes = [base + 1] * extra + [base] * (count - extra)
            off = sum((s - size) ** 2 for s in sizes)
            if best is None or off < best[0]:
                best = (off, sizes)
        if best is not None:
            return best[1], byes
    return [], players


def _table_cost(table: Sequence[int], standing: dict[int, int], history: History) -> float:
    repeats = sum(history.met[frozenset(p)] for p in combinations(table, 2))
    places = [standing[p] for p in table]
    first = min(history.firsts(p) for p in table)
    return REPEAT_COST * repeats + (max(places) - min(places)) + FIRST_SEAT_COST * first


def _improve(
    tables: list[list[int]],
    cost: Callable[[list[int]], float],
    window: int | None,
) -> None:
    """Swap players between tables while a swap lowers the total cost."""
    costs = [cost(t) for t in tables]
    improved = True
    while improved:
        improved = False
        for i in range(len(tables)):
            reach = range(
                i + 1, len(tables) if window is None else min(len(tables), i + 1 + window)
            )
            for j in reach:
                best = (0.0, -1, -1, 0.0, 0.0)
                for a in range(len(tables[i])):
                    for b in range(len(tables[j])):
                        ti, tj = tables[i][:], tables[j][:]
                        ti[a], tj[b] = tj[b], ti[a]
                        ci, cj = cost(ti), cost(tj)
                        gain = costs[i] + costs[j] - ci - cj
                        if gain > best[0] + 1e-9:
                            best = (gain, a, b, ci, cj)
                if best[1] >= 0:
                    _, a, b, ci, cj = best
                    tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
                    costs[i], costs[j] = ci, cj
                    improved = True


def seat_order(table: Sequence[int], history: History, standing: dict[int, int]) -> tuple[int, ...]:
    """Who sat first least goes first; then whoever has sat furthest back on average."""
    size = len(table)
    return tuple(
        sorted(
            table,
            key=lambda p: (history.firsts(p), -history.mean_position(p, size), standing[p]),
        )
    )


def _pick_byes(order: Sequence[int], count: int, history: History) -> list[int]:
    """The lowest-standing players among those with the fewest byes so far."""
    ranked = sorted(range(len(order)), key=lambda i: (history.byes[order[i]], -i))
    return [order[i] for i in ranked[:count]]


def swiss_round(
    order: Sequence[int], size: int, min_players: int, max_players: int, history: History
) -> Pairing:
    """One Swiss round for players listed best standing first."""
    sizes, bye_count = table_sizes(len(order), size, min_players, max_players)
    byes = _pick_byes(order, bye_count, history)
    seated = [p for p in order if p not in byes]
    standing = {p: i for i, p in enumerate(order)}
    tables, start = [], 0
    for s in sizes:
        tables.append(seated[start : start + s])
        start += s
    _improve(tables, lambda t: _table_cost(t, standing, history), SWAP_WINDOW)
    return Pairing(
        tuple(seat_order(t, history, standing) for t in tables),
        tuple(sorted(byes, key=standing.__getitem__)),
    )


def round_robin(
    players: Sequence[int], size: int, min_players: int, max_players: int, *, seed: int = 0
) -> list[Pairing]:
    """Rounds in which every pair meets at least once, as few as can be: the shortest
    schedule for this many players at these table sizes, the players given its places in
    an order drawn from `seed`, each table's first seat to whoever sat first least."""
    sizes, _ = table_sizes(len(players), size, min_players, max_players)
    order = list(players)
    random.Random(seed).shuffle(order)
    history = History()
    standing = {p: 0 for p in players}
    rounds: list[Pairing] = []
    for planned in round_robin_schedule(len(order), tuple(sizes)):
        tables = tuple(seat_order([order[i] for i in t], history, standing) for t in planned)
        for table in tables:
            history.add_table(table)
        seated = {p for table in tables for p in table}
        rounds.append(Pairing(tables, tuple(p for p in players if p not in seated)))
    return rounds


def advancing(table_size: int, advance: int | None) -> int:
    """How many of a table go on: the organiser's number, else 1 of 2–4 and 2 of 5–6;
    always fewer than sit at the table."""
    default = 1 if table_size <= 4 else 2
    return max(1, min(advance or default, table_size - 1))


def is_final(players: int, size: int, min_players: int, max_players: int) -> bool:
    """Few enough players left for one table."""
    _low, high = size_range(size, min_players, max_players)
    return players <= high


def elimination_round(
    order: Sequence[int], size: int, min_players: int, max_players: int, history: History
) -> Pairing:
    """Players listed best first, spread over the tables by snake seeding; byes (which go
    on) to the best. The final is one table of everyone left."""
    standing = {p: i for i, p in enumerate(order)}
    if is_final(len(order), size, min_players, max_players):
        return Pairing((seat_order(order, history, standing),))
    sizes, bye_count = table_sizes(len(order), size, min_players, max_players)
    byes = list(order[:bye_count])
    tables = _snake_tables(order[bye_count:], sizes)
    return Pairing(tuple(seat_order(t, history, standing) for t in tables), tuple(byes))


def seeded_round(
    order: Sequence[int], size: int, min_players: int, max_players: int, history: History
) -> Pairing:
    """A Swiss round 1 for players listed strongest first: spread over the tables by snake
    seeding (the strongest at different tables); byes, if any, to the weakest."""
    standing = {p: i for i, p in enumerate(order)}
    sizes, bye_count = table_sizes(len(order), size, min_players, max_players)
    byes = _pick_byes(order, bye_count, history)
    tables = _snake_tables([p for p in order if p not in byes], sizes)
    return Pairing(
        tuple(seat_order(t, history, standing) for t in tables),
        tuple(sorted(byes, key=standing.__getitem__)),
    )


def final_table(order: Sequence[int], count: int, history: History) -> Pairing:
    """The best `count` of `order` (best first) at one table; no byes."""
    standing = {p: i for i, p in enumerate(order)}
    return Pairing((seat_order(order[:count], history, standing),))


def _snake_tables(seated: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """Players listed best first dealt over tables of `sizes` there and back (snake)."""
    tables: list[list[int]] = [[] for _ in sizes]
    index, step = 0, 1
    for player in seated:
        while len(tables[index]) >= sizes[index]:
            index, step = _snake(index, step, len(tables))
        tables[index].append(player)
        index, step = _snake(index, step, len(tables))
    return tables


def _snake(index: int, step: int, count: int) -> tuple[int, int]:
    nxt = index + step
    if 0 <= nxt < count:
        return nxt, step
    return index, -step
