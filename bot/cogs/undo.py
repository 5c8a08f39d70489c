"""Undo: the **Undo** button a panel shows after a move, and `/undo`.

A player takes back their own latest decisions, one click per click (the moves a folded
panel line made together are taken back together), as long as no draw or reveal and no
other player's move (other than an answer to a decision open at the same time) came since
(games/core/undo.py). The answer is the panel of the decision the player is back at, with
that decision's picture as Take turn's panel has it (bot/cogs/play.py). The button itself
is built by bot/undo.py.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from meeple_hall.bot.cogs.play import Play, attach_picture, draw_decision, show_panel
from meeple_hall.bot.components import Components, UndoButton
from meeple_hall.bot.display import TableDisplay
from meeple_hall.bot.i18n import cmd, desc, t
from meeple_hall.bot.languages import user_locale
from meeple_hall.bot.live import TableManager
from meeple_hall.bot.live_game import LiveGame
from meeple_hall.bot.panels import build_panel
from meeple_hall.bot.refusals import GameOver, NoGameHere, Refusal
from meeple_hall.bot.replies import refuse
from meeple_hall.bot.undo import offer_undo


class Undo(commands.Cog):
    def __init__(self, bot: commands.Bot, manager: TableManager, display: TableDisplay) -> None:
        self.bot = bot
        self.manager = manager
        self.display = display

    @app_commands.command(name=cmd("undo"), description=desc("undo"))
    @app_commands.guild_only()
    async def undo(self, interaction: discord.Interaction) -> None:
        try:
            game = await self.manager.fetch_in(interaction.channel_id or 0)
            if game is None:
                raise NoGameHere()
            await self._undo(interaction, game, expected=None)
        except Refusal as refusal:
            await refuse(interaction, refusal)

    async def on_undo_button(self, interaction: discord.Interaction, click: UndoButton) -> None:
        try:
            game = await self.manager.fetch(click.number("table"))
            if game is None:
                raise GameOver()
            await self._undo(interaction, game, expected=click.number("seq"))
        except Refusal as refusal:
            await refuse(interaction, refusal)

    async def _undo(
        self, interaction: discord.Interaction, game: LiveGame, *, expected: int | None
    ) -> None:
        locale = user_locale(interaction)
        seat = Play.seat(game, interaction)
        taken = await self.manager.undo(game, seat, user_id=interaction.user.id, expected=expected)
        if len(taken) == 1:
            notice = t(locale, "undo.done", seq=taken[0])
        else:
            notice = t(locale, "undo.done_chain", first=taken[0], last=taken[-1])
        decision = game.decision_for(seat)
        picture = None
        if decision is not None:
            picture = draw_decision(game, seat, decision, self.display.pictures)
            content, view = build_panel(game, seat, decision, locale, notice=notice)
        else:
            content, view = notice, Components()
        offered = await offer_undo(self.manager, game, seat, locale, view)
        shown = offered if offered is not None and offered.children else None
        # The Undo button's panel is updated, its picture (of the undone decision) dropped;
        # `/undo` gets a new ephemeral reply, counted below the table.
        edit = await show_panel(interaction, content, shown, attachments=[])
        if picture is not None:
            await attach_picture(edit, game, picture)
