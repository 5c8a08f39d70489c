"""The hints taken at a table (`/hint`, bot/hints.py) on both backends: each kept once, in
the order taken, beside the host's settings; only while the game is in play; read back after
reopening."""

from __future__ import annotations

import pytest

from meeple_hall.bot.store import Seat, TableNotActive, open_store
from meeple_hall.bot.store.base import HINTS_TAKEN
from tests.store.conftest import GUEST, HOST, active_table, new_table

TWO = [Seat(HOST, "Ada"), Seat(GUEST, "Bo")]


async def test_hints_are_kept_once_in_order_beside_the_settings(store):
    table = await active_table(store, seats=TWO)
    settings = dict(table.settings)
    await store.note_hint(table.id, 3, 1)
    await store.note_hint(table.id, 1, 0)
    kept = await store.note_hint(table.id, 3, 1)  # the same hint asked again
    assert kept.settings == {**settings, HINTS_TAKEN: "3:1 1:0"}
    assert (await store.get_table(table.id)).settings == kept.settings


async def test_only_a_game_in_play_takes_a_hint(store):
    lobby = await new_table(store, channel_id=9)
    with pytest.raises(TableNotActive):
        await store.note_hint(lobby.id, 1, 0)
    assert HINTS_TAKEN not in (await store.get_table(lobby.id)).settings


async def test_hints_are_read_back_after_reopening(database_url):
    store = open_store(database_url)
    await store.open()
    table = await active_table(store, seats=TWO)
    await store.note_hint(table.id, 5, 0)
    await store.close()
    reopened = open_store(database_url)
    await reopened.open()
    try:
        assert (await reopened.get_table(table.id)).settings[HINTS_TAKEN] == "5:0"
    finally:
        await reopened.close()
