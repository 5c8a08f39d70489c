"""A game whose channel or thread is deleted is paused, not lost; a deleted table message
is posted again.

Discord tells the bot a channel or thread was deleted (or a post there answers that it is
gone): a lobby there is cancelled; a game in play there is paused (no clock runs, no AI
moves) and each seated player is told by DM, with the way back: `/games` lists it, and the
host (or anyone with Manage Server) runs `/reopen table:` in another channel of the same
server, where the game goes on with its clocks moved by the time it was paused.
"""

from __future__ import annotations

import contextlib
import logging

import discord
from discord import app_commands
from discord.ext import commands

from meeple_hall.bot.boundaries import may_see
from meeple_hall.bot.clocks import ClockService
from meeple_hall.bot.display import TableDisplay
from meeple_hall.bot.i18n import cmd, desc, game_name, t
from meeple_hall.bot.languages import user_locale
from meeple_hall.bot.live import LiveGame, Refusal, TableManager
from meeple_hall.bot.replies import can_manage, refuse, say
from meeple_hall.bot.store import ChannelBusy, LobbyClosed, Store, TableStatus

log = logging.getLogger(__name__)


class Channels(commands.Cog):
    def __init__(
        self,
        store: Store,
        manager: TableManager,
        display: TableDisplay,
        clocks: ClockService,
    ) -> None:
        self.store = store
        self.manager = manager
        self.display = display
        self.clocks = clocks
        display.channel_lost = self.lost

    # -- a channel gone ---------------------------------------------------------------------
    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.deleted(channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.deleted(payload.thread_id)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """A deleted table message is posted again at once, not only at the next move."""
        game = self.manager.in_channel(payload.channel_id)
        if game is not None and game.table.table_message_id == payload.message_id:
            game.table.table_message_id = None
            await self.display.changed(game)

    async def deleted(self, channel_id: int) -> None:
        table = await self.store.open_table_in(channel_id)
        if table is None:
            return
        if table.status is TableStatus.LOBBY:
            with contextlib.suppress(LobbyClosed):  # started or cancelled meanwhile
                await self.store.cancel_lobby(table.id)
        elif (game := await self.manager.fetch(table.id)) is not None:
            await self.lost(game)

    async def lost(self, game: LiveGame) -> None:
        """Pause the game and tell its seated players how to go on."""
        if game.table.paused_at is not None:
            return
        now = discord.utils.utcnow()
        await self.store.pause_table(game.id, now)
        game.table.paused_at = now
        self.clocks.pause(game)
        log.info("game %s paused: its channel %s is gone", game.id, game.table.channel_id)
        for seat in game.table.seats:
            if seat.user_id is None or seat.ai:
                continue
            prefs = await self.store.get_prefs(seat.user_id)
            lang = self.display.dm_locale(prefs, game.table)
            text = t(
                lang,
                "channel.lost",
                game=game_name(lang, game.table.game),
                table=game.id,
            )
            try:
                await self.display.direct_message(game.table, prefs, text)
            except discord.HTTPException as exc:
                log.warning("could not tell user %s game %s paused: %s", seat.user_id, game.id, exc)

    # -- /reopen ----------------------------------------------------------------------------
    @app_commands.command(name=cmd("reopen"), description=desc("reopen"))
    @app_commands.rename(table_id=cmd("table"))
    @app_commands.describe(table_id=desc("reopen.table"))
    @app_commands.guild_only()
    async def reopen(
        self, interaction: discord.Interaction, table_id: app_commands.Range[int, 1]
    ) -> None:
        locale = user_locale(interaction)
        try:
            game = await self._paused_game(interaction, table_id)
            paused_for = discord.utils.utcnow() - (game.table.paused_at or discord.utils.utcnow())
            try:
                moved = await self.store.move_table(game.id, interaction.channel_id or 0)
            except ChannelBusy as busy:
                raise Refusal("channel.busy", table=busy.table_id) from None
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return
        self.manager.note_table(moved)
        await self.clocks.unpause(game, paused_for)
        await say(interaction, t(locale, "channel.reopened", table=game.id))
        await self.display.show_afresh(game)
        self.manager.wake_ai(game)

    async def _paused_game(self, interaction: discord.Interaction, table_id: int) -> LiveGame:
        table = await self.store.get_table(table_id)
        if table is None or not may_see(table, interaction):
            raise Refusal("history.unseen_table", table=table_id)
        if table.status is not TableStatus.ACTIVE:
            raise Refusal("game.over")
        if table.paused_at is None:
            raise Refusal("channel.not_paused", table=table_id, channel=table.channel_id)
        if not can_manage(interaction, table.host_id):
            raise Refusal("lobby.host_only")
        game = await self.manager.fetch(table_id)
        if game is None:
            raise Refusal("game.over")
        return game
