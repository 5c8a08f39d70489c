"""A game whose channel is gone (migration 0015, bot/cogs/channels.py) on both backends:
paused since a moment, read back with the table, and moved to a free channel, never to one
with an open table."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from meeple_hall.bot.store import ChannelBusy, Seat
from tests.store.conftest import GUEST, HOST, active_table, new_table

WHEN = datetime(2026, 11, 26, 9, 30, tzinfo=UTC)


async def test_a_paused_game_moves_to_a_free_channel_only(store):
    table = await active_table(store, seats=[Seat(HOST, "Ada"), Seat(GUEST, "Bo")])
    await store.set_table_message(table.id, 9001)
    await store.pause_table(table.id, WHEN)
    paused = await store.get_table(table.id)
    assert paused.paused_at == WHEN and paused.channel_id == 500
    assert [t.paused_at for t in await store.open_tables()] == [WHEN]

    lobby = await new_table(store, channel_id=600)
    with pytest.raises(ChannelBusy) as busy:
        await store.move_table(table.id, 600)
    assert busy.value.table_id == lobby.id
    assert (await store.get_table(table.id)).paused_at == WHEN  # nothing changed

    moved = await store.move_table(table.id, 700)
    assert (moved.channel_id, moved.paused_at, moved.table_message_id) == (700, None, None)
    assert await store.get_table(table.id) == moved
    assert (await store.open_table_in(700)).id == table.id
    assert await store.open_table_in(500) is None
