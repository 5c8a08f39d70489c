from pathlib import Path

import pytest

from meeple_hall.bot.store import FinalResult, Seat, SQLiteStore, Table, TableStatus

HOST = 1001
GUEST = 1002


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "meeple-hall.db"


@pytest.fixture
async def store(db_path: Path):
    store = SQLiteStore(db_path)
    await store.open()
    yield store
    await store.close()


async def new_table(
    store: SQLiteStore, channel_id: int = 500, seats: list[Seat] | None = None
) -> Table:
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
    store: SQLiteStore, channel_id: int = 500, seats: list[Seat] | None = None
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
    store: SQLiteStore,
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
