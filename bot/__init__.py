"""Meeple Hall: the Discord table. `create_bot()` builds the bot for `meeple-hall` and tests.

The bot itself is in `bot/app.py`, imported on first use of one of its names here: a picture
worker (bot/render.py) imports `meeple_hall.bot.picture_encoding`, hence this package, and
must not pay for discord.py, aiohttp and the store it never uses (issues 27 and 29)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from meeple_hall.bot.app import (
        Clicks,
        MeepleHall,
        ShardedMeepleHall,
        Tree,
        create_bot,
        refused_while_closing,
        report_failure,
    )

# The names `meeple_hall.bot` gives, all of them bot/app.py's.
__all__ = [
    "Clicks",
    "MeepleHall",
    "ShardedMeepleHall",
    "Tree",
    "create_bot",
    "refused_while_closing",
    "report_failure",
]


def __getattr__(name: str) -> Any:
    """`meeple_hall.bot.create_bot` and the other names of bot/app.py, imported on first use;
    anything else is not here (so `from meeple_hall.bot import render` imports the module)."""
    if name in __all__:
        return getattr(importlib.import_module("meeple_hall.bot.app"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
