"""What is PostgreSQL's own: the schema's guarantees seen from raw SQL, its migrations (kept
in step with SQLite's), races between stores that only a server can have, and a move
cancelled half-way. The Store's behaviour itself is tested on both backends elsewhere."""

import asyncio
import contextlib
import random
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from meeple_hall.bot.store import ChannelBusy, PostgresStore, Snapshot, StaleAction, StoreError
from meeple_hall.bot.store.schema import Migration, load_migrations
from meeple_hall.bot.store.sql import ONE_OPEN_PER_CHANNEL
from tests.store.conftest import HOST, active_table, new_table

SHIPPED = [(m.version, m.name) for m in load_migrations("pg")]


@pytest.fixture
def backend() -> str:
    """Every store and database here is PostgreSQL's."""
    return "postgres"


def test_both_dialects_read_one_list_of_migrations():
    """Same numbers, same names: a schema change is made for both backends or for none."""
    sqlite = load_migrations("sqlite")
    assert [(m.version, m.name) for m in sqlite] == SHIPPED
    differing = [m.version for m, p in zip(sqlite, load_migrations("pg"), strict=True) if m != p]
    assert 1 in differing and 3 not in differing  # types differ; a TEXT column does not


async def raw(database_url: str) -> asyncpg.Connection:
    return await asyncpg.connect(database_url)


async def versions(database_url: str) -> list[tuple[int, str]]:
    db = await raw(database_url)
    try:
        rows = await db.fetch("SELECT version, name FROM schema_version ORDER BY version")
    finally:
        await db.close()
    return [(row["version"], row["name"]) for row in rows]


async def test_the_schema_itself_allows_one_open_table_per_channel(store, database_url):
    await new_table(store)
    db = await raw(database_url)
    try:
        with pytest.raises(asyncpg.UniqueViolationError, match=ONE_OPEN_PER_CHANNEL):
            await db.execute(
                "INSERT INTO tables (channel_id, host_id, game, seed, status, created_at)"
                " VALUES (500, 1, 'pebbles', '1', 'active', now())"
            )
    finally:
        await db.close()


async def test_the_log_is_append_only_in_the_schema(store, database_url):
    table = await active_table(store)
    await store.append_action(table.id, 1, 0, ("a",), HOST)
    db = await raw(database_url)
    try:
        for statement, message in (
            ("UPDATE actions SET choices = '[\"b\"]'", "append-only"),
            ("DELETE FROM actions", "append-only"),
            ("TRUNCATE actions CASCADE", "append-only"),
            (
                f"INSERT INTO actions VALUES ({table.id}, 3, 0, '[]', NULL, now())",
                "in sequence",
            ),
        ):
            with pytest.raises(asyncpg.IntegrityConstraintViolationError, match=message):
                await db.execute(statement)
    finally:
        await db.close()
    assert [a.choices for a in await store.actions(table.id)] == [("a",)]


async def test_two_lobbies_opened_in_one_channel_at_once_leave_one(store, open_another):
    others = [await open_another() for _ in range(3)]
    outcomes = await asyncio.gather(
        *(new_table(s, channel_id=77) for s in [store, *others]), return_exceptions=True
    )
    made = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(made) == 1
    assert all(isinstance(o, ChannelBusy) and o.table_id == made[0].id for o in refused)
    assert (await store.open_table_in(77)).id == made[0].id


async def test_a_cancelled_append_leaves_the_store_whole(store, open_another):
    """Cancelled at any moment, a move is logged whole (with its snapshot) or not at all, the
    row lock goes with the transaction, and the store goes on."""
    other = await open_another()
    table = await active_table(store)
    rng = random.Random(16)
    cancelled = 0
    for _ in range(40):
        seq = await store.last_seq(table.id) + 1
        task = asyncio.create_task(
            store.append_action(table.id, seq, 0, ("c",), HOST, snapshot=f"after {seq}")
        )
        await asyncio.sleep(rng.uniform(0, 0.004))
        cancelled += task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        last = await other.last_seq(table.id)
        assert last in (seq - 1, seq)
        await asyncio.wait_for(other.append_action(table.id, last + 1, 1, ("o",), None), 5)
    assert cancelled > 0
    logged = await store.actions(table.id)
    assert [a.seq for a in logged] == list(range(1, len(logged) + 1))
    snapshot = await store.latest_snapshot(table.id)
    with_snapshot = [a.seq for a in logged if a.choices == ("c",)]
    assert snapshot == (
        Snapshot(with_snapshot[-1], f"after {with_snapshot[-1]}") if with_snapshot else None
    )


async def test_migrations_apply_once_and_reopen_is_idempotent(database_url):
    for _ in range(3):
        store = PostgresStore(database_url)
        await store.open()
        assert await store.schema_version() == len(SHIPPED)
        await store.close()
    assert await versions(database_url) == SHIPPED


async def test_stores_opening_a_new_database_at_once_migrate_it_once(database_url):
    stores = [PostgresStore(database_url) for _ in range(3)]
    await asyncio.gather(*(store.open() for store in stores))
    for store in stores:
        assert await store.schema_version() == len(SHIPPED)
        await store.close()
    assert await versions(database_url) == SHIPPED


def with_extra(*extra: str) -> list[Migration]:
    shipped = load_migrations("pg")
    return shipped + [
        Migration(number, f"extra{number}", sql)
        for number, sql in enumerate(extra, start=len(shipped) + 1)
    ]


async def test_a_new_migration_is_applied_on_the_next_open(database_url):
    store = PostgresStore(database_url)
    await store.open()
    await new_table(store)
    await store.close()

    for _ in range(2):
        store = PostgresStore(
            database_url, migrations=with_extra("ALTER TABLE tables ADD title text;")
        )
        await store.open()
        assert await store.schema_version() == len(SHIPPED) + 1
        assert len(await store.open_tables()) == 1
        await store.close()
    assert (await versions(database_url))[-1] == (len(SHIPPED) + 1, f"extra{len(SHIPPED) + 1}")


async def test_a_failing_migration_leaves_nothing_behind(database_url):
    failing = with_extra(
        "CREATE TABLE half_done (x integer);\nINSERT INTO no_such_table VALUES (1);"
    )
    with pytest.raises(asyncpg.UndefinedTableError):
        await PostgresStore(database_url, migrations=failing).open()
    assert await versions(database_url) == SHIPPED
    db = await raw(database_url)
    try:
        assert await db.fetchval("SELECT to_regclass('half_done')") is None
        assert await db.fetchval("SELECT to_regclass('tables')") is not None
    finally:
        await db.close()


async def test_a_database_newer_than_the_build_is_refused(database_url):
    store = PostgresStore(database_url)
    await store.open()
    await store.close()
    db = await raw(database_url)
    await db.execute("INSERT INTO schema_version VALUES (99, 'future', now())")
    await db.close()
    with pytest.raises(StoreError, match="newer than this build"):
        await PostgresStore(database_url).open()


async def test_a_database_that_is_not_there_is_a_clear_error(database_url):
    url = urlunsplit(urlsplit(database_url)._replace(path="/no_such_database"))
    with pytest.raises(StoreError, match="cannot connect to PostgreSQL") as error:
        await PostgresStore(url).open()
    assert "no_such_database" in str(error.value)


async def test_a_racing_move_from_another_store_is_stale(store, open_another):
    other = await open_another()
    table = await active_table(store)
    await other.append_action(table.id, 1, 0, ("first",), HOST)
    with pytest.raises(StaleAction) as stale:
        await store.append_action(table.id, 1, 0, ("second",), HOST)
    assert (stale.value.expected, stale.value.current) == (1, 1)
