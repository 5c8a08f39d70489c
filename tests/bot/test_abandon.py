"""Abandoning a game takes every seated player's consent (issue 22): `/abandon` posts a
request with Agree / Refuse for the players still seated; the game ends, unrated, once all
of them agreed; a refusal or 24 hours withdraw it, also across a restart. Alone at a rated
game the host resigns instead and the AI plays the game out; alone at an unrated one the
game ends at once. In the test game and each real game, in English, 繁體中文 and 日本語."""

from __future__ import annotations

import copy
import random

import discord
import pytest

from meeple_hall.bot.i18n import t
from meeple_hall.bot.store import TableStatus
from tests.bot.conftest import (
    EVERY_GAME,
    Table,
    add_ai,
    answer_seat,
    buttons,
    click_as_it_was,
    raw_buttons,
    start_game,
    stored_message,
)
from tests.bot.every_game import near_the_end

HOUR = 3600.0
# The moves of a random line left for the AI to play out after the last player resigned.
LEFT_TO_THE_AI = 40
# every game in English, and the real games in the two other languages (one game each)
IN_EVERY_LANGUAGE = [(game, "en") for game in EVERY_GAME] + [
    ("burgundy", "zh-TW"),
    ("keyflower", "ja"),
    ("coffee", "zh-TW"),
    ("village", "ja"),
]


def hall(env, locale: str = "en-US") -> Table:
    """A server in `locale` with a channel, four members and a moderator (Manage Server)."""
    guild = env.create_guild(name="Hall", preferred_locale=locale)
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(n)) for n in ("alice", "bob", "carol", "dave")]
    return Table(env, guild, channel, *members)


def moderator(table: Table):
    mods = table.guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    return table.guild.add_member(table.env.create_user("mod"), roles=[mods])


def fresh(channel, message_id: int) -> discord.Message:
    """A message as it is now in the channel."""
    return next(m for m in channel.history() if m.id == message_id)


def request_message(channel) -> discord.Message:
    """The newest message carrying a request's buttons."""
    for message in reversed(channel.history()):
        if any(cid.startswith("ab:") for cid in buttons(message).values()):
            return message
    raise AssertionError("no request to abandon in the channel")


async def ask(table: Table, member, lang: str = "en"):
    """`member` runs /abandon and confirms asking the players; the request message."""
    asked = await member.slash(table.channel, "abandon")
    assert asked.ephemeral, asked.response.content
    assert asked.response.content.startswith(t(lang, "abandon_ask.confirm").split("{")[0][:12])
    done = await member.click(asked.response, label=t(lang, "abandon_ask.yes"))
    assert done.response.content.startswith(t(lang, "abandon_ask.done", link="")[:8])
    return request_message(table.channel)


async def vote(member, message, lang: str, agree: bool):
    label = t(lang, "abandon_request.agree" if agree else "abandon_request.refuse")
    return await member.click(message, label=label)


async def status(table: Table, game) -> TableStatus:
    return (await table.env.bot.store.get_table(game.id)).status


@pytest.mark.parametrize(("game_id", "lang"), IN_EVERY_LANGUAGE)
async def test_the_game_ends_unrated_once_every_seated_player_agrees(simcord_env, game_id, lang):
    table = hall(simcord_env)
    game = await start_game(table, table.bob, table.carol, game=game_id)
    # The channel's posts in the server's language, each reply in the player's own (every
    # SimCord click arrives from an en-US client).
    await moderator(table).slash(table.channel, "settings", server_language=lang)
    for member in (table.alice, table.bob, table.carol, table.dave):
        await member.slash(table.channel, "settings", language=lang)
    await answer_seat(table, game, game.decisions()[0].seat, random.Random(1))  # a move in

    message = await ask(table, table.alice, lang)
    assert f"<@{table.bob.id}>" in message.content and f"<@{table.carol.id}>" in message.content
    assert t(lang, "abandon_request.agreed", players=f"<@{table.alice.id}>") in message.content
    assert await status(table, game) is TableStatus.ACTIVE

    # Someone not seated, and a second answer, are turned away and change nothing.
    stranger = await vote(table.dave, message, lang, agree=True)
    assert stranger.ephemeral
    assert stranger.response.content == t(lang, "abandon_request.not_seated")
    again = await vote(table.alice, message, lang, agree=True)
    assert again.response.content == t(lang, "abandon_request.already_agreed")

    agreed = await vote(table.bob, message, lang, agree=True)
    assert agreed.ephemeral
    assert agreed.response.content == t(lang, "abandon_request.you_agreed")
    twice = await vote(table.bob, message, lang, agree=False)
    assert twice.response.content == t(lang, "abandon_request.already_agreed")
    assert await status(table, game) is TableStatus.ACTIVE
    message = request_message(table.channel)
    assert f"<@{table.carol.id}>" in message.content.splitlines()[-1]  # still waiting for

    last = await vote(table.carol, message, lang, agree=True)
    assert last.response.content == t(lang, "abandon_request.you_agreed_last")
    assert await status(table, game) is TableStatus.ABANDONED
    assert await table.env.bot.store.results(game=game_id) == []  # unrated: no results rows
    ended = t(lang, "abandon_request.ended")
    assert table.channel.last_message.content == ended
    assert not any(
        cid.startswith(("ab:", "t:"))
        for m in table.channel.history()
        for cid in buttons(m).values()
    )
    fresh = await table.bob.slash(table.channel, "new", game=game_id)
    assert not fresh.ephemeral  # the channel is free


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_refusal_withdraws_the_request_and_its_buttons_go_stale(simcord_env, game_id):
    table = hall(simcord_env)
    game = await start_game(table, table.bob, table.carol, game=game_id)
    refused = await table.bob.slash(table.channel, "abandon")
    assert refused.response.content == t("en", "lobby.host_only")

    message = await ask(table, table.alice)
    as_shown = copy.deepcopy(stored_message(table.env, message))
    pending = await table.alice.slash(table.channel, "abandon")
    assert pending.response.content.startswith(t("en", "abandon.pending", link="")[:30])
    no = await vote(table.bob, message, "en", agree=False)
    assert no.response.content == t("en", "abandon_request.you_refused")
    assert await status(table, game) is TableStatus.ACTIVE
    told = t("en", "abandon_request.refused", user=f"<@{table.bob.id}>")
    assert table.channel.last_message.content == told
    assert not buttons(fresh(table.channel, message.id))

    # The old request's buttons (as a client still shows them) are out of date.
    stale_id = f"ab:{game.id}:1:yes"
    late = await click_as_it_was(table.carol, as_shown, stale_id)
    assert late.response.content == t("en", "abandon_request.stale")
    assert await status(table, game) is TableStatus.ACTIVE

    # A new request can be made, and the game plays on meanwhile.
    again = await ask(table, table.alice)
    assert again.id != message.id
    await answer_seat(table, game, game.decisions()[0].seat, random.Random(2))
    withdrawn = await vote(table.alice, again, "en", agree=False)  # the asker takes it back
    assert withdrawn.response.content == t("en", "abandon_request.you_refused")
    told = t("en", "abandon_request.withdrawn", user=f"<@{table.alice.id}>")
    assert table.channel.last_message.content == told
    assert await status(table, game) is TableStatus.ACTIVE


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_request_lapses_after_24_hours_also_across_a_restart(
    simcord_env, make_bot, game_id
):
    table = hall(simcord_env)
    game = await start_game(table, table.bob, table.carol, game=game_id)
    message = await ask(table, table.alice)
    await table.env.restart_bot(make_bot())  # the request and its deadline are stored
    await table.env.advance_time(23 * HOUR)
    agreed = await vote(table.bob, fresh(table.channel, message.id), "en", agree=True)
    assert agreed.response.content == t("en", "abandon_request.you_agreed")
    await table.env.restart_bot(make_bot())
    await table.env.advance_time(HOUR + 60)
    lapsed = t("en", "abandon_request.lapsed")
    assert table.channel.last_message.content == lapsed
    assert fresh(table.channel, message.id).content == lapsed
    assert not buttons(fresh(table.channel, message.id))
    game = await table.env.bot.manager.fetch(game.id)
    assert game is not None and (await status(table, game)) is TableStatus.ACTIVE
    assert await table.env.bot.store.abandon_requests() == []


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_moderator_asks_and_a_holdout_who_resigns_no_longer_counts(simcord_env, game_id):
    table = hall(simcord_env)
    mod = moderator(table)
    game = await start_game(table, table.bob, table.carol, game=game_id)
    message = await ask(table, mod)  # not seated: all three must agree
    assert t("en", "abandon_request.agreed", players="—") in message.content
    for member in (table.alice, table.bob):
        await vote(member, message, "en", agree=True)
    assert await status(table, game) is TableStatus.ACTIVE
    asked = await table.carol.slash(table.channel, "resign")
    await table.carol.click(asked.response, label=t("en", "resign.yes"))
    assert await status(table, game) is TableStatus.ABANDONED  # everyone left has agreed
    said = [m.content for m in table.channel.history()]
    assert t("en", "abandon_request.ended") in said
    assert await table.env.bot.store.results(game=game_id) == []


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_alone_at_an_unrated_game_the_host_abandons_at_once(simcord_env, game_id):
    table = hall(simcord_env)
    await table.alice.slash(table.channel, "new", game=game_id)
    await add_ai(table.alice, table.channel.last_message)  # an AI seat: not rated
    await table.alice.click(table.channel.last_message, label="Start")
    game = table.env.bot.manager.in_channel(table.channel.id)
    asked = await table.alice.slash(table.channel, "abandon")
    assert asked.response.content == t("en", "abandon.confirm")
    await table.alice.click(asked.response, label=t("en", "abandon.yes"))
    assert await status(table, game) is TableStatus.ABANDONED
    assert not any(cid.startswith("ab:") for m in table.channel.history() for cid in buttons(m))


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_alone_at_a_rated_game_the_host_resigns_and_the_ai_plays_it_out(simcord_env, game_id):
    """Late in the game (its moves made through the bot's move path): the AI plays the rest
    of a game whose middle is no different from its start for this."""
    table = hall(simcord_env)
    game = await start_game(table, table.bob, game=game_id)
    await near_the_end(table, game, random.Random(8), left=LEFT_TO_THE_AI)
    asked = await table.bob.slash(table.channel, "resign")
    await table.bob.click(asked.response, label=t("en", "resign.yes"))
    refused = await moderator(table).slash(table.channel, "abandon")  # one player left
    assert refused.ephemeral and refused.response.content == t("en", "abandon.one_player")
    asked = await table.alice.slash(table.channel, "abandon")
    assert asked.response.content == t("en", "abandon_alone.confirm")  # said before confirming
    resigned_at = game.seq
    done = await table.alice.click(asked.response, label=t("en", "abandon_alone.yes"))
    assert done.response.content == t("en", "abandon_alone.done")
    stored = await table.env.bot.store.get_table(game.id)
    assert [s.resigned for s in stored.seats] == [True, True]
    await table.env.advance_time(1)
    for _ in range(600):  # the AI plays both seats to the end
        if (await status(table, game)) is TableStatus.FINISHED:
            break
        await table.env.advance_time(5)
    actions = await table.env.bot.store.actions(game.id, after=resigned_at)
    assert actions and all(action.user_id is None for action in actions)  # the AI's moves
    rows = await table.env.bot.store.results(game=game_id)
    assert {r.user_id for r in rows} == {table.alice.id, table.bob.id}  # rated: both counted
    book = await table.env.bot.ratings.book(game_id, table.guild.id)
    assert set(book.players) == {table.alice.id, table.bob.id}


@pytest.mark.parametrize(("game_id", "lang"), IN_EVERY_LANGUAGE[len(EVERY_GAME) :])
async def test_alone_the_confirmation_says_what_abandon_does_instead(simcord_env, game_id, lang):
    table = hall(simcord_env)
    await table.alice.slash(table.channel, "settings", language=lang)
    game = await start_game(table, table.bob, game=game_id)
    asked = await table.bob.slash(table.channel, "resign")
    await table.bob.click(asked.response, label=t("en", "resign.yes"))
    asked = await table.alice.slash(table.channel, "abandon")  # rated, alone: resign instead
    assert asked.response.content == t(lang, "abandon_alone.confirm")
    kept = await table.alice.click(asked.response, label=t(lang, "confirm.no"))
    assert kept.response.content == t(lang, "confirm.kept")
    assert not game.table.seats[0].resigned and (await status(table, game)) is TableStatus.ACTIVE

    other = hall(simcord_env)
    await other.alice.slash(other.channel, "settings", language=lang)
    await other.alice.slash(other.channel, "new", game=game_id)
    await add_ai(other.alice, other.channel.last_message)
    await other.alice.click(other.channel.last_message, label="Start")
    asked = await other.alice.slash(other.channel, "abandon")  # unrated, alone: ends now
    assert asked.response.content == t(lang, "abandon.confirm")
    labels = [b["label"] for b in raw_buttons(asked.response)]
    assert labels == [t(lang, "abandon.yes"), t(lang, "confirm.no")]


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_request_is_answered_only_in_its_own_channel(simcord_env, game_id):
    table = hall(simcord_env)
    game = await start_game(table, table.bob, game=game_id)
    await ask(table, table.alice)
    other = hall(simcord_env, "en-US")
    lobby = (await other.bob.slash(other.channel, "new", game=game_id)).response
    tampered = copy.deepcopy(stored_message(other.env, lobby))  # a client rewrote a button
    forged_id = f"ab:{game.id}:1:yes"
    tampered.components[0]["components"][0]["custom_id"] = forged_id
    forged = await click_as_it_was(other.bob, tampered, forged_id)
    assert forged.response.content == t("en", "component.elsewhere")
    assert await status(table, game) is TableStatus.ACTIVE
    assert (await table.env.bot.store.abandon_requests(game.id))[0].agreed == (table.alice.id,)


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_request_nobody_is_left_to_answer_is_closed_and_the_ai_plays_on(
    simcord_env, game_id
):
    table = hall(simcord_env)
    game = await start_game(table, table.bob, game=game_id)
    message = await ask(table, table.alice)
    for member in (table.bob, table.alice):  # both resign: the rated game is played out
        asked = await member.slash(table.channel, "resign")
        await member.click(asked.response, label=t("en", "resign.yes"))
    assert await status(table, game) is not TableStatus.ABANDONED
    assert fresh(table.channel, message.id).content == t("en", "abandon_request.closed")
    assert not buttons(fresh(table.channel, message.id))
    assert await table.env.bot.store.abandon_requests() == []
