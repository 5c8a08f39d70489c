"""Moving a SQLite database to PostgreSQL (`meeple-hall migrate-db`), and proving the move.

The copy takes every table of the schema (both databases brought to the same migration
first), in the order their foreign keys need, keeping every id, in one PostgreSQL
transaction: it lands whole or not at all, and only into a database with no data yet. The
tables come from the schema itself, so a table added by a later migration is copied too.

The check then reads both databases through their stores: every table, seat, log, snapshot,
result and user preference equal, and every game that was started replayed from its setup
with its engine on both sides to the same `dump()`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg

from meeple_hall import games
from meeple_hall.bot.store.base import Store, StoreError, Table, TableStatus
from meeple_hall.bot.store.postgres import PostgresStore, asyncpg_dsn, redacted
from meeple_hall.bot.store.sqlite import SQLiteStore
from meeple_hall.games.core import undo


@dataclass
class TransferReport:
    copied: dict[str, int] = field(default_factory=dict)  # table -> rows, in copy order
    replayed: int = 0  # games replayed on both sides to the same state
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
                while batch := await rows.fetchmany(2000):
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


def _replayed_dump(table: Table, entries: list[Any]) -> str:
    """The game's state after its whole log, replayed from its setup (undo honoured)."""
    engine = games.get(table.game)
    state, _ = undo.replay(engine, entries, engine.new(len(table.seats), table.seed, table.options))
    return engine.dump(state)


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
    if await old.latest_snapshot(table_id) != await new.latest_snapshot(table_id):
        report.problems.append(f"table {table_id}: the snapshots differ")
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


async def _check(sqlite_path: str, old: Store, new: Store, report: TransferReport) -> None:
    source = await aiosqlite.connect(f"file:{sqlite_path}?mode=ro", uri=True)
    try:
        table_ids = [r[0] for r in await source.execute_fetchall("SELECT id FROM tables")]
        user_ids = [r[0] for r in await source.execute_fetchall("SELECT user_id FROM user_prefs")]
    finally:
        await source.close()
    for table_id in sorted(table_ids):
        await _compare_table(table_id, old, new, report)
    if await old.results() != await new.results():
        report.problems.append("the results tables differ")
    for user_id in user_ids:
        if await old.get_prefs(user_id) != await new.get_prefs(user_id):
            report.problems.append(f"the preferences of user {user_id} differ")
    if await old.language_choices() != await new.language_choices():
        report.problems.append("the chosen languages differ")


async def transfer(
    source_url: str, target_url: str, *, say: Callable[[str], None] = print
) -> TransferReport:
    """Copy the SQLite database `source_url` into the empty PostgreSQL database
    `target_url`, then check the copy. Raises StoreError if it cannot start."""
    from meeple_hall.bot.store import open_store

    old, new = open_store(source_url), open_store(target_url)
    if not isinstance(old, SQLiteStore) or old.path == ":memory:":
        raise StoreError(f"--from must name a SQLite file, not {redacted(source_url)}")
    if not isinstance(new, PostgresStore):
        raise StoreError(f"--to must name a PostgreSQL database, not {redacted(target_url)}")
    if not Path(old.path).is_file():
        raise StoreError(f"there is no SQLite database at {old.path}")
    report = TransferReport()
    # Opening brings both schemas to this build's last migration.
    await old.open()
    try:
        await new.open()
        try:
            if await old.schema_version() != await new.schema_version():
                raise StoreError("the two schemas are at different versions")
            say(f"copying {old.path} into {redacted(target_url)}")
            target = await asyncpg.connect(asyncpg_dsn(target_url))
            try:
                await target.set_type_codec(
                    "jsonb", encoder=json.dumps, decoder=json.loads, schema="pg_catalog"
                )
                async with target.transaction():
                    await _copy(old.path, target, report)
            finally:
                await target.close()
            for table, count in report.copied.items():
                say(f"  {table:<20} {count:>9} rows")
            say("checking: every table, log, result and preference, every game replayed")
            await _check(old.path, old, new, report)
        finally:
            await new.close()
    finally:
        await old.close()
    return report


async def verify(source_url: str, target_url: str) -> TransferReport:
    """The check alone, on a copy made before: what differs between the two databases."""
    from meeple_hall.bot.store import open_store

    old, new = open_store(source_url), open_store(target_url)
    if not isinstance(old, SQLiteStore) or not Path(old.path).is_file():
        raise StoreError(f"there is no SQLite database at {redacted(source_url)}")
    report = TransferReport()
    await old.open()
    try:
        await new.open()
        try:
            await _check(old.path, old, new, report)
        finally:
            await new.close()
    finally:
        await old.close()
    return report
