"""Narrow, conditional store commands: concurrent clicks and processes never lose a seat or
a status change, and a game's last move, its result and its end are one transaction."""

import asyncio

import pytest

from meeple_hall.bot.store import (
    AlreadySeated,
    FinalResult,
    LobbyClosed,
    LobbyFull,
    NotSeated,
    Seat,
    SeatChanged,
    SeatCount,
    StaleAction,
    TableNotActive,
    TableStatus,
)
from tests.store.conftest import GUEST, HOST, active_table, new_table, result_for

CAROL, DAVE = 1003, 1004


async def lobby(store, *seats: Seat):
    return await new_table(store, seats=[Seat(HOST, "Ada"), *seats])


async def test_two_joins_at_the_same_moment_both_get_a_seat(store):
    table = await lobby(store)
    await asyncio.gather(
        store.add_seat(table.id, Seat(GUEST, "Bo"), max_seats=4),
        store.add_seat(table.id, Seat(CAROL, "Cy"), max_seats=4),
    )
    seated = {s.user_id for s in (await store.get_table(table.id)).seats}
    assert seated == {HOST, GUEST, CAROL}


async def test_joins_from_two_stores_on_one_database_both_get_a_seat(store, open_another):
    table = await lobby(store)
    other = await open_another()
    await asyncio.gather(
        *(
            (store if i % 2 else other).add_seat(table.id, Seat(2000 + i, f"P{i}"), max_seats=6)
            for i in range(5)
        )
    )
    seats = (await store.get_table(table.id)).seats
    assert sorted(s.user_id for s in seats) == [HOST, *range(2000, 2005)]
    assert len(seats) == 6


async def test_racing_joins_fill_the_last_seat_once(store):
    table = await lobby(store, Seat(GUEST, "Bo"))
    outcomes = await asyncio.gather(
        store.add_seat(table.id, Seat(CAROL, "Cy"), max_seats=3),
        store.add_seat(table.id, Seat(DAVE, "Di"), max_seats=3),
        return_exceptions=True,
    )
    assert sum(isinstance(o, LobbyFull) for o in outcomes) == 1
    assert len((await store.get_table(table.id)).seats) == 3


@pytest.mark.parametrize("join_first", [True, False])
async def test_a_join_racing_start_is_either_seated_in_the_game_or_told_it_started(
    store, join_first
):
    table = await lobby(store, Seat(GUEST, "Bo"))
    join = store.add_seat(table.id, Seat(CAROL, "Cy"), max_seats=4)
    start = store.start_table(table.id, min_seats=2, max_seats=4)
    first, second = (join, start) if join_first else (start, join)
    outcomes = await asyncio.gather(first, second, return_exceptions=True)
    joined = outcomes[0 if join_first else 1]
    stored = await store.get_table(table.id)
    assert stored.status is TableStatus.ACTIVE
    started = outcomes[1 if join_first else 0]
    # The game starts with exactly the seats the store holds: nothing changes them after.
    # Which one gets in first is the database's to decide (a pool of connections on
    # PostgreSQL); either way nobody is told a seat they do not have.
    assert started.seats == stored.seats
    if isinstance(joined, Exception):
        assert isinstance(joined, LobbyClosed) and joined.status is TableStatus.ACTIVE
        assert [s.user_id for s in stored.seats] == [HOST, GUEST]
    else:
        assert [s.user_id for s in stored.seats] == [HOST, GUEST, CAROL]


async def test_lobby_commands_are_refused_once_the_game_started(store):
    table = await lobby(store, Seat(GUEST, "Bo"), Seat(None, "AI 1", ai=True))
    await store.start_table(table.id, min_seats=2, max_seats=4)
    for command in (
        store.add_seat(table.id, Seat(CAROL, "Cy"), max_seats=4),
        store.leave_lobby(table.id, GUEST),
        store.remove_seat(table.id, 2, "AI 1"),
        store.set_option(table.id, "variant", "long"),
        store.cancel_lobby(table.id),
        store.start_table(table.id, min_seats=2, max_seats=4),
    ):
        with pytest.raises(LobbyClosed) as closed:
            await command
        assert closed.value.status is TableStatus.ACTIVE
    stored = await store.get_table(table.id)
    assert [s.name for s in stored.seats] == ["Ada", "Bo", "AI 1"]
    assert stored.options == {"variant": "short"}


async def test_a_user_sits_once_and_a_full_table_takes_nobody(store):
    table = await lobby(store, Seat(GUEST, "Bo"))
    with pytest.raises(AlreadySeated):
        await store.add_seat(table.id, Seat(GUEST, "Bo again"), max_seats=4)
    with pytest.raises(LobbyFull) as full:
        await store.add_seat(table.id, Seat(CAROL, "Cy"), max_seats=2)
    assert full.value.max_seats == 2
    assert len((await store.get_table(table.id)).seats) == 2


async def test_the_host_leaving_hands_the_table_on_and_the_last_human_cancels_it(store):
    table = await lobby(store, Seat(None, "AI 1", ai=True), Seat(GUEST, "Bo"))
    handed = await store.leave_lobby(table.id, HOST)
    assert handed.host_id == GUEST and [s.name for s in handed.seats] == ["AI 1", "Bo"]
    with pytest.raises(NotSeated):
        await store.leave_lobby(table.id, HOST)
    cancelled = await store.leave_lobby(table.id, GUEST)
    assert cancelled.status is TableStatus.CANCELLED
    assert await store.get_table(table.id) == cancelled


async def test_a_seat_is_removed_only_if_it_is_still_who_the_host_saw(store):
    table = await lobby(store, Seat(GUEST, "Bo"), Seat(None, "AI 1", ai=True))
    with pytest.raises(SeatChanged):
        await store.remove_seat(table.id, 1, CAROL)
    with pytest.raises(SeatChanged):
        await store.remove_seat(table.id, 0, HOST)  # the host's own seat
    with pytest.raises(SeatChanged):
        await store.remove_seat(table.id, 5, GUEST)
    removed = await store.remove_seat(table.id, 1, GUEST)
    assert [s.name for s in removed.seats] == ["Ada", "AI 1"]
    assert (await store.remove_seat(table.id, 1, "AI 1")).seats == [Seat(HOST, "Ada")]


async def test_a_start_with_the_wrong_number_of_seats_changes_nothing(store):
    table = await lobby(store)
    with pytest.raises(SeatCount) as count:
        await store.start_table(table.id, min_seats=2, max_seats=4)
    assert (count.value.seats, count.value.min_seats) == (1, 2)
    assert (await store.get_table(table.id)).status is TableStatus.LOBBY


async def test_the_last_move_its_result_and_the_end_are_one_transaction(store):
    table = await active_table(store, seats=[Seat(HOST, "Ada"), Seat(None, "AI 1", ai=True)])
    await store.append_action(table.id, 1, 0, ("take", "1"), HOST)
    await store.append_action(table.id, 2, 1, ("take", "2"), None, result=result_for(table))
    stored = await store.get_table(table.id)
    assert stored.status is TableStatus.FINISHED and stored.result["scores"] == [10, 9]
    rows = await store.results()
    assert [(r.seat, r.user_id, r.score, r.rank, r.resigned) for r in rows] == [
        (0, HOST, 10, 1, False),
        (1, None, 9, 2, False),
    ]
    assert rows[0].finished_at == stored.ended_at
    assert rows[0].breakdown == {"pebbles": 10} and rows[0].game == "pebbles"
    assert rows[0].guild_id == 42
    with pytest.raises(TableNotActive):
        await store.append_action(table.id, 3, 0, ("take", "1"), HOST)


async def test_a_stale_last_move_writes_no_result(store):
    table = await active_table(store)
    await store.append_action(table.id, 1, 0, ("take", "1"), HOST)
    with pytest.raises(StaleAction):
        await store.append_action(table.id, 1, 1, ("take", "2"), None, result=result_for(table))
    assert (await store.get_table(table.id)).status is TableStatus.ACTIVE
    assert await store.results() == []


async def test_a_result_that_does_not_fit_the_seats_ends_nothing(store):
    table = await active_table(store)
    wrong = FinalResult(scores=(1,), ranks=(1,), breakdown=({},))
    with pytest.raises(Exception, match="seats"):
        await store.append_action(table.id, 1, 0, ("take", "1"), HOST, result=wrong)
    assert await store.last_seq(table.id) == 0
    assert (await store.get_table(table.id)).status is TableStatus.ACTIVE


async def test_results_come_oldest_first_and_filter_by_game_and_server(store):
    first = await active_table(store, channel_id=1)
    second = await active_table(store, channel_id=2)
    await store.finish_table(second.id, result_for(second))
    await store.finish_table(first.id, result_for(first))
    assert [r.table_id for r in await store.results()] == [second.id] * 2 + [first.id] * 2
    assert await store.results(game="keyflower") == []
    assert await store.results(guild_id=41) == []
    assert len(await store.results(game="pebbles", guild_id=42)) == 4


async def test_a_resigned_seat_keeps_its_player_in_the_results(store):
    table = await active_table(store, seats=[Seat(HOST, "Ada"), Seat(GUEST, "Bo")])
    await store.resign_seat(table.id, 1)
    await store.finish_table(table.id, result_for(table))
    rows = await store.results()
    assert [(r.user_id, r.resigned) for r in rows] == [(HOST, False), (GUEST, True)]


async def test_a_seat_handed_to_the_ai_by_timeouts_is_marked_in_the_results(store):
    table = await active_table(store, seats=[Seat(HOST, "Ada"), Seat(GUEST, "Bo")])
    await store.set_seat_ai(table.id, 0, True)
    await store.finish_table(table.id, result_for(table))
    rows = await store.results()
    assert [(r.user_id, r.resigned) for r in rows] == [(HOST, True), (GUEST, False)]
