"""Abuse and accidents: forged controls, engine and store failures, resign and abandon."""

from __future__ import annotations

import logging
import random

import pytest

from meeple_hall.games.testing import random_choices
from tests.bot.conftest import (
    EVERY_GAME,
    click_as_it_was,
    play_out,
    start_game,
    stored_message,
    table_message,
)
from tests.bot.every_game import (
    acting_seat,
    final_scores,
    near_the_end,
    one_click_answer,
    submit,
    table_shown,
    typed,
)

every_game = pytest.mark.parametrize("game_id", EVERY_GAME)


def forge(env, message, label: str, custom_id: str) -> None:
    """Rewrite one button's custom_id on a stored message, as a tampering client would."""
    for row in stored_message(env, message).components:
        for component in row.get("components", []):
            if component.get("label") == label:
                component["custom_id"] = custom_id


@pytest.mark.parametrize(
    ("custom_id", "answer"),
    [
        ("zz:1:2", "isn't one this bot knows"),
        ("t:999:0:take", "That game is over"),
        ("g:1:0:nothash", "isn't one this bot knows"),
        ("g:1:0:deadbeef:o:bid9", "out of date"),
        ("l:1:join", "has already started"),
    ],
)
@every_game
async def test_forged_controls_get_a_clear_answer_and_change_nothing(
    table, custom_id, answer, game_id
):
    game = await start_game(table, table.bob, game=game_id)
    message = table_message(table.channel)
    forge(table.env, message, "Log", custom_id)
    member = (table.alice, table.bob)[acting_seat(game)]  # "out of date", not "not your turn"
    result = await member.click(message, custom_id=custom_id)
    assert result.ephemeral and answer in result.response.content
    assert game.seq == 0


@every_game
async def test_an_engine_failure_is_logged_and_not_applied(table, monkeypatch, caplog, game_id):
    game = await start_game(table, table.bob, game=game_id)
    before = game.engine.dump(game.state)
    member = (table.alice, table.bob)[acting_seat(game)]

    def broken(self, state, decision, choices):
        raise RuntimeError("boom")

    panel = (await member.click(table_message(table.channel), label="Take turn")).response
    custom_id, values = one_click_answer(panel)
    monkeypatch.setattr(type(game.engine), "perform", broken)
    with caplog.at_level(logging.ERROR):
        result = await click_as_it_was(member, stored_message(table.env, panel), custom_id, values)
    # The click was acknowledged before the move was worked out: the panel stays, and
    # the player is told in a message of its own.
    assert result.deferred and "not** applied" in result.followups[-1].content
    assert result.followups[-1].ephemeral
    assert game.seq == 0 and game.engine.dump(game.state) == before
    assert await table.env.bot.store.last_seq(game.id) == 0
    assert any("game 1" in r.getMessage() and "move 1" in r.getMessage() for r in caplog.records)
    table.env.errors.clear()


@every_game
async def test_a_store_failure_loses_nothing(table, monkeypatch, caplog, game_id):
    game = await start_game(table, table.bob, game=game_id)
    before = game.engine.dump(game.state)
    seat = acting_seat(game)
    member = (table.alice, table.bob)[seat]
    store = table.env.bot.store
    real_append = store.append_action

    async def failing_append(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(store, "append_action", failing_append)
    move = typed(game, seat)
    with caplog.at_level(logging.ERROR):
        result = await member.slash(table.channel, "move", text=move)
    assert "not** applied" in result.response.content
    assert game.seq == 0 and game.engine.dump(game.state) == before
    monkeypatch.setattr(store, "append_action", real_append)
    await member.slash(table.channel, "move", text=move)
    assert game.seq == 1 and len(await store.actions(game.id)) == 1
    table.env.errors.clear()


@every_game
async def test_resign_needs_confirmation_and_the_ai_plays_on(table, game_id):
    game = await start_game(table, table.bob, game=game_id)
    asked = await table.bob.slash(table.channel, "resign")
    kept = await table.bob.click(asked.response, label="No")
    assert "Nothing changed" in kept.response.content and not game.table.seats[1].resigned
    asked = await table.bob.slash(table.channel, "resign")
    await table.bob.click(asked.response, label="Yes, resign")
    assert game.table.seats[1].resigned and game.table.seats[1].ai
    resigned_at = game.seq

    async def the_ai_moved_for_bob(game):
        logged = await table.env.bot.store.actions(game.id, after=resigned_at)
        return [a for a in logged if a.seat == 1]

    rng = random.Random(1)
    for _ in range(200):
        await table_shown(table, game)  # the AI's moves for Bob
        if played := await the_ai_moved_for_bob(game):
            break
        await submit(table, game, 0, random_choices(game.decision_for(0), rng))
    assert played and all(a.user_id is None for a in played)
    turned_away = await table.bob.slash(table.channel, "move", text="anything")
    assert "You resigned" in turned_away.response.content


# /abandon (only the host or Manage Server; every seated player's consent; the channel
# freed) is tested in tests/bot/test_abandon.py on every game.


async def test_moves_in_a_channel_without_a_game(table):
    result = await table.alice.slash(table.channel, "move", text="bid1")
    assert result.ephemeral and "no game in progress" in result.response.content


@every_game
async def test_a_resigned_seat_ranks_last_whatever_its_score(table, game_id):
    game = await start_game(table, table.bob, game=game_id)
    rng = random.Random(2)
    await near_the_end(table, game, rng, left=20)
    asked = await table.bob.slash(table.channel, "resign")
    await table.bob.click(asked.response, label="Yes, resign")
    await play_out(table, game, [table.alice, table.bob], rng)
    final = (await final_scores(table)).embeds[0]
    stored = await table.env.bot.store.get_table(game.id)
    assert stored.result["ranks"][1] == 2 and stored.result["ranks"][0] == 1
    # One field per seat in the order of the final ranks (a rated game's rating changes
    # follow them): Bob's, last, says he resigned.
    assert [f.name.endswith("(resigned)") for f in final.fields[:2]] == [False, True]
