"""AI moves in worker processes, so the bot's event loop answers clicks while AIs think.

`await choose_in_pool(game_id, state_dump, seat, level, seed, think)` sends the dumped
state to a worker process, which loads it and asks `levels.choose`. The pool starts on first
use with the `spawn` method (a fork of a process running asyncio and database threads is
unsafe) and is shut down with `shutdown()`.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

from meeple_hall import games
from meeple_hall.games.ai import levels

_pool: ProcessPoolExecutor | None = None


def workers() -> int:
    """One process per core but one, at least one: the bot keeps a core for itself."""
    return max(1, (os.cpu_count() or 2) - 1)


def executor() -> ProcessPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(
            max_workers=workers(), mp_context=multiprocessing.get_context("spawn")
        )
    return _pool


def choose_from_dump(
    game_id: str, state_dump: str, seat: int, level: str, seed: int, think: float
) -> tuple[str, ...]:
    """What runs in the worker: load the state and ask the level."""
    engine = games.get(game_id)
    return levels.choose(engine, engine.load(state_dump), seat, level, seed, think)


async def choose_in_pool(
    game_id: str,
    state_dump: str,
    seat: int,
    level: str,
    seed: int,
    think: float = levels.DEFAULT_THINK,
) -> tuple[str, ...]:
    """The level's answer for `seat`, worked out in a worker process."""
    if level not in levels.LEVELS:
        raise games.GameError(f"unknown AI level {level!r} (levels: {', '.join(levels.LEVELS)})")
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(
        executor(), choose_from_dump, game_id, state_dump, seat, level, seed, think
    )


def shutdown() -> None:
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None
