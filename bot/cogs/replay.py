"""A game's record: `/export` (the game as a JSON file) and `/replay` (a private viewer
stepping through its public pictures).

`/export` gives an ended game to anyone who names it with `table:` (without it, the caller's
latest ended game in this channel). A game still in play is not exported: the file holds the
seed, which shows every hidden card and every draw to come. `/replay` shows any started game,
in play or ended, as a spectator sees it, each move told as bot/move_shown.py allows; its
buttons (`r:<table>:<position>:<verb>`) carry the position they go to, so they work after a
restart. Both reach a table only from its own server, or from a DM by a player who sat at
it (bot/boundaries.py).
"""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

from meeple_hall.bot import export, render
from meeple_hall.bot.boundaries import may_see
from meeple_hall.bot.components import Components, ReplayButton, button, clip
from meeple_hall.bot.hints import hint_lines
from meeple_hall.bot.i18n import cmd, desc, game_name, game_text, t
from meeple_hall.bot.languages import user_locale
from meeple_hall.bot.live import Refusal
from meeple_hall.bot.move_shown import shows_choices, typed
from meeple_hall.bot.replay import Frame, ReplayBook
from meeple_hall.bot.replies import refuse, say
from meeple_hall.bot.store import Store, Table, TableStatus

ENDED = (TableStatus.FINISHED, TableStatus.ABANDONED)
STARTED = (TableStatus.ACTIVE, *ENDED)


class Archive(commands.Cog):
    def __init__(self, bot: commands.Bot, store: Store) -> None:
        self.bot = bot
        self.store = store
        self.book = ReplayBook()

    async def started_table(self, table_id: int, interaction: discord.Interaction) -> Table:
        """The started table `table_id`, if the interaction may see it from where it is."""
        table = await self.store.get_table(table_id)
        if table is None:  # table numbers are counted, so that one exists tells nothing
            raise Refusal("history.unknown_table", table=table_id)
        if not may_see(table, interaction):
            raise Refusal("history.unseen_table", table=table_id)
        if table.status not in STARTED:
            raise Refusal("history.not_started", table=table_id)
        return table

    # -- /export -----------------------------------------------------------------------
    @app_commands.command(name=cmd("export"), description=desc("export"))
    @app_commands.rename(table_id=cmd("table"))
    @app_commands.describe(table_id=desc("export.table"))
    async def export(
        self,
        interaction: discord.Interaction,
        table_id: app_commands.Range[int, 1] | None = None,
    ) -> None:
        locale = user_locale(interaction)
        try:
            if table_id is not None:
                table = await self.started_table(table_id, interaction)
            else:
                table = await self._latest_here(interaction)
            if table.status not in ENDED:
                raise Refusal("export.in_play", table=table.id)
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return
        log = await self.store.actions(table.id)
        data = export.export_bytes(table, log)
        text = t(
            locale,
            "export.done",
            table=table.id,
            game=game_name(locale, table.game),
            moves=len(log),
        )
        file = discord.File(io.BytesIO(data), filename=export.file_name(table))
        await say(interaction, text, file=file)

    async def _latest_here(self, interaction: discord.Interaction) -> Table:
        """The game in play in this channel (refused as in play), else the caller's latest
        ended game here."""
        here = await self.store.open_table_in(interaction.channel_id or 0)
        if here is not None and here.status is TableStatus.ACTIVE:
            return here
        mine = await self.store.tables_for_user(interaction.user.id, ENDED)
        ended_here = [t for t in mine if t.channel_id == interaction.channel_id]
        if not ended_here:
            raise Refusal("export.none_here")
        return max(ended_here, key=lambda t: (t.ended_at is not None, t.ended_at, t.id))

    # -- /replay -----------------------------------------------------------------------
    @app_commands.command(name=cmd("replay"), description=desc("replay"))
    @app_commands.rename(table_id=cmd("table"))
    @app_commands.describe(table_id=desc("replay.table"))
    async def replay(
        self, interaction: discord.Interaction, table_id: app_commands.Range[int, 1]
    ) -> None:
        try:
            table = await self.started_table(table_id, interaction)
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        frame = await self.book.frame(table, await self.store.actions(table.id), 0)
        content, view = viewer(table, frame, user_locale(interaction))
        await say(interaction, content, file=render.as_file(frame.png), view=view)

    async def on_replay_button(self, interaction: discord.Interaction, click: ReplayButton) -> None:
        try:
            table = await self.started_table(click.number("table"), interaction)
            log = await self.store.actions(table.id)
            pos, total = click.number("pos"), self.book.line(table, log).total
            if pos > total:
                raise Refusal("replay.stale", pos=pos, total=total)
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return
        await interaction.response.defer()
        frame = await self.book.frame(table, log, pos)
        content, view = viewer(table, frame, user_locale(interaction))
        await interaction.edit_original_response(
            content=content, attachments=[render.as_file(frame.png)], view=view
        )


def viewer(table: Table, frame: Frame, locale: str) -> tuple[str, Components]:
    """The viewer's caption (game, table, position, the move that led here) and buttons."""
    caption = t(
        locale,
        "replay.caption",
        game=game_name(locale, table.game),
        table=table.id,
        pos=frame.pos,
        total=frame.total,
    )
    line = t(locale, "replay.setup") if frame.move is None else move_line(table, frame, locale)
    view = Components()
    at_start, at_end = frame.pos == 0, frame.pos >= frame.total
    for emoji, target, verb, disabled in (
        ("⏮", 0, "first", at_start),
        ("◀", max(frame.pos - 1, 0), "prev", at_start),
        ("▶", min(frame.pos + 1, frame.total), "next", at_end),
        ("⏭", frame.total, "last", at_end),
    ):
        view.add_item(button(f"r:{table.id}:{target}:{verb}", "", emoji=emoji, disabled=disabled))
    return clip(f"{caption}\n{line}", 2000), view


def move_line(table: Table, frame: Frame, locale: str) -> str:
    """The move that led to a frame, as much of it as everyone may see (bot/move_shown.py):
    the events it added, and its choices where they may be shown."""
    assert frame.move is not None
    name = table.seats[frame.move.seat].name
    lines = [f"• {clip(game_text(locale, event), 150)}" for event in frame.events]
    if shows_choices(frame.keeps_log, ended=table.status in ENDED):
        lines.append(f"{name}: {typed(frame.move)}")
    lines += hint_lines(table, locale, at=frame.move.seq)
    return "\n".join(lines) or t(locale, "replay.moved", name=name)
