"""The bot closes in order (bot/closing.py): closed while a move's clocks are being brought
up to date and its table is being edited, it lets that work end before it closes the store,
and logs no error; what the bot had stored or was storing is all in the store afterwards.
An interaction that comes while it closes is told, in the player's language, that the bot
is restarting, and changes nothing. (Closing the 1,000 busy tables of bench/load.py logged
"could not update the clocks of game 810: the store is not open", and a move typed at that
moment was answered "your move was not applied" after it had been.)

The clock sync is held at its start by a wrapper of the clocks' listener (the clocks' own
code runs unchanged) until the close has begun; the table edit is held by Discord: its
first try fails (a 503) and the bot pauses before the next."""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3

import discord
import pytest

from meeple_hall.bot import presenters
from meeple_hall.bot.delivery import LATER
from meeple_hall.bot.display import private_digest
from meeple_hall.bot.i18n import game_name, t
from meeple_hall.bot.simulation.faults import stop_work
from meeple_hall.bot.store import open_store
from meeple_hall.games import Action
from meeple_hall.games.testing import random_choices
from tests.bot.conftest import (
    EVERY_GAME,
    LANGUAGES,
    REAL_GAMES,
    answer_seat,
    awaited_humans,
    plan_turn,
    seated_member,
    start_game,
)
from tests.bot.every_game import live_table_message, submit, table_shown, waiting_for
from tests.bot.test_faults import turn_dms

HOUR = 3600.0
SECONDS = 3.0  # virtual time for a table post's paused try to go out (the grace is longer)
MINUTE = 60.0
TRIES_SECONDS = 10.0  # virtual time for a DM's tries to run out (1 + 2 + 4 s apart)


def hold_the_clocks(bot) -> tuple[asyncio.Event, asyncio.Event]:
    """The clocks' listener waits, once it is called, until `release` is set; `syncing` is
    set when it is called."""
    syncing, release = asyncio.Event(), asyncio.Event()
    listeners = bot.manager.listeners
    at = listeners.index(bot.clocks.changed)
    sync = bot.clocks.changed

    async def held(game) -> None:
        syncing.set()
        await release.wait()
        await sync(game)

    listeners[at] = held
    return syncing, release


def fail_the_table_once(table) -> None:
    """The next post and the next edit of the channel's messages meet a 503."""
    for method in ("POST", "PATCH"):
        table.env.inject_error(
            method, f"/channels/{table.channel.id}/messages*", status=503, times=1
        )


async def typed_move(table, game, seat: int, rng):
    member = seated_member(table, game, seat)
    text = " ".join(plan_turn(game, seat, rng))
    return await member.slash(table.channel, "move", text=text)


async def until_closing(bot) -> None:
    while not bot.under_way.closing:
        await asyncio.sleep(0)


async def stored(database_url: str, table_id: int):
    """What the store holds of the table once the bot is closed: its row, its log and its
    seats' clocks, read through a store of its own."""
    store = open_store(database_url)
    await store.open()
    try:
        row = await store.get_table(table_id)
        logged = await store.actions(table_id)
        clocks = {(c.table_id, c.seat): c for c in await store.clocks(table_id)}
    finally:
        await store.close()
    return row, logged, clocks


def errors(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_closing_lets_a_clock_sync_and_a_table_edit_end_then_closes_the_store(
    table, database_url, game_id, caplog
):
    caplog.set_level(logging.INFO)
    game = await start_game(table, table.bob, game=game_id)
    bot = table.env.bot
    rng = random.Random(12)
    fail_the_table_once(table)
    seat = awaited_humans(game)[0]
    await typed_move(table, game, seat, rng)  # its table edit (or post) waits for a new try
    under_way = bot.display.under_way()
    assert any(task is not None and not task.done() for task in under_way)
    syncing, release = hold_the_clocks(bot)
    seat = awaited_humans(game)[0]
    moving = asyncio.create_task(typed_move(table, game, seat, rng))
    await syncing.wait()  # the move is in; its clocks are being brought up to date
    closed = asyncio.create_task(bot.close())
    await until_closing(bot)
    release.set()
    answer = await moving
    await table.env.advance_time(SECONDS)  # the table's paused try goes out
    await closed

    assert "✅" in answer.response.content, answer.response.content
    assert errors(caplog) == []
    row, logged, clocks = await stored(database_url, game.id)
    assert len(logged) == game.seq  # every move acknowledged is logged
    assert clocks == {key: bot.clocks.rows[key] for key in clocks}
    assert {key for key in bot.clocks.rows if key[0] == game.id} == set(clocks)
    message = table.env.backend.get_message(table.channel.id, row.table_message_id)
    assert message.embeds[0]["footer"]["text"].endswith(str(game.seq))


@pytest.mark.parametrize(("lang", "game_id"), zip(LANGUAGES, REAL_GAMES, strict=False))
async def test_a_move_while_the_bot_closes_is_refused_in_the_players_language(
    table, database_url, lang, game_id, caplog
):
    game = await start_game(table, table.bob, game=game_id)
    bot = table.env.bot
    rng = random.Random(5)
    for member in (table.alice, table.bob):
        await member.slash(table.channel, "settings", language=lang)
    fail_the_table_once(table)
    await typed_move(table, game, awaited_humans(game)[0], rng)  # its table waits for a try
    seq = game.seq
    closed = asyncio.create_task(bot.close())
    await until_closing(bot)

    seat = awaited_humans(game)[0]
    answer = await typed_move(table, game, seat, rng)
    await table.env.advance_time(SECONDS)
    await closed

    assert answer.response.ephemeral
    assert answer.response.content == t(lang, "error.closing")
    assert game.seq == seq
    assert errors(caplog) == []
    _, logged, _ = await stored(database_url, game.id)
    assert len(logged) == seq


async def until_newly_awaited(table, game, seat: int, rng) -> None:
    """Humans answer whole turns, another seat's first, until `seat` is awaited where it was
    not just before: its turn DM falls due (in Pebbles' simultaneous bids it is awaited from
    the start, so not until a later step)."""
    while True:
        before = awaited_humans(game)
        mover = next((s for s in before if s != seat), before[0])
        await answer_seat(table, game, mover, rng)
        if seat in awaited_humans(game) and seat not in before:
            return


async def turn_dm_owed(bot, game) -> list[bool]:
    """Which seats the store holds as owed a turn DM."""
    stored_table = await bot.store.get_table(game.id)
    return [seat.turn_dm_owed for seat in stored_table.seats]


async def restart(table, make_bot, game, *, clean: bool) -> None:
    """The bot stops (closed, or killed: its store never closed) and a new one starts on the
    same store, with Discord answering again; a player's /board loads the game."""
    old = table.env.bot
    stop_work(old)  # what stops with the process
    table.env.backend.faults.clear()
    await table.env.restart_bot(make_bot())
    if clean:
        await old.close()
    await table.env.bot.manager.loaded_at_start()
    await seated_member(table, game, awaited_humans(game)[0]).slash(table.channel, "board")


def told_turn(member, lang: str, game, seat: int) -> list[str]:
    """The member's DMs telling them, in `lang`, of the seat's decision awaited now."""
    said = t(
        lang,
        "dm.your_turn",
        game=game_name(lang, game.table.game),
        channel=game.table.channel_id,
        prompt=game.decision_for(seat).prompt,
        link="",
    ).rstrip("\n")
    return [m.content for m in member.user.dm_channel.history() if m.content.startswith(said)]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
@pytest.mark.parametrize("clean", [True, False], ids=["closed", "killed"])
@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_turn_dm_discord_refused_before_a_restart_is_sent_after_it(
    table, make_bot, game_id, clean
):
    """SIMULATION_FINDINGS.md finding 11: a turn DM that Discord refused waits for another
    try in memory, and the store keeps that it is owed, so the next bot sends it."""
    game = await start_game(table, table.bob, game=game_id)
    rng = random.Random(4)
    seat = 1 - awaited_humans(game)[0]
    waiting = seated_member(table, game, seat)
    dms = len(turn_dms(waiting))
    # every DM to the player fails from now on, until the bot stops
    dm_channel = waiting.user.dm_channel.id
    table.env.inject_error("POST", f"/channels/{dm_channel}/messages", status=503, times=None)
    await until_newly_awaited(table, game, seat, rng)
    assert len(turn_dms(waiting)) == dms  # left to be sent again later
    assert (await turn_dm_owed(table.env.bot, game))[seat]
    await restart(table, make_bot, game, clean=clean)
    await table.env.advance_time(LATER[-1].total_seconds() + MINUTE)
    assert len(turn_dms(waiting)) == dms + 1
    assert not any(await turn_dm_owed(table.env.bot, game))


@pytest.mark.parametrize("clean", [True, False], ids=["closed", "killed"])
@pytest.mark.parametrize(
    ("lang", "game_id"),
    [(LANGUAGES[n % len(LANGUAGES)], game_id) for n, game_id in enumerate(EVERY_GAME)],
)
async def test_a_turn_dm_held_by_quiet_hours_over_a_restart_comes_when_they_end(
    table, make_bot, lang, game_id, clean
):
    """The next bot keeps the player's quiet hours as the first did: the turn DM owed goes
    out when they end, in the player's language, once."""
    game = await start_game(table, table.bob, game=game_id)
    rng = random.Random(6)
    seat = 1 - awaited_humans(game)[0]
    waiting = seated_member(table, game, seat)
    hour = discord.utils.utcnow().hour  # quiet from an hour ago until three hours on
    await waiting.slash(table.channel, "settings", language=lang)
    quiet = f"{(hour - 1) % 24:02d}-{(hour + 3) % 24:02d}"
    await waiting.slash(table.channel, "settings", quiet_hours=quiet, utc_offset="+0")
    await until_newly_awaited(table, game, seat, rng)
    assert told_turn(waiting, lang, game, seat) == []
    await restart(table, make_bot, game, clean=clean)
    await table.env.advance_time(2 * HOUR)
    assert told_turn(waiting, lang, game, seat) == []
    assert (await turn_dm_owed(table.env.bot, game))[seat]
    await table.env.advance_time(2 * HOUR)
    assert len(told_turn(waiting, lang, game, seat)) == 1
    assert not any(await turn_dm_owed(table.env.bot, game))


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_closed_dms_owe_no_turn_dm_over_a_restart(table, make_bot, game_id):
    """The channel's note that a player's DMs are closed takes the turn DM's place: nothing
    is owed, and the next bot neither DMs them nor posts the note again."""
    game = await start_game(table, table.bob, game=game_id)
    rng = random.Random(7)
    seat = 1 - awaited_humans(game)[0]
    closed = seated_member(table, game, seat)
    table.env.inject_error(
        "POST",
        f"/channels/{closed.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    await until_newly_awaited(table, game, seat, rng)
    notes = [
        m for m in table.channel.history() if closed.mention in m.content and "/hand" in m.content
    ]
    assert len(notes) == 1
    assert not any(await turn_dm_owed(table.env.bot, game))
    dms = len(closed.user.dm_channel.history())
    await restart(table, make_bot, game, clean=False)
    await table.env.advance_time(LATER[-1].total_seconds() + MINUTE)
    assert len(closed.user.dm_channel.history()) == dms
    assert len([m for m in table.channel.history() if "/hand" in m.content]) == 1


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_the_store_hears_of_turn_dms_only_when_one_is_owed(table, game_id):
    """A move costs no write about turn DMs unless a seat is newly owed one (one write) or
    has been told (one write): none for a player who turned turn DMs off, none for a move
    that leaves the same players awaited."""
    game = await start_game(table, table.bob, game=game_id)
    await table.alice.slash(table.channel, "dms", enabled=False)
    store = table.env.bot.store
    marks: list[tuple[tuple[int, ...], bool]] = []
    set_turn_dm_owed = store.set_turn_dm_owed

    async def noted(table_id: int, seats, owed: bool) -> None:
        marks.append((tuple(seats), owed))
        await set_turn_dm_owed(table_id, seats, owed)

    store.set_turn_dm_owed = noted
    rng = random.Random(9)
    bob = game.table.seat_of(table.bob.id)
    before = len(turn_dms(table.bob))
    for _ in range(12):  # the seat asked first types its next decisions
        if not game.decisions():
            break
        await typed_move(table, game, game.decisions()[0].seat, rng)
    told = len(turn_dms(table.bob)) - before
    assert told > 0
    owed = [seat for seats, owed in marks if owed for seat in seats]
    settled = [seat for seats, owed in marks if not owed for seat in seats]
    assert owed == settled == [bob] * told


# -- a private text owed over a restart (finding 11's leftover) -------------------------------


def current_private_text(game, seat: int):
    """The seat's private text as it stands, in no language (as its DM carries it)."""
    text = game.private_text(seat)
    return text.strip() if isinstance(text, str) else text


def line_to_a_private_change(game, seat: int, rng, most: int = 5000) -> list:
    """A random line of moves, worked out on the engine, after which the seat's private
    text is not what it is now and the seat is not awaited: a DM carrying only its private
    text falls due (a turn's own steps are in its panel; the DM waits for the turn's end)."""
    engine, state = game.engine, game.state

    def private(state):
        text = presenters.private_text(game.table.game, engine.view(state, seat))
        return text.strip() if isinstance(text, str) else text

    first, line = private(state), []
    for _ in range(most):
        pending = engine.decisions(state)
        assert pending, "the game ended before the seat's private text changed"
        action = Action(pending[0].seat, random_choices(pending[0], rng))
        state = engine.apply(state, action)
        line.append(action)
        if private(state) != first and all(d.seat != seat for d in engine.decisions(state)):
            assert private(state), "the game shows this seat no private text"
            return line
    raise AssertionError(f"seat {seat}'s private text never changed in {most} moves")


async def until_private_text_changes(table, game, seat: int, rng):
    """The line of `line_to_a_private_change` played through the bot's move path, the table
    shown at its end and the DMs due then tried (a DM Discord refuses is tried 4 times, a
    few seconds apart, then left for a later pass); the seat's private text then."""
    for action in line_to_a_private_change(game, seat, rng):
        await submit(table, game, action.seat, action.choices)

    def posted():
        message, seq = live_table_message(table.channel)
        return message if seq == game.seq and not table.env.bot.display._tasks else None

    await waiting_for(table, posted, f"the table at move {game.seq}")
    await table.env.advance_time(TRIES_SECONDS)
    return current_private_text(game, seat)


def told_private(member, lang: str, game, text) -> list[str]:
    """The member's DMs telling them, in `lang`, of this private text."""
    said = t(
        lang,
        "dm.private",
        game=game_name(lang, game.table.game),
        channel=game.table.channel_id,
        text=text,
    )
    return [m.content for m in member.user.dm_channel.history() if m.content.endswith(said)]


async def private_sent(bot, game) -> list[str | None]:
    """The digest of each seat's private text last sent, as the store holds it."""
    stored_table = await bot.store.get_table(game.id)
    return [seat.private_sent for seat in stored_table.seats]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
@pytest.mark.parametrize("clean", [True, False], ids=["closed", "killed"])
@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_private_text_dm_discord_refused_before_a_restart_is_sent_after_it(
    table, make_bot, game_id, clean
):
    """Finding 11's leftover: a DM carrying only a seat's private text (changed by its own
    turn) that Discord refused waits for another try in memory; the store keeps the private
    text last sent, so the next bot sees it is not the one the seat has and sends it."""
    game = await start_game(table, table.bob, game=game_id)
    rng = random.Random(4)
    seat = awaited_humans(game)[0]
    player = seated_member(table, game, seat)
    dm_channel = player.user.dm_channel.id
    table.env.inject_error("POST", f"/channels/{dm_channel}/messages", status=503, times=None)
    text = await until_private_text_changes(table, game, seat, rng)
    assert told_private(player, "en", game, text) == []  # left to be sent again later
    assert (await private_sent(table.env.bot, game))[seat] != private_digest(text)
    await restart(table, make_bot, game, clean=clean)
    await table.env.advance_time(LATER[-1].total_seconds() + MINUTE)
    assert len(told_private(player, "en", game, text)) == 1
    assert (await private_sent(table.env.bot, game))[seat] == private_digest(text)


@pytest.mark.parametrize("clean", [True, False], ids=["closed", "killed"])
@pytest.mark.parametrize(
    ("lang", "game_id"),
    [(LANGUAGES[n % len(LANGUAGES)], game_id) for n, game_id in enumerate(EVERY_GAME)],
)
async def test_a_private_text_held_by_quiet_hours_over_a_restart_comes_when_they_end(
    table, make_bot, lang, game_id, clean
):
    """The next bot keeps the player's quiet hours as the first did: the private text owed
    goes out when they end, in the player's language, once."""
    game = await start_game(table, table.bob, game=game_id)
    rng = random.Random(6)
    seat = awaited_humans(game)[0]
    player = seated_member(table, game, seat)
    hour = discord.utils.utcnow().hour  # quiet from an hour ago until three hours on
    await player.slash(table.channel, "settings", language=lang)
    quiet = f"{(hour - 1) % 24:02d}-{(hour + 3) % 24:02d}"
    await player.slash(table.channel, "settings", quiet_hours=quiet, utc_offset="+0")
    text = await until_private_text_changes(table, game, seat, rng)
    assert told_private(player, lang, game, text) == []
    await restart(table, make_bot, game, clean=clean)
    await table.env.advance_time(2 * HOUR)
    assert told_private(player, lang, game, text) == []
    assert (await private_sent(table.env.bot, game))[seat] != private_digest(text)
    await table.env.advance_time(2 * HOUR)
    assert len(told_private(player, lang, game, text)) == 1
    assert (await private_sent(table.env.bot, game))[seat] == private_digest(text)


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_game_in_play_when_0019_ran_takes_its_private_texts_as_sent(
    table, make_bot, database_url, game_id
):
    """Migration 0019 leaves the private text last sent not known (None) at the seats of
    the games then in play: the next bot takes each seat's text as sent, as every bot
    before it did (no DM at the upgrade), and keeps its digest from then on."""
    game = await start_game(table, table.bob, game=game_id)
    await table_shown(table, game)
    with sqlite3.connect(database_url.removeprefix("sqlite:///")) as db:
        db.execute("UPDATE seats SET private_dm_sent = NULL WHERE table_id = ?", (game.id,))
    seats = range(len(game.table.seats))
    dms = {seat: len(seated_member(table, game, seat).user.dm_channel.history()) for seat in seats}
    await restart(table, make_bot, game, clean=True)
    await table.env.advance_time(LATER[-1].total_seconds() + MINUTE)
    for seat in seats:
        assert len(seated_member(table, game, seat).user.dm_channel.history()) == dms[seat]
    assert await private_sent(table.env.bot, game) == [
        private_digest(current_private_text(game, seat)) for seat in seats
    ]


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_the_store_hears_of_private_texts_only_when_one_went_out(table, game_id):
    """A move costs no write about private texts unless one went out by DM (one write for
    the seat told): none for a player who turned DMs off, none for a move that changed no
    private text."""
    game = await start_game(table, table.bob, game=game_id)
    await table.alice.slash(table.channel, "dms", enabled=False)
    store = table.env.bot.store
    writes: list[int] = []
    set_private_sent = store.set_private_sent

    async def noted(table_id: int, sent) -> None:
        writes.extend(sent)
        await set_private_sent(table_id, sent)

    store.set_private_sent = noted
    rng = random.Random(9)
    bob = game.table.seat_of(table.bob.id)
    alice = game.table.seat_of(table.alice.id)
    before = len(table.bob.user.dm_channel.history())
    texts = {seat: current_private_text(game, seat) for seat in (alice, bob)}
    changes = {alice: 0, bob: 0}
    moves = 0
    for _ in range(12):  # the seat asked first types its next decisions
        if not game.decisions():
            break
        await typed_move(table, game, game.decisions()[0].seat, rng)
        moves += 1
        for seat in (alice, bob):
            changes[seat] += current_private_text(game, seat) != texts[seat]
            texts[seat] = current_private_text(game, seat)
    await table_shown(table, game)
    told = [
        m.content
        for m in table.bob.user.dm_channel.history()[before:]
        if m.content.startswith("🔒") or "\n\n🔒" in m.content
    ]
    assert moves > 0
    assert writes == [bob] * len(told)  # none for Alice, whose DMs are off
    assert len(writes) <= changes[bob]  # none for a move that changed no private text
