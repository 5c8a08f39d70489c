"""The bot's picture workers (bot/render.py), started with the playground rather than on
the first picture.

The bot starts its picture workers on its first picture, which in the playground the
person's first clicks ask for (Start, then Take turn), and the page's action does not
answer until the bot has settled: the first click whose answer waits on a picture (Take
turn) waited for two Python processes to start, import the renderers and draw. On a
loaded 2-core machine that took 10-18 s (a load of 15); with the whole test suite beside
it, long enough that the browser tests' 30 s wait for an answer ran out. Started with the
session, the workers are ready before the page opens (that Take turn then answers in about
2 s at the same load).
"""

from __future__ import annotations

import asyncio

from meeple_hall import games, renderers
from meeple_hall.bot import render
from meeple_hall.bot.picture_encoding import load_renderers


async def start_picture_workers() -> None:
    """Every picture worker started, with the renderers of the games a worker can draw (a
    game registered at run time is drawn in a thread instead)."""
    drawn = tuple(g for g in games.ids() if not renderers.registered_at_run_time(g))
    loop = asyncio.get_running_loop()
    executor = render.pool.executor()
    await asyncio.gather(
        *(loop.run_in_executor(executor, load_renderers, drawn) for _ in range(render.pool.size()))
    )
