"""Every word the bot says, in English, 繁體中文 and 日本語.

Messages are looked up by key in `bot/locales/<locale>.json` and formatted with named
fields; a key missing in one language falls back to English. Slash command names and
descriptions go through discord.py's `Translator`, with keys passed as `locale_str`
extras (`cmd("new")`).
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

import discord
from discord import app_commands

from meeple_hall.games.core import catalogues
from meeple_hall.games.core.spacing import fill, spaced

LOCALES_DIR = files(__package__) / "locales"
DEFAULT = "en"
SUPPORTED = ("en", "zh-TW", "ja")

# Discord locale codes that share a catalogue.
_ALIASES = {"en-US": "en", "en-GB": "en", "zh-TW": "zh-TW", "ja": "ja"}


@cache
def catalogue(locale: str) -> dict[str, str]:
    return json.loads((LOCALES_DIR / f"{locale}.json").read_text(encoding="utf-8"))


def language(locale: discord.Locale | str | None) -> str:
    code = locale.value if isinstance(locale, discord.Locale) else (locale or DEFAULT)
    return _ALIASES.get(code, DEFAULT)


def t(locale: discord.Locale | str | None, key: str, /, **fields: Any) -> str:
    """The message `key` in the locale's language (English if it has none). A field may be
    a game's message (a `Msg`, its JSON form, or plain text): it is rendered in the same
    language from the game's catalogue."""
    lang = language(locale)
    text = catalogue(lang).get(key)
    if text is None:
        text = catalogue(DEFAULT)[key]
    if not fields:
        return spaced(lang, text)
    return fill(lang, text, {name: game_text(lang, value) for name, value in fields.items()})


def game_text(locale: discord.Locale | str | None, value: Any) -> str:
    """A game's words (a `Msg` or its JSON form; plain text from a game not yet converted
    is shown as it is) in the locale's language."""
    if isinstance(value, str | int):
        return str(value)
    return catalogues.render(language(locale), value)


def game_name(locale: discord.Locale | str | None, game_id: str) -> str:
    """A game's name as its catalogue gives it in the locale's language."""
    from meeple_hall import games

    return game_text(locale, catalogues.game_name(game_id, games.get(game_id).name))


def cmd(name: str) -> app_commands.locale_str:
    """A command or parameter name, translated through `cmd.<name>`."""
    return app_commands.locale_str(name, key=f"cmd.{name}")


def desc(key: str) -> app_commands.locale_str:
    """A command or parameter description, translated through `desc.<key>`."""
    return app_commands.locale_str(catalogue(DEFAULT)[f"desc.{key}"], key=f"desc.{key}")


def named(key: str) -> app_commands.locale_str:
    """A choice's name: English from the catalogue, translated through `key`."""
    return app_commands.locale_str(catalogue(DEFAULT)[key], key=key)


class Translator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        lang = _ALIASES.get(locale.value)
        if key is None or lang is None or lang == DEFAULT:
            return None
        text = catalogue(lang).get(key)
        if text is None or key.startswith("cmd."):  # a command's name is a name, not prose
            return text
        return spaced(lang, text)
