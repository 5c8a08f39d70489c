"""Server boundaries: what a command or a click may reach from where it was made.

A table is seen within its own server, and in a DM with the bot by the players who sat at
it. Anything that names a table by number (`/replay`, `/export`, their buttons) asks here
first, and a stranger is told they cannot see it, whether or not the table exists.
"""

from __future__ import annotations

import discord

from meeple_hall.bot.store import Table


def seated(table: Table, user_id: int) -> bool:
    return any(seat.user_id == user_id for seat in table.seats)


def may_see(table: Table, interaction: discord.Interaction) -> bool:
    """Whether the interaction's user may see `table` from where they are."""
    if interaction.guild_id is not None:
        return table.guild_id == interaction.guild_id
    return seated(table, interaction.user.id)
