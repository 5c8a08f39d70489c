"""Every word in the player's language, in every game of `games.ids()`: a whole game played
to its final scores through the real bot's panels in 繁體中文 and 日本語 and `/rules` whole in
every language (tests/bot/language_play.py), then the language settings and who reads what
in which language.

The plays are the suite's longest tests: the default run plays one of them, the rest are
marked slow (tests/slow_marks.py keeps one real game's case of a test parametrised over the
games; `pytest -m slow` runs the others, and .ci/run does)."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import discord
import pytest

from meeple_hall.bot.i18n import game_name
from meeple_hall.bot.languages import Languages, server_locale, user_locale
from meeple_hall.bot.replies import pieces
from tests.bot.conftest import REAL_GAMES
from tests.bot.language_play import (
    TABLES,
    Pick,
    Played,
    Seen,
    by_suffix,
    check_rules,
    good_now_and_then,
    live_table,
    play_and_check,
    proper_names,
    random_pick,
    rules_in_every_language,
)


@dataclass(frozen=True)
class HowToPlay:
    """How a game's language play answers its panels: `pick` chooses each answer and the
    seed is `players * seed_step + len(server)`, so each table plays a different game."""

    pick: Pick
    seed_step: int


# Random answers where they reach the whole game; the good AI's half the time where random
# answers would miss parts of it. A game not listed here plays like DEFAULT_PLAY.
PLAYS = {
    # The game's length is fixed (five phases of five rounds): every die, action, tile and
    # discard answered at random.
    "burgundy": HowToPlay(random_pick, seed_step=7),
    # The three periods are as long whatever is chosen, and random answers reach more of the
    # game's decisions than the good AI's.
    "coffee": HowToPlay(random_pick, seed_step=17),
    # Random answers mostly pass: with the AI's, tiles are won, upgraded and used for
    # transport, and winter tiles are placed.
    "keyflower": HowToPlay(good_now_and_then(0.5), seed_step=11),
    # The AI's families age and die sooner than random ones, so the chronicle and the graves
    # fill in fewer moves.
    "village": HowToPlay(good_now_and_then(0.5), seed_step=13),
}
DEFAULT_PLAY = HowToPlay(good_now_and_then(0.5), seed_step=19)


def language_plays() -> list:
    """Every real game at every table of TABLES."""
    return [
        pytest.param(game_id, server, players, id=f"{game_id}-{server}-{players}")
        for game_id in REAL_GAMES
        for server, players in TABLES
    ]


def check_the_log_holds_messages(played: Played) -> None:
    """The engine logs messages for the bot to render in each reader's language, not text."""
    logged = played.game.view(None)["log"]
    assert logged and all(isinstance(event, dict) for event in logged)


@pytest.mark.parametrize(("game_id", "server", "players"), language_plays())
async def test_a_game_to_its_final_scores_holds_no_english_word(
    simcord_env, game_id, server, players
):
    how = PLAYS.get(game_id, DEFAULT_PLAY)
    seed = players * how.seed_step + len(server)
    played = await play_and_check(simcord_env, game_id, server, players, how.pick, seed=seed)
    assert len(played.seen.texts) > 1000
    check_the_log_holds_messages(played)


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_rules_are_whole_in_every_language(simcord_env, game_id):
    check_rules(await rules_in_every_language(simcord_env, game_id), proper_names(game_id))


def test_the_check_finds_english_words_and_passes_what_is_no_word():
    seen = Seen({"alice"} | proper_names("keyflower"))
    seen.add("panel", "輪到你了：Bid for a tile")
    seen.add("panel", "<@123> `bid S07 red 2` alice R&D Games 3 金幣 https://example.org/x")
    assert [word for _, word, _ in seen.english()] == ["Bid", "for", "tile"]
    assert proper_names("village") == {"plan"} and proper_names("coffee") == set()


def test_a_long_text_goes_out_whole_in_pieces_cut_between_lines():
    text = "\n".join(["a" * 1500, "b" * 400, "c" * 200, "d" * 4100])
    out = pieces(text)
    assert [len(p) for p in out] == [1901, 200, 2000, 2000, 100]
    assert "".join(out).replace("\n", "") == text.replace("\n", "")
    assert pieces("short\ntext") == ["short\ntext"]


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
