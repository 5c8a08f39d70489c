"""A writer killed with SIGKILL loses nothing it committed and leaves nothing half-written."""

import asyncio
import signal
import sqlite3
import sys
from pathlib import Path

from meeple_hall.bot.store import Snapshot, SQLiteStore
from tests.store.conftest import active_table
from tests.store.crash_writer import BIG_SNAPSHOT_CHARS, expected_snapshot

REPO = Path(__file__).resolve().parents[2]


async def start_writer(db_path: Path, table_id: int, *args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.store.crash_writer",
        str(db_path),
        str(table_id),
        *args,
        cwd=REPO,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )


async def read_until(writer: asyncio.subprocess.Process, last: str) -> list[str]:
    lines: list[str] = []
    while True:
        raw = await asyncio.wait_for(writer.stdout.readline(), timeout=60)
        assert raw, f"the writer stopped early after {lines}"
        lines.append(raw.decode().strip())
        if lines[-1] == last:
            return lines


async def kill(writer: asyncio.subprocess.Process) -> None:
    writer.send_signal(signal.SIGKILL)
    await writer.wait()
    assert writer.returncode == -signal.SIGKILL


async def prepared_table(db_path: Path) -> int:
    store = SQLiteStore(db_path)
    await store.open()
    table = await active_table(store)
    await store.close()
    return table.id


async def assert_whole_log(store: SQLiteStore, table_id: int, count: int) -> None:
    """Moves 1..count exactly as the writer made them, each with its snapshot."""
    logged = await store.actions(table_id)
    assert [(a.seq, a.seat, a.choices) for a in logged] == [
        (seq, seq % 2, ("move", str(seq))) for seq in range(1, count + 1)
    ]
    assert await store.latest_snapshot(table_id) == Snapshot(count, expected_snapshot(count))


def integrity(db_path: Path) -> str:
    with sqlite3.connect(db_path) as db:
        return db.execute("PRAGMA integrity_check").fetchone()[0]


async def test_killed_between_two_moves(db_path):
    table_id = await prepared_table(db_path)
    writer = await start_writer(db_path, table_id, "between", "5")
    assert await read_until(writer, "idle") == [f"committed {n}" for n in range(1, 6)] + ["idle"]
    await kill(writer)

    store = SQLiteStore(db_path)
    await store.open()
    await assert_whole_log(store, table_id, 5)
    await store.append_action(table_id, 6, 0, ("move", "6"), None, expected_snapshot(6))
    await assert_whole_log(store, table_id, 6)
    await store.close()
    assert integrity(db_path) == "ok"


async def test_killed_inside_a_transaction(db_path):
    table_id = await prepared_table(db_path)
    writer = await start_writer(db_path, table_id, "inside", "3")
    await read_until(writer, "inside")
    # Most of the uncommitted snapshot has spilled from SQLite's page cache (2 MB by default)
    # into the WAL file: there are uncommitted frames on disk for recovery to ignore.
    wal = db_path.with_name(db_path.name + "-wal")
    assert wal.stat().st_size > BIG_SNAPSHOT_CHARS // 2
    await kill(writer)

    store = SQLiteStore(db_path)
    await store.open()
    await assert_whole_log(store, table_id, 3)
    # The dead writer's lock went with it: the next move goes in.
    await store.append_action(table_id, 4, 0, ("move", "4"), None, expected_snapshot(4))
    await assert_whole_log(store, table_id, 4)
    await store.close()
    assert integrity(db_path) == "ok"


async def test_killed_at_any_moment_of_a_stream_of_moves(db_path):
    table_id = await prepared_table(db_path)
    seen = 0
    for _ in range(2):
        writer = await start_writer(db_path, table_id, "stream")
        seen += 15
        await read_until(writer, f"committed {seen}")
        await kill(writer)

        store = SQLiteStore(db_path)
        await store.open()
        seen = await store.last_seq(table_id)
        await assert_whole_log(store, table_id, seen)
        await store.close()
    assert integrity(db_path) == "ok"


async def test_two_processes_racing_apply_each_move_once(db_path):
    table_id = await prepared_table(db_path)
    count = 100
    writers = [await start_writer(db_path, table_id, "race", f"p{i}", str(count)) for i in (0, 1)]
    for writer in writers:
        await read_until(writer, "ready")
    for writer in writers:
        writer.stdin.write(b"go\n")
        await writer.stdin.drain()
    outputs = await asyncio.gather(*(asyncio.wait_for(w.communicate(), 180) for w in writers))
    assert [w.returncode for w in writers] == [0, 0]

    won = {}
    for index, (stdout, _) in enumerate(outputs):
        lines = stdout.decode().split()
        results = dict(zip(lines[1::2], lines[0::2], strict=True))
        assert sorted(int(seq) for seq in results) == list(range(1, count + 1))
        won[f"p{index}"] = {int(seq) for seq, result in results.items() if result == "won"}
    assert won["p0"].isdisjoint(won["p1"])
    assert won["p0"] | won["p1"] == set(range(1, count + 1))

    store = SQLiteStore(db_path)
    await store.open()
    logged = await store.actions(table_id)
    await store.close()
    assert [a.seq for a in logged] == list(range(1, count + 1))
    assert all(a.seq in won[a.choices[0]] for a in logged)
