"""A player whose DMs are closed learns of their turn from the table message's mention
alone; showing the table again at the same move (an edit in place: another player's time
away, a deadline passed, the AI's late word on a move already shown) keeps that mention.
(The season simulator's finding 9: the table was posted with the mention, then edited in
place with no content, which takes the mention, and its notification, back.) On every
game, in the three languages, with the bot as it posted the table and after a restart."""

from __future__ import annotations

import random

import discord
import pytest

from meeple_hall.bot.i18n import t
from tests.bot.conftest import EVERY_GAME, answer_seat, awaited_humans, start_game

# every game in English, and the real games in the two other languages (one game each)
IN_EVERY_LANGUAGE = [(game, "en") for game in EVERY_GAME] + [
    ("burgundy", "zh-TW"),
    ("keyflower", "ja"),
    ("coffee", "ja"),
    ("village", "zh-TW"),
]


def moderator(table):
    mods = table.guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    return table.guild.add_member(table.env.create_user("mod"), roles=[mods])


def close_dms(table, member) -> None:
    """Discord refuses every DM to the member from now on (50007)."""
    table.env.inject_error(
        "POST",
        f"/channels/{member.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )


def stored(table, message_id: int):
    return table.env.backend.get_message(table.channel.id, message_id)


async def until_newly_awaited(table, game, seat: int, rng) -> None:
    """The players answer in turn (the first asked first) until the seat, awaited now or
    not, is awaited anew."""
    while seat in awaited_humans(game):
        await answer_seat(table, game, game.decisions()[0].seat, rng)
    while seat not in awaited_humans(game):
        await answer_seat(table, game, game.decisions()[0].seat, rng)


@pytest.mark.parametrize("restart", [False, True], ids=["same bot", "restarted"])
@pytest.mark.parametrize(("game_id", "lang"), IN_EVERY_LANGUAGE)
async def test_the_mention_of_a_player_with_closed_dms_stays_when_the_table_is_shown_again(
    table, make_bot, game_id, lang, restart
):
    close_dms(table, table.bob)
    game = await start_game(table, table.bob, game=game_id)
    await moderator(table).slash(table.channel, "settings", server_language=lang)
    bob = game.seat_of(table.bob.id)
    await until_newly_awaited(table, game, bob, random.Random(9))
    told = t(lang, "table.your_move", mentions=table.bob.mention)
    posted = game.table.table_message_id
    assert stored(table, posted).content == told  # the turn's post mentions Bob
    if restart:  # a new bot, which did not post that message, loads the game
        old = table.env.bot
        await table.env.restart_bot(make_bot())
        await old.close()
        await table.bob.slash(table.channel, "hand")
        game = table.env.bot.manager.get(game.id)

    # Alice goes away: the table shows it, edited where it is, at the same move
    await table.alice.slash(table.channel, "away", days=3)

    assert game.table.table_message_id == posted
    shown = stored(table, posted)
    away = t(lang, "away.until_note", when="\0").split("\0")
    assert all(part.strip() in str(shown.embeds[0]) for part in away)
    assert shown.content == told
    assert bob in awaited_humans(game)


async def test_the_mention_drops_a_player_who_has_answered_and_keeps_the_others(table):
    """Both players bid at once in the test game (as Keyflower's seats choose winter tiles):
    once Alice has bid, the table edited in place mentions only Bob, still awaited. (No real
    game asks two seats at once at its start.)"""
    game = await start_game(table, table.bob)
    assert awaited_humans(game) == [0, 1]
    posted = game.table.table_message_id
    both = f"{table.alice.mention} {table.bob.mention}"
    assert stored(table, posted).content == t("en", "table.your_move", mentions=both)
    alice = game.seat_of(table.alice.id)
    await answer_seat(table, game, alice, random.Random(1))

    assert awaited_humans(game) == [game.seat_of(table.bob.id)]
    assert game.table.table_message_id == posted
    shown = stored(table, posted)
    assert shown.content == t("en", "table.your_move", mentions=table.bob.mention)
    assert shown.embeds[0]["footer"]["text"] == t("en", "table.footer", table=game.id, seq=game.seq)
