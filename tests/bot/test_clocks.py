"""Clocks in virtual time, in the test game and each of the four real games: reminders at half
and 10 %, Snooze, quiet hours, timeouts by each policy, the reserve, three timeouts and
/resume, a restart with timers due while the bot was down, a timeout racing the player's own
move, and a stalled game handed to the AI; reminders, snoozes and stall notices in each
reader's language."""

from __future__ import annotations

import asyncio
import contextlib
import random

import pytest

from meeple_hall import games
from meeple_hall.bot.components import clip
from meeple_hall.bot.i18n import game_name, game_text, t
from meeple_hall.bot.live import Refusal, decision_hash
from meeple_hall.bot.scheduler import Scheduler
from meeple_hall.bot.store import TableStatus
from meeple_hall.games import Action
from meeple_hall.games.ai import levels
from meeple_hall.games.testing import random_choices
from tests.bot.conftest import (
    EVERY_GAME,
    REAL_GAMES,
    Table,
    awaited_humans,
    buttons,
    start_game,
    table_message,
)
from tests.bot.language_play import by_suffix

HOUR = 3600.0
# every game in English, and each real game in the two other languages
IN_EVERY_LANGUAGE = [(game, "en") for game in EVERY_GAME] + [
    (game, lang) for game in REAL_GAMES for lang in ("zh-TW", "ja")
]


def member(table, seat: int):
    return (table.alice, table.bob, table.carol, table.dave)[seat]


def reminders(someone) -> list:
    """The reminder DMs a member has had: the DMs that offer a Snooze button."""
    channel = someone.user.dm_channel
    if channel is None:
        return []
    return [m for m in channel.history() if any(c.startswith("z:") for c in buttons(m).values())]


def row(table, game, seat: int):
    return table.env.bot.clocks.rows[(game.id, seat)]


def shown_prompt(lang: str, game, seat: int) -> str:
    """The seat's decision as a reminder shows it: in the reader's language, then clipped."""
    return clip(game_text(lang, game.decision_for(seat).prompt), 80)


async def answer_by_move(table, game, seat: int, channel=None, rng=None) -> None:
    """The seat answers every decision it has now with `/move`, as its player types them
    (through the bot, so what the move sets going, such as a clock's timer, runs as the
    bot's own work)."""
    rng = rng or random.Random(seat)
    for _ in range(20):
        if game.decision_for(seat) is None or game.table.seats[seat].ai:
            return
        text = " ".join(typed_turn(game, seat, rng))
        await member(table, seat).slash(channel or table.channel, "move", text=text)
    raise AssertionError(f"seat {seat} still has decisions after 20 moves")


def typed_turn(game, seat: int, rng, most: int = 30) -> list[str]:
    """`/move` tokens for the seat's decisions from now on (random legal answers, worked out
    on a copy of the state), also where other seats decide at the same time."""
    state, tokens = game.state, []
    while len(tokens) < most:
        mine = next((d for d in game.engine.decisions(state) if d.seat == seat), None)
        if mine is None:
            break
        picked = random_choices(mine, rng)
        tokens.append(",".join(picked) or "none")
        state = game.engine.apply(state, Action(seat, picked))
    return tokens


async def await_alone(table, game, seat: int | None = None, channel=None) -> int:
    """The other awaited humans answer until `seat` (None: the first awaited) is the only
    human the game awaits; returns that seat."""
    for _ in range(60):
        awaited = awaited_humans(game)
        seat = awaited[0] if seat is None else seat
        if awaited == [seat]:
            return seat
        for other in awaited:
            if other != seat:
                await answer_by_move(table, game, other, channel)
    raise AssertionError(f"seat {seat} is never awaited alone")


async def clocked(table, game_id: str, options: str = "clock=12h"):
    return await start_game(table, table.bob, game=game_id, options=options)


async def stalled_to_ai(table, game) -> None:
    """Bob alone is awaited and never answers (a table reminding every 8 h, without a
    clock): after ten reminders the host lets the AI play his seat, from the stall notice."""
    await await_alone(table, game, 1)
    await table.env.advance_time(10 * 8 * HOUR + 60)
    for message in table.channel.history():
        for custom_id in buttons(message).values():
            if custom_id.startswith("w:ai:"):
                await table.alice.click(message, custom_id=custom_id)
                await table.env.settle()
                return
    raise AssertionError("no stall notice")


async def thought_here(game_id: str, dump: str, seat: int, level: str, seed: int):
    """The AI's answer worked out in this process, at once (not in a worker process)."""
    engine = games.get(game_id)
    return levels.choose(engine, engine.load(dump), seat, level, seed)


def in_guild(env, locale: str) -> Table:
    """A table fixture's world in a server whose preferred locale is `locale`."""
    guild = env.create_guild(name="Meeple Hall", preferred_locale=locale)
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(n)) for n in ("alice", "bob", "carol", "dave")]
    return Table(env, guild, channel, *members)


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_reminders_come_at_half_time_and_at_ten_percent(table, game_id):
    game = await clocked(table, game_id)
    seat = await await_alone(table, game)
    awaited = member(table, seat)
    await table.env.advance_time(6 * HOUR - 60)
    assert reminders(awaited) == []
    await table.env.advance_time(120)
    first = reminders(awaited)
    assert len(first) == 1
    assert table_message(table.channel).jump_url in first[0].content
    assert shown_prompt("en", game, seat) in first[0].content
    assert "You are awaited in 1 game" in first[0].content
    await table.env.advance_time(4.8 * HOUR)  # 10.8 h: 10 % of the clock left
    assert len(reminders(awaited)) == 2
    assert row(table, game, seat).reminders == 2


@pytest.mark.parametrize(("game_id", "lang"), IN_EVERY_LANGUAGE)
async def test_a_reminder_and_its_snooze_come_in_the_players_language(table, game_id, lang):
    """The player chose a language with /settings; their client says en-US all the same."""
    game = await clocked(table, game_id)
    seat = await await_alone(table, game)
    awaited = member(table, seat)
    await awaited.slash(table.channel, "settings", language=lang)
    await table.env.advance_time(6 * HOUR + 60)
    reminder = reminders(awaited)[0]
    text = reminder.content
    assert text.startswith(t(lang, "remind.title", count=1))
    assert shown_prompt(lang, game, seat) in text
    assert f"**{game_name(lang, game_id)}**" in text
    assert table_message(table.channel).jump_url in text
    snooze = t(lang, "remind.snooze", game=game_name(lang, game_id), table=game.id)
    assert (
        buttons(reminder)[snooze]
        == f"z:{game.id}:{seat}:{int(row(table, game, seat).since.timestamp())}"
    )
    clicked = await awaited.user.click(reminder, label=snooze)
    assert clicked.response.content == t(lang, "remind.snoozed", table=game.id)
    assert row(table, game, seat).snoozed


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_snooze_stops_the_reminders_of_that_decision(table, game_id):
    game = await clocked(table, game_id)
    seat = await await_alone(table, game)
    awaited = member(table, seat)
    await table.env.advance_time(6 * HOUR + 60)
    reminder = reminders(awaited)[0]
    snooze = next(label for label in buttons(reminder) if "Snooze" in label)
    clicked = await awaited.user.click(reminder, label=snooze)
    assert "No more reminders" in clicked.response.content
    await table.env.advance_time(5 * HOUR)
    assert len(reminders(awaited)) == 1
    # a new decision is reminded again
    await answer_by_move(table, game, seat)
    waiting = awaited_humans(game)
    assert waiting and row(table, game, waiting[0]).snoozed is False


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_reminders_wait_for_quiet_hours_to_end(table, game_id):
    game = await clocked(table, game_id)  # at 00:00 UTC: half time is 06:00
    seat = await await_alone(table, game)
    quiet = member(table, seat)
    await quiet.slash(table.channel, "settings", quiet_hours="05-08", utc_offset="+0")
    await table.env.advance_time(7 * HOUR)
    assert reminders(quiet) == []
    assert row(table, game, seat).reminders == 0
    await table.env.advance_time(1 * HOUR + 60)
    sent = reminders(quiet)
    assert len(sent) == 1
    assert shown_prompt("en", game, seat) in sent[0].content


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_quiet_hours_take_no_turn_dm(table, game_id):
    await table.alice.slash(table.channel, "settings", quiet_hours="23-09", utc_offset="+1")
    game = await clocked(table, game_id)
    await await_alone(table, game, 0)
    alice_dms = [m.content for m in table.alice.user.dm_channel.history()]
    assert not any("Your turn" in text for text in alice_dms)
    await await_alone(table, game, 1)  # Bob, who keeps no quiet hours, is told
    assert any("Your turn" in m.content for m in table.bob.user.dm_channel.history())


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_turn_dm_held_by_quiet_hours_comes_when_they_end(table, game_id):
    """Even with no reminders at all (remind=off), the turn DM held back in quiet hours
    goes out when they end, with the decision still awaited."""
    await table.alice.slash(table.channel, "settings", quiet_hours="23-09", utc_offset="+1")
    game = await clocked(table, game_id, options="remind=off")  # 01:00 for Alice
    await await_alone(table, game, 0)
    assert not [m for m in table.alice.user.dm_channel.history() if "Your turn" in m.content]
    await table.env.advance_time(8 * HOUR + 60)  # 09:01 for Alice
    told = [m.content for m in table.alice.user.dm_channel.history() if "Your turn" in m.content]
    assert len(told) == 1 and shown_prompt("en", game, 0)[:40] in told[0]


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


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_one_message_for_every_table_due_within_the_hour(table, game_id):
    other = table.guild.create_text_channel("more-games")
    first = await start_game(table, table.bob, game=game_id, options="remind=8h")
    await await_alone(table, first, 0)
    await table.env.advance_time(0.5 * HOUR)
    await table.alice.slash(other, "new", game=game_id, options="remind=8h")
    await table.bob.click(other.last_message, label="Join")
    await table.alice.click(other.last_message, label="Start")
    second = table.env.bot.manager.in_channel(other.id)
    await await_alone(table, second, 0, other)
    await table.env.advance_time(7.5 * HOUR + 60)  # the first is due, the second in 30 min
    sent = reminders(table.alice)
    assert len(sent) == 1
    text = sent[0].content
    assert "2 game" in text
    assert str(table.channel.id) in text and str(other.id) in text
    for game in (first, second):
        assert shown_prompt("en", game, 0) in text
    assert len([label for label in buttons(sent[0]) if "Snooze" in label]) == 2
    await table.env.advance_time(8 * HOUR)
    assert len(reminders(table.alice)) == 2  # and again together


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_timeout_lets_the_ai_move_after_the_reserve(table, game_id):
    game = await clocked(table, game_id)
    seat = await await_alone(table, game)
    before = game.seq
    await table.env.advance_time(12 * HOUR + 60)
    assert game.decision_for(seat) is not None  # on reserve (twice the clock) now
    assert "on reserve" in table_message(table.channel).embeds[0].fields[0].value
    await table.env.advance_time(24 * HOUR)
    logged = await table.env.bot.store.actions(game.id, after=before)
    made = [entry for entry in logged if entry.seat == seat]
    assert made and all(entry.user_id is None for entry in made)
    assert any("ran out of time" in m.content for m in table.channel.history())
    clock = row(table, game, seat)
    assert clock.reserve == 0 and clock.timeouts == 1
    assert not game.table.seats[seat].ai


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_the_reserve_is_spent_only_past_the_deadline(table, game_id):
    game = await clocked(table, game_id)
    seat = awaited_humans(game)[0]
    other = 1 - seat
    await table.env.advance_time(14 * HOUR)
    await answer_by_move(table, game, seat)  # 2 h into the reserve
    assert abs(row(table, game, seat).reserve - 22 * HOUR) < 5
    assert row(table, game, other).reserve == 24 * HOUR  # within his 12 h, or not awaited


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_timeout_resigns_the_seat_by_that_policy(table, game_id):
    game = await clocked(table, game_id, options="clock=12h timeout=resign")
    seat = await await_alone(table, game)
    await table.env.advance_time(36 * HOUR + 60)
    assert game.table.seats[seat].resigned
    stored = await table.env.bot.store.get_table(game.id)
    assert stored.seats[seat].resigned
    assert any("resigned" in m.content for m in table.channel.history())


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_three_timeouts_hand_the_seat_to_the_ai_until_resume(table, game_id):
    game = await clocked(table, game_id)
    seat = awaited_humans(game)[0]
    for _ in range(12):
        await await_alone(table, game, seat)
        await table.env.advance_time((36 if row(table, game, seat).reserve else 12) * HOUR + 60)
        if game.table.seats[seat].ai:
            break
    assert game.table.seats[seat].ai and not game.table.seats[seat].resigned
    assert row(table, game, seat).timeouts == 3
    assert any("`/resume`" in m.content for m in table.channel.history())
    player = member(table, seat)
    resumed = await player.slash(table.channel, "resume")
    assert "You are back" in resumed.response.content
    assert not game.table.seats[seat].ai
    stored = await table.env.bot.store.get_table(game.id)
    assert not stored.seats[seat].ai
    again = await player.slash(table.channel, "resume")
    assert again.ephemeral and "not playing any seat" in again.response.content


@pytest.mark.parametrize("player_first", [True, False])
@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_timeout_racing_the_players_move_applies_once(table, game_id, player_first):
    # the timeout's answer is ready as soon as it is asked, so whichever starts first wins
    table.env.bot.manager.chooser = thought_here
    game = await clocked(table, game_id)
    seat = awaited_humans(game)[0]
    clocks = table.env.bot.clocks
    clock = row(table, game, seat)
    decision = game.decision_for(seat)
    seen = (game.seq, decision_hash(decision))
    assert clocks.armed[(game.id, seat)] == seen
    choices = random_choices(decision, random.Random(7))
    player_id = member(table, seat).id

    async def player() -> None:
        with contextlib.suppress(Refusal):
            await table.env.bot.manager.submit(
                game, seat, choices, user_id=player_id, seen_seq=seen[0], seen_hash=seen[1]
            )

    racers = [player(), clocks._time_out(game, clock)]
    await asyncio.gather(*(racers if player_first else racers[::-1]))
    logged = [a for a in await table.env.bot.store.actions(game.id) if a.seat == seat]
    assert len(logged) == 1
    assert (logged[0].user_id is not None) == player_first
    assert clock.timeouts == (0 if player_first else 1)


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_timers_due_while_the_bot_was_down_happen_once_at_start(
    table, make_bot, monkeypatch, game_id
):
    with monkeypatch.context() as patch:
        # This bot never fires its timers: as if it stopped right after the game began.
        patch.setattr(Scheduler, "_arm", lambda self: None)
        game = await clocked(table, game_id)
        seat = await await_alone(table, game)
        before = game.seq
        await table.env.advance_time(40 * HOUR)
        assert reminders(member(table, seat)) == []
        assert game.decision_for(seat) is not None
    await table.env.restart_bot(make_bot())
    restarted = table.env.bot.manager.in_channel(table.channel.id)
    logged = await table.env.bot.store.actions(restarted.id, after=before)
    made = [entry.user_id for entry in logged if entry.seat == seat]
    assert made and set(made) == {None}
    assert reminders(member(table, seat)) == []  # the move was made for them: nothing to remind
    assert table.env.bot.clocks.rows[(restarted.id, seat)].timeouts == 1
    assert restarted.table.status is TableStatus.ACTIVE


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_reminders_missed_while_down_are_sent_once(table, make_bot, monkeypatch, game_id):
    with monkeypatch.context() as patch:
        patch.setattr(Scheduler, "_arm", lambda self: None)
        game = await clocked(table, game_id)
        seat = await await_alone(table, game)
        await table.env.advance_time(11 * HOUR)  # half time and 10 % left both passed
    await table.env.restart_bot(make_bot())
    sent = reminders(member(table, seat))
    assert len(sent) == 1
    restarted = table.env.bot.manager.in_channel(table.channel.id)
    assert shown_prompt("en", restarted, seat) in sent[0].content
    assert table.env.bot.clocks.rows[(game.id, seat)].reminders == 2
    await table.env.advance_time(0.5 * HOUR)
    assert len(reminders(member(table, seat))) == 1


@pytest.mark.parametrize(("game_id", "lang"), IN_EVERY_LANGUAGE)
async def test_a_stalled_game_is_told_and_the_host_may_hand_the_seat_to_the_ai(
    simcord_env, game_id, lang
):
    """Without a clock: after ten reminders the channel is told, in the server's language,
    and the host (only) may let the AI play the seat."""
    table = in_guild(simcord_env, {"en": "en-US", "zh-TW": "zh-TW", "ja": "ja"}[lang])
    await table.alice.slash(table.channel, "new", game=game_id, options="remind=8h")
    lobby = table.channel.last_message
    await table.bob.click(lobby, custom_id=by_suffix(lobby, ":join"))
    await table.alice.click(lobby, custom_id=by_suffix(lobby, ":start"))
    game = table.env.bot.manager.in_channel(table.channel.id)
    await await_alone(table, game, 1)
    await table.env.advance_time(9 * 8 * HOUR + 60)
    notice = t(lang, "stall.announce", user=f"<@{table.bob.id}>", count=10)
    assert not any(m.content == notice for m in table.channel.history())
    await table.env.advance_time(8 * HOUR)
    assert len(reminders(table.bob)) == 10
    stall = next(m for m in table.channel.history() if m.content == notice)
    replace = t(lang, "stall.replace", name="bob")
    assert buttons(stall)[replace] == f"w:ai:{game.id}:1:{table.bob.id}"
    refused = await table.bob.click(stall, label=replace)  # Bob's client says en-US
    assert refused.response.content == t("en", "lobby.host_only")
    assert not game.table.seats[1].ai
    before = game.seq
    await table.alice.click(stall, label=replace)
    await table.env.settle()
    assert game.table.seats[1].ai and not game.table.seats[1].resigned
    replaced = t(lang, "stall.replaced", user=f"<@{table.bob.id}>")
    assert any(m.content == replaced for m in table.channel.history())
    logged = await table.env.bot.store.actions(game.id, after=before)
    assert [e.user_id for e in logged if e.seat == 1][:1] == [None]  # the AI played on


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_snoozed_wait_still_stalls_the_game(table, game_id):
    """Snooze stops the player's reminders, not the table's waiting: the channel is told
    after ten reminders' time all the same."""
    game = await start_game(table, table.bob, game=game_id, options="remind=8h")
    await await_alone(table, game, 1)
    await table.env.advance_time(8 * HOUR + 60)
    reminder = reminders(table.bob)[0]
    snooze = next(label for label in buttons(reminder) if "Snooze" in label)
    await table.bob.user.click(reminder, label=snooze)
    await table.env.advance_time(9 * 8 * HOUR)
    assert len(reminders(table.bob)) == 1
    notice = t("en", "stall.announce", user=f"<@{table.bob.id}>", count=10)
    assert any(m.content == notice for m in table.channel.history())
