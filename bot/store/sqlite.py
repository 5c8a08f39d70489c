"""The embedded store: SQLite through aiosqlite, in WAL mode.

One connection per store. SQLite runs one transaction per connection, so an asyncio lock
serialises this store's statements; several stores (or processes) on the same file are kept
apart by SQLite itself: every write starts with BEGIN IMMEDIATE, which takes the file's write
lock before anything is read, so a check and the insert it guards are atomic across
connections. The commands themselves are bot/store/sql.py's, in SQLite's dialect
(bot/store/dialect.py).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from os import PathLike
from pathlib import Path

import aiosqlite

from meeple_hall.bot.store.base import Heard, StoreError
from meeple_hall.bot.store.dialect import Connection, SQLiteConnection
from meeple_hall.bot.store.schema import Migration, load_migrations
from meeple_hall.bot.store.sql import SQLStore

log = logging.getLogger(__name__)

MEMORY = ":memory:"
# RETURNING (3.35), IS [NOT] DISTINCT FROM (3.39)
OLDEST_SQLITE = (3, 39)


class SQLiteStore(SQLStore):
    """The Store on a SQLite file (or ":memory:", for tests)."""

    def __init__(
        self,
        path: str | PathLike[str],
        *,
        busy_timeout: float = 5.0,
        migrations: list[Migration] | None = None,
    ) -> None:
        self.path = str(path)
        self.busy_timeout = busy_timeout
        self._migrations = migrations if migrations is not None else load_migrations("sqlite")
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    # -- connection ------------------------------------------------------------------
    async def open(self) -> None:
        if self._db is not None:
            raise StoreError("the store is already open")
        if sqlite3.sqlite_version_info < OLDEST_SQLITE:
            oldest = ".".join(map(str, OLDEST_SQLITE))
            raise StoreError(
                f"SQLite {sqlite3.sqlite_version} is too old: the store needs {oldest}"
            )
        if self.path != MEMORY:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: no implicit transactions; every write says BEGIN IMMEDIATE.
        db = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            db.row_factory = sqlite3.Row
            await db.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
            mode = await self._enable_wal(db)
            if self.path != MEMORY and mode.lower() != "wal":
                log.warning("SQLite refused WAL mode for %s (journal mode %s)", self.path, mode)
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA foreign_keys = ON")
            self._db = db
            await self._migrate()
        except BaseException:
            self._db = None
            await db.close()
            raise

    async def _enable_wal(self, db: aiosqlite.Connection) -> str:
        """Switch to WAL. Another connection opening a new file at the same moment can hold
        the lock this needs, and SQLite reports that at once instead of waiting out the busy
        timeout, so wait here."""
        deadline = time.monotonic() + self.busy_timeout
        while True:
            try:
                (mode,) = await db.execute_fetchall("PRAGMA journal_mode = WAL")
                return str(mode[0])
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.05)

    async def close(self) -> None:
        if self._db is None:
            return
        async with self._lock:
            db, self._db = self._db, None
            try:
                # Best effort: it writes statistics, so another process holding the write lock
                # makes it fail, and the connection must close all the same.
                with suppress(sqlite3.OperationalError):
                    await db.execute("PRAGMA optimize")
            finally:
                await db.close()

    async def watch(
        self, changed: Callable[[int | None], Awaitable[None]], others: Heard | None = None
    ) -> None:
        """Nothing to watch: one process owns a SQLite file (several processes against one
        database is PostgreSQL's deployment), and its own changes it knows already."""

    def _connection(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StoreError("the store is not open (await store.open() first)")
        return self._db

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Connection]:
        async with self._lock:
            yield SQLiteConnection(self._connection())

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Connection]:
        """One transaction holding the file's write lock from its first statement."""
        async with self._lock:
            db = self._connection()
            try:
                await db.execute("BEGIN IMMEDIATE")
                yield SQLiteConnection(db)
                await db.execute("COMMIT")
            except BaseException:
                await self._rollback(db)
                raise

    @staticmethod
    async def _rollback(db: aiosqlite.Connection) -> None:
        # Failing means no transaction is open: BEGIN failed, or COMMIT went through after all.
        with suppress(sqlite3.OperationalError):
            await db.execute("ROLLBACK")
