"""Moving a SQLite database to PostgreSQL (`meeple-hall migrate-db`), and proving the move.

The copy takes every table of the schema (both databases brought to the same migration
first), in the order their foreign keys need, keeping every id, in one PostgreSQL
transaction: it lands whole or not at all, and only into a database with no data yet. The
tables come from the schema itself, so a table added by a later migration is copied too.

A snapshot is a cache of one state of its game's log; one that is not what its log replays
to (written by an earlier version, say: bot/snapshots.py) is left out of the copy, and the
bot replays that game from its log.

The check then reads both databases through their stores: every table, seat, log, result
and user preference equal, every game that was started replayed from its setup with its
engine on both sides to the same `dump()`, and every snapshot the copy holds the state its
log replays to (the source's, or none where the source's was left out). `verify` runs the
check alone on a copy made before (`migrate-db --check-only`), e.g. one whose check was
interrupted.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg

from meeple_hall import games
from meeple_hall.bot.snapshots import replayed, snapshot_agrees
from meeple_hall.bot.store.base import LoggedAction, Snapshot, Store, StoreError, Table, TableStatus
from meeple_hall.bot.store.postgres import PostgresStore, asyncpg_dsn, redacted
from meeple_hall.bot.store.sqlite import SQLiteStore


@dataclass
class TransferReport:
    copied: dict[str, int] = field(default_factory=dict)  # table -> rows, in copy order
    replayed: int = 0  # games replayed on both sides to the same state
    left_out: list[int] = field(default_factory=list)  # tables whose snapshot was not copied
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _convert(value: Any, pg_type: str) -> Any:
    """A SQLite value as the PostgreSQL column of type `pg_type` takes it."""
    if value is None:
        return None
    if pg_type == "boolean":
        return bool(value)
    if pg_type in ("jsonb", "ARRAY"):  # arrays (tables.awaiting) are JSON arrays in SQLite
        return json.loads(value)
    if pg_type == "timestamp with time zone":
        moment = datetime.fromisoformat(value)
        return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    if pg_type == "double precision":
        return float(value)
    return value


def _in_dependency_order(references: dict[str, set[str]]) -> list[str]:
    """Table names, each after the tables its foreign keys point at."""
    ordered: list[str] = []
    pending = {name: refs - {name} for name, refs in references.items()}
    while pending:
        ready = sorted(name for name, refs in pending.items() if refs <= set(ordered))
        if not ready:
            raise StoreError(f"foreign keys in a cycle among {sorted(pending)}")
        ordered += ready
        for name in ready:
            del pending[name]
    return ordered


async def _pg_tables(db: asyncpg.Connection) -> dict[str, set[str]]:
    rows = await db.fetch(
        "SELECT c.relname AS name, array_remove(array_agg(DISTINCT r.relname), NULL) AS refs"
        " FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace"
        " LEFT JOIN pg_constraint AS k ON k.conrelid = c.oid AND k.contype = 'f'"
        " LEFT JOIN pg_class AS r ON r.oid = k.confrelid"
        " WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname <> 'schema_version'"
        " GROUP BY c.relname"
    )
    return {row["name"]: set(row["refs"]) for row in rows}


async def _pg_columns(db: asyncpg.Connection, table: str) -> list[tuple[str, str]]:
    rows = await db.fetch(
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
        table,
    )
    return [(row["column_name"], row["data_type"]) for row in rows]


async def _pg_key(db: asyncpg.Connection, table: str) -> list[str]:
    rows = await db.fetch(
        "SELECT a.attname FROM pg_index AS i"
        " JOIN pg_attribute AS a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)"
        " WHERE i.indrelid = $1::regclass AND i.indisprimary"
        " ORDER BY array_position(i.indkey::int2[], a.attnum)",
        table,
    )
    return [row["attname"] for row in rows]


async def _sqlite_tables(db: aiosqlite.Connection) -> set[str]:
    rows = await db.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        " AND name <> 'schema_version'"
    )
    return {row[0] for row in rows}


async def _copy(sqlite_path: str, target: asyncpg.Connection, report: TransferReport) -> None:
    references = await _pg_tables(target)
    source = await aiosqlite.connect(f"file:{sqlite_path}?mode=ro", uri=True)
    try:
        missing = await _sqlite_tables(source) - set(references)
        if missing:
            raise StoreError(f"PostgreSQL has no table for {sorted(missing)}")
        for table in _in_dependency_order(references):
            filled = await target.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{table}")')
            if filled:
                raise StoreError(
                    f"the target database is not empty (table {table} has rows): "
                    "migrate-db only copies into a database without data"
                )
        for table in _in_dependency_order(references):
            columns = await _pg_columns(target, table)
            names = ", ".join(f'"{name}"' for name, _ in columns)
            order = ", ".join(f'"{name}"' for name in await _pg_key(target, table)) or "1"
            marks = ", ".join(f"${n}" for n in range(1, len(columns) + 1))
            insert = f'INSERT INTO "{table}" ({names}) VALUES ({marks})'
            count = 0
            async with source.execute(f"SELECT {names} FROM {table} ORDER BY {order}") as rows:
                while batch := list(await rows.fetchmany(2000)):
                    await target.executemany(
                        insert,
                        [
                            [_convert(v, t) for v, (_, t) in zip(row, columns, strict=True)]
                            for row in batch
                        ],
                    )
                    count += len(batch)
            report.copied[table] = count
        # Ids made from now on follow the copied ones.
        for row in await target.fetch(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND is_identity = 'YES'"
        ):
            table, column = row["table_name"], row["column_name"]
            await target.execute(
                f"SELECT setval(pg_get_serial_sequence($1, $2),"
                f' coalesce(max("{column}"), 1), max("{column}") IS NOT NULL) FROM "{table}"',
                table,
                column,
            )
    finally:
        await source.close()


def _replayed_dump(table: Table, entries: list[LoggedAction]) -> str:
    """The game's state after its whole log, replayed from its setup (undo honoured)."""
    engine = games.get(table.game)
    return engine.dump(replayed(engine, table, entries))


def _holds(table: Table, snapshot: Snapshot, entries: list[LoggedAction]) -> bool:
    """Whether the snapshot is the state its game's log replays to (False for a log that
    does not replay: the copy keeps no snapshot of such a game)."""
    try:
        return snapshot_agrees(games.get(table.game), table, snapshot, entries)
    except Exception:
        return False


async def _stale_snapshots(store: Store, table_ids: list[int]) -> list[int]:
    """The tables among `table_ids` whose snapshot is not what their log replays to."""
    stale = []
    for table_id in table_ids:
        snapshot, table = await store.latest_snapshot(table_id), await store.get_table(table_id)
        if snapshot and table and not _holds(table, snapshot, await store.actions(table_id)):
            stale.append(table_id)
    return stale


async def _compare_snapshots(
    table: Table, log: list[LoggedAction], old: Store, new: Store, report: TransferReport
) -> None:
    """The copy's snapshot is the source's, or none where the source's is not what the log
    replays to; a snapshot in the copy that is not is reported as such."""
    before, after = await old.latest_snapshot(table.id), await new.latest_snapshot(table.id)
    if after is None:
        if before is not None and _holds(table, before, log):
            report.problems.append(f"table {table.id}: the copy lost its snapshot")
    elif not _holds(table, after, log):
        report.problems.append(
            f"table {table.id} ({table.game}): its snapshot at move {after.seq} is not the "
            "state its log replays to"
        )
    elif after != before:
        report.problems.append(f"table {table.id}: the snapshots differ")


async def _compare_table(table_id: int, old: Store, new: Store, report: TransferReport) -> None:
    before, after = await old.get_table(table_id), await new.get_table(table_id)
    if before is None or after is None:
        report.problems.append(f"table {table_id} is missing from the copy")
        return
    if before != after:
        differ = [
            f.name for f in fields(Table) if getattr(before, f.name) != getattr(after, f.name)
        ]
        report.problems.append(f"table {table_id} differs in {', '.join(differ)}")
        return
    log_before, log_after = await old.actions(table_id), await new.actions(table_id)
    if log_before != log_after:
        report.problems.append(f"table {table_id}: the action logs differ")
        return
    await _compare_snapshots(after, log_after, old, new, report)
    if before.status in (TableStatus.LOBBY, TableStatus.CANCELLED):
        return
    try:
        states = _replayed_dump(before, log_before), _replayed_dump(after, log_after)
    except Exception as exc:  # an unknown game, or a log its engine refuses
        report.problems.append(f"table {table_id} ({before.game}) does not replay: {exc}")
        return
    if states[0] != states[1]:
        report.problems.append(f"table {table_id} replays to different states")
    else:
        report.replayed += 1


async def _ids(sqlite_path: str, query: str) -> list[int]:
    source = await aiosqlite.connect(f"file:{sqlite_path}?mode=ro", uri=True)
    try:
        return sorted(row[0] for row in await source.execute_fetchall(query))
    finally:
        await source.close()


async def _table_ids(sqlite_path: str) -> list[int]:
    return await _ids(sqlite_path, "SELECT id FROM tables")


async def _check(sqlite_path: str, old: Store, new: Store, report: TransferReport) -> None:
    user_ids = await _ids(sqlite_path, "SELECT user_id FROM user_prefs")
    for table_id in await _table_ids(sqlite_path):
        await _compare_table(table_id, old, new, report)
    if await old.results() != await new.results():
        report.problems.append("the results tables differ")
    for user_id in user_ids:
        if await old.get_prefs(user_id) != await new.get_prefs(user_id):
            report.problems.append(f"the preferences of user {user_id} differ")
    if await old.language_choices() != await new.language_choices():
        report.problems.append("the chosen languages differ")


CHECKING = "checking: every table, log, snapshot, result and preference, every game replayed"


@asynccontextmanager
async def _both(source_url: str, target_url: str) -> AsyncIterator[tuple[SQLiteStore, Store]]:
    """The SQLite file `source_url` and the PostgreSQL database `target_url`, open, both
    schemas brought to this build's last migration. Raises StoreError if either is not."""
    from meeple_hall.bot.store import open_store

    old, new = open_store(source_url), open_store(target_url)
    if not isinstance(old, SQLiteStore) or old.path == ":memory:":
        raise StoreError(f"--from must name a SQLite file, not {redacted(source_url)}")
    if not isinstance(new, PostgresStore):
        raise StoreError(f"--to must name a PostgreSQL database, not {redacted(target_url)}")
    if not Path(old.path).is_file():
        raise StoreError(f"there is no SQLite database at {old.path}")
    await old.open()
    try:
        await new.open()
        try:
            if await old.schema_version() != await new.schema_version():
                raise StoreError("the two schemas are at different versions")
            yield old, new
        finally:
            await new.close()
    finally:
        await old.close()


async def transfer(
    source_url: str, target_url: str, *, say: Callable[[str], None] = print
) -> TransferReport:
    """Copy the SQLite database `source_url` into the empty PostgreSQL database
    `target_url`, then check the copy. Raises StoreError if it cannot start."""
    report = TransferReport()
    async with _both(source_url, target_url) as (old, new):
        say(f"copying {old.path} into {redacted(target_url)}")
        target = await asyncpg.connect(asyncpg_dsn(target_url))
        try:
            await target.set_type_codec(
                "jsonb", encoder=json.dumps, decoder=json.loads, schema="pg_catalog"
            )
            async with target.transaction():
                await _copy(old.path, target, report)
                report.left_out = await _stale_snapshots(old, await _table_ids(old.path))
                for table_id in report.left_out:
                    await target.execute("DELETE FROM snapshots WHERE table_id = $1", table_id)
        finally:
            await target.close()
        for table, count in report.copied.items():
            say(f"  {table:<20} {count:>9} rows")
        if report.left_out:
            say(
                f"  left out {len(report.left_out)} snapshots that are not the state their "
                f"game's log replays to (tables {', '.join(map(str, report.left_out))}): "
                "the bot replays those games from their logs"
            )
        say(CHECKING)
        await _check(old.path, old, new, report)
    return report


async def verify(
    source_url: str, target_url: str, *, say: Callable[[str], None] = print
) -> TransferReport:
    """The check alone, on a copy made before (`migrate-db --check-only`): what differs
    between the two databases. Raises StoreError if it cannot start."""
    report = TransferReport()
    async with _both(source_url, target_url) as (old, new):
        say(CHECKING)
        await _check(old.path, old, new, report)
    return report
