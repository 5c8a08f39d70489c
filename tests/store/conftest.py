"""The store tests run on both backends: the `store` fixture is a SQLite file, then a fresh
PostgreSQL database (tests/postgres.py starts the server). A test about SQLite's file
itself (WAL, PRAGMAs, raw sqlite3 access, its migration files) is marked @sqlite_only."""

from pathlib import Path

import pytest

from meeple_hall.bot.store import FinalResult, Seat, Store, Table, TableStatus, open_store

HOST = 1001
GUEST = 1002

BACKENDS = ["sqlite", "postgres"]
# Runs on SQLite only: the test is about SQLite's file, not the Store's behaviour.
sqlite_only = pytest.mark.parametrize("backend", ["sqlite"])


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "meeple-hall.db"


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def database_url(backend: str, db_path: Path, request: pytest.FixtureRequest) -> str:
    """The test's own database on `backend`, empty; on PostgreSQL, migrated already where the
    test takes the `store` (the migrations are tested from an empty database elsewhere)."""
    if backend == "sqlite":
        return f"sqlite:///{db_path}"
    if "store" in request.fixturenames:
        return request.getfixturevalue("migrated_postgres_url")
    return request.getfixturevalue("postgres_url")


@pytest.fixture
async def store(database_url: str):
    store = open_store(database_url)
    await store.open()
    yield store
    await store.close()


@pytest.fixture
async def open_another(database_url: str):
    """Opens more stores on the test's database (as another process would), closed after."""
    opened: list[Store] = []

    async def another() -> Store:
        opened.append(open_store(database_url))
        await opened[-1].open()
        return opened[-1]

    yield another
    for other in opened:
        await other.close()


async def new_table(store: Store, channel_id: int = 500, seats: list[Seat] | None = None) -> Table:
    return await store.create_table(
        guild_id=42,
        channel_id=channel_id,
        host_id=HOST,
        game="pebbles",
        options={"variant": "short"},
        seed=7,
        seats=seats if seats is not None else [Seat(HOST, "Ada"), Seat(None, "AI 1", ai=True)],
    )


async def active_table(
    store: Store, channel_id: int = 500, seats: list[Seat] | None = None
) -> Table:
    table = await new_table(store, channel_id, seats)
    return await store.start_table(table.id, min_seats=1, max_seats=6)


def result_for(table: Table) -> FinalResult:
    """Seat 1 wins by a point over seat 2, and so on."""
    count = len(table.seats)
    return FinalResult(
        scores=tuple(10 - seat for seat in range(count)),
        ranks=tuple(range(1, count + 1)),
        breakdown=tuple({"pebbles": 10 - seat} for seat in range(count)),
    )


async def closed_table(
    store: Store,
    status: TableStatus,
    channel_id: int = 500,
    seats: list[Seat] | None = None,
) -> Table:
    """A table that ended as `status`, through the store's own commands."""
    if status is TableStatus.CANCELLED:
        return await store.cancel_lobby((await new_table(store, channel_id, seats)).id)
    table = await active_table(store, channel_id, seats)
    if status is TableStatus.ABANDONED:
        return await store.abandon_table(table.id)
    assert status is TableStatus.FINISHED
    return await store.finish_table(table.id, result_for(table))
