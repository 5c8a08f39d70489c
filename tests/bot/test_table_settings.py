"""Table settings (a feature's, not a game's) in the lobby and in `/new options:`."""

from __future__ import annotations

import pytest

from meeple_hall.bot import table_settings
from meeple_hall.bot.i18n import catalogue
from meeple_hall.bot.table_settings import TableSetting
from tests.bot.conftest import selects, stored_message


@pytest.fixture
def pace(monkeypatch):
    """A made-up setting with its words in the English catalogue."""
    english = catalogue("en")
    words = {"setting.pace": "Pace", "setting.pace.slow": "Slow", "setting.pace.fast": "Fast"}
    for key, text in words.items():
        monkeypatch.setitem(english, key, text)
    setting = table_settings.declare(TableSetting("pace", ("slow", "fast"), "slow"))
    yield setting
    table_settings.withdraw("pace")


async def test_a_setting_is_typed_in_new_and_kept_apart_from_the_games_options(table, pace):
    await table.alice.slash(table.channel, "new", game="pebbles", options="coins=3 pace=fast")
    stored = await table.env.bot.store.open_table_in(table.channel.id)
    assert stored.options == {"coins": "3"} and stored.settings == {"pace": "fast"}
    lobby = table.channel.last_message
    assert {(f.name, f.value) for f in lobby.embeds[0].fields} >= {("Pace", "Fast")}
    await table.alice.click(lobby, label="Start")
    game = table.env.bot.manager.in_channel(table.channel.id)
    assert table_settings.value(game.table, "pace") == "fast"


async def test_a_bad_setting_value_is_refused_with_the_choices(table, pace):
    bad = await table.alice.slash(table.channel, "new", game="pebbles", options="pace=warp")
    assert bad.ephemeral and "slow, fast" in bad.response.content
    assert await table.env.bot.store.open_table_in(table.channel.id) is None


async def test_the_host_sets_a_setting_from_the_lobby_menu(table, pace):
    await table.alice.slash(table.channel, "new", game="pebbles")
    lobby = table.channel.last_message
    # its own menu, or a line of the shared one when the table has more than three options
    menu = next(
        m
        for m in selects(stored_message(table.env, lobby))
        if m["custom_id"].endswith((":opt:pace", ":opts"))
        and any(o["value"] in ("fast", "pace=fast") for o in m["options"])
    )
    value = "fast" if menu["custom_id"].endswith(":opt:pace") else "pace=fast"
    await table.bob.click(lobby, label="Join")
    refused = await table.bob.select(lobby, [value], custom_id=menu["custom_id"])
    assert "Only the host" in refused.response.content
    await table.alice.select(lobby, [value], custom_id=menu["custom_id"])
    stored = await table.env.bot.store.open_table_in(table.channel.id)
    assert stored.settings == {"pace": "fast"}


async def test_options_beyond_three_menus_share_one(table, pace):
    await table.alice.slash(table.channel, "new", game="coffee")  # three options of its own
    lobby = table.channel.last_message
    menus = selects(stored_message(table.env, lobby))
    option_menus = [m for m in menus if ":opt" in m["custom_id"]]
    assert len(option_menus) <= 3
    assert option_menus[0]["custom_id"].endswith(":opt:" + _coffee_options()[0].id)
    # every choice of every option and setting is offered, in its own menu or a shared one
    offered = set()
    for menu in option_menus:
        name = menu["custom_id"].split(":")[3] if ":opt:" in menu["custom_id"] else None
        offered |= {f"{name}={o['value']}" if name else o["value"] for o in menu["options"]}
    expected = {f"{o.id}={c.id}" for o in _coffee_options() for c in o.choices}
    expected |= {f"{s.id}={c}" for s in table_settings.declared() for c in s.choices}
    assert offered == expected
    shared = next(m for m in option_menus if "pace=fast" in [o["value"] for o in m["options"]])
    await table.alice.select(lobby, ["pace=fast"], custom_id=shared["custom_id"])
    stored = await table.env.bot.store.open_table_in(table.channel.id)
    assert stored.settings == {"pace": "fast"}


def _coffee_options():
    from meeple_hall import games

    return games.get("coffee").options


async def test_new_autocompletes_settings_too(table, pace):
    choices = await table.alice.autocomplete(table.channel, "new", "options", "pa", game="pebbles")
    assert [c["value"] for c in choices] == ["pace=slow", "pace=fast"]
