"""The store's commands, written once for SQLite and PostgreSQL.

Each command is one transaction. A command that changes a table first locks the table's
row (`SELECT … FOR UPDATE`, in a statement of its own), then reads what it checks: a second
command on the same table, from this process or another, waits for the first to commit and
then sees what it wrote. On PostgreSQL that is the row lock; on SQLite every write holds the
file's write lock from its first statement (BEGIN IMMEDIATE), which serialises the commands
as strongly, and the dialect drops the `FOR UPDATE` (bot/store/dialect.py). So two racing
moves both ask for the same sequence number and the second is told it is stale, a join
racing the start either sits down before the start or finds the game started, and so on.

A backend (bot/store/sqlite.py, bot/store/postgres.py) gives the connections: `_read()`
for a read and `_write()` for one transaction, each a dialect `Connection`; `_announce`
tells other processes what changed (PostgreSQL's NOTIFY; nothing on SQLite, whose file one
process owns), and `_busy_channel_constraint` names the unique index a racing insert broke.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from meeple_hall.bot.store.base import (
    HINTS_TAKEN,
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
from meeple_hall.bot.store.community import CommunityCommands
from meeple_hall.bot.store.dialect import Connection, Row
from meeple_hall.bot.store.schema import Migration

log = logging.getLogger(__name__)

IDS_A_STATEMENT = 500  # ids bound in one statement (SQLite allows 32,766 parameters)
ONE_OPEN_PER_CHANNEL = "tables_one_open_per_channel"
_OPEN = "(" + ", ".join(f"'{status.value}'" for status in OPEN_STATUSES) + ")"
_TABLE_COLUMNS = (
    "t.id, t.guild_id, t.channel_id, t.host_id, t.game, t.options, t.seed, t.status,"
    " t.lobby_message_id, t.table_message_id, t.result, t.created_at, t.started_at,"
    " t.ended_at, t.settings, t.awaiting, t.paused_at, s.position, s.user_id, s.name, s.ai,"
    " s.resigned, s.ai_level, s.turn_dm_owed, s.private_dm_sent"
)
_ACTION_COLUMNS = "seq, seat, choices, user_id, at, chained"
_REQUEST_COLUMNS = "id, table_id, requested_by, created_at, expires_at, status, agreed, message_id"


def utcnow() -> datetime:
    return datetime.now(UTC)


class SQLStore(CommunityCommands):
    """The Store's commands over a backend's connections (see the module's docstring)."""

    _migrations: list[Migration]

    def _read(self) -> AbstractAsyncContextManager[Connection]:
        raise NotImplementedError

    def _write(self) -> AbstractAsyncContextManager[Connection]:
        raise NotImplementedError

    async def _announce(self, db: Connection, key: int, kind: str = "") -> None:
        """Tell other processes, once the transaction commits, that table `key` changed
        (or, with `kind`, the user, guild or table of that kind of change: base.CHANGE_KINDS)."""

    def _busy_channel_constraint(self, error: BaseException) -> str | None:
        """The unique index a racing insert broke, if `error` is that."""
        return None

    async def _lock_migrations(self, db: Connection) -> None:
        """Keep other processes from migrating until this transaction ends."""

    # -- the schema ----------------------------------------------------------------------
    async def schema_version(self) -> int:
        async with self._read() as db:
            return await self._schema_version(db)

    @staticmethod
    async def _schema_version(db: Connection) -> int:
        return await db.fetchval("SELECT coalesce(max(version), 0) FROM schema_version")

    async def _migrate(self) -> None:
        """Apply the migrations this database has not had, each in its own transaction."""
        async with self._write() as db:
            await self._lock_migrations(db)
            await db.execute(
                "CREATE TABLE IF NOT EXISTS schema_version ( version INTEGER PRIMARY KEY,"
                f" name TEXT NOT NULL, applied_at {db.moment_type} NOT NULL)"
            )
            current = await self._schema_version(db)
        if current > len(self._migrations):
            raise StoreError(
                f"the database is at schema version {current}, newer than this build "
                f"(which knows {len(self._migrations)})"
            )
        for migration in self._migrations[current:]:
            async with self._write() as db:
                await self._lock_migrations(db)
                # Another process may have applied it since we looked.
                if await self._schema_version(db) >= migration.version:
                    continue
                await db.run_script(migration.sql)
                await db.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                    migration.version,
                    migration.name,
                    db.moment(utcnow()),
                )
            log.info("applied schema migration %04d_%s", migration.version, migration.name)

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
        async with self._channel_guard(channel_id), self._write() as db:
            await self._refuse_busy_channel(db, channel_id, None)
            table.id = await db.fetchval(
                "INSERT INTO tables (guild_id, channel_id, host_id, game, options, settings,"
                " seed, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                guild_id,
                channel_id,
                host_id,
                game,
                db.json(table.options),
                db.json(table.settings),
                str(seed),
                table.status.value,
                db.moment(table.created_at),
            )
            await self._save_seats(db, table.id, table.seats)
        return table

    @asynccontextmanager
    async def _channel_guard(self, channel_id: int) -> AsyncIterator[None]:
        """The partial unique index refuses a second open table in a channel that another
        transaction filled after our check: name that table as a busy channel."""
        try:
            yield
        except Exception as exc:
            if self._busy_channel_constraint(exc) != ONE_OPEN_PER_CHANNEL:
                raise
            async with self._read() as db:
                busy = await db.fetchval(
                    f"SELECT id FROM tables WHERE channel_id = ? AND status IN {_OPEN}",
                    channel_id,
                )
            raise ChannelBusy(busy or 0) from None

    async def get_table(self, table_id: int) -> Table | None:
        async with self._read() as db:
            tables = await self._tables(db, "t.id = ?", table_id)
        return tables[0] if tables else None

    async def open_table_in(self, channel_id: int) -> Table | None:
        async with self._read() as db:
            tables = await self._tables(db, f"t.channel_id = ? AND t.status IN {_OPEN}", channel_id)
        return tables[0] if tables else None

    async def open_tables(self) -> list[Table]:
        async with self._read() as db:
            return await self._tables(db, f"t.status IN {_OPEN}")

    async def tables_for_user(
        self, user_id: int, statuses: tuple[TableStatus, ...] = OPEN_STATUSES
    ) -> list[Table]:
        if not statuses:
            return []
        async with self._read() as db:
            return await self._tables(
                db,
                f"t.status IN ({db.marks(statuses)})"
                " AND t.id IN (SELECT table_id FROM seats WHERE user_id = ?)",
                *(TableStatus(s).value for s in statuses),
                user_id,
            )

    async def guild_tables(self, guild_id: int) -> list[Table]:
        async with self._read() as db:
            return await self._tables(db, f"t.guild_id = ? AND t.status IN {_OPEN}", guild_id)

    async def set_lobby_message(self, table_id: int, message_id: int) -> None:
        await self._set_message(table_id, "lobby_message_id", message_id)

    async def set_table_message(self, table_id: int, message_id: int) -> None:
        await self._set_message(table_id, "table_message_id", message_id)

    async def set_turn_dm_owed(self, table_id: int, seats: Sequence[int], owed: bool) -> None:
        if not seats:
            return
        async with self._write() as db:
            await db.execute(
                "UPDATE seats SET turn_dm_owed = ? WHERE table_id = ?"
                f" AND position IN ({db.marks(seats)})",
                owed,
                table_id,
                *seats,
            )

    async def set_private_sent(self, table_id: int, sent: Mapping[int, str]) -> None:
        if not sent:
            return
        async with self._write() as db:
            await db.executemany(
                "UPDATE seats SET private_dm_sent = ? WHERE table_id = ? AND position = ?",
                [(digest, table_id, seat) for seat, digest in sorted(sent.items())],
            )

    async def _set_message(self, table_id: int, column: str, message_id: int) -> None:
        async with self._write() as db:
            changed = await db.execute(
                f"UPDATE tables SET {column} = ? WHERE id = ?", message_id, table_id
            )
            if changed == 0:
                raise StoreError(f"no table {table_id}")

    async def pause_table(self, table_id: int, at: datetime) -> None:
        async with self._write() as db:
            await db.execute(
                "UPDATE tables SET paused_at = ? WHERE id = ? AND status = 'active'",
                db.moment(at),
                table_id,
            )

    async def move_table(self, table_id: int, channel_id: int) -> Table:
        async with self._channel_guard(channel_id), self._write() as db:
            await self._refuse_busy_channel(db, channel_id, table_id)
            await db.execute(
                "UPDATE tables SET channel_id = ?, paused_at = NULL, table_message_id = NULL"
                " WHERE id = ?",
                channel_id,
                table_id,
            )
            (table,) = await self._tables(db, "t.id = ?", table_id)
        return table

    # -- lobby commands ----------------------------------------------------------------
    @asynccontextmanager
    async def _lobby(self, table_id: int) -> AsyncIterator[tuple[Connection, Table]]:
        """A transaction holding the lock of a table that must still be a lobby."""
        async with self._write() as db:
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
                    "UPDATE tables SET host_id = ? WHERE id = ?", table.host_id, table_id
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
                "UPDATE tables SET options = ? WHERE id = ?", db.json(table.options), table_id
            )
        return table

    async def set_setting(self, table_id: int, name: str, value: str) -> Table:
        async with self._lobby(table_id) as (db, table):
            table.settings[name] = value
            await db.execute(
                "UPDATE tables SET settings = ? WHERE id = ?", db.json(table.settings), table_id
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
                db.moment(table.started_at),
                table_id,
            )
            await self._set_status(db, table, TableStatus.ACTIVE)
            await self._announce(db, table_id)
        return table

    # -- a game in play ----------------------------------------------------------------
    @asynccontextmanager
    async def _active(self, table_id: int) -> AsyncIterator[tuple[Connection, Table]]:
        """A transaction holding the lock of a table that must be an active game."""
        async with self._write() as db:
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
                "UPDATE seats SET resigned = ?, ai = ? WHERE table_id = ? AND position = ?",
                True,
                True,
                table_id,
                position,
            )
            if not play_out and all(s.ai for s in table.seats):
                await self._end(db, table, TableStatus.ABANDONED)
        return table

    async def set_seat_ai(self, table_id: int, position: int, ai: bool) -> Table:
        async with self._active(table_id) as (db, table):
            seat = table.seats[position]
            if seat.user_id is not None and not seat.resigned:
                seat.ai = ai
                await db.execute(
                    "UPDATE seats SET ai = ? WHERE table_id = ? AND position = ?",
                    ai,
                    table_id,
                    position,
                )
        return table

    async def abandon_table(self, table_id: int) -> Table:
        async with self._active(table_id) as (db, table):
            await self._end(db, table, TableStatus.ABANDONED)
        return table

    async def finish_table(self, table_id: int, result: FinalResult) -> Table:
        async with self._active(table_id) as (db, table):
            await self._finish(db, table, result)
        return table

    async def _finish(self, db: Connection, table: Table, result: FinalResult) -> None:
        """The result, one results row per seat, and the finished status."""
        if not len(result.scores) == len(result.ranks) == len(table.seats):
            raise StoreError(f"table {table.id} has {len(table.seats)} seats, not a result's")
        table.result = result.as_json()
        await db.execute(
            "UPDATE tables SET result = ? WHERE id = ?", db.json(table.result), table.id
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
                    seat.played_out,
                    db.moment(table.ended_at),
                    db.json(dict(breakdown)),
                )
                for position, (seat, score, rank, breakdown) in enumerate(
                    zip(table.seats, result.scores, result.ranks, breakdowns, strict=True)
                )
            ],
        )

    async def _end(self, db: Connection, table: Table, status: TableStatus) -> None:
        table.ended_at = utcnow()
        await db.execute(
            "UPDATE tables SET ended_at = ? WHERE id = ?", db.moment(table.ended_at), table.id
        )
        await self._set_status(db, table, status)

    async def results(
        self, *, game: str | None = None, guild_id: int | None = None
    ) -> list[ResultRow]:
        return await self.results_since(game=game, guild_id=guild_id)

    # -- shared by the commands ----------------------------------------------------------
    async def _locked(self, db: Connection, table_id: int) -> Table:
        """The table as it is once its lock is ours. The lock comes first, in a statement
        of its own: the statements after it see what the last holder committed."""
        found = await db.fetchval("SELECT id FROM tables WHERE id = ? FOR UPDATE", table_id)
        if found is None:
            raise StoreError(f"no table {table_id}")
        (table,) = await self._tables(db, "t.id = ?", table_id)
        return table

    async def _set_status(self, db: Connection, table: Table, status: TableStatus) -> None:
        if status in OPEN_STATUSES:
            await self._refuse_busy_channel(db, table.channel_id, table.id)
        table.status = status
        await db.execute("UPDATE tables SET status = ? WHERE id = ?", status.value, table.id)

    async def _replace_seats(self, db: Connection, table: Table) -> None:
        """Positions stay 0, 1, 2 … after a seat is taken out of the middle."""
        await db.execute("DELETE FROM seats WHERE table_id = ?", table.id)
        await self._save_seats(db, table.id, table.seats)

    @staticmethod
    async def _refuse_busy_channel(db: Connection, channel_id: int, table_id: int | None) -> None:
        # The partial unique index is the guarantee; asking first names the busy table.
        busy = await db.fetchval(
            f"SELECT id FROM tables WHERE channel_id = ? AND status IN {_OPEN}", channel_id
        )
        if busy is not None and busy != table_id:
            raise ChannelBusy(busy)

    @staticmethod
    async def _save_seats(db: Connection, table_id: int, seats: list[Seat], first: int = 0) -> None:
        await db.executemany(
            "INSERT INTO seats (table_id, position, user_id, name, ai, resigned, ai_level)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (table_id, position, seat.user_id, seat.name, seat.ai, seat.resigned, seat.ai_level)
                for position, seat in enumerate(seats, start=first)
            ],
        )

    @staticmethod
    async def _tables(db: Connection, where: str, *params: Any) -> list[Table]:
        """The tables matching `where` (on columns of t), with their seats, in one statement."""
        tables: dict[int, Table] = {}
        rows = await db.fetch(
            f"SELECT {_TABLE_COLUMNS} FROM tables AS t LEFT JOIN seats AS s ON s.table_id = t.id"
            f" WHERE {where} ORDER BY t.id, s.position",
            *params,
        )
        for row in rows:
            table = tables.get(row["id"])
            if table is None:
                table = tables[row["id"]] = _table(db, row)
            if row["position"] is not None:
                table.seats.append(
                    Seat(
                        row["user_id"],
                        row["name"],
                        bool(row["ai"]),
                        bool(row["resigned"]),
                        row["ai_level"],
                        bool(row["turn_dm_owed"]),
                        row["private_dm_sent"],
                    )
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
            # The lock serialises the moves of one table across every process.
            status = await db.fetchval(
                "SELECT status FROM tables WHERE id = ? FOR UPDATE", table_id
            )
            if status is None:
                raise StoreError(f"no table {table_id}")
            current = await db.fetchval(
                "SELECT coalesce(max(seq), 0) FROM actions WHERE table_id = ?", table_id
            )
            if seq != current + 1:
                raise StaleAction(seq, current)
            if TableStatus(status) is not TableStatus.ACTIVE:
                raise TableNotActive(table_id, TableStatus(status))
            at = db.moment(utcnow())
            await db.executemany(
                "INSERT INTO actions (table_id, seq, seat, choices, user_id, at, chained)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (table_id, seq + i, seat, db.json(list(choices)), user_id, at, i > 0)
                    for i, choices in enumerate(moves)
                ],
            )
            if snapshot is not None:
                await db.execute(
                    "INSERT INTO snapshots (table_id, seq, state) VALUES (?, ?, ?)"
                    " ON CONFLICT (table_id) DO UPDATE SET seq = excluded.seq,"
                    " state = excluded.state",
                    table_id,
                    *snapshot,
                )
            await db.execute(
                "UPDATE tables SET awaiting = ? WHERE id = ?", db.ints(awaiting), table_id
            )
            if result is not None:
                (table,) = await self._tables(db, "t.id = ?", table_id)
                await self._finish(db, table, result)
            await self._announce(db, table_id)

    async def note_awaiting(self, table_id: int, seq: int, awaiting: Sequence[int]) -> bool:
        async with self._write() as db:
            changed = await db.execute(
                "UPDATE tables SET awaiting = ? WHERE id = ? AND status = 'active'"
                " AND (SELECT coalesce(max(seq), 0) FROM actions WHERE table_id = ?) = ?",
                db.ints(awaiting),
                table_id,
                table_id,
                seq,
            )
        return changed > 0

    async def note_hint(self, table_id: int, seq: int, seat: int) -> Table:
        async with self._write() as db:
            table = await self._locked(db, table_id)
            if table.status is not TableStatus.ACTIVE:
                raise TableNotActive(table_id, table.status)
            taken = table.settings.get(HINTS_TAKEN, "").split()
            if f"{seq}:{seat}" not in taken:
                table.settings[HINTS_TAKEN] = " ".join([*taken, f"{seq}:{seat}"])
                await db.execute(
                    "UPDATE tables SET settings = ? WHERE id = ?", db.json(table.settings), table_id
                )
        return table

    async def actions(self, table_id: int, after: int = 0) -> list[LoggedAction]:
        async with self._read() as db:
            rows = await db.fetch(
                f"SELECT {_ACTION_COLUMNS} FROM actions WHERE table_id = ? AND seq > ?"
                " ORDER BY seq",
                table_id,
                after,
            )
        return [_logged(db, row) for row in rows]

    async def last_seq(self, table_id: int) -> int:
        async with self._read() as db:
            return await db.fetchval(
                "SELECT coalesce(max(seq), 0) FROM actions WHERE table_id = ?", table_id
            )

    async def latest_snapshot(self, table_id: int) -> Snapshot | None:
        async with self._read() as db:
            row = await db.fetchrow("SELECT seq, state FROM snapshots WHERE table_id = ?", table_id)
        return None if row is None else Snapshot(row["seq"], row["state"])

    async def game_logs(self, table_ids: Sequence[int]) -> dict[int, GameLog]:
        wanted = list(dict.fromkeys(table_ids))
        snapshots: dict[int, Snapshot] = {}
        actions: dict[int, list[LoggedAction]] = {}
        async with self._read() as db:
            for start in range(0, len(wanted), IDS_A_STATEMENT):
                ids = wanted[start : start + IDS_A_STATEMENT]
                marks = db.marks(ids)
                for row in await db.fetch(f"SELECT id FROM tables WHERE id IN ({marks})", *ids):
                    actions[row["id"]] = []
                rows = await db.fetch(
                    f"SELECT table_id, seq, state FROM snapshots WHERE table_id IN ({marks})", *ids
                )
                snapshots.update(
                    (row["table_id"], Snapshot(row["seq"], row["state"])) for row in rows
                )
                rows = await db.fetch(
                    "SELECT a.table_id, a.seq, a.seat, a.choices, a.user_id, a.at, a.chained"
                    " FROM actions AS a LEFT JOIN snapshots AS s ON s.table_id = a.table_id"
                    f" WHERE a.table_id IN ({marks}) AND a.seq > coalesce(s.seq, 0)"
                    " ORDER BY a.table_id, a.seq",
                    *ids,
                )
                for row in rows:
                    actions[row["table_id"]].append(_logged(db, row))
        return {
            table_id: GameLog(snapshots.get(table_id), tuple(logged))
            for table_id, logged in actions.items()
        }

    # -- users -----------------------------------------------------------------------------
    async def get_prefs(self, user_id: int) -> UserPrefs:
        async with self._read() as db:
            row = await db.fetchrow(
                "SELECT turn_dms, dms_closed, locale, quiet_start, quiet_end, utc_offset"
                " FROM user_prefs WHERE user_id = ?",
                user_id,
            )
        if row is None:
            return UserPrefs(user_id)
        return UserPrefs(
            user_id,
            turn_dms=bool(row["turn_dms"]),
            dms_closed=bool(row["dms_closed"]),
            locale=row["locale"],
            quiet_start=row["quiet_start"],
            quiet_end=row["quiet_end"],
            utc_offset=row["utc_offset"],
        )

    async def set_prefs(self, prefs: UserPrefs) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO user_prefs (user_id, turn_dms, dms_closed) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET turn_dms = excluded.turn_dms,"
                " dms_closed = excluded.dms_closed",
                prefs.user_id,
                prefs.turn_dms,
                prefs.dms_closed,
            )

    async def set_locale(self, user_id: int, locale: str) -> None:
        async with self._write() as db:
            changed = await db.execute(
                "INSERT INTO user_prefs (user_id, locale) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale"
                " WHERE user_prefs.locale IS DISTINCT FROM excluded.locale",
                user_id,
                locale,
            )
            if changed:
                await self._announce(db, user_id, "locale")

    async def set_quiet_hours(
        self, user_id: int, start: int | None, end: int | None, utc_offset: int
    ) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO user_prefs (user_id, quiet_start, quiet_end, utc_offset)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
                " quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end,"
                " utc_offset = excluded.utc_offset",
                user_id,
                start,
                end,
                utc_offset,
            )

    async def set_language(self, user_id: int, language: str | None) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO user_prefs (user_id, language) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET language = excluded.language",
                user_id,
                language,
            )
            await self._announce(db, user_id, "user")

    async def set_server_language(self, guild_id: int, language: str | None) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO guild_prefs (guild_id, language) VALUES (?, ?)"
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
            users={row["user_id"]: row["language"] for row in users},
            guilds={row["guild_id"]: row["language"] for row in guilds},
        )

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
                " AND seat_clocks.since IS NOT DISTINCT FROM excluded.since),"
                " timed_out = excluded.timed_out, stalled = excluded.stalled",
                clock.table_id,
                clock.seat,
                clock.user_id,
                max(0.0, clock.reserve),
                clock.timeouts,
                db.moment(clock.since),
                db.moment(clock.deadline),
                db.moment(clock.next_remind),
                clock.reminders,
                clock.snoozed,
                clock.timed_out,
                clock.stalled,
            )

    async def clocks(self, table_id: int | None = None) -> list[SeatClock]:
        where, params = "t.status = 'active'", tuple[int, ...]()
        if table_id is not None:
            where, params = "c.table_id = ?", (table_id,)
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT c.* FROM seat_clocks AS c JOIN tables AS t ON t.id = c.table_id"
                f" WHERE {where} ORDER BY c.table_id, c.seat",
                *params,
            )
        return [_clock(db, row) for row in rows]

    async def snooze_clock(self, table_id: int, seat: int, user_id: int, since: int) -> bool:
        async with self._write() as db:
            row = await db.fetchrow(
                "SELECT user_id, since FROM seat_clocks WHERE table_id = ? AND seat = ? FOR UPDATE",
                table_id,
                seat,
            )
            began = None if row is None else db.read_moment(row["since"])
            if row is None or row["user_id"] != user_id or began is None:
                return False
            if int(began.timestamp()) != since:
                return False
            await db.execute(
                "UPDATE seat_clocks SET snoozed = ? WHERE table_id = ? AND seat = ?",
                True,
                table_id,
                seat,
            )
            await self._announce(db, table_id, "clock")
            return True

    async def drop_clocks(self, table_id: int) -> None:
        async with self._write() as db:
            await db.execute("DELETE FROM seat_clocks WHERE table_id = ?", table_id)

    async def away(self, user_id: int) -> Away | None:
        async with self._read() as db:
            row = await db.fetchrow(
                "SELECT user_id, since, until FROM away WHERE user_id = ?", user_id
            )
        return None if row is None else _away(db, row)

    async def aways(self) -> list[Away]:
        async with self._read() as db:
            rows = await db.fetch("SELECT user_id, since, until FROM away ORDER BY user_id")
        return [_away(db, row) for row in rows]

    async def away_days_used(self, user_id: int, year: int) -> int:
        async with self._read() as db:
            days = await db.fetchval(
                "SELECT days FROM away_days WHERE user_id = ? AND year = ?", user_id, year
            )
        return days or 0

    async def start_away(self, away: Away, *, year: int, days: int, allowance: int) -> None:
        async with self._write() as db:
            # The year's row, locked: two requests at once are charged one after the other.
            await db.execute(
                "INSERT INTO away_days (user_id, year, days) VALUES (?, ?, 0)"
                " ON CONFLICT (user_id, year) DO NOTHING",
                away.user_id,
                year,
            )
            used = await db.fetchval(
                "SELECT days FROM away_days WHERE user_id = ? AND year = ? FOR UPDATE",
                away.user_id,
                year,
            )
            if used + days > allowance:
                raise AwayAllowance(used, allowance)
            await db.execute(
                "UPDATE away_days SET days = days + ? WHERE user_id = ? AND year = ?",
                days,
                away.user_id,
                year,
            )
            await db.execute(
                "INSERT INTO away (user_id, since, until) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET since = excluded.since,"
                " until = excluded.until",
                away.user_id,
                db.moment(away.since),
                db.moment(away.until),
            )
            await self._announce(db, away.user_id, "away")

    async def end_away(self, user_id: int, *, year: int, refund: int) -> None:
        async with self._write() as db:
            if await db.execute("DELETE FROM away WHERE user_id = ?", user_id):
                await self._announce(db, user_id, "away")
            if refund > 0:
                await db.execute(
                    f"UPDATE away_days SET days = {db.greatest}(0, days - ?)"
                    " WHERE user_id = ? AND year = ?",
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
                f"SELECT {_REQUEST_COLUMNS} FROM abandon_requests"
                " WHERE table_id = ? AND status = 'open'",
                table_id,
            )
            if pending is not None:
                raise AbandonPending(_request(db, pending))
            row = await db.fetchrow(
                "INSERT INTO abandon_requests (table_id, requested_by, created_at, expires_at,"
                f" agreed) VALUES (?, ?, ?, ?, ?) RETURNING {_REQUEST_COLUMNS}",
                table_id,
                requested_by,
                db.moment(utcnow()),
                db.moment(expires_at),
                db.ints(agreed),
            )
            return _request(db, row)

    async def set_abandon_message(self, request_id: int, message_id: int) -> None:
        async with self._write() as db:
            await db.execute(
                "UPDATE abandon_requests SET message_id = ? WHERE id = ?", message_id, request_id
            )

    async def abandon_requests(self, table_id: int | None = None) -> list[AbandonRequest]:
        where, params = "status = 'open'", tuple[int, ...]()
        if table_id is not None:
            where, params = f"{where} AND table_id = ?", (table_id,)
        async with self._read() as db:
            rows = await db.fetch(
                f"SELECT {_REQUEST_COLUMNS} FROM abandon_requests WHERE {where} ORDER BY id",
                *params,
            )
        return [_request(db, row) for row in rows]

    async def agree_to_abandon(self, request_id: int, user_id: int) -> AbandonRequest:
        async with self._write() as db:
            row = await db.fetchrow(
                f"SELECT {_REQUEST_COLUMNS} FROM abandon_requests WHERE id = ? FOR UPDATE",
                request_id,
            )
            request = None if row is None else _request(db, row)
            if request is None or request.status != "open":
                raise RequestClosed(request_id, request.status if request else "unknown")
            if user_id in request.agreed:
                raise AlreadyAgreed(f"user {user_id} agreed to request {request_id} already")
            request = replace(request, agreed=(*request.agreed, user_id))
            await db.execute(
                "UPDATE abandon_requests SET agreed = ? WHERE id = ?",
                db.ints(request.agreed),
                request_id,
            )
        return request

    async def close_abandon_request(self, request_id: int, status: str) -> AbandonRequest | None:
        async with self._write() as db:
            row = await db.fetchrow(
                "UPDATE abandon_requests SET status = ? WHERE id = ? AND status = 'open'"
                f" RETURNING {_REQUEST_COLUMNS}",
                status,
                request_id,
            )
            return None if row is None else _request(db, row)


def _table(db: Connection, row: Row) -> Table:
    """A row of `tables` (its seats come after)."""
    awaiting = db.read_ints(row["awaiting"])
    return Table(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        host_id=row["host_id"],
        game=row["game"],
        options=db.read_json(row["options"]),
        settings=db.read_json(row["settings"]),
        seed=int(row["seed"]),
        status=TableStatus(row["status"]),
        lobby_message_id=row["lobby_message_id"],
        table_message_id=row["table_message_id"],
        result=db.read_json(row["result"]),
        created_at=db.read_moment(row["created_at"]),
        started_at=db.read_moment(row["started_at"]),
        ended_at=db.read_moment(row["ended_at"]),
        awaiting=awaiting,
        paused_at=db.read_moment(row["paused_at"]),
    )


def _logged(db: Connection, row: Row) -> LoggedAction:
    """A row of the action log."""
    choices = tuple(db.read_json(row["choices"]))
    at = db.read_set_moment(row["at"])
    return LoggedAction(row["seq"], row["seat"], choices, row["user_id"], at, bool(row["chained"]))


def _clock(db: Connection, row: Row) -> SeatClock:
    """A row of seat_clocks."""
    return SeatClock(
        table_id=row["table_id"],
        seat=row["seat"],
        user_id=row["user_id"],
        reserve=row["reserve"],
        timeouts=row["timeouts"],
        since=db.read_moment(row["since"]),
        deadline=db.read_moment(row["deadline"]),
        next_remind=db.read_moment(row["next_remind"]),
        reminders=row["reminders"],
        snoozed=bool(row["snoozed"]),
        timed_out=bool(row["timed_out"]),
        stalled=bool(row["stalled"]),
    )


def _away(db: Connection, row: Row) -> Away:
    """A row of away."""
    return Away(row["user_id"], db.read_set_moment(row["since"]), db.read_set_moment(row["until"]))


def _request(db: Connection, row: Row) -> AbandonRequest:
    """A row of abandon_requests."""
    return AbandonRequest(
        row["id"],
        row["table_id"],
        row["requested_by"],
        db.read_set_moment(row["created_at"]),
        db.read_set_moment(row["expires_at"]),
        row["status"],
        db.read_ints(row["agreed"]) or (),
        row["message_id"],
    )
