"""The hint and review workers import none of the bot's Discord side (issues 27 and 29), as
the picture workers (tests/bot/test_picture_workers.py): a `spawn`ed worker imports the
module of every function it is given, its start-up step's included, so what it runs lives
in modules importing neither discord.py nor aiohttp nor the store. Real worker processes;
their modules read with `tests/bot/worker_jobs.py: modules` (which imports nothing)."""

from __future__ import annotations

import asyncio
import os
import random
from datetime import UTC, datetime

from meeple_hall import games
from meeple_hall.bot.hints import Hints
from meeple_hall.bot.live_game import LiveGame
from meeple_hall.bot.review import NICENESS, Reviews
from meeple_hall.bot.store import LoggedAction, Seat, Table, TableStatus
from meeple_hall.games.ai.review import Budget
from meeple_hall.games.core import Action
from meeple_hall.games.testing import random_choices
from tests.bot.worker_jobs import HEAVY, modules

# Besides HEAVY, not the bot's modules that own the workers, nor the tests'.
NOT_IN_A_WORKER = (
    *HEAVY,
    "meeple_hall.bot.hints",
    "meeple_hall.bot.review",
    "meeple_hall.bot.live_game",
    "tests.bot.test_hint_review_workers",
)
GAME = "village"


def played(moves: int) -> tuple[Table, list[LoggedAction], object]:
    """A Village table of two people, `moves` random moves in: the table, its log and the
    state after them."""
    engine = games.get(GAME)
    seats = [Seat(7, "Ada"), Seat(8, "Bo")]
    table = Table(1, 2, 3, 4, GAME, {}, 5, TableStatus.ACTIVE, seats)
    state = engine.new(len(seats), table.seed, table.options)
    rng, log = random.Random(1), []
    for seq in range(1, moves + 1):
        decision = rng.choice(engine.decisions(state))
        action = Action(decision.seat, random_choices(decision, rng))
        state = engine.apply(state, action)
        user = seats[decision.seat].user_id
        log.append(LoggedAction(seq, action.seat, action.choices, user, datetime.now(UTC)))
    return table, log, state


async def in_worker(executor, job, *args):
    return await asyncio.get_running_loop().run_in_executor(executor, job, *args)


async def test_a_hint_worker_imports_no_discord_nor_the_store():
    """The modules of the worker that worked out a hint (`Hints` with a worker of its own,
    as where the AI thinks elsewhere; the AI's workers get the same job)."""
    table, log, state = played(4)
    game = LiveGame(table, games.get(GAME), state, len(log))
    seat = game.decisions()[0].seat
    hints = Hints(None)
    try:
        hint = await hints.hint(game, seat)
        assert hint.seq == len(log) + 1 and hint.advice.choices
        assert hints.workers is not None
        loaded = set(await in_worker(hints.workers.executor(), modules, GAME))
        assert "meeple_hall.games.ai.reasons" in loaded  # the worker worked it out
        assert sorted(loaded.intersection(NOT_IN_A_WORKER)) == []
    finally:
        hints.close()


async def test_a_review_worker_imports_no_discord_nor_the_store_and_runs_low():
    """The modules of the worker that reviewed a game (`Reviews`, at a tiny budget), and its
    priority: its start-up step lowers it by NICENESS."""
    table, log, _ = played(6)
    reviews = Reviews(budget=lambda total: Budget(think=0.001), chunk=3)
    told: list[tuple[int, int]] = []

    async def progress(done: int, total: int) -> None:
        told.append((done, total))

    try:
        review = await reviews.review(table, log, progress)
        assert len(review.moves) == told[-1][1] > 0
        executor = reviews.worker.executor()
        loaded = set(await in_worker(executor, modules, GAME))
        assert "meeple_hall.games.ai.review" in loaded  # the worker reviewed it
        assert sorted(loaded.intersection(NOT_IN_A_WORKER)) == []
        (pid,) = executor._processes
        owner = os.getpriority(os.PRIO_PROCESS, 0)
        assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, owner + NICENESS)
    finally:
        reviews.close()
