"""A player's own settings: whether the bot sends them DMs."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from meeple_hall.bot.i18n import cmd, desc, t
from meeple_hall.bot.replies import say
from meeple_hall.bot.store import Store


class Settings(commands.Cog):
    def __init__(self, store: Store) -> None:
        self.store = store

    @app_commands.command(name=cmd("dms"), description=desc("dms"))
    @app_commands.rename(enabled=cmd("enabled"))
    @app_commands.describe(enabled=desc("dms.enabled"))
    async def dms(self, interaction: discord.Interaction, enabled: bool) -> None:
        prefs = await self.store.get_prefs(interaction.user.id)
        prefs.turn_dms = enabled
        if enabled:
            prefs.dms_closed = False  # try again: they may have opened their DMs
        await self.store.set_prefs(prefs)
        await say(interaction, t(interaction.locale, "dms.on" if enabled else "dms.off"))
