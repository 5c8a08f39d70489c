"""Table settings (a feature's, not a game's) in the lobby and in `/new options:`."""

from __future__ import annotations

import pytest

from meeple_hall import games
from meeple_hall.bot import table_settings
from meeple_hall.bot.cogs.lobby import applies
from meeple_hall.bot.i18n import catalogue
from meeple_hall.bot.table_settings import TableSetting
from tests.bot.conftest import EVERY_GAME, selects, stored_message
from tests.bot.every_game import lobby_menu_value

every_game = pytest.mark.parametrize("game_id", EVERY_GAME)


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


@every_game
async def test_a_setting_is_typed_in_new_and_kept_apart_from_the_games_options(
    table, pace, game_id
):
    option = next(iter(games.get(game_id).options), None)
    typed = [f"{option.id}={option.choices[-1].id}"] if option else []
    await table.alice.slash(
        table.channel, "new", game=game_id, options=" ".join([*typed, "pace=fast"])
    )
    stored = await table.env.bot.store.open_table_in(table.channel.id)
    if option:
        assert stored.options[option.id] == option.choices[-1].id
    assert "pace" not in stored.options and stored.settings == {"pace": "fast"}
    lobby = table.channel.last_message
    assert {(f.name, f.value) for f in lobby.embeds[0].fields} >= {("Pace", "Fast")}
    await table.bob.click(lobby, label="Join")
    await table.alice.click(lobby, label="Start")
    game = table.env.bot.manager.in_channel(table.channel.id)
    assert table_settings.value(game.table, "pace") == "fast"


@every_game
async def test_a_bad_setting_value_is_refused_with_the_choices(table, pace, game_id):
    bad = await table.alice.slash(table.channel, "new", game=game_id, options="pace=warp")
    assert bad.ephemeral and "slow, fast" in bad.response.content
    assert await table.env.bot.store.open_table_in(table.channel.id) is None


@every_game
async def test_the_host_sets_a_setting_from_the_lobby_menu(table, pace, game_id):
    await table.alice.slash(table.channel, "new", game=game_id)
    lobby = table.channel.last_message
    # its own menu, or a line of a shared one when the table has more than three options
    menu, value = lobby_menu_value(stored_message(table.env, lobby), "pace", "fast")
    await table.bob.click(lobby, label="Join")
    refused = await table.bob.select(lobby, [value], custom_id=menu)
    assert "Only the host" in refused.response.content
    await table.alice.select(lobby, [value], custom_id=menu)
    stored = await table.env.bot.store.open_table_in(table.channel.id)
    assert stored.settings == {"pace": "fast"}


@every_game
async def test_options_beyond_three_menus_share_one(table, pace, game_id):
    """Coffee Traders has three options of its own: with the settings, more than three
    menus' worth."""
    await table.alice.slash(table.channel, "new", game=game_id)
    lobby = table.channel.last_message
    menus = selects(stored_message(table.env, lobby))
    option_menus = [m for m in menus if ":opt" in m["custom_id"]]
    assert len(option_menus) <= 3
    options = games.get(game_id).options
    kept = {o.id: [c for c in o.choices if c.id == o.default or applies(c, 1)] for o in options}
    shown = [o for o in options if len(kept[o.id]) > 1]
    if shown and ":opt:" in option_menus[0]["custom_id"]:
        assert option_menus[0]["custom_id"].endswith(":opt:" + shown[0].id)
    # every choice that applies to the lobby's one seat (the host's), of every option left
    # with a choice, and every setting is offered, in its own menu or a shared one
    offered = set()
    for menu in option_menus:
        name = menu["custom_id"].split(":")[3] if ":opt:" in menu["custom_id"] else None
        offered |= {f"{name}={o['value']}" if name else o["value"] for o in menu["options"]}
    expected = {f"{o}={c.id}" for o, choices in kept.items() if len(choices) > 1 for c in choices}
    expected |= {f"{s.id}={c}" for s in table_settings.declared() for c in s.choices}
    assert offered == expected
    menu, value = lobby_menu_value(stored_message(table.env, lobby), "pace", "fast")
    await table.alice.select(lobby, [value], custom_id=menu)
    stored = await table.env.bot.store.open_table_in(table.channel.id)
    assert stored.settings == {"pace": "fast"}


@every_game
async def test_new_autocompletes_settings_too(table, pace, game_id):
    choices = await table.alice.autocomplete(table.channel, "new", "options", "pa", game=game_id)
    assert [c["value"] for c in choices] == ["pace=slow", "pace=fast"]
