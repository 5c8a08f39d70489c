"""Server boundaries: what a command or a click may reach from where it was made.

A table is seen within its own server, and in a DM with the bot by the players who sat at
it: anything that names a table by number (`/replay`, `/export`) asks `may_see` first, and
a stranger is told they cannot see it.

A click acts only where its message was sent: the dispatcher (bot/components.py) looks up
the table or tournament a custom_id names and refuses a click from any other guild or channel
before a handler runs, so an id rewritten by a client cannot reach another server's lobby,
game or tournament. Each family of ids names which of its parts is a table or tournament
(`Family.PLACE`); `bind` says where those live.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from meeple_hall.bot.components import Clicks, Place
from meeple_hall.bot.store import Store, Table

if TYPE_CHECKING:
    from meeple_hall.bot.live import TableManager


def seated(table: Table, user_id: int) -> bool:
    return any(seat.user_id == user_id for seat in table.seats)


def may_see(table: Table, interaction: discord.Interaction) -> bool:
    """Whether the interaction's user may see `table` from where they are."""
    if interaction.guild_id is not None:
        return table.guild_id == interaction.guild_id
    return seated(table, interaction.user.id)


class Boundaries:
    def __init__(self, manager: TableManager, store: Store) -> None:
        self.manager = manager
        self.store = store

    async def table(self, table_id: int) -> Table | None:
        """A table as this process keeps it (a game in play), else as stored."""
        if (game := self.manager.get(table_id)) is not None:
            return game.table
        return self.manager.tables.get(table_id) or await self.store.get_table(table_id)

    async def table_place(self, table_id: int) -> Place | None:
        """Ids naming a table: used in that table's channel (or thread)."""
        table = await self.table(table_id)
        return None if table is None else Place(table.guild_id, table.channel_id)

    async def tournament_place(self, tournament_id: int) -> Place | None:
        tournament = await self.store.get_tournament(tournament_id)
        return None if tournament is None else Place(tournament.guild_id, tournament.channel_id)

    def bind(self, clicks: Clicks) -> None:
        # the table message, its panels and Undo, the lobby, resign/abandon confirmations, a
        # request to abandon, a stall notice: all in the table's own channel; a tournament's
        # sign-up in its channel. Not bound: the replay viewer (opened anywhere `may_see`
        # allows) and Snooze (in a DM: the store checks the clicker is the reminded player).
        clicks.where("table", self.table_place)
        clicks.where("tournament", self.tournament_place)
