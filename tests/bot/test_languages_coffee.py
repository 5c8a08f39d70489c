"""Coffee Traders in its rulebooks' words, through the real bot: 繁體中文 at 2 players
(against André) and 3, and 日本語 at 2. Bounded random panel answers, then /hand, the log and
the DMs; nothing a player saw holds an English word (tests/bot/test_languages.py: mentions,
links, `code` and player names aside)."""

from __future__ import annotations

import random

import pytest

from tests.bot.test_languages import Seen, by_suffix, look_around, play_panels


async def open_coffee_table(env, lang: str, players: int):
    guild = env.create_guild(name="咖啡", preferred_locale=lang)
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(n)) for n in ("alice", "bob", "carol")][:players]
    for member in members:
        await member.slash(channel, "settings", language=lang)
    await members[0].slash(channel, "new", game="coffee")
    lobby = channel.last_message
    for member in members[1:]:
        await member.click(lobby, custom_id=by_suffix(lobby, ":join"))
    await members[0].click(lobby, custom_id=by_suffix(lobby, ":start"))
    game = env.bot.manager.in_channel(channel.id)
    return channel, members, game, Seen({m.user.name.lower() for m in members})


@pytest.mark.parametrize(("lang", "players"), [("zh-TW", 2), ("zh-TW", 3), ("ja", 2)])
async def test_coffee_through_the_panels_holds_no_english_word(simcord_env, lang, players):
    rng = random.Random(players * 13 + len(lang))
    channel, members, game, seen = await open_coffee_table(simcord_env, lang, players)
    assert game is not None and game.table.game == "coffee"
    await play_panels(channel, members, game, seen, rng, moves=30)
    await look_around(channel, members, game, seen)
    kinds = {where.split(" ")[0] for where, _ in seen.texts}
    assert {"table", "panel", "/hand", "log", "DM"} <= kinds
    assert len(seen.texts) > 150
    english = seen.english()
    assert not english, english[:10]
