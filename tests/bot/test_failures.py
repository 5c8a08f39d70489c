"""Abuse and accidents: forged controls, engine and store failures, resign and abandon."""

from __future__ import annotations

import logging

import pytest

from tests.bot.conftest import start_game, stored_message, table_message
from tests.testgame import PebblesEngine


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
async def test_forged_controls_get_a_clear_answer_and_change_nothing(table, custom_id, answer):
    game = await start_game(table)
    message = table_message(table.channel)
    forge(table.env, message, "Log", custom_id)
    result = await table.alice.click(message, custom_id=custom_id)
    assert result.ephemeral and answer in result.response.content
    assert game.seq == 0


async def test_an_engine_failure_is_logged_and_not_applied(table, monkeypatch, caplog):
    game = await start_game(table)

    def broken(self, state, decision, choices):
        raise RuntimeError("boom")

    monkeypatch.setattr(PebblesEngine, "perform", broken)
    panel = (await table.alice.click(table_message(table.channel), label="Take turn")).response
    with caplog.at_level(logging.ERROR):
        result = await table.alice.click(panel, label="Bid 1")
    # The click was acknowledged before the move was worked out: the panel stays, and
    # the player is told in a message of its own.
    assert result.deferred and "not** applied" in result.followups[-1].content
    assert result.followups[-1].ephemeral
    assert game.seq == 0 and game.state.players[0].bid is None
    assert any("game 1" in r.getMessage() and "move 1" in r.getMessage() for r in caplog.records)
    table.env.errors.clear()


async def test_a_store_failure_loses_nothing(table, monkeypatch, caplog):
    game = await start_game(table)
    store = table.env.bot.store
    real_append = store.append_action

    async def failing_append(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(store, "append_action", failing_append)
    with caplog.at_level(logging.ERROR):
        result = await table.alice.slash(table.channel, "move", text="bid2")
    assert "not** applied" in result.response.content
    assert game.seq == 0 and game.state.players[0].bid is None
    monkeypatch.setattr(store, "append_action", real_append)
    await table.alice.slash(table.channel, "move", text="bid2")
    assert game.seq == 1 and len(await store.actions(game.id)) == 1
    table.env.errors.clear()


async def test_resign_needs_confirmation_and_the_ai_plays_on(table):
    game = await start_game(table, table.bob)
    asked = await table.bob.slash(table.channel, "resign")
    kept = await table.bob.click(asked.response, label="No")
    assert "Nothing changed" in kept.response.content and not game.table.seats[1].resigned
    asked = await table.bob.slash(table.channel, "resign")
    await table.bob.click(asked.response, label="Yes, resign")
    assert game.table.seats[1].resigned and game.table.seats[1].ai
    await table.alice.slash(table.channel, "move", text="bid1")
    assert game.state.players[1].bid is not None or game.state.step != "bid"
    turned_away = await table.bob.slash(table.channel, "move", text="bid1")
    assert "You resigned" in turned_away.response.content


# /abandon (only the host or Manage Server; every seated player's consent; the channel
# freed) is tested in tests/bot/test_abandon.py on every game.


async def test_moves_in_a_channel_without_a_game(table):
    result = await table.alice.slash(table.channel, "move", text="bid1")
    assert result.ephemeral and "no game in progress" in result.response.content


async def test_a_resigned_seat_ranks_last_whatever_its_score(table):
    game = await start_game(table, table.bob)
    asked = await table.bob.slash(table.channel, "resign")
    await table.bob.click(asked.response, label="Yes, resign")
    while game.decisions():
        await table.alice.slash(table.channel, "move", text=game.decisions()[0].options[0].id)
    stored = await table.env.bot.store.get_table(game.id)
    assert stored.result["ranks"][1] == 2 and stored.result["ranks"][0] == 1
    final = table.channel.last_message.embeds[0]
    # One field per seat in the order of the final ranks (a rated game's rating changes
    # follow them): Bob's, last, says he resigned.
    assert [f.name.endswith("(resigned)") for f in final.fields[:2]] == [False, True]
