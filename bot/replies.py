"""Answering interactions: ephemeral notes, refusals, and whether a member may manage."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from meeple_hall.bot.components import clip
from meeple_hall.bot.delivery import retried
from meeple_hall.bot.i18n import t
from meeple_hall.bot.languages import server_locale, user_locale
from meeple_hall.bot.live import Refusal

if TYPE_CHECKING:
    from meeple_hall.bot.display import TableDisplay

log = logging.getLogger(__name__)

MESSAGE_MAX = 2000


async def say(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """An ephemeral reply, whether or not the interaction was answered already, cut to
    what Discord takes in one message."""
    text = clip(text, MESSAGE_MAX)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)
    below_table(interaction)


def below_table(interaction: discord.Interaction) -> None:
    """A new ephemeral message went to the user in the interaction's channel: it lies below
    the channel's table, which is posted again once too many do (bot/display.py)."""
    display: TableDisplay | None = getattr(interaction.client, "display", None)
    if display is not None and interaction.channel_id is not None:
        display.below.sent(interaction.channel_id, interaction.user.id)


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


QUOTED_MAX = 100  # a user's own text, repeated in a refusal, up to this many characters


def quoted(text: str) -> str:
    """A user's text as a reply repeats it: cut, so the reply stays short and readable."""
    return clip(text, QUOTED_MAX)


def refusal_text(locale: str, refusal: Refusal) -> str:
    """A refusal in `locale` (a game's reason from its catalogue); the user's own text in it
    (a token typed, an option named) is cut to QUOTED_MAX."""
    fields = {k: quoted(v) if isinstance(v, str) else v for k, v in refusal.fields.items()}
    return t(locale, refusal.key, **fields)


async def refuse(interaction: discord.Interaction, refusal: Refusal) -> None:
    """A refusal in the clicking user's language."""
    await say(interaction, refusal_text(user_locale(interaction), refusal))


async def reply_to_done(
    interaction: discord.Interaction, show: Callable[[], Awaitable[None]], done: str
) -> None:
    """Show the reply to something done (a move applied), tried again while Discord fails.
    If it still cannot be shown, a short follow-up says what was done: a player must never
    be left unsure whether their move went in (and never told it did not)."""
    try:
        await retried(show, "the reply to a move")
    except discord.HTTPException as failed:
        log.warning("the reply to user %s failed (%s): confirming", interaction.user.id, failed)
        text = clip(done + "\n" + t(user_locale(interaction), "move.reply_failed"), MESSAGE_MAX)
        try:
            await retried(lambda: say(interaction, text), "confirming a move")
        except discord.HTTPException:
            log.exception("could not confirm the move to user %s", interaction.user.id)


def can_manage(interaction: discord.Interaction, host_id: int) -> bool:
    """The host, or anyone allowed to manage the server."""
    if interaction.user.id == host_id:
        return True
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


def public_locale(interaction: discord.Interaction) -> str:
    """The server's language, for messages everyone in the channel reads."""
    return server_locale(interaction)
