"""The Undo button a panel shows after a move (handled by bot/cogs/undo.py).

The button names the move it would take back (`u:<table>:<seq>`), so one left open after
the table moved on is answered as out of date instead of taking back something else.
"""

from __future__ import annotations

from typing import overload

import discord

from meeple_hall.bot.components import Components, button
from meeple_hall.bot.i18n import t
from meeple_hall.bot.live import TableManager
from meeple_hall.bot.live_game import LiveGame
from meeple_hall.bot.refusals import NoUndo

UNDO_ROW = 4


@overload
async def offer_undo(
    manager: TableManager,
    game: LiveGame,
    seat: int,
    locale: discord.Locale | str | None,
    view: Components,
) -> Components: ...


@overload
async def offer_undo(
    manager: TableManager,
    game: LiveGame,
    seat: int,
    locale: discord.Locale | str | None,
    view: None = None,
) -> Components | None: ...


async def offer_undo(
    manager: TableManager,
    game: LiveGame,
    seat: int,
    locale: discord.Locale | str | None,
    view: Components | None = None,
) -> Components | None:
    """`view` (or a new one) with an Undo button if the seat can take a move back now;
    `view` unchanged (None if none was given) if it cannot."""
    try:
        plan = await manager.undo_plan(game, seat)
    except NoUndo:
        return view
    view = view if view is not None else Components()
    view.add_item(
        button(
            f"u:{game.id}:{plan.target}",
            t(locale, "undo.button"),
            emoji="↩️",
            style=discord.ButtonStyle.danger,
            row=UNDO_ROW,
        )
    )
    return view
