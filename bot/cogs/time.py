"""A player's time across tables: `/away`, `/resume` and `/games`."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import discord
from discord import app_commands
from discord.ext import commands

from meeple_hall import games
from meeple_hall.bot.clocks import AWAY_DAYS_A_YEAR, ClockService, pauses_when_away, stamp
from meeple_hall.bot.components import clip
from meeple_hall.bot.i18n import cmd, desc, game_name, t
from meeple_hall.bot.languages import user_locale
from meeple_hall.bot.live import LiveGame, Refusal, TableManager
from meeple_hall.bot.reminders import jump_link
from meeple_hall.bot.replies import refuse, say
from meeple_hall.bot.store.base import Store, Table, TableStatus

LIST_MOST = 20
_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_BOTH = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)


class Time(commands.Cog):
    def __init__(
        self, bot: commands.Bot, store: Store, manager: TableManager, clocks: ClockService
    ) -> None:
        self.bot = bot
        self.store = store
        self.manager = manager
        self.clocks = clocks

    # -- /away -------------------------------------------------------------------------------
    @app_commands.command(name=cmd("away"), description=desc("away"))
    @app_commands.rename(days=cmd("days"), until=cmd("until"))
    @app_commands.describe(days=desc("away.days"), until=desc("away.until"))
    @_BOTH
    async def away(
        self,
        interaction: discord.Interaction,
        days: app_commands.Range[int, 0, AWAY_DAYS_A_YEAR] | None = None,
        until: str | None = None,
    ) -> None:
        locale = user_locale(interaction)
        user_id = interaction.user.id
        now = discord.utils.utcnow()
        try:
            if days is not None and until is not None:
                raise Refusal("away.one_of")
            if days == 0:
                refund = await self.clocks.come_back(user_id)
                if refund is None:
                    raise Refusal("away.not_away")
                await say(interaction, t(locale, "away.back", days=refund))
                return
            if days is None and until is None:
                await say(interaction, await self._status(user_id, locale, now))
                return
            end = now + timedelta(days=days) if days else await self._until(user_id, until or "")
            if end <= now:
                raise Refusal("away.past")
            charged = await self.clocks.go_away(user_id, end)
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return
        used = await self.store.away_days_used(user_id, now.year)
        started = t(
            locale, "away.started", when=stamp(end, "f"), days=charged, left=AWAY_DAYS_A_YEAR - used
        )
        await say(interaction, started + "\n" + await self._running_while_away(user_id, locale))

    async def _running_while_away(self, user_id: int, locale: str) -> str:
        """Which of the player's games keep their clocks running through time away
        (tournament tables always do), or that tournament games would."""
        tables = await self.store.tables_for_user(user_id, (TableStatus.ACTIVE,))
        running = [table for table in tables if not pauses_when_away(table)]
        if not running:
            return t(locale, "away.tournaments_run")
        return t(locale, "away.keep_running", games=self._names(running, locale))

    @staticmethod
    def _names(tables: list[Table], locale: str) -> str:
        return clip(
            ", ".join(f"{game_name(locale, tb.game)} (<#{tb.channel_id}>)" for tb in tables), 1500
        )

    async def _until(self, user_id: int, text: str) -> datetime:
        """A date typed as YYYY-MM-DD: midnight at its start, in the player's own offset."""
        match = _DATE.fullmatch(text.strip())
        if match is None:
            raise Refusal("away.bad_date", text=text)
        try:
            day = datetime(int(match[1]), int(match[2]), int(match[3]), tzinfo=UTC)
        except ValueError:
            raise Refusal("away.bad_date", text=text) from None
        prefs = await self.store.get_prefs(user_id)
        return day - timedelta(minutes=prefs.utc_offset)

    async def _status(self, user_id: int, locale: str, now: datetime) -> str:
        used = await self.store.away_days_used(user_id, now.year)
        away = self.clocks.away_of(user_id)
        left = AWAY_DAYS_A_YEAR - used
        if away is None:
            return t(locale, "away.status_here", left=left)
        status = t(locale, "away.status_away", when=stamp(away.until, "f"), left=left)
        return status + "\n" + await self._running_while_away(user_id, locale)

    # -- /resume -----------------------------------------------------------------------------
    @app_commands.command(name=cmd("resume"), description=desc("resume"))
    @_BOTH
    async def resume(self, interaction: discord.Interaction) -> None:
        """End the player's time away (as `/away days:0` does), and take back the seats the
        AI plays after timeouts: this channel's game, or all of them when this channel has
        none."""
        locale = user_locale(interaction)
        user_id = interaction.user.id
        refund = await self.clocks.come_back(user_id)
        taken = await self._take_back_seats(interaction, user_id)
        if refund is None and not taken:
            await refuse(interaction, Refusal("resume.nothing"))
            return
        lines = [] if refund is None else [t(locale, "away.back", days=refund)]
        if taken:
            tables = [game.table for game in taken]
            lines.append(t(locale, "resume.done", games=self._names(tables, locale)))
        await say(interaction, "\n".join(lines))

    async def _take_back_seats(
        self, interaction: discord.Interaction, user_id: int
    ) -> list[LiveGame]:
        """The games whose seat of the user's the AI played, given back to the user."""
        here = await self.manager.fetch_in(interaction.channel_id or 0)
        candidates = [here] if here is not None and here.seat_of(user_id) is not None else []
        if not candidates:
            for table in self.manager.served():
                seat = table.seat_of(user_id)
                if seat is not None and table.seats[seat].ai and not table.seats[seat].resigned:
                    game = await self.manager.fetch(table.id)
                    candidates += [game] if game is not None else []
        taken = []
        for game in candidates:
            seat = game.seat_of(user_id)
            assert seat is not None
            s = game.table.seats[seat]
            if s.ai and not s.resigned:
                try:
                    await self.clocks.resume(game, seat)
                except Refusal:
                    continue
                taken.append(game)
                await self.clocks.announce(game, "resume.announce", user=f"<@{user_id}>")
        return taken

    # -- /games ------------------------------------------------------------------------------
    @app_commands.command(name=cmd("games"), description=desc("games"))
    @app_commands.rename(scope=cmd("scope"))
    @app_commands.describe(scope=desc("games.scope"))
    @app_commands.choices(
        scope=[
            app_commands.Choice(
                name=app_commands.locale_str("mine", key="games.scope_mine"), value="mine"
            ),
            app_commands.Choice(
                name=app_commands.locale_str("server", key="games.scope_server"), value="server"
            ),
        ]
    )
    @_BOTH
    async def games_command(self, interaction: discord.Interaction, scope: str = "mine") -> None:
        locale = user_locale(interaction)
        user_id = interaction.user.id
        guild_id = interaction.guild_id
        if scope == "server":
            if guild_id is None:
                await refuse(interaction, Refusal("games.server_in_dm"))
                return
            tables = await self.store.guild_tables(guild_id)
            tables.sort(
                key=lambda tb: (not self._free_lobby(tb), tb.status is TableStatus.ACTIVE, tb.id)
            )
            title = t(locale, "games.title_server")
        else:
            tables = await self.store.tables_for_user(user_id)
            if guild_id is not None:
                tables = [tb for tb in tables if tb.guild_id == guild_id]
            tables.sort(key=lambda tb: (not self._awaits(tb, user_id), tb.id))
            title = t(locale, "games.title_mine")
        if not tables:
            key = "games.none_server" if scope == "server" else "games.none_mine"
            await say(interaction, t(locale, key))
            return
        lines = [self._line(tb, user_id, locale) for tb in tables[:LIST_MOST]]
        if len(tables) > LIST_MOST:
            lines.append(t(locale, "games.more", count=len(tables) - LIST_MOST))
        embed = discord.Embed(
            title=title, description=clip("\n".join(lines), 4000), colour=discord.Colour.teal()
        )
        await say(interaction, "", embed=embed)

    def _free_lobby(self, table: Table) -> bool:
        if table.status is not TableStatus.LOBBY:
            return False
        return len(table.seats) < games.get(table.game).max_players

    def _acting(self, table: Table) -> list[int] | None:
        """The seats the game awaits: as the store keeps them with its log (so for games
        of other processes too, and games not loaded), or from the game if it is loaded."""
        game = self.manager.get(table.id)
        if game is not None:
            return [d.seat for d in game.decisions()]
        return None if table.awaiting is None else list(table.awaiting)

    def _awaits(self, table: Table, user_id: int) -> bool:
        seat = table.seat_of(user_id)
        return seat is not None and seat in (self._acting(table) or ())

    def _line(self, table: Table, user_id: int, locale: str) -> str:
        name = game_name(locale, table.game)
        where = jump_link(table) if table.table_message_id else f"<#{table.channel_id}>"
        head = f"**{name}** · {where}"
        if table.status is TableStatus.LOBBY:
            most = games.get(table.game).max_players
            return head + " · " + t(locale, "games.lobby", seats=len(table.seats), max=most)
        if table.paused_at is not None:
            return head + " · " + t(locale, "games.paused", table=table.id)
        seats = self._acting(table)
        if seats is None:
            return head
        return head + " · " + self._turn(table, seats, user_id, locale)

    def _turn(self, table: Table, seats: list[int], user_id: int, locale: str) -> str:
        mine = table.seat_of(user_id)
        if mine in seats:
            who = t(locale, "games.your_turn")
            order = [mine] + [s for s in seats if s != mine]
        else:
            names = ", ".join(table.seats[s].name for s in seats) or "—"
            who = t(locale, "games.turn_of", names=names)
            order = seats
        now = discord.utils.utcnow()
        for seat in order:
            row = self.clocks.rows.get((table.id, seat))
            if row is not None and row.since is not None and row.deadline is not None:
                end = row.deadline
                if self.clocks.on_reserve(row, now):
                    end = row.deadline + timedelta(seconds=row.reserve)
                return who + " · " + t(locale, "games.deadline", when=stamp(end))
        return who
