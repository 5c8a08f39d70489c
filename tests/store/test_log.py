import asyncio
import contextlib
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from meeple_hall.bot.store import (
    Snapshot,
    SQLiteStore,
    StaleAction,
    Store,
    StoreError,
    TableNotActive,
    TableStatus,
)
from tests.store.conftest import GUEST, HOST, active_table, new_table, sqlite_only


async def test_the_log_comes_back_in_order(store):
    table = await active_table(store)
    moves = [(0, ("bid", "S07", "red", "2"), HOST), (1, ("pass",), None), (0, (), HOST)]
    before = datetime.now(UTC)
    for seq, (seat, choices, user_id) in enumerate(moves, start=1):
        await store.append_action(table.id, seq, seat, choices, user_id)

    logged = await store.actions(table.id)
    assert [(a.seq, a.seat, a.choices, a.user_id) for a in logged] == [
        (seq, *move) for seq, move in enumerate(moves, start=1)
    ]
    assert all(a.at.tzinfo == UTC and before <= a.at <= datetime.now(UTC) for a in logged)
    assert [a.at for a in logged] == sorted(a.at for a in logged)
    assert [a.seq for a in await store.actions(table.id, after=2)] == [3]
    assert await store.actions(table.id, after=3) == []
    assert await store.last_seq(table.id) == 3


async def test_logs_of_different_tables_are_apart(store):
    first = await active_table(store, channel_id=1)
    second = await active_table(store, channel_id=2)
    await store.append_action(first.id, 1, 0, ("a",), HOST)
    await store.append_action(second.id, 1, 0, ("b",), GUEST)
    await store.append_action(second.id, 2, 1, ("c",), None)

    assert [a.choices for a in await store.actions(first.id)] == [("a",)]
    assert [a.choices for a in await store.actions(second.id)] == [("b",), ("c",)]
    assert await store.last_seq(first.id) == 1
    assert await store.last_seq(999) == 0


async def test_a_gap_is_stale(store):
    table = await active_table(store)
    with pytest.raises(StaleAction) as stale:
        await store.append_action(table.id, 2, 0, ("take", "1"), HOST)
    assert (stale.value.expected, stale.value.current) == (2, 0)
    assert await store.actions(table.id) == []


async def test_a_duplicate_is_stale_and_the_first_move_stays(store):
    table = await active_table(store)
    await store.append_action(table.id, 1, 0, ("take", "1"), HOST)
    await store.append_action(table.id, 2, 1, ("take", "3"), None)
    with pytest.raises(StaleAction) as stale:
        await store.append_action(table.id, 2, 0, ("take", "2"), HOST, snapshot="late")
    assert (stale.value.expected, stale.value.current) == (2, 2)
    assert [a.choices for a in await store.actions(table.id)] == [("take", "1"), ("take", "3")]
    assert await store.latest_snapshot(table.id) is None


async def test_moves_are_only_logged_while_the_game_is_active(store):
    table = await new_table(store)
    with pytest.raises(TableNotActive) as lobby:
        await store.append_action(table.id, 1, 0, ("take", "1"), HOST)
    assert lobby.value.status is TableStatus.LOBBY

    await store.start_table(table.id, min_seats=1, max_seats=4)
    await store.append_action(table.id, 1, 0, ("take", "1"), HOST)
    await store.abandon_table(table.id)
    with pytest.raises(TableNotActive):
        await store.append_action(table.id, 2, 1, ("take", "1"), None)
    assert await store.last_seq(table.id) == 1

    with pytest.raises(StoreError, match="no table"):
        await store.append_action(table.id + 1, 1, 0, ("take", "1"), HOST)


async def test_the_latest_snapshot_is_kept(store):
    table = await active_table(store)
    assert await store.latest_snapshot(table.id) is None
    await store.append_action(table.id, 1, 0, ("a",), HOST, snapshot="after 1")
    await store.append_action(table.id, 2, 1, ("b",), None)
    assert await store.latest_snapshot(table.id) == Snapshot(1, "after 1")
    await store.append_action(table.id, 3, 0, ("c",), HOST, snapshot="after 3 " * 10_000)
    assert await store.latest_snapshot(table.id) == Snapshot(3, "after 3 " * 10_000)


@sqlite_only  # PostgreSQL's twin is in test_postgres.py
async def test_the_log_is_append_only_in_the_schema(store, db_path):
    table = await active_table(store)
    await store.append_action(table.id, 1, 0, ("a",), HOST)
    with sqlite3.connect(db_path) as db:
        for statement in (
            "UPDATE actions SET choices = '[\"b\"]'",
            "DELETE FROM actions",
            "INSERT INTO actions (table_id, seq, seat, choices, user_id, at)"
            " VALUES (1, 3, 0, '[]', NULL, '2026-01-01T00:00:00+00:00')",
        ):
            with pytest.raises(sqlite3.IntegrityError):
                db.execute(statement)
    assert [a.choices for a in await store.actions(table.id)] == [("a",)]


async def _race(stores: list[Store], table_id: int, seq: int) -> list[int]:
    """Every store submits move `seq` at once; the indices of the stores that got in."""
    outcomes = await asyncio.gather(
        *(
            store.append_action(table_id, seq, 0, (f"by{index}",), HOST)
            for index, store in enumerate(stores)
        ),
        return_exceptions=True,
    )
    for outcome in outcomes:
        assert outcome is None or isinstance(outcome, StaleAction), outcome
    return [index for index, outcome in enumerate(outcomes) if outcome is None]


async def test_two_clicks_on_one_store_apply_once(store):
    table = await active_table(store)
    for seq in range(1, 21):
        winners = await _race([store, store], table.id, seq)
        assert len(winners) == 1
    assert [a.seq for a in await store.actions(table.id)] == list(range(1, 21))


async def test_two_stores_on_one_database_apply_a_racing_move_once(store, open_another):
    other = await open_another()
    table = await active_table(store)
    winners = []
    for seq in range(1, 21):
        (winner,) = await _race([store, other], table.id, seq)
        winners.append(winner)
    logged = await other.actions(table.id)
    assert [a.seq for a in logged] == list(range(1, 21))
    assert [a.choices for a in logged] == [(f"by{w}",) for w in winners]


async def test_many_writers_keep_the_log_whole(store, open_another):
    stores = [store, await open_another(), await open_another()]
    table = await active_table(store)
    applied: list[tuple[int, str]] = []

    async def writer(name: str, writer_store: Store) -> None:
        while True:
            seq = await writer_store.last_seq(table.id) + 1
            if seq > 60:
                return
            try:
                await writer_store.append_action(table.id, seq, 0, (name,), None)
            except StaleAction:
                continue
            applied.append((seq, name))

    await asyncio.gather(*(writer(f"w{i}", stores[i % len(stores)]) for i in range(6)))
    logged = await store.actions(table.id)
    assert [a.seq for a in logged] == list(range(1, 61))
    assert sorted(applied) == [(a.seq, a.choices[0]) for a in logged]


@contextlib.contextmanager
def cancelled_at_call(store: SQLiteStore, number: int) -> Iterator[list[int]]:
    """The store's connection runs `number`-1 calls, then queues one more and raises
    CancelledError without waiting for it, as if the task were cancelled right there."""
    db = store._connection()
    execute = db._execute
    calls = [0]
    queued = []

    async def cancelling(fn, *args, **kwargs):
        calls[0] += 1
        if calls[0] != number:
            return await execute(fn, *args, **kwargs)
        queued.append(asyncio.create_task(execute(fn, *args, **kwargs)))
        await asyncio.sleep(0)  # the call is queued: the connection's thread will run it
        raise asyncio.CancelledError

    db._execute = cancelling
    try:
        yield calls
    finally:
        db._execute = execute


@sqlite_only  # it cuts into aiosqlite's calls; PostgreSQL's twin is in test_postgres.py
async def test_a_cancelled_append_leaves_the_store_whole(store, db_path):
    """Cancelled at any step, a move is logged whole or not at all, and the store goes on."""
    other = SQLiteStore(db_path)
    await other.open()
    table = await active_table(store)
    outcomes = []
    try:
        for number in range(1, 50):
            seq = await store.last_seq(table.id) + 1
            try:
                with cancelled_at_call(store, number) as calls:
                    await store.append_action(
                        table.id, seq, 0, ("c",), HOST, snapshot=f"after {seq}"
                    )
            except asyncio.CancelledError:
                outcomes.append(await other.last_seq(table.id) - seq + 1)
            else:
                assert calls[0] < number
                break
            # Neither this store nor another one is left inside a transaction or locked out.
            last = await store.last_seq(table.id)
            await other.append_action(table.id, last + 1, 1, ("o",), None)
            await store.append_action(table.id, last + 2, 0, ("s",), HOST)
        else:
            pytest.fail("append_action never ran to the end")
        assert set(outcomes) == {0, 1}  # cancelled before, and after, the COMMIT was queued
        logged = await other.actions(table.id)
        assert [a.seq for a in logged] == list(range(1, len(logged) + 1))
        assert await other.latest_snapshot(table.id) == Snapshot(
            len(logged), f"after {len(logged)}"
        )
        with_snapshot = [a.seq for a in logged if a.choices == ("c",)]
        assert len(with_snapshot) == outcomes.count(1) + 1
    finally:
        await other.close()


async def test_closing_while_another_process_holds_the_write_lock(db_path):
    """`PRAGMA optimize` at close writes statistics, and fails while another process writes:
    the connection (and its thread, which would keep the process from exiting) closes anyway."""
    store = SQLiteStore(db_path, busy_timeout=0.2)
    await store.open()
    table = await active_table(store)
    for seq in range(1, 30):
        await store.append_action(table.id, seq, 0, ("move", str(seq)), None, f"state {seq}")
        await store.actions(table.id)
    connection = store._connection()
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        await store.close()
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert not connection._thread.is_alive()


async def test_a_chain_of_moves_is_appended_all_or_none(store):
    """A panel's folded line: one seat's consecutive moves in one transaction."""
    table = await active_table(store)
    await store.append_action(table.id, 1, 1, ("pass",), None)
    await store.append_actions(
        table.id, 2, 0, [("bid",), ("S07",), ("red",), ("2",)], HOST, snapshot=(4, "after 4")
    )
    logged = await store.actions(table.id)
    assert [(a.seq, a.seat, a.choices, a.user_id) for a in logged[1:]] == [
        (2, 0, ("bid",), HOST),
        (3, 0, ("S07",), HOST),
        (4, 0, ("red",), HOST),
        (5, 0, ("2",), HOST),
    ]
    assert await store.latest_snapshot(table.id) == Snapshot(4, "after 4")
    # A chain that starts at a taken number writes none of its moves.
    with pytest.raises(StaleAction):
        await store.append_actions(table.id, 5, 0, [("bid",), ("S08",)], HOST)
    assert await store.last_seq(table.id) == 5


async def test_the_moves_of_one_submission_are_marked_chained(store):
    """Each move of a chain after its first is `chained` to the move before it (one Undo
    takes the click back); a move made on its own, or first in its submission, is not.
    Every way of reading the log says so."""
    table = await active_table(store)
    await store.append_action(table.id, 1, 0, ("bid",), HOST)
    await store.append_actions(table.id, 2, 1, [("pass",)], GUEST)
    await store.append_actions(table.id, 3, 0, [("bid",), ("S07",), ("red",)], HOST)
    await store.append_action(table.id, 6, 1, ("pass",), GUEST)
    expected = [(1, False), (2, False), (3, False), (4, True), (5, True), (6, False)]
    assert [(a.seq, a.chained) for a in await store.actions(table.id)] == expected
    assert [(a.seq, a.chained) for a in await store.actions(table.id, after=3)] == expected[3:]
    logs = await store.game_logs([table.id])
    assert [(a.seq, a.chained) for a in logs[table.id].actions] == expected
