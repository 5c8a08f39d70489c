"""Discord's faults delay a notice but never lose it: a table post or edit, a turn DM that
fails on a server error, a rate limit or again and again is retried (bot/delivery.py), and a
deleted table message is posted again. Every case on the four real games, through SimCord's
error injection and virtual time."""

from __future__ import annotations

import asyncio
import random

import discord
import pytest

from meeple_hall.bot.delivery import LATER, TRIES
from meeple_hall.bot.i18n import game_text, t
from meeple_hall.games import Action
from tests.bot.conftest import (
    REAL_GAMES,
    answer_seat,
    awaited_humans,
    choose,
    panel_options,
    plan_turn,
    seated_member,
    start_game,
    table_message,
)

MINUTE = 60.0
HOUR = 60 * MINUTE


def shown_move(table) -> int:
    """The move number the channel's table message shows (its footer)."""
    stored = table.env.backend.get_message(table.channel.id, table_message_id(table))
    footer = stored.embeds[0]["footer"]["text"]
    return int(footer.rsplit(" ", 1)[1])


def table_message_id(table) -> int:
    return table.env.bot.manager.in_channel(table.channel.id).table.table_message_id


def reminders(member) -> list[str]:
    return [m.content for m in member.user.dm_channel.history() if "You are awaited" in m.content]


def turn_dms(member) -> list[str]:
    return [m.content for m in member.user.dm_channel.history() if "Your turn" in m.content]


async def until_the_turn_passes(table, game, rng) -> int:
    """Humans answer whole turns until someone else is awaited than before; the seat now
    awaited. The fault is injected just before the last move of the turn."""
    first = awaited_humans(game)
    while set(awaited_humans(game)) == set(first):
        await answer_seat(table, game, first[0], rng)
    return awaited_humans(game)[0]


def told(table, game, seat: int) -> bool:
    """The table shows the move and the seat's player has a turn DM pointing at it."""
    member = seated_member(table, game, seat)
    shown = shown_move(table) == game.seq
    return shown and any(str(table_message_id(table)) in dm for dm in turn_dms(member))


async def pass_time_until_told(table, game, seat: int, seconds: float) -> None:
    """Let `seconds` of virtual time pass, a second at a time, until the seat is `told`. The
    table's picture is drawn in a worker process, in real time, which SimCord's settling does
    not see: on a loaded machine the first try could otherwise come after all the virtual time
    had passed, and its later tries never. Each step waits for it a little."""
    for _ in range(int(seconds)):
        if told(table, game, seat):
            return
        await table.env.advance_time(1)
        await asyncio.sleep(0.02)


@pytest.mark.parametrize("times", [1, 6])  # mended by the next try; by a later tick
@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_failed_table_post_at_a_turn_change_still_reaches_table_and_player(
    table, game_id, times
):
    """With `times` 6, the later tick is LATER[0] after the failure when the turn's moves were
    shown at once; LATER[1] when the picture was quick enough for the move before the turn
    change to be shown (and fail) first: two failures in a row, the second pause."""
    game = await start_game(table, table.bob, game=game_id)
    rng = random.Random(1)
    seat = awaited_humans(game)[0]
    # every post and edit in the channel fails `times` times from now on
    for method in ("POST", "PATCH"):
        table.env.inject_error(method, f"/channels/{table.channel.id}/messages*", times=times)
    next_seat = await until_the_turn_passes(table, game, rng)
    assert next_seat != seat or len(game.decisions()) > 1
    seconds = (LATER[0] + LATER[1]).total_seconds() + MINUTE if times > 1 else MINUTE
    await pass_time_until_told(table, game, next_seat, seconds)
    assert shown_move(table) == game.seq
    member = seated_member(table, game, next_seat)
    assert any(str(table_message_id(table)) in dm for dm in turn_dms(member))
    assert any(member.mention in m.content for m in table.channel.history())


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_rate_limited_turn_dm_goes_out_later(table, game_id):
    game = await start_game(table, table.bob, game=game_id)
    rng = random.Random(2)
    first = awaited_humans(game)[0]
    other = 1 - first
    before = len(turn_dms(seated_member(table, game, other)))
    dm = seated_member(table, game, other).user.dm_channel
    table.env.inject_error(
        "POST", f"/channels/{dm.id}/messages", status=429, message="You are being rate limited."
    )
    table.env.inject_error("POST", f"/channels/{dm.id}/messages", status=503, times=5)
    while other not in awaited_humans(game):
        await answer_seat(table, game, awaited_humans(game)[0], rng)
    await table.env.advance_time(LATER[0].total_seconds() + MINUTE)
    sent = turn_dms(seated_member(table, game, other))
    assert len(sent) == before + 1
    prompt = game_text("en", game.decision_for(other).prompt)
    assert prompt[:40] in sent[-1]


def next_step(game, rng) -> tuple[int, str, bool]:
    """The awaited player's next step, typed, and whether it leaves that player alone
    awaited (the table message is then edited in place, not posted again)."""
    seat = awaited_humans(game)[0]
    (token,) = plan_turn(game, seat, rng, most=1)
    choices = () if token == "none" else tuple(token.split(","))
    after = game.engine.apply(game.state, Action(seat, choices))
    pending = game.engine.decisions(after)
    return seat, token, [d.seat for d in pending] == [seat]


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_deleted_table_message_is_posted_again(table, game_id):
    game = await start_game(table, table.bob, game=game_id)
    rng = random.Random(3)
    mods = table.guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
    moderator = table.guild.add_member(table.env.create_user("mod"), roles=[mods])
    while True:
        seat, token, edited = next_step(game, rng)
        if edited:
            break
        await seated_member(table, game, seat).slash(table.channel, "move", text=token)
    deleted = table_message_id(table)
    await moderator.delete(next(m for m in table.channel.history() if m.id == deleted))
    await seated_member(table, game, seat).slash(table.channel, "move", text=token)
    await table.env.advance_time(MINUTE)
    assert table_message_id(table) != deleted
    assert shown_move(table) == game.seq
    stored = table.env.backend.get_message(table.channel.id, table_message_id(table))
    labels = [c.get("label") for row in stored.components for c in row["components"]]
    assert t("en", "table.take_turn") in labels


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_move_whose_reply_fails_is_confirmed_by_a_follow_up(table, game_id):
    game = await start_game(table, table.bob, game=game_id)
    seat = awaited_humans(game)[0]
    member = seated_member(table, game, seat)
    opened = await member.click(table_message(table.channel), label="Take turn")
    before = game.seq
    # the panel's update fails on every try; the follow-up goes through
    table.env.inject_error("PATCH", "/webhooks/*/messages/@original", times=TRIES)
    clicked = await choose(member, opened.response, panel_options(opened.response)[0])
    assert not clicked.followups  # between tries: only virtual time ends the pauses
    await table.env.advance_time(MINUTE)  # the pauses between the tries (1 + 2 + 4 s)
    assert game.seq > before  # the move is in
    confirmed = [m.content for m in clicked.followups]
    assert any(t("en", "move.reply_failed") in text for text in confirmed), confirmed
    assert not any(t("en", "error.unexpected") in text for text in confirmed)


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_reminder_discord_would_not_take_is_sent_again(table, game_id):
    game = await start_game(table, table.bob, game=game_id, options="clock=12h")
    seat = awaited_humans(game)[0]
    member = seated_member(table, game, seat)
    await table.env.advance_time(6 * HOUR - MINUTE)  # a minute before half time
    dm = member.user.dm_channel
    table.env.inject_error("POST", f"/channels/{dm.id}/messages", status=502, times=TRIES)
    await table.env.advance_time(MINUTE + 20)  # half time, and every try of it (7 s)
    assert not reminders(member)
    await table.env.advance_time(LATER[0].total_seconds() + MINUTE)
    sent = reminders(member)
    assert len(sent) == 1 and game_text("en", game.decision_for(seat).prompt)[:40] in sent[0]
    assert table.env.bot.clocks.rows[(game.id, seat)].reminders == 1


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_deleted_table_message_comes_back_without_waiting_for_a_move(table, game_id):
    game = await start_game(table, table.bob, game=game_id)
    mods = table.guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
    moderator = table.guild.add_member(table.env.create_user("mod"), roles=[mods])
    seq, deleted = game.seq, table_message_id(table)
    await moderator.delete(next(m for m in table.channel.history() if m.id == deleted))
    await table.env.advance_time(MINUTE)
    assert game.seq == seq and table_message_id(table) != deleted
    assert shown_move(table) == seq
