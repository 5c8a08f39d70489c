"""The SQLite store's commands for ratings and tournaments (issue 12), kept apart from the
core table commands; `SQLiteStore` mixes them in and provides the connection."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import aiosqlite

from meeple_hall.bot.store.base import (
    AlreadySeated,
    NotSeated,
    ResultRow,
    RoundExists,
    SeatChanged,
    StoreError,
    Table,
    TableNotActive,
    TableStatus,
    Tournament,
    TournamentClosed,
    TournamentPlayer,
    TournamentRound,
    TournamentStatus,
    TournamentTable,
)

if TYPE_CHECKING:
    from contextlib import AbstractAsyncContextManager


def _text(moment: datetime | None) -> str | None:
    from meeple_hall.bot.store.sqlite import _to_text

    return _to_text(moment)


def _moment(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def schedule_of(stored: Any) -> tuple[tuple[tuple[int, ...], ...], ...] | None:
    """A stored schedule (rounds of tables of user ids) as tuples; None if there is none."""
    if stored is None:
        return None
    return tuple(tuple(tuple(table) for table in tables) for tables in stored)


def swap_in_schedule(stored: Any, old_user_id: int, new_user_id: int) -> list | None:
    """A stored schedule with one user in another's place."""
    if stored is None:
        return None
    return [[[new_user_id if u == old_user_id else u for u in t] for t in r] for r in stored]


_TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, organiser_id, name, game, format, rounds, table_size, clock,"
    " options, settings, bye_points, advance, status, round, message_id, created_at, schedule"
)
_OPEN_TOURNAMENT = (TournamentStatus.SIGNUP, TournamentStatus.RUNNING)


class CommunityCommands:
    """Mixed into SQLiteStore: needs its `_read`, `_write` and `_table_in`."""

    if TYPE_CHECKING:

        def _read(self) -> AbstractAsyncContextManager[aiosqlite.Connection]: ...
        def _write(self) -> AbstractAsyncContextManager[aiosqlite.Connection]: ...
        async def _table_in(self, db: aiosqlite.Connection, table_id: int) -> Table: ...

    # -- results, for ratings ------------------------------------------------------------
    async def results_since(
        self, *, game: str | None, guild_id: int | None = None, since: datetime | None = None
    ) -> list[ResultRow]:
        where, params = ["1"], []
        if game is not None:
            where.append("t.game = ?")
            params.append(game)
        if guild_id is not None:
            where.append("t.guild_id = ?")
            params.append(guild_id)
        if since is not None:
            where.append("r.finished_at >= ?")
            params.append(_text(since))
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT r.table_id, t.game, t.guild_id, r.seat, r.user_id, r.score, r.rank,"
                " r.resigned, r.finished_at, r.breakdown"
                " FROM results AS r JOIN tables AS t ON t.id = r.table_id"
                f" WHERE {' AND '.join(where)} ORDER BY r.finished_at, r.table_id, r.seat",
                tuple(params),
            )
        return [
            ResultRow(
                table_id=row[0],
                game=row[1],
                guild_id=row[2],
                seat=row[3],
                user_id=row[4],
                score=row[5],
                rank=row[6],
                resigned=bool(row[7]),
                finished_at=_moment(row[8]),  # type: ignore[arg-type]
                breakdown=json.loads(row[9]),
            )
            for row in rows
        ]

    async def count_results(self, *, game: str, guild_id: int | None = None) -> int:
        where, params = "t.game = ?", [game]
        if guild_id is not None:
            where += " AND t.guild_id = ?"
            params.append(guild_id)
        async with (
            self._read() as db,
            db.execute(
                "SELECT count(DISTINCT r.table_id) FROM results AS r"
                f" JOIN tables AS t ON t.id = r.table_id WHERE {where}",
                tuple(params),
            ) as cursor,
        ):
            (count,) = await cursor.fetchone()  # type: ignore[misc]
        return int(count)

    async def tables_with_setting(self, *, game: str, name: str, value: str) -> set[int]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT id FROM tables WHERE game = ? AND status = 'finished'"
                " AND json_extract(settings, '$.' || ?) = ?",
                (game, f'"{name}"', value),
            )
        return {row[0] for row in rows}

    async def seat_names(self, user_ids: list[int]) -> dict[int, str]:
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT s.user_id, s.name FROM seats AS s"
                f" WHERE s.user_id IN ({marks}) AND s.table_id ="
                " (SELECT max(o.table_id) FROM seats AS o WHERE o.user_id = s.user_id)",
                tuple(user_ids),
            )
        return {user_id: name for user_id, name in rows}

    # -- tournaments ---------------------------------------------------------------------
    async def create_tournament(self, tournament: Tournament) -> Tournament:
        async with self._write() as db:
            cursor = await db.execute(
                "INSERT INTO tournaments (guild_id, channel_id, organiser_id, name, game,"
                " format, rounds, table_size, clock, options, settings, bye_points, advance,"
                " status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    tournament.guild_id,
                    tournament.channel_id,
                    tournament.organiser_id,
                    tournament.name,
                    tournament.game,
                    tournament.format,
                    tournament.rounds,
                    tournament.table_size,
                    tournament.clock,
                    _json(tournament.options),
                    _json(tournament.settings),
                    tournament.bye_points,
                    tournament.advance,
                    TournamentStatus.SIGNUP.value,
                    _text(tournament.created_at),
                ),
            )
            tournament_id = cursor.lastrowid
            for position, player in enumerate(tournament.players):
                await db.execute(
                    "INSERT INTO tournament_players (tournament_id, user_id, name, position)"
                    " VALUES (?, ?, ?, ?)",
                    (tournament_id, player.user_id, player.name, position),
                )
            return await self._tournament_in(db, tournament_id)  # type: ignore[arg-type]

    async def get_tournament(self, tournament_id: int) -> Tournament | None:
        async with self._read() as db:
            found = await self._tournaments_where(db, "id = ?", (tournament_id,))
        return found[0] if found else None

    async def tournaments(
        self, *, guild_id: int | None = None, statuses: tuple[TournamentStatus, ...] = ()
    ) -> list[Tournament]:
        where, params = ["1 = 1"], []
        if guild_id is not None:
            where.append("guild_id = ?")
            params.append(guild_id)
        if statuses:
            where.append(f"status IN ({', '.join('?' for _ in statuses)})")
            params += [TournamentStatus(s).value for s in statuses]
        async with self._read() as db:
            return await self._tournaments_where(db, " AND ".join(where), tuple(params))

    async def set_tournament_message(self, tournament_id: int, message_id: int) -> None:
        async with self._write() as db:
            await db.execute(
                "UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id)
            )

    async def join_tournament(self, tournament_id: int, user_id: int, name: str) -> Tournament:
        async with self._write() as db:
            tournament = await self._open_tournament(db, tournament_id, (TournamentStatus.SIGNUP,))
            if tournament.player(user_id) is not None:
                raise AlreadySeated(f"user {user_id} is in tournament {tournament_id}")
            await db.execute(
                "INSERT INTO tournament_players (tournament_id, user_id, name, position)"
                " VALUES (?, ?, ?, (SELECT coalesce(max(position), -1) + 1"
                " FROM tournament_players WHERE tournament_id = ?))",
                (tournament_id, user_id, name, tournament_id),
            )
            return await self._tournament_in(db, tournament_id)

    async def leave_tournament(self, tournament_id: int, user_id: int) -> Tournament:
        async with self._write() as db:
            tournament = await self._open_tournament(db, tournament_id, (TournamentStatus.SIGNUP,))
            if tournament.player(user_id) is None:
                raise NotSeated(f"user {user_id} is not in tournament {tournament_id}")
            await db.execute(
                "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
                (tournament_id, user_id),
            )
            return await self._tournament_in(db, tournament_id)

    async def set_player_status(
        self, tournament_id: int, user_id: int, status: str, *, round: int
    ) -> Tournament:
        async with self._write() as db:
            await self._open_tournament(db, tournament_id, (TournamentStatus.RUNNING,))
            cursor = await db.execute(
                "UPDATE tournament_players SET status = ?, left_round = ?"
                " WHERE tournament_id = ? AND user_id = ? AND status = 'playing'",
                (status, round, tournament_id, user_id),
            )
            if cursor.rowcount == 0:
                raise NotSeated(f"user {user_id} is not playing in tournament {tournament_id}")
            return await self._tournament_in(db, tournament_id)

    async def replace_player(
        self, tournament_id: int, old_user_id: int, new_user_id: int, name: str
    ) -> Tournament:
        async with self._write() as db:
            tournament = await self._open_tournament(db, tournament_id, _OPEN_TOURNAMENT)
            old = tournament.player(old_user_id)
            if old is None or old.status != "playing":
                raise NotSeated(f"user {old_user_id} is not playing in tournament {tournament_id}")
            if tournament.player(new_user_id) is not None:
                raise AlreadySeated(f"user {new_user_id} is in tournament {tournament_id}")
            await db.execute(
                "UPDATE tournament_players SET user_id = ?, name = ?"
                " WHERE tournament_id = ? AND user_id = ?",
                (new_user_id, name, tournament_id, old_user_id),
            )
            rows = await db.execute_fetchall(
                "SELECT round, number, seats FROM tournament_tables"
                " WHERE tournament_id = ? AND state IN ('planned', 'thread', 'table', 'started',"
                " 'announced')",
                (tournament_id,),
            )
            for round_no, number, seats in rows:
                ids = [new_user_id if u == old_user_id else u for u in json.loads(seats)]
                await db.execute(
                    "UPDATE tournament_tables SET seats = ?"
                    " WHERE tournament_id = ? AND round = ? AND number = ?",
                    (_json(ids), tournament_id, round_no, number),
                )
            if tournament.schedule is not None:
                swapped = swap_in_schedule(tournament.schedule, old_user_id, new_user_id)
                await db.execute(
                    "UPDATE tournaments SET schedule = ? WHERE id = ?",
                    (_json(swapped), tournament_id),
                )
            return await self._tournament_in(db, tournament_id)

    async def end_tournament(self, tournament_id: int, status: TournamentStatus) -> Tournament:
        async with self._write() as db:
            await self._open_tournament(db, tournament_id, _OPEN_TOURNAMENT)
            await db.execute(
                "UPDATE tournaments SET status = ? WHERE id = ?",
                (TournamentStatus(status).value, tournament_id),
            )
            return await self._tournament_in(db, tournament_id)

    async def set_tournament_schedule(
        self, tournament_id: int, schedule: Sequence[Sequence[Sequence[int]]]
    ) -> Tournament:
        rounds = [[list(table) for table in tables] for tables in schedule]
        async with self._write() as db:
            await db.execute(
                "UPDATE tournaments SET schedule = ? WHERE id = ? AND schedule IS NULL",
                (_json(rounds), tournament_id),
            )
            return await self._tournament_in(db, tournament_id)

    async def add_round(
        self,
        tournament_id: int,
        round: int,
        tables: list[tuple[int, ...]],
        byes: tuple[int, ...],
        *,
        first_number: int = 1,
    ) -> None:
        async with self._write() as db:
            await self._open_tournament(db, tournament_id, _OPEN_TOURNAMENT)
            async with db.execute(
                "SELECT status FROM tournament_rounds WHERE tournament_id = ? AND round = ?",
                (tournament_id, round),
            ) as cursor:
                existing = await cursor.fetchone()
            if existing is not None and first_number == 1:
                raise RoundExists(f"tournament {tournament_id} has round {round} already")
            if existing is None:
                await db.execute(
                    "INSERT INTO tournament_rounds (tournament_id, round, byes) VALUES (?, ?, ?)",
                    (tournament_id, round, _json(list(byes))),
                )
            else:
                await db.execute(
                    "UPDATE tournament_rounds SET byes = ?, status = 'opening'"
                    " WHERE tournament_id = ? AND round = ?",
                    (_json(list(byes)), tournament_id, round),
                )
            await db.executemany(
                "INSERT INTO tournament_tables (tournament_id, round, number, seats)"
                " VALUES (?, ?, ?, ?)",
                [
                    (tournament_id, round, number, _json(list(seats)))
                    for number, seats in enumerate(tables, start=first_number)
                ],
            )
            await db.execute(
                "UPDATE tournaments SET round = ?, status = 'running' WHERE id = ?",
                (round, tournament_id),
            )

    async def void_round_tables(self, tournament_id: int, round: int) -> list[TournamentTable]:
        async with self._write() as db:
            tables = await self._tournament_tables(
                db, "tournament_id = ? AND round = ? AND state != 'void'", (tournament_id, round)
            )
            await db.execute(
                "UPDATE tournament_tables SET state = 'void' WHERE tournament_id = ? AND round = ?",
                (tournament_id, round),
            )
        return tables

    async def tournament_rounds(self, tournament_id: int) -> list[TournamentRound]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT round, byes, status FROM tournament_rounds WHERE tournament_id = ?"
                " ORDER BY round",
                (tournament_id,),
            )
        return [TournamentRound(tournament_id, r, tuple(json.loads(b)), s) for r, b, s in rows]

    async def set_round_status(
        self, tournament_id: int, round: int, status: str, *, expected: str
    ) -> bool:
        async with self._write() as db:
            cursor = await db.execute(
                "UPDATE tournament_rounds SET status = ?"
                " WHERE tournament_id = ? AND round = ? AND status = ?",
                (status, tournament_id, round, expected),
            )
            return cursor.rowcount == 1

    async def tournament_tables(
        self, tournament_id: int, round: int | None = None
    ) -> list[TournamentTable]:
        async with self._read() as db:
            if round is None:
                return await self._tournament_tables(db, "tournament_id = ?", (tournament_id,))
            return await self._tournament_tables(
                db, "tournament_id = ? AND round = ?", (tournament_id, round)
            )

    async def tournament_table_of(self, table_id: int) -> TournamentTable | None:
        async with self._read() as db:
            found = await self._tournament_tables(db, "table_id = ?", (table_id,))
        return found[0] if found else None

    async def update_tournament_table(
        self,
        tournament_id: int,
        round: int,
        number: int,
        *,
        state: str,
        thread_id: int | None = None,
        table_id: int | None = None,
    ) -> None:
        async with self._write() as db:
            cursor = await db.execute(
                "UPDATE tournament_tables SET state = ?,"
                " thread_id = coalesce(?, thread_id), table_id = coalesce(?, table_id)"
                " WHERE tournament_id = ? AND round = ? AND number = ? AND state != 'void'",
                (state, thread_id, table_id, tournament_id, round, number),
            )
            if cursor.rowcount == 0:
                raise StoreError(f"no table {round}.{number} in tournament {tournament_id}")

    async def replace_seat_user(
        self, table_id: int, position: int, old_user_id: int, new_user_id: int, name: str
    ) -> Table:
        async with self._write() as db:
            table = await self._table_in(db, table_id)
            if table.status is not TableStatus.ACTIVE:
                raise TableNotActive(table_id, table.status)
            async with db.execute(
                "SELECT count(*) FROM actions"
                " WHERE table_id = ? AND seat = ? AND user_id IS NOT NULL",
                (table_id, position),
            ) as cursor:
                (moves,) = await cursor.fetchone()  # type: ignore[misc]
            seat = table.seats[position] if 0 <= position < len(table.seats) else None
            if moves or seat is None or seat.user_id != old_user_id:
                raise SeatChanged(f"seat {position + 1} of table {table_id} cannot change")
            await db.execute(
                "UPDATE seats SET user_id = ?, name = ? WHERE table_id = ? AND position = ?",
                (new_user_id, name, table_id, position),
            )
            seat.user_id, seat.name = new_user_id, name
            if table.host_id == old_user_id:
                table.host_id = new_user_id
                await db.execute(
                    "UPDATE tables SET host_id = ? WHERE id = ?", (new_user_id, table_id)
                )
            return table

    # -- shared ----------------------------------------------------------------------------
    async def _open_tournament(
        self,
        db: aiosqlite.Connection,
        tournament_id: int,
        allowed: tuple[TournamentStatus, ...],
    ) -> Tournament:
        tournament = await self._tournament_in(db, tournament_id)
        if tournament.status not in allowed:
            raise TournamentClosed(tournament_id, tournament.status)
        return tournament

    async def _tournament_in(self, db: aiosqlite.Connection, tournament_id: int) -> Tournament:
        found = await self._tournaments_where(db, "id = ?", (tournament_id,))
        if not found:
            raise StoreError(f"no tournament {tournament_id}")
        return found[0]

    @staticmethod
    async def _tournaments_where(
        db: aiosqlite.Connection, where: str, params: tuple[Any, ...]
    ) -> list[Tournament]:
        rows = await db.execute_fetchall(
            f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments WHERE {where} ORDER BY id", params
        )
        tournaments = {
            row[0]: Tournament(
                id=row[0],
                guild_id=row[1],
                channel_id=row[2],
                organiser_id=row[3],
                name=row[4],
                game=row[5],
                format=row[6],
                rounds=row[7],
                table_size=row[8],
                clock=row[9],
                options=json.loads(row[10]),
                settings=json.loads(row[11]),
                bye_points=row[12],
                advance=row[13],
                status=TournamentStatus(row[14]),
                round=row[15],
                message_id=row[16],
                created_at=_moment(row[17]),
                schedule=schedule_of(None if row[18] is None else json.loads(row[18])),
            )
            for row in rows
        }
        if tournaments:
            marks = ", ".join("?" for _ in tournaments)
            players = await db.execute_fetchall(
                "SELECT tournament_id, user_id, name, status, left_round FROM tournament_players"
                f" WHERE tournament_id IN ({marks}) ORDER BY tournament_id, position",
                tuple(tournaments),
            )
            for tid, user_id, name, status, left_round in players:
                tournaments[tid].players.append(TournamentPlayer(user_id, name, status, left_round))
        return list(tournaments.values())

    @staticmethod
    async def _tournament_tables(
        db: aiosqlite.Connection, where: str, params: tuple[Any, ...]
    ) -> list[TournamentTable]:
        rows = await db.execute_fetchall(
            "SELECT tournament_id, round, number, seats, thread_id, table_id, state"
            f" FROM tournament_tables WHERE {where} ORDER BY round, number",
            params,
        )
        return [
            TournamentTable(tid, r, n, tuple(json.loads(seats)), thread, table, state)
            for tid, r, n, seats, thread, table, state in rows
        ]
