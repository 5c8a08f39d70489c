"""The store behind the table: what the bot keeps, and the interface every backend fills.

A game is event-sourced: its setup (game id, seed, options, seats) plus an append-only
action log numbered from 1. Snapshots are a cache that saves replaying long logs; the log
is the truth. Lobbies, table messages and user preferences are kept here too, so a
restarted bot finds everything it had.

`SQLiteStore` is the embedded default; a PostgreSQL backend fills the same interface.
Datetimes handed out are timezone-aware UTC; a naive datetime handed in is taken as UTC.
"""

from __future__ import annotations

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


@dataclass
class Seat:
    user_id: int | None  # None for an AI seat
    name: str
    ai: bool = False
    resigned: bool = False  # the player left; the AI plays the seat out


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
    lobby_message_id: int | None = None
    table_message_id: int | None = None
    result: dict[str, Any] | None = None
    created_at: datetime | None = None
    started_at: datetime | None = None
    ended_at: datetime | None = None

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


@dataclass(frozen=True)
class Snapshot:
    seq: int  # the state after action `seq` (0: the state from setup)
    state: str  # engine.dump()


@dataclass
class UserPrefs:
    user_id: int
    turn_dms: bool = True
    dms_closed: bool = False
    locale: str | None = None  # the Discord locale of the user's last interaction


class Store(Protocol):
    async def open(self) -> None:
        """Connect and apply pending schema migrations."""

    async def close(self) -> None: ...

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
    ) -> Table:
        """A new lobby. Raises ChannelBusy if the channel has an open table."""

    async def get_table(self, table_id: int) -> Table | None: ...

    async def open_table_in(self, channel_id: int) -> Table | None:
        """The lobby or active game in this channel, if any."""

    async def open_tables(self) -> list[Table]:
        """Every lobby and active game, for the bot to pick up at start."""

    async def update_table(self, table: Table) -> None:
        """Save host, seats, options, seed, status, message ids, result and timestamps.

        Raises ChannelBusy if this reopens a table in a channel that has another open one,
        and StoreError if the table does not exist, or if it would change the game, seed,
        options or number of seats once moves are logged (the log must keep replaying).
        """

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
    ) -> None:
        """Append action `seq` in one transaction (with an optional snapshot of the state
        after it). Raises StaleAction if `seq` is not exactly one past the last action, and
        TableNotActive if the game is not active (still a lobby, or over)."""

    async def actions(self, table_id: int, after: int = 0) -> list[LoggedAction]:
        """The log after sequence number `after`, in order."""

    async def last_seq(self, table_id: int) -> int: ...

    async def latest_snapshot(self, table_id: int) -> Snapshot | None:
        """The most recent snapshot stored with an action, if any."""

    # -- users -----------------------------------------------------------------------
    async def get_prefs(self, user_id: int) -> UserPrefs:
        """The user's preferences; the defaults for a user never seen."""

    async def set_prefs(self, prefs: UserPrefs) -> None:
        """Save the DM settings (the locale is kept by `set_locale` alone, so a language
        noted from one interaction never races a setting changed by another)."""

    async def set_locale(self, user_id: int, locale: str) -> None:
        """Record the user's language alone (other preferences are left as they are)."""
