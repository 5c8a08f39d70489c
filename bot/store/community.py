"""The store's commands for ratings and tournaments (issue 12), kept apart from the core
table commands and written once for both backends; `SQLStore` mixes them in and provides
the connections. A command that checks a tournament before changing it holds the
tournament's lock (its row's on PostgreSQL, the file's on SQLite)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

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
    TournamentResult,
    TournamentRound,
    TournamentStatus,
    TournamentTable,
)
from meeple_hall.bot.store.dialect import Connection, Row

if TYPE_CHECKING:
    from contextlib import AbstractAsyncContextManager


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
    " options, settings, bye_points, advance, status, round, message_id, created_at, schedule,"
    " checkin_minutes, checkin_until, deadline_days, seeding, points, final_size, at_deadline"
)
_OPEN_TOURNAMENT = (TournamentStatus.SIGNUP, TournamentStatus.RUNNING)
_UNDECIDED_TABLE = "('planned', 'thread', 'table', 'started', 'announced')"


class CommunityCommands:
    """Mixed into SQLStore: needs its `_read`, `_write`, `_locked` and `_announce`."""

    if TYPE_CHECKING:

        def _read(self) -> AbstractAsyncContextManager[Connection]: ...
        def _write(self) -> AbstractAsyncContextManager[Connection]: ...
        async def _locked(self, db: Connection, table_id: int) -> Table: ...
        async def _announce(self, db: Connection, key: int, kind: str = "") -> None: ...

    # -- results, for ratings ------------------------------------------------------------
    async def results_since(
        self, *, game: str | None, guild_id: int | None = None, since: datetime | None = None
    ) -> list[ResultRow]:
        async with self._read() as db:
            where, params = ["1 = 1"], list[Any]()
            if game is not None:
                where.append("t.game = ?")
                params.append(game)
            if guild_id is not None:
                where.append("t.guild_id = ?")
                params.append(guild_id)
            if since is not None:
                where.append("r.finished_at >= ?")
                params.append(db.moment(since))
            rows = await db.fetch(
                "SELECT r.table_id, t.game, t.guild_id, r.seat, r.user_id, r.score, r.rank,"
                " r.resigned, r.finished_at, r.breakdown"
                " FROM results AS r JOIN tables AS t ON t.id = r.table_id"
                f" WHERE {' AND '.join(where)} ORDER BY r.finished_at, r.table_id, r.seat",
                *params,
            )
        return [_result(db, row) for row in rows]

    async def count_results(self, *, game: str, guild_id: int | None = None) -> int:
        where, params = "t.game = ?", list[Any]([game])
        if guild_id is not None:
            where += " AND t.guild_id = ?"
            params.append(guild_id)
        async with self._read() as db:
            count = await db.fetchval(
                "SELECT count(DISTINCT r.table_id) FROM results AS r"
                f" JOIN tables AS t ON t.id = r.table_id WHERE {where}",
                *params,
            )
        return int(count)

    async def tables_with_setting(self, *, game: str, name: str, value: str) -> set[int]:
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT id FROM tables WHERE game = ? AND status = 'finished'"
                f" AND {db.json_key('settings')} = ?",
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
                f" WHERE s.user_id IN ({db.marks(user_ids)}) AND s.table_id ="
                " (SELECT max(o.table_id) FROM seats AS o WHERE o.user_id = s.user_id)",
                *user_ids,
            )
        return {row["user_id"]: row["name"] for row in rows}

    # -- tournaments ---------------------------------------------------------------------
    async def create_tournament(self, tournament: Tournament) -> Tournament:
        async with self._write() as db:
            tournament_id = await db.fetchval(
                "INSERT INTO tournaments (guild_id, channel_id, organiser_id, name, game,"
                " format, rounds, table_size, clock, options, settings, bye_points, advance,"
                " status, created_at, checkin_minutes, deadline_days, seeding, points,"
                " final_size, at_deadline)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
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
                db.json(tournament.options),
                db.json(tournament.settings),
                tournament.bye_points,
                tournament.advance,
                TournamentStatus.SIGNUP.value,
                db.moment(tournament.created_at),
                tournament.checkin_minutes,
                tournament.deadline_days,
                tournament.seeding,
                None if tournament.points is None else db.json(list(tournament.points)),
                tournament.final_size,
                tournament.at_deadline,
            )
            await db.executemany(
                "INSERT INTO tournament_players (tournament_id, user_id, name, position)"
                " VALUES (?, ?, ?, ?)",
                [
                    (tournament_id, player.user_id, player.name, position)
                    for position, player in enumerate(tournament.players)
                ],
            )
            return await self._tournament_in(db, tournament_id)

    async def get_tournament(self, tournament_id: int) -> Tournament | None:
        async with self._read() as db:
            found = await self._tournaments_where(db, "id = ?", tournament_id)
        return found[0] if found else None

    async def tournaments(
        self, *, guild_id: int | None = None, statuses: tuple[TournamentStatus, ...] = ()
    ) -> list[Tournament]:
        async with self._read() as db:
            where, params = ["1 = 1"], list[Any]()
            if guild_id is not None:
                where.append("guild_id = ?")
                params.append(guild_id)
            if statuses:
                where.append(f"status IN ({db.marks(statuses)})")
                params += [TournamentStatus(s).value for s in statuses]
            return await self._tournaments_where(db, " AND ".join(where), *params)

    async def set_tournament_message(self, tournament_id: int, message_id: int) -> None:
        async with self._write() as db:
            await db.execute(
                "UPDATE tournaments SET message_id = ? WHERE id = ?", message_id, tournament_id
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
                tournament_id,
                user_id,
                name,
                tournament_id,
            )
            return await self._tournament_in(db, tournament_id)

    async def leave_tournament(self, tournament_id: int, user_id: int) -> Tournament:
        async with self._write() as db:
            tournament = await self._open_tournament(db, tournament_id, (TournamentStatus.SIGNUP,))
            if tournament.player(user_id) is None:
                raise NotSeated(f"user {user_id} is not in tournament {tournament_id}")
            await db.execute(
                "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
                tournament_id,
                user_id,
            )
            return await self._tournament_in(db, tournament_id)

    async def set_player_status(
        self, tournament_id: int, user_id: int, status: str, *, round: int
    ) -> Tournament:
        async with self._write() as db:
            await self._open_tournament(db, tournament_id, (TournamentStatus.RUNNING,))
            changed = await db.execute(
                "UPDATE tournament_players SET status = ?, left_round = ?"
                " WHERE tournament_id = ? AND user_id = ? AND status = 'playing'",
                status,
                round,
                tournament_id,
                user_id,
            )
            if changed == 0:
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
                new_user_id,
                name,
                tournament_id,
                old_user_id,
            )
            rows = await db.fetch(
                "SELECT round, number, seats FROM tournament_tables"
                f" WHERE tournament_id = ? AND state IN {_UNDECIDED_TABLE}",
                tournament_id,
            )
            for row in rows:
                seats = db.read_json(row["seats"])
                ids = [new_user_id if u == old_user_id else u for u in seats]
                await db.execute(
                    "UPDATE tournament_tables SET seats = ?"
                    " WHERE tournament_id = ? AND round = ? AND number = ?",
                    db.json(ids),
                    tournament_id,
                    row["round"],
                    row["number"],
                )
            if tournament.schedule is not None:
                swapped = swap_in_schedule(tournament.schedule, old_user_id, new_user_id)
                await db.execute(
                    "UPDATE tournaments SET schedule = ? WHERE id = ?",
                    db.json(swapped),
                    tournament_id,
                )
            return await self._tournament_in(db, tournament_id)

    async def end_tournament(self, tournament_id: int, status: TournamentStatus) -> Tournament:
        async with self._write() as db:
            await self._open_tournament(db, tournament_id, _OPEN_TOURNAMENT)
            await db.execute(
                "UPDATE tournaments SET status = ? WHERE id = ?",
                TournamentStatus(status).value,
                tournament_id,
            )
            return await self._tournament_in(db, tournament_id)

    async def set_tournament_schedule(
        self, tournament_id: int, schedule: Sequence[Sequence[Sequence[int]]]
    ) -> Tournament:
        rounds = [[list(table) for table in tables] for tables in schedule]
        async with self._write() as db:
            await db.execute(
                "UPDATE tournaments SET schedule = ? WHERE id = ? AND schedule IS NULL",
                db.json(rounds),
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
        deadline: datetime | None = None,
        final: bool = False,
    ) -> None:
        async with self._write() as db:
            await self._open_tournament(db, tournament_id, _OPEN_TOURNAMENT)
            existing = await db.fetchval(
                "SELECT status FROM tournament_rounds WHERE tournament_id = ? AND round = ?",
                tournament_id,
                round,
            )
            if existing is not None and first_number == 1:
                raise RoundExists(f"tournament {tournament_id} has round {round} already")
            if existing is None:
                await db.execute(
                    "INSERT INTO tournament_rounds (tournament_id, round, byes, deadline, final)"
                    " VALUES (?, ?, ?, ?, ?)",
                    tournament_id,
                    round,
                    db.json(list(byes)),
                    db.moment(deadline),
                    final,
                )
            else:
                await db.execute(
                    "UPDATE tournament_rounds SET byes = ?, status = 'opening',"
                    " deadline = coalesce(?, deadline) WHERE tournament_id = ? AND round = ?",
                    db.json(list(byes)),
                    db.moment(deadline),
                    tournament_id,
                    round,
                )
            await db.executemany(
                "INSERT INTO tournament_tables (tournament_id, round, number, seats)"
                " VALUES (?, ?, ?, ?)",
                [
                    (tournament_id, round, number, db.json(list(seats)))
                    for number, seats in enumerate(tables, start=first_number)
                ],
            )
            await db.execute(
                "UPDATE tournaments SET round = ?, status = 'running' WHERE id = ?",
                round,
                tournament_id,
            )

    async def open_checkin(self, tournament_id: int, until: datetime) -> Tournament:
        async with self._write() as db:
            await self._open_tournament(db, tournament_id, (TournamentStatus.SIGNUP,))
            await db.execute(
                "UPDATE tournaments SET checkin_until = ? WHERE id = ?",
                db.moment(until),
                tournament_id,
            )
            return await self._tournament_in(db, tournament_id)

    async def check_in(self, tournament_id: int, user_id: int) -> Tournament:
        async with self._write() as db:
            tournament = await self._open_tournament(db, tournament_id, (TournamentStatus.SIGNUP,))
            if tournament.checkin_until is None:
                raise TournamentClosed(tournament_id, tournament.status)
            if tournament.player(user_id) is None:
                raise NotSeated(f"user {user_id} is not in tournament {tournament_id}")
            await db.execute(
                "UPDATE tournament_players SET checked_in = ?"
                " WHERE tournament_id = ? AND user_id = ?",
                True,
                tournament_id,
                user_id,
            )
            return await self._tournament_in(db, tournament_id)

    async def record_tournament_result(self, result: TournamentResult) -> None:
        async with self._write() as db:
            await self._tournament_in(db, result.tournament_id, lock=True)
            if await db.fetchval(
                "SELECT table_id FROM tournament_results WHERE table_id = ?", result.table_id
            ):
                raise StoreError(f"table {result.table_id} has a result set already")
            await db.execute(
                "INSERT INTO tournament_results (tournament_id, table_id, ranks, forfeits,"
                " reason, decided_by, decided_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                result.tournament_id,
                result.table_id,
                db.json(list(result.ranks)),
                db.json(list(result.forfeits)),
                result.reason,
                result.decided_by,
                db.moment(result.decided_at),
            )

    async def tournament_results(self, tournament_id: int) -> list[TournamentResult]:
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT tournament_id, table_id, ranks, forfeits, reason, decided_by, decided_at"
                " FROM tournament_results WHERE tournament_id = ? ORDER BY decided_at, table_id",
                tournament_id,
            )
            return [
                TournamentResult(
                    row["tournament_id"],
                    row["table_id"],
                    tuple(db.read_json(row["ranks"])),
                    tuple(db.read_json(row["forfeits"])),
                    row["reason"],
                    row["decided_by"],
                    db.read_set_moment(row["decided_at"]),
                )
                for row in rows
            ]

    async def void_round_tables(self, tournament_id: int, round: int) -> list[TournamentTable]:
        async with self._write() as db:
            await self._tournament_in(db, tournament_id, lock=True)
            tables = await self._tournament_tables(
                db, "tournament_id = ? AND round = ? AND state != 'void'", tournament_id, round
            )
            await db.execute(
                "UPDATE tournament_tables SET state = 'void' WHERE tournament_id = ? AND round = ?",
                tournament_id,
                round,
            )
        return tables

    async def tournament_rounds(self, tournament_id: int) -> list[TournamentRound]:
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT round, byes, status, deadline, final FROM tournament_rounds"
                " WHERE tournament_id = ? ORDER BY round",
                tournament_id,
            )
        return [
            TournamentRound(
                tournament_id,
                row["round"],
                tuple(db.read_json(row["byes"])),
                row["status"],
                db.read_moment(row["deadline"]),
                bool(row["final"]),
            )
            for row in rows
        ]

    async def set_round_status(
        self, tournament_id: int, round: int, status: str, *, expected: str
    ) -> bool:
        async with self._write() as db:
            changed = await db.execute(
                "UPDATE tournament_rounds SET status = ?"
                " WHERE tournament_id = ? AND round = ? AND status = ?",
                status,
                tournament_id,
                round,
                expected,
            )
        return changed == 1

    async def tournament_tables(
        self, tournament_id: int, round: int | None = None
    ) -> list[TournamentTable]:
        async with self._read() as db:
            if round is None:
                return await self._tournament_tables(db, "tournament_id = ?", tournament_id)
            return await self._tournament_tables(
                db, "tournament_id = ? AND round = ?", tournament_id, round
            )

    async def tournament_table_of(self, table_id: int) -> TournamentTable | None:
        async with self._read() as db:
            found = await self._tournament_tables(db, "table_id = ?", table_id)
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
            changed = await db.execute(
                "UPDATE tournament_tables SET state = ?,"
                " thread_id = coalesce(?, thread_id), table_id = coalesce(?, table_id)"
                " WHERE tournament_id = ? AND round = ? AND number = ? AND state != 'void'",
                state,
                thread_id,
                table_id,
                tournament_id,
                round,
                number,
            )
            if changed == 0:
                raise StoreError(f"no table {round}.{number} in tournament {tournament_id}")

    async def replace_seat_user(
        self, table_id: int, position: int, old_user_id: int, new_user_id: int, name: str
    ) -> Table:
        async with self._write() as db:
            table = await self._locked(db, table_id)
            if table.status is not TableStatus.ACTIVE:
                raise TableNotActive(table_id, table.status)
            moves = await db.fetchval(
                "SELECT count(*) FROM actions"
                " WHERE table_id = ? AND seat = ? AND user_id IS NOT NULL",
                table_id,
                position,
            )
            seat = table.seats[position] if 0 <= position < len(table.seats) else None
            if moves or seat is None or seat.user_id != old_user_id:
                raise SeatChanged(f"seat {position + 1} of table {table_id} cannot change")
            await db.execute(
                "UPDATE seats SET user_id = ?, name = ? WHERE table_id = ? AND position = ?",
                new_user_id,
                name,
                table_id,
                position,
            )
            seat.user_id, seat.name = new_user_id, name
            if table.host_id == old_user_id:
                table.host_id = new_user_id
                await db.execute(
                    "UPDATE tables SET host_id = ? WHERE id = ?", new_user_id, table_id
                )
            await self._announce(db, table_id)
            return table

    # -- shared ----------------------------------------------------------------------------
    async def _open_tournament(
        self, db: Connection, tournament_id: int, allowed: tuple[TournamentStatus, ...]
    ) -> Tournament:
        """The tournament, locked for the rest of the transaction, if its status allows
        the command."""
        tournament = await self._tournament_in(db, tournament_id, lock=True)
        if tournament.status not in allowed:
            raise TournamentClosed(tournament_id, tournament.status)
        return tournament

    async def _tournament_in(
        self, db: Connection, tournament_id: int, *, lock: bool = False
    ) -> Tournament:
        if lock:
            # The lock in a statement of its own: what is read after it is what the last
            # holder committed.
            await db.execute("SELECT id FROM tournaments WHERE id = ? FOR UPDATE", tournament_id)
        found = await self._tournaments_where(db, "id = ?", tournament_id)
        if not found:
            raise StoreError(f"no tournament {tournament_id}")
        return found[0]

    @staticmethod
    async def _tournaments_where(db: Connection, where: str, *params: Any) -> list[Tournament]:
        rows = await db.fetch(
            f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments WHERE {where} ORDER BY id", *params
        )
        tournaments = {row["id"]: _tournament(db, row) for row in rows}
        if tournaments:
            ids = list(tournaments)
            players = await db.fetch(
                "SELECT tournament_id, user_id, name, status, left_round, checked_in"
                " FROM tournament_players"
                f" WHERE tournament_id IN ({db.marks(ids)}) ORDER BY tournament_id, position",
                *ids,
            )
            for row in players:
                tournaments[row["tournament_id"]].players.append(
                    TournamentPlayer(
                        row["user_id"],
                        row["name"],
                        row["status"],
                        row["left_round"],
                        bool(row["checked_in"]),
                    )
                )
        return list(tournaments.values())

    @staticmethod
    async def _tournament_tables(db: Connection, where: str, *params: Any) -> list[TournamentTable]:
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
                tuple(db.read_json(row["seats"])),
                row["thread_id"],
                row["table_id"],
                row["state"],
            )
            for row in rows
        ]


def _result(db: Connection, row: Row) -> ResultRow:
    """A row of results, with its table's game and guild."""
    return ResultRow(
        table_id=row["table_id"],
        game=row["game"],
        guild_id=row["guild_id"],
        seat=row["seat"],
        user_id=row["user_id"],
        score=row["score"],
        rank=row["rank"],
        resigned=bool(row["resigned"]),
        finished_at=db.read_set_moment(row["finished_at"]),
        breakdown=db.read_json(row["breakdown"]),
    )


def _tournament(db: Connection, row: Row) -> Tournament:
    """A row of tournaments (its players come after)."""
    return Tournament(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        organiser_id=row["organiser_id"],
        name=row["name"],
        game=row["game"],
        format=row["format"],
        rounds=row["rounds"],
        table_size=row["table_size"],
        clock=row["clock"],
        options=db.read_json(row["options"]),
        settings=db.read_json(row["settings"]),
        bye_points=row["bye_points"],
        advance=row["advance"],
        status=TournamentStatus(row["status"]),
        round=row["round"],
        message_id=row["message_id"],
        created_at=db.read_moment(row["created_at"]),
        schedule=schedule_of(db.read_json(row["schedule"])),
        checkin_minutes=row["checkin_minutes"],
        checkin_until=db.read_moment(row["checkin_until"]),
        deadline_days=row["deadline_days"],
        seeding=row["seeding"],
        points=None if row["points"] is None else tuple(db.read_json(row["points"])),
        final_size=row["final_size"],
        at_deadline=row["at_deadline"],
    )
