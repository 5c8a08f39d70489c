"""The lobby flow: open, join, leave, AI seats, options, start, cancel, busy channels."""

from __future__ import annotations

import copy

import discord
import pytest

from meeple_hall import games
from meeple_hall.bot import table_settings
from meeple_hall.bot.i18n import game_name
from tests.bot.conftest import EVERY_GAME, add_ai, buttons, click_as_it_was, stored_message
from tests.bot.every_game import first_choosable, lobby_menu_value

every_game = pytest.mark.parametrize("game_id", EVERY_GAME)


@every_game
async def test_new_posts_a_lobby_with_the_creator_seated(table, game_id):
    result = await table.alice.slash(table.channel, "new", game=game_id)
    lobby = table.channel.last_message
    assert result.acknowledged
    assert game_name("en", game_id) in lobby.embeds[0].title
    assert table.alice.mention in lobby.embeds[0].fields[0].value
    assert {"Join", "Leave", "Add AI", "Start", "Cancel"} <= set(buttons(lobby))


@every_game
async def test_join_leave_and_ai_through_buttons_and_commands(table, game_id):
    await table.alice.slash(table.channel, "new", game=game_id)
    lobby = table.channel.last_message
    await table.bob.click(lobby, label="Join")
    result = await table.carol.slash(table.channel, "join")
    assert result.ephemeral and "You have a seat" in result.response.content
    await add_ai(table.bob, lobby)
    seats = table.channel.last_message.embeds[0].fields[0].value
    lobby = table.channel.get_message(lobby.id) if hasattr(table.channel, "get_message") else lobby
    table_row = await table.env.bot.store.open_table_in(table.channel.id)
    assert [s.name for s in table_row.seats] == ["alice", "bob", "carol", "AI 1"]
    await table.carol.slash(table.channel, "leave")
    table_row = await table.env.bot.store.open_table_in(table.channel.id)
    assert [s.name for s in table_row.seats] == ["alice", "bob", "AI 1"]
    assert seats


@every_game
async def test_a_full_table_turns_joiners_away(table, game_id):
    await table.alice.slash(table.channel, "new", game=game_id)
    lobby = table.channel.last_message
    most = games.get(game_id).max_players
    for _ in range(most - 1):
        await add_ai(table.alice, lobby)
    result = await table.bob.click(lobby, label="Join")
    assert result.ephemeral and f"full ({most} seats)" in result.response.content
    assert len((await table.env.bot.store.open_table_in(table.channel.id)).seats) == most


@every_game
async def test_joining_twice_is_refused(table, game_id):
    await table.alice.slash(table.channel, "new", game=game_id)
    result = await table.alice.click(table.channel.last_message, label="Join")
    assert result.ephemeral and "already have a seat" in result.response.content


@every_game
async def test_only_the_host_or_a_manager_starts_or_cancels(table, game_id):
    await table.alice.slash(table.channel, "new", game=game_id)
    lobby = table.channel.last_message
    await table.bob.click(lobby, label="Join")
    for label in ("Start", "Cancel"):
        result = await table.bob.click(lobby, label=label)
        assert result.ephemeral and "Only the host" in result.response.content
    assert (await table.env.bot.store.open_table_in(table.channel.id)).status.value == "lobby"
    managers = table.guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = table.guild.add_member(table.env.create_user("mod"), roles=[managers])
    await mod.slash(table.channel, "start")
    assert table.env.bot.manager.in_channel(table.channel.id) is not None


@every_game
async def test_host_removes_a_seat_and_sets_an_option(table, game_id):
    choosable = first_choosable(game_id)  # a game's option, or a table setting
    await table.alice.slash(table.channel, "new", game=game_id)
    lobby = table.channel.last_message
    await table.bob.click(lobby, label="Join")
    await table.carol.click(lobby, label="Join")
    menu, value = lobby_menu_value(
        stored_message(table.env, lobby), choosable.name, choosable.other
    )
    stranger = await table.bob.select(lobby, [value], custom_id=menu)
    assert "Only the host" in stranger.response.content
    await table.alice.select(lobby, [value], custom_id=menu)
    await table.alice.select(lobby, [f"1:{table.bob.id}"], custom_id=f"l:{_table_id(lobby)}:kick")
    stored = await table.env.bot.store.open_table_in(table.channel.id)
    chosen = stored.settings if choosable.is_setting else stored.options
    assert chosen[choosable.name] == choosable.other
    assert [s.user_id for s in stored.seats] == [table.alice.id, table.carol.id]
    await table.alice.click(lobby, label="Start")
    game = table.env.bot.manager.in_channel(table.channel.id)
    assert [s.user_id for s in game.table.seats] == [table.alice.id, table.carol.id]
    if choosable.is_setting:
        assert table_settings.value(game.table, choosable.name) == choosable.other
    else:  # the game was set up with the option
        assert game.table.options[choosable.name] == choosable.other
        engine = games.get(game_id)
        expected = engine.new(2, game.table.seed, game.table.options)
        assert engine.dump(game.state) == engine.dump(expected)


@every_game
async def test_options_in_the_new_command_are_checked(table, game_id):
    choosable = first_choosable(game_id)
    bad = await table.alice.slash(table.channel, "new", game=game_id, options=f"{choosable.name}=9")
    listed = ", ".join(choosable.choices)
    assert bad.ephemeral and listed in bad.response.content, bad.response.content
    assert await table.env.bot.store.open_table_in(table.channel.id) is None
    typed = f"{choosable.name}={choosable.other}"
    await table.alice.slash(table.channel, "new", game=game_id, options=typed)
    stored = await table.env.bot.store.open_table_in(table.channel.id)
    chosen = stored.settings if choosable.is_setting else stored.options
    assert chosen[choosable.name] == choosable.other


@every_game
async def test_new_autocompletes_games_and_options(table, game_id):
    found = await table.alice.autocomplete(table.channel, "new", "game", game_id[:4])
    assert game_id in [c["value"] for c in found]
    choosable = first_choosable(game_id)
    typed = choosable.name[:2]
    options = await table.alice.autocomplete(table.channel, "new", "options", typed, game=game_id)
    offered = [c["value"] for c in options]
    assert [f"{choosable.name}={c}" for c in choosable.choices] == [
        o for o in offered if o.startswith(f"{choosable.name}=")
    ]
    assert all(o.startswith(typed) for o in offered), offered


async def test_the_test_game_autocompletes_alone_and_its_option_choices_in_order(table):
    games_found = await table.alice.autocomplete(table.channel, "new", "game", "peb")
    assert [c["value"] for c in games_found] == ["pebbles"]
    options = await table.alice.autocomplete(table.channel, "new", "options", "co", game="pebbles")
    assert [c["value"] for c in options] == ["coins=3", "coins=5"]


async def test_unknown_game_is_refused(table):
    result = await table.alice.slash(table.channel, "new", game="chess")
    assert result.ephemeral and "unknown game 'chess'" in result.response.content
    assert await table.env.bot.store.open_table_in(table.channel.id) is None


@every_game
async def test_a_busy_channel_points_to_threads_and_a_thread_has_its_own_table(table, game_id):
    await table.alice.slash(table.channel, "new", game=game_id)
    busy = await table.bob.slash(table.channel, "new", game=game_id)
    assert busy.ephemeral and "thread" in busy.response.content
    thread = _thread(table, table.bob, "second table")
    await table.bob.slash(thread, "new", game=game_id)
    assert (await table.env.bot.store.open_table_in(thread.id)).host_id == table.bob.id


@every_game
async def test_cancel_frees_the_channel(table, game_id):
    await table.alice.slash(table.channel, "new", game=game_id)
    lobby = table.channel.last_message
    await table.alice.click(lobby, label="Cancel")
    assert await table.env.bot.store.open_table_in(table.channel.id) is None
    assert not buttons(table.channel.last_message)
    again = await table.bob.slash(table.channel, "new", game=game_id)
    assert not again.ephemeral


@every_game
async def test_a_host_who_leaves_hands_the_lobby_on(table, game_id):
    await table.alice.slash(table.channel, "new", game=game_id)
    lobby = table.channel.last_message
    await table.bob.click(lobby, label="Join")
    await table.alice.click(lobby, label="Leave")
    stored = await table.env.bot.store.open_table_in(table.channel.id)
    assert stored.host_id == table.bob.id


async def test_lobby_commands_without_a_lobby_say_so(table):
    result = await table.alice.slash(table.channel, "join")
    assert result.ephemeral and "no open lobby" in result.response.content


def _thread(table, owner, name):
    """A public thread a member opened under the table's channel (the test narrates it)."""
    from simcord.builders import ChannelHandle

    made = table.env.backend.create_thread(table.channel.id, name, owner.id)
    table.env.backend.add_thread_member(made.id, table.alice.id)
    return ChannelHandle(table.env, table.guild, made)


def _table_id(message) -> str:
    return buttons(message)["Join"].split(":")[1]


@every_game
async def test_a_remove_seat_menu_left_open_never_removes_whoever_sits_there_now(table, game_id):
    await table.alice.slash(table.channel, "new", game=game_id)
    lobby = table.channel.last_message
    await table.bob.click(lobby, label="Join")
    await table.carol.click(lobby, label="Join")
    kick = f"l:{_table_id(lobby)}:kick"
    shown = copy.deepcopy(stored_message(table.env, lobby))
    # The host's menu still shows Bob in seat 2, but Bob left and Carol moved up.
    await table.bob.click(lobby, label="Leave")
    stale = await click_as_it_was(table.alice, shown, kick, [f"1:{table.bob.id}"])
    assert "can't be removed" in stale.response.content
    forged = await click_as_it_was(table.alice, shown, kick, ["1"])
    assert "can't be removed" in forged.response.content
    stored = await table.env.bot.store.open_table_in(table.channel.id)
    assert [s.user_id for s in stored.seats] == [table.alice.id, table.carol.id]
