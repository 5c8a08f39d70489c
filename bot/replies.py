"""Answering interactions: ephemeral notes, refusals, and whether a member may manage."""

from __future__ import annotations

import discord

from meeple_hall.bot.i18n import t
from meeple_hall.bot.languages import server_locale, user_locale
from meeple_hall.bot.live import Refusal


async def say(interaction: discord.Interaction, text: str, **kwargs: object) -> None:
    """An ephemeral reply, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)  # type: ignore[arg-type]
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)  # type: ignore[arg-type]


MESSAGE_MAX = 2000


def pieces(text: str, limit: int = MESSAGE_MAX) -> list[str]:
    """A long text as messages of at most `limit` characters, cut between lines (a single
    longer line is cut where it must)."""
    out: list[str] = []
    current = ""
    for line in text.splitlines():
        while len(line) > limit:
            if current:
                out.append(current)
                current = ""
            out.append(line[:limit])
            line = line[limit:]
        if current and len(current) + 1 + len(line) > limit:
            out.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current or not out:
        out.append(current)
    return out


async def say_all(interaction: discord.Interaction, text: str) -> None:
    """A text too long for one message as several ephemeral ones, nothing cut off."""
    for piece in pieces(text):
        await say(interaction, piece)


async def refuse(interaction: discord.Interaction, refusal: Refusal) -> None:
    """A refusal in the clicking user's language (a game's reason from its catalogue)."""
    await say(interaction, t(user_locale(interaction), refusal.key, **refusal.fields))


def can_manage(interaction: discord.Interaction, host_id: int) -> bool:
    """The host, or anyone allowed to manage the server."""
    if interaction.user.id == host_id:
        return True
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


def public_locale(interaction: discord.Interaction) -> str:
    """The server's language, for messages everyone in the channel reads."""
    return server_locale(interaction)
