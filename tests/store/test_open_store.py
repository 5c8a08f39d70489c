from pathlib import Path

import pytest

from meeple_hall.bot.store import (
    DEFAULT_SQLITE_PATH,
    PostgresStore,
    SQLiteStore,
    StoreError,
    open_store,
)
from meeple_hall.bot.store.postgres import asyncpg_dsn
from tests.store.conftest import new_table


@pytest.mark.parametrize(
    ("url", "path"),
    [
        (None, "meeple-hall.db"),
        ("", "meeple-hall.db"),
        ("sqlite:///data/games.db", "data/games.db"),
        ("sqlite:////var/lib/meeple/games.db", "/var/lib/meeple/games.db"),
        ("games.db", "games.db"),
        ("/srv/meeple/games.db", "/srv/meeple/games.db"),
        ("sqlite://:memory:", ":memory:"),
        ("sqlite:///:memory:", ":memory:"),
        ("SQLite:///games.db", "games.db"),
    ],
)
def test_database_urls_name_a_sqlite_file(url, path):
    store = open_store(url)
    assert isinstance(store, SQLiteStore)
    assert store.path == path


async def test_the_default_is_a_file_in_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    store = open_store(None)
    await store.open()
    await new_table(store)
    await store.close()
    assert (tmp_path / DEFAULT_SQLITE_PATH).is_file()


async def test_a_relative_sqlite_url_makes_its_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    store = open_store("sqlite:///volume/meeple.db")
    await store.open()
    await store.close()
    assert (tmp_path / "volume" / "meeple.db").is_file()


async def test_an_absolute_sqlite_url(tmp_path):
    path = tmp_path / "abs.db"
    store = open_store(f"sqlite:///{path}")
    assert Path(store.path) == path
    await store.open()
    await store.close()
    assert path.is_file()


async def test_memory_databases_are_private_and_work(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    first, second = open_store("sqlite://:memory:"), open_store("sqlite://:memory:")
    await first.open()
    await second.open()
    table = await new_table(first)
    assert await first.get_table(table.id) == table
    assert await second.open_tables() == []
    await first.close()
    await second.close()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("url", "dsn"),
    [
        ("postgresql://bot:secret@db/meeple", "postgresql://bot:secret@db/meeple"),
        ("postgres://db/meeple", "postgres://db/meeple"),
        ("PostgreSQL://db/meeple", "PostgreSQL://db/meeple"),
        ("postgresql+asyncpg://db/m", "postgresql://db/m"),
        ("postgresql:///meeple?host=/run/postgresql", "postgresql:///meeple?host=/run/postgresql"),
    ],
)
def test_postgresql_urls_name_a_postgresql_database(url, dsn):
    store = open_store(url)
    assert isinstance(store, PostgresStore)
    assert asyncpg_dsn(store.url) == dsn
    assert "secret" not in repr(store)


async def test_an_unreachable_postgresql_server_is_a_clear_error_without_the_password(tmp_path):
    # A Unix socket folder with no server in it: refused at once, no network involved.
    store = open_store(f"postgresql://bot:secret@/meeple?host={tmp_path}")
    with pytest.raises(StoreError, match="cannot connect to PostgreSQL") as error:
        await store.open()
    assert "secret" not in str(error.value) and "***" in str(error.value)
    with pytest.raises(StoreError, match="not open"):
        await store.open_tables()


@pytest.mark.parametrize("url", ["mysql://db/meeple", "redis://cache"])
def test_unknown_schemes_name_the_supported_ones(url):
    with pytest.raises(StoreError, match="unsupported") as error:
        open_store(url)
    assert "sqlite:///" in str(error.value) and "postgresql://" in str(error.value)


@pytest.mark.parametrize("url", ["sqlite://", "sqlite://games.db", "sqlite:///"])
def test_a_sqlite_url_without_a_path_is_refused(url):
    with pytest.raises(StoreError, match="SQLite path"):
        open_store(url)
