"""A restart mid-game loses nothing: a fresh bot on the same database picks every game up."""

from __future__ import annotations

import random

import pytest

from meeple_hall.bot.live import TableManager
from meeple_hall.bot.store import TableStatus
from meeple_hall.games import Action
from meeple_hall.games.testing import random_choices
from tests.bot.conftest import (
    EVERY_GAME,
    answer_panel,
    answer_seat,
    awaited_humans,
    buttons,
    play_out,
    start_game,
    table_message,
)
from tests.bot.every_game import (
    acting_seat,
    answer_humans_until_ai,
    final_scores,
    near_the_end,
    prompt_shown,
    typed,
)

every_game = pytest.mark.parametrize("game_id", EVERY_GAME)


@every_game
async def test_restart_mid_game_keeps_buttons_and_state(table, make_bot, game_id):
    game = await start_game(table, table.bob, game=game_id)
    members = [table.alice, table.bob]
    rng = random.Random(3)
    for _ in range(2):
        seat = acting_seat(game)
        await members[seat].slash(table.channel, "move", text=typed(game, seat, rng))
    assert game.seq == 2
    before = game.engine.dump(game.state)
    old_table_message = table_message(table.channel)

    await table.env.restart_bot(make_bot())

    restarted = await table.env.bot.manager.fetch_in(table.channel.id)
    assert restarted is not game
    assert restarted.engine.dump(restarted.state) == before
    seat = acting_seat(restarted)
    opened = await members[seat].click(old_table_message, label="Take turn")
    assert prompt_shown(restarted, seat) in opened.response.content
    answered = await answer_panel(members[seat], opened.response, rng)
    assert "out of date" not in answered.response.content
    assert restarted.seq > 2
    assert await table.env.bot.store.last_seq(restarted.id) == restarted.seq


@every_game
async def test_a_restarted_game_plays_to_its_end(table, make_bot, game_id, backend):
    """A game restarted mid-way finishes, with its final scores (a real game's middle
    through the bot's move path, its last moves through panels)."""
    if backend == "postgres" and game_id != "pebbles":
        pytest.skip("the real games' ends run on SQLite (the store's traffic is the same)")
    game = await start_game(table, table.bob, game=game_id)
    rng = random.Random(5)
    await answer_seat(table, game, acting_seat(game), rng)
    await table.env.restart_bot(make_bot())
    restarted = await table.env.bot.manager.fetch_in(table.channel.id)
    seat = acting_seat(restarted)
    member = (table.alice, table.bob)[seat]
    opened = await member.click(table_message(table.channel), label="Take turn")
    assert prompt_shown(restarted, seat) in opened.response.content
    await near_the_end(table, restarted, rng)
    await play_out(table, restarted, [table.alice, table.bob], rng)
    assert "final scores" in (await final_scores(table)).embeds[0].title
    stored = await table.env.bot.store.get_table(restarted.id)
    assert stored.status is TableStatus.FINISHED
    assert game.seq < restarted.seq


@every_game
async def test_restart_keeps_an_open_lobby(table, make_bot, game_id):
    await table.alice.slash(table.channel, "new", game=game_id)
    lobby = table.channel.last_message
    await table.env.restart_bot(make_bot())
    await table.bob.click(lobby, label="Join")
    await table.alice.click(lobby, label="Start")
    game = table.env.bot.manager.in_channel(table.channel.id)
    assert [s.user_id for s in game.table.seats] == [table.alice.id, table.bob.id]
    assert "Take turn" in buttons(table_message(table.channel))


@every_game
async def test_restart_with_an_ai_to_move_lets_it_play(table, make_bot, monkeypatch, game_id):
    with monkeypatch.context() as patch:
        # The bot stops before its AI seat gets to think: the AI's move is still to come.
        patch.setattr(TableManager, "wake_ai", lambda self, game: None)
        game = await start_game(table, ai=1, game=game_id)
        await answer_humans_until_ai(table, game, random.Random(1))
        assert [d.seat for d in game.decisions()] == [1]
        seq = game.seq
    await table.env.restart_bot(make_bot())
    restarted = await table.env.bot.manager.fetch_in(table.channel.id)
    assert restarted.seq > seq
    assert awaited_humans(restarted) == [0] and 1 not in [d.seat for d in restarted.decisions()]
    logged = await table.env.bot.store.actions(restarted.id, after=seq)
    assert logged[0].seat == 1 and logged[0].user_id is None


@every_game
async def test_a_game_whose_last_move_is_logged_is_finished_at_start(table, make_bot, game_id):
    """A bot stopped between the last move and the end of the game (older versions wrote
    them apart) finishes the game when it starts: result, results rows, a free channel."""
    game = await start_game(table, table.bob, game=game_id)
    store = table.env.bot.store
    state, seq = game.state, game.seq
    rng = random.Random(8)
    while pending := game.engine.decisions(state):
        decision = pending[0]
        action = Action(decision.seat, random_choices(decision, rng))
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
    await table.alice.slash(table.channel, "new", game=game_id)
    assert (await store.open_table_in(table.channel.id)).status is TableStatus.LOBBY


@every_game
async def test_panel_opened_before_a_restart_still_works(table, make_bot, game_id):
    game = await start_game(table, table.bob, game=game_id)
    member = (table.alice, table.bob)[acting_seat(game)]
    panel = (await member.click(table_message(table.channel), label="Take turn")).response
    before = game.seq  # the old bot, left open by SimCord, follows the move on PostgreSQL
    await table.env.restart_bot(make_bot())
    result = await answer_panel(member, panel, random.Random(4))
    assert "out of date" not in result.response.content
    assert "✅" in result.response.content  # the panel says what was clicked
    restarted = await table.env.bot.manager.fetch_in(table.channel.id)
    assert restarted.seq > before
    assert await table.env.bot.store.last_seq(restarted.id) == restarted.seq


async def test_the_test_games_panel_says_the_clicked_bid_after_a_restart(table, make_bot):
    game = await start_game(table)
    panel = (await table.alice.click(table_message(table.channel), label="Take turn")).response
    before = game.seq
    await table.env.restart_bot(make_bot())
    result = await table.alice.click(panel, label="Bid 4")
    assert "Bid 4" in result.response.content
    restarted = await table.env.bot.manager.fetch_in(table.channel.id)
    assert restarted.seq == before + 1
