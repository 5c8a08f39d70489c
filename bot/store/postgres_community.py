"""The PostgreSQL store's commands for ratings and tournaments (issue 12), the twins of
sqlite_community.py; `PostgresStore` mixes them in and provides the connections. A command
that checks a tournament before changing it holds the tournament's row lock."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import asyncpg

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
from meeple_hall.bot.store.sqlite_community import schedule_of, swap_in_schedule

if TYPE_CHECKING:
    from contextlib import AbstractAsyncContextManager

_TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, organiser_id, name, game, format, rounds, table_size, clock,"
    " options, settings, bye_points, advance, status, round, message_id, created_at, schedule"
)
_OPEN_TOURNAMENT = (TournamentStatus.SIGNUP, TournamentStatus.RUNNING)
_UNDECIDED_TABLE = ["planned", "thread", "table", "started", "announced"]


class CommunityCommands:
    """Mixed into PostgresStore: needs its `_read`, `_transaction` and `_locked`."""

    if TYPE_CHECKING:

        def _read(self) -> AbstractAsyncContextManager[asyncpg.Connection]: ...
        def _transaction(self) -> AbstractAsyncContextManager[asyncpg.Connection]: ...
        async def _locked(self, db: asyncpg.Connection, table_id: int) -> Table: ...

    # -- results, for ratings ------------------------------------------------------------
    async def results_since(
        self, *, game: str | None, guild_id: int | None = None, since: datetime | None = None
    ) -> list[ResultRow]:
        where, params = ["true"], []
        if game is not None:
            params.append(game)
            where.append(f"t.game = ${len(params)}")
        if guild_id is not None:
            params.append(guild_id)
            where.append(f"t.guild_id = ${len(params)}")
        if since is not None:
            params.append(since if since.tzinfo else since.replace(tzinfo=UTC))
            where.append(f"r.finished_at >= ${len(params)}")
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT r.table_id, t.game, t.guild_id, r.seat, r.user_id, r.score, r.rank,"
                " r.resigned, r.finished_at, r.breakdown"
                " FROM results AS r JOIN tables AS t ON t.id = r.table_id"
                f" WHERE {' AND '.join(where)} ORDER BY r.finished_at, r.table_id, r.seat",
                *params,
            )
        return [ResultRow(**dict(row)) for row in rows]

    async def count_results(self, *, game: str, guild_id: int | None = None) -> int:
        where, params = "t.game = $1", [game]
        if guild_id is not None:
            where += " AND t.guild_id = $2"
            params.append(guild_id)
        async with self._read() as db:
            return await db.fetchval(
                "SELECT count(DISTINCT r.table_id) FROM results AS r"
                f" JOIN tables AS t ON t.id = r.table_id WHERE {where}",
                *params,
            )

    async def tables_with_setting(self, *, game: str, name: str, value: str) -> set[int]:
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT id FROM tables WHERE game = $1 AND status = 'finished'"
                " AND settings ->> $2 = $3",
                game,
                name,
                value,
            )
        return {row["id"] for row in rows}

    async def seat_names(self, user_ids: list[int]) -> dict[int, str]:
        if not user_ids:
            return {}
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT s.user_id, s.name FROM seats AS s"
                " WHERE s.user_id = ANY($1::bigint[]) AND s.table_id ="
                " (SELECT max(o.table_id) FROM seats AS o WHERE o.user_id = s.user_id)",
                user_ids,
            )
        return {row["user_id"]: row["name"] for row in rows}

    # -- tournaments ---------------------------------------------------------------------
    async def create_tournament(self, tournament: Tournament) -> Tournament:
        async with self._transaction() as db:
            tournament_id = await db.fetchval(
                "INSERT INTO tournaments (guild_id, channel_id, organiser_id, name, game,"
                " format, rounds, table_size, clock, options, settings, bye_points, advance,"
                " status, created_at)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)"
                " RETURNING id",
                tournament.guild_id,
                tournament.channel_id,
                tournament.organiser_id,
                tournament.name,
                tournament.game,
                tournament.format,
                tournament.rounds,
                tournament.table_size,
                tournament.clock,
                tournament.options,
                tournament.settings,
                tournament.bye_points,
                tournament.advance,
                TournamentStatus.SIGNUP.value,
                tournament.created_at,
            )
            await db.executemany(
                "INSERT INTO tournament_players (tournament_id, user_id, name, position)"
                " VALUES ($1, $2, $3, $4)",
                [
                    (tournament_id, player.user_id, player.name, position)
                    for position, player in enumerate(tournament.players)
                ],
            )
            return await self._tournament_in(db, tournament_id)

    async def get_tournament(self, tournament_id: int) -> Tournament | None:
        async with self._read() as db:
            found = await self._tournaments_where(db, "id = $1", tournament_id)
        return found[0] if found else None

    async def tournaments(
        self, *, guild_id: int | None = None, statuses: tuple[TournamentStatus, ...] = ()
    ) -> list[Tournament]:
        where, params = ["true"], []
        if guild_id is not None:
            params.append(guild_id)
            where.append(f"guild_id = ${len(params)}")
        if statuses:
            params.append([TournamentStatus(s).value for s in statuses])
            where.append(f"status = ANY(${len(params)}::text[])")
        async with self._read() as db:
            return await self._tournaments_where(db, " AND ".join(where), *params)

    async def set_tournament_message(self, tournament_id: int, message_id: int) -> None:
        async with self._transaction() as db:
            await db.execute(
                "UPDATE tournaments SET message_id = $1 WHERE id = $2", message_id, tournament_id
            )

    async def join_tournament(self, tournament_id: int, user_id: int, name: str) -> Tournament:
        async with self._transaction() as db:
            tournament = await self._open_tournament(db, tournament_id, (TournamentStatus.SIGNUP,))
            if tournament.player(user_id) is not None:
                raise AlreadySeated(f"user {user_id} is in tournament {tournament_id}")
            await db.execute(
                "INSERT INTO tournament_players (tournament_id, user_id, name, position)"
                " VALUES ($1, $2, $3, (SELECT coalesce(max(position), -1) + 1"
                " FROM tournament_players WHERE tournament_id = $1))",
                tournament_id,
                user_id,
                name,
            )
            return await self._tournament_in(db, tournament_id)

    async def leave_tournament(self, tournament_id: int, user_id: int) -> Tournament:
        async with self._transaction() as db:
            tournament = await self._open_tournament(db, tournament_id, (TournamentStatus.SIGNUP,))
            if tournament.player(user_id) is None:
                raise NotSeated(f"user {user_id} is not in tournament {tournament_id}")
            await db.execute(
                "DELETE FROM tournament_players WHERE tournament_id = $1 AND user_id = $2",
                tournament_id,
                user_id,
            )
            return await self._tournament_in(db, tournament_id)

    async def set_player_status(
        self, tournament_id: int, user_id: int, status: str, *, round: int
    ) -> Tournament:
        async with self._transaction() as db:
            await self._open_tournament(db, tournament_id, (TournamentStatus.RUNNING,))
            changed = await db.execute(
                "UPDATE tournament_players SET status = $1, left_round = $2"
                " WHERE tournament_id = $3 AND user_id = $4 AND status = 'playing'",
                status,
                round,
                tournament_id,
                user_id,
            )
            if changed == "UPDATE 0":
                raise NotSeated(f"user {user_id} is not playing in tournament {tournament_id}")
            return await self._tournament_in(db, tournament_id)

    async def replace_player(
        self, tournament_id: int, old_user_id: int, new_user_id: int, name: str
    ) -> Tournament:
        async with self._transaction() as db:
            tournament = await self._open_tournament(db, tournament_id, _OPEN_TOURNAMENT)
            old = tournament.player(old_user_id)
            if old is None or old.status != "playing":
                raise NotSeated(f"user {old_user_id} is not playing in tournament {tournament_id}")
            if tournament.player(new_user_id) is not None:
                raise AlreadySeated(f"user {new_user_id} is in tournament {tournament_id}")
            await db.execute(
                "UPDATE tournament_players SET user_id = $1, name = $2"
                " WHERE tournament_id = $3 AND user_id = $4",
                new_user_id,
                name,
                tournament_id,
                old_user_id,
            )
            rows = await db.fetch(
                "SELECT round, number, seats FROM tournament_tables"
                " WHERE tournament_id = $1 AND state = ANY($2::text[])",
                tournament_id,
                _UNDECIDED_TABLE,
            )
            for row in rows:
                ids = [new_user_id if u == old_user_id else u for u in row["seats"]]
                await db.execute(
                    "UPDATE tournament_tables SET seats = $1"
                    " WHERE tournament_id = $2 AND round = $3 AND number = $4",
                    ids,
                    tournament_id,
                    row["round"],
                    row["number"],
                )
            if tournament.schedule is not None:
                await db.execute(
                    "UPDATE tournaments SET schedule = $1 WHERE id = $2",
                    swap_in_schedule(tournament.schedule, old_user_id, new_user_id),
                    tournament_id,
                )
            return await self._tournament_in(db, tournament_id)

    async def end_tournament(self, tournament_id: int, status: TournamentStatus) -> Tournament:
        async with self._transaction() as db:
            await self._open_tournament(db, tournament_id, _OPEN_TOURNAMENT)
            await db.execute(
                "UPDATE tournaments SET status = $1 WHERE id = $2",
                TournamentStatus(status).value,
                tournament_id,
            )
            return await self._tournament_in(db, tournament_id)

    async def set_tournament_schedule(
        self, tournament_id: int, schedule: Sequence[Sequence[Sequence[int]]]
    ) -> Tournament:
        rounds = [[list(table) for table in tables] for tables in schedule]
        async with self._transaction() as db:
            await db.execute(
                "UPDATE tournaments SET schedule = $1 WHERE id = $2 AND schedule IS NULL",
                rounds,
                tournament_id,
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
        async with self._transaction() as db:
            await self._open_tournament(db, tournament_id, _OPEN_TOURNAMENT)
            existing = await db.fetchval(
                "SELECT status FROM tournament_rounds WHERE tournament_id = $1 AND round = $2",
                tournament_id,
                round,
            )
            if existing is not None and first_number == 1:
                raise RoundExists(f"tournament {tournament_id} has round {round} already")
            if existing is None:
                await db.execute(
                    "INSERT INTO tournament_rounds (tournament_id, round, byes)"
                    " VALUES ($1, $2, $3)",
                    tournament_id,
                    round,
                    list(byes),
                )
            else:
                await db.execute(
                    "UPDATE tournament_rounds SET byes = $1, status = 'opening'"
                    " WHERE tournament_id = $2 AND round = $3",
                    list(byes),
                    tournament_id,
                    round,
                )
            await db.executemany(
                "INSERT INTO tournament_tables (tournament_id, round, number, seats)"
                " VALUES ($1, $2, $3, $4)",
                [
                    (tournament_id, round, number, list(seats))
                    for number, seats in enumerate(tables, start=first_number)
                ],
            )
            await db.execute(
                "UPDATE tournaments SET round = $1, status = 'running' WHERE id = $2",
                round,
                tournament_id,
            )

    async def void_round_tables(self, tournament_id: int, round: int) -> list[TournamentTable]:
        async with self._transaction() as db:
            await self._tournament_in(db, tournament_id, lock=True)
            tables = await self._tournament_tables(
                db, "tournament_id = $1 AND round = $2 AND state != 'void'", tournament_id, round
            )
            await db.execute(
                "UPDATE tournament_tables SET state = 'void'"
                " WHERE tournament_id = $1 AND round = $2",
                tournament_id,
                round,
            )
        return tables

    async def tournament_rounds(self, tournament_id: int) -> list[TournamentRound]:
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT round, byes, status FROM tournament_rounds WHERE tournament_id = $1"
                " ORDER BY round",
                tournament_id,
            )
        return [
            TournamentRound(tournament_id, row["round"], tuple(row["byes"]), row["status"])
            for row in rows
        ]

    async def set_round_status(
        self, tournament_id: int, round: int, status: str, *, expected: str
    ) -> bool:
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE tournament_rounds SET status = $1"
                " WHERE tournament_id = $2 AND round = $3 AND status = $4",
                status,
                tournament_id,
                round,
                expected,
            )
        return changed == "UPDATE 1"

    async def tournament_tables(
        self, tournament_id: int, round: int | None = None
    ) -> list[TournamentTable]:
        async with self._read() as db:
            if round is None:
                return await self._tournament_tables(db, "tournament_id = $1", tournament_id)
            return await self._tournament_tables(
                db, "tournament_id = $1 AND round = $2", tournament_id, round
            )

    async def tournament_table_of(self, table_id: int) -> TournamentTable | None:
        async with self._read() as db:
            found = await self._tournament_tables(db, "table_id = $1", table_id)
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
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE tournament_tables SET state = $1,"
                " thread_id = coalesce($2, thread_id), table_id = coalesce($3, table_id)"
                " WHERE tournament_id = $4 AND round = $5 AND number = $6 AND state != 'void'",
                state,
                thread_id,
                table_id,
                tournament_id,
                round,
                number,
            )
            if changed == "UPDATE 0":
                raise StoreError(f"no table {round}.{number} in tournament {tournament_id}")

    async def replace_seat_user(
        self, table_id: int, position: int, old_user_id: int, new_user_id: int, name: str
    ) -> Table:
        async with self._transaction() as db:
            table = await self._locked(db, table_id)
            if table.status is not TableStatus.ACTIVE:
                raise TableNotActive(table_id, table.status)
            moves = await db.fetchval(
                "SELECT EXISTS (SELECT 1 FROM actions"
                " WHERE table_id = $1 AND seat = $2 AND user_id IS NOT NULL)",
                table_id,
                position,
            )
            seat = table.seats[position] if 0 <= position < len(table.seats) else None
            if moves or seat is None or seat.user_id != old_user_id:
                raise SeatChanged(f"seat {position + 1} of table {table_id} cannot change")
            await db.execute(
                "UPDATE seats SET user_id = $1, name = $2 WHERE table_id = $3 AND position = $4",
                new_user_id,
                name,
                table_id,
                position,
            )
            seat.user_id, seat.name = new_user_id, name
            if table.host_id == old_user_id:
                table.host_id = new_user_id
                await db.execute(
                    "UPDATE tables SET host_id = $1 WHERE id = $2", new_user_id, table_id
                )
            await self._announce(db, table_id)  # type: ignore[attr-defined]
            return table

    # -- shared ----------------------------------------------------------------------------
    async def _open_tournament(
        self,
        db: asyncpg.Connection,
        tournament_id: int,
        allowed: tuple[TournamentStatus, ...],
    ) -> Tournament:
        """The tournament, its row locked for the rest of the transaction, if its status
        allows the command."""
        tournament = await self._tournament_in(db, tournament_id, lock=True)
        if tournament.status not in allowed:
            raise TournamentClosed(tournament_id, tournament.status)
        return tournament

    async def _tournament_in(
        self, db: asyncpg.Connection, tournament_id: int, *, lock: bool = False
    ) -> Tournament:
        if lock:
            # The lock in a statement of its own: what is read after it is what the last
            # holder committed.
            await db.execute("SELECT id FROM tournaments WHERE id = $1 FOR UPDATE", tournament_id)
        found = await self._tournaments_where(db, "id = $1", tournament_id)
        if not found:
            raise StoreError(f"no tournament {tournament_id}")
        return found[0]

    @staticmethod
    async def _tournaments_where(
        db: asyncpg.Connection, where: str, *params: Any
    ) -> list[Tournament]:
        rows = await db.fetch(
            f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments WHERE {where} ORDER BY id", *params
        )
        tournaments = {}
        for row in rows:
            fields = dict(row)
            fields["status"] = TournamentStatus(fields["status"])
            fields["schedule"] = schedule_of(fields["schedule"])
            tournaments[row["id"]] = Tournament(**fields)
        if tournaments:
            players = await db.fetch(
                "SELECT tournament_id, user_id, name, status, left_round FROM tournament_players"
                " WHERE tournament_id = ANY($1::bigint[]) ORDER BY tournament_id, position",
                list(tournaments),
            )
            for row in players:
                tournaments[row["tournament_id"]].players.append(
                    TournamentPlayer(row["user_id"], row["name"], row["status"], row["left_round"])
                )
        return list(tournaments.values())

    @staticmethod
    async def _tournament_tables(
        db: asyncpg.Connection, where: str, *params: Any
    ) -> list[TournamentTable]:
        rows = await db.fetch(
            "SELECT tournament_id, round, number, seats, thread_id, table_id, state"
            f" FROM tournament_tables WHERE {where} ORDER BY round, number",
            *params,
        )
        return [
            TournamentTable(
                row["tournament_id"],
                row["round"],
                row["number"],
                tuple(row["seats"]),
                row["thread_id"],
                row["table_id"],
                row["state"],
            )
            for row in rows
        ]
