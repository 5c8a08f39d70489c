"""Turn DMs, private views by DM, closed DMs, /hand, /board, /log."""

from __future__ import annotations

import random

from meeple_hall.bot.display import log_text
from meeple_hall.games import Action
from meeple_hall.games.core.contract import LOG_SHOWN
from meeple_hall.games.testing import random_choices
from tests.bot.conftest import (
    acting_member,
    choose,
    panel_options,
    start_game,
    table_message,
)


async def test_turn_dm_links_to_the_table_and_private_view_follows(table):
    await start_game(table, table.bob)
    alice_dms = [m.content for m in table.alice.user.dm_channel.history()]
    assert any("Your turn in **Pebbles**" in c and "Bid coins" in c for c in alice_dms)
    assert any("Hand:" in c for c in alice_dms)
    assert any(table_message(table.channel).jump_url in c for c in alice_dms)


async def test_dms_can_be_switched_off(table):
    await table.alice.slash(table.channel, "dms", enabled=False)
    await start_game(table, table.bob)
    assert table.alice.user.dm_channel.history() == []
    assert table.bob.user.dm_channel.history()


async def test_closed_dms_are_remembered_and_told_in_the_channel(table):
    dm = table.bob.user.dm_channel
    table.env.inject_error(
        "POST",
        f"/channels/{dm.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    await start_game(table, table.bob)
    notes = [m.content for m in table.channel.history() if "/hand" in m.content]
    assert len(notes) == 1 and table.bob.mention in notes[0]
    prefs = await table.env.bot.store.get_prefs(table.bob.id)
    assert prefs.dms_closed
    await table.alice.slash(table.channel, "move", text="bid1")
    await table.bob.slash(table.channel, "move", text="bid1")
    assert len([m for m in table.channel.history() if "/hand" in m.content]) == 1


async def test_hand_is_private_and_shows_only_my_cards(table):
    game = await start_game(table, table.bob)
    result = await table.alice.slash(table.channel, "hand")
    assert result.ephemeral
    mine = ", ".join(map(str, game.state.players[0].hand))
    theirs = ", ".join(map(str, game.state.players[1].hand))
    assert mine in result.response.content and theirs not in result.response.content


async def test_board_posts_the_picture(table):
    await start_game(table)
    result = await table.carol.slash(table.channel, "board")
    assert result.response.attachments[0].filename == "table.png"
    assert not result.ephemeral


async def test_log_lists_the_games_events(table):
    await start_game(table)
    await table.alice.slash(table.channel, "move", text="bid2 red-3")
    result = await table.alice.slash(table.channel, "log")
    assert "**Recent events**\n• bids 2" in result.response.content
    assert "`bid2`" not in result.response.content


async def test_old_table_messages_lose_their_buttons(table):
    await start_game(table, table.bob)
    first = table_message(table.channel)
    await table.alice.slash(table.channel, "move", text="bid1")
    await table.bob.slash(table.channel, "move", text="bid1")
    latest = table_message(table.channel)
    assert latest.id != first.id
    tables = [m for m in table.channel.history() if m.attachments]
    assert [m.id for m in tables if m.components] == [latest.id]
    assert table.channel.last_message.id == latest.id


async def test_table_message_is_edited_while_it_is_last_and_nobody_new_must_act(table):
    await start_game(table)
    first = table_message(table.channel)
    await table.alice.slash(table.channel, "move", text="bid1")
    assert table_message(table.channel).id == first.id
    assert "move 1" in table_message(table.channel).embeds[0].footer.text


async def test_dms_are_written_in_the_players_language(table):
    await table.bob.slash(table.channel, "dms", enabled=True)
    prefs = await table.env.bot.store.get_prefs(table.bob.id)
    assert prefs.locale == "en-US"
    await table.env.bot.store.set_locale(table.bob.id, "ja")
    await start_game(table, table.bob)
    bob_dms = [m.content for m in table.bob.user.dm_channel.history()]
    assert any("あなたの手番です" in c for c in bob_dms)
    alice_dms = [m.content for m in table.alice.user.dm_channel.history()]
    assert any("Your turn" in c for c in alice_dms)


async def test_the_picture_is_a_plain_attachment_not_an_embed_image(table):
    # Discord shows an embed's image at most 400 px wide on desktop; a plain attachment
    # shows larger, which a whole table of small numbers needs.
    await start_game(table)
    message = table_message(table.channel)
    assert [a.filename for a in message.attachments] == ["table.png"]
    assert all(not e.image for e in message.embeds)


def private_dms(member) -> list[str]:
    """The private-information DMs a member received, oldest first."""
    return [
        m.content
        for m in member.user.dm_channel.history()
        if "your private information" in m.content
    ]


async def test_private_dm_waits_for_the_end_of_a_turn_and_shows_how_it_ended(table):
    # Coffee Traders: breeding a donkey spends 2 Action markers, then asks for its pathway.
    game = await start_game(table, table.bob, game="coffee")
    member, seat = acting_member(table, game)
    before = private_dms(member)
    panel = (await member.click(table_message(table.channel), label="Take turn")).response
    pathway_panel = (await choose(member, panel, "donkey")).response
    assert game.decision_for(seat) is not None
    assert private_dms(member) == before  # the turn goes on: its panel shows the change
    await choose(member, pathway_panel, panel_options(pathway_panel)[0])
    assert game.decision_for(seat) is None
    sent = private_dms(member)[len(before) :]
    markers = game.state.players[seat].markers
    assert len(sent) == 1 and f"{markers} Action marker" in sent[0]


async def test_private_dm_changed_by_the_game_reaches_a_seat_as_its_turn_comes(table):
    # Pebbles: Bob's kept card ends the round, and the next round's hands are dealt: Alice's
    # new hand comes with her next turn, though her own last move was long before.
    game = await start_game(table, table.bob)
    members = {0: table.alice, 1: table.bob}
    while game.state.round == 1:
        decision = game.decisions()[0]
        await members[decision.seat].slash(table.channel, "move", text=decision.options[0].id)
    hand = ", ".join(map(str, game.state.players[0].hand))
    latest = table.alice.user.dm_channel.history()[-1].content
    assert "Your turn" in latest and "your private information" in latest and hand in latest


async def log_of(table, game) -> str:
    """The table's Log as the Log button gives it (bot/display.log_text)."""
    entries = await table.env.bot.store.actions(game.id, after=max(0, game.seq - LOG_SHOWN))
    return log_text(game, entries, "en")


async def test_the_log_tells_the_games_events_and_no_secret_choice(table):
    # Pebbles' bids are secret until every bid is in: Alice's bid was listed as `bid2`.
    game = await start_game(table, table.bob)
    await table.alice.slash(table.channel, "move", text="bid2")
    assert "bid2" not in await log_of(table, game)
    await table.bob.slash(table.channel, "move", text="bid1")
    text = await log_of(table, game)
    assert "**Recent events**\n• bids 2 1" in text and "Recent moves" not in text


async def test_the_log_shows_no_winter_tile_chosen_while_others_still_choose(table):
    game = await start_game(table, table.bob, game="keyflower")
    state, rng = game.state, random.Random(2)
    while (pending := game.engine.decisions(state))[0].kind != "winter":
        decision = pending[0]
        state = game.engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    game.state = state  # replaced, never changed in place, as the bot does
    tile = game.decision_for(0).options[0].id
    await table.alice.slash(table.channel, "move", text=tile)
    assert game.decision_for(0) is None and game.decision_for(1) is not None
    text = await log_of(table, game)
    assert "**Recent events**" in text and tile not in text


async def test_the_log_lists_the_moves_taken_back(table):
    game = await start_game(table, table.bob)
    await table.alice.slash(table.channel, "move", text="bid2")
    await table.bob.slash(table.channel, "move", text="bid1")
    await table.alice.slash(table.channel, "move", text="red-3")
    await table.alice.slash(table.channel, "undo")
    text = await log_of(table, game)
    assert f"**Moves taken back**\n`{game.seq:>4}` alice: ↩️ took back move 3" in text


async def test_a_game_without_an_event_log_lists_its_moves_as_typed(table):
    game = await start_game(table, table.bob, game="draft")
    await table.alice.slash(table.channel, "move", text="k01 k02")
    assert "**Recent moves**\n`   1` alice: `k01 k02`" in await log_of(table, game)
