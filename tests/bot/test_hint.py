"""`/hint` (issue 30, item 3): the good AI's answer to the caller's decision, in the
panel's words, with its reason, in the caller's language; only in casual games; and the
table's Log and `/replay` tell everyone that a hint was taken, after a restart too."""

from __future__ import annotations

import discord
import pytest

from meeple_hall.bot import ai
from meeple_hall.bot.hints import reason_text
from meeple_hall.bot.i18n import t
from meeple_hall.bot.panels import chosen_text, known_lines
from meeple_hall.bot.store.base import HINTS_TAKEN
from meeple_hall.games.ai import levels
from meeple_hall.games.ai.reasons import advise
from tests.bot.conftest import (
    EVERY_GAME,
    LANGUAGES,
    REAL_GAMES,
    acting_member,
    answer_seat,
    awaited_humans,
    buttons,
    raw_buttons,
    start_game,
    table_message,
)
from tests.bot.test_tournament import sign_up, thread_of

CASUAL = "rated=no"


def expected(game, seat: int, locale: str) -> tuple[tuple[str, ...], str, str]:
    """What the good AI answers the seat now (with the seed an AI seat would play), in the
    panel's words, and its reason in `locale`."""
    seed = ai.answer_seed(game.table.seed, game.seq, seat)
    advice = advise(game.engine, game.state, seat, seed)
    assert advice.choices == levels.choose(game.engine, game.state, seat, "good", seed)
    decision = game.decision_for(seat)
    lines = known_lines(game, seat, decision)
    words = chosen_text(
        game.table.game, game.engine, game.state, seat, (advice.choices,), lines, locale
    )
    return advice.choices, words, reason_text(locale, advice.reason)


async def speaking(table, member, lang: str) -> None:
    if lang != "en":
        await member.slash(table.channel, "settings", language=lang)


async def log_shown(table, member) -> str:
    shown = await member.click(table_message(table.channel), label=t("en", "table.log"))
    assert shown.ephemeral
    return shown.response.content


def other(table, member):
    return table.bob if member is table.alice else table.alice


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_hint_names_a_legal_option_with_its_reason_and_the_log_says_so(
    table, make_bot, game_id, lang
):
    game = await start_game(table, table.bob, game=game_id, options=CASUAL)
    member, seat = acting_member(table, game)
    await speaking(table, member, lang)
    await speaking(table, other(table, member), lang)
    decision, seq = game.decision_for(seat), game.seq
    choices, words, reason = expected(game, seat, lang)
    assert set(choices) <= {o.id for o in decision.options}

    hinted = await table.env.bot.manager.fetch_in(table.channel.id)
    shown = await member.slash(table.channel, "hint")

    assert shown.ephemeral
    text = shown.response.content
    assert words in text and reason in text, text
    assert t(lang, "hint.suggestion", seq=seq + 1, choice=words, reason=reason) == text
    assert game.seq == seq and game.decision_for(seat) == decision  # nothing was played
    assert hinted.table.settings[HINTS_TAKEN] == f"{seq + 1}:{seat}"
    line = t(lang, "log.hint", name=game.table.seats[seat].name, seq=seq + 1)
    for reader in (member, other(table, member)):  # every player sees it in the Log
        assert line in await log_shown(table, reader)

    await answer_seat(table, game, seat)  # the hinted move is played, then a restart
    await table.env.restart_bot(make_bot())
    assert line in await log_shown(table, table.alice)
    replay = await table.alice.slash(table.channel, "replay", table=game.id)
    frame = await table.alice.click(replay.response, custom_id=_replay_button(replay, "last"))
    for _ in range(100):  # back from the end to the move the hint was for
        if line in frame.response.content:
            break
        frame = await table.alice.click(frame.response, custom_id=_replay_button(frame, "prev"))
    assert line in frame.response.content, frame.response.content


def _replay_button(result, verb: str) -> str:
    return next(
        b["custom_id"] for b in raw_buttons(result.response) if b["custom_id"].endswith(verb)
    )


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_hints_are_refused_where_they_do_not_belong(table, game_id):
    """Rated games, not your turn, not seated, outside a table; the test game has no good
    AI. Each refusal is ephemeral and changes nothing."""
    elsewhere = table.guild.create_text_channel("elsewhere")
    away = await table.alice.slash(elsewhere, "hint")
    assert away.ephemeral and away.response.content == t("en", "game.none_here")

    game = await start_game(table, table.bob, game=game_id)  # two humans: rated
    member, seat = acting_member(table, game)
    seq = game.seq
    refused = await member.slash(table.channel, "hint")
    key = "hint.unavailable" if game_id == "pebbles" else "hint.rated"
    assert refused.ephemeral and refused.response.content == t("en", key)
    watcher = await table.carol.slash(table.channel, "hint")
    assert watcher.ephemeral and watcher.response.content == t("en", "game.not_seated")
    waiting = other(table, member)
    if game.decision_for(1 - seat) is None:
        early = await waiting.slash(table.channel, "hint")
        assert early.ephemeral and early.response.content == t("en", "move.not_your_turn")
    assert game.seq == seq and HINTS_TAKEN not in game.table.settings
    assert "Take turn" in buttons(table_message(table.channel))


@pytest.mark.parametrize("lang", LANGUAGES[1:])
async def test_refusals_in_the_players_language(table, lang):
    game = await start_game(table, table.bob, game="coffee")
    member, _ = acting_member(table, game)
    await speaking(table, member, lang)
    refused = await member.slash(table.channel, "hint")
    assert refused.response.content == t(lang, "hint.rated")
    await speaking(table, table.carol, lang)
    watcher = await table.carol.slash(table.channel, "hint")
    assert watcher.response.content == t(lang, "game.not_seated")


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_no_hint_in_a_tournament_game(simcord_env, lang):
    guild = simcord_env.create_guild(name="Meeple Hall")
    channel = guild.create_text_channel("tournaments")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    members = [guild.add_member(simcord_env.create_user("alice"), roles=[mods])]
    members += [guild.add_member(simcord_env.create_user(n)) for n in ("bob", "carol", "dave")]
    await sign_up(channel, members, game="coffee", format="swiss", rounds=2, table_size=2)
    store = simcord_env.bot.store
    (tournament,) = await store.tournaments()
    row = (await store.tournament_tables(tournament.id, 1))[0]
    game = simcord_env.bot.manager.get(row.table_id)
    seat = awaited_humans(game)[0]
    player = next(m for m in members if m.id == game.table.seats[seat].user_id)
    thread = thread_of(channel, row.thread_id)
    await player.slash(thread, "settings", language=lang)
    seq = game.seq

    refused = await player.slash(thread, "hint")

    assert refused.ephemeral and refused.response.content == t(lang, "hint.tournament")
    assert game.seq == seq and HINTS_TAKEN not in game.table.settings
