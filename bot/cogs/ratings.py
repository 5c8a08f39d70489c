"""`/leaderboard` and `/profile`, and each player's rating change under a rated game's
final scores. The numbers come from bot/ratings.py; pictures from renderers/leaderboard.py,
always with the same data as text."""

from __future__ import annotations

import asyncio
import io
from collections import Counter
from collections.abc import Sequence

import discord
from discord import app_commands
from discord.ext import commands

from meeple_hall import games
from meeple_hall.bot import render
from meeple_hall.bot.cogs.lobby import game_choices
from meeple_hall.bot.components import clip
from meeple_hall.bot.i18n import cmd, desc, game_name, t
from meeple_hall.bot.languages import user_locale
from meeple_hall.bot.ratings import MIN_GAMES_LISTED, PlayerRating, RatingBook, Ratings
from meeple_hall.bot.replies import say
from meeple_hall.bot.store import Store, Table, TableStatus
from meeple_hall.games import GameError
from meeple_hall.renderers.leaderboard import Board, Row, render_board, render_history

TOP = 20
SPARK_POINTS = 20
PROVISIONAL = "?"  # after a provisional player's rating (as chess servers mark one)
SCOPES = ("server", "global")


def jump(table: Table) -> str:
    guild = table.guild_id or "@me"
    return f"https://discord.com/channels/{guild}/{table.channel_id}"


def is_provisional(player: PlayerRating) -> bool:
    return player.games < MIN_GAMES_LISTED


def rating_text(player: PlayerRating) -> str:
    """The shown rating, marked when it is provisional."""
    return f"{player.shown:.1f}" + (PROVISIONAL if is_provisional(player) else "")


class RatingsCog(commands.Cog):
    def __init__(self, bot: commands.Bot, store: Store, ratings: Ratings) -> None:
        self.bot = bot
        self.store = store
        self.ratings = ratings

    async def names(self, user_ids: list[int]) -> dict[int, str]:
        known = await self.store.seat_names(user_ids)
        return {u: known.get(u, str(u)) for u in user_ids}

    # -- the final scores of a rated game ----------------------------------------------------
    async def rating_changes(self, table: Table, embed: discord.Embed, locale: str) -> None:
        """A field under the final scores: each player's new rating and its change."""
        if table.status is not TableStatus.FINISHED:
            return
        changes = await self.ratings.changes_for(table.id, table.game, table.guild_id)
        if not changes:
            return
        lines = [
            t(
                locale,
                "ratings.change_line",
                user=f"<@{user}>",
                rating=f"{c.after:.1f}",
                delta=f"{c.delta:+.1f}",
            )
            for user, c in changes.items()
        ]
        embed.add_field(
            name=t(locale, "ratings.changes"), value=clip("\n".join(lines), 1024), inline=False
        )

    # -- /leaderboard -----------------------------------------------------------------------
    @app_commands.command(name=cmd("leaderboard"), description=desc("leaderboard"))
    @app_commands.rename(game=cmd("game"), scope=cmd("scope"))
    @app_commands.describe(game=desc("new.game"), scope=desc("leaderboard.scope"))
    @app_commands.choices(
        scope=[
            app_commands.Choice(
                name=app_commands.locale_str(
                    t("en", f"choice.scope.{scope}"), key=f"choice.scope.{scope}"
                ),
                value=scope,
            )
            for scope in SCOPES
        ]
    )
    async def leaderboard(
        self, interaction: discord.Interaction, game: str, scope: str = "server"
    ) -> None:
        locale = user_locale(interaction)
        try:
            engine = games.get(game)
        except GameError as exc:
            await say(interaction, t(locale, "lobby.bad_game", reason=str(exc)))
            return
        if scope not in SCOPES:
            await say(interaction, t(locale, "ratings.bad_scope"))
            return
        if scope == "server" and interaction.guild_id is None:
            await say(interaction, t(locale, "ratings.server_only"))
            return
        guild_id = interaction.guild_id if scope == "server" else None
        book = await self.ratings.book(engine.id, guild_id)
        text, png = await self.leaderboard_message(
            book, game_name(locale, engine.id), scope, interaction.user.id, locale
        )
        await say(
            interaction, clip(text, 2000), file=discord.File(io.BytesIO(png), "leaderboard.png")
        )

    async def leaderboard_message(
        self, book: RatingBook, game_name: str, scope: str, caller: int, locale: str
    ) -> tuple[str, bytes]:
        """The established players best first, then the provisional ones (fewer rated
        games than MIN_GAMES_LISTED, their rating marked), as text and as a picture."""
        listed = book.standings()
        top = listed[:TOP]
        place = book.place_of(caller)
        shown_ids = [u for u, _ in top] + ([caller] if place and place > TOP else [])
        names = await self.names(shown_ids)
        title = t(locale, f"ratings.leaderboard_title.{scope}", game=game_name)
        lines = [title]
        rows = []
        for index, (user, player) in enumerate(top, start=1):
            lines.append(
                t(
                    locale,
                    "ratings.leaderboard_line",
                    place=index,
                    user=f"<@{user}>",
                    rating=rating_text(player),
                    games=player.games,
                )
            )
            rows.append(self._row(index, names[user], player, user == caller))
        if not top:
            lines.append(t(locale, "ratings.empty"))
        mine = book.players.get(caller)
        if place is None or mine is None:
            lines.append(t(locale, "ratings.not_listed"))
        else:
            lines.append(self._place_line(locale, place, len(listed), mine))
            if place > TOP:
                rows.append(self._row(place, names[caller], mine, True))
        if any(is_provisional(player) for _, player in top):
            lines.append(t(locale, "ratings.provisional_note", needed=MIN_GAMES_LISTED))
        board = Board(
            title,
            ("#", t(locale, "board.name"), t(locale, "board.rating"), t(locale, "board.games")),
            tuple(rows),
            language=locale,
        )
        png = await asyncio.to_thread(lambda: render.png_bytes(render_board(board)))
        return "\n".join(lines), png

    @staticmethod
    def _place_line(locale: str, place: int, count: int, player: PlayerRating) -> str:
        if not is_provisional(player):
            return t(locale, "ratings.your_place", place=place, count=count)
        return t(
            locale,
            "ratings.your_place_provisional",
            place=place,
            count=count,
            games=player.games,
            needed=MIN_GAMES_LISTED,
        )

    @staticmethod
    def _row(place: int, name: str, player: PlayerRating, highlight: bool) -> Row:
        history = tuple(v for _, v in player.history[-SPARK_POINTS:])
        cells = (str(place), name, rating_text(player), str(player.games))
        return Row(cells, history, highlight)

    @leaderboard.autocomplete("game")
    async def _games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices(current, user_locale(interaction))

    # -- /profile ------------------------------------------------------------------------------
    @app_commands.command(name=cmd("profile"), description=desc("profile"))
    @app_commands.rename(user=cmd("user"))
    @app_commands.describe(user=desc("profile.user"))
    async def profile(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        locale = user_locale(interaction)
        who = user or interaction.user
        own = who.id == interaction.user.id
        if interaction.guild_id is None and not own:
            await say(interaction, t(locale, "profile.dm_others"))
            return
        text, png = await self.profile_message(
            who.id, who.display_name, interaction.guild_id, locale, all_tables=own
        )
        extra = {"file": discord.File(io.BytesIO(png), "profile.png")} if png else {}
        await say(interaction, clip(text, 2000), **extra)

    async def profile_message(
        self,
        user_id: int,
        name: str,
        guild_id: int | None,
        locale: str,
        *,
        all_tables: bool = False,
    ) -> tuple[str, bytes | None]:
        """The player's results and ratings on this server (everywhere in a DM) and their
        current tables: all of them for the player themself, else this server's only."""
        lines = [t(locale, "profile.title", name=name)]
        series: dict[str, Sequence[float]] = {}
        opponents: Counter[int] = Counter()
        for game_id in games.ids():
            rows = await self.store.results_since(game=game_id, guild_id=guild_id)
            mine = [r for r in rows if r.user_id == user_id]
            if not mine:
                continue
            tables = {r.table_id for r in mine}
            for r in rows:
                if r.table_id in tables and r.user_id not in (None, user_id):
                    opponents[r.user_id] += 1
            played, won = len(mine), sum(r.rank == 1 for r in mine)
            book = await self.ratings.book(game_id, guild_id)
            rating = book.players.get(user_id)
            name_here = game_name(locale, game_id)
            lines.append(
                t(
                    locale,
                    "profile.game_line",
                    game=name_here,
                    played=played,
                    won=won,
                    score=f"{sum(r.score for r in mine) / played:.1f}",
                    rank=f"{sum(r.rank for r in mine) / played:.2f}",
                    rating=f"{rating.shown:.1f}" if rating else "—",
                    rated=rating.games if rating else 0,
                )
            )
            if rating and rating.history:
                series[name_here] = [0.0] + [v for _, v in rating.history]
        if len(lines) == 1:
            lines.append(t(locale, "profile.no_games"))
        if opponents:
            names = await self.names([u for u, _ in opponents.most_common(3)])
            favourite = ", ".join(f"{names[u]} ({n})" for u, n in opponents.most_common(3))
            lines.append(t(locale, "profile.opponents", players=favourite))
        current = await self.store.tables_for_user(user_id)
        if not all_tables:
            current = [tb for tb in current if tb.guild_id == guild_id]
        if current:
            links = " · ".join(f"[{game_name(locale, tb.game)}]({jump(tb)})" for tb in current[:10])
            lines.append(t(locale, "profile.current", links=links))
        png = None
        if series:
            image = await asyncio.to_thread(
                render_history,
                t(locale, "profile.chart_title", name=name),
                series,
                (t(locale, "profile.chart_first"), t(locale, "profile.chart_now")),
                locale,
            )
            png = await asyncio.to_thread(render.png_bytes, image)
        return "\n".join(lines), png
