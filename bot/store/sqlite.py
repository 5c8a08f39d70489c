"""The embedded store: SQLite through aiosqlite, in WAL mode.

One connection per store. SQLite runs one transaction per connection, so an asyncio lock
serialises this store's statements; several stores (or processes) on the same file are kept
apart by SQLite itself: every write starts with BEGIN IMMEDIATE, which takes the file's write
lock before anything is read, so a check and the insert it guards are atomic across
connections.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from importlib.resources import files
from importlib.resources.abc import Traversable
from os import PathLike
from pathlib import Path
from typing import Any

import aiosqlite

from meeple_hall.bot.store.base import (
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
from meeple_hall.bot.store.sqlite_community import CommunityCommands

log = logging.getLogger(__name__)

MEMORY = ":memory:"
_IDS_A_STATEMENT = 500  # table ids bound in one statement (SQLite allows 32,766 parameters)
MIGRATIONS_DIR = files(__package__) / "migrations"
_MIGRATION_NAME = re.compile(r"(\d{4})_(\w+)\.sql")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        """The script cut into single statements (a trigger's body stays whole)."""
        statements: list[str] = []
        pending = ""
        for line in self.sql.splitlines(keepends=True):
            pending += line
            if sqlite3.complete_statement(pending):
                statements.append(pending.strip())
                pending = ""
        leftover = [line for line in pending.splitlines() if not line.strip().startswith("--")]
        if "".join(leftover).strip():
            raise StoreError(f"migration {self.version:04d} ends with an incomplete statement")
        return statements


def load_migrations(directory: Traversable = MIGRATIONS_DIR) -> list[Migration]:
    """The migrations in `directory`, named NNNN_name.sql and numbered 1, 2, 3 … without gaps."""
    migrations = []
    scripts = (path for path in directory.iterdir() if path.name.endswith(".sql"))
    for path in sorted(scripts, key=lambda path: path.name):
        match = _MIGRATION_NAME.fullmatch(path.name)
        if match is None:
            raise StoreError(f"migration file {path.name} is not named NNNN_name.sql")
        migrations.append(Migration(int(match[1]), match[2], path.read_text(encoding="utf-8")))
    if not migrations:
        raise StoreError(f"no migrations in {directory} (were the .sql files left out?)")
    versions = [m.version for m in migrations]
    if versions != list(range(1, len(migrations) + 1)):
        raise StoreError(f"migrations must be numbered 1, 2, 3 … without gaps; found {versions}")
    return migrations


def utcnow() -> datetime:
    return datetime.now(UTC)


def _to_text(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat()


def _logged(
    seq: int, seat: int, choices: str, user_id: int | None, at: str, chained: int
) -> LoggedAction:
    """A row of the action log."""
    moment = _from_text(at)
    assert moment is not None
    return LoggedAction(seq, seat, tuple(json.loads(choices)), user_id, moment, bool(chained))


def _from_text(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


async def _all(db: aiosqlite.Connection, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
    async with db.execute(sql, params) as cursor:
        return list(await cursor.fetchall())


async def _one(db: aiosqlite.Connection, sql: str, params: tuple[Any, ...] = ()) -> Any:
    async with db.execute(sql, params) as cursor:
        return await cursor.fetchone()


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class SQLiteStore(CommunityCommands):
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
        self._migrations = migrations if migrations is not None else load_migrations()
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    # -- connection ------------------------------------------------------------------
    async def open(self) -> None:
        if self._db is not None:
            raise StoreError("the store is already open")
        if self.path != MEMORY:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: no implicit transactions; every write says BEGIN IMMEDIATE.
        db = await aiosqlite.connect(self.path, isolation_level=None)
        try:
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
                (mode,) = await _one(db, "PRAGMA journal_mode = WAL")
                return str(mode)
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

    async def schema_version(self) -> int:
        async with self._read() as db:
            return await self._schema_version(db)

    async def _migrate(self) -> None:
        async with self._read() as db:
            await db.execute(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
            current = await self._schema_version(db)
        if current > len(self._migrations):
            raise StoreError(
                f"the database is at schema version {current}, newer than this build "
                f"(which knows {len(self._migrations)})"
            )
        for migration in self._migrations[current:]:
            async with self._write() as db:
                # Another process may have applied it since we looked.
                if await self._schema_version(db) >= migration.version:
                    continue
                for statement in migration.statements():
                    await db.execute(statement)
                await db.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                    (migration.version, migration.name, _to_text(utcnow())),
                )
            log.info("applied schema migration %04d_%s", migration.version, migration.name)

    @staticmethod
    async def _schema_version(db: aiosqlite.Connection) -> int:
        (version,) = await _one(db, "SELECT coalesce(max(version), 0) FROM schema_version")
        return version

    def _connection(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StoreError("the store is not open (await store.open() first)")
        return self._db

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            yield self._connection()

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One transaction holding the file's write lock from its first statement."""
        async with self._lock:
            db = self._connection()
            try:
                await db.execute("BEGIN IMMEDIATE")
                yield db
                await db.execute("COMMIT")
            except BaseException:
                await self._rollback(db)
                raise

    @staticmethod
    async def _rollback(db: aiosqlite.Connection) -> None:
        # Failing means no transaction is open: BEGIN failed, or COMMIT went through after all.
        with suppress(sqlite3.OperationalError):
            await db.execute("ROLLBACK")

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
        async with self._write() as db:
            await self._refuse_busy_channel(db, channel_id, None)
            cursor = await db.execute(
                "INSERT INTO tables (guild_id, channel_id, host_id, game, options, settings, seed,"
                " status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    guild_id,
                    channel_id,
                    host_id,
                    game,
                    _json(table.options),
                    _json(table.settings),
                    str(seed),
                    table.status.value,
                    _to_text(table.created_at),
                ),
            )
            table.id = cursor.lastrowid
            await self._save_seats(db, table.id, table.seats)
        return table

    async def get_table(self, table_id: int) -> Table | None:
        async with self._read() as db:
            tables = await self._tables(db, "t.id = ?", (table_id,))
        return tables[0] if tables else None

    async def open_table_in(self, channel_id: int) -> Table | None:
        async with self._read() as db:
            tables = await self._tables(
                db, f"t.channel_id = ? AND t.status IN {_OPEN}", (channel_id,)
            )
        return tables[0] if tables else None

    async def open_tables(self) -> list[Table]:
        async with self._read() as db:
            return await self._tables(db, f"t.status IN {_OPEN}", ())

    async def tables_for_user(
        self, user_id: int, statuses: tuple[TableStatus, ...] = OPEN_STATUSES
    ) -> list[Table]:
        if not statuses:
            return []
        marks = ", ".join("?" for _ in statuses)
        async with self._read() as db:
            return await self._tables(
                db,
                f"t.status IN ({marks}) AND t.id IN (SELECT table_id FROM seats WHERE user_id = ?)",
                (*(TableStatus(s).value for s in statuses), user_id),
            )

    async def set_lobby_message(self, table_id: int, message_id: int) -> None:
        await self._set_message(table_id, "lobby_message_id", message_id)

    async def set_table_message(self, table_id: int, message_id: int) -> None:
        await self._set_message(table_id, "table_message_id", message_id)

    async def pause_table(self, table_id: int, at: datetime) -> None:
        async with self._write() as db:
            await db.execute(
                "UPDATE tables SET paused_at = ? WHERE id = ? AND status = 'active'",
                (_to_text(at), table_id),
            )

    async def move_table(self, table_id: int, channel_id: int) -> Table:
        async with self._write() as db:
            await self._refuse_busy_channel(db, channel_id, table_id)
            await db.execute(
                "UPDATE tables SET channel_id = ?, paused_at = NULL, table_message_id = NULL"
                " WHERE id = ?",
                (channel_id, table_id),
            )
            (table,) = await self._tables(db, "t.id = ?", (table_id,))
        return table

    async def _set_message(self, table_id: int, column: str, message_id: int) -> None:
        async with self._write() as db:
            cursor = await db.execute(
                f"UPDATE tables SET {column} = ? WHERE id = ?", (message_id, table_id)
            )
            if cursor.rowcount == 0:
                raise StoreError(f"no table {table_id}")

    # -- lobby commands ----------------------------------------------------------------
    @asynccontextmanager
    async def _lobby(self, table_id: int) -> AsyncIterator[tuple[aiosqlite.Connection, Table]]:
        """A write transaction on a table that must still be a lobby, as it is now."""
        async with self._write() as db:
            table = await self._table_in(db, table_id)
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
                    "UPDATE tables SET host_id = ? WHERE id = ?", (table.host_id, table_id)
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
                "UPDATE tables SET options = ? WHERE id = ?", (_json(table.options), table_id)
            )
        return table

    async def set_setting(self, table_id: int, name: str, value: str) -> Table:
        async with self._lobby(table_id) as (db, table):
            table.settings[name] = value
            await db.execute(
                "UPDATE tables SET settings = ? WHERE id = ?", (_json(table.settings), table_id)
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
                "UPDATE tables SET started_at = ? WHERE id = ?",
                (_to_text(table.started_at), table_id),
            )
            await self._set_status(db, table, TableStatus.ACTIVE)
        return table

    # -- a game in play ----------------------------------------------------------------
    @asynccontextmanager
    async def _active(self, table_id: int) -> AsyncIterator[tuple[aiosqlite.Connection, Table]]:
        """A write transaction on a table that must be an active game, as it is now."""
        async with self._write() as db:
            table = await self._table_in(db, table_id)
            if table.status is not TableStatus.ACTIVE:
                raise TableNotActive(table_id, table.status)
            yield db, table

    async def resign_seat(self, table_id: int, position: int, *, play_out: bool = False) -> Table:
        async with self._active(table_id) as (db, table):
            seat = table.seats[position]
            seat.resigned = seat.ai = True
            await db.execute(
                "UPDATE seats SET resigned = 1, ai = 1 WHERE table_id = ? AND position = ?",
                (table_id, position),
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

    async def _finish(self, db: aiosqlite.Connection, table: Table, result: FinalResult) -> None:
        """The result, one results row per seat, and the finished status."""
        if not len(result.scores) == len(result.ranks) == len(table.seats):
            raise StoreError(f"table {table.id} has {len(table.seats)} seats, not a result's")
        table.result = result.as_json()
        await db.execute(
            "UPDATE tables SET result = ? WHERE id = ?", (_json(table.result), table.id)
        )
        await self._end(db, table, TableStatus.FINISHED)
        breakdowns = result.breakdown or tuple({} for _ in table.seats)
        await db.executemany(
            "INSERT INTO results (table_id, seat, user_id, score, rank, resigned, finished_at,"
            " breakdown) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    table.id,
                    position,
                    seat.user_id,
                    score,
                    rank,
                    int(seat.played_out),
                    _to_text(table.ended_at),
                    _json(breakdown),
                )
                for position, (seat, score, rank, breakdown) in enumerate(
                    zip(table.seats, result.scores, result.ranks, breakdowns, strict=True)
                )
            ],
        )

    async def _end(self, db: aiosqlite.Connection, table: Table, status: TableStatus) -> None:
        table.ended_at = utcnow()
        await db.execute(
            "UPDATE tables SET ended_at = ? WHERE id = ?", (_to_text(table.ended_at), table.id)
        )
        await self._set_status(db, table, status)

    async def results(
        self, *, game: str | None = None, guild_id: int | None = None
    ) -> list[ResultRow]:
        return await self.results_since(game=game, guild_id=guild_id)

    # -- shared by the commands ----------------------------------------------------------
    async def _table_in(self, db: aiosqlite.Connection, table_id: int) -> Table:
        tables = await self._tables(db, "t.id = ?", (table_id,))
        if not tables:
            raise StoreError(f"no table {table_id}")
        return tables[0]

    async def _set_status(
        self, db: aiosqlite.Connection, table: Table, status: TableStatus
    ) -> None:
        if status in OPEN_STATUSES:
            await self._refuse_busy_channel(db, table.channel_id, table.id)
        table.status = status
        await db.execute("UPDATE tables SET status = ? WHERE id = ?", (status.value, table.id))

    async def _replace_seats(self, db: aiosqlite.Connection, table: Table) -> None:
        """Positions stay 0, 1, 2 … after a seat is taken out of the middle."""
        await db.execute("DELETE FROM seats WHERE table_id = ?", (table.id,))
        await self._save_seats(db, table.id, table.seats)

    @staticmethod
    async def _refuse_busy_channel(
        db: aiosqlite.Connection, channel_id: int, table_id: int | None
    ) -> None:
        # The partial unique index is the guarantee; asking first names the busy table.
        row = await _one(
            db, f"SELECT id FROM tables WHERE channel_id = ? AND status IN {_OPEN}", (channel_id,)
        )
        if row is not None and row[0] != table_id:
            raise ChannelBusy(row[0])

    @staticmethod
    async def _save_seats(
        db: aiosqlite.Connection, table_id: int, seats: list[Seat], first: int = 0
    ) -> None:
        await db.executemany(
            "INSERT INTO seats (table_id, position, user_id, name, ai, resigned, ai_level)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    table_id,
                    position,
                    seat.user_id,
                    seat.name,
                    int(seat.ai),
                    int(seat.resigned),
                    seat.ai_level,
                )
                for position, seat in enumerate(seats, start=first)
            ],
        )

    @staticmethod
    async def _tables(db: aiosqlite.Connection, where: str, params: tuple[Any, ...]) -> list[Table]:
        """The tables matching `where` (on columns of t), with their seats, in one statement."""
        tables: dict[int, Table] = {}
        async with db.execute(
            "SELECT t.id, t.guild_id, t.channel_id, t.host_id, t.game, t.options, t.seed,"
            " t.status, t.lobby_message_id, t.table_message_id, t.result, t.created_at,"
            " t.started_at, t.ended_at, t.settings, s.position, s.user_id, s.name, s.ai,"
            " s.resigned, s.ai_level, t.awaiting, t.paused_at"
            " FROM tables AS t LEFT JOIN seats AS s ON s.table_id = t.id"
            f" WHERE {where} ORDER BY t.id, s.position",
            params,
        ) as cursor:
            async for row in cursor:
                table = tables.get(row[0])
                if table is None:
                    table = tables[row[0]] = Table(
                        id=row[0],
                        guild_id=row[1],
                        channel_id=row[2],
                        host_id=row[3],
                        game=row[4],
                        options=json.loads(row[5]),
                        seed=int(row[6]),
                        status=TableStatus(row[7]),
                        lobby_message_id=row[8],
                        table_message_id=row[9],
                        result=None if row[10] is None else json.loads(row[10]),
                        created_at=_from_text(row[11]),
                        started_at=_from_text(row[12]),
                        ended_at=_from_text(row[13]),
                        settings=json.loads(row[14]),
                        awaiting=None if row[21] is None else tuple(json.loads(row[21])),
                        paused_at=_from_text(row[22]),
                    )
                if row[15] is not None:
                    table.seats.append(
                        Seat(row[16], row[17], bool(row[18]), bool(row[19]), row[20])
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
        async with self._write() as db:
            row = await _one(
                db,
                "SELECT status,"
                " (SELECT coalesce(max(seq), 0) FROM actions WHERE table_id = tables.id)"
                " FROM tables WHERE id = ?",
                (table_id,),
            )
            if row is None:
                raise StoreError(f"no table {table_id}")
            status, current = TableStatus(row[0]), row[1]
            if seq != current + 1:
                raise StaleAction(seq, current)
            if status is not TableStatus.ACTIVE:
                raise TableNotActive(table_id, status)
            at = _to_text(utcnow())
            await db.executemany(
                "INSERT INTO actions (table_id, seq, seat, choices, user_id, at, chained)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (table_id, seq + i, seat, _json(list(choices)), user_id, at, int(i > 0))
                    for i, choices in enumerate(moves)
                ],
            )
            if snapshot is not None:
                await db.execute(
                    "INSERT INTO snapshots (table_id, seq, state) VALUES (?, ?, ?)"
                    " ON CONFLICT (table_id) DO UPDATE SET seq = excluded.seq,"
                    " state = excluded.state",
                    (table_id, *snapshot),
                )
            await db.execute(
                "UPDATE tables SET awaiting = ? WHERE id = ?",
                (None if awaiting is None else _json(list(awaiting)), table_id),
            )
            if result is not None:
                await self._finish(db, await self._table_in(db, table_id), result)

    async def note_awaiting(self, table_id: int, seq: int, awaiting: Sequence[int]) -> bool:
        async with self._write() as db:
            cursor = await db.execute(
                "UPDATE tables SET awaiting = ? WHERE id = ? AND status = 'active'"
                " AND (SELECT coalesce(max(seq), 0) FROM actions WHERE table_id = ?) = ?",
                (_json(list(awaiting)), table_id, table_id, seq),
            )
            return cursor.rowcount > 0

    async def actions(self, table_id: int, after: int = 0) -> list[LoggedAction]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT seq, seat, choices, user_id, at, chained FROM actions"
                " WHERE table_id = ? AND seq > ? ORDER BY seq",
                (table_id, after),
            )
        return [_logged(*row) for row in rows]

    async def last_seq(self, table_id: int) -> int:
        async with self._read() as db:
            (seq,) = await _one(
                db, "SELECT coalesce(max(seq), 0) FROM actions WHERE table_id = ?", (table_id,)
            )
        return seq

    async def latest_snapshot(self, table_id: int) -> Snapshot | None:
        async with self._read() as db:
            row = await _one(db, "SELECT seq, state FROM snapshots WHERE table_id = ?", (table_id,))
        return None if row is None else Snapshot(row[0], row[1])

    async def game_logs(self, table_ids: Sequence[int]) -> dict[int, GameLog]:
        wanted = list(dict.fromkeys(table_ids))
        snapshots: dict[int, Snapshot] = {}
        actions: dict[int, list[LoggedAction]] = {}
        async with self._read() as db:
            for start in range(0, len(wanted), _IDS_A_STATEMENT):
                ids = tuple(wanted[start : start + _IDS_A_STATEMENT])
                marks = ", ".join("?" * len(ids))
                for (found,) in await _all(db, f"SELECT id FROM tables WHERE id IN ({marks})", ids):
                    actions[found] = []
                rows = await _all(
                    db,
                    f"SELECT table_id, seq, state FROM snapshots WHERE table_id IN ({marks})",
                    ids,
                )
                snapshots.update((table_id, Snapshot(seq, state)) for table_id, seq, state in rows)
                rows = await _all(
                    db,
                    "SELECT a.table_id, a.seq, a.seat, a.choices, a.user_id, a.at, a.chained"
                    " FROM actions AS a LEFT JOIN snapshots AS s ON s.table_id = a.table_id"
                    f" WHERE a.table_id IN ({marks}) AND a.seq > coalesce(s.seq, 0)"
                    " ORDER BY a.table_id, a.seq",
                    ids,
                )
                for table_id, *row in rows:
                    actions[table_id].append(_logged(*row))
        return {
            table_id: GameLog(snapshots.get(table_id), tuple(logged))
            for table_id, logged in actions.items()
        }

    # -- users -----------------------------------------------------------------------------
    async def get_prefs(self, user_id: int) -> UserPrefs:
        async with self._read() as db:
            row = await _one(
                db,
                "SELECT turn_dms, dms_closed, locale, quiet_start, quiet_end, utc_offset"
                " FROM user_prefs WHERE user_id = ?",
                (user_id,),
            )
        if row is None:
            return UserPrefs(user_id)
        return UserPrefs(
            user_id,
            turn_dms=bool(row[0]),
            dms_closed=bool(row[1]),
            locale=row[2],
            quiet_start=row[3],
            quiet_end=row[4],
            utc_offset=row[5],
        )

    async def set_prefs(self, prefs: UserPrefs) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO user_prefs (user_id, turn_dms, dms_closed) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET turn_dms = excluded.turn_dms,"
                " dms_closed = excluded.dms_closed",
                (prefs.user_id, int(prefs.turn_dms), int(prefs.dms_closed)),
            )

    async def set_locale(self, user_id: int, locale: str) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO user_prefs (user_id, locale) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale",
                (user_id, locale),
            )

    async def set_quiet_hours(
        self, user_id: int, start: int | None, end: int | None, utc_offset: int
    ) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO user_prefs (user_id, quiet_start, quiet_end, utc_offset)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
                " quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end,"
                " utc_offset = excluded.utc_offset",
                (user_id, start, end, utc_offset),
            )

    async def set_language(self, user_id: int, language: str | None) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO user_prefs (user_id, language) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET language = excluded.language",
                (user_id, language),
            )

    async def set_server_language(self, guild_id: int, language: str | None) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO guild_prefs (guild_id, language) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
                (guild_id, language),
            )

    async def language_choices(self) -> LanguageChoices:
        async with self._read() as db:
            users = await _all(
                db, "SELECT user_id, language FROM user_prefs WHERE language IS NOT NULL"
            )
            guilds = await _all(
                db, "SELECT guild_id, language FROM guild_prefs WHERE language IS NOT NULL"
            )
        return LanguageChoices(users=dict(users), guilds=dict(guilds))

    # -- waiting on players ------------------------------------------------------------
    async def save_clock(self, clock: SeatClock) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO seat_clocks (table_id, seat, user_id, reserve, timeouts, since,"
                " deadline, next_remind, reminders, snoozed, timed_out, stalled)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (table_id, seat) DO UPDATE SET user_id = excluded.user_id,"
                " reserve = excluded.reserve, timeouts = excluded.timeouts,"
                " since = excluded.since, deadline = excluded.deadline,"
                " next_remind = excluded.next_remind, reminders = excluded.reminders,"
                # a snooze (snooze_clock, from any process) holds for the rest of its wait
                " snoozed = excluded.snoozed OR (seat_clocks.snoozed"
                " AND seat_clocks.since IS excluded.since),"
                " timed_out = excluded.timed_out, stalled = excluded.stalled",
                (
                    clock.table_id,
                    clock.seat,
                    clock.user_id,
                    max(0.0, clock.reserve),
                    clock.timeouts,
                    _to_text(clock.since),
                    _to_text(clock.deadline),
                    _to_text(clock.next_remind),
                    clock.reminders,
                    int(clock.snoozed),
                    int(clock.timed_out),
                    int(clock.stalled),
                ),
            )

    async def clocks(self, table_id: int | None = None) -> list[SeatClock]:
        where, params = "t.status = 'active'", ()
        if table_id is not None:
            where, params = "c.table_id = ?", (table_id,)
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT c.table_id, c.seat, c.user_id, c.reserve, c.timeouts, c.since,"
                " c.deadline, c.next_remind, c.reminders, c.snoozed, c.timed_out, c.stalled"
                " FROM seat_clocks AS c JOIN tables AS t ON t.id = c.table_id"
                f" WHERE {where} ORDER BY c.table_id, c.seat",
                params,
            )
        return [
            SeatClock(
                table_id=row[0],
                seat=row[1],
                user_id=row[2],
                reserve=row[3],
                timeouts=row[4],
                since=_from_text(row[5]),
                deadline=_from_text(row[6]),
                next_remind=_from_text(row[7]),
                reminders=row[8],
                snoozed=bool(row[9]),
                timed_out=bool(row[10]),
                stalled=bool(row[11]),
            )
            for row in rows
        ]

    async def snooze_clock(self, table_id: int, seat: int, user_id: int, since: int) -> bool:
        async with self._write() as db:
            row = await _one(
                db,
                "SELECT user_id, since FROM seat_clocks WHERE table_id = ? AND seat = ?",
                (table_id, seat),
            )
            began = None if row is None else _from_text(row[1])
            if row is None or row[0] != user_id or began is None or int(began.timestamp()) != since:
                return False
            await db.execute(
                "UPDATE seat_clocks SET snoozed = 1 WHERE table_id = ? AND seat = ?",
                (table_id, seat),
            )
            return True

    async def drop_clocks(self, table_id: int) -> None:
        async with self._write() as db:
            await db.execute("DELETE FROM seat_clocks WHERE table_id = ?", (table_id,))

    async def set_seat_ai(self, table_id: int, position: int, ai: bool) -> Table:
        async with self._active(table_id) as (db, table):
            seat = table.seats[position]
            if seat.user_id is not None and not seat.resigned:
                seat.ai = ai
                await db.execute(
                    "UPDATE seats SET ai = ? WHERE table_id = ? AND position = ?",
                    (int(ai), table_id, position),
                )
        return table

    async def guild_tables(self, guild_id: int) -> list[Table]:
        async with self._read() as db:
            return await self._tables(db, f"t.guild_id = ? AND t.status IN {_OPEN}", (guild_id,))

    async def away(self, user_id: int) -> Away | None:
        async with self._read() as db:
            row = await _one(db, "SELECT since, until FROM away WHERE user_id = ?", (user_id,))
        return None if row is None else Away(user_id, _from_text(row[0]), _from_text(row[1]))  # type: ignore[arg-type]

    async def aways(self) -> list[Away]:
        async with self._read() as db:
            rows = await db.execute_fetchall("SELECT user_id, since, until FROM away")
        return [Away(u, _from_text(a), _from_text(b)) for u, a, b in rows]  # type: ignore[arg-type]

    async def away_days_used(self, user_id: int, year: int) -> int:
        async with self._read() as db:
            return await self._days_used(db, user_id, year)

    @staticmethod
    async def _days_used(db: aiosqlite.Connection, user_id: int, year: int) -> int:
        row = await _one(
            db, "SELECT days FROM away_days WHERE user_id = ? AND year = ?", (user_id, year)
        )
        return 0 if row is None else int(row[0])

    async def start_away(self, away: Away, *, year: int, days: int, allowance: int) -> None:
        async with self._write() as db:
            used = await self._days_used(db, away.user_id, year)
            if used + days > allowance:
                raise AwayAllowance(used, allowance)
            await db.execute(
                "INSERT INTO away_days (user_id, year, days) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id, year) DO UPDATE SET days = days + excluded.days",
                (away.user_id, year, days),
            )
            await db.execute(
                "INSERT INTO away (user_id, since, until) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET since = excluded.since,"
                " until = excluded.until",
                (away.user_id, _to_text(away.since), _to_text(away.until)),
            )

    async def end_away(self, user_id: int, *, year: int, refund: int) -> None:
        async with self._write() as db:
            await db.execute("DELETE FROM away WHERE user_id = ?", (user_id,))
            if refund > 0:
                await db.execute(
                    "UPDATE away_days SET days = max(0, days - ?) WHERE user_id = ? AND year = ?",
                    (refund, user_id, year),
                )

    # -- requests to abandon a game (bot/abandon.py) -----------------------------------
    async def open_abandon_request(
        self, table_id: int, requested_by: int, agreed: Sequence[int], expires_at: datetime
    ) -> AbandonRequest:
        async with self._active(table_id) as (db, _):
            pending = await _all(
                db, f"{_REQUEST} WHERE table_id = ? AND status = 'open'", (table_id,)
            )
            if pending:
                raise AbandonPending(_request(*pending[0]))
            now = utcnow()
            cursor = await db.execute(
                "INSERT INTO abandon_requests (table_id, requested_by, created_at, expires_at,"
                " agreed) VALUES (?, ?, ?, ?, ?)",
                (table_id, requested_by, _to_text(now), _to_text(expires_at), _json(list(agreed))),
            )
            request_id = int(cursor.lastrowid or 0)
        expires: datetime = _from_text(_to_text(expires_at))  # type: ignore[assignment]
        return AbandonRequest(
            request_id, table_id, requested_by, now, expires, agreed=tuple(agreed)
        )

    async def set_abandon_message(self, request_id: int, message_id: int) -> None:
        async with self._write() as db:
            await db.execute(
                "UPDATE abandon_requests SET message_id = ? WHERE id = ?", (message_id, request_id)
            )

    async def abandon_requests(self, table_id: int | None = None) -> list[AbandonRequest]:
        where, params = "status = 'open'", ()
        if table_id is not None:
            where, params = f"{where} AND table_id = ?", (table_id,)
        async with self._read() as db:
            rows = await _all(db, f"{_REQUEST} WHERE {where} ORDER BY id", params)
        return [_request(*row) for row in rows]

    async def agree_to_abandon(self, request_id: int, user_id: int) -> AbandonRequest:
        async with self._write() as db:
            row = await _one(db, f"{_REQUEST} WHERE id = ?", (request_id,))
            request = _request(*row) if row else None
            if request is None or request.status != "open":
                raise RequestClosed(request_id, request.status if request else "unknown")
            if user_id in request.agreed:
                raise AlreadyAgreed(f"user {user_id} agreed to request {request_id} already")
            request = replace(request, agreed=(*request.agreed, user_id))
            await db.execute(
                "UPDATE abandon_requests SET agreed = ? WHERE id = ?",
                (_json(list(request.agreed)), request_id),
            )
        return request

    async def close_abandon_request(self, request_id: int, status: str) -> AbandonRequest | None:
        async with self._write() as db:
            row = await _one(db, f"{_REQUEST} WHERE id = ? AND status = 'open'", (request_id,))
            if row is None:
                return None
            await db.execute(
                "UPDATE abandon_requests SET status = ? WHERE id = ?", (status, request_id)
            )
        return replace(_request(*row), status=status)


_OPEN = "(" + ", ".join(f"'{status.value}'" for status in OPEN_STATUSES) + ")"
_REQUEST = (
    "SELECT id, table_id, requested_by, created_at, expires_at, status, agreed, message_id"
    " FROM abandon_requests"
)


def _request(
    request_id: int,
    table_id: int,
    requested_by: int,
    created_at: str,
    expires_at: str,
    status: str,
    agreed: str,
    message_id: int | None,
) -> AbandonRequest:
    """A row of abandon_requests."""
    return AbandonRequest(
        request_id,
        table_id,
        requested_by,
        _from_text(created_at),  # type: ignore[arg-type]
        _from_text(expires_at),  # type: ignore[arg-type]
        status,
        tuple(json.loads(agreed)),
        message_id,
    )
