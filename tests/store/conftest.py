from pathlib import Path

import pytest

from meeple_hall.bot.store import Seat, SQLiteStore, Table, TableStatus

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


async def active_table(store: SQLiteStore, channel_id: int = 500) -> Table:
    table = await new_table(store, channel_id)
    table.status = TableStatus.ACTIVE
    await store.update_table(table)
    return table
