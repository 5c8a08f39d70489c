"""Every ephemeral reply the bot sends a player in a table's channel is counted below the
table (issue 29, item 3): `/undo`'s reply, `/replay`'s viewer, `/export`'s answer, a refused
component and the "something went wrong" reply went out uncounted before, so a player could
bury the table under them without it being posted again (bot/display.py: BelowTable)."""

from __future__ import annotations

import copy
import random

import pytest

from meeple_hall import games
from meeple_hall.bot import components
from meeple_hall.bot.display import BURIED_AFTER
from meeple_hall.bot.i18n import t
from tests.bot.conftest import (
    EVERY_GAME,
    awaited_humans,
    buttons,
    click_as_it_was,
    plan_turn,
    seated_member,
    start_game,
    stored_message,
    table_message,
)
from tests.bot.test_table_findable import below, channel_messages, start_with


def counted(env, channel, user_id: int) -> int:
    """How many of the user's ephemeral messages the display counts below the table."""
    return env.bot.display.below._sent.get(channel.id, {}).get(user_id, 0)


def lying_below(env, channel, game, user_id: int) -> int:
    """How many of the user's ephemeral messages lie below the table in the channel."""
    _, per_user = below(channel_messages(env, channel), game.table.table_message_id)
    return per_user[user_id]


async def forged_click(env, member, channel, custom_id: str):
    """A click on the table message with a custom_id the bot never sent."""
    shown = copy.deepcopy(stored_message(env, table_message(channel)))
    shown.components[0]["components"][0]["custom_id"] = custom_id
    return await click_as_it_was(member, shown, custom_id)


async def broken(interaction, click) -> None:
    raise RuntimeError("a handler that fails (the bot answers 'something went wrong')")


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_every_ephemeral_reply_in_the_table_channel_is_counted(table, game_id):
    """After each reply, each player's ephemeral messages below the table are as many as
    the display counts: moves and undos taken in turn until an undo goes through, `/replay`,
    `/export` and `/hint` refused, a forged component, a handler that fails."""
    game = await start_game(table, table.bob, game=game_id)
    env, channel = table.env, table.channel

    async def check(member, result) -> None:
        assert result.ephemeral, result
        assert lying_below(env, channel, game, member.id) == counted(env, channel, member.id)

    rng = random.Random(1)
    for _ in range(60):
        seat = awaited_humans(game)[0]
        player = seated_member(table, game, seat)
        await check(player, await player.slash(channel, "move", text=plan_turn(game, seat, rng)[0]))
        undone = await player.slash(channel, "undo")
        await check(player, undone)
        if undone.response.content.startswith("↩️"):
            break
    else:
        raise AssertionError("no move could be taken back")
    alice = table.alice
    replay = await alice.slash(channel, "replay", table=game.id)
    await check(alice, replay)
    await check(alice, await alice.slash(channel, "export", table=game.id))  # in play
    await check(alice, await alice.slash(channel, "hint"))  # rated: refused
    await check(alice, await forged_click(env, alice, channel, "zz:not-a-family"))
    env.bot.clicks.on(components.TableButton, broken)
    failed = await alice.click(table_message(channel), label=t("en", "table.log"))
    assert failed.response.content == t("en", "error.unexpected")
    await check(alice, failed)


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_table_buried_under_replays_is_posted_again_at_the_next_move(table, game_id):
    """Replies that change nothing bury the table like panels do: once more than
    BURIED_AFTER lie below it, the next move posts it again at the bottom."""
    solo = games.get(game_id).min_players == 1
    game = await start_with(table, game_id, ai=0 if solo else 1)
    shown = game.table.table_message_id
    for _ in range(BURIED_AFTER + 1):
        await table.alice.slash(table.channel, "replay", table=game.id)
    assert lying_below(table.env, table.channel, game, table.alice.id) == BURIED_AFTER + 1
    step = plan_turn(game, 0, random.Random(2))[0]
    await table.alice.slash(table.channel, "move", text=step)
    assert game.table.table_message_id != shown, "the buried table was edited in place"
    assert table.channel.last_message.id == game.table.table_message_id
    if game.table.status.value == "active":
        assert "Take turn" in buttons(table_message(table.channel))
