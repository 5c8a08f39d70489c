"""What a bot reads to start without replaying every game (issue 16): the seats each game
awaits, kept with its log; every game's snapshot and log in a fixed number of statements;
a snooze written from any process; and, on PostgreSQL, the changes other processes keep in
memory announced to the others."""

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from meeple_hall.bot.store import Snapshot, Store
from meeple_hall.bot.store.base import Away, SeatClock
from tests.store.conftest import GUEST, HOST, active_table


async def test_the_seats_a_game_awaits_are_kept_with_each_move(store):
    table = await active_table(store)
    assert (await store.get_table(table.id)).awaiting is None  # not known yet
    assert await store.note_awaiting(table.id, 0, [0, 1])
    assert (await store.get_table(table.id)).awaiting == (0, 1)
    await store.append_action(table.id, 1, 0, ("bid2",), HOST, awaiting=[1])
    assert (await store.get_table(table.id)).awaiting == (1,)
    await store.append_actions(table.id, 2, 1, [("a",), ("b",)], None, awaiting=[])
    assert [t.awaiting for t in await store.open_tables()] == [()]
    # a move logged without it (an older version) leaves it unknown again
    await store.append_action(table.id, 4, 0, ("c",), HOST)
    assert (await store.get_table(table.id)).awaiting is None


async def test_awaiting_is_noted_only_where_the_log_still_ends_there(store):
    table = await active_table(store)
    await store.append_action(table.id, 1, 0, ("bid2",), HOST, awaiting=[1])
    assert not await store.note_awaiting(table.id, 0, [0, 1])  # the game moved on
    assert (await store.get_table(table.id)).awaiting == (1,)
    await store.abandon_table(table.id)
    assert not await store.note_awaiting(table.id, 1, [0])  # no longer in play
    assert (await store.get_table(table.id)).awaiting == (1,)


async def test_game_logs_read_each_games_snapshot_and_the_log_after_it(store):
    plain = await active_table(store, channel_id=501)
    snapped = await active_table(store, channel_id=502)
    untouched = await active_table(store, channel_id=503)
    for seq in range(1, 4):
        await store.append_action(plain.id, seq, 0, (f"p{seq}",), HOST)
    for seq in range(1, 6):
        snapshot = "state after 3" if seq == 3 else None
        await store.append_action(snapped.id, seq, seq % 2, (f"s{seq}",), GUEST, snapshot=snapshot)
    logs = await store.game_logs([snapped.id, plain.id, untouched.id, 999_999, plain.id])
    assert set(logs) == {plain.id, snapped.id, untouched.id}  # an unknown id is left out
    assert logs[plain.id].snapshot is None
    assert [(a.seq, a.choices) for a in logs[plain.id].actions] == [
        (1, ("p1",)),
        (2, ("p2",)),
        (3, ("p3",)),
    ]
    assert logs[snapped.id].snapshot == Snapshot(3, "state after 3")
    assert [(a.seq, a.seat, a.user_id) for a in logs[snapped.id].actions] == [
        (4, 0, GUEST),
        (5, 1, GUEST),
    ]
    assert logs[untouched.id].snapshot is None and logs[untouched.id].actions == ()
    # the same as reading each game on its own
    for table_id, log in logs.items():
        after = log.snapshot.seq if log.snapshot else 0
        assert list(log.actions) == await store.actions(table_id, after=after)


async def test_game_logs_of_many_games_at_once(store):
    tables = [await active_table(store, channel_id=600 + n) for n in range(30)]
    for n, table in enumerate(tables):
        for seq in range(1, n % 4 + 1):
            await store.append_action(table.id, seq, 0, (str(seq),), HOST)
    logs = await store.game_logs([t.id for t in tables])
    assert [len(logs[t.id].actions) for t in tables] == [n % 4 for n in range(30)]
    assert await store.game_logs([]) == {}


async def test_a_snooze_is_written_only_for_the_wait_it_was_sent_for(store):
    table = await active_table(store)
    since = datetime(2026, 11, 20, 8, 30, tzinfo=UTC)
    clock = SeatClock(table.id, 0, HOST, since=since, next_remind=since + timedelta(hours=8))
    await store.save_clock(clock)
    stamp = int(since.timestamp())
    assert not await store.snooze_clock(table.id, 0, GUEST, stamp)  # not the seat's player
    assert not await store.snooze_clock(table.id, 0, HOST, stamp - 60)  # another wait
    assert not await store.snooze_clock(table.id, 1, HOST, stamp)  # no such row
    assert not (await store.clocks(table.id))[0].snoozed
    assert await store.snooze_clock(table.id, 0, HOST, stamp)
    assert (await store.clocks(table.id))[0].snoozed
    # The clock service's own copy, saved after, does not take the snooze back while the
    # wait is the same one...
    clock.reminders = 1
    await store.save_clock(clock)
    assert (await store.clocks(table.id))[0].snoozed
    # ...but a new wait starts unsnoozed.
    clock.since = since + timedelta(days=1)
    await store.save_clock(clock)
    assert not (await store.clocks(table.id))[0].snoozed
    clock.since = None
    await store.save_clock(clock)
    assert not await store.snooze_clock(table.id, 0, HOST, stamp)  # the wait is over


# -- what other processes hear (PostgreSQL) ---------------------------------------------------
async def heard_by(listener: Store) -> tuple[list[int | None], list[tuple[str, int | None]]]:
    tables: list[int | None] = []
    others: list[tuple[str, int | None]] = []

    async def table_changed(table_id: int | None) -> None:
        tables.append(table_id)

    async def other_changed(kind: str, key: int | None) -> None:
        others.append((kind, key))

    await listener.watch(table_changed, other_changed)
    return tables, others


async def settle(heard: list, count: int) -> None:
    for _ in range(100):
        if len(heard) >= count:
            return
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("backend", ["postgres"])
async def test_changes_kept_in_memory_are_announced_to_the_other_processes(store, open_another):
    other = await open_another()
    tables, others = await heard_by(other)
    table = await active_table(store)
    since = datetime(2026, 11, 20, 8, 30, tzinfo=UTC)
    await store.save_clock(SeatClock(table.id, 0, HOST, since=since))  # unannounced

    await store.set_language(HOST, "ja")
    await store.set_server_language(42, "zh-TW")
    await store.set_locale(GUEST, "ko")
    await store.set_locale(GUEST, "ko")  # unchanged: nothing to announce
    await store.set_locale(GUEST, "fr")
    away = Away(HOST, datetime.now(UTC), datetime.now(UTC) + timedelta(days=2))
    await store.start_away(away, year=2026, days=2, allowance=21)
    await store.end_away(HOST, year=2026, refund=1)
    await store.end_away(HOST, year=2026, refund=0)  # not away: nothing to announce
    assert not await store.snooze_clock(table.id, 0, GUEST, int(since.timestamp()))
    assert await store.snooze_clock(table.id, 0, HOST, int(since.timestamp()))
    await settle(others, 7)
    await asyncio.sleep(0.2)
    assert others == [
        ("user", HOST),
        ("guild", 42),
        ("locale", GUEST),
        ("locale", GUEST),
        ("away", HOST),
        ("away", HOST),
        ("clock", table.id),
    ]
    assert tables == [table.id]  # the start of the game
    # a store does not hear its own announcements
    own_tables, own_others = await heard_by(store)
    await store.set_language(HOST, None)
    await settle(others, 8)
    await asyncio.sleep(0.2)
    assert others[-1] == ("user", HOST) and own_others == [] and own_tables == []
