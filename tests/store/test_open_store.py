from pathlib import Path

import pytest

from meeple_hall.bot.store import DEFAULT_SQLITE_PATH, SQLiteStore, StoreError, open_store
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
    "url",
    ["postgresql://bot:secret@db/meeple", "postgres://db/meeple", "postgresql+asyncpg://db/m"],
)
def test_postgresql_is_not_in_this_build_yet(url):
    with pytest.raises(StoreError, match="PostgreSQL is not available yet") as error:
        open_store(url)
    assert "secret" not in str(error.value)


@pytest.mark.parametrize("url", ["mysql://db/meeple", "redis://cache"])
def test_unknown_schemes_name_the_supported_ones(url):
    with pytest.raises(StoreError, match="unsupported") as error:
        open_store(url)
    assert "sqlite:///" in str(error.value)


@pytest.mark.parametrize("url", ["sqlite://", "sqlite://games.db", "sqlite:///"])
def test_a_sqlite_url_without_a_path_is_refused(url):
    with pytest.raises(StoreError, match="SQLite path"):
        open_store(url)
