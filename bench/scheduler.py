"""What the one scheduler costs with many clocked tables (issue 11).

    python bench/scheduler.py [--tables 1000] [--idle 5] [--dir /tmp]

On a real SQLite file: 1,000 active Coffee Traders tables (2 players, clock=24h), each with
both seats awaited. Prints
- start: the time to read every clock from the store and re-arm the scheduler (the bot's
  `ClockService.load` + `start`: no game is replayed; each is loaded on first use, here by
  the bursts below), and the keys armed;
- idle: the process CPU time spent over `--idle` seconds of wall time with every table
  armed and nothing due (one pending asyncio timer for all of them);
- burst: every table's reminders falling due at once (2,000 waits, DMs switched off so
  Discord is not measured: state advanced and written), and every seat's time running out
  at once (timeout=ai with the random baseline: 2,000 moves submitted through the manager
  and logged, clocks written), wall time and per event.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import discord

from meeple_hall.bot import clocks as clocks_module
from meeple_hall.bot.clocks import ClockService
from meeple_hall.bot.live import TableManager
from meeple_hall.bot.store import Seat, SQLiteStore, UserPrefs


async def make_tables(store: SQLiteStore, count: int) -> None:
    for n in range(count):
        a, b = 2 * n + 1, 2 * n + 2
        table = await store.create_table(
            guild_id=1,
            channel_id=10_000 + n,
            host_id=a,
            game="coffee",
            options={},
            seed=n,
            seats=[Seat(a, f"p{a}"), Seat(b, f"p{b}")],
            settings={"clock": "24h"},
        )
        await store.start_table(table.id, min_seats=2, max_seats=4)
    for user in range(1, 2 * count + 1):
        await store.set_prefs(UserPrefs(user, turn_dms=False))


async def service(
    store: SQLiteStore, *, load: bool = False
) -> tuple[ClockService, TableManager, float]:
    """The clock service as a bot starts it: the games in play noted (none replayed), every
    clock read and re-armed from its row. With `load`, every game is loaded too (as on its
    first use), which begins each seat's wait and writes its clock row."""
    manager = TableManager(store)
    await manager.index()
    clocks = ClockService(SimpleNamespace(), manager, store)
    began = time.perf_counter()
    await clocks.load()
    await clocks.start()
    if load:
        await asyncio.gather(*(manager.fetch(table.id) for table in manager.served()))
    return clocks, manager, time.perf_counter() - began


def cpu_seconds() -> float:
    return time.process_time()


async def main(tables: int, idle: float, directory: str | None) -> None:
    with tempfile.TemporaryDirectory(dir=directory) as tmp:
        path = Path(tmp) / "bench.db"
        store = SQLiteStore(path)
        await store.open()
        print(f"{tables} clocked tables (coffee, 2 players, clock=24h) on {path.name}")
        began = time.perf_counter()
        await make_tables(store, tables)
        print(f"setup: {time.perf_counter() - began:.1f} s")

        # the first run writes every seat's clock row (each wait begins)
        clocks, manager, first = await service(store, load=True)
        print(
            f"first start, every game loaded (writes {len(clocks.rows)} clock rows): "
            f"{first * 1000:.0f} ms"
        )
        clocks.close()
        await manager.close()

        clocks, manager, rearm = await service(store)
        print(f"start: read and re-arm {len(clocks.scheduler)} keys in {rearm * 1000:.0f} ms")

        cpu, wall = cpu_seconds(), time.perf_counter()
        await asyncio.sleep(idle)
        spent = cpu_seconds() - cpu
        print(
            f"idle: {spent * 1000:.1f} ms CPU over {time.perf_counter() - wall:.1f} s wall "
            f"({spent / idle * 100:.3f} % of a core)"
        )

        now = discord.utils.utcnow()
        for row in clocks.rows.values():
            row.next_remind = now - timedelta(seconds=1)
        keys = list(clocks.rows)
        began = time.perf_counter()
        await clocks.reminders.due(keys, now)
        took = time.perf_counter() - began
        print(
            f"burst: {len(keys)} reminders due at once in {took * 1000:.0f} ms "
            f"({took / len(keys) * 1e6:.0f} µs each)"
        )

        # the random baseline answers, so the AI's thinking is not counted
        clocks_module.ai.seat_level = lambda game_id, seat: "random"  # type: ignore[attr-defined]
        for row in clocks.rows.values():
            row.deadline = now - timedelta(days=3)
        began = time.perf_counter()
        await clocks._fire(keys)
        took = time.perf_counter() - began
        moved = sum(1 for g in manager.games.values() for seat in g.acted.values())
        print(
            f"burst: {len(keys)} timeouts due at once in {took * 1000:.0f} ms "
            f"({took / len(keys) * 1e3:.2f} ms each; {moved} moves logged)"
        )
        clocks.close()
        await manager.close()
        await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--idle", type=float, default=5.0)
    parser.add_argument("--dir", default=None)
    args = parser.parse_args()
    asyncio.run(main(args.tables, args.idle, args.dir))
