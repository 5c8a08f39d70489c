"""The two dialects the store's SQL is written for, and nothing else.

The store's statements (bot/store/sql.py, bot/store/community.py) are written once, with `?`
placeholders, ` FOR UPDATE` where a row lock is meant, and rows read by column name. A
`Connection` runs them on one backend's connection and converts the values whose storage
differs:

| what               | SQLite (aiosqlite)               | PostgreSQL (asyncpg)            |
| ------------------ | -------------------------------- | ------------------------------- |
| placeholders       | `?`                              | `$1, $2, …`                     |
| `FOR UPDATE`       | dropped: BEGIN IMMEDIATE already | kept: the row lock              |
|                    | holds the file's write lock      |                                 |
| moments            | ISO 8601 text in UTC             | timestamptz                     |
| JSON columns       | text                             | jsonb (the pool's codec)        |
| integer arrays     | JSON text                        | integer[] / bigint[]            |
| a JSON object key  | json_extract(col, '$."key"')     | col ->> key                     |
| the larger of two  | max(a, b)                        | greatest(a, b)                  |
| affected rows      | the cursor's rowcount            | the status tag ("UPDATE 2")     |

Booleans are handed in as Python bools (SQLite stores 0 and 1) and read back through
`bool()`. Which connection a command gets, and its transaction, is the store's business
(bot/store/sqlite.py, bot/store/postgres.py).
"""

from __future__ import annotations

import json
import re
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, ClassVar

import aiosqlite
import asyncpg

from meeple_hall.bot.store.base import StoreError

# sqlite3.Row or asyncpg.Record: both read by column name (and by position)
Row = Any


def to_json(value: Any) -> str:
    """The one JSON text the store writes: sorted keys, no spaces, Unicode as it is."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def as_utc(moment: datetime | None) -> datetime | None:
    """`moment` in UTC; a naive datetime is taken as UTC."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


class Connection(ABC):
    """One backend connection, speaking the store's SQL in its dialect."""

    greatest: ClassVar[str]  # the SQL function for the larger of two values
    moment_type: ClassVar[str]  # the column type of a moment

    # -- running statements --------------------------------------------------------------
    @abstractmethod
    async def fetch(self, sql: str, *params: Any) -> list[Row]: ...

    async def fetchrow(self, sql: str, *params: Any) -> Row | None:
        rows = await self.fetch(sql, *params)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, *params: Any) -> Any:
        row = await self.fetchrow(sql, *params)
        return None if row is None else row[0]

    @abstractmethod
    async def execute(self, sql: str, *params: Any) -> int:
        """Run one statement; how many rows it changed."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    @abstractmethod
    async def run_script(self, sql: str) -> None:
        """A migration's script, in the transaction that is open."""

    # -- values whose storage differs ------------------------------------------------------
    @abstractmethod
    def moment(self, value: datetime | None) -> Any: ...

    @abstractmethod
    def read_moment(self, stored: Any) -> datetime | None: ...

    def read_set_moment(self, stored: Any) -> datetime:
        """The moment of a NOT NULL column."""
        moment = self.read_moment(stored)
        if moment is None:
            raise StoreError("a moment the schema keeps NOT NULL is missing")
        return moment

    @abstractmethod
    def json(self, value: Any) -> Any: ...

    @abstractmethod
    def read_json(self, stored: Any) -> Any: ...

    @abstractmethod
    def ints(self, values: Iterable[int] | None) -> Any:
        """An integer array column's value (None stays NULL)."""

    @abstractmethod
    def read_ints(self, stored: Any) -> tuple[int, ...] | None: ...

    @abstractmethod
    def json_key(self, column: str) -> str:
        """SQL for the text at one key (the next `?`) of the JSON object in `column`."""

    @staticmethod
    def marks(values: Sequence[Any]) -> str:
        """`?, ?, …`, one a value, for `IN (…)`."""
        return ", ".join("?" * len(values))


class SQLiteConnection(Connection):
    greatest = "max"
    moment_type = "TEXT"

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    async def fetch(self, sql: str, *params: Any) -> list[Row]:
        return list(await self.db.execute_fetchall(_sqlite(sql), params))

    async def execute(self, sql: str, *params: Any) -> int:
        cursor = await self.db.execute(_sqlite(sql), params)
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        # Row by row, never sqlite3's executemany: its cursor keeps the prepared statement,
        # the one the connection caches for the next run of the same SQL. That cursor goes
        # to the event loop, and the thread that frees it (the garbage collector's, when a
        # reference cycle holds it) resets the statement; if aiosqlite's thread is running
        # it then, CPython can mark it not in use while it is, it is left unreset, and the
        # next bind fails with SQLITE_MISUSE (tests/store/test_sqlite_misuse.py). An
        # execute's cursor lets go of its statement once the statement is done.
        statement = _sqlite(sql)
        for row in rows:
            await self.db.execute(statement, row)

    async def run_script(self, sql: str) -> None:
        # One statement at a time: executescript would COMMIT the transaction first.
        for statement in sqlite_statements(sql):
            await self.db.execute(statement)

    def moment(self, value: datetime | None) -> str | None:
        moment = as_utc(value)
        return None if moment is None else moment.isoformat()

    def read_moment(self, stored: str | None) -> datetime | None:
        return None if stored is None else datetime.fromisoformat(stored)

    def json(self, value: Any) -> str:
        return to_json(value)

    def read_json(self, stored: str | None) -> Any:
        return None if stored is None else json.loads(stored)

    def ints(self, values: Iterable[int] | None) -> str | None:
        return None if values is None else to_json(list(values))

    def read_ints(self, stored: str | None) -> tuple[int, ...] | None:
        return None if stored is None else tuple(json.loads(stored))

    def json_key(self, column: str) -> str:
        return f"json_extract({column}, '$.\"' || ? || '\"')"


def sqlite_statements(script: str) -> list[str]:
    """A script cut into single statements (a trigger's body stays whole)."""
    statements: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    leftover = [line for line in pending.splitlines() if not line.strip().startswith("--")]
    if "".join(leftover).strip():
        raise StoreError("the script ends with an incomplete statement")
    return statements


class PostgresConnection(Connection):
    greatest = "greatest"
    moment_type = "timestamptz"

    def __init__(self, db: asyncpg.Connection) -> None:
        self.db = db

    async def fetch(self, sql: str, *params: Any) -> list[Row]:
        return await self.db.fetch(_postgres(sql), *params)

    async def fetchrow(self, sql: str, *params: Any) -> Row | None:
        return await self.db.fetchrow(_postgres(sql), *params)

    async def fetchval(self, sql: str, *params: Any) -> Any:
        return await self.db.fetchval(_postgres(sql), *params)

    async def execute(self, sql: str, *params: Any) -> int:
        status = await self.db.execute(_postgres(sql), *params)
        count = status.rpartition(" ")[2]  # "UPDATE 2", "INSERT 0 1", "SELECT 1"
        return int(count) if count.isdigit() else 0

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.db.executemany(_postgres(sql), rows)

    async def run_script(self, sql: str) -> None:
        await self.db.execute(sql)  # PL/pgSQL bodies hold semicolons: the script goes whole

    def moment(self, value: datetime | None) -> datetime | None:
        return as_utc(value)

    def read_moment(self, stored: datetime | None) -> datetime | None:
        return as_utc(stored)

    def json(self, value: Any) -> Any:
        return value  # the pool's jsonb codec writes it

    def read_json(self, stored: Any) -> Any:
        return stored

    def ints(self, values: Iterable[int] | None) -> list[int] | None:
        return None if values is None else list(values)

    def read_ints(self, stored: list[int] | None) -> tuple[int, ...] | None:
        return None if stored is None else tuple(stored)

    def json_key(self, column: str) -> str:
        return f"{column} ->> ?"


_FOR_UPDATE = re.compile(r"\s+FOR UPDATE\b")
# a quoted literal or name (kept as it is), or a placeholder
_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\?")


@lru_cache(maxsize=512)
def _sqlite(sql: str) -> str:
    return _FOR_UPDATE.sub("", sql)


@lru_cache(maxsize=512)
def _postgres(sql: str) -> str:
    numbers = iter(range(1, sql.count("?") + 1))

    def number(match: re.Match[str]) -> str:
        return f"${next(numbers)}" if match[0] == "?" else match[0]

    return _PLACEHOLDER.sub(number, sql)
