"""A cursor the SQLite store used may be freed by any thread at any moment: aiosqlite hands
its cursors to the event loop, and a reference cycle there (SimCord's callback records, an
exception's traceback) leaves one to the cyclic garbage collector, which runs in whichever
thread allocates (a picture drawn in a worker thread). CPython 3.11's sqlite3 resets the
prepared statement a freed cursor still holds, outside the connection's thread; if aiosqlite's
thread is running that statement for a later cursor (the connection caches it, and a cursor
of sqlite3's executemany keeps it), the reset races the run, and a later bind fails with
SQLITE_MISUSE, "bad parameter or other API misuse": a move lost. The store hands the event
loop no cursor that still holds a statement."""

from __future__ import annotations

import gc
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from meeple_hall.bot.store import SQLiteStore
from tests.store.conftest import HOST, active_table, result_for

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])

MOVES = 20  # a move and the steps chained to it, stored at once


class CursorsKept:
    """Keeps every sqlite3 cursor the store's aiosqlite connection hands the event loop, as
    a reference cycle there does, until they are freed in another thread."""

    def __init__(self, store: SQLiteStore) -> None:
        self.cursors: list[sqlite3.Cursor] = []
        connection = store._connection()
        run = connection._execute

        async def keeping(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
            result = await run(fn, *args, **kwargs)
            if isinstance(result, sqlite3.Cursor):
                self.cursors.append(result)
            return result

        connection._execute = keeping  # type: ignore[method-assign]

    def free_in_another_thread(self) -> threading.Thread:
        """Frees the cursors kept so far one at a time, at any moment of the store's work."""
        freed, self.cursors = self.cursors, []

        def free() -> None:
            while freed:
                freed.pop()
                time.sleep(0)

        thread = threading.Thread(target=free)
        thread.start()
        return thread


def holds_a_statement(cursor: sqlite3.Cursor) -> bool:
    return any(type(held).__name__ == "Statement" for held in gc.get_referents(cursor))


async def test_no_cursor_the_store_hands_out_holds_a_statement(store):
    kept = CursorsKept(store)
    table = await active_table(store)  # its seats: several rows
    await store.append_actions(table.id, 1, 0, [("take", "1")] * MOVES, HOST)
    await store.finish_table(table.id, result_for(table))  # a result a seat
    assert kept.cursors
    assert not [cursor for cursor in kept.cursors if holds_a_statement(cursor)]


async def test_cursors_freed_in_another_thread_while_moves_are_stored_lose_none(store):
    table = await active_table(store)
    kept = CursorsKept(store)
    seq = 0

    async def append() -> None:
        nonlocal seq
        await store.append_actions(table.id, seq + 1, 0, [("take", "1")] * MOVES, HOST)
        seq += MOVES

    for _ in range(3):
        for _ in range(100):
            await append()
        freeing = kept.free_in_another_thread()
        while freeing.is_alive():
            await append()
        freeing.join()
    assert len(await store.actions(table.id)) == seq
