"""A turn change the bot had not yet shown when it stopped is shown by the next bot once it
loads the game: the table message at the latest move, a mention of the player now awaited,
and their turn DM. (The season simulator's second finding: a post that failed on a Discord
error was to be sent again by the stopped bot, and the next one, taking what it loaded as
already told, never said whose turn it was.) On the four real games, the bot closed or
killed."""

from __future__ import annotations

import random

import pytest

from meeple_hall.bot.delivery import LATER
from tests.bot.conftest import REAL_GAMES, awaited_humans, seated_member, start_game
from tests.bot.test_faults import shown_move, turn_dms, until_the_turn_passes

MINUTE = 60.0


def mentions(table, member) -> int:
    return sum(member.mention in (m.content or "") for m in table.channel.history())


@pytest.mark.parametrize("clean", [True, False], ids=["closed", "killed"])
@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_turn_change_unshown_when_the_bot_stops_is_shown_after_the_restart(
    table, make_bot, game_id, clean
):
    game = await start_game(table, table.bob, game=game_id)
    rng = random.Random(4)
    first = awaited_humans(game)[0]
    waiting = seated_member(table, game, 1 - first)
    told, dms = mentions(table, waiting), len(turn_dms(waiting))
    # every try of the table's post and edit fails from now on, until the bot stops (for as
    # long as it takes: how many requests the bot makes in between is not this test's point)
    for method in ("POST", "PATCH"):
        table.env.inject_error(method, f"/channels/{table.channel.id}/messages*", times=None)
    next_seat = await until_the_turn_passes(table, game, rng)
    assert next_seat == 1 - first
    assert mentions(table, waiting) == told  # not shown yet: to be posted again later
    old = table.env.bot
    old.display.close()  # what stops with the process: the post it meant to send again
    old.clocks.close()
    table.env.backend.faults.clear()  # Discord answers again
    await table.env.restart_bot(make_bot())
    if clean:
        await old.close()
    await table.env.bot.manager.loaded_at_start()
    await table.env.advance_time(LATER[0].total_seconds() + MINUTE)
    # the player who moved last looks at the table: the new bot loads the game
    await seated_member(table, game, first).slash(table.channel, "board")
    await table.env.advance_time(MINUTE)

    game = table.env.bot.manager.get(game.id)
    assert shown_move(table) == game.seq
    assert mentions(table, waiting) == told + 1
    assert len(turn_dms(waiting)) == dms + 1
