"""A restart never makes an open panel out of date by itself (issue 24): a game restarted
past a snapshot is loaded from that save (it is the game its log replays to, dict order
included, so the bot need not replay the log instead), and the panel opened before the
restart is still the game's own decision, options in the same order, so its answer is
taken."""

from __future__ import annotations

import logging
import random

import pytest

from meeple_hall.bot.live import SNAPSHOT_EVERY, decision_hash
from tests.bot.conftest import (
    REAL_GAMES,
    answer_panel,
    answer_seat,
    awaited_humans,
    seated_member,
    start_game,
    table_message,
)

# The decision a panel is left open on: Coffee Traders' Work decision lists the
# cooperatives, which a save gave back in another order before dumps kept dict order.
OPEN_ON = {"coffee": "work"}


async def play_past_a_snapshot(table, game, kind: str | None, rng: random.Random) -> int:
    """Humans answer their decisions through `/move` until the game has a snapshot behind
    it and a human's decision (of `kind`, where given) is open; returns that seat."""
    for _ in range(400):
        open_seats = [
            d.seat
            for d in game.decisions()
            if not game.table.seats[d.seat].ai and (kind is None or d.kind == kind)
        ]
        if game.seq > SNAPSHOT_EVERY and open_seats:
            return open_seats[0]
        humans = awaited_humans(game)
        assert humans, "the game ended before the panel could be opened"
        await answer_seat(table, game, rng.choice(humans), rng)
    raise AssertionError(f"no {kind or 'human'} decision came up")


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_panel_left_open_over_a_restart_is_answered(table, make_bot, caplog, game_id):
    game = await start_game(table, table.bob, game=game_id)
    seat = await play_past_a_snapshot(table, game, OPEN_ON.get(game_id), random.Random(5))
    member = seated_member(table, game, seat)
    panel = (await member.click(table_message(table.channel), label="Take turn")).response
    shown = game.decision_for(seat)
    before = game.seq
    snapshot = await table.env.bot.store.latest_snapshot(game.id)
    assert snapshot is not None and snapshot.seq > 0, "the restart would only replay the log"

    caplog.set_level(logging.WARNING, logger="meeple_hall.bot.loading")
    await table.env.restart_bot(make_bot())
    restarted = await table.env.bot.manager.fetch_in(table.channel.id)
    assert restarted is not game and restarted.seq == before
    refused = [r.getMessage() for r in caplog.records if "not what its log" in r.getMessage()]
    assert not refused, refused  # the snapshot was the game: loaded, not replayed around
    again = restarted.decision_for(seat)
    assert [o.id for o in again.options] == [o.id for o in shown.options]
    assert decision_hash(again) == decision_hash(shown)
    result = await answer_panel(member, panel, random.Random(4))
    assert "out of date" not in result.response.content, result.response.content
    assert restarted.seq > before
    assert await table.env.bot.store.last_seq(restarted.id) == restarted.seq
