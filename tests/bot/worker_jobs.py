"""Jobs the tests give to real picture workers (tests/bot/test_picture_workers.py,
test_hint_review_workers.py). A worker
imports the module of every function it is given: this one imports nothing (not the tests'
modules, hence not simcord, discord.py or pytest), so a worker started for a test costs what
a bot's does."""

from __future__ import annotations

import os
import sys
import time

# What no worker (pictures, hints, reviews) has a use for: discord.py, its HTTP client, the
# store and its database drivers, and the bot's own modules that import them.
HEAVY = (
    "discord",
    "aiohttp",
    "asyncpg",
    "aiosqlite",
    "simcord",
    "meeple_hall.bot.app",
    "meeple_hall.bot.store",
)


def worker_pid(game_id: str, seconds: float = 0.0) -> int:
    """Which process this is, after `seconds`."""
    time.sleep(seconds)
    return os.getpid()


def modules(game_id: str) -> list[str]:
    """The modules this process has imported."""
    return sorted(sys.modules)
