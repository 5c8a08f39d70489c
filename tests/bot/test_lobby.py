"""The lobby flow: open, join, leave, AI seats, options, start, cancel, busy channels."""

from __future__ import annotations

from tests.bot.conftest import buttons


async def test_new_posts_a_lobby_with_the_creator_seated(table):
    result = await table.alice.slash(table.channel, "new", game="pebbles")
    lobby = table.channel.last_message
    assert result.acknowledged
    assert "Pebbles" in lobby.embeds[0].title
    assert table.alice.mention in lobby.embeds[0].fields[0].value
    assert {"Join", "Leave", "Add AI", "Start", "Cancel"} <= set(buttons(lobby))
