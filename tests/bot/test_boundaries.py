"""The attacker: custom_ids rewritten by a client to reach another server's or another
channel's lobby, game or tournament, and ids no button of the bot carries. Every forged
click is refused before it acts, nothing changes, and the refusal is within Discord's
limits in the clicker's language.

Eve manages her own server ("Elsewhere"). She rewrites a button on a message there (a
client shows any custom_id it likes; Discord delivers only ids that are on the message, so
the message itself is what she tampers with).
"""

from __future__ import annotations

import copy

import discord
import pytest

from meeple_hall.bot.i18n import t
from meeple_hall.bot.store import TableStatus
from tests.bot.conftest import (
    LANGUAGES,
    REAL_GAMES,
    answer_seat,
    awaited_humans,
    click_as_it_was,
    start_game,
    stored_message,
)


@pytest.fixture
def eve(table):
    """Eve, who manages her own server, and a bot message there (her lobby) to tamper with."""
    guild = table.env.create_guild(name="Elsewhere")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    member = guild.add_member(table.env.create_user("eve"), roles=[mods])
    return member, guild.create_text_channel("games")


async def forge(env, member, channel, custom_id: str):
    """Click `custom_id` as if it were on the newest bot message in `channel`."""
    shown = copy.deepcopy(stored_message(env, channel.last_message))
    shown.components[0]["components"][0]["custom_id"] = custom_id
    return await click_as_it_was(member, shown, custom_id)


async def what_the_table_is(env, table_id: int):
    stored = await env.bot.store.get_table(table_id)
    actions = await env.bot.store.actions(table_id)
    return stored.status, [(s.user_id, s.ai, s.resigned) for s in stored.seats], len(actions)


def refused_as(result, key: str, lang: str = "en") -> None:
    assert result.ephemeral, result
    assert result.response.content == t(lang, key)
    assert len(result.response.content) <= 2000


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_forged_ids_from_another_server_reach_no_game_lobby_or_tournament(
    table, eve, game_id
):
    member, channel = eve
    game = await start_game(table, table.bob, game=game_id)
    await answer_seat(table, game, awaited_humans(game)[0])
    lobby_channel = table.guild.create_text_channel("lobby")
    await table.alice.slash(lobby_channel, "new", game=game_id)
    lobby = await table.env.bot.store.open_table_in(lobby_channel.id)
    await table.alice.slash(table.channel, "tournament create", game=game_id, format="swiss")
    (tournament,) = await table.env.bot.store.tournaments(guild_id=table.guild.id)

    await member.slash(channel, "new", game=game_id)  # the message Eve tampers with
    before = await what_the_table_is(table.env, game.id)
    seq = game.seq
    forged_ids = [
        f"t:{game.id}:{seq}:take",
        f"t:{game.id}:{seq}:hand",
        f"g:{game.id}:{seq}:0:o:x",
        f"u:{game.id}:{seq}",
        f"c:abandon:{game.id}:yes",
        f"c:resign:{game.id}:yes",
        f"w:ai:{game.id}:0:{table.alice.id}",
        f"l:{lobby.id}:join",
        f"l:{lobby.id}:cancel",
        f"l:{lobby.id}:start",
        f"tour:{tournament.id}:join",
        f"tour:{tournament.id}:cancel",
    ]
    for custom_id in forged_ids:
        refused_as(await forge(table.env, member, channel, custom_id), "component.elsewhere")

    assert await what_the_table_is(table.env, game.id) == before
    still = await table.env.bot.store.get_table(lobby.id)
    assert still.status is TableStatus.LOBBY and [s.user_id for s in still.seats] == [
        table.alice.id
    ]
    untouched = await table.env.bot.store.get_tournament(tournament.id)
    assert untouched.status.value == "signup" and untouched.player(member.id) is None


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_table_button_rewritten_in_another_channel_of_the_server_is_refused(table, game_id):
    game = await start_game(table, table.bob, game=game_id)
    other = table.guild.create_text_channel("elsewhere")
    await table.carol.slash(other, "new", game=game_id)
    before = await what_the_table_is(table.env, game.id)
    for custom_id in (f"t:{game.id}:{game.seq}:take", f"c:abandon:{game.id}:yes"):
        refused_as(await forge(table.env, table.alice, other, custom_id), "component.elsewhere")
    assert await what_the_table_is(table.env, game.id) == before


@pytest.mark.parametrize(
    "custom_id",
    [
        "t:²:0:take",  # a digit str.isdigit() accepts and int() does not
        "t:١:0:take",
        "l:1️⃣:join",
        "t:99999999999999999999999:0:take",  # over 2**63
        f"t:{2**63}:0:take",
        "c:abandon:18446744073709551616:yes",
        "g:1:0:café:o:x",
        "t:abc:0:take",
        "l::join",
        "tour:-1:join",
    ],
)
async def test_ids_no_button_carries_are_answered_as_unknown(table, custom_id):
    game = await start_game(table, table.bob, game="village")
    before = await what_the_table_is(table.env, game.id)
    result = await forge(table.env, table.alice, table.channel, custom_id)
    assert result.ephemeral
    assert result.response.content in (t("en", "component.unknown"), t("en", "game.over"))
    assert "went wrong" not in result.response.content
    assert await what_the_table_is(table.env, game.id) == before


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_a_forged_click_is_refused_in_the_clickers_language(table, eve, lang):
    member, channel = eve
    game = await start_game(table, table.bob, game="keyflower")
    await member.slash(channel, "settings", language=lang)
    await member.slash(channel, "new", game="keyflower")
    result = await forge(table.env, member, channel, f"t:{game.id}:{game.seq}:take")
    refused_as(result, "component.elsewhere", lang)


HUGE = "Ω`*_" + "x" * 5996  # 6,000 characters: as long as Discord lets a text option be


def text_commands(game_id: str) -> list[tuple[str, dict]]:
    """Every command that takes free text, each such option at its longest, the others valid
    (options with a fixed list of choices are held to it by Discord)."""
    return [
        ("new", {"game": HUGE}),
        ("new", {"game": game_id, "options": HUGE}),
        ("rules", {"game": HUGE}),
        ("move", {"text": HUGE}),
        ("settings", {"quiet_hours": HUGE}),
        ("settings", {"quiet_hours": "22-07", "utc_offset": HUGE}),
        ("away", {"until": HUGE}),
        ("leaderboard", {"game": HUGE}),
        ("tournament create", {"game": HUGE, "format": "swiss"}),
        ("tournament create", {"game": game_id, "format": "swiss", "name": HUGE}),
        ("tournament create", {"game": game_id, "format": "swiss", "options": HUGE}),
    ]


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_text_of_any_length_gets_a_clear_answer_within_discords_limits(table, game_id):
    game = await start_game(table, table.bob, game=game_id)
    before = await what_the_table_is(table.env, game.id)
    other = table.guild.create_text_channel("other")
    for name, options in text_commands(game_id):
        where = table.channel if name == "move" else other
        result = await table.alice.slash(where, name, **options)
        assert result.response is not None, (name, options)
        content = result.response.content
        assert result.ephemeral, (name, content)
        assert 0 < len(content) <= 2000, (name, len(content))
        assert t("en", "error.unexpected") not in content, (name, options.keys())
        assert HUGE not in content
    assert await what_the_table_is(table.env, game.id) == before
    assert await table.env.bot.store.open_table_in(other.id) is None
