"""Requests to abandon a game (migration 0014, bot/abandon.py) on both backends: one open
request a table, agreements kept in order and never twice, whoever closes a request first
decides, a restart reads the open ones back; and `resign_seat(play_out=True)` leaves a game
whose seats are all the AI's in play."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from meeple_hall.bot.store import Seat, TableNotActive, TableStatus, open_store
from meeple_hall.bot.store.base import AbandonPending, AlreadyAgreed, RequestClosed
from tests.store.conftest import GUEST, HOST, active_table, new_table

LATER = datetime(2026, 11, 27, 9, 0, tzinfo=UTC)
TWO = [Seat(HOST, "Ada"), Seat(GUEST, "Bo")]


async def test_a_request_is_opened_agreed_to_and_closed_once(store):
    table = await active_table(store, seats=TWO)
    request = await store.open_abandon_request(table.id, HOST, [HOST], LATER)
    assert (request.table_id, request.requested_by, request.agreed) == (table.id, HOST, (HOST,))
    assert request.status == "open" and request.expires_at == LATER
    with pytest.raises(AbandonPending) as pending:
        await store.open_abandon_request(table.id, GUEST, [], LATER)
    assert pending.value.request.id == request.id

    await store.set_abandon_message(request.id, 777)
    agreed = await store.agree_to_abandon(request.id, GUEST)
    assert agreed.agreed == (HOST, GUEST) and agreed.message_id == 777
    with pytest.raises(AlreadyAgreed):
        await store.agree_to_abandon(request.id, GUEST)
    assert await store.abandon_requests(table.id) == [agreed]

    closed = await store.close_abandon_request(request.id, "agreed")
    assert closed is not None and closed.status == "agreed" and closed.agreed == (HOST, GUEST)
    assert await store.close_abandon_request(request.id, "refused") is None  # first one won
    with pytest.raises(RequestClosed) as late:
        await store.agree_to_abandon(request.id, 3)
    assert late.value.status == "agreed"
    assert await store.abandon_requests() == []
    again = await store.open_abandon_request(table.id, GUEST, [GUEST], LATER)  # a new one
    assert again.id != request.id


async def test_only_a_game_in_play_takes_a_request(store):
    lobby = await new_table(store, channel_id=9)
    with pytest.raises(TableNotActive):
        await store.open_abandon_request(lobby.id, HOST, [HOST], LATER)


async def test_open_requests_are_read_back_after_reopening(database_url):
    store = open_store(database_url)
    await store.open()
    first = await active_table(store, channel_id=1, seats=TWO)
    second = await active_table(store, channel_id=2, seats=TWO)
    one = await store.open_abandon_request(first.id, HOST, [HOST], LATER)
    two = await store.open_abandon_request(second.id, GUEST, [], LATER + timedelta(hours=1))
    await store.close_abandon_request(two.id, "lapsed")
    await store.close()
    store = open_store(database_url)
    await store.open()
    try:
        assert await store.abandon_requests() == [one]
        assert await store.abandon_requests(second.id) == []
    finally:
        await store.close()


async def test_resigning_with_play_out_keeps_a_game_of_ai_seats_in_play(store):
    table = await active_table(store, seats=TWO)
    await store.resign_seat(table.id, 1)
    last = await store.resign_seat(table.id, 0, play_out=True)
    assert last.status is TableStatus.ACTIVE and all(s.ai and s.resigned for s in last.seats)
    assert [t.id for t in await store.open_tables()] == [table.id]
