import sqlite3
from datetime import UTC, datetime, timedelta, timezone

import pytest

from meeple_hall.bot.store import (
    ChannelBusy,
    Seat,
    StoreError,
    TableStatus,
    UserPrefs,
    open_store,
)
from meeple_hall.bot.store.dialect import SQLiteConnection
from tests.store.conftest import (
    GUEST,
    HOST,
    active_table,
    closed_table,
    new_table,
    result_for,
    sqlite_only,
)


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

    await store.start_table(table.id, min_seats=1, max_seats=4)
    with pytest.raises(ChannelBusy):
        await new_table(store)
    assert [t.id for t in await store.open_tables()] == [table.id]


@pytest.mark.parametrize(
    "status", [TableStatus.FINISHED, TableStatus.CANCELLED, TableStatus.ABANDONED]
)
async def test_a_closed_table_frees_its_channel(store, status):
    old = await closed_table(store, status)
    assert old.status is status
    assert (await store.get_table(old.id)).status is status

    new = await new_table(store)
    assert (await store.open_table_in(500)).id == new.id


@sqlite_only  # PostgreSQL's twin is in test_postgres.py
async def test_the_schema_itself_allows_one_open_table_per_channel(store, db_path):
    await new_table(store)
    with sqlite3.connect(db_path) as db, pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
        db.execute(
            "INSERT INTO tables (channel_id, host_id, game, seed, status, created_at)"
            " VALUES (500, 1, 'pebbles', '1', 'active', '2026-01-01T00:00:00+00:00')"
        )


async def test_each_command_returns_the_table_as_stored(store):
    table = await new_table(store, seats=[Seat(HOST, "Ada")])
    await store.set_lobby_message(table.id, 9001)
    assert await store.set_option(table.id, "variant", "long") == await store.get_table(table.id)
    joined = await store.add_seat(table.id, Seat(GUEST, "Bo"), max_seats=4)
    assert joined == await store.get_table(table.id)
    assert joined.options == {"variant": "long"} and joined.lobby_message_id == 9001
    assert joined.seats == [Seat(HOST, "Ada"), Seat(GUEST, "Bo")]

    started = await store.start_table(table.id, min_seats=2, max_seats=4)
    assert started.status is TableStatus.ACTIVE and started.started_at.tzinfo == UTC
    await store.set_table_message(table.id, 9002)
    finished = await store.finish_table(table.id, result_for(started))
    assert finished == await store.get_table(table.id)
    assert finished.table_message_id == 9002
    assert finished.result == {
        "scores": [10, 9],
        "ranks": [1, 2],
        "breakdown": [{"pebbles": 10}, {"pebbles": 9}],
    }
    assert finished.started_at <= finished.ended_at
    assert await store.open_tables() == []


def test_datetimes_are_stored_in_utc():
    sqlite = SQLiteConnection(None)  # type: ignore[arg-type]  # its values need no connection
    _to_text, _from_text = sqlite.moment, sqlite.read_moment
    tokyo = datetime(2026, 11, 22, 9, 30, tzinfo=timezone(timedelta(hours=9)))
    assert _from_text(_to_text(tokyo)) == datetime(2026, 11, 22, 0, 30, tzinfo=UTC)
    assert _from_text(_to_text(tokyo)).utcoffset() == timedelta(0)
    naive = datetime(2026, 11, 22, 1, 0)  # taken as UTC
    assert _from_text(_to_text(naive)) == datetime(2026, 11, 22, 1, 0, tzinfo=UTC)


async def test_commands_on_a_table_that_does_not_exist_are_errors(store):
    table = await new_table(store)
    for command in (
        store.set_table_message(table.id + 1, 1),
        store.add_seat(table.id + 1, Seat(GUEST, "Bo"), max_seats=4),
        store.resign_seat(table.id + 1, 0),
    ):
        with pytest.raises(StoreError, match="no table"):
            await command


async def test_a_player_can_resign_after_moves(store):
    table = await active_table(store, seats=[Seat(HOST, "Ada"), Seat(GUEST, "Bo")])
    await store.append_action(table.id, 1, 0, ("take", "2"), HOST)
    resigned = await store.resign_seat(table.id, 0)
    assert resigned.seats[0] == Seat(HOST, "Ada", ai=True, resigned=True)
    assert resigned == await store.get_table(table.id)
    assert resigned.status is TableStatus.ACTIVE


async def test_a_seat_owed_a_turn_dm_is_kept_until_cleared(database_url):
    """SIMULATION_FINDINGS.md finding 11: what bot/display.py keeps of the turn DMs owed,
    seat by seat, survives the store being closed and opened again."""
    store = open_store(database_url)
    await store.open()
    seats = [Seat(HOST, "Ada"), Seat(GUEST, "Bo"), Seat(None, "AI 1", ai=True)]
    table = await active_table(store, seats=seats)
    assert [s.turn_dm_owed for s in table.seats] == [False, False, False]
    await store.set_turn_dm_owed(table.id, [0, 1], True)
    await store.set_turn_dm_owed(table.id, [0], False)
    await store.set_turn_dm_owed(table.id, [], False)  # nothing to write
    await store.close()
    store = open_store(database_url)
    await store.open()
    try:
        kept = await store.get_table(table.id)
        assert [s.turn_dm_owed for s in kept.seats] == [False, True, False]
        assert [s.turn_dm_owed for s in (await store.open_tables())[0].seats] == [
            False,
            True,
            False,
        ]
    finally:
        await store.close()


async def test_the_private_text_last_sent_is_kept_per_seat(database_url):
    """Finding 11's leftover: the digest of the private text last sent to each seat
    (bot/display.py) starts as none sent (""), is written seat by seat, and survives the
    store being closed and opened again."""
    store = open_store(database_url)
    await store.open()
    seats = [Seat(HOST, "Ada"), Seat(GUEST, "Bo"), Seat(None, "AI 1", ai=True)]
    table = await active_table(store, seats=seats)
    assert [s.private_sent for s in table.seats] == ["", "", ""]
    assert [s.private_sent for s in (await store.get_table(table.id)).seats] == ["", "", ""]
    await store.set_private_sent(table.id, {0: "0123456789abcdef", 1: "fedcba9876543210"})
    await store.set_private_sent(table.id, {1: "00000000000000ff"})
    await store.set_private_sent(table.id, {})  # nothing to write
    await store.close()
    store = open_store(database_url)
    await store.open()
    try:
        kept = await store.get_table(table.id)
        assert [s.private_sent for s in kept.seats] == [
            "0123456789abcdef",
            "00000000000000ff",
            "",
        ]
        assert (await store.open_tables())[0].seats == kept.seats
    finally:
        await store.close()


async def test_the_last_human_resigning_abandons_the_game(store):
    table = await active_table(store)  # Ada and an AI seat
    resigned = await store.resign_seat(table.id, 0)
    assert resigned.status is TableStatus.ABANDONED and resigned.ended_at is not None
    assert await store.open_tables() == []
    assert await store.results() == []


async def test_open_tables_survive_reopening_the_database(database_url):
    store = open_store(database_url)
    await store.open()
    lobby = await new_table(store, channel_id=1)
    game = await active_table(store, channel_id=2)
    await store.append_action(game.id, 1, 0, ("take", "1"), HOST)
    await closed_table(store, TableStatus.FINISHED, channel_id=3)
    await store.close()

    store = open_store(database_url)
    await store.open()
    assert await store.open_tables() == [lobby, game]
    assert await store.last_seq(game.id) == 1
    await store.close()


async def test_tables_for_user_finds_seated_users_only(store):
    mine = await new_table(store, channel_id=1)
    theirs = await new_table(store, channel_id=2, seats=[Seat(GUEST, "Bo")])
    finished = await closed_table(
        store, TableStatus.FINISHED, channel_id=3, seats=[Seat(GUEST, "Bo"), Seat(HOST, "Ada")]
    )

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


async def test_a_closed_store_says_so(database_url):
    store = open_store(database_url)
    with pytest.raises(StoreError, match="not open"):
        await store.open_tables()
    await store.open()
    await store.close()
    await store.close()
    with pytest.raises(StoreError, match="not open"):
        await store.get_prefs(HOST)


async def test_prefs_keep_the_users_language(store):
    await store.set_locale(7, "zh-TW")
    await store.set_prefs(UserPrefs(7, turn_dms=False))
    assert (await store.get_prefs(7)) == UserPrefs(7, turn_dms=False, locale="zh-TW")
    assert (await store.get_prefs(8)).locale is None
    await store.set_locale(7, "ja")
    assert (await store.get_prefs(7)) == UserPrefs(7, turn_dms=False, locale="ja")


def test_postgresql_placeholders_are_numbered_outside_quotes():
    from meeple_hall.bot.store.dialect import _postgres, _sqlite

    sql = "SELECT '?', \"a?\" FROM t WHERE x = ? AND y = 'it''s ?' AND z = ? FOR UPDATE"
    assert _postgres(sql) == (
        "SELECT '?', \"a?\" FROM t WHERE x = $1 AND y = 'it''s ?' AND z = $2 FOR UPDATE"
    )
    assert _sqlite(sql) == sql.removesuffix(" FOR UPDATE")
