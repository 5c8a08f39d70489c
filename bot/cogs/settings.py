"""A player's own settings: whether the bot sends them DMs, their quiet hours and language,
and (for whoever may manage the server) the server's language."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from meeple_hall.bot.i18n import cmd, desc, t
from meeple_hall.bot.languages import CHOICES, Languages, server_locale, user_locale
from meeple_hall.bot.live import Refusal
from meeple_hall.bot.quiet import format_span, parse_offset, parse_span
from meeple_hall.bot.replies import refuse, say
from meeple_hall.bot.store import Store, UserPrefs

# Each language named in itself, so whoever needs it can find it.
LANGUAGE_NAMES = {"auto": "auto", "en": "English", "zh-TW": "繁體中文", "ja": "日本語"}
# "auto" is no language's own name: it is named in the reader's language.
AUTO_NAME = app_commands.locale_str(t("en", "choice.language.auto"), key="choice.language.auto")
LANGUAGE_CHOICES = [
    app_commands.Choice(name=AUTO_NAME if c == "auto" else LANGUAGE_NAMES[c], value=c)
    for c in CHOICES
]


def can_manage_server(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


def language_lines(interaction: discord.Interaction, locale: str) -> list[str]:
    """The user's language and (in a server) the server's, each saying where it comes from."""
    languages: Languages = interaction.client.languages  # type: ignore[attr-defined]
    chosen = languages.users.get(interaction.user.id)
    key = "settings.language_chosen" if chosen else "settings.language_auto"
    lines = [t(locale, key, language=LANGUAGE_NAMES[user_locale(interaction)])]
    if interaction.guild_id is not None:
        chosen_server = languages.guilds.get(interaction.guild_id)
        key = (
            "settings.server_language_chosen" if chosen_server else "settings.server_language_auto"
        )
        lines.append(t(locale, key, language=LANGUAGE_NAMES[server_locale(interaction)]))
    return lines


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
        await say(interaction, t(user_locale(interaction), "dms.on" if enabled else "dms.off"))

    @app_commands.command(name=cmd("settings"), description=desc("settings"))
    @app_commands.rename(
        quiet_hours=cmd("quiet_hours"),
        utc_offset=cmd("utc_offset"),
        language=cmd("language"),
        server_language=cmd("server_language"),
    )
    @app_commands.describe(
        quiet_hours=desc("settings.quiet_hours"),
        utc_offset=desc("settings.utc_offset"),
        language=desc("settings.language"),
        server_language=desc("settings.server_language"),
    )
    @app_commands.choices(language=LANGUAGE_CHOICES, server_language=LANGUAGE_CHOICES)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    async def settings(
        self,
        interaction: discord.Interaction,
        quiet_hours: str | None = None,
        utc_offset: str | None = None,
        language: str | None = None,
        server_language: str | None = None,
    ) -> None:
        """Quiet hours (`22-07`, `22:00-07:30`, or `off`) in the player's own time, with
        their offset from UTC (`+8`, `-05:30`); the player's language and, for someone who
        may manage the server, the server's; without options, the settings as they are."""
        languages: Languages = interaction.client.languages  # type: ignore[attr-defined]
        if server_language is not None:
            if interaction.guild_id is None:
                await refuse(interaction, Refusal("settings.server_only"))
                return
            if not can_manage_server(interaction):
                await refuse(interaction, Refusal("settings.manage_server_only"))
                return
            await languages.choose_server(interaction.guild_id, server_language)
        if language is not None:
            await languages.choose_user(interaction.user.id, language)
        locale = user_locale(interaction)
        prefs = await self.store.get_prefs(interaction.user.id)
        try:
            offset = prefs.utc_offset if utc_offset is None else parse_offset(utc_offset)
            if quiet_hours is None and utc_offset is None:
                await say(interaction, self._describe(prefs, locale, interaction))
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
        await say(interaction, self._describe(prefs, locale, interaction))

    @staticmethod
    def _describe(prefs: UserPrefs, locale: str, interaction: discord.Interaction) -> str:
        dms = t(locale, "settings.dms_on" if prefs.turn_dms else "settings.dms_off")
        if prefs.quiet_start is None or prefs.quiet_end is None:
            quiet = t(locale, "settings.quiet_none")
        else:
            span = format_span(prefs.quiet_start, prefs.quiet_end, prefs.utc_offset)
            quiet = t(locale, "settings.quiet", span=span)
        return "\n".join([dms, quiet, *language_lines(interaction, locale)])
