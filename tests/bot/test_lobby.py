"""The lobby flow: open, join, leave, AI seats, options, start, cancel, busy channels."""

from __future__ import annotations

import copy

import discord

from tests.bot.conftest import add_ai, buttons, click_as_it_was, stored_message


async def test_new_posts_a_lobby_with_the_creator_seated(table):
    result = await table.alice.slash(table.channel, "new", game="pebbles")
    lobby = table.channel.last_message
    assert result.acknowledged
    assert "Pebbles" in lobby.embeds[0].title
    assert table.alice.mention in lobby.embeds[0].fields[0].value
    assert {"Join", "Leave", "Add AI", "Start", "Cancel"} <= set(buttons(lobby))


async def test_join_leave_and_ai_through_buttons_and_commands(table):
    await table.alice.slash(table.channel, "new", game="pebbles")
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


async def test_a_full_table_turns_joiners_away(table):
    await table.alice.slash(table.channel, "new", game="pebbles")
    lobby = table.channel.last_message
    for _ in range(3):
        await add_ai(table.alice, lobby)
    result = await table.bob.click(lobby, label="Join")
    assert result.ephemeral and "full (4 seats)" in result.response.content


async def test_joining_twice_is_refused(table):
    await table.alice.slash(table.channel, "new", game="pebbles")
    result = await table.alice.click(table.channel.last_message, label="Join")
    assert result.ephemeral and "already have a seat" in result.response.content


async def test_only_the_host_or_a_manager_starts_or_cancels(table):
    await table.alice.slash(table.channel, "new", game="pebbles")
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


async def test_host_removes_a_seat_and_sets_an_option(table):
    await table.alice.slash(table.channel, "new", game="pebbles")
    lobby = table.channel.last_message
    await table.bob.click(lobby, label="Join")
    await table.alice.select(lobby, ["3"], custom_id=f"l:{_table_id(lobby)}:opt:coins")
    stranger = await table.bob.select(lobby, ["5"], custom_id=f"l:{_table_id(lobby)}:opt:coins")
    assert "Only the host" in stranger.response.content
    await table.alice.select(lobby, [f"1:{table.bob.id}"], custom_id=f"l:{_table_id(lobby)}:kick")
    stored = await table.env.bot.store.open_table_in(table.channel.id)
    assert stored.options == {"coins": "3"} and len(stored.seats) == 1
    await table.alice.click(lobby, label="Start")
    game = table.env.bot.manager.in_channel(table.channel.id)
    assert game.state.players[0].coins == 3


async def test_options_in_the_new_command_are_checked(table):
    bad = await table.alice.slash(table.channel, "new", game="pebbles", options="coins=9")
    assert bad.ephemeral and "must be one of 3, 5" in bad.response.content
    await table.alice.slash(table.channel, "new", game="pebbles", options="coins=3")
    stored = await table.env.bot.store.open_table_in(table.channel.id)
    assert stored.options == {"coins": "3"}


async def test_new_autocompletes_games_and_options(table):
    games = await table.alice.autocomplete(table.channel, "new", "game", "peb")
    assert [c["value"] for c in games] == ["pebbles"]
    options = await table.alice.autocomplete(table.channel, "new", "options", "co", game="pebbles")
    assert [c["value"] for c in options] == ["coins=3", "coins=5"]


async def test_unknown_game_is_refused(table):
    result = await table.alice.slash(table.channel, "new", game="chess")
    assert result.ephemeral and "unknown game 'chess'" in result.response.content
    assert await table.env.bot.store.open_table_in(table.channel.id) is None


async def test_a_busy_channel_points_to_threads_and_a_thread_has_its_own_table(table):
    await table.alice.slash(table.channel, "new", game="pebbles")
    busy = await table.bob.slash(table.channel, "new", game="pebbles")
    assert busy.ephemeral and "thread" in busy.response.content
    thread = _thread(table, table.bob, "second table")
    await table.bob.slash(thread, "new", game="pebbles")
    assert (await table.env.bot.store.open_table_in(thread.id)).host_id == table.bob.id


async def test_cancel_frees_the_channel(table):
    await table.alice.slash(table.channel, "new", game="pebbles")
    lobby = table.channel.last_message
    await table.alice.click(lobby, label="Cancel")
    assert await table.env.bot.store.open_table_in(table.channel.id) is None
    assert not buttons(table.channel.last_message)
    again = await table.bob.slash(table.channel, "new", game="pebbles")
    assert not again.ephemeral


async def test_a_host_who_leaves_hands_the_lobby_on(table):
    await table.alice.slash(table.channel, "new", game="pebbles")
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


async def test_a_remove_seat_menu_left_open_never_removes_whoever_sits_there_now(table):
    await table.alice.slash(table.channel, "new", game="pebbles")
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
