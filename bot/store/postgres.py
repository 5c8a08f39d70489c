"""The store on PostgreSQL, through asyncpg: one database for several bot processes.

A pool of connections; every command is one transaction, and the commands are
bot/store/sql.py's in PostgreSQL's dialect (bot/store/dialect.py): a command that changes a
table first locks the table's row (`SELECT … FOR UPDATE`), so a second command on it, from
this process or another, waits for the first to commit and then sees what it wrote. The
rules the schema itself keeps (one open table per channel, an append-only log without
gaps) are a partial unique index and PL/pgSQL triggers.

Every command that changes a game in play (a move, a seat, its end) also sends
`NOTIFY meeple_table_changed` in its transaction, delivered when it commits: `watch` LISTENs
on its own connection, so each bot process hears what the others changed (bot/live.py
reloads a table it serves from the log). The same channel carries the other changes a
process keeps in memory (a language chosen, a client locale, time away, a snooze) as
"<kind>:<id>", so no process goes on with a stale copy.

Migrations are the one numbered list of bot/store/schema.py, applied at open under an
advisory lock, so processes starting together apply each once.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from urllib.parse import urlsplit

import asyncpg

from meeple_hall.bot.store.base import CHANGE_KINDS, Heard, StoreError
from meeple_hall.bot.store.dialect import Connection, PostgresConnection, to_json
from meeple_hall.bot.store.schema import Migration, load_migrations
from meeple_hall.bot.store.sql import SQLStore

log = logging.getLogger(__name__)

# pg_advisory_xact_lock key held while migrating ("meeple" in ASCII).
MIGRATION_LOCK = 0x6D656570_6C65
# The channel a committed change is announced on: "<table id> <origin>" for a game in
# play, "<kind>:<id> <origin>" for the other kinds (base.CHANGE_KINDS).
CHANGED_CHANNEL = "meeple_table_changed"
RELISTEN_AFTER = 1.0  # seconds between attempts to listen again after the connection dropped
_DRIVER_SUFFIX = re.compile(r"^(postgres(?:ql)?)\+\w+://", re.IGNORECASE)


def asyncpg_dsn(url: str) -> str:
    """`url` as asyncpg reads it: SQLAlchemy's "postgresql+asyncpg://" loses its driver."""
    return _DRIVER_SUFFIX.sub(lambda match: f"{match[1].lower()}://", url.strip(), count=1)


def redacted(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if not parts.password:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


async def _setup_connection(db: asyncpg.Connection) -> None:
    # jsonb columns in and out as Python objects (timestamptz comes back in UTC anyway).
    await db.set_type_codec("jsonb", encoder=to_json, decoder=json.loads, schema="pg_catalog")


class PostgresStore(SQLStore):
    """The Store on a PostgreSQL database named by a URL asyncpg accepts."""

    def __init__(
        self,
        url: str,
        *,
        min_connections: int = 1,
        max_connections: int = 10,
        connect_timeout: float = 10.0,
        migrations: list[Migration] | None = None,
    ) -> None:
        self.url = url
        self.min_connections = min_connections
        self.max_connections = max_connections
        self.connect_timeout = connect_timeout
        self._migrations = migrations if migrations is not None else load_migrations("pg")
        self._pool: asyncpg.Pool | None = None
        # what this store's own notifications carry, so that it ignores them
        self.origin = secrets.token_hex(6)
        self._listener: asyncpg.Connection | None = None
        self._changed: Callable[[int | None], Awaitable[None]] | None = None
        self._others: Heard | None = None
        self._watch_tasks: set[asyncio.Task[None]] = set()

    def __repr__(self) -> str:
        return f"PostgresStore({redacted(self.url)!r})"

    # -- connection ------------------------------------------------------------------
    async def open(self) -> None:
        if self._pool is not None:
            raise StoreError("the store is already open")
        try:
            pool = await asyncpg.create_pool(
                asyncpg_dsn(self.url),
                min_size=self.min_connections,
                max_size=self.max_connections,
                timeout=self.connect_timeout,
                init=_setup_connection,
            )
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise StoreError(
                f"cannot connect to PostgreSQL at {redacted(self.url)}: {exc}"
            ) from exc
        self._pool = pool
        try:
            await self._migrate()
        except BaseException:
            self._pool = None
            await pool.close()
            raise

    async def close(self) -> None:
        self._changed = self._others = None
        for task in list(self._watch_tasks):
            task.cancel()
        listener, self._listener = self._listener, None
        if listener is not None and not listener.is_closed():
            await listener.close()
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    # -- hearing other processes' changes ----------------------------------------------
    async def watch(
        self, changed: Callable[[int | None], Awaitable[None]], others: Heard | None = None
    ) -> None:
        self._connections()
        self._changed, self._others = changed, others
        await self._listen()

    async def _listen(self) -> None:
        db = await asyncpg.connect(asyncpg_dsn(self.url), timeout=self.connect_timeout)
        await db.add_listener(CHANGED_CHANNEL, self._heard)
        db.add_termination_listener(self._lost)
        self._listener = db

    def _heard(self, _db: object, _pid: int, _channel: str, payload: str) -> None:
        what, _, origin = payload.partition(" ")
        if origin == self.origin:
            return
        kind, _, key = what.rpartition(":")
        if not key.isdigit():
            return
        if not kind:
            self._call(int(key))
        elif kind in CHANGE_KINDS and self._others is not None:
            self._spawn(self._others(kind, int(key)))

    def _call(self, table_id: int | None) -> None:
        if self._changed is not None:
            self._spawn(self._changed(table_id))

    def _spawn(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            try:
                await work
            except Exception:
                log.exception("could not follow another process's change")

        task = asyncio.get_running_loop().create_task(run())
        self._watch_tasks.add(task)
        task.add_done_callback(self._watch_tasks.discard)

    def _lost(self, db: object) -> None:
        if self._changed is None or db is not self._listener:
            return  # closed on purpose
        log.warning("lost the connection that listens for other processes' changes")
        self._spawn(self._listen_again())

    async def _listen_again(self) -> None:
        while self._changed is not None:
            await asyncio.sleep(RELISTEN_AFTER)
            try:
                await self._listen()
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                log.warning("cannot listen for other processes' changes yet: %s", exc)
                continue
            # whatever was said while nobody listened
            self._call(None)
            others = self._others
            if others is not None:
                for kind in CHANGE_KINDS:
                    self._spawn(others(kind, None))
            return

    async def _announce(self, db: Connection, key: int, kind: str = "") -> None:
        what = f"{kind}:{key}" if kind else str(key)
        await db.execute("SELECT pg_notify(?, ?)", CHANGED_CHANNEL, f"{what} {self.origin}")

    def _busy_channel_constraint(self, error: BaseException) -> str | None:
        if isinstance(error, asyncpg.UniqueViolationError):
            return error.constraint_name
        return None

    async def _lock_migrations(self, db: Connection) -> None:
        await db.execute("SELECT pg_advisory_xact_lock(?)", MIGRATION_LOCK)

    def _connections(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StoreError("the store is not open (await store.open() first)")
        return self._pool

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Connection]:
        async with self._connections().acquire() as db:
            yield PostgresConnection(db)

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Connection]:
        async with self._connections().acquire() as db, db.transaction():
            yield PostgresConnection(db)
