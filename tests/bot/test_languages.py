"""Every word in the player's language: The Castles of Burgundy played through the real bot in
繁體中文 and 日本語, the language settings, and who reads what in which language.

SimCord sends every interaction with the locale `en-US`, so the players choose their language
with `/settings language:` in a server whose preferred locale is theirs. Every text a player
sees (panels, their buttons and menus, the table embed, DMs, the log, the final scores) must
hold no English word: mentions, links, `code` (typed tokens), player names and the glossary's
proper names aside.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from types import SimpleNamespace

import discord
import pytest

from meeple_hall.bot.i18n import game_name
from meeple_hall.bot.languages import Languages, server_locale, user_locale
from tests.bot.conftest import buttons, raw_buttons, selects

PROPER_NAMES = {"alea"}  # data/burgundy/glossary.md, "left as they are"
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")
NOT_WORDS = re.compile(r"<[@#!&]+\d+>|https?://\S+|`[^`]*`")


@dataclass
class Seen:
    """Every text the players were shown, with where it was shown."""

    names: set[str]
    texts: list[tuple[str, str]] = field(default_factory=list)

    def add(self, where: str, text: str | None) -> None:
        if text:
            self.texts.append((where, text))

    def message(self, where: str, message) -> None:
        self.add(where, message.content)
        for embed in message.embeds:
            self.add(f"{where} embed title", embed.title)
            self.add(f"{where} embed", embed.description)
            for f in embed.fields:
                self.add(f"{where} field name", f.name)
                self.add(f"{where} field", f.value)
            self.add(f"{where} footer", embed.footer.text if embed.footer else None)
        self.components(where, message)

    def components(self, where: str, message) -> None:
        for button in all_buttons(message):
            self.add(f"{where} button", button.get("label"))
        for menu in selects(message):
            self.add(f"{where} menu placeholder", menu.get("placeholder"))
            for option in menu["options"]:
                self.add(f"{where} menu label", option.get("label"))
                self.add(f"{where} menu description", option.get("description"))

    def english(self) -> list[tuple[str, str, str]]:
        found = []
        for where, text in self.texts:
            words = ENGLISH_WORD.findall(NOT_WORDS.sub(" ", text))
            found += [(where, w, text) for w in words if w.lower() not in self.names]
        return found


def all_buttons(message) -> list[dict]:
    """Buttons as raw dicts, from a raw response or from a message in a channel."""
    if isinstance(message.components, list) and all(
        isinstance(r, dict) for r in message.components
    ):
        return raw_buttons(message)
    return [{"custom_id": cid, "label": label} for label, cid in buttons(message).items()]


def by_suffix(message, suffix: str) -> str:
    for button in all_buttons(message):
        if button["custom_id"].endswith(suffix):
            return button["custom_id"]
    raise AssertionError(f"no button ending {suffix} on {message.content!r}")


def live_table(channel):
    for message in reversed(channel.history()):
        if any(b["custom_id"].endswith(":take") for b in all_buttons(message)):
            return message
    raise AssertionError("no table message")


async def answer(member, panel, rng):
    """A random answer to the panel's decision, through its buttons or menus."""
    options = [b for b in raw_buttons(panel) if ":o:" in b["custom_id"]]
    if options:
        return await member.click(panel, custom_id=rng.choice(options)["custom_id"])
    menu = rng.choice(selects(panel))
    low, high = menu.get("min_values", 1), menu.get("max_values", 1)
    values = rng.sample([o["value"] for o in menu["options"]], rng.randint(max(low, 1), high))
    result = await member.select(panel, values, custom_id=menu["custom_id"])
    confirm = [b for b in raw_buttons(panel) if b["custom_id"].endswith(":c")]
    if confirm and result.response is not None:
        return await member.click(result.response, custom_id=confirm[0]["custom_id"])
    return result


async def open_table(env, lang: str, players: int, game_id: str = "burgundy", options=None):
    guild = env.create_guild(name="城堡", preferred_locale=lang)
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(n)) for n in ("alice", "bob", "carol")][:players]
    for member in members:
        await member.slash(channel, "settings", language=lang)
    host = members[0]
    if game_id == "burgundy":
        options = "start=seat1"
    if options:
        await host.slash(channel, "new", game=game_id, options=options)
    else:
        await host.slash(channel, "new", game=game_id)
    lobby = channel.last_message
    for member in members[1:]:
        await member.click(lobby, custom_id=by_suffix(lobby, ":join"))
    await host.click(lobby, custom_id=by_suffix(lobby, ":start"))
    game = env.bot.manager.in_channel(channel.id)
    return channel, members, game, Seen({m.user.name.lower() for m in members} | PROPER_NAMES)


async def play_panels(channel, members, game, seen: Seen, rng, moves: int) -> None:
    """Random answers through Take turn and the panels; every panel and table is seen."""
    for _ in range(moves):
        if not game.decisions():
            return
        seat = game.decisions()[0].seat
        member = members[seat]
        table = live_table(channel)
        seen.message("table", table)
        opened = await member.click(table, custom_id=by_suffix(table, ":take"))
        seen.message("panel", opened.response)
        result = await answer(member, opened.response, rng)
        if result.response is not None:
            seen.message("panel after", result.response)


async def look_around(channel, members, game, seen: Seen) -> None:
    table = live_table(channel)
    for member in members:
        hand = await member.click(table, custom_id=by_suffix(table, ":hand"))
        seen.message("/hand", hand.response)
    log = await members[0].click(table, custom_id=by_suffix(table, ":log"))
    seen.message("log", log.response)
    for member in members:
        for message in member.user.dm_channel.history():
            seen.message("DM", message)


async def finish_by_move(channel, members, game, seen: Seen, rng) -> None:
    """The rest of the game as one `/move` per turn (fast), then the final scores."""
    from tests.bot.conftest import plan_turn

    for _ in range(600):
        if not game.decisions():
            break
        seat = game.decisions()[0].seat
        text = " ".join(plan_turn(game, seat, rng))
        result = await members[seat].slash(channel, "move", text=text)
        seen.message("/move", result.response)
    assert not game.decisions() and game.state.over
    final = channel.last_message
    assert final.embeds and final.attachments
    seen.message("final scores", final)


@pytest.mark.parametrize(
    ("lang", "players", "to_the_end"),
    [("zh-TW", 2, True), ("zh-TW", 3, False), ("ja", 2, True)],
)
async def test_burgundy_through_the_panels_holds_no_english_word(
    simcord_env, lang, players, to_the_end
):
    rng = random.Random(players * 7 + len(lang))
    channel, members, game, seen = await open_table(simcord_env, lang, players)
    assert game is not None and game.table.game == "burgundy"
    await play_panels(channel, members, game, seen, rng, moves=40)
    await look_around(channel, members, game, seen)
    if to_the_end:
        await finish_by_move(channel, members, game, seen, rng)
    kinds = {where.split(" ")[0] for where, _ in seen.texts}
    assert {"table", "panel", "/hand", "log", "DM"} <= kinds
    assert ("final" in kinds) == to_the_end
    assert len(seen.texts) > 200
    english = seen.english()
    assert not english, english[:10]


@pytest.mark.parametrize(
    ("lang", "players", "moves"), [("zh-TW", 2, 60), ("zh-TW", 4, 40), ("ja", 3, 50)]
)
async def test_keyflower_through_the_panels_holds_no_english_word(
    simcord_env, lang, players, moves
):
    """Keyflower in its rulebooks' words: bounded random panel answers (bids, uses, the
    winter hand's menu when it comes), then /hand, the log and the DMs."""
    rng = random.Random(players * 11 + len(lang))
    channel, members, game, seen = await open_table(simcord_env, lang, players, "keyflower")
    assert game is not None and game.table.game == "keyflower"
    await play_panels(channel, members, game, seen, rng, moves=moves)
    if players == 2:  # past spring: the boats and the placing of won tiles were read too
        assert game.state.season >= 1
    await look_around(channel, members, game, seen)
    kinds = {where.split(" ")[0] for where, _ in seen.texts}
    assert {"table", "panel", "/hand", "log", "DM"} <= kinds
    assert len(seen.texts) > 150
    english = seen.english()
    assert not english, english[:10]


async def test_one_player_reads_chinese_while_the_table_stays_in_english(simcord_env):
    """The panel follows the clicking user's language; the table follows the server's."""
    guild = simcord_env.create_guild(name="Castles", preferred_locale="en-US")
    channel = guild.create_text_channel("games")
    alice, bob = (guild.add_member(simcord_env.create_user(n)) for n in ("alice", "bob"))
    await alice.slash(channel, "settings", language="zh-TW")
    await alice.slash(channel, "new", game="burgundy", options="start=seat1")
    lobby = channel.last_message
    assert lobby.embeds[0].title.startswith("The Castles of Burgundy")
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    table = live_table(channel)
    assert table.embeds[0].title == "The Castles of Burgundy"
    assert "Choose a die" in table.embeds[0].fields[-1].value
    panel = (await alice.click(table, custom_id=by_suffix(table, ":take"))).response
    assert "選擇骰子" in panel.content and "Choose" not in panel.content
    bobs = (await bob.click(table, custom_id=by_suffix(table, ":take"))).response
    assert "Choose" not in bobs.content and "現在沒有需要你決定的事" not in bobs.content
    await alice.slash(channel, "settings", language="auto")
    panel = (await alice.click(table, custom_id=by_suffix(table, ":take"))).response
    assert "Choose a die" in panel.content


async def test_the_server_language_needs_manage_server_and_then_the_table_follows_it(
    simcord_env,
):
    guild = simcord_env.create_guild(name="Castles", preferred_locale="en-US")
    channel = guild.create_text_channel("games")
    managers = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    owner = guild.add_member(simcord_env.create_user("owner"), roles=[managers])
    guest = guild.add_member(simcord_env.create_user("guest"))
    refused = await guest.slash(channel, "settings", server_language="ja")
    assert refused.response.ephemeral and "manage" in refused.response.content
    assert simcord_env.bot.languages.guilds == {}
    said = await owner.slash(channel, "settings", server_language="ja")
    assert "日本語" in said.response.content
    assert simcord_env.bot.languages.guilds == {guild.id: "ja"}
    await guest.slash(channel, "new", game="burgundy")
    lobby = channel.last_message
    assert lobby.embeds[0].title.startswith("ブルゴーニュの城")
    # chosen languages survive a restart: they are read back from the store
    store = simcord_env.bot.store
    reloaded = Languages(store)
    await reloaded.load()
    assert reloaded.guilds == {guild.id: "ja"}


def _interaction(locale: str, user_id: int = 5, guild=None, client=None):
    return SimpleNamespace(
        locale=discord.Locale(locale),
        guild_locale=None,
        user=SimpleNamespace(id=user_id),
        guild=guild,
        guild_id=guild.id if guild else None,
        client=client or SimpleNamespace(),
    )


def test_without_a_choice_the_discord_client_locale_decides():
    languages = Languages(store=None)  # type: ignore[arg-type]
    bot = SimpleNamespace(languages=languages)
    assert user_locale(_interaction("zh-TW", client=bot)) == "zh-TW"
    assert user_locale(_interaction("ja", client=bot)) == "ja"
    assert user_locale(_interaction("fr", client=bot)) == "en"
    languages.users[5] = "ja"
    assert user_locale(_interaction("zh-TW", client=bot)) == "ja"
    guild = SimpleNamespace(id=9, preferred_locale=discord.Locale("zh-TW"))
    assert server_locale(_interaction("en-US", guild=guild, client=bot)) == "zh-TW"
    languages.guilds[9] = "en"
    assert server_locale(_interaction("ja", guild=guild, client=bot)) == "en"


async def test_new_autocompletes_game_names_in_the_players_language(table):
    await table.alice.slash(table.channel, "settings", language="zh-TW")
    choices = await table.alice.autocomplete(table.channel, "new", "game", "")
    names = {c["value"]: c["name"] for c in choices}
    assert names["burgundy"] == game_name("zh-TW", "burgundy") != game_name("en", "burgundy")
    typed = await table.alice.autocomplete(table.channel, "new", "game", "burg")
    assert [c["value"] for c in typed] == ["burgundy"]
