"""Every word in the player's language: Village played through the real bot in 繁體中文 (two and
three players) and 日本語 (two players). Every text a player saw (the table embed, panels with
their buttons and menus, /hand, the log and the DMs) holds no English word: mentions, links,
`code` (typed tokens), player names and the glossary's proper names aside
(tests/bot/test_languages.py has the machinery)."""

from __future__ import annotations

import random

import pytest

from tests.bot.test_languages import Seen, by_suffix, look_around, play_panels

PROPER_NAMES: set[str] = set()  # data/village/glossary.md: none left in English


async def open_village(env, lang: str, players: int):
    guild = env.create_guild(name="村莊", preferred_locale=lang)
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(n)) for n in ("alice", "bob", "carol")][:players]
    for member in members:
        await member.slash(channel, "settings", language=lang)
    host = members[0]
    await host.slash(channel, "new", game="village", options="start=seat1")
    lobby = channel.last_message
    seen = Seen({m.user.name.lower() for m in members} | PROPER_NAMES)
    for member in members[1:]:
        await member.click(lobby, custom_id=by_suffix(lobby, ":join"))
    await host.click(lobby, custom_id=by_suffix(lobby, ":start"))
    game = env.bot.manager.in_channel(channel.id)
    return channel, members, game, seen


@pytest.mark.parametrize(("lang", "players"), [("zh-TW", 2), ("zh-TW", 3), ("ja", 2)])
async def test_village_through_the_panels_holds_no_english_word(simcord_env, lang, players):
    rng = random.Random(players * 11 + len(lang))
    channel, members, game, seen = await open_village(simcord_env, lang, players)
    assert game is not None and game.table.game == "village"
    await play_panels(channel, members, game, seen, rng, moves=30)
    await look_around(channel, members, game, seen)
    kinds = {where.split(" ")[0] for where, _ in seen.texts}
    assert {"table", "panel", "/hand", "log", "DM"} <= kinds
    assert len(seen.texts) > 150
    logged = game.view(None)["log"]
    assert logged and all(isinstance(event, dict) for event in logged)  # messages, not text
    english = seen.english()
    assert not english, english[:10]
