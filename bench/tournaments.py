"""Tournament and rating figures: the Swiss pairing time for 200 players (a late round, with
history), a 12-player round-robin schedule (from the stored table) and the time of the
complete search that shows one round fewer impossible, and the rating rebuild time for
10,000 results. With --proofs, every stored round-robin is proven shortest again (minutes).

    python bench/tournaments.py [--proofs]
"""

from __future__ import annotations

import argparse
import random
import time
from datetime import UTC, datetime, timedelta

from meeple_hall.bot import round_robin as schedules
from meeple_hall.bot.pairing import History, round_robin, swiss_round
from meeple_hall.bot.ratings import rebuild
from meeple_hall.bot.store import ResultRow


def swiss_200(rounds: int = 5) -> list[float]:
    rng = random.Random(1)
    players = list(range(200))
    history = History()
    times = []
    for _ in range(rounds):
        rng.shuffle(players)
        start = time.perf_counter()
        pairing = swiss_round(players, 4, 2, 4, history)
        times.append(time.perf_counter() - start)
        for table in pairing.tables:
            history.add_table(table)
    return times


def results(count: int) -> list[ResultRow]:
    rng = random.Random(2)
    rows: list[ResultRow] = []
    start = datetime(2026, 1, 1, tzinfo=UTC)
    table_id = 0
    while len(rows) < count:
        table_id += 1
        users = rng.sample(range(1, 500), rng.randint(2, 5))
        for seat, user in enumerate(users):
            rows.append(
                ResultRow(
                    table_id,
                    "keyflower",
                    1,
                    seat,
                    user,
                    50 - seat,
                    seat + 1,
                    False,
                    start + timedelta(minutes=table_id),
                    {},
                )
            )
    return rows[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--proofs", action="store_true", help="prove every stored round-robin")
    args = parser.parse_args()
    times = swiss_200()
    print(
        f"swiss pairing, 200 players, tables of 4: round 1 {times[0] * 1000:.0f} ms, "
        f"worst of {len(times)} rounds {max(times) * 1000:.0f} ms"
    )
    start = time.perf_counter()
    schedule = round_robin(list(range(12)), 4, 2, 4)
    print(
        f"round-robin schedule, 12 players at tables of 4: {len(schedule)} rounds "
        f"in {(time.perf_counter() - start) * 1000:.1f} ms"
    )
    start = time.perf_counter()
    assert schedules.exhaustive(12, (4, 4, 4), len(schedule) - 1) is None
    print(
        f"  {len(schedule) - 1} rounds impossible (lower bound "
        f"{schedules.lower_bound(12, (4, 4, 4))}): complete search "
        f"{(time.perf_counter() - start) * 1000:.0f} ms"
    )
    if args.proofs:
        schedules.check()
    rows = results(10_000)
    games = len({r.table_id for r in rows})
    start = time.perf_counter()
    book = rebuild(rows)
    print(
        f"rating rebuild, 10,000 results ({games} games, {len(book.players)} players): "
        f"{(time.perf_counter() - start) * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
