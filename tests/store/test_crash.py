"""A writer killed with SIGKILL loses nothing it committed and leaves nothing half-written;
two writer processes racing apply each move once. On both backends (a SQLite file, and one
PostgreSQL database the processes share), except what is about SQLite's WAL file."""

import asyncio
import signal
import sqlite3
import sys
from pathlib import Path

from meeple_hall.bot.store import Snapshot, SQLiteStore, Store, open_store
from tests.store.conftest import active_table, sqlite_only
from tests.store.crash_writer import BIG_SNAPSHOT_CHARS, expected_snapshot

REPO = Path(__file__).resolve().parents[2]


async def start_writer(database_url: str, table_id: int, *args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.store.crash_writer",
        database_url,
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


async def reopened(database_url: str) -> Store:
    store = open_store(database_url)
    await store.open()
    return store


async def prepared_table(database_url: str) -> int:
    store = await reopened(database_url)
    table = await active_table(store)
    await store.close()
    return table.id


async def assert_whole_log(store: Store, table_id: int, count: int) -> None:
    """Moves 1..count exactly as the writer made them, each with its snapshot."""
    logged = await store.actions(table_id)
    assert [(a.seq, a.seat, a.choices) for a in logged] == [
        (seq, seq % 2, ("move", str(seq))) for seq in range(1, count + 1)
    ]
    assert await store.latest_snapshot(table_id) == Snapshot(count, expected_snapshot(count))


def assert_file_intact(backend: str, db_path: Path) -> None:
    """SQLite's own check of its file (PostgreSQL's recovery is the server's business: the
    log checks are what this test asks of it)."""
    if backend == "sqlite":
        with sqlite3.connect(db_path) as db:
            assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


async def test_killed_between_two_moves(database_url, backend, db_path):
    table_id = await prepared_table(database_url)
    writer = await start_writer(database_url, table_id, "between", "5")
    assert await read_until(writer, "idle") == [f"committed {n}" for n in range(1, 6)] + ["idle"]
    await kill(writer)

    store = await reopened(database_url)
    await assert_whole_log(store, table_id, 5)
    await store.append_action(table_id, 6, 0, ("move", "6"), None, expected_snapshot(6))
    await assert_whole_log(store, table_id, 6)
    await store.close()
    assert_file_intact(backend, db_path)


@sqlite_only
async def test_killed_inside_a_transaction(database_url, backend, db_path):
    table_id = await prepared_table(database_url)
    writer = await start_writer(database_url, table_id, "inside", "3")
    await read_until(writer, "inside")
    # Most of the uncommitted snapshot has spilled from SQLite's page cache (2 MB by default)
    # into the WAL file: there are uncommitted frames on disk for recovery to ignore.
    wal = db_path.with_name(db_path.name + "-wal")
    assert wal.stat().st_size > BIG_SNAPSHOT_CHARS // 2
    await kill(writer)

    store = await reopened(database_url)
    assert isinstance(store, SQLiteStore)
    await assert_whole_log(store, table_id, 3)
    # The dead writer's lock went with it: the next move goes in.
    await store.append_action(table_id, 4, 0, ("move", "4"), None, expected_snapshot(4))
    await assert_whole_log(store, table_id, 4)
    await store.close()
    assert_file_intact(backend, db_path)


async def test_killed_at_any_moment_of_a_stream_of_moves(database_url, backend, db_path):
    table_id = await prepared_table(database_url)
    seen = 0
    for _ in range(2):
        writer = await start_writer(database_url, table_id, "stream")
        seen += 15
        await read_until(writer, f"committed {seen}")
        await kill(writer)

        store = await reopened(database_url)
        seen = await store.last_seq(table_id)
        await assert_whole_log(store, table_id, seen)
        await store.close()
    assert_file_intact(backend, db_path)


async def test_two_processes_racing_apply_each_move_once(database_url):
    table_id = await prepared_table(database_url)
    count = 100
    writers = [
        await start_writer(database_url, table_id, "race", f"p{i}", str(count)) for i in (0, 1)
    ]
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

    store = await reopened(database_url)
    logged = await store.actions(table_id)
    await store.close()
    assert [a.seq for a in logged] == list(range(1, count + 1))
    assert all(a.seq in won[a.choices[0]] for a in logged)
