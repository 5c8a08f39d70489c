"""Clocks in virtual time: reminders at half and 10 %, Snooze, quiet hours, timeouts by each
policy, the reserve, three timeouts and /resume, a restart with timers due while the bot
was down, and a timeout racing the player's own move."""

from __future__ import annotations

import asyncio
import contextlib
import random

import pytest

from meeple_hall.bot.i18n import t
from meeple_hall.bot.live import Refusal, decision_hash
from meeple_hall.bot.scheduler import Scheduler
from meeple_hall.bot.store import TableStatus
from meeple_hall.games.testing import random_choices
from tests.bot.conftest import buttons, start_game, table_message

HOUR = 3600.0


def reminders(member) -> list:
    return [m for m in member.user.dm_channel.history() if "You are awaited" in m.content]


def row(table, game, seat: int):
    return table.env.bot.clocks.rows[(game.id, seat)]


async def answer(game, seat: int, rng=None) -> None:
    """The seat answers its pending decisions (a player who is on time)."""
    rng = rng or random.Random(seat)
    while (decision := game.decision_for(seat)) is not None and not game.table.seats[seat].ai:
        await _MANAGER[0].submit(game, seat, random_choices(decision, rng), user_id=1)


_MANAGER: list = []  # the running bot's TableManager, set by `clocked`


async def clocked(table, *players, options: str = "clock=12h"):
    game = await start_game(table, table.bob, *players, options=options)
    _MANAGER[:] = [table.env.bot.manager]
    return game


async def test_reminders_come_at_half_time_and_at_ten_percent(table):
    game = await clocked(table)
    await table.env.advance_time(6 * HOUR - 60)
    assert reminders(table.alice) == []
    await table.env.advance_time(120)
    first = reminders(table.alice)
    assert len(first) == 1
    assert table_message(table.channel).jump_url in first[0].content
    assert "Bid coins" in first[0].content
    await table.env.advance_time(4.8 * HOUR)  # 10.8 h: 10 % of the clock left
    assert len(reminders(table.alice)) == 2
    assert row(table, game, 0).reminders == 2


async def test_snooze_stops_the_reminders_of_that_decision(table):
    game = await clocked(table)
    await table.env.advance_time(6 * HOUR + 60)
    reminder = reminders(table.alice)[0]
    snooze = next(label for label in buttons(reminder) if "Snooze" in label)
    clicked = await table.alice.user.click(reminder, label=snooze)
    assert "No more reminders" in clicked.response.content
    await table.env.advance_time(5 * HOUR)
    assert len(reminders(table.alice)) == 1
    # a new decision is reminded again
    await answer(game, 0)
    await answer(game, 1)
    waiting = [d.seat for d in game.decisions()]
    assert row(table, game, waiting[0]).snoozed is False


async def test_reminders_wait_for_quiet_hours_to_end(table):
    await table.alice.slash(table.channel, "settings", quiet_hours="05-08", utc_offset="+0")
    await clocked(table)  # starts at 00:00 UTC: half time is 06:00, in Alice's quiet hours
    await table.env.advance_time(7 * HOUR)
    assert reminders(table.alice) == []
    assert len(reminders(table.bob)) == 1
    await table.env.advance_time(1 * HOUR + 60)
    assert len(reminders(table.alice)) == 1


async def test_quiet_hours_take_no_mention_and_no_turn_dm(table):
    await table.alice.slash(table.channel, "settings", quiet_hours="23-09", utc_offset="+1")
    await clocked(table)
    assert not any("Your turn" in m.content for m in table.alice.user.dm_channel.history())
    assert any("Your turn" in m.content for m in table.bob.user.dm_channel.history())


async def test_bad_quiet_hours_are_refused_and_change_nothing(table):
    bad = await table.alice.slash(table.channel, "settings", quiet_hours="late")
    assert bad.ephemeral and "22-07" in bad.response.content
    bad = await table.alice.slash(table.channel, "settings", quiet_hours="22-07", utc_offset="+25")
    assert bad.ephemeral and "UTC offset" in bad.response.content
    prefs = await table.env.bot.store.get_prefs(table.alice.id)
    assert prefs.quiet_start is None and prefs.utc_offset == 0
    shown = await table.alice.slash(
        table.channel, "settings", quiet_hours="22:30-07", utc_offset="-05:30"
    )
    assert "22:30–07:00 (UTC-05:30)" in shown.response.content


async def test_one_message_for_every_table_awaiting_a_player(table):
    other = table.guild.create_text_channel("more-games")
    await start_game(table, table.bob, options="remind=8h")
    await table.alice.slash(other, "new", game="pebbles", options="remind=8h")
    await table.bob.click(other.last_message, label="Join")
    await table.alice.click(other.last_message, label="Start")
    await table.env.advance_time(8 * HOUR + 60)
    sent = reminders(table.alice)
    assert len(sent) == 1
    assert "2 game" in sent[0].content
    assert str(table.channel.id) in sent[0].content and str(other.id) in sent[0].content
    assert len([label for label in buttons(sent[0]) if "Snooze" in label]) == 2


async def test_timeout_lets_the_ai_move_after_the_reserve(table):
    game = await clocked(table)
    await answer(game, 1)
    await table.env.advance_time(12 * HOUR + 60)
    assert game.decision_for(0) is not None  # on reserve (twice the clock) now
    assert "on reserve" in table_message(table.channel).embeds[0].fields[0].value
    await table.env.advance_time(24 * HOUR)
    logged = await table.env.bot.store.actions(game.id)
    assert [(a.seat, a.user_id) for a in logged if a.seat == 0] == [(0, None)]
    assert any("ran out of time" in m.content for m in table.channel.history())
    clock = row(table, game, 0)
    assert clock.reserve == 0 and clock.timeouts == 1
    assert not game.table.seats[0].ai


async def test_the_reserve_is_spent_only_past_the_deadline(table):
    game = await clocked(table)
    await table.env.advance_time(14 * HOUR)
    await answer(game, 0)  # 2 h into the reserve
    assert abs(row(table, game, 0).reserve - 22 * HOUR) < 5
    assert row(table, game, 1).reserve == 24 * HOUR  # Bob is still within his 12 h


async def test_timeout_resigns_the_seat_by_that_policy(table):
    game = await clocked(table, options="clock=12h timeout=resign")
    await answer(game, 1)
    await table.env.advance_time(36 * HOUR + 60)
    assert game.table.seats[0].resigned
    stored = await table.env.bot.store.get_table(game.id)
    assert stored.seats[0].resigned
    assert any("resigned" in m.content for m in table.channel.history())


async def test_three_timeouts_hand_the_seat_to_the_ai_until_resume(table):
    game = await clocked(table)
    rng = random.Random(3)
    for _ in range(12):
        await answer(game, 1, rng)
        if game.table.seats[0].ai:
            break
        await table.env.advance_time((36 if row(table, game, 0).reserve else 12) * HOUR + 60)
    assert game.table.seats[0].ai and not game.table.seats[0].resigned
    assert row(table, game, 0).timeouts == 3
    assert any("`/resume`" in m.content for m in table.channel.history())
    resumed = await table.alice.slash(table.channel, "resume")
    assert "You are back" in resumed.response.content
    assert not game.table.seats[0].ai
    stored = await table.env.bot.store.get_table(game.id)
    assert not stored.seats[0].ai
    again = await table.alice.slash(table.channel, "resume")
    assert again.ephemeral and "not playing any seat" in again.response.content


@pytest.mark.parametrize("player_first", [True, False])
async def test_a_timeout_racing_the_players_move_applies_once(table, player_first):
    game = await clocked(table)
    clocks = table.env.bot.clocks
    clock = row(table, game, 0)
    seen = (game.seq, decision_hash(game.decision_for(0)))
    assert clocks.armed[(game.id, 0)] == seen

    async def player() -> None:
        with contextlib.suppress(Refusal):
            await table.env.bot.manager.submit(
                game, 0, ("bid1",), user_id=table.alice.id, seen_seq=seen[0], seen_hash=seen[1]
            )

    racers = [player(), clocks._time_out(game, clock)]
    await asyncio.gather(*(racers if player_first else racers[::-1]))
    logged = [a for a in await table.env.bot.store.actions(game.id) if a.seat == 0]
    assert len(logged) == 1
    assert (logged[0].user_id is not None) == player_first
    assert clock.timeouts == (0 if player_first else 1)


async def test_timers_due_while_the_bot_was_down_happen_once_at_start(table, make_bot, monkeypatch):
    with monkeypatch.context() as patch:
        # This bot never fires its timers: as if it stopped right after the game began.
        patch.setattr(Scheduler, "_arm", lambda self: None)
        game = await clocked(table)
        await answer(game, 1)
        await table.env.advance_time(40 * HOUR)
        assert reminders(table.alice) == []
        assert game.decision_for(0) is not None
    await table.env.restart_bot(make_bot())
    restarted = table.env.bot.manager.in_channel(table.channel.id)
    logged = await table.env.bot.store.actions(restarted.id)
    assert [(a.seat, a.user_id) for a in logged if a.seat == 0] == [(0, None)]
    assert reminders(table.alice) == []  # the move was made for her: nothing to remind
    assert table.env.bot.clocks.rows[(restarted.id, 0)].timeouts == 1
    assert restarted.table.status is TableStatus.ACTIVE


async def test_reminders_missed_while_down_are_sent_once(table, make_bot, monkeypatch):
    with monkeypatch.context() as patch:
        patch.setattr(Scheduler, "_arm", lambda self: None)
        game = await clocked(table)
        await table.env.advance_time(11 * HOUR)  # half time and 10 % left both passed
    await table.env.restart_bot(make_bot())
    assert len(reminders(table.alice)) == 1
    assert table.env.bot.clocks.rows[(game.id, 0)].reminders == 2
    await table.env.advance_time(0.5 * HOUR)
    assert len(reminders(table.alice)) == 1


async def test_a_stalled_game_is_told_and_the_host_may_hand_the_seat_to_the_ai(table):
    game = await start_game(table, table.bob, options="remind=8h")
    await answer_as(table, game, 0)
    await table.env.advance_time(9 * 8 * HOUR + 60)
    assert not any("stalled" in m.content for m in table.channel.history())
    await table.env.advance_time(8 * HOUR)
    assert len(reminders(table.bob)) == 10
    stall = next(m for m in table.channel.history() if "stalled" in m.content)
    refused = await table.bob.click(stall, label="Let the AI play bob")
    assert "Only the host" in refused.response.content
    assert not game.table.seats[1].ai
    await table.alice.click(stall, label="Let the AI play bob")
    assert game.table.seats[1].ai and not game.table.seats[1].resigned
    assert game.decision_for(1) is None or game.table.seats[1].ai


async def answer_as(table, game, seat: int) -> None:
    _MANAGER[:] = [table.env.bot.manager]
    await answer(game, seat)


async def test_a_reminder_comes_in_the_language_the_player_chose(table):
    await table.alice.slash(table.channel, "settings", language="ja")
    await clocked(table)
    await table.env.advance_time(6 * HOUR + 60)
    dms = [m.content for m in table.alice.user.dm_channel.history()]
    assert any(t("ja", "remind.title", count=1) in text for text in dms)
    assert reminders(table.alice) == []  # no reminder in English
