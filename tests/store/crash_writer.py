"""A writer process for the crash tests: it appends moves to a store and gets killed.

    python -m tests.store.crash_writer DATABASE_URL TABLE_ID MODE [COUNT]

DATABASE_URL is anything open_store takes: a SQLite file's path, or a PostgreSQL URL.

Move n has choices ("move", "<n>") and a snapshot "state <n>" (see `expected_snapshot`).
Modes, each reporting on stdout, one line per event, flushed at once:
- between: append COUNT moves, print "committed <n>" after each, then "idle", and wait.
- inside (SQLite only): append COUNT moves, then start move COUNT+1 with a snapshot big
  enough to spill into the WAL file and print "inside" just before its COMMIT, and wait.
- stream: append moves without end, printing "committed <n>" after each.
- race WORKER COUNT: print "ready", wait for a line on stdin, then try to append moves
  1..COUNT, printing "won <n>" or "lost <n>" for each.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from meeple_hall.bot.store import SQLiteStore, StaleAction, Store, open_store

BIG_SNAPSHOT_CHARS = 8_000_000


def expected_snapshot(seq: int) -> str:
    return f"state {seq}"


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def append(store: Store, table_id: int, seq: int, snapshot: str | None = None) -> None:
    await store.append_action(
        table_id, seq, seq % 2, ("move", str(seq)), None, snapshot or expected_snapshot(seq)
    )


def hold_before_commit(store: SQLiteStore) -> None:
    """From now on the store stops just before COMMIT, forever."""
    db = store._connection()
    execute = db.execute

    def held(sql: str, parameters: Any = None) -> Any:
        if sql == "COMMIT":
            say("inside")
            return asyncio.sleep(3600)
        return execute(sql, parameters)

    db.execute = held


async def main(url: str, table_id: int, mode: str, args: list[str]) -> None:
    store = open_store(url)
    await store.open()
    try:
        await run(store, table_id, mode, args)
    finally:
        # An open aiosqlite connection keeps its (non-daemon) thread and the process alive:
        # a writer that fails must still exit, for the test to see the failure.
        await store.close()


async def run(store: Store, table_id: int, mode: str, args: list[str]) -> None:
    if mode == "race":
        worker, count = args[0], int(args[1])
        say("ready")
        await asyncio.to_thread(sys.stdin.readline)
        for seq in range(1, count + 1):
            try:
                await store.append_action(table_id, seq, 0, (worker, str(seq)), None)
            except StaleAction:
                say(f"lost {seq}")
            else:
                say(f"won {seq}")
        return
    count = int(args[0]) if args else 0
    seq = await store.last_seq(table_id)
    while mode == "stream" or seq < count:
        seq += 1
        await append(store, table_id, seq)
        say(f"committed {seq}")
    if mode == "between":
        say("idle")
    elif mode == "inside":
        assert isinstance(store, SQLiteStore), "the inside mode holds a SQLite transaction"
        hold_before_commit(store)
        await append(store, table_id, seq + 1, snapshot="x" * BIG_SNAPSHOT_CHARS)
    await asyncio.sleep(3600)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]))
