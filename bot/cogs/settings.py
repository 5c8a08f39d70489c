"""A player's own settings: whether the bot sends them DMs, and their quiet hours."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from meeple_hall.bot.i18n import cmd, desc, t
from meeple_hall.bot.live import Refusal
from meeple_hall.bot.quiet import format_span, parse_offset, parse_span
from meeple_hall.bot.replies import refuse, say
from meeple_hall.bot.store import Store, UserPrefs


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

    @app_commands.command(name=cmd("settings"), description=desc("settings"))
    @app_commands.rename(quiet_hours=cmd("quiet_hours"), utc_offset=cmd("utc_offset"))
    @app_commands.describe(
        quiet_hours=desc("settings.quiet_hours"), utc_offset=desc("settings.utc_offset")
    )
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    async def settings(
        self,
        interaction: discord.Interaction,
        quiet_hours: str | None = None,
        utc_offset: str | None = None,
    ) -> None:
        """Quiet hours (`22-07`, `22:00-07:30`, or `off`) in the player's own time, with
        their offset from UTC (`+8`, `-05:30`); without options, the settings as they are."""
        locale = interaction.locale
        prefs = await self.store.get_prefs(interaction.user.id)
        try:
            offset = prefs.utc_offset if utc_offset is None else parse_offset(utc_offset)
            if quiet_hours is None and utc_offset is None:
                await say(interaction, self._describe(prefs, locale))
                return
            if quiet_hours is not None and quiet_hours.strip().lower() in ("off", "none", "-"):
                start, end = None, None
            elif quiet_hours is not None:
                start, end = parse_span(quiet_hours)
            else:
                start, end = prefs.quiet_start, prefs.quiet_end
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return
        await self.store.set_quiet_hours(interaction.user.id, start, end, offset)
        prefs.quiet_start, prefs.quiet_end, prefs.utc_offset = start, end, offset
        await say(interaction, self._describe(prefs, locale))

    @staticmethod
    def _describe(prefs: UserPrefs, locale: discord.Locale) -> str:
        dms = t(locale, "settings.dms_on" if prefs.turn_dms else "settings.dms_off")
        if prefs.quiet_start is None or prefs.quiet_end is None:
            quiet = t(locale, "settings.quiet_none")
        else:
            span = format_span(prefs.quiet_start, prefs.quiet_end, prefs.utc_offset)
            quiet = t(locale, "settings.quiet", span=span)
        return f"{dms}\n{quiet}"
