"""The store behind the table: what the bot keeps, and the interface every backend fills.

A game is event-sourced: its setup (game id, seed, options, seats) plus an append-only
action log numbered from 1. Snapshots are a cache that saves replaying long logs; the log
is the truth. Lobbies, table messages and user preferences are kept here too, so a
restarted bot finds everything it had. A finished game leaves one row per seat in the
results table, written in the same transaction as its last move.

Every change is a narrow command that checks what it changes in the same transaction
(add a seat only while the table is a lobby with room, start only a lobby, …), so
concurrent clicks and processes are each either applied or refused with a typed error;
nothing reads a whole table, changes it in memory and writes it back.

`SQLiteStore` is the embedded default; a PostgreSQL backend fills the same interface.
Datetimes handed out are timezone-aware UTC; a naive datetime handed in is taken as UTC.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol


class TableStatus(StrEnum):
    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    ABANDONED = "abandoned"


OPEN_STATUSES = (TableStatus.LOBBY, TableStatus.ACTIVE)
# The hints taken at a table (`/hint`, bot/hints.py), kept in its settings beside what the
# host chose: "seq:seat" for each, in the order they were taken ("12:0 15:1").
HINTS_TAKEN = "hints"


class StoreError(Exception):
    """A store request that cannot be served."""


class ChannelBusy(StoreError):
    """The channel already has an open lobby or game."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"channel busy with table {table_id}")
        self.table_id = table_id


class StaleAction(StoreError):
    """Another move already took this sequence number: the panel is out of date."""

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(f"move {expected} is taken; the game is at {current}")
        self.expected = expected
        self.current = current


class TableNotActive(StoreError):
    """Moves are only logged for an active game (not a lobby, nor a game that has ended)."""

    def __init__(self, table_id: int, status: TableStatus) -> None:
        super().__init__(f"table {table_id} is {status.value}, not active")
        self.table_id = table_id
        self.status = status


class LobbyClosed(StoreError):
    """A lobby command on a table that is no longer a lobby (started, or cancelled)."""

    def __init__(self, table_id: int, status: TableStatus) -> None:
        super().__init__(f"table {table_id} is {status.value}, not a lobby")
        self.table_id = table_id
        self.status = status


class LobbyFull(StoreError):
    def __init__(self, max_seats: int) -> None:
        super().__init__(f"the table is full ({max_seats} seats)")
        self.max_seats = max_seats


class AlreadySeated(StoreError):
    """The user has a seat at this table already."""


class NotSeated(StoreError):
    """The user has no seat at this table."""


class SeatChanged(StoreError):
    """The seat asked for is not the one the caller saw (someone left or was removed)."""


class SeatCount(StoreError):
    """The lobby has too few or too many seats to start."""

    def __init__(self, seats: int, min_seats: int, max_seats: int) -> None:
        super().__init__(f"{seats} seats, the game takes {min_seats}–{max_seats}")
        self.seats, self.min_seats, self.max_seats = seats, min_seats, max_seats


@dataclass
class Seat:
    user_id: int | None  # None for an AI seat
    name: str
    ai: bool = False
    resigned: bool = False  # the player left; the AI plays the seat out
    # an AI seat's level (games/ai: random, good, strong); None plays the default level
    ai_level: str | None = None
    # the player is owed the DM telling them it is their turn: kept until it goes out, so a
    # bot stopping first leaves it to the next (bot/display.py)
    turn_dm_owed: bool = False
    # a digest of the private text last sent to the player by DM (bot/display.py
    # `private_digest`): "" none yet, None not known (a game in play when migration 0019
    # ran); a bot loading the game DMs the seat's private text if it is not that one
    private_sent: str | None = ""

    @property
    def played_out(self) -> bool:
        """The player is gone and the AI plays their seat: they resigned, or their timeouts
        handed it over (until `/resume`). Such a seat ranks below everyone at the end."""
        return self.resigned or (self.ai and self.user_id is not None)

    @property
    def who(self) -> int | str:
        """Who sits here: the user's id, or an AI seat's name."""
        return self.user_id if self.user_id is not None else self.name


@dataclass
class Table:
    """A lobby, and after the start the game played in it."""

    id: int
    guild_id: int | None
    channel_id: int
    host_id: int
    game: str
    options: dict[str, str]
    seed: int
    status: TableStatus
    seats: list[Seat] = field(default_factory=list)
    settings: dict[str, str] = field(default_factory=dict)  # see bot/table_settings.py
    lobby_message_id: int | None = None
    table_message_id: int | None = None
    result: dict[str, Any] | None = None
    created_at: datetime | None = None
    started_at: datetime | None = None
    ended_at: datetime | None = None
    # the seats whose decision the game awaits after its last logged move, kept with the
    # log (a bot starting wakes the AI seats among them without replaying the game);
    # None where not known (written by an older version, or a move logged without it)
    awaiting: tuple[int, ...] | None = None
    # since when the game is paused, its channel gone (bot/channels.py); None: in play where it is
    paused_at: datetime | None = None

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None


@dataclass(frozen=True)
class LoggedAction:
    seq: int  # 1, 2, 3 … in the order applied
    seat: int
    choices: tuple[str, ...]
    user_id: int | None  # who clicked; None for AI seats
    at: datetime
    # made in one submission with the move before it (`append_actions`: a folded panel line)
    chained: bool = False


@dataclass(frozen=True)
class FinalResult:
    """How a game ended, by seat: scores, final ranks (resigned seats already placed last)
    and each seat's points by category."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    breakdown: tuple[dict[str, int], ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "breakdown": [dict(b) for b in self.breakdown],
        }


@dataclass(frozen=True)
class ResultRow:
    """One seat of one finished game: the results table, which ratings and tournaments read."""

    table_id: int
    game: str
    guild_id: int | None
    seat: int
    user_id: int | None  # None for a seat the AI played from the start
    score: int
    rank: int
    resigned: bool  # the AI played the seat out (resigned or timed out; ranked last)
    finished_at: datetime
    breakdown: dict[str, int]


@dataclass(frozen=True)
class Snapshot:
    seq: int  # the state after action `seq` (0: the state from setup)
    state: str  # engine.dump()


@dataclass(frozen=True)
class GameLog:
    """What loading a game reads: its latest snapshot and the log after it."""

    snapshot: Snapshot | None
    actions: tuple[LoggedAction, ...]


# What else `Store.watch` reports from other processes, besides changes to tables:
# "user" (a user's language choice), "guild" (a server's language), "locale" (a user's
# client locale), "away" (a user's time away), "clock" (a seat clock's snooze, by table).
CHANGE_KINDS = ("user", "guild", "locale", "away", "clock")
Heard = Callable[[str, int | None], Awaitable[None]]


@dataclass(frozen=True)
class LanguageChoices:
    """The languages chosen with /settings: by user id and by guild id (only those set)."""

    users: dict[int, str]
    guilds: dict[int, str]


@dataclass
class UserPrefs:
    user_id: int
    turn_dms: bool = True
    dms_closed: bool = False
    locale: str | None = None  # the Discord locale of the user's last interaction
    # quiet hours: minutes after the user's local midnight (both None: none), and the
    # user's offset from UTC in minutes
    quiet_start: int | None = None
    quiet_end: int | None = None
    utc_offset: int = 0


@dataclass
class SeatClock:
    """How long a seat has been awaited, and what its clock and reminders have done."""

    table_id: int
    seat: int
    user_id: int | None
    reserve: float = 0.0  # seconds of extra time left for the rest of the game
    timeouts: int = 0  # waits in a row that ran out
    since: datetime | None = None  # the current wait's start; None while not awaited
    deadline: datetime | None = None  # the current wait's end (away added); None: no clock
    next_remind: datetime | None = None
    reminders: int = 0  # reminders of the current wait (sent, or due while snoozed)
    snoozed: bool = False
    timed_out: bool = False  # the current wait ran out: the AI answers the rest of it
    stalled: bool = False  # the channel was told the game stalled in this wait


@dataclass(frozen=True)
class Away:
    """A player's time away: their clocks pause from `since` until `until`."""

    user_id: int
    since: datetime
    until: datetime


class AwayAllowance(StoreError):
    """Time away past the yearly allowance."""

    def __init__(self, used: int, allowance: int) -> None:
        super().__init__(f"{used} of {allowance} days of time away taken this year")
        self.used, self.allowance = used, allowance


class TournamentStatus(StrEnum):
    SIGNUP = "signup"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class TournamentClosed(StoreError):
    """A tournament command that its status no longer allows (sign-up closed, ended, …)."""

    def __init__(self, tournament_id: int, status: TournamentStatus) -> None:
        super().__init__(f"tournament {tournament_id} is {status.value}")
        self.tournament_id = tournament_id
        self.status = status


class RoundExists(StoreError):
    """The round was recorded already (by another process, or before a restart)."""


@dataclass
class TournamentPlayer:
    user_id: int
    name: str
    status: str = "playing"  # playing, dropped, removed, out (eliminated)
    left_round: int | None = None
    checked_in: bool = False  # confirmed during the check-in window


@dataclass
class Tournament:
    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    game: str
    format: str  # swiss, round-robin, elimination
    rounds: int | None
    table_size: int
    clock: str
    options: dict[str, str] = field(default_factory=dict)
    settings: dict[str, str] = field(default_factory=dict)
    bye_points: float | None = None
    advance: int | None = None
    status: TournamentStatus = TournamentStatus.SIGNUP
    round: int = 0
    message_id: int | None = None
    created_at: datetime | None = None
    players: list[TournamentPlayer] = field(default_factory=list)
    # round-robin: the tables of every round (user ids in seat order), fixed at the start
    schedule: tuple[tuple[tuple[int, ...], ...], ...] | None = None
    checkin_minutes: int | None = None  # a check-in window before round 1
    checkin_until: datetime | None = None  # when the open check-in window closes
    deadline_days: int | None = None  # how long a round may last
    at_deadline: str = "ai"  # unfinished tables then: the AI plays out, or the organiser decides
    seeding: str = "random"  # round 1: random, or by the server's ratings
    points: tuple[int, ...] | None = None  # points per place (None: standings.POINTS)
    final_size: int | None = None  # after the Swiss rounds, the best N play a final table

    def player(self, user_id: int) -> TournamentPlayer | None:
        return next((p for p in self.players if p.user_id == user_id), None)

    def playing(self) -> list[int]:
        return [p.user_id for p in self.players if p.status == "playing"]


@dataclass(frozen=True)
class TournamentTable:
    tournament_id: int
    round: int
    number: int
    seats: tuple[int, ...]
    thread_id: int | None = None
    table_id: int | None = None
    state: str = "planned"  # planned, thread, table, started, announced, done, void


@dataclass(frozen=True)
class TournamentRound:
    tournament_id: int
    round: int
    byes: tuple[int, ...]
    status: str  # opening, playing, done
    deadline: datetime | None = None  # when its unfinished tables are settled
    final: bool = False  # the final table of the best, after the Swiss rounds


@dataclass(frozen=True)
class TournamentResult:
    """A table's result set by the organiser: ranks by seat (forfeited seats last)."""

    tournament_id: int
    table_id: int
    ranks: tuple[int, ...]
    forfeits: tuple[int, ...]  # seats that forfeited
    reason: str
    decided_by: int
    decided_at: datetime


class Store(Protocol):
    async def open(self) -> None:
        """Connect and apply pending schema migrations."""

    async def close(self) -> None: ...

    async def watch(
        self, changed: Callable[[int | None], Awaitable[None]], others: Heard | None = None
    ) -> None:
        """Call `changed(table_id)` whenever another process has committed a change to a
        table (a move, a seat, its end), and `changed(None)` when changes may have been
        missed (the connection was lost); likewise `others(kind, id)` for the other kinds
        of change (CHANGE_KINDS), `others(kind, None)` for each kind after a loss. A no-op
        where one process owns the database (SQLite); on PostgreSQL, LISTEN/NOTIFY. Stops
        with `close`."""

    # -- lobbies and tables ------------------------------------------------------
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
        """A new lobby. Raises ChannelBusy if the channel has an open table."""

    async def get_table(self, table_id: int) -> Table | None: ...

    async def open_table_in(self, channel_id: int) -> Table | None:
        """The lobby or active game in this channel, if any."""

    async def open_tables(self) -> list[Table]:
        """Every lobby and active game, for the bot to pick up at start."""

    async def set_lobby_message(self, table_id: int, message_id: int) -> None: ...

    async def set_table_message(self, table_id: int, message_id: int) -> None: ...

    async def set_turn_dm_owed(self, table_id: int, seats: Sequence[int], owed: bool) -> None:
        """Keep whether these seats of the table are owed a turn DM (`Seat.turn_dm_owed`)."""

    async def set_private_sent(self, table_id: int, sent: Mapping[int, str]) -> None:
        """Keep, by seat, the digest of the private text last sent to its player
        (`Seat.private_sent`), in one write (none for an empty `sent`)."""

    async def pause_table(self, table_id: int, at: datetime) -> None:
        """A game in play whose channel is gone is paused since `at`."""

    async def move_table(self, table_id: int, channel_id: int) -> Table:
        """A paused game goes on in another channel of its server: no longer paused, and no
        table message there yet. Raises ChannelBusy if that channel has an open table."""

    # -- lobby commands: each raises LobbyClosed unless the table is still a lobby -------
    async def add_seat(self, table_id: int, seat: Seat, *, max_seats: int) -> Table:
        """Seat someone at the end. Raises AlreadySeated (a user sits once) and LobbyFull."""

    async def leave_lobby(self, table_id: int, user_id: int) -> Table:
        """The user gives up their seat. A host who leaves hands the table to the first
        human left; with no human left the lobby is cancelled. Raises NotSeated."""

    async def remove_seat(self, table_id: int, position: int, seen: int | str) -> Table:
        """Remove the seat at `position` if it is still who the caller saw there (`seen`: a
        user id, or an AI seat's name); else SeatChanged. The host's seat stays."""

    async def set_option(self, table_id: int, name: str, value: str) -> Table: ...

    async def set_setting(self, table_id: int, name: str, value: str) -> Table:
        """One of the table's own settings (bot/table_settings.py), not the game's."""

    async def cancel_lobby(self, table_id: int) -> Table: ...

    async def start_table(self, table_id: int, *, min_seats: int, max_seats: int) -> Table:
        """The lobby becomes an active game with the seats it has now (returned), or
        SeatCount if their number is out of range."""

    # -- a game in play: each raises TableNotActive unless the game is active -----------
    async def resign_seat(self, table_id: int, position: int, *, play_out: bool = False) -> Table:
        """The seat's player leaves and the AI plays it out; once every seat is played by
        the AI, the game is abandoned in the same transaction, unless `play_out` (a rated
        game: the AI plays it to its end, and its result counts)."""

    async def abandon_table(self, table_id: int) -> Table: ...

    async def finish_table(self, table_id: int, result: FinalResult) -> Table:
        """End a game whose last move is logged already (the loader's repair of a game
        that ended while the bot was down): the result, its rows and the status at once."""

    async def results(
        self, *, game: str | None = None, guild_id: int | None = None
    ) -> list[ResultRow]:
        """Rows of the results table, oldest game first (then by seat)."""

    async def results_since(
        self, *, game: str | None, guild_id: int | None = None, since: datetime | None = None
    ) -> list[ResultRow]:
        """Rows of one game's (None: every game's) results finished at or after `since` (all
        with None), on one server or (None) everywhere, oldest game first (then by seat)."""

    async def count_results(self, *, game: str, guild_id: int | None = None) -> int:
        """How many finished games of `game` have results (on one server, or everywhere)."""

    async def tables_with_setting(self, *, game: str, name: str, value: str) -> set[int]:
        """Ids of the finished tables of `game` whose table setting `name` is `value`."""

    async def seat_names(self, user_ids: list[int]) -> dict[int, str]:
        """The name each user last sat down under (for leaderboards and profiles)."""

    # -- tournaments (bot/tournaments.py) ---------------------------------------------
    async def create_tournament(self, tournament: Tournament) -> Tournament:
        """Record a new tournament in sign-up (its id is filled in)."""

    async def get_tournament(self, tournament_id: int) -> Tournament | None: ...

    async def tournaments(
        self, *, guild_id: int | None = None, statuses: tuple[TournamentStatus, ...] = ()
    ) -> list[Tournament]:
        """Tournaments on one server (None: all) with one of these statuses (none: any)."""

    async def set_tournament_message(self, tournament_id: int, message_id: int) -> None: ...

    async def join_tournament(self, tournament_id: int, user_id: int, name: str) -> Tournament:
        """Sign up, only during sign-up. Raises AlreadySeated, TournamentClosed."""

    async def leave_tournament(self, tournament_id: int, user_id: int) -> Tournament:
        """Withdraw during sign-up. Raises NotSeated, TournamentClosed."""

    async def set_player_status(
        self, tournament_id: int, user_id: int, status: str, *, round: int
    ) -> Tournament:
        """A player drops, is removed or is knocked out (while running); NotSeated if they
        are not playing in it."""

    async def replace_player(
        self, tournament_id: int, old_user_id: int, new_user_id: int, name: str
    ) -> Tournament:
        """Put another user in a player's place, in the player list, in every table of the
        tournament not yet done and in its schedule. Raises NotSeated, AlreadySeated,
        TournamentClosed."""

    async def end_tournament(self, tournament_id: int, status: TournamentStatus) -> Tournament:
        """Finish or cancel; raises TournamentClosed if it had ended already."""

    async def set_tournament_schedule(
        self, tournament_id: int, schedule: Sequence[Sequence[Sequence[int]]]
    ) -> Tournament:
        """Fix a round-robin's schedule (the tables of every round); one stored already is
        kept, never replaced. Returns the tournament with the schedule it has."""

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
        """Record a round's pairing (its tables as intents, numbered from `first_number`),
        its deadline and whether it is the final table, and make it the current round, in
        one transaction. Raises RoundExists if it is
        recorded already, TournamentClosed unless the tournament is in sign-up or running."""

    async def open_checkin(self, tournament_id: int, until: datetime) -> Tournament:
        """Open the check-in window until `until` (only in sign-up; TournamentClosed)."""

    async def check_in(self, tournament_id: int, user_id: int) -> Tournament:
        """A player confirms during the open check-in window. Raises NotSeated if they
        did not sign up, TournamentClosed unless in sign-up with the window open."""

    async def record_tournament_result(self, result: TournamentResult) -> None:
        """Keep the organiser's decision on a table (one per table; StoreError if decided)."""

    async def tournament_results(self, tournament_id: int) -> list[TournamentResult]:
        """The organiser's decisions on the tournament's tables, oldest first."""

    async def void_round_tables(self, tournament_id: int, round: int) -> list[TournamentTable]:
        """Mark the round's tables void (a re-pairing) and return them as they were."""

    async def tournament_rounds(self, tournament_id: int) -> list[TournamentRound]: ...

    async def set_round_status(
        self, tournament_id: int, round: int, status: str, *, expected: str
    ) -> bool:
        """Move a round from `expected` to `status`; False if it was not in `expected`."""

    async def tournament_tables(
        self, tournament_id: int, round: int | None = None
    ) -> list[TournamentTable]:
        """The tables of a round (None: of every round), by round then number."""

    async def tournament_table_of(self, table_id: int) -> TournamentTable | None:
        """The tournament table that a game belongs to, if any."""

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
        """Record a table's progress (a thread, a game, started, announced, done)."""

    async def replace_seat_user(
        self, table_id: int, position: int, old_user_id: int, new_user_id: int, name: str
    ) -> Table:
        """Another user takes a seat of an active game whose player has made no move in it
        (other seats may have moved); raises SeatChanged if the seat is not `old_user_id`'s
        or a player has moved in it."""

    async def tables_for_user(
        self, user_id: int, statuses: tuple[TableStatus, ...] = OPEN_STATUSES
    ) -> list[Table]:
        """The tables where this user has a seat, with one of these statuses, oldest first."""

    # -- the action log ------------------------------------------------------------
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
        """Append action `seq` in one transaction (with an optional snapshot of the state
        after it). With `result`, the move ends the game: the result, the results rows and
        the finished status are written in the same transaction. `awaiting` (the seats the
        game awaits after the move; None: not known) is kept as the table's `awaiting`.
        Raises StaleAction if `seq` is not exactly one past the last action, and
        TableNotActive if the game is not active (still a lobby, or over)."""

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
        """Append one seat's consecutive actions `seq`, `seq + 1`, … in one transaction: all
        of them or none (a panel's chained answer); each after the first is logged as
        `chained` to the one before it. `snapshot` is `(seq, state)` for one of them;
        `result`, `awaiting` (after the last of them), `StaleAction` and `TableNotActive` as
        for `append_action`."""

    async def note_awaiting(self, table_id: int, seq: int, awaiting: Sequence[int]) -> bool:
        """Keep `awaiting` as the seats an active game awaits, if its log still ends at
        `seq` (a game just started, or one loaded whose `awaiting` was not known). False
        if the game moved on or is not active: nothing is written."""

    async def note_hint(self, table_id: int, seq: int, seat: int) -> Table:
        """Keep with an active table that `seat` took a hint for move `seq` (bot/hints.py),
        once; the table as it is then. `TableNotActive` if the game is not in play."""

    async def actions(self, table_id: int, after: int = 0) -> list[LoggedAction]:
        """The log after sequence number `after`, in order."""

    async def last_seq(self, table_id: int) -> int: ...

    async def latest_snapshot(self, table_id: int) -> Snapshot | None:
        """The most recent snapshot stored with an action, if any."""

    async def game_logs(self, table_ids: Sequence[int]) -> dict[int, GameLog]:
        """For each table, its latest snapshot and the log after it (all of it without a
        snapshot): what loading the games reads, for any number of games in a fixed number
        of statements. A table unknown to the store is left out."""

    # -- users -----------------------------------------------------------------------
    async def get_prefs(self, user_id: int) -> UserPrefs:
        """The user's preferences; the defaults for a user never seen."""

    async def set_prefs(self, prefs: UserPrefs) -> None:
        """Save the DM settings (the locale is kept by `set_locale` alone, so a language
        noted from one interaction never races a setting changed by another)."""

    async def set_locale(self, user_id: int, locale: str) -> None:
        """Record the user's language alone (other preferences are left as they are)."""

    async def set_quiet_hours(
        self, user_id: int, start: int | None, end: int | None, utc_offset: int
    ) -> None:
        """The user's quiet hours alone (minutes after local midnight; None, None: none)."""

    async def set_language(self, user_id: int, language: str | None) -> None:
        """The language the user chose (None: follow their Discord client) alone."""

    async def set_server_language(self, guild_id: int, language: str | None) -> None:
        """The language a server chose for its channels (None: its preferred locale)."""

    async def language_choices(self) -> LanguageChoices:
        """Every language chosen by a user or a server."""

    # -- waiting on players: clocks, reminders, time away (bot/clocks.py) ----------------
    async def save_clock(self, clock: SeatClock) -> None:
        """Write one seat's clock row (the clock service of the table's process is its only
        writer, but for `snooze_clock`: a snooze stays while the row's wait is the same)."""

    async def snooze_clock(self, table_id: int, seat: int, user_id: int, since: int) -> bool:
        """The seat's player snoozes the reminders of the wait that began at `since` (whole
        seconds since the epoch, as the Snooze button carries it). False, and nothing
        written, if the seat is not the user's or that wait is over."""

    async def clocks(self, table_id: int | None = None) -> list[SeatClock]:
        """The clock rows of one table, or (None) of every active game, for re-arming."""

    async def drop_clocks(self, table_id: int) -> None:
        """Forget a table's clock rows (its game ended)."""

    async def set_seat_ai(self, table_id: int, position: int, ai: bool) -> Table:
        """Hand a player's seat to the AI (after timeouts) or back to the player; a
        resigned seat stays the AI's. Raises TableNotActive unless the game is active."""

    async def guild_tables(self, guild_id: int) -> list[Table]:
        """Every lobby and active game on one server, oldest first."""

    async def away(self, user_id: int) -> Away | None:
        """The user's time away, if any is recorded (it may have ended already)."""

    async def aways(self) -> list[Away]:
        """Every recorded time away, for re-arming at start."""

    async def away_days_used(self, user_id: int, year: int) -> int: ...

    async def start_away(self, away: Away, *, year: int, days: int, allowance: int) -> None:
        """Record time away and charge `days` to `year`, in one transaction; raises
        AwayAllowance if that would take more than `allowance` days in the year."""

    async def end_away(self, user_id: int, *, year: int, refund: int) -> None:
        """Forget the user's time away and give `refund` days back to `year`."""

    # -- requests to abandon a game (bot/abandon.py) -----------------------------------
    async def open_abandon_request(
        self, table_id: int, requested_by: int, agreed: Sequence[int], expires_at: datetime
    ) -> AbandonRequest:
        """A new open request to abandon the game, `agreed` already (its asker, if seated).
        Raises TableNotActive unless the game is in play, AbandonPending if the table has
        an open request already."""

    async def set_abandon_message(self, request_id: int, message_id: int) -> None:
        """The channel message that carries the request's buttons."""

    async def abandon_requests(self, table_id: int | None = None) -> list[AbandonRequest]:
        """The open requests of one table (None: of every table), oldest first."""

    async def agree_to_abandon(self, request_id: int, user_id: int) -> AbandonRequest:
        """Add the user to those who agreed (the request as it is then). Raises
        RequestClosed unless the request is open, AlreadyAgreed if the user agreed."""

    async def close_abandon_request(self, request_id: int, status: str) -> AbandonRequest | None:
        """Close an open request as `status` (agreed, refused, lapsed, closed); None, and
        nothing written, if it was not open: whoever closes it first decides."""


@dataclass(frozen=True)
class AbandonRequest:
    """A request to abandon a game in play, answered by every player still seated."""

    id: int
    table_id: int
    requested_by: int
    created_at: datetime
    expires_at: datetime
    status: str = "open"  # open, agreed, refused, lapsed (24 hours passed), closed
    agreed: tuple[int, ...] = ()  # user ids, in the order they agreed
    message_id: int | None = None


class AbandonPending(StoreError):
    """The table has an open request to abandon already."""

    def __init__(self, request: AbandonRequest) -> None:
        super().__init__(f"table {request.table_id} has request {request.id} open")
        self.request = request


class RequestClosed(StoreError):
    """The request to abandon is no longer open (agreed, refused, lapsed or closed)."""

    def __init__(self, request_id: int, status: str) -> None:
        super().__init__(f"request {request_id} is {status}")
        self.status = status


class AlreadyAgreed(StoreError):
    """The user has agreed to this request already."""
