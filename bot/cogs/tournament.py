"""`/tournament`: create one with a sign-up message (Join, Leave, Start, Cancel), the rules
and points, the standings at any time, dropping out, and the organiser's tools (remove,
replace, re-pair, cancel). The running of rounds is bot/tournaments.py's."""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from meeple_hall import games
from meeple_hall.bot import render, standings, table_settings
from meeple_hall.bot.cogs.lobby import game_choices, parse_options
from meeple_hall.bot.components import Components, TournamentButton, button, clip
from meeple_hall.bot.i18n import cmd, desc, game_name, named, t
from meeple_hall.bot.languages import user_locale
from meeple_hall.bot.live import Refusal
from meeple_hall.bot.replies import can_manage, public_locale, refuse, say
from meeple_hall.bot.store import (
    AlreadySeated,
    NotSeated,
    Store,
    Tournament,
    TournamentClosed,
    TournamentPlayer,
    TournamentStatus,
)
from meeple_hall.bot.tournaments import (
    CLOCKS,
    DEFAULT_CLOCK,
    DEFAULT_SWISS_ROUNDS,
    FORMATS,
    Tournaments,
    default_table_size,
)
from meeple_hall.games import GameError
from meeple_hall.renderers.leaderboard import Board, Row, render_board

OPEN = (TournamentStatus.SIGNUP, TournamentStatus.RUNNING)
STANDINGS_SHOWN = 20
CHOICES_SHOWN = 25  # Discord's limit on autocomplete choices
STATUS_KEYS = {
    TournamentStatus.SIGNUP: "tournament.status.signup",
    TournamentStatus.RUNNING: "tournament.status.running",
    TournamentStatus.FINISHED: "tournament.status.finished",
    TournamentStatus.CANCELLED: "tournament.status.cancelled",
}


def signup_embed(tournament: Tournament, locale: str) -> discord.Embed:
    engine = games.get(tournament.game)
    embed = discord.Embed(
        title=t(locale, "tournament.title", name=tournament.name),
        description=t(
            locale,
            "tournament.signup_description",
            game=game_name(locale, engine.id),
            organiser=f"<@{tournament.organiser_id}>",
        ),
        colour=discord.Colour.teal(),
    )
    embed.add_field(
        name=t(locale, "tournament.format"),
        value=t(locale, f"tournament.format.{tournament.format}"),
    )
    if tournament.format == "swiss":
        embed.add_field(name=t(locale, "tournament.rounds"), value=str(tournament.rounds))
    embed.add_field(name=t(locale, "tournament.table_size"), value=str(tournament.table_size))
    embed.add_field(name=t(locale, "tournament.clock"), value=tournament.clock)
    options = ", ".join(
        f"{k}={v}" for k, v in {**tournament.options, **tournament.settings}.items()
    )
    if options:
        embed.add_field(name=t(locale, "tournament.options"), value=clip(options, 1024))
    if tournament.format == "swiss":
        byes = (
            t(locale, "tournament.bye_average")
            if tournament.bye_points is None
            else standings.points_text(tournament.bye_points)
        )
        embed.add_field(name=t(locale, "tournament.bye"), value=byes)
    if tournament.format == "elimination":
        advance = (
            t(locale, "tournament.advance_default")
            if tournament.advance is None
            else str(tournament.advance)
        )
        embed.add_field(name=t(locale, "tournament.advance"), value=advance)
    players = "\n".join(f"{i + 1}. <@{p.user_id}>" for i, p in enumerate(tournament.players))
    embed.add_field(
        name=t(locale, "tournament.players", count=len(tournament.players)),
        value=clip(players or "—", 1024),
        inline=False,
    )
    embed.set_footer(text=t(locale, STATUS_KEYS[tournament.status]) + f" · #{tournament.id}")
    return embed


def signup_buttons(tournament: Tournament, locale: str) -> Components | None:
    if tournament.status is not TournamentStatus.SIGNUP:
        return None
    view = Components()
    tid = tournament.id
    view.add_item(
        button(f"tour:{tid}:join", t(locale, "lobby.join"), style=discord.ButtonStyle.success)
    )
    view.add_item(button(f"tour:{tid}:leave", t(locale, "lobby.leave")))
    view.add_item(
        button(f"tour:{tid}:start", t(locale, "lobby.start"), style=discord.ButtonStyle.primary)
    )
    view.add_item(
        button(f"tour:{tid}:cancel", t(locale, "lobby.cancel"), style=discord.ButtonStyle.danger)
    )
    return view


async def standings_message(
    service: Tournaments, tournament: Tournament, locale: str, filename: str = "standings.png"
) -> tuple[str, discord.File]:
    """The standings as text (for screen readers) and as a picture."""
    ranked = await service.standings(tournament)
    names = {p.user_id: p.name for p in tournament.players}
    status = {p.user_id: p.status for p in tournament.players}
    lines = [t(locale, "tournament.standings_title", name=tournament.name, round=tournament.round)]
    rows = []
    for place, s in enumerate(ranked[:STANDINGS_SHOWN], start=1):
        mark = (
            ""
            if status.get(s.user_id) == "playing"
            else " " + t(locale, f"tournament.player.{status.get(s.user_id, 'playing')}")
        )
        lines.append(
            t(
                locale,
                "tournament.standings_line",
                place=place,
                user=f"<@{s.user_id}>",
                points=standings.points_text(s.points),
                opponents=standings.points_text(s.opponents_points),
                share=f"{s.winner_share:.0%}",
                score=s.total_score,
                games=s.games,
            )
            + mark
        )
        rows.append(
            Row(
                (
                    str(place),
                    names.get(s.user_id, str(s.user_id)) + mark,
                    standings.points_text(s.points),
                    standings.points_text(s.opponents_points),
                    f"{s.winner_share:.0%}",
                    str(s.total_score),
                    str(s.games),
                )
            )
        )
    board = Board(
        t(locale, "tournament.standings_title", name=tournament.name, round=tournament.round),
        (
            "#",
            t(locale, "board.name"),
            t(locale, "board.points"),
            t(locale, "board.opponents"),
            t(locale, "board.share"),
            t(locale, "board.score"),
            t(locale, "board.games"),
        ),
        tuple(rows),
        widths=(50, 230, 90, 110, 100, 90, 80),
        language=locale,
    )
    png = await asyncio.to_thread(lambda: render.png_bytes(render_board(board)))
    return "\n".join(lines), discord.File(io.BytesIO(png), filename=filename)


def rules_text(locale: str) -> str:
    lines = [t(locale, "tournament.rules_intro")]
    for size, points in standings.POINTS.items():
        if size >= 2:
            lines.append(
                t(locale, "tournament.rules_points", size=size, points=" / ".join(map(str, points)))
            )
    lines.append(t(locale, "tournament.rules_ties"))
    lines.append(t(locale, "tournament.rules_tiebreaks"))
    lines.append(t(locale, "tournament.rules_formats"))
    return "\n".join(lines)


class TournamentCog(commands.Cog):
    tournament = app_commands.Group(
        name=cmd("tournament"), description=desc("tournament"), guild_only=True
    )

    def __init__(self, bot: commands.Bot, store: Store, service: Tournaments) -> None:
        self.bot = bot
        self.store = store
        self.service = service

    # -- finding the tournament a command means ----------------------------------------------
    async def here(
        self,
        interaction: discord.Interaction,
        statuses: tuple[TournamentStatus, ...] = OPEN,
        named: str | None = None,
    ) -> Tournament:
        """The tournament `named` (its number or name) on this server, whatever its status;
        else the newest of this channel (or of the channel this thread is in)."""
        if named is not None and named.strip():
            return await self.named(interaction, named.strip())
        channel = interaction.channel
        ids = {interaction.channel_id, getattr(channel, "parent_id", None)}
        found = [
            x
            for x in await self.store.tournaments(guild_id=interaction.guild_id, statuses=statuses)
            if x.channel_id in ids
        ]
        if not found:
            raise Refusal("tournament.none_here")
        return found[-1]

    async def named(self, interaction: discord.Interaction, named: str) -> Tournament:
        """A tournament by number (`12`, `#12`) or name (the newest of that name) on this
        server; one of another server is refused, never shown."""
        number = named.removeprefix("#")
        if number.isdigit():
            found = await self.store.get_tournament(int(number))
            if found is not None and found.guild_id != interaction.guild_id:
                raise Refusal("tournament.other_server", number=number)
            if found is not None:
                return found
        same_name = [
            x
            for x in await self.store.tournaments(guild_id=interaction.guild_id)
            if x.name.casefold() == named.casefold()
        ]
        if not same_name:
            raise Refusal("tournament.not_found", name=clip(named, 100))
        return same_name[-1]

    async def tournament_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """This server's tournaments, newest first, those matching what is typed."""
        locale = user_locale(interaction)
        typed = current.strip().casefold().removeprefix("#")
        choices = []
        for x in reversed(await self.store.tournaments(guild_id=interaction.guild_id)):
            label = f"#{x.id} {x.name} · {t(locale, STATUS_KEYS[x.status])}"
            if typed in label.casefold():
                choices.append(app_commands.Choice(name=clip(label, 100), value=str(x.id)))
            if len(choices) == CHOICES_SHOWN:
                break
        return choices

    def organiser(self, interaction: discord.Interaction, tournament: Tournament) -> None:
        if not can_manage(interaction, tournament.organiser_id):
            raise Refusal("tournament.organiser_only")

    # -- commands ----------------------------------------------------------------------------
    @tournament.command(name=cmd("create"), description=desc("tournament.create"))
    @app_commands.rename(
        game=cmd("game"),
        format=cmd("format"),
        rounds=cmd("rounds"),
        table_size=cmd("table_size"),
        clock=cmd("clock"),
        name=cmd("name"),
        options=cmd("options"),
        bye_points=cmd("bye_points"),
        advance=cmd("advance"),
    )
    @app_commands.describe(
        game=desc("new.game"),
        format=desc("tournament.format"),
        rounds=desc("tournament.rounds"),
        table_size=desc("tournament.table_size"),
        clock=desc("tournament.clock"),
        name=desc("tournament.name"),
        options=desc("new.options"),
        bye_points=desc("tournament.bye_points"),
        advance=desc("tournament.advance"),
    )
    @app_commands.choices(
        format=[
            app_commands.Choice(name=named(f"tournament.format.{f}"), value=f) for f in FORMATS
        ],
        clock=[app_commands.Choice(name=named(f"setting.clock.{c}"), value=c) for c in CLOCKS],
    )
    async def create(
        self,
        interaction: discord.Interaction,
        game: str,
        format: str,
        rounds: int | None = None,
        table_size: int | None = None,
        clock: str | None = None,
        name: str | None = None,
        options: str | None = None,
        bye_points: float | None = None,
        advance: int | None = None,
    ) -> None:
        try:
            tournament = self.checked(
                interaction,
                game,
                format,
                rounds,
                table_size,
                clock,
                name,
                options,
                bye_points,
                advance,
            )
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return
        tournament = await self.store.create_tournament(tournament)
        plocale = public_locale(interaction)
        view = signup_buttons(tournament, plocale)
        extra: dict[str, Any] = {} if view is None else {"view": view}
        await interaction.response.send_message(embed=signup_embed(tournament, plocale), **extra)
        message = await interaction.original_response()
        await self.store.set_tournament_message(tournament.id, message.id)

    def checked(
        self,
        interaction: discord.Interaction,
        game: str,
        format: str,
        rounds: int | None,
        table_size: int | None,
        clock: str | None,
        name: str | None,
        options: str | None,
        bye_points: float | None,
        advance: int | None,
    ) -> Tournament:
        """The tournament as asked for, or a Refusal that says what is wrong."""
        try:
            engine = games.get(game)
            typed, settings = table_settings.split(parse_options(options))
            chosen = engine.resolve_options(typed)
        except GameError as exc:
            raise Refusal("lobby.bad_game", reason=str(exc)) from None
        if format not in FORMATS:
            raise Refusal("tournament.bad_format", formats=", ".join(FORMATS))
        low, high = max(engine.min_players, 2), engine.max_players
        size = table_size if table_size is not None else default_table_size(engine.id)
        if not low <= size <= high:
            raise Refusal("tournament.bad_table_size", min=low, max=high)
        if rounds is not None and not 1 <= rounds <= 20:
            raise Refusal("tournament.bad_rounds")
        clock = clock or DEFAULT_CLOCK
        if clock not in CLOCKS:
            raise Refusal("tournament.bad_clock", clocks=", ".join(CLOCKS))
        if bye_points is not None and not 0 <= bye_points <= 10:
            raise Refusal("tournament.bad_bye_points")
        if advance is not None and not 1 <= advance < high:
            raise Refusal("tournament.bad_advance", max=high - 1)
        title = (name or "").strip() or t(
            public_locale(interaction),
            "tournament.default_name",
            game=game_name(public_locale(interaction), engine.id),
        )
        if len(title) > 60:
            raise Refusal("tournament.bad_name")
        for reserved in ("clock", "away"):
            settings.pop(reserved, None)
        user = interaction.user
        return Tournament(
            id=0,
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            organiser_id=user.id,
            name=title,
            game=engine.id,
            format=format,
            rounds=(rounds or DEFAULT_SWISS_ROUNDS) if format == "swiss" else None,
            table_size=size,
            clock=clock,
            options=chosen,
            settings=settings,
            bye_points=bye_points,
            advance=advance,
            created_at=discord.utils.utcnow(),
            players=[TournamentPlayer(user.id, user.display_name)],
        )

    @create.autocomplete("game")
    async def _games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices(current, user_locale(interaction))

    @tournament.command(name=cmd("rules"), description=desc("tournament.rules"))
    async def rules(self, interaction: discord.Interaction) -> None:
        await say(interaction, clip(rules_text(user_locale(interaction)), 2000))

    @tournament.command(name=cmd("standings"), description=desc("tournament.standings"))
    @app_commands.rename(tournament=cmd("tournament"))
    @app_commands.describe(tournament=desc("tournament.which"))
    async def standings_command(
        self, interaction: discord.Interaction, tournament: str | None = None
    ) -> None:
        try:
            found = await self.here(interaction, tuple(TournamentStatus), tournament)
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return
        text, file = await standings_message(self.service, found, user_locale(interaction))
        await say(interaction, clip(text, 2000), file=file)

    @tournament.command(name=cmd("drop"), description=desc("tournament.drop"))
    @app_commands.rename(tournament=cmd("tournament"))
    @app_commands.describe(tournament=desc("tournament.which"))
    async def drop(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        await self._act(interaction, self.do_drop, tournament)

    async def do_drop(self, interaction: discord.Interaction, tournament: Tournament) -> str:
        player = tournament.player(interaction.user.id)
        if player is None or player.status != "playing":
            raise Refusal("tournament.not_playing")
        if tournament.status is TournamentStatus.SIGNUP:
            await self.store.leave_tournament(tournament.id, interaction.user.id)
            await self.refresh(tournament.id)
            return "tournament.left"
        await self.service.withdraw(tournament, interaction.user.id, "dropped")
        return "tournament.dropped"

    @tournament.command(name=cmd("remove"), description=desc("tournament.remove"))
    @app_commands.rename(player=cmd("player"), tournament=cmd("tournament"))
    @app_commands.describe(player=desc("tournament.player"), tournament=desc("tournament.which"))
    async def remove(
        self, interaction: discord.Interaction, player: discord.User, tournament: str | None = None
    ) -> None:
        async def action(interaction: discord.Interaction, tournament: Tournament) -> str:
            self.organiser(interaction, tournament)
            entry = tournament.player(player.id)
            if entry is None or entry.status != "playing":
                raise Refusal("tournament.not_a_player", user=f"<@{player.id}>")
            if tournament.status is TournamentStatus.SIGNUP:
                await self.store.leave_tournament(tournament.id, player.id)
                await self.refresh(tournament.id)
            else:
                await self.service.withdraw(tournament, player.id, "removed")
            return "tournament.removed"

        await self._act(interaction, action, tournament)

    @tournament.command(name=cmd("replace"), description=desc("tournament.replace"))
    @app_commands.rename(player=cmd("player"), new=cmd("replacement"), tournament=cmd("tournament"))
    @app_commands.describe(
        player=desc("tournament.player"),
        new=desc("tournament.new"),
        tournament=desc("tournament.which"),
    )
    async def replace(
        self,
        interaction: discord.Interaction,
        player: discord.User,
        new: discord.User,
        tournament: str | None = None,
    ) -> None:
        async def action(interaction: discord.Interaction, tournament: Tournament) -> str:
            self.organiser(interaction, tournament)
            entry = tournament.player(player.id)
            if entry is None or entry.status != "playing":
                raise Refusal("tournament.not_a_player", user=f"<@{player.id}>")
            if tournament.player(new.id) is not None or new.bot:
                raise Refusal("tournament.already_in", user=f"<@{new.id}>")
            await self.service.replace(tournament, player.id, new.id, new.display_name)
            await self.refresh(tournament.id)
            return "tournament.replaced"

        await self._act(interaction, action, tournament)

    @tournament.command(name=cmd("repair"), description=desc("tournament.repair"))
    @app_commands.rename(tournament=cmd("tournament"))
    @app_commands.describe(tournament=desc("tournament.which"))
    async def repair(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        async def action(interaction: discord.Interaction, tournament: Tournament) -> str:
            self.organiser(interaction, tournament)
            if tournament.status is not TournamentStatus.RUNNING:
                raise Refusal("tournament.not_running")
            await self.service.repair(tournament)
            return "tournament.repaired"

        await self._act(interaction, action, tournament)

    @tournament.command(name=cmd("cancel"), description=desc("tournament.cancel"))
    @app_commands.rename(tournament=cmd("tournament"))
    @app_commands.describe(tournament=desc("tournament.which"))
    async def cancel(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        await self._act(interaction, self.do_cancel, tournament)

    async def do_cancel(self, interaction: discord.Interaction, tournament: Tournament) -> str:
        self.organiser(interaction, tournament)
        await self.service.cancel(tournament)
        await self.refresh(tournament.id)
        return "tournament.cancelled"

    async def _act(
        self,
        interaction: discord.Interaction,
        action: Callable[[discord.Interaction, Tournament], Awaitable[str]],
        named: str | None,
    ) -> None:
        """Run a command on the tournament it means, answering privately in the user's
        language: what was done, or why not."""
        locale = user_locale(interaction)
        try:
            tournament = await self.here(interaction, named=named)
            note = await action(interaction, tournament)
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return
        except TournamentClosed:
            await say(interaction, t(locale, "tournament.closed"))
            return
        except NotSeated:
            await say(interaction, t(locale, "tournament.not_playing"))
            return
        await say(interaction, t(locale, note))

    @standings_command.autocomplete("tournament")
    @drop.autocomplete("tournament")
    @remove.autocomplete("tournament")
    @replace.autocomplete("tournament")
    @repair.autocomplete("tournament")
    @cancel.autocomplete("tournament")
    async def _tournaments(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.tournament_choices(interaction, current)

    # -- the sign-up message ----------------------------------------------------------------
    async def on_component(self, interaction: discord.Interaction, click: TournamentButton) -> None:
        locale = user_locale(interaction)
        tournament = await self.store.get_tournament(click.number("tournament"))
        if tournament is None or tournament.status is not TournamentStatus.SIGNUP:
            await say(interaction, t(locale, "tournament.closed"))
            return
        user = interaction.user
        try:
            verb = click.text("verb")
            if verb == "join":
                if user.bot:
                    raise Refusal("component.unknown")
                tournament = await self.store.join_tournament(
                    tournament.id, user.id, user.display_name
                )
            elif verb == "leave":
                tournament = await self.store.leave_tournament(tournament.id, user.id)
            elif verb == "start":
                self.organiser(interaction, tournament)
                self.service.check_start(tournament)
                await interaction.response.defer()
                await self.service.start(tournament)
                tournament = await self.store.get_tournament(tournament.id) or tournament
            elif verb == "cancel":
                self.organiser(interaction, tournament)
                await self.service.cancel(tournament)
                tournament = await self.store.get_tournament(tournament.id) or tournament
            else:
                raise Refusal("component.unknown")
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return
        except AlreadySeated:
            await say(interaction, t(locale, "tournament.already_joined"))
            return
        except NotSeated:
            await say(interaction, t(locale, "tournament.not_playing"))
            return
        except TournamentClosed:
            await say(interaction, t(locale, "tournament.closed"))
            return
        plocale = public_locale(interaction)
        embed, view = signup_embed(tournament, plocale), signup_buttons(tournament, plocale)
        if interaction.response.is_done():
            await self.refresh(tournament.id)
        else:
            await interaction.response.edit_message(embed=embed, view=view)

    async def refresh(self, tournament_id: int) -> None:
        """Show the tournament as it now is on its sign-up message."""
        tournament = await self.store.get_tournament(tournament_id)
        if tournament is None or tournament.message_id is None:
            return
        locale = self.service.locale(tournament)
        channel = await self.service.channel(tournament.channel_id)
        with contextlib.suppress(discord.NotFound):
            await channel.get_partial_message(tournament.message_id).edit(
                embed=signup_embed(tournament, locale), view=signup_buttons(tournament, locale)
            )
