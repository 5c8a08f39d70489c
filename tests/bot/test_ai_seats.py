"""AI seats at the table (issue 15): Add AI asks for the level and the seat keeps it (in each
real game; a forged level is refused in the test game too); AI seats think in worker
processes while humans go on playing; a seat handed to the AI plays `good`; a restart, or
another process, never makes the AI move twice."""

from __future__ import annotations

import asyncio
import copy
import random
from pathlib import Path

import pytest

from meeple_hall import games
from meeple_hall.bot import ai
from meeple_hall.bot.cogs.play import AI_FOLLOWED_FOR
from meeple_hall.bot.live import TableManager
from meeple_hall.bot.store import Seat, open_store
from meeple_hall.games.ai import levels
from tests.bot.conftest import (
    EVERY_GAME,
    REAL_GAMES,
    add_ai,
    answer_panel,
    click_as_it_was,
    raw_buttons,
    start_game,
    stored_message,
    table_message,
)


class Recording:
    """A chooser that passes each question on (to worker processes, or in this process) and
    keeps what it was asked and answered; with `hold`, it keeps the first answer back whose
    state lets seat 0 decide too (the AI still thinking while a human plays)."""

    def __init__(self, inner: ai.Chooser, env: object = None, hold: bool = False) -> None:
        self.inner = inner
        self.env = env
        self.hold = hold
        self.asked: list[tuple[str, int, str, int, tuple[str, ...]]] = []
        self.holding = asyncio.Event()
        self.release = asyncio.Event()
        self.held: tuple[str, int, str, int, tuple[str, ...]] | None = None

    async def __call__(
        self, game_id: str, dump: str, seat: int, level: str, seed: int
    ) -> tuple[str, ...]:
        answer = await self.inner(game_id, dump, seat, level, seed)
        self.asked.append((dump, seat, level, seed, answer))
        engine = games.get(game_id)
        if self.hold and any(d.seat == 0 for d in engine.decisions(engine.load(dump))):
            self.hold = False
            self.held = self.asked[-1]
            self.holding.set()
            await self.env.external_wait(self.release.wait(), reason="the test holds the AI")  # type: ignore[union-attr]
        return answer


async def in_process(game_id: str, dump: str, seat: int, level: str, seed: int):
    engine = games.get(game_id)
    return levels.choose(engine, engine.load(dump), seat, level, seed, think=0.2)


def forged(env, message, custom_id: str, replacement: str):
    """The message as a tampered client shows it: one button's custom_id replaced (Discord
    delivers only ids that are on the message)."""
    shown = copy.deepcopy(stored_message(env, message))
    for row in shown.components:
        for item in row.get("components", []):
            if item.get("custom_id") == custom_id:
                item["custom_id"] = replacement
    return shown


def good_answer(dump: str, game_id: str, seat: int, seed: int) -> tuple[str, ...]:
    engine = games.get(game_id)
    return levels.choose(engine, engine.load(dump), seat, "good", seed)


# -- the lobby -----------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_add_ai_asks_for_the_level_and_the_seat_keeps_it(table, game_id):
    await table.alice.slash(table.channel, "new", game=game_id)
    lobby = table.channel.last_message
    asked = await table.alice.click(lobby, label="Add AI")
    assert asked.ephemeral
    text = asked.response.content
    assert "Which AI takes the seat?" in text
    assert "**random**" in text and "**good**" in text and "**strong**" in text
    assert "2 seconds" in text  # each level says what it plays like
    offered = {b["label"]: b for b in raw_buttons(asked.response)}
    assert set(offered) == {"random", "good", "strong"}
    assert offered["good"]["style"] == 1  # the default is the highlighted one
    assert [s.name for s in (await table.env.bot.store.open_table_in(table.channel.id)).seats] == [
        "alice"
    ]

    added = await table.alice.click(asked.response, label="strong")
    assert "AI 1 (strong) has taken a seat" in added.response.content
    await add_ai(table.alice, lobby)  # the default level
    stored = await table.env.bot.store.open_table_in(table.channel.id)
    assert [(s.name, s.ai_level) for s in stored.seats] == [
        ("alice", None),
        ("AI 1", "strong"),
        ("AI 2", "good"),
    ]
    seats = stored_message(table.env, lobby).embeds[0]["fields"][0]["value"]
    assert "🤖 AI 1 (strong)" in seats and "🤖 AI 2 (good)" in seats


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_forged_or_unoffered_level_is_refused_and_changes_nothing(table, game_id):
    """Every game refuses a level no game has; the tests' own game has no good player, so
    random is all it offers and a forged `strong` is refused too."""
    offered = ai.levels_for(game_id)
    await table.alice.slash(table.channel, "new", game=game_id)
    lobby = table.channel.last_message
    tid = (await table.env.bot.store.open_table_in(table.channel.id)).id
    asked = await table.alice.click(lobby, label="Add AI")
    assert [b["label"] for b in raw_buttons(asked.response)] == list(offered)
    real = f"l:{tid}:ai:{offered[0]}"
    for forged_level in ("genius", *(level for level in ai.LEVELS if level not in offered)):
        shown = forged(table.env, asked.response, real, f"l:{tid}:ai:{forged_level}")
        refused = await click_as_it_was(table.alice, shown, f"l:{tid}:ai:{forged_level}")
        assert refused.ephemeral
        assert f"no AI level “{forged_level}”" in refused.response.content
        assert f"Levels: {', '.join(offered)}." in refused.response.content
    assert len((await table.env.bot.store.open_table_in(table.channel.id)).seats) == 1


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_only_a_seated_player_or_a_manager_adds_an_ai(table, game_id):
    await table.alice.slash(table.channel, "new", game=game_id)
    lobby = table.channel.last_message
    tid = (await table.env.bot.store.open_table_in(table.channel.id)).id
    asked = await table.bob.click(lobby, label="Add AI")
    assert "don't have a seat" in asked.response.content
    shown = forged(table.env, lobby, f"l:{tid}:ai", f"l:{tid}:ai:good")
    refused = await click_as_it_was(table.bob, shown, f"l:{tid}:ai:good")
    assert "don't have a seat" in refused.response.content
    assert len((await table.env.bot.store.open_table_in(table.channel.id)).seats) == 1


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_the_table_lists_the_ai_seat_with_its_level(table, game_id):
    game = await start_game(table, ai=1, game=game_id)
    players = table_message(table.channel).embeds[0].fields[0].value
    assert "🤖 AI 1 (good)" in players
    assert game.table.seats[1].ai_level == "good"


# -- playing -------------------------------------------------------------------------------
# The panel Alice answers while the AI is held waits AI_FOLLOWED_FOR seconds for the AI's move
# (bot/cogs/play.py). SimCord's settle waits out in real time a bot timer due within its
# timeout: under that wait, the settle leaves the panel waiting on virtual time.
@pytest.mark.simcord(settle_timeout=AI_FOLLOWED_FOR * 0.8)
async def test_the_ai_thinks_in_worker_processes_while_the_human_plays_on(table):
    """Coffee Traders at 2: Alice against a good AI. The AI's every move is worked out in a
    worker process; when both must decide at once, Alice's panel is answered while the AI
    is still thinking, and the AI's answer then counts once."""
    pool = ai.WorkerPool()
    recording = Recording(pool, table.env, hold=True)
    table.env.bot.manager.chooser = recording
    try:
        game = await start_game(table, ai=1, game="coffee")
        rng = random.Random(3)
        for _ in range(60):
            if recording.holding.is_set():
                break
            assert game.decision_for(0) is not None, "the AI must never keep Alice waiting"
            opened = await table.alice.click(table_message(table.channel), label="Take turn")
            await answer_panel(table.alice, opened.response, rng)
        assert recording.holding.is_set(), "no decision of both seats at once"
        assert pool._executor is not None  # the answers came from worker processes

        # the AI is thinking: Alice's panel is answered all the same
        seq = game.seq
        ai_moves = [s for s in game.acted.values() if s == 1]
        opened = await table.alice.click(table_message(table.channel), label="Take turn")
        answered = await answer_panel(table.alice, opened.response, rng)
        assert "out of date" not in (answered.response.content or "")
        assert game.seq > seq and game.acted[seq + 1] == 0
        assert [s for s in game.acted.values() if s == 1] == ai_moves  # still thinking

        recording.release.set()
        await table.env.settle()
        logged = await table.env.bot.store.actions(game.id, after=seq)
        assert [e.seat for e in logged][:2] == [0, 1]
        ai_move = logged[1]
        assert ai_move.user_id is None
        # Alice's move left the AI's decision as it was: the answer it held counts, once
        dump, seat, level, seed, answer = recording.held
        assert ai_move.choices == answer and (seat, level) == (1, "good")
        # and the worker's answer is the good player's own
        assert answer == good_answer(dump, "coffee", 1, seed)
        assert {level for _, _, level, _, _ in recording.asked} == {"good"}
    finally:
        recording.release.set()
        pool.shutdown()


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_resigned_seat_is_played_by_the_good_level(table, game_id):
    recording = Recording(in_process)
    table.env.bot.manager.chooser = recording
    game = await start_game(table, table.bob, game=game_id)
    asked = await table.bob.slash(table.channel, "resign")
    yes = next(b for b in raw_buttons(asked.response) if b["custom_id"].endswith(":yes"))
    await table.bob.click(asked.response, custom_id=yes["custom_id"])
    assert game.table.seats[1].resigned and game.table.seats[1].ai_level is None
    rng = random.Random(4)
    for _ in range(8):
        if game.decision_for(0) is None:
            break
        opened = await table.alice.click(table_message(table.channel), label="Take turn")
        await answer_panel(table.alice, opened.response, rng)
    bob_moves = [a for a in recording.asked if a[1] == 1]
    assert bob_moves, "the AI did not play the resigned seat"
    assert {level for _, _, level, _, _ in bob_moves} == {"good"}
    assert "(resigned)" in table_message(table.channel).embeds[0].fields[0].value


async def test_a_restart_while_the_ai_thinks_loses_nothing(table, make_bot):
    """The old bot stops with its AI's answer still to come: the new bot thinks again, and
    the AI's move is in the log once."""
    recording = Recording(in_process, table.env, hold=True)
    table.env.bot.manager.chooser = recording
    game = await start_game(table, ai=1, game="coffee")
    rng = random.Random(5)
    for _ in range(60):
        if recording.holding.is_set():
            break
        opened = await table.alice.click(table_message(table.channel), label="Take turn")
        await answer_panel(table.alice, opened.response, rng)
    assert recording.holding.is_set()
    seq = game.seq
    before = [(e.seq, e.seat, e.choices) for e in await table.env.bot.store.actions(game.id)]

    await table.env.restart_bot(make_bot())
    await table.env.settle()

    restarted = table.env.bot.manager.in_channel(table.channel.id)
    store = table.env.bot.store
    after = [(e.seq, e.seat, e.choices) for e in await store.actions(game.id)]
    assert after[: len(before)] == before  # nothing lost
    # the new bot thought again (the same good answer, from the same seed) and moved once
    _, _, _, _, answer = recording.held
    assert after[len(before) :] == [(seq + 1, 1, answer)]
    assert restarted.seq == seq + 1 and restarted.decision_for(1) is None
    assert restarted.decision_for(0) is not None  # and Alice is still to answer


async def test_two_processes_thinking_for_one_ai_seat_move_it_once(tmp_path: Path):
    """Two bots on one database (a second process): both think for the AI; whichever
    answers second is refused by the log and thinks again from the new state."""
    url = f"sqlite:///{tmp_path / 'two.db'}"
    first, second = open_store(url), open_store(url)
    await first.open()
    await second.open()
    release = asyncio.Event()

    async def slow(game_id: str, dump: str, seat: int, level: str, seed: int):
        await release.wait()
        return await in_process(game_id, dump, seat, level, seed)

    one = TableManager(first, chooser=slow)
    two = TableManager(second, chooser=in_process)
    try:
        table = await first.create_table(
            guild_id=1,
            channel_id=2,
            host_id=10,
            game="village",
            options={},
            seed=8,
            seats=[Seat(None, "AI 1", ai=True, ai_level="good"), Seat(10, "Ada")],
        )
        game_one = await one.start(table.id)  # the AI (seat 0) moves first: one thinks
        await asyncio.sleep(0.05)
        assert game_one.seq == 0 and table.id in one._ai_tasks
        game_two = await two.load(await second.get_table(table.id))
        two.wake_ai(game_two)
        while table.id in two._ai_tasks:
            await asyncio.sleep(0.01)
        assert game_two.seq >= 1 and game_two.decision_for(1) is not None
        release.set()
        while table.id in one._ai_tasks:
            await asyncio.sleep(0.01)
        logged = await first.actions(table.id)
        assert [e.seat for e in logged] == [0] * game_two.seq
        assert game_one.seq == game_two.seq
        assert game_one.engine.dump(game_one.state) == game_two.engine.dump(game_two.state)
    finally:
        await one.close()
        await two.close()
        await first.close()
        await second.close()
