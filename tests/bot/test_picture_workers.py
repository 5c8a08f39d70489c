"""A table's pictures go to the picture worker that drew its last one when that worker is
free (`bot/render.py: WorkerProcesses`), so that worker's caches are the table's; a table
never waits behind another while a worker is idle; a worker that dies is started again
alone; a worker imports none of the bot's Discord side. Real `spawn`ed worker processes,
given jobs of `tests/bot/worker_jobs.py` (a worker imports the module of each function it
is given: not this one)."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time

from meeple_hall import games
from meeple_hall.bot import render
from meeple_hall.bot.render import PicturePool, TablePictures, encode_table
from meeple_hall.games.core import Action
from meeple_hall.games.testing import random_choices
from tests.bot.worker_jobs import HEAVY, modules, worker_pid

# Besides HEAVY, not the bot's module that owns the pool, nor the tests' (not pytest: a
# worker runs the imports of the script that started its owner, `pytest` under `-n 0`).
NOT_IN_A_WORKER = (*HEAVY, "meeple_hall.bot.render", "tests.bot.test_picture_workers")


async def test_a_picture_worker_imports_no_discord_nor_the_store():
    """The modules of a worker that drew a Keyflower table picture (`encode_table`, as
    `TablePictures.png` sends it)."""
    engine = games.get("keyflower")
    view = engine.view(engine.new(3, 1), None)
    pool = PicturePool(max_workers=1)
    try:
        data, _ = await pool.run("keyflower", encode_table, view, None, table=1)
        assert data.startswith(b"\x89PNG")
        loaded = set(await pool.run("keyflower", modules, table=1))
        assert "meeple_hall.renderers.keyflower" in loaded  # the worker drew it
        assert sorted(loaded.intersection(NOT_IN_A_WORKER)) == []
    finally:
        pool.shutdown()


async def test_a_table_s_pictures_go_to_the_worker_that_drew_its_last_one():
    pool = PicturePool(max_workers=2)
    try:
        first = await pool.run("village", worker_pid, table=1)
        other = await pool.run("village", worker_pid, table=2)
        for _ in range(4):
            assert await pool.run("village", worker_pid, table=1) == first
        # table 2 was drawn by the free worker with the lowest index: worker 0, as table 1
        assert other == first
    finally:
        pool.shutdown()


async def test_a_table_whose_worker_is_busy_goes_to_a_free_one_at_once():
    pool = PicturePool(max_workers=2)
    try:
        own, _ = await asyncio.gather(  # both workers started: worker 0 is table 1's
            pool.run("village", worker_pid, 0.3, table=1),
            pool.run("village", worker_pid, 0.3, table=2),
        )
        busy = asyncio.create_task(pool.run("village", worker_pid, 1.0, table=3))
        await asyncio.sleep(0.1)  # table 3 now holds worker 0, table 1's
        started = time.monotonic()
        elsewhere = await pool.run("village", worker_pid, table=1)
        assert elsewhere != own and time.monotonic() - started < 0.9
        assert await busy == own
        # table 1's last picture was worker 1's: it goes there again
        assert await pool.run("village", worker_pid, table=1) == elsewhere
    finally:
        pool.shutdown()


async def test_a_worker_that_dies_is_started_again_alone():
    pool = PicturePool(max_workers=2)
    try:
        victim, survivor = await asyncio.gather(
            pool.run("village", worker_pid, 0.3, table=1),
            pool.run("village", worker_pid, 0.3, table=2),
        )
        drawing = asyncio.create_task(pool.run("village", worker_pid, 3.0, table=1))
        await asyncio.sleep(0.5)
        os.kill(victim, signal.SIGKILL)  # while it draws: that picture is drawn here
        assert await drawing == os.getpid()
        again = await pool.run("village", worker_pid, table=1)
        assert again not in (victim, survivor, os.getpid())
        assert set(pool.executor()._processes) == {again, survivor}
        os.kill(again, signal.SIGKILL)  # while idle: the next picture starts a new one
        await asyncio.sleep(0.5)
        assert await pool.run("village", worker_pid, table=1) not in (again, survivor)
        assert await pool.run("village", worker_pid, table=2) == survivor
    finally:
        pool.shutdown()


async def test_a_table_s_pictures_through_the_workers_are_the_bytes_drawn_here(monkeypatch):
    """Consecutive moves of a Burgundy table: each picture keeps the table's palette, and a
    worker's bytes (its bands remembered) are those drawn here from nothing."""
    monkeypatch.setattr(render, "pool", PicturePool(max_workers=2))
    engine = games.get("burgundy")
    rng = random.Random(5)
    state = engine.new(2, 5)
    pictures = TablePictures()
    palette = None
    try:
        for seq in range(24):
            decision = rng.choice(engine.decisions(state))
            state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
            if seq < 20:
                continue
            view = engine.view(state, None)
            drawn = await pictures.png(7, seq, "burgundy", view)
            here, palette = encode_table("burgundy", view, palette)
            assert drawn == here
        assert pictures._palettes[7] == palette
        assert 7 in render.pool.executor()._last  # drawn by the table's worker
    finally:
        render.pool.shutdown()


async def test_a_bot_keeps_the_palettes_of_its_latest_tables_only(monkeypatch):
    """Tables' palettes are kept for the `palettes` tables drawn last: a bot that has drawn
    thousands of tables does not keep them all (a forgotten table's palette starts afresh)."""
    monkeypatch.setattr(render, "pool", PicturePool(max_workers=1))
    engine = games.get("village")
    view = engine.view(engine.new(2, 1), None)
    pictures = TablePictures(palettes=2)
    try:
        for seq, table in enumerate((1, 2, 1, 3)):
            await pictures.png(table, seq, "village", view)
        assert list(pictures._palettes) == [1, 3]
    finally:
        render.pool.shutdown()
