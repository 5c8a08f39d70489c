"""The slash commands each bot syncs at its start (bot/__init__.py, Tree.sync): what
discord.py's own CommandTree translates, in English, 繁體中文 and 日本語, worked out once a
process and sent again as it is by every later bot."""

from __future__ import annotations

from typing import Any

from meeple_hall.bot import Translator
from meeple_hall.bot.i18n import t
from tests.bot.conftest import buttons

SYNCED_FIELDS = (
    "name",
    "description",
    "options",
    "name_localizations",
    "description_localizations",
)


def synced(env) -> dict[str, dict[str, Any]]:
    """The global commands Discord holds (SimCord's record), by name."""
    return {command["name"]: command for command in env.backend.commands[None].values()}


def the_same(registered: dict[str, Any], payload: dict[str, Any]) -> bool:
    return all(registered.get(field) == payload.get(field) for field in SYNCED_FIELDS)


async def test_every_start_syncs_what_discord_py_translates(table, make_bot, monkeypatch):
    tree = table.env.bot.tree
    commands = tree._get_all_commands()
    fresh = [await command.get_translated_payload(tree, tree.translator) for command in commands]
    assert await tree.translated_payload(commands) == fresh
    held = synced(table.env)
    assert sorted(held) == sorted(payload["name"] for payload in fresh)
    assert all(the_same(held[payload["name"]], payload) for payload in fresh)
    new = held["new"]
    assert new["name_localizations"]["zh-TW"] == t("zh-TW", "cmd.new")
    assert new["name_localizations"]["ja"] == t("ja", "cmd.new")

    translations = []
    original = Translator.translate

    async def counted(self, string, locale, context):
        translations.append((string, locale))
        return await original(self, string, locale, context)

    monkeypatch.setattr(Translator, "translate", counted)
    await table.env.restart_bot(make_bot())
    assert translations == []  # the second bot's commands were translated already
    again = synced(table.env)
    assert sorted(again) == sorted(held)
    assert all(the_same(again[name], held[name]) for name in held)
    await table.alice.slash(table.channel, "new", game="pebbles")
    assert "Join" in buttons(table.channel.last_message)  # the commands answer
