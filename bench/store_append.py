"""How fast the store logs moves: appends to a real SQLite file, one transaction each.

    python bench/store_append.py [--moves 2000] [--snapshot-bytes 20000] [--dir /tmp]

Prints moves per second and the p50/p95 latency of one append_action, without snapshots,
with a snapshot stored on every move (the worst case), and with two stores on the same
file taking turns (every append then has to take the file's write lock from the other).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from meeple_hall.bot.store import Seat, SQLiteStore


async def active_table(store: SQLiteStore, channel_id: int) -> int:
    table = await store.create_table(
        guild_id=1,
        channel_id=channel_id,
        host_id=1,
        game="bench",
        options={},
        seed=1,
        seats=[Seat(1, "host"), Seat(None, "AI", ai=True)],
    )
    await store.start_table(table.id, min_seats=1, max_seats=2)
    return table.id


async def run(
    stores: list[SQLiteStore], table_id: int, moves: int, snapshot: str | None
) -> tuple[float, list[float]]:
    """The wall time of the whole run, and the latency of each append."""
    latencies = []
    began = time.perf_counter()
    for seq in range(1, moves + 1):
        store = stores[seq % len(stores)]
        started = time.perf_counter()
        await store.append_action(table_id, seq, seq % 2, ("bid", "S07", "red", "2"), 1, snapshot)
        latencies.append(time.perf_counter() - started)
    return time.perf_counter() - began, latencies


def report(name: str, timing: tuple[float, list[float]]) -> None:
    wall, latencies = timing
    cuts = statistics.quantiles(latencies, n=100)
    print(
        f"{name:<34} {len(latencies) / wall:>8.0f} moves/s"
        f"   p50 {cuts[49] * 1000:6.3f} ms   p95 {cuts[94] * 1000:6.3f} ms"
    )


async def main(moves: int, snapshot_bytes: int, directory: str | None) -> None:
    with tempfile.TemporaryDirectory(dir=directory) as folder:
        path = Path(folder) / "bench.db"
        store = SQLiteStore(path)
        await store.open()
        other = SQLiteStore(path)
        await other.open()
        snapshot = "x" * snapshot_bytes
        print(f"{moves} moves per run on {path} (WAL, synchronous=NORMAL)")
        report("append", await run([store], await active_table(store, 1), moves, None))
        report(
            f"append + {snapshot_bytes // 1000} kB snapshot",
            await run([store], await active_table(store, 2), moves, snapshot),
        )
        report(
            "append, two stores taking turns",
            await run([store, other], await active_table(store, 3), moves, None),
        )
        await other.close()
        await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--snapshot-bytes", type=int, default=20_000)
    parser.add_argument("--dir", default=None, help="where to put the database file")
    args = parser.parse_args()
    asyncio.run(main(args.moves, args.snapshot_bytes, args.dir))
