"""`/review` and the final scores' Review button (`rv:<table>`): a move-by-move review of an
ended game, in the reader's language, only to them (bot/review.py does the work).

`/review table:` names a game of this server (or, in a DM, one the caller sat at:
bot/boundaries.py); without it, the channel's last finished game. A game still in play, an
abandoned one (no final scores), another server's, an unknown number and a game of AI seats
only are refused, each with its own reason, and nothing starts.
"""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands
from discord.ext import commands

from meeple_hall.bot import render
from meeple_hall.bot.boundaries import may_see
from meeple_hall.bot.components import ReviewButton
from meeple_hall.bot.i18n import cmd, desc, game_name, t
from meeple_hall.bot.languages import user_locale
from meeple_hall.bot.live import Refusal
from meeple_hall.bot.replies import below_table, refuse
from meeple_hall.bot.review import Reviews, reviewable_game, reviewed_seats, shown
from meeple_hall.bot.store import Store, Table, TableStatus

LOOKED_AT = 200  # the server's latest finished games searched for this channel's last one


class ReviewCog(commands.Cog, name="Review"):
    def __init__(self, bot: commands.Bot, store: Store, reviews: Reviews | None = None) -> None:
        self.bot = bot
        self.store = store
        self.reviews = reviews or Reviews()

    async def cog_unload(self) -> None:
        self.reviews.close()

    @app_commands.command(name=cmd("review"), description=desc("review"))
    @app_commands.rename(table_id=cmd("table"))
    @app_commands.describe(table_id=desc("review.table"))
    async def review(
        self,
        interaction: discord.Interaction,
        table_id: app_commands.Range[int, 1] | None = None,
    ) -> None:
        try:
            if table_id is None:
                table = await self.last_here(interaction)
            else:
                table = await self.reviewable(table_id, interaction)
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return
        await self.show(interaction, table)

    async def on_review_button(self, interaction: discord.Interaction, click: ReviewButton) -> None:
        try:
            table = await self.reviewable(click.number("table"), interaction)
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return
        await self.show(interaction, table)

    async def reviewable(self, table_id: int, interaction: discord.Interaction) -> Table:
        """The finished table `table_id`, if the caller may see it from here and a person
        played it."""
        table = await self.store.get_table(table_id)
        if table is None:
            raise Refusal("history.unknown_table", table=table_id)
        if not may_see(table, interaction):
            raise Refusal("history.unseen_table", table=table_id)
        return self.checked(table)

    @staticmethod
    def checked(table: Table) -> Table:
        if table.status is TableStatus.ACTIVE:
            raise Refusal("review.in_play", table=table.id)
        if table.status is TableStatus.ABANDONED:
            raise Refusal("review.abandoned", table=table.id)
        if table.status is not TableStatus.FINISHED:
            raise Refusal("history.not_started", table=table.id)
        if not reviewed_seats(table):
            raise Refusal("review.only_ai", table=table.id)
        if not reviewable_game(table.game):
            raise Refusal("review.unavailable", game=table.game)
        return table

    async def last_here(self, interaction: discord.Interaction) -> Table:
        """The channel's last finished game (refused while one is in play here)."""
        here = await self.store.open_table_in(interaction.channel_id or 0)
        if here is not None and here.status is TableStatus.ACTIVE:
            raise Refusal("review.in_play", table=here.id)
        if interaction.guild_id is None:
            raise Refusal("review.none_here")
        rows = await self.store.results(guild_id=interaction.guild_id)
        newest_first = list(dict.fromkeys(row.table_id for row in reversed(rows)))
        for table_id in newest_first[:LOOKED_AT]:
            table = await self.store.get_table(table_id)
            if table is not None and table.channel_id == interaction.channel_id:
                return self.checked(table)
        raise Refusal("review.none_here")

    async def show(self, interaction: discord.Interaction, table: Table) -> None:
        """The progress, updated while the review runs, then the review in its place."""
        locale = user_locale(interaction)
        game = game_name(locale, table.game)
        waiting = t(locale, "review.queued", game=game, table=table.id)
        await interaction.response.send_message(waiting, ephemeral=True)
        below_table(interaction)

        async def progress(done: int, total: int) -> None:
            text = t(locale, "review.progress", game=game, table=table.id, done=done, total=total)
            await interaction.edit_original_response(content=text)

        log = await self.store.actions(table.id)
        review = await self.reviews.review(table, log, progress)
        told = await asyncio.to_thread(shown, table, log, review, locale)
        await interaction.edit_original_response(
            content=told.content,
            embeds=told.embeds,
            attachments=[render.as_file(data, name) for name, data in told.files],
        )
