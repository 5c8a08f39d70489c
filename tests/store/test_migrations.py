import asyncio
import sqlite3
from pathlib import Path

import pytest

from meeple_hall.bot.store import Seat, SQLiteStore, StoreError
from meeple_hall.bot.store.sqlite import MIGRATIONS_DIR, Migration, load_migrations
from tests.store.conftest import new_table


def versions_in(db_path: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(db_path) as db:
        return db.execute("SELECT version, name FROM schema_version ORDER BY version").fetchall()


SHIPPED = [(m.version, m.name) for m in load_migrations()]


def write_migrations(directory: Path, *extra: str) -> list[Migration]:
    """The shipped migrations followed by `extra` ones."""
    directory.mkdir()
    for source in MIGRATIONS_DIR.glob("*.sql"):
        (directory / source.name).write_text(source.read_text())
    for number, sql in enumerate(extra, start=len(SHIPPED) + 1):
        (directory / f"{number:04d}_extra{number}.sql").write_text(sql)
    return load_migrations(directory)


def test_the_shipped_migrations():
    assert SHIPPED[:2] == [(1, "initial"), (2, "seat_resigned")]


async def test_migrations_apply_once_and_reopen_is_idempotent(db_path):
    for _ in range(3):
        store = SQLiteStore(db_path)
        await store.open()
        assert await store.schema_version() == len(SHIPPED)
        await store.close()
    assert versions_in(db_path) == SHIPPED


async def test_reopening_keeps_the_data(db_path):
    store = SQLiteStore(db_path)
    await store.open()
    table = await new_table(store)
    await store.close()

    store = SQLiteStore(db_path)
    await store.open()
    assert await store.get_table(table.id) == table
    await store.close()


async def test_a_new_migration_is_applied_on_the_next_open(db_path, tmp_path):
    store = SQLiteStore(db_path)
    await store.open()
    await new_table(store)
    await store.close()

    migrations = write_migrations(
        tmp_path / "migrations", "ALTER TABLE tables ADD COLUMN title TEXT;\n"
    )
    for _ in range(2):
        store = SQLiteStore(db_path, migrations=migrations)
        await store.open()
        assert await store.schema_version() == len(SHIPPED) + 1
        assert len(await store.open_tables()) == 1
        await store.close()
    assert versions_in(db_path) == [*SHIPPED, (len(SHIPPED) + 1, f"extra{len(SHIPPED) + 1}")]


async def test_a_version_1_database_gains_resigned_seats(db_path):
    store = SQLiteStore(db_path, migrations=load_migrations()[:1])
    await store.open()
    await store.close()
    with sqlite3.connect(db_path) as db:
        db.execute(
            "INSERT INTO tables (id, channel_id, host_id, game, seed, status, created_at)"
            " VALUES (1, 500, 7, 'pebbles', '3', 'active', '2026-11-01T00:00:00+00:00')"
        )
        db.execute("INSERT INTO seats VALUES (1, 0, 7, 'Ada', 0), (1, 1, NULL, 'AI', 1)")

    store = SQLiteStore(db_path)
    await store.open()
    loaded = await store.get_table(1)
    await store.close()
    assert loaded.seats == [Seat(7, "Ada"), Seat(None, "AI", ai=True)]
    assert [seat.resigned for seat in loaded.seats] == [False, False]


async def test_a_failing_migration_leaves_nothing_behind(db_path, tmp_path):
    migrations = write_migrations(
        tmp_path / "migrations",
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n",
    )
    store = SQLiteStore(db_path, migrations=migrations)
    with pytest.raises(sqlite3.OperationalError):
        await store.open()
    assert versions_in(db_path) == SHIPPED
    with sqlite3.connect(db_path) as db:
        names = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert "half_done" not in names
    assert "tables" in names

    store = SQLiteStore(db_path)
    await store.open()
    await store.close()


async def test_two_stores_opening_a_new_file_at_once_migrate_it_once(db_path):
    stores = [SQLiteStore(db_path) for _ in range(3)]
    await asyncio.gather(*(store.open() for store in stores))
    for store in stores:
        assert await store.schema_version() == len(SHIPPED)
        await store.close()
    assert versions_in(db_path) == SHIPPED


async def test_a_database_newer_than_the_build_is_refused(db_path):
    store = SQLiteStore(db_path)
    await store.open()
    await store.close()
    with sqlite3.connect(db_path) as db:
        db.execute("INSERT INTO schema_version VALUES (99, 'future', '2030-01-01T00:00:00+00:00')")

    with pytest.raises(StoreError, match="newer than this build"):
        await SQLiteStore(db_path).open()


def test_migrations_must_be_numbered_without_gaps(tmp_path):
    (tmp_path / "0001_initial.sql").write_text("CREATE TABLE a (x);\n")
    (tmp_path / "0003_later.sql").write_text("CREATE TABLE b (x);\n")
    with pytest.raises(StoreError, match="without gaps"):
        load_migrations(tmp_path)


def test_no_migrations_is_an_error(tmp_path):
    with pytest.raises(StoreError, match="no migrations"):
        load_migrations(tmp_path)


def test_migration_files_must_be_named_by_number(tmp_path):
    (tmp_path / "initial.sql").write_text("CREATE TABLE a (x);\n")
    with pytest.raises(StoreError, match=r"NNNN_name\.sql"):
        load_migrations(tmp_path)


def test_a_trigger_body_stays_one_statement():
    migration = Migration(
        1,
        "t",
        "-- a comment; with a semicolon\n"
        "CREATE TABLE a (x);\n"
        "CREATE TRIGGER t BEFORE DELETE ON a\nBEGIN\n    SELECT raise(ABORT, 'no');\nEND;\n"
        "-- trailing comment\n",
    )
    statements = migration.statements()
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")


def test_an_incomplete_statement_is_refused():
    with pytest.raises(StoreError, match="incomplete"):
        Migration(1, "t", "CREATE TABLE a (x);\nCREATE TABLE b (x)\n").statements()


async def test_connection_settings(store, db_path):
    db = store._connection()
    settings = {}
    for pragma in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout"):
        async with db.execute(f"PRAGMA {pragma}") as cursor:
            (settings[pragma],) = await cursor.fetchone()
    assert settings == {
        "journal_mode": "wal",
        "synchronous": 1,  # NORMAL
        "foreign_keys": 1,
        "busy_timeout": 5000,
    }
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)
