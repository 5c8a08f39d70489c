"""Every platform string exists in English, 繁體中文 and 日本語."""

from __future__ import annotations

import re

import discord
import pytest
from discord import app_commands

from meeple_hall.bot.i18n import SUPPORTED, Translator, catalogue, game_name, t
from tests.bot.conftest import EVERY_GAME

FIELD = re.compile(r"{(\w+)}")


@pytest.mark.parametrize("locale", SUPPORTED)
def test_every_key_is_translated_with_the_same_fields(locale):
    english = catalogue("en")
    other = catalogue(locale)
    assert set(other) == set(english)
    for key, text in english.items():
        assert set(FIELD.findall(other[key])) == set(FIELD.findall(text)), key


def test_command_names_are_valid_discord_names():
    for locale in SUPPORTED:
        for key, name in catalogue(locale).items():
            if key.startswith("cmd."):
                assert re.fullmatch(r"[-_\w]{1,32}", name) and name == name.lower(), name


async def test_translator_names_commands_per_locale():
    translator = Translator()
    name = app_commands.locale_str("new", key="cmd.new")
    assert await translator.translate(name, discord.Locale.taiwan_chinese, None) == "開桌"
    assert await translator.translate(name, discord.Locale.japanese, None) == "卓を立てる"
    assert await translator.translate(name, discord.Locale.american_english, None) is None


def test_unknown_locales_fall_back_to_english():
    assert t("fr", "lobby.join") == "Join"
    assert t(discord.Locale.taiwan_chinese, "lobby.join") == "入座"


@pytest.mark.parametrize("game_id", EVERY_GAME)
@pytest.mark.parametrize("language", ["zh-TW", "ja"])
async def test_a_server_in_chinese_or_japanese_gets_its_table_in_its_language(
    simcord_env, game_id, language
):
    guild = simcord_env.create_guild(name="桌遊", preferred_locale=language)
    channel = guild.create_text_channel("games")
    host, guest = (guild.add_member(simcord_env.create_user(n)) for n in ("host", "guest"))
    await host.slash(channel, "new", game=game_id)
    lobby = channel.last_message
    assert game_name(language, game_id) in lobby.embeds[0].title
    await guest.click(lobby, label=t(language, "lobby.join"))
    await host.click(lobby, label=t(language, "lobby.start"))
    message = [m for m in channel.history() if m.attachments][-1]
    labels = [c.label for row in message.components for c in row.children]
    assert t(language, "table.take_turn") in labels
    assert message.embeds[0].fields[0].name == t(language, "table.players")
    assert game_name(language, game_id) in message.embeds[0].title


async def test_tournament_formats_and_clocks_are_named_in_every_language(simcord_env):
    commands = await simcord_env.bot.tree.fetch_commands()
    tournament = next(command for command in commands if command.name == "tournament")
    create = next(option for option in tournament.options if option.name == "create")
    options = {option.name: option for option in create.options}
    keys = {"format": "tournament.format.{}", "clock": "setting.clock.{}"}
    for name, key in keys.items():
        for choice in options[name].choices:
            assert choice.name == t("en", key.format(choice.value))
            for locale, lang in (
                (discord.Locale.taiwan_chinese, "zh-TW"),
                (discord.Locale.japanese, "ja"),
            ):
                assert choice.name_localizations[locale] == t(lang, key.format(choice.value))
