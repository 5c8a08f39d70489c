"""`/hint`: what the `good` AI would answer to your current decision, and why (bot/hints.py).

Only in casual games: refused in rated and tournament games, outside a table, to someone
not seated, and when it is not your turn; each refusal changes nothing. A hint taken is
kept with the table, and its Log, `/replay` and `/export` say so to everyone.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from meeple_hall.bot.cogs.play import Play
from meeple_hall.bot.hints import Hint, Hints, check_casual, reason_text
from meeple_hall.bot.i18n import cmd, desc, t
from meeple_hall.bot.languages import user_locale
from meeple_hall.bot.live import TableManager
from meeple_hall.bot.live_game import LiveGame
from meeple_hall.bot.panels import chosen_text, known_lines
from meeple_hall.bot.refusals import GameOver, NoGameHere, Refusal
from meeple_hall.bot.replies import refuse, say
from meeple_hall.bot.store import Store, TableNotActive
from meeple_hall.bot.store.base import HINTS_TAKEN


class HintCog(commands.Cog):
    def __init__(self, store: Store, manager: TableManager) -> None:
        self.store = store
        self.manager = manager
        self.hints = Hints(manager.ai.workers)

    async def cog_unload(self) -> None:
        self.hints.close()

    @app_commands.command(name=cmd("hint"), description=desc("hint"))
    @app_commands.guild_only()
    async def hint(self, interaction: discord.Interaction) -> None:
        try:
            game = await self.manager.fetch_in(interaction.channel_id or 0)
            if game is None:
                raise NoGameHere()
            seat = Play.seat(game, interaction)
            Play.own_decision(game, seat)
            await check_casual(self.store, game.table)
            # the good player answers within a second, but in another process
            await interaction.response.defer(ephemeral=True, thinking=True)
            hint = await self.hints.hint(game, seat)
            await self._note(game, hint, seat)
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return
        await say(interaction, suggestion(game, seat, hint, user_locale(interaction)))

    async def _note(self, game: LiveGame, hint: Hint, seat: int) -> None:
        """Keep with the table that the seat took the hint, before it is shown."""
        try:
            table = await self.store.note_hint(game.id, hint.seq, seat)
        except TableNotActive:
            raise GameOver() from None
        game.table.settings[HINTS_TAKEN] = table.settings[HINTS_TAKEN]


def suggestion(game: LiveGame, seat: int, hint: Hint, locale: str) -> str:
    """The hint as the player reads it: the option(s) in the panel's words, and why."""
    lines = known_lines(game, seat, hint.decision)
    steps = (hint.advice.choices,)
    choice = chosen_text(game.table.game, game.engine, game.state, seat, steps, lines, locale)
    reason = reason_text(locale, hint.advice.reason)
    return t(locale, "hint.suggestion", seq=hint.seq, choice=choice, reason=reason)
