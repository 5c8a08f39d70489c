"""The store on PostgreSQL, through asyncpg: one database for several bot processes.

A pool of connections; every command is one transaction. A command that changes a table
first locks the table's row (`SELECT … FOR UPDATE`), then reads what it checks: a second
command on the same table, from this process or another, waits for the first to commit and
then sees what it wrote. So two racing moves both ask for the same sequence number and the
second is told it is stale, a join racing the start either sits down before the start or
finds the game started, and so on. The rules the schema itself keeps (one open table per
channel, an append-only log without gaps) are a partial unique index and PL/pgSQL triggers.

Every command that changes a game in play (a move, a seat, its end) also sends
`NOTIFY meeple_table_changed` in its transaction, delivered when it commits: `watch` LISTENs
on its own connection, so each bot process hears what the others changed (bot/live.py
reloads a table it serves from the log). The same channel carries the other changes a
process keeps in memory (a language chosen, a client locale, time away, a snooze) as
"<kind>:<id>", so no process goes on with a stale copy.

Migrations are numbered like SQLite's (`migrations_pg/NNNN_name.sql`, one twin per SQLite
file) and applied at open under an advisory lock, so processes starting together apply each
once.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import UTC, datetime
from importlib.resources import files
from typing import Any
from urllib.parse import urlsplit

import asyncpg

from meeple_hall.bot.store.base import (
    CHANGE_KINDS,
    OPEN_STATUSES,
    AbandonPending,
    AbandonRequest,
    AlreadyAgreed,
    AlreadySeated,
    Away,
    AwayAllowance,
    ChannelBusy,
    FinalResult,
    GameLog,
    Heard,
    LanguageChoices,
    LobbyClosed,
    LobbyFull,
    LoggedAction,
    NotSeated,
    RequestClosed,
    ResultRow,
    Seat,
    SeatChanged,
    SeatClock,
    SeatCount,
    Snapshot,
    StaleAction,
    StoreError,
    Table,
    TableNotActive,
    TableStatus,
    UserPrefs,
)
from meeple_hall.bot.store.postgres_community import CommunityCommands
from meeple_hall.bot.store.sqlite import Migration, load_migrations

log = logging.getLogger(__name__)

MIGRATIONS_DIR = files(__package__) / "migrations_pg"
ONE_OPEN_PER_CHANNEL = "tables_one_open_per_channel"
# pg_advisory_xact_lock key held while migrating ("meeple" in ASCII).
MIGRATION_LOCK = 0x6D656570_6C65
_OPEN = [status.value for status in OPEN_STATUSES]
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


def utcnow() -> datetime:
    return datetime.now(UTC)


def _logged(
    seq: int, seat: int, choices: list[str], user_id: int | None, at: datetime, chained: bool
) -> LoggedAction:
    """A row of the action log."""
    return LoggedAction(seq, seat, tuple(choices), user_id, _utc(at), chained)  # type: ignore[arg-type]


def _utc(moment: datetime | None) -> datetime | None:
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


async def _setup_connection(db: asyncpg.Connection) -> None:
    # jsonb columns in and out as Python objects (timestamptz comes back in UTC anyway).
    await db.set_type_codec("jsonb", encoder=_json, decoder=json.loads, schema="pg_catalog")


class PostgresStore(CommunityCommands):
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
        self._migrations = migrations if migrations is not None else load_migrations(MIGRATIONS_DIR)
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
            for kind in CHANGE_KINDS if self._others is not None else ():
                self._spawn(self._others(kind, None))
            return

    async def _announce(self, db: asyncpg.Connection, table_id: int, kind: str = "") -> None:
        """Tell the other processes, once this transaction commits, that the table changed
        (or, with `kind`, the user, guild or table of that kind of change)."""
        what = f"{kind}:{table_id}" if kind else str(table_id)
        await db.execute("SELECT pg_notify($1, $2)", CHANGED_CHANNEL, f"{what} {self.origin}")

    async def schema_version(self) -> int:
        async with self._read() as db:
            return await self._schema_version(db)

    async def _migrate(self) -> None:
        async with self._transaction() as db:
            await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await db.execute(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                " version integer PRIMARY KEY, name text NOT NULL,"
                " applied_at timestamptz NOT NULL)"
            )
            current = await self._schema_version(db)
        if current > len(self._migrations):
            raise StoreError(
                f"the database is at schema version {current}, newer than this build "
                f"(which knows {len(self._migrations)})"
            )
        for migration in self._migrations[current:]:
            async with self._transaction() as db:
                await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                # Another process may have applied it while we waited for the lock.
                if await self._schema_version(db) >= migration.version:
                    continue
                await db.execute(migration.sql)
                await db.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)",
                    migration.version,
                    migration.name,
                    utcnow(),
                )
            log.info("applied schema migration %04d_%s", migration.version, migration.name)

    @staticmethod
    async def _schema_version(db: asyncpg.Connection) -> int:
        return await db.fetchval("SELECT coalesce(max(version), 0) FROM schema_version")

    def _connections(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StoreError("the store is not open (await store.open() first)")
        return self._pool

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[asyncpg.Connection]:
        async with self._connections().acquire() as db:
            yield db

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[asyncpg.Connection]:
        async with self._connections().acquire() as db, db.transaction():
            yield db

    # -- lobbies and tables ----------------------------------------------------------
    async def create_table(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        game: str,
        options: dict[str, str],
        seed: int,
        seats: list[Seat],
        settings: dict[str, str] | None = None,
    ) -> Table:
        table = Table(
            id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            game=game,
            options=dict(options),
            settings=dict(settings or {}),
            seed=seed,
            status=TableStatus.LOBBY,
            seats=[replace(seat) for seat in seats],
            created_at=utcnow(),
        )
        async with self._channel_guard(channel_id), self._transaction() as db:
            await self._refuse_busy_channel(db, channel_id, None)
            table.id = await db.fetchval(
                "INSERT INTO tables (guild_id, channel_id, host_id, game, options, settings,"
                " seed, status, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
                " RETURNING id",
                guild_id,
                channel_id,
                host_id,
                game,
                table.options,
                table.settings,
                str(seed),
                table.status.value,
                table.created_at,
            )
            await self._save_seats(db, table.id, table.seats)
        return table

    @asynccontextmanager
    async def _channel_guard(self, channel_id: int) -> AsyncIterator[None]:
        """The partial unique index refuses a second open table in a channel that another
        transaction filled after our check: name that table as a busy channel."""
        try:
            yield
        except asyncpg.UniqueViolationError as exc:
            if exc.constraint_name != ONE_OPEN_PER_CHANNEL:
                raise
            async with self._read() as db:
                busy = await db.fetchval(
                    "SELECT id FROM tables WHERE channel_id = $1 AND status = ANY($2::text[])",
                    channel_id,
                    _OPEN,
                )
            raise ChannelBusy(busy or 0) from None

    async def get_table(self, table_id: int) -> Table | None:
        async with self._read() as db:
            tables = await self._tables(db, "t.id = $1", table_id)
        return tables[0] if tables else None

    async def open_table_in(self, channel_id: int) -> Table | None:
        async with self._read() as db:
            tables = await self._tables(
                db, "t.channel_id = $1 AND t.status = ANY($2::text[])", channel_id, _OPEN
            )
        return tables[0] if tables else None

    async def open_tables(self) -> list[Table]:
        async with self._read() as db:
            return await self._tables(db, "t.status = ANY($1::text[])", _OPEN)

    async def tables_for_user(
        self, user_id: int, statuses: tuple[TableStatus, ...] = OPEN_STATUSES
    ) -> list[Table]:
        if not statuses:
            return []
        async with self._read() as db:
            return await self._tables(
                db,
                "t.status = ANY($1::text[])"
                " AND t.id IN (SELECT table_id FROM seats WHERE user_id = $2)",
                [TableStatus(s).value for s in statuses],
                user_id,
            )

    async def set_lobby_message(self, table_id: int, message_id: int) -> None:
        await self._set_message(table_id, "lobby_message_id", message_id)

    async def set_table_message(self, table_id: int, message_id: int) -> None:
        await self._set_message(table_id, "table_message_id", message_id)

    async def pause_table(self, table_id: int, at: datetime) -> None:
        async with self._transaction() as db:
            await db.execute(
                "UPDATE tables SET paused_at = $1 WHERE id = $2 AND status = 'active'",
                at,
                table_id,
            )

    async def move_table(self, table_id: int, channel_id: int) -> Table:
        async with self._channel_guard(channel_id), self._transaction() as db:
            await self._refuse_busy_channel(db, channel_id, table_id)
            await db.execute(
                "UPDATE tables SET channel_id = $1, paused_at = NULL, table_message_id = NULL"
                " WHERE id = $2",
                channel_id,
                table_id,
            )
            (table,) = await self._tables(db, "t.id = $1", table_id)
        return table

    async def _set_message(self, table_id: int, column: str, message_id: int) -> None:
        async with self._transaction() as db:
            status = await db.execute(
                f"UPDATE tables SET {column} = $1 WHERE id = $2", message_id, table_id
            )
            if status == "UPDATE 0":
                raise StoreError(f"no table {table_id}")

    # -- lobby commands ----------------------------------------------------------------
    @asynccontextmanager
    async def _lobby(self, table_id: int) -> AsyncIterator[tuple[asyncpg.Connection, Table]]:
        """A transaction holding the row lock of a table that must still be a lobby."""
        async with self._transaction() as db:
            table = await self._locked(db, table_id)
            if table.status is not TableStatus.LOBBY:
                raise LobbyClosed(table_id, table.status)
            yield db, table

    async def add_seat(self, table_id: int, seat: Seat, *, max_seats: int) -> Table:
        async with self._lobby(table_id) as (db, table):
            if seat.user_id is not None and table.seat_of(seat.user_id) is not None:
                raise AlreadySeated(f"user {seat.user_id} has a seat at table {table_id}")
            if len(table.seats) >= max_seats:
                raise LobbyFull(max_seats)
            table.seats.append(replace(seat))
            await self._save_seats(db, table_id, table.seats[-1:], first=len(table.seats) - 1)
        return table

    async def leave_lobby(self, table_id: int, user_id: int) -> Table:
        async with self._lobby(table_id) as (db, table):
            position = table.seat_of(user_id)
            if position is None:
                raise NotSeated(f"user {user_id} has no seat at table {table_id}")
            table.seats.pop(position)
            await self._replace_seats(db, table)
            humans = [s.user_id for s in table.seats if not s.ai and s.user_id is not None]
            if not humans:
                await self._set_status(db, table, TableStatus.CANCELLED)
            elif table.host_id == user_id:
                table.host_id = humans[0]
                await db.execute(
                    "UPDATE tables SET host_id = $1 WHERE id = $2", table.host_id, table_id
                )
        return table

    async def remove_seat(self, table_id: int, position: int, seen: int | str) -> Table:
        async with self._lobby(table_id) as (db, table):
            if not 0 <= position < len(table.seats):
                raise SeatChanged(f"table {table_id} has no seat {position + 1}")
            current = table.seats[position]
            if current.who != seen or current.user_id == table.host_id:
                raise SeatChanged(f"seat {position + 1} of table {table_id} is not {seen}")
            table.seats.pop(position)
            await self._replace_seats(db, table)
        return table

    async def set_option(self, table_id: int, name: str, value: str) -> Table:
        async with self._lobby(table_id) as (db, table):
            table.options[name] = value
            await db.execute(
                "UPDATE tables SET options = $1 WHERE id = $2", table.options, table_id
            )
        return table

    async def set_setting(self, table_id: int, name: str, value: str) -> Table:
        async with self._lobby(table_id) as (db, table):
            table.settings[name] = value
            await db.execute(
                "UPDATE tables SET settings = $1 WHERE id = $2", table.settings, table_id
            )
        return table

    async def cancel_lobby(self, table_id: int) -> Table:
        async with self._lobby(table_id) as (db, table):
            await self._set_status(db, table, TableStatus.CANCELLED)
        return table

    async def start_table(self, table_id: int, *, min_seats: int, max_seats: int) -> Table:
        async with self._lobby(table_id) as (db, table):
            if not min_seats <= len(table.seats) <= max_seats:
                raise SeatCount(len(table.seats), min_seats, max_seats)
            table.started_at = utcnow()
            await db.execute(
                "UPDATE tables SET started_at = $1 WHERE id = $2", table.started_at, table_id
            )
            await self._set_status(db, table, TableStatus.ACTIVE)
            await self._announce(db, table_id)
        return table

    # -- a game in play ----------------------------------------------------------------
    @asynccontextmanager
    async def _active(self, table_id: int) -> AsyncIterator[tuple[asyncpg.Connection, Table]]:
        """A transaction holding the row lock of a table that must be an active game."""
        async with self._transaction() as db:
            table = await self._locked(db, table_id)
            if table.status is not TableStatus.ACTIVE:
                raise TableNotActive(table_id, table.status)
            yield db, table
            await self._announce(db, table_id)

    async def resign_seat(self, table_id: int, position: int, *, play_out: bool = False) -> Table:
        async with self._active(table_id) as (db, table):
            seat = table.seats[position]
            seat.resigned = seat.ai = True
            await db.execute(
                "UPDATE seats SET resigned = true, ai = true WHERE table_id = $1 AND position = $2",
                table_id,
                position,
            )
            if not play_out and all(s.ai for s in table.seats):
                await self._end(db, table, TableStatus.ABANDONED)
        return table

    async def abandon_table(self, table_id: int) -> Table:
        async with self._active(table_id) as (db, table):
            await self._end(db, table, TableStatus.ABANDONED)
        return table

    async def finish_table(self, table_id: int, result: FinalResult) -> Table:
        async with self._active(table_id) as (db, table):
            await self._finish(db, table, result)
        return table

    async def _finish(self, db: asyncpg.Connection, table: Table, result: FinalResult) -> None:
        """The result, one results row per seat, and the finished status."""
        if not len(result.scores) == len(result.ranks) == len(table.seats):
            raise StoreError(f"table {table.id} has {len(table.seats)} seats, not a result's")
        table.result = result.as_json()
        await db.execute("UPDATE tables SET result = $1 WHERE id = $2", table.result, table.id)
        await self._end(db, table, TableStatus.FINISHED)
        breakdowns = result.breakdown or tuple({} for _ in table.seats)
        await db.executemany(
            "INSERT INTO results (table_id, seat, user_id, score, rank, resigned, finished_at,"
            " breakdown) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            [
                (
                    table.id,
                    position,
                    seat.user_id,
                    score,
                    rank,
                    seat.played_out,
                    table.ended_at,
                    dict(breakdown),
                )
                for position, (seat, score, rank, breakdown) in enumerate(
                    zip(table.seats, result.scores, result.ranks, breakdowns, strict=True)
                )
            ],
        )

    async def _end(self, db: asyncpg.Connection, table: Table, status: TableStatus) -> None:
        table.ended_at = utcnow()
        await db.execute("UPDATE tables SET ended_at = $1 WHERE id = $2", table.ended_at, table.id)
        await self._set_status(db, table, status)

    async def results(
        self, *, game: str | None = None, guild_id: int | None = None
    ) -> list[ResultRow]:
        return await self.results_since(game=game, guild_id=guild_id)

    # -- shared by the commands ----------------------------------------------------------
    async def _locked(self, db: asyncpg.Connection, table_id: int) -> Table:
        """The table as it is once its row lock is ours. The lock comes first, in a
        statement of its own: the statements after it see what the last holder committed."""
        found = await db.fetchval("SELECT id FROM tables WHERE id = $1 FOR UPDATE", table_id)
        if found is None:
            raise StoreError(f"no table {table_id}")
        (table,) = await self._tables(db, "t.id = $1", table_id)
        return table

    async def _set_status(self, db: asyncpg.Connection, table: Table, status: TableStatus) -> None:
        if status in OPEN_STATUSES:
            await self._refuse_busy_channel(db, table.channel_id, table.id)
        table.status = status
        await db.execute("UPDATE tables SET status = $1 WHERE id = $2", status.value, table.id)

    async def _replace_seats(self, db: asyncpg.Connection, table: Table) -> None:
        """Positions stay 0, 1, 2 … after a seat is taken out of the middle."""
        await db.execute("DELETE FROM seats WHERE table_id = $1", table.id)
        await self._save_seats(db, table.id, table.seats)

    @staticmethod
    async def _refuse_busy_channel(
        db: asyncpg.Connection, channel_id: int, table_id: int | None
    ) -> None:
        # The partial unique index is the guarantee; asking first names the busy table.
        busy = await db.fetchval(
            "SELECT id FROM tables WHERE channel_id = $1 AND status = ANY($2::text[])",
            channel_id,
            _OPEN,
        )
        if busy is not None and busy != table_id:
            raise ChannelBusy(busy)

    @staticmethod
    async def _save_seats(
        db: asyncpg.Connection, table_id: int, seats: list[Seat], first: int = 0
    ) -> None:
        await db.executemany(
            "INSERT INTO seats (table_id, position, user_id, name, ai, resigned, ai_level)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [
                (table_id, position, seat.user_id, seat.name, seat.ai, seat.resigned, seat.ai_level)
                for position, seat in enumerate(seats, start=first)
            ],
        )

    @staticmethod
    async def _tables(db: asyncpg.Connection, where: str, *params: Any) -> list[Table]:
        """The tables matching `where` (on columns of t), with their seats, in one statement."""
        tables: dict[int, Table] = {}
        rows = await db.fetch(
            "SELECT t.id, t.guild_id, t.channel_id, t.host_id, t.game, t.options, t.seed,"
            " t.status, t.lobby_message_id, t.table_message_id, t.result, t.created_at,"
            " t.started_at, t.ended_at, t.settings, s.position, s.user_id, s.name, s.ai,"
            " s.resigned, s.ai_level, t.awaiting, t.paused_at"
            " FROM tables AS t LEFT JOIN seats AS s ON s.table_id = t.id"
            f" WHERE {where} ORDER BY t.id, s.position",
            *params,
        )
        for row in rows:
            table = tables.get(row["id"])
            if table is None:
                table = tables[row["id"]] = Table(
                    id=row["id"],
                    guild_id=row["guild_id"],
                    channel_id=row["channel_id"],
                    host_id=row["host_id"],
                    game=row["game"],
                    options=row["options"],
                    settings=row["settings"],
                    seed=int(row["seed"]),
                    status=TableStatus(row["status"]),
                    lobby_message_id=row["lobby_message_id"],
                    table_message_id=row["table_message_id"],
                    result=row["result"],
                    created_at=_utc(row["created_at"]),
                    started_at=_utc(row["started_at"]),
                    ended_at=_utc(row["ended_at"]),
                    awaiting=None if row["awaiting"] is None else tuple(row["awaiting"]),
                    paused_at=_utc(row["paused_at"]),
                )
            if row["position"] is not None:
                table.seats.append(
                    Seat(row["user_id"], row["name"], row["ai"], row["resigned"], row["ai_level"])
                )
        return list(tables.values())

    # -- the action log ----------------------------------------------------------------
    async def append_action(
        self,
        table_id: int,
        seq: int,
        seat: int,
        choices: tuple[str, ...],
        user_id: int | None,
        snapshot: str | None = None,
        result: FinalResult | None = None,
        awaiting: Sequence[int] | None = None,
    ) -> None:
        await self.append_actions(
            table_id,
            seq,
            seat,
            (choices,),
            user_id,
            snapshot=None if snapshot is None else (seq, snapshot),
            result=result,
            awaiting=awaiting,
        )

    async def append_actions(
        self,
        table_id: int,
        seq: int,
        seat: int,
        moves: Sequence[tuple[str, ...]],
        user_id: int | None,
        snapshot: tuple[int, str] | None = None,
        result: FinalResult | None = None,
        awaiting: Sequence[int] | None = None,
    ) -> None:
        async with self._transaction() as db:
            # The row lock serialises the moves of one table across every process.
            status = await db.fetchval(
                "SELECT status FROM tables WHERE id = $1 FOR UPDATE", table_id
            )
            if status is None:
                raise StoreError(f"no table {table_id}")
            current = await db.fetchval(
                "SELECT coalesce(max(seq), 0) FROM actions WHERE table_id = $1", table_id
            )
            if seq != current + 1:
                raise StaleAction(seq, current)
            if TableStatus(status) is not TableStatus.ACTIVE:
                raise TableNotActive(table_id, TableStatus(status))
            at = utcnow()
            await db.executemany(
                "INSERT INTO actions (table_id, seq, seat, choices, user_id, at, chained)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7)",
                [
                    (table_id, seq + i, seat, list(choices), user_id, at, i > 0)
                    for i, choices in enumerate(moves)
                ],
            )
            if snapshot is not None:
                await db.execute(
                    "INSERT INTO snapshots (table_id, seq, state) VALUES ($1, $2, $3)"
                    " ON CONFLICT (table_id) DO UPDATE SET seq = excluded.seq,"
                    " state = excluded.state",
                    table_id,
                    *snapshot,
                )
            await db.execute(
                "UPDATE tables SET awaiting = $1 WHERE id = $2",
                None if awaiting is None else list(awaiting),
                table_id,
            )
            if result is not None:
                (table,) = await self._tables(db, "t.id = $1", table_id)
                await self._finish(db, table, result)
            await self._announce(db, table_id)

    async def note_awaiting(self, table_id: int, seq: int, awaiting: Sequence[int]) -> bool:
        async with self._transaction() as db:
            status = await db.execute(
                "UPDATE tables SET awaiting = $1 WHERE id = $2 AND status = 'active'"
                " AND (SELECT coalesce(max(seq), 0) FROM actions WHERE table_id = $2) = $3",
                list(awaiting),
                table_id,
                seq,
            )
        return status != "UPDATE 0"

    async def actions(self, table_id: int, after: int = 0) -> list[LoggedAction]:
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT seq, seat, choices, user_id, at, chained FROM actions"
                " WHERE table_id = $1 AND seq > $2 ORDER BY seq",
                table_id,
                after,
            )
        return [_logged(*row) for row in rows]

    async def last_seq(self, table_id: int) -> int:
        async with self._read() as db:
            return await db.fetchval(
                "SELECT coalesce(max(seq), 0) FROM actions WHERE table_id = $1", table_id
            )

    async def latest_snapshot(self, table_id: int) -> Snapshot | None:
        async with self._read() as db:
            row = await db.fetchrow(
                "SELECT seq, state FROM snapshots WHERE table_id = $1", table_id
            )
        return None if row is None else Snapshot(row["seq"], row["state"])

    async def game_logs(self, table_ids: Sequence[int]) -> dict[int, GameLog]:
        wanted = list(dict.fromkeys(table_ids))
        async with self._read() as db:
            found = await db.fetch("SELECT id FROM tables WHERE id = ANY($1::bigint[])", wanted)
            snapshots = await db.fetch(
                "SELECT table_id, seq, state FROM snapshots WHERE table_id = ANY($1::bigint[])",
                wanted,
            )
            rows = await db.fetch(
                "SELECT a.table_id, a.seq, a.seat, a.choices, a.user_id, a.at, a.chained"
                " FROM actions AS a LEFT JOIN snapshots AS s ON s.table_id = a.table_id"
                " WHERE a.table_id = ANY($1::bigint[]) AND a.seq > coalesce(s.seq, 0)"
                " ORDER BY a.table_id, a.seq",
                wanted,
            )
        actions: dict[int, list[LoggedAction]] = {row["id"]: [] for row in found}
        for table_id, *row in rows:
            actions[table_id].append(_logged(*row))
        snapped = {row["table_id"]: Snapshot(row["seq"], row["state"]) for row in snapshots}
        return {
            table_id: GameLog(snapped.get(table_id), tuple(logged))
            for table_id, logged in actions.items()
        }

    # -- users -----------------------------------------------------------------------------
    async def get_prefs(self, user_id: int) -> UserPrefs:
        async with self._read() as db:
            row = await db.fetchrow(
                "SELECT turn_dms, dms_closed, locale, quiet_start, quiet_end, utc_offset"
                " FROM user_prefs WHERE user_id = $1",
                user_id,
            )
        if row is None:
            return UserPrefs(user_id)
        return UserPrefs(user_id, **dict(row))

    async def set_prefs(self, prefs: UserPrefs) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO user_prefs (user_id, turn_dms, dms_closed) VALUES ($1, $2, $3)"
                " ON CONFLICT (user_id) DO UPDATE SET turn_dms = excluded.turn_dms,"
                " dms_closed = excluded.dms_closed",
                prefs.user_id,
                prefs.turn_dms,
                prefs.dms_closed,
            )

    async def set_locale(self, user_id: int, locale: str) -> None:
        async with self._transaction() as db:
            status = await db.execute(
                "INSERT INTO user_prefs (user_id, locale) VALUES ($1, $2)"
                " ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale"
                " WHERE user_prefs.locale IS DISTINCT FROM excluded.locale",
                user_id,
                locale,
            )
            if status != "INSERT 0 0":
                await self._announce(db, user_id, "locale")

    async def set_quiet_hours(
        self, user_id: int, start: int | None, end: int | None, utc_offset: int
    ) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO user_prefs (user_id, quiet_start, quiet_end, utc_offset)"
                " VALUES ($1, $2, $3, $4) ON CONFLICT (user_id) DO UPDATE SET"
                " quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end,"
                " utc_offset = excluded.utc_offset",
                user_id,
                start,
                end,
                utc_offset,
            )

    async def set_language(self, user_id: int, language: str | None) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO user_prefs (user_id, language) VALUES ($1, $2)"
                " ON CONFLICT (user_id) DO UPDATE SET language = excluded.language",
                user_id,
                language,
            )
            await self._announce(db, user_id, "user")

    async def set_server_language(self, guild_id: int, language: str | None) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO guild_prefs (guild_id, language) VALUES ($1, $2)"
                " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
                guild_id,
                language,
            )
            await self._announce(db, guild_id, "guild")

    async def language_choices(self) -> LanguageChoices:
        async with self._read() as db:
            users = await db.fetch(
                "SELECT user_id, language FROM user_prefs WHERE language IS NOT NULL"
            )
            guilds = await db.fetch(
                "SELECT guild_id, language FROM guild_prefs WHERE language IS NOT NULL"
            )
        return LanguageChoices(
            users={row[0]: row[1] for row in users}, guilds={row[0]: row[1] for row in guilds}
        )

    # -- waiting on players ------------------------------------------------------------
    async def save_clock(self, clock: SeatClock) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO seat_clocks (table_id, seat, user_id, reserve, timeouts, since,"
                " deadline, next_remind, reminders, snoozed, timed_out, stalled)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
                " ON CONFLICT (table_id, seat) DO UPDATE SET user_id = excluded.user_id,"
                " reserve = excluded.reserve, timeouts = excluded.timeouts,"
                " since = excluded.since, deadline = excluded.deadline,"
                " next_remind = excluded.next_remind, reminders = excluded.reminders,"
                # a snooze (snooze_clock, from any process) holds for the rest of its wait
                " snoozed = excluded.snoozed OR (seat_clocks.snoozed"
                " AND seat_clocks.since IS NOT DISTINCT FROM excluded.since),"
                " timed_out = excluded.timed_out, stalled = excluded.stalled",
                clock.table_id,
                clock.seat,
                clock.user_id,
                max(0.0, clock.reserve),
                clock.timeouts,
                _utc(clock.since),
                _utc(clock.deadline),
                _utc(clock.next_remind),
                clock.reminders,
                clock.snoozed,
                clock.timed_out,
                clock.stalled,
            )

    async def clocks(self, table_id: int | None = None) -> list[SeatClock]:
        where, params = "t.status = 'active'", []
        if table_id is not None:
            where, params = "c.table_id = $1", [table_id]
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT c.table_id, c.seat, c.user_id, c.reserve, c.timeouts, c.since,"
                " c.deadline, c.next_remind, c.reminders, c.snoozed, c.timed_out, c.stalled"
                " FROM seat_clocks AS c JOIN tables AS t ON t.id = c.table_id"
                f" WHERE {where} ORDER BY c.table_id, c.seat",
                *params,
            )
        return [SeatClock(**dict(row)) for row in rows]

    async def snooze_clock(self, table_id: int, seat: int, user_id: int, since: int) -> bool:
        async with self._transaction() as db:
            row = await db.fetchrow(
                "SELECT user_id, since FROM seat_clocks WHERE table_id = $1 AND seat = $2"
                " FOR UPDATE",
                table_id,
                seat,
            )
            began = None if row is None else row["since"]
            if row is None or row["user_id"] != user_id or began is None:
                return False
            if int(began.timestamp()) != since:
                return False
            await db.execute(
                "UPDATE seat_clocks SET snoozed = true WHERE table_id = $1 AND seat = $2",
                table_id,
                seat,
            )
            await self._announce(db, table_id, "clock")
            return True

    async def drop_clocks(self, table_id: int) -> None:
        async with self._transaction() as db:
            await db.execute("DELETE FROM seat_clocks WHERE table_id = $1", table_id)

    async def set_seat_ai(self, table_id: int, position: int, ai: bool) -> Table:
        async with self._active(table_id) as (db, table):
            seat = table.seats[position]
            if seat.user_id is not None and not seat.resigned:
                seat.ai = ai
                await db.execute(
                    "UPDATE seats SET ai = $1 WHERE table_id = $2 AND position = $3",
                    ai,
                    table_id,
                    position,
                )
        return table

    async def guild_tables(self, guild_id: int) -> list[Table]:
        async with self._read() as db:
            return await self._tables(
                db, "t.guild_id = $1 AND t.status = ANY($2::text[])", guild_id, _OPEN
            )

    async def away(self, user_id: int) -> Away | None:
        async with self._read() as db:
            row = await db.fetchrow("SELECT since, until FROM away WHERE user_id = $1", user_id)
        return None if row is None else Away(user_id, row["since"], row["until"])

    async def aways(self) -> list[Away]:
        async with self._read() as db:
            rows = await db.fetch("SELECT user_id, since, until FROM away ORDER BY user_id")
        return [Away(**dict(row)) for row in rows]

    async def away_days_used(self, user_id: int, year: int) -> int:
        async with self._read() as db:
            days = await db.fetchval(
                "SELECT days FROM away_days WHERE user_id = $1 AND year = $2", user_id, year
            )
        return days or 0

    async def start_away(self, away: Away, *, year: int, days: int, allowance: int) -> None:
        async with self._transaction() as db:
            # The year's row, locked: two requests at once are charged one after the other.
            await db.execute(
                "INSERT INTO away_days (user_id, year, days) VALUES ($1, $2, 0)"
                " ON CONFLICT (user_id, year) DO NOTHING",
                away.user_id,
                year,
            )
            used = await db.fetchval(
                "SELECT days FROM away_days WHERE user_id = $1 AND year = $2 FOR UPDATE",
                away.user_id,
                year,
            )
            if used + days > allowance:
                raise AwayAllowance(used, allowance)
            await db.execute(
                "UPDATE away_days SET days = days + $3 WHERE user_id = $1 AND year = $2",
                away.user_id,
                year,
                days,
            )
            await db.execute(
                "INSERT INTO away (user_id, since, until) VALUES ($1, $2, $3)"
                " ON CONFLICT (user_id) DO UPDATE SET since = excluded.since,"
                " until = excluded.until",
                away.user_id,
                _utc(away.since),
                _utc(away.until),
            )
            await self._announce(db, away.user_id, "away")

    async def end_away(self, user_id: int, *, year: int, refund: int) -> None:
        async with self._transaction() as db:
            gone = await db.execute("DELETE FROM away WHERE user_id = $1", user_id)
            if gone != "DELETE 0":
                await self._announce(db, user_id, "away")
            if refund > 0:
                await db.execute(
                    "UPDATE away_days SET days = greatest(0, days - $1)"
                    " WHERE user_id = $2 AND year = $3",
                    refund,
                    user_id,
                    year,
                )

    # -- requests to abandon a game (bot/abandon.py) -----------------------------------
    async def open_abandon_request(
        self, table_id: int, requested_by: int, agreed: Sequence[int], expires_at: datetime
    ) -> AbandonRequest:
        async with self._active(table_id) as (db, _):
            pending = await db.fetchrow(
                f"{_REQUEST} WHERE table_id = $1 AND status = 'open'", table_id
            )
            if pending is not None:
                raise AbandonPending(_request(pending))
            row = await db.fetchrow(
                "INSERT INTO abandon_requests (table_id, requested_by, created_at, expires_at,"
                " agreed) VALUES ($1, $2, $3, $4, $5)"
                " RETURNING id, table_id, requested_by, created_at, expires_at, status, agreed,"
                " message_id",
                table_id,
                requested_by,
                utcnow(),
                _utc(expires_at),
                list(agreed),
            )
        return _request(row)

    async def set_abandon_message(self, request_id: int, message_id: int) -> None:
        async with self._transaction() as db:
            await db.execute(
                "UPDATE abandon_requests SET message_id = $1 WHERE id = $2", message_id, request_id
            )

    async def abandon_requests(self, table_id: int | None = None) -> list[AbandonRequest]:
        async with self._read() as db:
            rows = await db.fetch(
                f"{_REQUEST} WHERE status = 'open' AND ($1::bigint IS NULL OR table_id = $1)"
                " ORDER BY id",
                table_id,
            )
        return [_request(row) for row in rows]

    async def agree_to_abandon(self, request_id: int, user_id: int) -> AbandonRequest:
        async with self._transaction() as db:
            row = await db.fetchrow(f"{_REQUEST} WHERE id = $1 FOR UPDATE", request_id)
            request = _request(row) if row is not None else None
            if request is None or request.status != "open":
                raise RequestClosed(request_id, request.status if request else "unknown")
            if user_id in request.agreed:
                raise AlreadyAgreed(f"user {user_id} agreed to request {request_id} already")
            await db.execute(
                "UPDATE abandon_requests SET agreed = array_append(agreed, $1) WHERE id = $2",
                user_id,
                request_id,
            )
        return replace(request, agreed=(*request.agreed, user_id))

    async def close_abandon_request(self, request_id: int, status: str) -> AbandonRequest | None:
        async with self._transaction() as db:
            row = await db.fetchrow(
                "UPDATE abandon_requests SET status = $1 WHERE id = $2 AND status = 'open'"
                " RETURNING id, table_id, requested_by, created_at, expires_at, status, agreed,"
                " message_id",
                status,
                request_id,
            )
        return None if row is None else _request(row)


_REQUEST = (
    "SELECT id, table_id, requested_by, created_at, expires_at, status, agreed, message_id"
    " FROM abandon_requests"
)


def _request(row: asyncpg.Record) -> AbandonRequest:
    """A row of abandon_requests."""
    return AbandonRequest(
        row["id"],
        row["table_id"],
        row["requested_by"],
        _utc(row["created_at"]),  # type: ignore[arg-type]
        _utc(row["expires_at"]),  # type: ignore[arg-type]
        row["status"],
        tuple(row["agreed"]),
        row["message_id"],
    )
