"""A restart mid-game loses nothing: a fresh bot on the same database picks every game up."""

from __future__ import annotations

import random

from meeple_hall.bot.live import TableManager
from meeple_hall.bot.store import TableStatus
from meeple_hall.games import Action
from tests.bot.conftest import buttons, play_out, start_game, table_message


async def test_restart_mid_game_keeps_buttons_and_state(table, make_bot):
    game = await start_game(table, table.bob)
    await table.alice.slash(table.channel, "move", text="bid2")
    await table.bob.slash(table.channel, "move", text="bid1")
    before = game.engine.dump(game.state)
    old_table_message = table_message(table.channel)

    await table.env.restart_bot(make_bot())

    restarted = await table.env.bot.manager.fetch_in(table.channel.id)
    assert restarted is not game
    assert restarted.engine.dump(restarted.state) == before
    opened = await table.alice.click(old_table_message, label="Take turn")
    assert "Take a pebble" in opened.response.content
    await play_out(table, restarted, [table.alice, table.bob], random.Random(5))
    stored = await table.env.bot.store.get_table(restarted.id)
    assert stored.status is TableStatus.FINISHED


async def test_restart_keeps_an_open_lobby(table, make_bot):
    await table.alice.slash(table.channel, "new", game="pebbles")
    lobby = table.channel.last_message
    await table.env.restart_bot(make_bot())
    await table.bob.click(lobby, label="Join")
    await table.alice.click(lobby, label="Start")
    game = table.env.bot.manager.in_channel(table.channel.id)
    assert [s.user_id for s in game.table.seats] == [table.alice.id, table.bob.id]
    assert "Take turn" in buttons(table_message(table.channel))


async def test_restart_with_an_ai_to_move_lets_it_play(table, make_bot, monkeypatch):
    with monkeypatch.context() as patch:
        # The bot stops before its AI seat gets to think: the AI's move is still to come.
        patch.setattr(TableManager, "wake_ai", lambda self, game: None)
        game = await start_game(table, ai=1)
        await table.alice.slash(table.channel, "move", text="bid1")
        assert [d.seat for d in game.decisions()] == [1]
        seq = game.seq
    await table.env.restart_bot(make_bot())
    restarted = await table.env.bot.manager.fetch_in(table.channel.id)
    assert restarted.seq > seq
    assert all(d.seat == 0 for d in restarted.decisions())
    logged = await table.env.bot.store.actions(restarted.id, after=seq)
    assert logged[0].seat == 1 and logged[0].user_id is None


async def test_a_game_whose_last_move_is_logged_is_finished_at_start(table, make_bot):
    """A bot stopped between the last move and the end of the game (older versions wrote
    them apart) finishes the game when it starts: result, results rows, a free channel."""
    game = await start_game(table, table.bob)
    store = table.env.bot.store
    state, seq = game.state, game.seq
    while pending := game.engine.decisions(state):
        decision = pending[0]
        action = Action(decision.seat, (decision.options[0].id,))
        state = game.engine.apply(state, action)
        seq += 1
        await store.append_action(game.id, seq, action.seat, action.choices, None)
    assert (await store.get_table(game.id)).status is TableStatus.ACTIVE

    await table.env.restart_bot(make_bot())
    store = table.env.bot.store
    finished = await store.get_table(game.id)
    assert finished.status is TableStatus.FINISHED
    expected = game.engine.result(state)
    assert finished.result["scores"] == list(expected.scores)
    assert [r.score for r in await store.results()] == list(expected.scores)
    assert table.env.bot.manager.in_channel(table.channel.id) is None
    posted = table.channel.last_message
    assert posted.embeds and "Take turn" not in buttons(posted)
    await table.alice.slash(table.channel, "new", game="pebbles")
    assert (await store.open_table_in(table.channel.id)).status is TableStatus.LOBBY


async def test_panel_opened_before_a_restart_still_works(table, make_bot):
    game = await start_game(table)
    panel = (await table.alice.click(table_message(table.channel), label="Take turn")).response
    before = game.seq  # the old bot, left open by SimCord, follows the move on PostgreSQL
    await table.env.restart_bot(make_bot())
    result = await table.alice.click(panel, label="Bid 4")
    assert "Bid 4" in result.response.content
    restarted = await table.env.bot.manager.fetch_in(table.channel.id)
    assert restarted.seq == before + 1
