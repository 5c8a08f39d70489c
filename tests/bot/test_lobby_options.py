"""A lobby offers only the options that apply to its seats (issue 29): the Village solo
lobby offers Karla's options and neither seat compensation nor the start player, which
come with a second seat (and Karla's go); Coffee Traders at two seats offers handicaps for
seats 1 and 2 only; several shared option menus are told apart by their titles. In the
server's language, en, zh-TW and ja."""

from __future__ import annotations

import discord
import pytest

from meeple_hall import games
from meeple_hall.bot.i18n import game_text, t
from meeple_hall.games.core.messages import Msg
from tests.bot.conftest import LANGUAGES, raw_buttons, selects, stored_message


def moderator(table):
    mods = table.guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    return table.guild.add_member(table.env.create_user("mod"), roles=[mods])


def offered(lobby) -> set[tuple[str, str]]:
    """(option, choice) for every line of the lobby's option menus."""
    out = set()
    for menu in selects(lobby):
        custom_id = menu["custom_id"]
        if ":opt:" in custom_id:
            name = custom_id.rsplit(":", 1)[1]
            out |= {(name, line["value"]) for line in menu["options"]}
        elif ":opts" in custom_id:
            out |= {tuple(line["value"].split("=", 1)) for line in menu["options"]}
    return out


def option_names(game_id: str) -> set[str]:
    return {spec.id for spec in games.get(game_id).options}


def shown_names(lobby) -> set[str]:
    """The names of the lobby embed's fields (the options listed with their choice)."""
    return {field["name"] for field in lobby.embeds[0]["fields"]}


def label(game_id: str, option: str, lang: str) -> str:
    spec = next(s for s in games.get(game_id).options if s.id == option)
    return game_text(lang, spec.label)


async def open_lobby(table, game_id: str, lang: str):
    await moderator(table).slash(table.channel, "settings", server_language=lang)
    await table.alice.slash(table.channel, "new", game=game_id)
    return table.channel.last_message


async def add_ai(member, lobby, lang: str) -> None:
    """Add AI in the lobby's language, at the level the lobby highlights."""
    asked = await member.click(lobby, label=t(lang, "lobby.add_ai"))
    primary = discord.ButtonStyle.primary.value
    level = next(b for b in raw_buttons(asked.response) if b.get("style") == primary)
    await member.click(asked.response, custom_id=level["custom_id"])


def fresh(table, lobby):
    """The lobby message as it is now (SimCord's record: its raw menus and embed)."""
    return stored_message(table.env, lobby)


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_village_solo_lobby_offers_karla_and_no_options_for_several(table, lang):
    lobby = await open_lobby(table, "village", lang)
    shown = fresh(table, lobby)
    names = {name for name, _ in offered(shown)}
    assert names & option_names("village") == {"karla"}
    assert label("village", "karla", lang) in shown_names(shown)
    assert label("village", "compensation", lang) not in shown_names(shown)
    assert label("village", "start", lang) not in shown_names(shown)

    await add_ai(table.alice, lobby, lang)
    shown = fresh(table, lobby)
    names = {name for name, _ in offered(shown)}
    assert names & option_names("village") == {"compensation", "start"}
    assert label("village", "karla", lang) not in shown_names(shown)
    assert label("village", "compensation", lang) in shown_names(shown)


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_coffee_at_two_seats_offers_handicaps_for_those_seats(table, lang):
    lobby = await open_lobby(table, "coffee", lang)
    await add_ai(table.alice, lobby, lang)
    handicaps = {c for name, c in offered(fresh(table, lobby)) if name == "handicap"}
    assert handicaps == {"none", "p1-2", "p1-4", "p2-2", "p2-4"}

    for _ in range(3):
        await add_ai(table.alice, lobby, lang)
    shown = fresh(table, lobby)
    handicaps = {c for name, c in offered(shown) if name == "handicap"}
    assert {"p5-2", "p5-4"} <= handicaps
    titles = [menu.get("placeholder") for menu in selects(shown)]
    assert len(titles) == len(set(titles)), titles
    if sum(":opts" in menu["custom_id"] for menu in selects(shown)) > 1:
        assert t(lang, "lobby.more_options_part", part=2, parts=2) in titles


def players_field(message, title: str) -> str:
    """The value of the embed field named `title` (a message as SimCord records it)."""
    return next(f["value"] for f in message.embeds[0]["fields"] if f["name"] == title)


def newest_table(table, lang: str):
    """The newest message listing the players (the table), as SimCord records it."""
    title = t(lang, "table.players")
    for message in reversed(table.channel.history()):
        shown = stored_message(table.env, message)
        if shown.embeds and any(f["name"] == title for f in shown.embeds[0]["fields"]):
            return shown
    raise AssertionError("no table message")


AUTOMA = [("village", 0, "karla"), ("coffee", 1, "andre")]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("game_id", "ai_seats", "name"), AUTOMA)
async def test_the_automa_is_listed_among_the_players(table, lang, game_id, ai_seats, name):
    lobby = await open_lobby(table, game_id, lang)
    for _ in range(ai_seats):
        await add_ai(table.alice, lobby, lang)
    automa = t(lang, "table.automa", name=game_text(lang, Msg(f"{game_id}.{name}")))
    seats_title = t(lang, "lobby.seats", count=ai_seats + 1)
    assert automa in players_field(fresh(table, lobby), seats_title)

    await table.alice.click(lobby, label=t(lang, "lobby.start"))
    listed = players_field(newest_table(table, lang), t(lang, "table.players"))
    assert listed.splitlines()[-1] == f"· {automa}"


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_no_automa_where_the_seats_play_without_one(table, lang):
    lobby = await open_lobby(table, "coffee", lang)
    for _ in range(2):
        await add_ai(table.alice, lobby, lang)
    andre = game_text(lang, Msg("coffee.andre"))
    assert andre not in players_field(fresh(table, lobby), t(lang, "lobby.seats", count=3))
