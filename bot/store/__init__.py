"""Where the bot keeps its tables, action logs and user preferences.

`open_store(os.environ.get("DATABASE_URL"))` picks the backend (SQLite, or PostgreSQL for
several processes on one database); the caller awaits `.open()`.
"""

from __future__ import annotations

from meeple_hall.bot.store.base import (
    OPEN_STATUSES,
    AlreadySeated,
    ChannelBusy,
    FinalResult,
    LanguageChoices,
    LobbyClosed,
    LobbyFull,
    LoggedAction,
    NotSeated,
    ResultRow,
    RoundExists,
    Seat,
    SeatChanged,
    SeatCount,
    Snapshot,
    StaleAction,
    Store,
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
    UserPrefs,
)
from meeple_hall.bot.store.postgres import PostgresStore
from meeple_hall.bot.store.sqlite import SQLiteStore

__all__ = [
    "DEFAULT_SQLITE_PATH",
    "OPEN_STATUSES",
    "AlreadySeated",
    "ChannelBusy",
    "FinalResult",
    "LanguageChoices",
    "LobbyClosed",
    "LobbyFull",
    "LoggedAction",
    "NotSeated",
    "PostgresStore",
    "ResultRow",
    "RoundExists",
    "SQLiteStore",
    "Seat",
    "SeatChanged",
    "SeatCount",
    "Snapshot",
    "StaleAction",
    "Store",
    "StoreError",
    "Table",
    "TableNotActive",
    "TableStatus",
    "Tournament",
    "TournamentClosed",
    "TournamentPlayer",
    "TournamentResult",
    "TournamentRound",
    "TournamentStatus",
    "TournamentTable",
    "UserPrefs",
    "open_store",
]

DEFAULT_SQLITE_PATH = "meeple-hall.db"

_SUPPORTED = (
    "sqlite:///relative/path.db, sqlite:////absolute/path.db, sqlite://:memory:, "
    "a plain file path, or postgresql://user:password@host:5432/database"
)


def open_store(database_url: str | None) -> Store:
    """The store that `database_url` names, not yet opened.

    None or "" → the SQLite file meeple-hall.db in the working directory;
    "sqlite:///relative/path.db", "sqlite:////absolute/path.db" or a plain file path → that
    SQLite file; "sqlite://:memory:" → a private in-memory database (for tests);
    "postgresql://…" or "postgres://…" (any URL asyncpg accepts, a Unix socket as
    "postgresql:///db?host=/run/postgresql" included) → that PostgreSQL database.
    """
    url = (database_url or "").strip()
    if not url:
        return SQLiteStore(DEFAULT_SQLITE_PATH)
    scheme, separator, rest = url.partition("://")
    if not separator:
        return SQLiteStore(url)
    scheme = scheme.lower()
    if scheme == "sqlite":
        if rest in (":memory:", "/:memory:"):
            return SQLiteStore(":memory:")
        if not rest.startswith("/") or rest == "/":
            raise StoreError(f"cannot read a SQLite path from {url!r}; use {_SUPPORTED}")
        return SQLiteStore(rest[1:])
    if scheme in ("postgresql", "postgres") or scheme.startswith(("postgresql+", "postgres+")):
        return PostgresStore(url)
    raise StoreError(f"unsupported DATABASE_URL scheme {scheme!r}; use {_SUPPORTED}")
