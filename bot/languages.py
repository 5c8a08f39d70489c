"""Who reads what in which language.

- What one person reads (an ephemeral panel, a refusal, `/hand`, a DM) is in the user's
  language: what they chose with `/settings language:`, else their Discord client's locale
  (for a DM, the locale of their last interaction).
- What everyone in a channel reads (the table message, `/board`, the final scores, a lobby)
  is in the server's language: what someone with Manage Server chose with
  `/settings server_language:`, else the server's preferred locale.

The choices are few and read on every click, so they are kept in memory, loaded once from
the store and changed only through `choose_*`, which writes the store first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from meeple_hall.bot.i18n import SUPPORTED, language

if TYPE_CHECKING:
    from meeple_hall.bot.store import Store

AUTO = "auto"
CHOICES = (AUTO, *SUPPORTED)


class Languages:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.users: dict[int, str] = {}
        self.guilds: dict[int, str] = {}

    async def load(self) -> None:
        chosen = await self.store.language_choices()
        self.users, self.guilds = dict(chosen.users), dict(chosen.guilds)

    async def choose_user(self, user_id: int, choice: str) -> None:
        """`auto` (or None) forgets the choice: the client's locale decides again."""
        lang = None if choice in (AUTO, None) else language(choice)
        await self.store.set_language(user_id, lang)
        self._remember(self.users, user_id, lang)

    async def choose_server(self, guild_id: int, choice: str) -> None:
        lang = None if choice in (AUTO, None) else language(choice)
        await self.store.set_server_language(guild_id, lang)
        self._remember(self.guilds, guild_id, lang)

    @staticmethod
    def _remember(book: dict[int, str], key: int, lang: str | None) -> None:
        if lang is None:
            book.pop(key, None)
        else:
            book[key] = lang

    def user(self, user_id: int, client_locale: Any) -> str:
        return self.users.get(user_id) or language(client_locale)

    def server(
        self, guild: discord.Guild | None, guild_id: int | None = None, fallback: Any = None
    ) -> str:
        gid = guild.id if guild is not None else guild_id
        if gid is not None and gid in self.guilds:
            return self.guilds[gid]
        return language(guild.preferred_locale if guild is not None else fallback)


def _service(interaction: discord.Interaction) -> Languages | None:
    return getattr(interaction.client, "languages", None)


def user_locale(interaction: discord.Interaction) -> str:
    """The language of what only the interacting user reads."""
    service = _service(interaction)
    if service is None:
        return language(interaction.locale)
    return service.user(interaction.user.id, interaction.locale)


def server_locale(interaction: discord.Interaction) -> str:
    """The language of what everyone in the interaction's channel reads."""
    service = _service(interaction)
    fallback = interaction.guild_locale or interaction.locale
    if service is not None:
        return service.server(interaction.guild, interaction.guild_id, fallback)
    guild = interaction.guild
    return language(guild.preferred_locale if guild is not None else fallback)
