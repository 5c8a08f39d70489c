"""`/leaderboard` lists provisional players (fewer rated games than the threshold) after
the established ones, marked and explained; `/profile` shows another player's current
tables of this server only (all of them to the player themself, nothing of anyone else's
in a DM); the `scope` and `language: auto` choices are named in every language. In the
test game and each real game, in English, 繁體中文 and 日本語 (issue 22, part C).

Rated games are finished the way another process finishes one: the store ends the game
with its result (`finish_table`, in one transaction with the results rows) and this
process hears of it (`changed_elsewhere`), so each game needs no play-through."""

from __future__ import annotations

import discord
import pytest

from meeple_hall.bot.i18n import game_name, t
from meeple_hall.bot.ratings import MIN_GAMES_LISTED
from meeple_hall.bot.store import FinalResult
from tests.bot.conftest import EVERY_GAME, Table

IN_OTHER_LANGUAGES = [("burgundy", "zh-TW"), ("keyflower", "ja"), ("coffee", "ja")]
IN_OTHER_LANGUAGES += [("village", "zh-TW")]


def hall(env, name: str = "Hall", locale: str = "en-US") -> Table:
    guild = env.create_guild(name=name, preferred_locale=locale)
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(n)) for n in ("alice", "bob", "carol", "dave")]
    return Table(env, guild, channel, *members)


async def open_game(channel, host, guest, game_id: str):
    """`host` opens a lobby, `guest` joins, `host` starts: the live game."""
    lobby = (await host.slash(channel, "new", game=game_id)).response
    await guest.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    return host._env.bot.manager.in_channel(channel.id)


async def rated_game(channel, winner, loser, game_id: str) -> None:
    """A rated two-player game that `winner` (the host) wins, finished as another process
    would finish it."""
    env = winner._env
    game = await open_game(channel, winner, loser, game_id)
    result = FinalResult(scores=(20, 10), ranks=(1, 2), breakdown=({}, {}))
    await env.bot.store.finish_table(game.id, result)
    await env.bot.manager.changed_elsewhere(game.id)


def lines_of(text: str, ids: list[int]) -> list[int]:
    """The order in which the users' mentions appear in the text."""
    return sorted(ids, key=lambda user: text.index(f"<@{user}>"))


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_provisional_players_come_after_the_established_ones_marked(simcord_env, game_id):
    table = hall(simcord_env)
    for _ in range(MIN_GAMES_LISTED):
        await rated_game(table.channel, table.alice, table.bob, game_id)
    await rated_game(table.channel, table.carol, table.dave, game_id)  # one game each

    board = await table.dave.slash(table.channel, "leaderboard", game=game_id)
    text = board.response.content
    assert board.ephemeral and board.response.attachments
    assert text.splitlines()[0] == t(
        "en", "ratings.leaderboard_title.server", game=game_name("en", game_id)
    )
    people = [table.alice.id, table.bob.id, table.carol.id, table.dave.id]
    order = lines_of(text, people)
    assert order[:2] == [table.alice.id, table.bob.id]  # established, best first
    assert set(order[2:]) == {table.carol.id, table.dave.id}  # provisional after them
    book = await table.env.bot.ratings.book(game_id, table.guild.id)
    for place, user in enumerate(order, start=1):
        player = book.players[user]
        mark = "?" if user in (table.carol.id, table.dave.id) else ""
        line = t(
            "en",
            "ratings.leaderboard_line",
            place=place,
            user=f"<@{user}>",
            rating=f"{player.shown:.1f}{mark}",
            games=player.games,
        )
        assert line in text.splitlines()
    assert t("en", "ratings.provisional_note", needed=MIN_GAMES_LISTED) in text
    dave_place = order.index(table.dave.id) + 1
    mine = t(
        "en",
        "ratings.your_place_provisional",
        place=dave_place,
        count=4,
        games=1,
        needed=MIN_GAMES_LISTED,
    )
    assert mine in text

    # An established caller's own line, and nobody listed on a board with no rated game.
    board = await table.alice.slash(table.channel, "leaderboard", game=game_id)
    assert t("en", "ratings.your_place", place=1, count=4) in board.response.content
    other = next(g for g in EVERY_GAME if g != game_id)
    empty = await table.alice.slash(table.channel, "leaderboard", game=other)
    assert t("en", "ratings.empty") in empty.response.content
    assert t("en", "ratings.not_listed") in empty.response.content
    assert "?" not in empty.response.content


@pytest.mark.parametrize(("game_id", "lang"), IN_OTHER_LANGUAGES)
async def test_the_leaderboard_in_the_players_language(simcord_env, game_id, lang):
    table = hall(simcord_env)
    await table.carol.slash(table.channel, "settings", language=lang)  # the client says en-US
    await rated_game(table.channel, table.alice, table.bob, game_id)
    board = await table.carol.slash(table.channel, "leaderboard", game=game_id, scope="global")
    text = board.response.content
    assert text.splitlines()[0] == t(
        lang, "ratings.leaderboard_title.global", game=game_name(lang, game_id)
    )
    assert t(lang, "ratings.provisional_note", needed=MIN_GAMES_LISTED) in text
    assert t(lang, "ratings.not_listed") in text
    assert lines_of(text, [table.alice.id, table.bob.id]) == [table.alice.id, table.bob.id]


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_profile_shows_other_servers_tables_only_to_the_player(simcord_env, game_id):
    here = hall(simcord_env, "Here")
    away = simcord_env.create_guild(name="Away", preferred_locale="en-US")
    away_channel = away.create_text_channel("games")
    alice_away = away.add_member(here.alice.user)
    carol_away = away.add_member(here.carol.user)
    home = await open_game(here.channel, here.alice, here.bob, game_id)
    elsewhere = await open_game(away_channel, alice_away, carol_away, game_id)
    home_link = f"/channels/{here.guild.id}/{home.table.channel_id})"
    away_link = f"/channels/{away.id}/{elsewhere.table.channel_id})"

    seen_by_bob = await here.bob.slash(here.channel, "profile", user=here.alice)
    assert home_link in seen_by_bob.response.content
    assert away_link not in seen_by_bob.response.content
    own = await here.alice.slash(here.channel, "profile")
    assert home_link in own.response.content and away_link in own.response.content

    in_dm = await here.alice.user.slash("profile")
    assert home_link in in_dm.response.content and away_link in in_dm.response.content
    nosy = await here.bob.user.slash("profile", user=here.alice.user)
    assert nosy.ephemeral and nosy.response.content == t("en", "profile.dm_others")
    assert "/channels/" not in nosy.response.content


@pytest.mark.parametrize("lang", ["zh-TW", "ja"])
async def test_a_profile_in_the_players_language(simcord_env, lang):
    table = hall(simcord_env)
    await table.bob.slash(table.channel, "settings", language=lang)
    game = await open_game(table.channel, table.alice, table.bob, "keyflower")
    shown = await table.bob.slash(table.channel, "profile", user=table.alice)
    links = f"[{game_name(lang, 'keyflower')}](https://discord.com/channels/{table.guild.id}/"
    expected = t(lang, "profile.current", links=links)
    assert expected in shown.response.content and game.table.channel_id
    assert t(lang, "profile.no_games") in shown.response.content


async def test_scope_and_auto_choices_are_named_in_every_language(simcord_env):
    commands = await simcord_env.bot.tree.fetch_commands()
    by_name = {command.name: command for command in commands}
    scope = next(o for o in by_name["leaderboard"].options if o.name == "scope")
    language = next(o for o in by_name["settings"].options if o.name == "language")
    auto = next(c for c in language.choices if c.value == "auto")
    for locale, lang in ((discord.Locale.taiwan_chinese, "zh-TW"), (discord.Locale.japanese, "ja")):
        for choice in scope.choices:
            assert choice.name_localizations[locale] == t(lang, f"choice.scope.{choice.value}")
        assert auto.name_localizations[locale] == t(lang, "choice.language.auto")
    assert {c.name for c in scope.choices} == {"this server", "all servers"}
    assert auto.name == t("en", "choice.language.auto")
