"""A deleted channel pauses its game instead of leaving it active for ever: the seated
players are told by DM, nothing falls due while it is paused, `/games` lists it, and the
host continues it in another channel with `/reopen`. On the four real games."""

from __future__ import annotations

import random

import pytest

from meeple_hall.bot.i18n import game_name, t
from meeple_hall.bot.store import TableStatus
from tests.bot.conftest import LANGUAGES, REAL_GAMES, answer_seat, awaited_humans, start_game

DAY = 24 * 3600.0


async def delete_channel(table, channel) -> None:
    table.env.backend.delete_channel(channel.id)  # as a moderator would, in Discord itself
    await table.env.settle()


def dms(member) -> list[str]:
    return [m.content for m in member.user.dm_channel.history()]


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_deleted_channel_pauses_the_game_until_the_host_reopens_it(table, game_id):
    game = await start_game(table, table.bob, game=game_id, options="clock=12h")
    await answer_seat(table, game, awaited_humans(game)[0], random.Random(1))
    seq = game.seq
    waiting = awaited_humans(game)[0]
    deadline = table.env.bot.clocks.rows[(game.id, waiting)].deadline
    await delete_channel(table, table.channel)

    stored = await table.env.bot.store.get_table(game.id)
    assert stored.status is TableStatus.ACTIVE and stored.paused_at is not None
    told = t("en", "channel.lost", game=game_name("en", game_id), table=game.id)
    assert told in dms(table.alice)[-1] and told in dms(table.bob)[-1]

    await table.env.advance_time(3 * DAY)  # far past every deadline and reserve
    assert game.seq == seq  # no timeout, no AI move
    assert not any("You are awaited" in text for text in dms(table.alice) + dms(table.bob))

    other = table.guild.create_text_channel("new-home")
    listed = await table.bob.slash(other, "games")
    assert t("en", "games.paused", table=game.id) in listed.response.embeds[0].description
    refused = await table.bob.slash(other, "reopen", table=game.id)
    assert refused.response.content == t("en", "lobby.host_only")

    reopened = await table.alice.slash(other, "reopen", table=game.id)
    assert reopened.response.content == t("en", "channel.reopened", table=game.id)
    shown = [m for m in other.history() if m.embeds]
    assert shown and shown[-1].embeds[0].footer.text.endswith(f"move {game.seq}")
    row = table.env.bot.clocks.rows[(game.id, waiting)]
    assert (row.deadline - deadline).total_seconds() >= 3 * DAY  # moved by the time paused
    await answer_seat(table, game, waiting, random.Random(2), channel=other)
    assert game.seq > seq


async def test_a_lobby_in_a_deleted_channel_is_cancelled(table):
    await table.alice.slash(table.channel, "new", game="village")
    lobby = await table.env.bot.store.open_table_in(table.channel.id)
    await delete_channel(table, table.channel)
    assert (await table.env.bot.store.get_table(lobby.id)).status is TableStatus.CANCELLED


async def test_reopen_refuses_a_game_that_is_not_paused_and_a_busy_channel(table):
    game = await start_game(table, table.bob, game="keyflower")
    refused = await table.alice.slash(table.channel, "reopen", table=game.id)
    expected = t("en", "channel.not_paused", table=game.id, channel=table.channel.id)
    assert refused.response.content == expected
    busy = table.guild.create_text_channel("busy")
    await table.carol.slash(busy, "new", game="village")
    lobby = await table.env.bot.store.open_table_in(busy.id)
    await delete_channel(table, table.channel)
    refused = await table.alice.slash(busy, "reopen", table=game.id)
    assert refused.response.content == t("en", "channel.busy", table=lobby.id)


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_pause_is_told_in_each_players_language(table, lang):
    await table.bob.slash(table.channel, "settings", language=lang)
    game = await start_game(table, table.bob, game="coffee")
    await delete_channel(table, table.channel)
    told = t(lang, "channel.lost", game=game_name(lang, "coffee"), table=game.id)
    assert told in dms(table.bob)[-1]
