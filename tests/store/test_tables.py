import sqlite3
from datetime import UTC, datetime, timedelta, timezone

import pytest

from meeple_hall.bot.store import (
    ChannelBusy,
    Seat,
    SQLiteStore,
    StoreError,
    TableStatus,
    UserPrefs,
)
from tests.store.conftest import GUEST, HOST, active_table, new_table


async def test_a_new_table_is_a_lobby_in_its_channel(store):
    before = datetime.now(UTC)
    table = await new_table(store)

    assert table.id > 0
    assert table.status is TableStatus.LOBBY
    assert table.created_at is not None and table.created_at.tzinfo == UTC
    assert before <= table.created_at <= datetime.now(UTC)
    assert await store.get_table(table.id) == table
    assert await store.open_table_in(500) == table
    assert await store.open_table_in(501) is None
    assert await store.get_table(table.id + 1) is None


async def test_seats_round_trip_with_ai_seats_in_order(store):
    seats = [
        Seat(None, "Karla", ai=True),
        Seat(HOST, "Ada"),
        Seat(GUEST, "Bo", ai=True, resigned=True),
        Seat(None, "AI 2", ai=True),
    ]
    table = await new_table(store, seats=seats)

    loaded = await store.get_table(table.id)
    assert loaded.seats == seats
    assert loaded.seat_of(HOST) == 1
    assert loaded.seat_of(9999) is None


async def test_a_lobby_with_no_seats_loads_with_none(store):
    table = await new_table(store, seats=[])
    assert (await store.get_table(table.id)).seats == []


async def test_a_second_open_table_in_a_channel_is_refused(store):
    table = await new_table(store)
    with pytest.raises(ChannelBusy) as busy:
        await new_table(store)
    assert busy.value.table_id == table.id

    table.status = TableStatus.ACTIVE
    await store.update_table(table)
    with pytest.raises(ChannelBusy):
        await new_table(store)
    assert [t.id for t in await store.open_tables()] == [table.id]


@pytest.mark.parametrize(
    "status", [TableStatus.FINISHED, TableStatus.CANCELLED, TableStatus.ABANDONED]
)
async def test_a_closed_table_frees_its_channel(store, status):
    old = await new_table(store)
    old.status = status
    await store.update_table(old)

    new = await new_table(store)
    assert (await store.open_table_in(500)).id == new.id
    assert (await store.get_table(old.id)).status is status


async def test_reopening_a_table_in_a_busy_channel_is_refused(store):
    old = await new_table(store)
    old.status = TableStatus.CANCELLED
    await store.update_table(old)
    new = await new_table(store)

    old.status = TableStatus.LOBBY
    with pytest.raises(ChannelBusy) as busy:
        await store.update_table(old)
    assert busy.value.table_id == new.id
    assert (await store.get_table(old.id)).status is TableStatus.CANCELLED


async def test_the_schema_itself_allows_one_open_table_per_channel(store, db_path):
    await new_table(store)
    with sqlite3.connect(db_path) as db, pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
        db.execute(
            "INSERT INTO tables (channel_id, host_id, game, seed, status, created_at)"
            " VALUES (500, 1, 'pebbles', '1', 'active', '2026-01-01T00:00:00+00:00')"
        )


async def test_update_saves_everything_that_changes(store):
    table = await new_table(store)
    started = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
    table.host_id = GUEST
    table.seats = [Seat(GUEST, "Bo"), Seat(HOST, "Ada"), Seat(None, "AI", ai=True)]
    table.options = {"variant": "long", "map": "b"}
    table.seed = 2**64 - 1  # seeds use all 64 bits
    table.status = TableStatus.ACTIVE
    table.lobby_message_id = 9001
    table.table_message_id = 9002
    table.started_at = started
    await store.update_table(table)
    assert await store.get_table(table.id) == table

    table.status = TableStatus.FINISHED
    table.result = {"scores": [12, 9, 3], "breakdown": [{"pebbles": 12}, {}, {}]}
    table.ended_at = started + timedelta(days=3)
    await store.update_table(table)
    assert await store.get_table(table.id) == table
    assert await store.open_tables() == []


async def test_datetimes_come_back_in_utc(store):
    table = await new_table(store)
    table.started_at = datetime(2026, 11, 22, 9, 30, tzinfo=timezone(timedelta(hours=9)))
    table.ended_at = datetime(2026, 11, 22, 1, 0)  # naive: taken as UTC
    await store.update_table(table)

    loaded = await store.get_table(table.id)
    assert loaded.started_at == datetime(2026, 11, 22, 0, 30, tzinfo=UTC)
    assert loaded.started_at.utcoffset() == timedelta(0)
    assert loaded.ended_at == datetime(2026, 11, 22, 1, 0, tzinfo=UTC)


async def test_updating_a_table_that_does_not_exist_is_an_error(store):
    table = await new_table(store)
    table.id += 1
    with pytest.raises(StoreError, match="no table"):
        await store.update_table(table)


@pytest.mark.parametrize("change", ["game", "seed", "options", "seats"])
async def test_the_setup_is_fixed_once_moves_are_logged(store, change):
    table = await active_table(store)
    await store.append_action(table.id, 1, 0, ("take", "2"), HOST)
    if change == "game":
        table.game = "village"
    elif change == "seed":
        table.seed = 8
    elif change == "options":
        table.options = {}
    else:
        table.seats.append(Seat(GUEST, "Bo"))
    with pytest.raises(StoreError, match="fixed"):
        await store.update_table(table)


async def test_a_player_can_resign_after_moves(store):
    table = await active_table(store)
    await store.append_action(table.id, 1, 0, ("take", "2"), HOST)
    table.seats[0].resigned = True
    table.seats[0].ai = True
    await store.update_table(table)
    assert (await store.get_table(table.id)).seats[0] == Seat(HOST, "Ada", ai=True, resigned=True)


async def test_open_tables_survive_reopening_the_file(db_path):
    store = SQLiteStore(db_path)
    await store.open()
    lobby = await new_table(store, channel_id=1)
    game = await active_table(store, channel_id=2)
    await store.append_action(game.id, 1, 0, ("take", "1"), HOST)
    done = await new_table(store, channel_id=3)
    done.status = TableStatus.FINISHED
    await store.update_table(done)
    await store.close()

    store = SQLiteStore(db_path)
    await store.open()
    assert await store.open_tables() == [lobby, game]
    assert await store.last_seq(game.id) == 1
    await store.close()


async def test_tables_for_user_finds_seated_users_only(store):
    mine = await new_table(store, channel_id=1)
    theirs = await new_table(store, channel_id=2, seats=[Seat(GUEST, "Bo")])
    finished = await new_table(store, channel_id=3, seats=[Seat(GUEST, "Bo"), Seat(HOST, "Ada")])
    finished.status = TableStatus.FINISHED
    await store.update_table(finished)

    assert [t.id for t in await store.tables_for_user(HOST)] == [mine.id]
    assert [t.id for t in await store.tables_for_user(GUEST)] == [theirs.id]
    assert [
        t.id for t in await store.tables_for_user(HOST, (TableStatus.FINISHED, TableStatus.LOBBY))
    ] == [mine.id, finished.id]
    assert (await store.tables_for_user(HOST, (TableStatus.FINISHED,)))[0].seats == [
        Seat(GUEST, "Bo"),
        Seat(HOST, "Ada"),
    ]
    assert await store.tables_for_user(HOST, ()) == []
    assert await store.tables_for_user(9999) == []


async def test_prefs_default_until_set(store):
    assert await store.get_prefs(HOST) == UserPrefs(HOST, turn_dms=True, dms_closed=False)

    await store.set_prefs(UserPrefs(HOST, turn_dms=False))
    await store.set_prefs(UserPrefs(GUEST, dms_closed=True))
    assert await store.get_prefs(HOST) == UserPrefs(HOST, turn_dms=False, dms_closed=False)
    assert await store.get_prefs(GUEST) == UserPrefs(GUEST, turn_dms=True, dms_closed=True)

    await store.set_prefs(UserPrefs(HOST, turn_dms=True, dms_closed=True))
    assert await store.get_prefs(HOST) == UserPrefs(HOST, turn_dms=True, dms_closed=True)


async def test_a_closed_store_says_so(db_path):
    store = SQLiteStore(db_path)
    with pytest.raises(StoreError, match="not open"):
        await store.open_tables()
    await store.open()
    await store.close()
    await store.close()
    with pytest.raises(StoreError, match="not open"):
        await store.get_prefs(HOST)


async def test_prefs_keep_the_users_language(tmp_path):
    from meeple_hall.bot.store import SQLiteStore, UserPrefs

    store = SQLiteStore(tmp_path / "prefs.db")
    await store.open()
    await store.set_locale(7, "zh-TW")
    await store.set_prefs(UserPrefs(7, turn_dms=False))
    assert (await store.get_prefs(7)) == UserPrefs(7, turn_dms=False, locale="zh-TW")
    assert (await store.get_prefs(8)).locale is None
    await store.close()
