"""`/tournament`: create one with a sign-up message (Join, Leave, Start, Cancel; Check in
during a check-in window), the rules and points, the standings at any time, this server's
tournaments past and present (`list`), dropping out, and the organiser's tools (remove,
replace, re-pair, a table's result, cancel). The running of rounds is bot/tournaments.py's."""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import Awaitable, Callable
from dataclasses import replace
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
    TournamentTable,
)
from meeple_hall.bot.tournaments import (
    AT_DEADLINE,
    CLOCKS,
    DEFAULT_CLOCK,
    DEFAULT_SWISS_ROUNDS,
    FORMATS,
    SEEDINGS,
    Tournaments,
    default_table_size,
)
from meeple_hall.games import GameError
from meeple_hall.renderers.leaderboard import Board, Row, render_board

OPEN = (TournamentStatus.SIGNUP, TournamentStatus.RUNNING)
STANDINGS_SHOWN = 20
LISTED = 20  # tournaments shown by /tournament list, newest first
CHECKIN_MAX = 24 * 60  # minutes
DEADLINE_MAX = 30  # days
REASON_MAX = 200
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
    for name, value in event_fields(tournament, locale):
        embed.add_field(name=name, value=value)
    if tournament.format == "elimination":
        advance = (
            t(locale, "tournament.advance_default")
            if tournament.advance is None
            else str(tournament.advance)
        )
        embed.add_field(name=t(locale, "tournament.advance"), value=advance)
    checking_in = tournament.checkin_until is not None
    players = "\n".join(
        f"{i + 1}. <@{p.user_id}>" + (" ✅" if checking_in and p.checked_in else "")
        for i, p in enumerate(tournament.players)
    )
    embed.add_field(
        name=t(locale, "tournament.players", count=len(tournament.players)),
        value=clip(players or "—", 1024),
        inline=False,
    )
    embed.set_footer(text=t(locale, STATUS_KEYS[tournament.status]) + f" · #{tournament.id}")
    return embed


def event_fields(tournament: Tournament, locale: str) -> list[tuple[str, str]]:
    """The organiser's event options that differ from the plain tournament, named."""
    fields = []
    if tournament.checkin_minutes:
        minutes = t(locale, "tournament.minutes", count=tournament.checkin_minutes)
        fields.append((t(locale, "tournament.checkin"), minutes))
    if tournament.deadline_days:
        days = t(locale, "tournament.days", count=tournament.deadline_days)
        fields.append((t(locale, "tournament.deadline"), days))
        settles = t(locale, f"tournament.at_deadline.{tournament.at_deadline}")
        fields.append((t(locale, "tournament.at_deadline"), settles))
    if tournament.seeding != "random":
        fields.append(
            (t(locale, "tournament.seeding"), t(locale, f"tournament.seeding.{tournament.seeding}"))
        )
    if tournament.points:
        fields.append((t(locale, "tournament.points"), " / ".join(map(str, tournament.points))))
    if tournament.final_size:
        fields.append((t(locale, "tournament.final"), str(tournament.final_size)))
    return fields


def signup_buttons(tournament: Tournament, locale: str) -> Components | None:
    if tournament.status is not TournamentStatus.SIGNUP:
        return None
    view = Components()
    tid = tournament.id
    if tournament.checkin_until is not None:
        label = t(locale, "tournament.checkin_button")
        view.add_item(button(f"tour:{tid}:checkin", label, style=discord.ButtonStyle.success))
    else:
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


def rules_text(locale: str, tournament: Tournament | None = None) -> str:
    """The points per place (the tournament's own, if it has them) and the tie-breaks."""
    lines = []
    if tournament is not None:
        lines.append(t(locale, "tournament.title", name=tournament.name))
        lines += [
            t(locale, "tournament.rules_setting", name=name, value=value)
            for name, value in event_fields(tournament, locale)
        ]
    custom = tournament.points if tournament is not None else None
    lines.append(t(locale, "tournament.rules_intro"))
    sizes = range(2, len(custom) + 1) if custom else [s for s in standings.POINTS if s >= 2]
    for size in sizes:
        points = standings.place_points(size, custom)
        lines.append(
            t(locale, "tournament.rules_points", size=size, points=" / ".join(map(str, points)))
        )
    lines.append(t(locale, "tournament.rules_ties"))
    lines.append(t(locale, "tournament.rules_tiebreaks"))
    lines.append(t(locale, "tournament.rules_formats"))
    return "\n".join(lines)


def list_line(tournament: Tournament, locale: str) -> str:
    created = tournament.created_at
    return t(
        locale,
        "tournament.list_line",
        id=tournament.id,
        name=tournament.name,
        game=game_name(locale, tournament.game),
        format=t(locale, f"tournament.format.{tournament.format}"),
        status=t(locale, STATUS_KEYS[tournament.status]),
        players=len(tournament.players),
        date=discord.utils.format_dt(created, "d") if created is not None else "—",
    )


def numbers(text: str) -> list[int] | None:
    """Whole numbers separated by commas or spaces (None if anything else is there)."""
    parts = text.replace(",", " ").replace("，", " ").replace("、", " ").split()
    if not parts or not all(p.isdigit() for p in parts):
        return None
    return [int(p) for p in parts]


def parse_ranks(text: str, seats: int) -> tuple[int, ...]:
    """A place for each seat, in seat order (`2,1,3`; ties share a place and skip the
    places they cover, as `1,1,3`); a Refusal if they do not fit the table."""
    ranks = numbers(text)
    if ranks is None or len(ranks) != seats or not _competition_ranks(ranks):
        raise Refusal("tournament.bad_ranks", seats=seats)
    return tuple(ranks)


def _competition_ranks(ranks: list[int]) -> bool:
    """Each place is one more than the number of seats placed better."""
    return all(r == 1 + sum(o < r for o in ranks) for r in ranks)


def parse_forfeits(text: str, seats: int) -> tuple[int, ...]:
    """Seat numbers (1 first) that forfeit, as seat indexes; some seat must remain."""
    chosen = numbers(text)
    if chosen is None or not all(1 <= s <= seats for s in chosen) or len(set(chosen)) >= seats:
        raise Refusal("tournament.bad_forfeits", seats=seats)
    return tuple(sorted({s - 1 for s in chosen}))


def parse_points(text: str) -> tuple[int, ...]:
    """`6,4,2,1` (commas or spaces) as points per place; a Refusal if not whole numbers."""
    points = numbers(text)
    if points is None:
        raise Refusal("tournament.bad_points_format")
    return tuple(points)


def checked_event(
    tournament: Tournament,
    checkin: int | None,
    deadline: int | None,
    seeding: str,
    points: str | None,
    final: int | None,
    at_deadline: str = "ai",
) -> Tournament:
    """The tournament with the organiser's event options, or a Refusal that says which one
    is wrong."""
    engine = games.get(tournament.game)
    low, high = max(engine.min_players, 2), engine.max_players
    if checkin is not None and not 1 <= checkin <= CHECKIN_MAX:
        raise Refusal("tournament.bad_checkin", max=CHECKIN_MAX)
    if deadline is not None and not 1 <= deadline <= DEADLINE_MAX:
        raise Refusal("tournament.bad_deadline", max=DEADLINE_MAX)
    if at_deadline not in AT_DEADLINE:
        raise Refusal("tournament.bad_at_deadline", choices=", ".join(AT_DEADLINE))
    if at_deadline != "ai" and deadline is None:
        raise Refusal("tournament.at_deadline_needs_deadline", max=DEADLINE_MAX)
    if seeding not in SEEDINGS:
        raise Refusal("tournament.bad_seeding", seedings=", ".join(SEEDINGS))
    if final is not None and (tournament.format != "swiss" or not low <= final <= high):
        raise Refusal("tournament.bad_final", min=low, max=high)
    custom = parse_points(points) if points is not None and points.strip() else None
    largest = max(tournament.table_size, final or 0)
    if custom is not None and (len(custom) > high or not standings.points_fit(custom, largest)):
        raise Refusal("tournament.bad_points", size=largest, max=high)
    return replace(
        tournament,
        checkin_minutes=checkin,
        deadline_days=deadline,
        at_deadline=at_deadline,
        seeding=seeding,
        points=custom,
        final_size=final,
    )


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
        checkin=cmd("checkin"),
        deadline=cmd("deadline"),
        at_deadline=cmd("at_deadline"),
        seeding=cmd("seeding"),
        points=cmd("points"),
        final=cmd("final"),
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
        checkin=desc("tournament.checkin"),
        deadline=desc("tournament.deadline"),
        at_deadline=desc("tournament.at_deadline"),
        seeding=desc("tournament.seeding"),
        points=desc("tournament.points"),
        final=desc("tournament.final"),
    )
    @app_commands.choices(
        format=[
            app_commands.Choice(name=named(f"tournament.format.{f}"), value=f) for f in FORMATS
        ],
        clock=[app_commands.Choice(name=named(f"setting.clock.{c}"), value=c) for c in CLOCKS],
        seeding=[
            app_commands.Choice(name=named(f"tournament.seeding.{s}"), value=s) for s in SEEDINGS
        ],
        at_deadline=[
            app_commands.Choice(name=named(f"tournament.at_deadline.{a}"), value=a)
            for a in AT_DEADLINE
        ],
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
        checkin: int | None = None,
        deadline: int | None = None,
        seeding: str | None = None,
        points: str | None = None,
        final: int | None = None,
        at_deadline: str | None = None,
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
            tournament = checked_event(
                tournament,
                checkin,
                deadline,
                seeding or "random",
                points,
                final,
                at_deadline or "ai",
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
    @app_commands.rename(tournament=cmd("tournament"))
    @app_commands.describe(tournament=desc("tournament.which"))
    async def rules(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        """A tournament's own points and options (named, else this channel's newest), or
        the default rules where there is none."""
        found: Tournament | None = None
        try:
            found = await self.here(interaction, tuple(TournamentStatus), tournament)
        except Refusal as refusal:
            if tournament is not None and tournament.strip():
                await refuse(interaction, refusal)
                return
        await say(interaction, clip(rules_text(user_locale(interaction), found), 2000))

    @tournament.command(name=cmd("list"), description=desc("tournament.list"))
    async def list_command(self, interaction: discord.Interaction) -> None:
        locale = user_locale(interaction)
        found = await self.store.tournaments(guild_id=interaction.guild_id)
        lines = [t(locale, "tournament.list_title", count=len(found))]
        lines += [list_line(x, locale) for x in reversed(found[-LISTED:])]
        if not found:
            lines.append(t(locale, "tournament.list_none"))
        await say(interaction, clip("\n".join(lines), 2000))

    @tournament.command(name=cmd("result"), description=desc("tournament.result"))
    @app_commands.rename(
        table=cmd("table"),
        reason=cmd("reason"),
        ranks=cmd("ranks"),
        forfeits=cmd("forfeits"),
        tournament=cmd("tournament"),
    )
    @app_commands.describe(
        table=desc("tournament.result_table"),
        reason=desc("tournament.reason"),
        ranks=desc("tournament.ranks"),
        forfeits=desc("tournament.forfeits"),
        tournament=desc("tournament.which"),
    )
    async def result(
        self,
        interaction: discord.Interaction,
        table: int,
        reason: str,
        ranks: str | None = None,
        forfeits: str | None = None,
        tournament: str | None = None,
    ) -> None:
        async def action(interaction: discord.Interaction, tournament: Tournament) -> str:
            self.organiser(interaction, tournament)
            if tournament.status is not TournamentStatus.RUNNING:
                raise Refusal("tournament.not_running")
            row = await self.current_row(tournament, table)
            size = len(row.seats)
            places = parse_ranks(ranks, size) if ranks and ranks.strip() else None
            out = parse_forfeits(forfeits, size) if forfeits and forfeits.strip() else ()
            if places is None and not out:
                raise Refusal("tournament.result_needs")
            why = reason.strip()
            if not why or len(why) > REASON_MAX:
                raise Refusal("tournament.bad_reason", max=REASON_MAX)
            await self.service.set_result(tournament, row, places, out, why, interaction.user.id)
            return "tournament.result_done"

        await self._act(interaction, action, tournament)

    @tournament.command(name=cmd("export"), description=desc("tournament.export"))
    @app_commands.rename(tournament=cmd("tournament"))
    @app_commands.describe(tournament=desc("tournament.which"))
    async def export(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        """Standings, pairings and every game's result as a CSV file, past tournaments too."""
        locale = user_locale(interaction)
        try:
            found = await self.here(interaction, tuple(TournamentStatus), tournament)
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return
        file = await self.service.export(found, locale)
        await say(interaction, t(locale, "tournament.exported", name=found.name), file=file)

    async def current_row(self, tournament: Tournament, number: int) -> TournamentTable:
        """Table `number` of the tournament's current round."""
        for row in await self.store.tournament_tables(tournament.id, tournament.round):
            if row.number == number and row.state != "void":
                return row
        raise Refusal("tournament.no_table", table=number, round=tournament.round)

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

    @rules.autocomplete("tournament")
    @export.autocomplete("tournament")
    @result.autocomplete("tournament")
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
            elif verb == "checkin":
                tournament = await self.store.check_in(tournament.id, user.id)
            elif verb == "start":
                self.organiser(interaction, tournament)
                self.service.check_start(tournament)
                await interaction.response.defer()
                if tournament.checkin_minutes and tournament.checkin_until is None:
                    tournament = await self.service.open_checkin(tournament, user.id)
                elif tournament.checkin_until is not None:
                    await self.service.close_checkin(tournament.id)  # the organiser starts early
                else:
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
