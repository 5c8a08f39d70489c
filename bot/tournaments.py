"""Tournaments that run themselves: rounds seated in threads, results collected as games
end, standings posted, the next round opened, the winner announced.

Everything is in the store, and every step is written so that doing it again does nothing
new: a round's tables are recorded (as intents) before any thread is opened; each table
then goes planned → thread → table → started → announced, and a thread or game already
made is found again (by the thread's name, by the one open table a channel may have)
instead of being made twice. A round goes opening → playing → done; it is marked done only
once its standings are posted, and a post sent just before a stop is found again (by its
picture's name among the channel's latest messages), so it is sent exactly once; so is the
winner's, posted before the tournament is marked finished. `advance` looks at the store,
not at what this process remembers, so after a restart at any point it finishes what was
begun.

Organisers' tools (issue 28): a check-in window before round 1 (who has not confirmed is
dropped), round 1 seeded by the server's ratings, points per place of their own, a round
deadline (when it passes, the AI plays out every unfinished table of the round, or the
organiser is pinged to set their results, as the tournament says; the keys live on a
`Scheduler`, re-armed from the store at start), a final table of the best after
the Swiss rounds (its ranks decide the podium), and a table's result set by the organiser
(`set_result`: the game is finished with those ranks, so standings and ratings count it,
and the decision is kept in the store).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import random
from collections.abc import Callable, Hashable, Sequence
from datetime import datetime, timedelta
from typing import Any

import discord

from meeple_hall import games
from meeple_hall.bot import pairing, render, standings
from meeple_hall.bot.components import clip
from meeple_hall.bot.delivery import Redelivery, transient
from meeple_hall.bot.i18n import SUPPORTED, game_name, language, t
from meeple_hall.bot.live import LiveGame, Refusal, TableManager
from meeple_hall.bot.scheduler import Scheduler
from meeple_hall.bot.standings import Standing
from meeple_hall.bot.store import (
    ChannelBusy,
    FinalResult,
    NotSeated,
    RoundExists,
    Seat,
    Store,
    StoreError,
    Table,
    TableStatus,
    Tournament,
    TournamentClosed,
    TournamentResult,
    TournamentStatus,
    TournamentTable,
    UserPrefs,
)
from meeple_hall.bot.tournament_export import load_record, tournament_csv
from meeple_hall.games.ai.evaluate import points_now
from meeple_hall.renderers.podium import Finisher, render_podium

log = logging.getLogger(__name__)

FORMATS = ("swiss", "round-robin", "elimination")
CLOCKS = ("12h", "24h", "48h", "72h")
DEFAULT_CLOCK = "48h"
DEFAULT_SWISS_ROUNDS = 3
ROUND_ROBIN_MAX = 12
ENDED = (TableStatus.FINISHED, TableStatus.ABANDONED, TableStatus.CANCELLED)
OPEN_TABLE_STATES = ("planned", "thread", "table", "started")
RECENT_POSTS = 50  # how far back a channel is searched for a post sent before a stop
SEEDINGS = ("random", "rating")
AT_DEADLINE = ("ai", "organiser")  # who settles a round's unfinished tables at its deadline


def default_table_size(game_id: str) -> int:
    engine = games.get(game_id)
    best = getattr(engine, "best_players", None)
    return int(best) if best else min(4, engine.max_players)


def thread_name(tournament: Tournament, round_no: int, number: int, locale: str) -> str:
    """Unique per tournament table, so a thread made before a restart is found again."""
    name = tournament.name[:60]
    return t(locale, "tournament.thread", name=name, round=round_no, table=number, id=tournament.id)


def thread_names(tournament: Tournament, round_no: int, number: int) -> set[str]:
    """Every name a table's thread may have been given: in each language (the server's may
    have changed since), and as versions before thread names were translated wrote it."""
    names = {thread_name(tournament, round_no, number, locale) for locale in SUPPORTED}
    return names | {f"{tournament.name[:60]} · R{round_no} T{number} · #{tournament.id}"}


def deadline_line(locale: str, deadline: datetime, at_deadline: str = "ai") -> str:
    """A round's deadline as Discord shows it in each reader's own time zone, and who
    settles the unfinished games then."""
    return t(
        locale,
        "tournament.deadline_line_organiser"
        if at_deadline == "organiser"
        else "tournament.deadline_line",
        when=discord.utils.format_dt(deadline, "F"),
        relative=discord.utils.format_dt(deadline, "R"),
    )


def ranks_from_order(order: Sequence[int]) -> tuple[int, ...]:
    """Ranks by seat from seats listed best first (no two seats share a rank)."""
    ranks = [0] * len(order)
    for rank, seat in enumerate(order, start=1):
        ranks[seat] = rank
    return tuple(ranks)


def table_settings(tournament: Tournament) -> dict[str, str]:
    return {**tournament.settings, "clock": tournament.clock, "away": "forbidden"}


class Tournaments:
    def __init__(self, bot: Any, store: Store, manager: TableManager) -> None:
        self.bot = bot
        self.store = store
        self.manager = manager
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        # the scores an abandoned game had when it ended, by table id (they never change)
        self._scores_at_end: dict[int, tuple[int, ...]] = {}
        manager.listeners.append(self.on_game)
        # check-in windows closing ("checkin", id) and round deadlines ("deadline", id, round)
        self.scheduler = Scheduler(self._due)
        # tournaments whose step failed on a Discord error that may pass, moved on again later
        self.again = Redelivery(self._advance_again)

    def close(self) -> None:
        """Nothing more falls due (the bot is closing)."""
        self.scheduler.close()
        self.again.close()

    def under_way(self) -> list[asyncio.Task[None] | None]:
        """The steps of ended games going on now, and a timed pass (bot/closing.py)."""
        return [*self._tasks, self.scheduler.under_way, self.again.scheduler.under_way]

    def lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    # -- the language of public messages --------------------------------------------------
    def locale(self, tournament: Tournament) -> str:
        """The server's language (its `/settings server_language`, else its preferred
        locale): the tournament's posts and its tables' threads are in it."""
        guild = self.bot.get_guild(tournament.guild_id)
        languages = getattr(self.bot, "languages", None)
        if languages is not None:
            return languages.server(guild, tournament.guild_id)
        return language(guild.preferred_locale if guild else None)

    def dm_locale(self, prefs: UserPrefs, tournament: Tournament) -> str:
        """A DM's language: the player's `/settings` choice, else their client's last
        locale, else the server's."""
        languages = getattr(self.bot, "languages", None)
        chosen = languages.users.get(prefs.user_id) if languages is not None else None
        return chosen or (language(prefs.locale) if prefs.locale else self.locale(tournament))

    async def channel(self, channel_id: int) -> Any:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(channel_id)
        return channel

    # -- starting ---------------------------------------------------------------------------
    async def start(self, tournament: Tournament) -> None:
        """Seat round 1 and open it. Refuses too few players (or too many for round-robin)."""
        self.check_start(tournament)
        async with self.lock(tournament.id):
            first = await self._pair(tournament, 1)
            try:
                await self._add_round(tournament, 1, first)
            except RoundExists:
                raise Refusal("tournament.started") from None
            except TournamentClosed:
                raise Refusal("tournament.closed") from None
        await self.advance(tournament.id)

    @staticmethod
    def check_start(tournament: Tournament) -> None:
        engine = games.get(tournament.game)
        players = tournament.playing()
        if len(players) < max(engine.min_players, 2):
            raise Refusal("tournament.too_few", min=max(engine.min_players, 2))
        if tournament.format == "round-robin" and len(players) > ROUND_ROBIN_MAX:
            raise Refusal("tournament.round_robin_max", max=ROUND_ROBIN_MAX)

    async def _pair(self, tournament: Tournament, round_no: int) -> pairing.Pairing:
        """The pairing of a round from the standings and history in the store."""
        engine = games.get(tournament.game)
        size, low, high = tournament.table_size, engine.min_players, engine.max_players
        history, table_results, byes = await self.history(tournament)
        playing = tournament.playing()
        if tournament.format == "round-robin":
            schedule = await self.schedule(tournament)
            planned = schedule[round_no - 1] if round_no <= len(schedule) else pairing.Pairing(())
            tables = [tuple(p for p in table if p in playing) for table in planned.tables]
            seated = [tb for tb in tables if len(tb) >= max(low, 2)]
            lone = [p for tb in tables if len(tb) < max(low, 2) for p in tb]
            return pairing.Pairing(tuple(seated), tuple(planned.byes) + tuple(lone))
        order = self.order(tournament, table_results, byes, playing)
        if round_no == 1:
            random.Random(self.bot.new_seed()).shuffle(order)
        if tournament.format == "elimination":
            return pairing.elimination_round(order, size, low, high, history)
        if round_no == 1 and tournament.seeding == "rating":
            order = await self.by_rating(tournament, order)
            return pairing.seeded_round(order, size, low, high, history)
        if self.is_final_round(tournament, round_no):
            return pairing.final_table(order, self.final_count(tournament), history)
        return pairing.swiss_round(order, size, low, high, history)

    async def by_rating(self, tournament: Tournament, players: Sequence[int]) -> list[int]:
        """Players strongest first by the server's ratings of the game (an unrated player
        counts as a new one); `players`' order (shuffled) breaks ties."""
        book = await self.bot.ratings.book(tournament.game, tournament.guild_id)
        shown = {u: r.shown for u, r in book.players.items()}
        return sorted(players, key=lambda u: -shown.get(u, 0.0))

    @staticmethod
    def is_final_round(tournament: Tournament, round_no: int) -> bool:
        """The round after a Swiss's last: the final table, if the tournament has one."""
        return (
            tournament.format == "swiss"
            and tournament.final_size is not None
            and round_no > (tournament.rounds or DEFAULT_SWISS_ROUNDS)
        )

    @staticmethod
    def final_count(tournament: Tournament) -> int:
        """How many play the final: the organiser's number, or all still playing if fewer."""
        return min(tournament.final_size or 0, len(tournament.playing()))

    async def _add_round(
        self, tournament: Tournament, round_no: int, seated: pairing.Pairing
    ) -> None:
        """Record a round with its deadline (if the tournament has one), and arm it."""
        deadline = None
        if tournament.deadline_days:
            deadline = discord.utils.utcnow() + timedelta(days=tournament.deadline_days)
        await self.store.add_round(
            tournament.id,
            round_no,
            list(seated.tables),
            seated.byes,
            deadline=deadline,
            final=self.is_final_round(tournament, round_no),
        )
        self.scheduler.at(("deadline", tournament.id, round_no), deadline)

    async def schedule(self, tournament: Tournament) -> list[pairing.Pairing]:
        """The round-robin schedule, fixed in the store when the tournament starts (a
        replaced player's place goes to whoever replaced them); a player who leaves changes
        nothing in it. A tournament started before schedules were stored has its schedule
        worked out once, from its whole sign-up list as at the start, and stored."""
        if tournament.schedule is None:
            engine = games.get(tournament.game)
            rounds = pairing.round_robin(
                [p.user_id for p in tournament.players],
                tournament.table_size,
                engine.min_players,
                engine.max_players,
                seed=tournament.id,
            )
            tournament = await self.store.set_tournament_schedule(
                tournament.id, [planned.tables for planned in rounds]
            )
        assert tournament.schedule is not None
        everyone = [p.user_id for p in tournament.players]
        return [
            pairing.Pairing(tables, tuple(p for p in everyone if not any(p in t for t in tables)))
            for tables in tournament.schedule
        ]

    def order(
        self,
        tournament: Tournament,
        results: list[standings.TableResult],
        byes: dict[int, list[int]],
        players: Sequence[int],
    ) -> list[int]:
        ranked = standings.standings(
            players, results, byes, tournament.bye_points, tournament.points
        )
        return [s.user_id for s in ranked if s.user_id in players]

    async def history(
        self, tournament: Tournament
    ) -> tuple[pairing.History, list[standings.TableResult], dict[int, list[int]]]:
        """Seats, byes and results of every table played so far: a finished game's, and an
        abandoned game's as its scores stood when it ended (`_settled`)."""
        history = pairing.History()
        results: list[standings.TableResult] = []
        byes: dict[int, list[int]] = {}
        for rnd in await self.store.tournament_rounds(tournament.id):
            byes[rnd.round] = list(rnd.byes)
            for player in rnd.byes:
                history.add_bye(player)
        for row in await self.store.tournament_tables(tournament.id):
            if row.state == "void" or row.table_id is None:
                continue
            table = await self.store.get_table(row.table_id)
            if table is None:
                continue
            history.add_table(row.seats)
            if table.status is TableStatus.FINISHED and table.result is not None:
                results.append(
                    standings.TableResult(
                        row.round,
                        tuple(s.user_id for s in table.seats),  # type: ignore[misc]
                        tuple(table.result["ranks"]),
                        tuple(table.result["scores"]),
                        tuple(s.played_out for s in table.seats),
                    )
                )
            elif table.status is TableStatus.ABANDONED:
                earlier = [r for r in results if r.round < row.round]
                results.append(await self._settled(tournament, table, row.round, earlier, byes))
        return history, results, byes

    async def _settled(
        self,
        tournament: Tournament,
        table: Table,
        round_no: int,
        earlier: list[standings.TableResult],
        byes: dict[int, list[int]],
    ) -> standings.TableResult:
        """An abandoned game settled by its scores when it ended (the game's own scoring
        applied to the state then): seats the AI played out last, then by score, ties
        broken as the standings before its round break them; no two seats share a rank."""
        scores = await self._scores_at(table)
        players = tuple(s.user_id or 0 for s in table.seats)
        before = {rnd: ids for rnd, ids in byes.items() if rnd < round_no}
        ranked = standings.standings(
            players, earlier, before, tournament.bye_points, tournament.points
        )
        place = {s.user_id: i for i, s in enumerate(ranked)}
        played_out = tuple(s.played_out for s in table.seats)
        order = sorted(
            range(len(players)),
            key=lambda seat: (played_out[seat], -scores[seat], place.get(players[seat], 0)),
        )
        return standings.TableResult(round_no, players, ranks_from_order(order), scores, played_out)

    async def _scores_at(self, table: Table) -> tuple[int, ...]:
        """Each seat's points had the game ended as it stands in the store (0 in a game
        without such scoring)."""
        if table.id not in self._scores_at_end:
            score = points_now(table.game)
            if score is None:
                scores = (0,) * len(table.seats)
            else:
                state = await self.manager.replayed(table)
                scores = tuple(int(score(state, seat)) for seat in range(len(table.seats)))
            self._scores_at_end[table.id] = scores
        return self._scores_at_end[table.id]

    async def standings(self, tournament: Tournament) -> list[standings.Standing]:
        _, results, byes = await self.history(tournament)
        everyone = [p.user_id for p in tournament.players if p.status != "removed"]
        ranked = standings.standings(
            everyone, results, byes, tournament.bye_points, tournament.points
        )
        if tournament.final_size is not None:
            final = [r for r in results if self.is_final_round(tournament, r.round)]
            ranked = standings.final_first(ranked, final[0] if final else None)
        if tournament.format == "elimination":
            left = {p.user_id: p.left_round or 0 for p in tournament.players}
            still = {p.user_id for p in tournament.players if p.status == "playing"}
            ranked.sort(key=lambda s: (s.user_id not in still, -left.get(s.user_id, 0)))
        return ranked

    # -- moving on ------------------------------------------------------------------------
    async def advance(self, tournament_id: int) -> None:
        """Do whatever is due: open the current round's tables, close a round whose games
        all ended (standings), pair and open the next, or finish the tournament."""
        async with self.lock(tournament_id):
            for _ in range(6):  # open → close → pair → open, with room to spare
                tournament = await self.store.get_tournament(tournament_id)
                if tournament is None or tournament.status is not TournamentStatus.RUNNING:
                    return
                rounds = await self.store.tournament_rounds(tournament_id)
                if not rounds:
                    return
                current = rounds[-1]
                if current.status == "opening":
                    await self._open_round(tournament, current.round)
                    continue
                if current.status == "playing":
                    if not await self._round_over(tournament, current.round):
                        return
                    await self._close_round(tournament, current.round)
                    await self.store.set_round_status(
                        tournament_id, current.round, "done", expected="playing"
                    )
                    continue
                if await self._is_last(tournament, current.round):
                    await self._finish(tournament)
                    return
                tournament = await self.store.get_tournament(tournament_id) or tournament
                following = await self._pair(tournament, current.round + 1)
                if not following.tables:
                    await self._finish(tournament)
                    return
                with contextlib.suppress(RoundExists):
                    await self._add_round(tournament, current.round + 1, following)

    async def _round_over(self, tournament: Tournament, round_no: int) -> bool:
        for row in await self.store.tournament_tables(tournament.id, round_no):
            if row.state in ("void", "done"):
                continue
            table = await self.store.get_table(row.table_id) if row.table_id else None
            if table is None or table.status not in ENDED:
                return False
            await self.store.update_tournament_table(
                tournament.id, row.round, row.number, state="done"
            )
        return True

    async def _is_last(self, tournament: Tournament, round_no: int) -> bool:
        if tournament.format == "swiss":
            last_swiss = round_no >= (tournament.rounds or DEFAULT_SWISS_ROUNDS)
            low = max(games.get(tournament.game).min_players, 2)
            no_final = tournament.final_size is None or self.final_count(tournament) < low
            return last_swiss and (no_final or self.is_final_round(tournament, round_no))
        if tournament.format == "round-robin":
            return round_no >= len(await self.schedule(tournament))
        return len(tournament.playing()) <= 1 or await self._was_final(tournament, round_no)

    async def _was_final(self, tournament: Tournament, round_no: int) -> bool:
        rows = [r for r in await self.store.tournament_tables(tournament.id, round_no)]
        return len([r for r in rows if r.state != "void"]) <= 1

    async def _close_round(self, tournament: Tournament, round_no: int) -> None:
        """Knock out (elimination), then post the standings; both may be done again after a
        stop (the knock-out changes only players still playing; the post is found again)."""
        if tournament.format == "elimination":
            await self._knock_out(tournament, round_no)
            tournament = await self.store.get_tournament(tournament.id) or tournament
        await self.post_standings(
            tournament,
            t(self.locale(tournament), "tournament.round_done", round=round_no),
            key=f"r{round_no}",
        )

    async def _knock_out(self, tournament: Tournament, round_no: int) -> None:
        """The best of each table go on (all who tie at the cut of a finished game; an
        abandoned game is settled by its scores, `_settled`); the others at a table of
        the round are out."""
        final = await self._was_final(tournament, round_no)
        _, results, _ = await self.history(tournament)
        going_on: set[int] = set()
        for result in results:
            if result.round == round_no:
                keep = 1 if final else pairing.advancing(len(result.players), tournament.advance)
                going_on |= {
                    p for p, rank in zip(result.players, result.ranks, strict=True) if rank <= keep
                }
        for row in await self.store.tournament_tables(tournament.id, round_no):
            if row.state == "void":
                continue
            for user_id in row.seats:
                player = tournament.player(user_id)
                if user_id in going_on or player is None or player.status != "playing":
                    continue
                with contextlib.suppress(Exception):
                    await self.store.set_player_status(
                        tournament.id, user_id, "out", round=round_no
                    )

    async def _finish(self, tournament: Tournament) -> None:
        """Announce the winner, then mark the tournament finished (a stop in between
        announces nothing twice: the post is found again)."""
        ranked = await self.standings(tournament)
        locale = self.locale(tournament)
        winner = f"<@{ranked[0].user_id}>" if ranked else "—"
        await self.post_standings(
            tournament,
            t(locale, "tournament.winner", name=tournament.name, winner=winner),
            key="final",
            mention=True,
        )
        await self._post_podium(tournament, ranked)
        with contextlib.suppress(TournamentClosed):
            await self.store.end_tournament(tournament.id, TournamentStatus.FINISHED)

    async def post_standings(
        self, tournament: Tournament, heading: str, *, key: str, mention: bool = False
    ) -> None:
        """Post the standings under `heading` once: `key` names the picture, by which a post
        sent before a stop is found again."""
        from meeple_hall.bot.cogs.tournament import standings_message

        channel = await self.channel(tournament.channel_id)
        filename = f"standings-{tournament.id}-{key}.png"
        if await self._posted(channel, filename):
            return
        content, file = await standings_message(
            self, tournament, self.locale(tournament), filename=filename
        )
        await channel.send(
            content=clip(f"{heading}\n{content}", 2000),
            file=file,
            allowed_mentions=discord.AllowedMentions(users=mention),
        )

    async def _post_podium(self, tournament: Tournament, ranked: Sequence[Standing]) -> None:
        """The first three on the podium, as a picture, once (found again after a stop)."""
        channel = await self.channel(tournament.channel_id)
        filename = f"podium-{tournament.id}.png"
        if not ranked or await self._posted(channel, filename):
            return
        names = {p.user_id: p.name for p in tournament.players}
        finishers = [
            Finisher(names.get(s.user_id, str(s.user_id)), standings.points_text(s.points))
            for s in ranked[:3]
        ]
        locale = self.locale(tournament)
        png = await asyncio.to_thread(
            lambda: render.png_bytes(render_podium(finishers, language=locale))
        )
        await channel.send(
            t(locale, "tournament.podium", name=tournament.name),
            file=discord.File(io.BytesIO(png), filename=filename),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def export(self, tournament: Tournament, locale: str) -> discord.File:
        """The tournament as a CSV file (bot/tournament_export.py)."""
        _, counted, _ = await self.history(tournament)
        ranked = await self.standings(tournament)
        record = await load_record(self.store, tournament, ranked, counted)
        data = tournament_csv(record, locale).encode()
        return discord.File(io.BytesIO(data), filename=f"tournament-{tournament.id}.csv")

    async def _posted(self, channel: Any, filename: str) -> bool:
        """Whether one of the channel's latest messages is the bot's with this picture."""
        return await self._found(
            channel,
            filename,
            lambda message: any(a.filename == filename for a in message.attachments),
        )

    async def _said(self, channel: Any, start: str) -> bool:
        """Whether one of the channel's latest messages is the bot's and starts with `start`."""
        return await self._found(
            channel, start, lambda message: (message.content or "").startswith(start)
        )

    async def _found(
        self, channel: Any, what: str, matches: Callable[[discord.Message], bool]
    ) -> bool:
        """Whether one of the channel's latest messages is the bot's and `matches` (where
        the bot may not read the channel's history, it posts rather than stay silent)."""
        me = self.bot.user.id
        try:
            async for message in channel.history(limit=RECENT_POSTS):
                if message.author.id == me and matches(message):
                    return True
        except discord.HTTPException:
            log.warning("cannot read channel %s to find %r; posting it", channel.id, what)
        return False

    # -- opening a round --------------------------------------------------------------------
    async def _open_round(self, tournament: Tournament, round_no: int) -> None:
        rows = [
            r
            for r in await self.store.tournament_tables(tournament.id, round_no)
            if r.state != "void"
        ]
        for row in rows:
            await self.open_table(tournament, row)
        if await self.store.set_round_status(
            tournament.id, round_no, "playing", expected="opening"
        ):
            await self._announce_round(tournament, round_no)

    async def open_table(self, tournament: Tournament, row: TournamentTable) -> None:
        """Take one table from wherever it got to up to announced; each step is recorded
        before the next, and each looks for what an interrupted earlier try made."""
        state, thread_id, table_id = row.state, row.thread_id, row.table_id
        where = (tournament.id, row.round, row.number)
        if state == "planned":
            thread = await self._find_or_make_thread(tournament, row)
            thread_id, state = thread.id, "thread"
            await self.store.update_tournament_table(*where, state=state, thread_id=thread_id)
        if state == "thread":
            assert thread_id is not None, "a table past 'planned' has its thread"
            made = await self._find_or_make_table(tournament, row, thread_id)
            table_id, state = made.id, "table"
            await self.store.update_tournament_table(*where, state=state, table_id=table_id)
        assert table_id is not None and thread_id is not None, "a table past 'thread' has both"
        if state == "table":
            table = await self.store.get_table(table_id)
            if table is not None and table.status is TableStatus.LOBBY:
                try:
                    await self.manager.start(table.id)
                except Refusal as refusal:
                    log.warning("tournament table %s did not start: %s", table.id, refusal.key)
            state = "started"
            await self.store.update_tournament_table(*where, state=state)
        if state == "started":
            await self._hand_leavers_to_ai(tournament.id, table_id)
            await self._ping(tournament, row, thread_id)
            await self.store.update_tournament_table(*where, state="announced")

    async def _find_or_make_thread(self, tournament: Tournament, row: TournamentTable) -> Any:
        names = thread_names(tournament, row.round, row.number)
        parent = await self.channel(tournament.channel_id)
        for thread in list(getattr(parent, "threads", [])):
            if thread.name in names:
                return thread
        guild = self.bot.get_guild(tournament.guild_id)
        if guild is not None:
            with contextlib.suppress(discord.HTTPException):
                for thread in await guild.active_threads():
                    if thread.name in names and thread.parent_id == parent.id:
                        return thread
        name = thread_name(tournament, row.round, row.number, self.locale(tournament))
        return await parent.create_thread(
            name=name, type=discord.ChannelType.public_thread, auto_archive_duration=10080
        )

    async def _find_or_make_table(
        self, tournament: Tournament, row: TournamentTable, thread_id: int
    ) -> Table:
        existing = await self.store.open_table_in(thread_id)
        if existing is not None:
            return existing
        names = {p.user_id: p.name for p in tournament.players}
        try:
            return await self.store.create_table(
                guild_id=tournament.guild_id,
                channel_id=thread_id,
                host_id=tournament.organiser_id,
                game=tournament.game,
                options=dict(tournament.options),
                seed=self.bot.new_seed(),
                seats=[Seat(user_id=u, name=names.get(u, str(u))) for u in row.seats],
                settings=table_settings(tournament),
            )
        except ChannelBusy as busy:
            table = await self.store.get_table(busy.table_id)
            assert table is not None
            return table

    async def _ping(self, tournament: Tournament, row: TournamentTable, thread_id: int) -> None:
        locale = self.locale(tournament)
        mentions = " ".join(f"<@{u}>" for u in row.seats)
        thread = await self.channel(thread_id)
        message = await thread.send(
            t(
                locale,
                "tournament.table_ping",
                name=tournament.name,
                round=row.round,
                table=row.number,
                game=game_name(locale, tournament.game),
                mentions=mentions,
            ),
            allowed_mentions=discord.AllowedMentions(users=True),
        )
        for user_id in row.seats:
            prefs = await self.store.get_prefs(user_id)
            if prefs.dms_closed:
                continue
            try:
                user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                reader = self.dm_locale(prefs, tournament)
                await user.send(
                    t(
                        reader,
                        "tournament.table_dm",
                        name=tournament.name,
                        round=row.round,
                        table=row.number,
                        game=game_name(reader, tournament.game),
                        link=message.jump_url,
                    )
                )
            except discord.HTTPException:
                log.info("could not DM user %s about tournament %s", user_id, tournament.id)

    async def _announce_round(self, tournament: Tournament, round_no: int) -> None:
        locale = self.locale(tournament)
        lines = [t(locale, "tournament.round_opened", name=tournament.name, round=round_no)]
        rows = await self.store.tournament_tables(tournament.id, round_no)
        for row in rows:
            if row.state == "void":
                continue
            seats = ", ".join(f"<@{u}>" for u in row.seats)
            lines.append(
                t(
                    locale,
                    "tournament.table_line",
                    table=row.number,
                    thread=row.thread_id,
                    seats=seats,
                )
            )
        for rnd in await self.store.tournament_rounds(tournament.id):
            if rnd.round != round_no:
                continue
            if rnd.byes:
                byes = ", ".join(f"<@{u}>" for u in rnd.byes)
                lines.append(t(locale, "tournament.byes", players=byes))
            if rnd.final:
                lines.insert(1, t(locale, "tournament.final_opened"))
            if rnd.deadline is not None:
                lines.append(deadline_line(locale, rnd.deadline, tournament.at_deadline))
        channel = await self.channel(tournament.channel_id)
        await channel.send(
            clip("\n".join(lines), 2000), allowed_mentions=discord.AllowedMentions(users=True)
        )

    # -- games ending --------------------------------------------------------------------------
    async def on_game(self, game: LiveGame) -> None:
        """A listener on every table change: a tournament game that ended moves its
        tournament on (in a task of its own, so the move that ended it is answered first)."""
        if game.table.status not in ENDED:
            return
        task = asyncio.create_task(self._game_ended(game.id), name=f"tournament-{game.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _game_ended(self, table_id: int) -> None:
        try:
            row = await self.store.tournament_table_of(table_id)
            if row is not None:
                await self.advance_or_later(row.tournament_id)
        except Exception:
            log.exception("tournament step after game %s failed", table_id)

    async def advance_or_later(self, tournament_id: int) -> None:
        """Move the tournament on; if Discord fails it in a way that may pass (a 5xx, a 429,
        a timeout), try again later, so that a round whose games have ended never waits
        for a restart to be closed and the next one paired (a step is safe to run again)."""
        try:
            await self.advance(tournament_id)
        except Exception as exc:
            if not transient(exc):
                raise
            log.warning("tournament %s: a step failed (%s); again later", tournament_id, exc)
            self.again.again(tournament_id)
        else:
            self.again.done(tournament_id)

    async def _advance_again(self, tournament_ids: list[Hashable]) -> None:
        if self.bot.is_closed():
            self.close()
            return
        for tournament_id in tournament_ids:
            assert isinstance(tournament_id, int)
            try:
                await self.advance_or_later(tournament_id)
            except Exception:
                log.exception("tournament step of %s failed", tournament_id)

    async def resume(self) -> None:
        """After a (re)start: arm the check-in windows and round deadlines, then finish
        whatever each running tournament of this process's shards (bot/shards.py) was
        doing."""
        await self._rearm()
        self.scheduler.start()
        self.again.start()
        for tournament in await self.store.tournaments(statuses=(TournamentStatus.RUNNING,)):
            if not self.manager.shards.serves(tournament.guild_id):
                continue  # another process runs that guild's tournaments
            try:
                if tournament.format == "round-robin" and tournament.schedule is None:
                    await self.schedule(tournament)  # started before schedules were stored
                await self.advance_or_later(tournament.id)
            except Exception:
                log.exception("could not resume tournament %s", tournament.id)

    # -- check-in and deadlines (on the scheduler) ------------------------------------------
    async def _rearm(self) -> None:
        """Every open check-in window and current round's deadline, from the store."""
        open_ones = (TournamentStatus.SIGNUP, TournamentStatus.RUNNING)
        for tournament in await self.store.tournaments(statuses=open_ones):
            if not self.manager.shards.serves(tournament.guild_id):
                continue
            if tournament.status is TournamentStatus.SIGNUP:
                self.scheduler.at(("checkin", tournament.id), tournament.checkin_until)
                continue
            rounds = await self.store.tournament_rounds(tournament.id)
            if rounds and rounds[-1].status != "done":
                key = ("deadline", tournament.id, rounds[-1].round)
                self.scheduler.at(key, rounds[-1].deadline)

    async def _due(self, keys: list[Hashable]) -> None:
        if self.bot.is_closed():
            self.close()  # a bot stopped (tests restart bots in one loop)
            return
        for key in keys:
            assert isinstance(key, tuple)
            try:
                if key[0] == "checkin":
                    await self.close_checkin(key[1])
                elif key[0] == "deadline":
                    await self.settle_round(key[1], key[2])
            except Exception:
                log.exception("tournament step %s failed", key)

    async def open_checkin(self, tournament: Tournament, organiser_id: int) -> Tournament:
        """Open the check-in window (the organiser who opens it is checked in), tell the
        players with a Check in button, and arm its end."""
        self.check_start(tournament)
        minutes = tournament.checkin_minutes or 0
        until = discord.utils.utcnow() + timedelta(minutes=minutes)
        tournament = await self.store.open_checkin(tournament.id, until)
        if tournament.player(organiser_id) is not None:
            tournament = await self.store.check_in(tournament.id, organiser_id)
        self.scheduler.at(("checkin", tournament.id), until)
        locale = self.locale(tournament)
        channel = await self.channel(tournament.channel_id)
        await channel.send(
            t(
                locale,
                "tournament.checkin_opened",
                name=tournament.name,
                minutes=minutes,
                when=discord.utils.format_dt(until, "R"),
                mentions=" ".join(f"<@{u}>" for u in tournament.playing()),
            ),
            allowed_mentions=discord.AllowedMentions(users=True),
        )
        return tournament

    async def close_checkin(self, tournament_id: int) -> None:
        """The check-in window ends (or the organiser starts early): who has not confirmed
        is dropped and told; the tournament starts with the others (too few: cancelled)."""
        self.scheduler.at(("checkin", tournament_id), None)
        tournament = await self.store.get_tournament(tournament_id)
        if tournament is None or tournament.status is not TournamentStatus.SIGNUP:
            return
        if tournament.checkin_until is None:
            return
        no_shows = [p.user_id for p in tournament.players if not p.checked_in]
        for user_id in no_shows:
            with contextlib.suppress(NotSeated, TournamentClosed):
                tournament = await self.store.leave_tournament(tournament.id, user_id)
        locale = self.locale(tournament)
        channel = await self.channel(tournament.channel_id)
        if no_shows:
            await channel.send(
                t(
                    locale,
                    "tournament.checkin_dropped",
                    name=tournament.name,
                    mentions=" ".join(f"<@{u}>" for u in no_shows),
                ),
                allowed_mentions=discord.AllowedMentions(users=True),
            )
        try:
            await self.start(tournament)
        except Refusal as refusal:
            await channel.send(
                t(locale, "tournament.checkin_too_few", name=tournament.name)
                + " "
                + t(locale, refusal.key, **refusal.fields),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await self.cancel(tournament)
        await self._refresh_signup(tournament.id)

    async def _refresh_signup(self, tournament_id: int) -> None:
        cog = self.bot.get_cog("TournamentCog")
        if cog is not None:
            await cog.refresh(tournament_id)

    async def settle_round(self, tournament_id: int, round_no: int) -> None:
        """A round's deadline passed: its unfinished tables are settled as the tournament
        says. The AI plays out every human seat at once, or the organiser is asked to set
        each table's result (`set_result`) while the games may still end by play; either
        way the round closes when its last table has a result (`advance`)."""
        tournament = await self.store.get_tournament(tournament_id)
        if tournament is None or tournament.status is not TournamentStatus.RUNNING:
            return
        rounds = await self.store.tournament_rounds(tournament_id)
        if not rounds or rounds[-1].round != round_no or rounds[-1].status == "done":
            return
        unfinished = await self._unfinished(tournament_id, round_no)
        if tournament.at_deadline == "organiser":
            await self._ask_organiser(tournament, round_no, unfinished)
        else:
            await self._ai_plays_out(tournament, round_no, unfinished)
        await self.advance(tournament_id)

    async def _unfinished(
        self, tournament_id: int, round_no: int
    ) -> list[tuple[TournamentTable, LiveGame]]:
        """The round's tables whose game is still in play, with the game."""
        found = []
        for row in await self.store.tournament_tables(tournament_id, round_no):
            live = await self.manager.fetch(row.table_id) if row.table_id else None
            if row.state != "void" and live is not None and live.table.status is TableStatus.ACTIVE:
                found.append((row, live))
        return found

    async def _ai_plays_out(
        self,
        tournament: Tournament,
        round_no: int,
        unfinished: list[tuple[TournamentTable, LiveGame]],
    ) -> None:
        """Every human seat of the unfinished tables goes to the AI, which plays out the
        remaining moves at once; each thread and the channel are told."""
        locale = self.locale(tournament)
        for row, live in unfinished:
            for seat, taken in enumerate(live.table.seats):
                if taken.user_id is not None and not taken.ai and not taken.resigned:
                    with contextlib.suppress(Refusal):
                        await self.manager.hand_to_ai(live, seat, True)
            if row.thread_id is not None:
                thread = await self.channel(row.thread_id)
                await thread.send(t(locale, "tournament.deadline_table"))
        channel = await self.channel(tournament.channel_id)
        await channel.send(
            t(
                locale,
                "tournament.deadline_passed",
                name=tournament.name,
                round=round_no,
                tables=len(unfinished),
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def _ask_organiser(
        self,
        tournament: Tournament,
        round_no: int,
        unfinished: list[tuple[TournamentTable, LiveGame]],
    ) -> None:
        """Nothing goes to the AI: each unfinished table's thread is told the organiser will
        decide, and the organiser is pinged in the channel with the tables and how to settle
        them. Said once: a deadline that fires again after a restart finds its posts."""
        if not unfinished:
            return
        locale = self.locale(tournament)
        note = t(locale, "tournament.deadline_table_organiser")
        for row, _ in unfinished:
            if row.thread_id is not None:
                thread = await self.channel(row.thread_id)
                if not await self._said(thread, note):
                    await thread.send(note, allowed_mentions=discord.AllowedMentions.none())
        heading = t(
            locale,
            "tournament.deadline_decide",
            organiser=f"<@{tournament.organiser_id}>",
            name=tournament.name,
            round=round_no,
        )
        channel = await self.channel(tournament.channel_id)
        if await self._said(channel, heading):
            return
        lines = [heading]
        lines += [
            t(
                locale,
                "tournament.table_line",
                table=row.number,
                thread=row.thread_id,
                seats=", ".join(f"<@{u}>" for u in row.seats),
            )
            for row, _ in unfinished
        ]
        lines.append(t(locale, "tournament.deadline_decide_how"))
        organiser = discord.Object(tournament.organiser_id)
        await channel.send(
            clip("\n".join(lines), 2000),
            allowed_mentions=discord.AllowedMentions(users=[organiser]),
        )

    # -- the organiser's result -----------------------------------------------------------------
    async def set_result(
        self,
        tournament: Tournament,
        row: TournamentTable,
        ranks: Sequence[int] | None,
        forfeits: Sequence[int],
        reason: str,
        organiser_id: int,
    ) -> tuple[int, ...]:
        """Finish the table's game with the organiser's ranks (or, with forfeits only: the
        other seats by their points now, the forfeited seats after them), keep the decision
        and tell the thread and the channel. Returns the ranks by seat."""
        live = await self.manager.fetch(row.table_id) if row.table_id else None
        if live is None or live.table.status is not TableStatus.ACTIVE:
            raise Refusal("tournament.result_ended")
        scores = await self._scores_now(live)
        if ranks is None:
            order = sorted(
                range(len(scores)), key=lambda seat: (seat in forfeits, -scores[seat], seat)
            )
            ranks = ranks_from_order(order)
        final = FinalResult(tuple(scores), tuple(ranks), tuple({} for _ in scores))
        try:
            await self.store.finish_table(live.id, final)
        except StoreError:
            raise Refusal("tournament.result_ended") from None
        decided = TournamentResult(
            tournament.id,
            live.id,
            tuple(ranks),
            tuple(forfeits),
            reason,
            organiser_id,
            discord.utils.utcnow(),
        )
        await self.store.record_tournament_result(decided)
        await self.manager.changed_elsewhere(live.id)  # the game leaves play everywhere
        await self._announce_result(tournament, row, decided)
        await self.advance(tournament.id)
        return decided.ranks

    async def _scores_now(self, live: LiveGame) -> tuple[int, ...]:
        score = points_now(live.table.game)
        if score is None:
            return (0,) * len(live.table.seats)
        return tuple(int(score(live.state, seat)) for seat in range(len(live.table.seats)))

    async def _announce_result(
        self, tournament: Tournament, row: TournamentTable, decided: TournamentResult
    ) -> None:
        locale = self.locale(tournament)
        order = sorted(range(len(row.seats)), key=lambda seat: decided.ranks[seat])
        places = " · ".join(f"{decided.ranks[s]}. <@{row.seats[s]}>" for s in order)
        text = t(
            locale,
            "tournament.result_set",
            name=tournament.name,
            round=row.round,
            table=row.number,
            reason=clip(decided.reason, 200),
            places=places,
        )
        none = discord.AllowedMentions.none()
        for place in {row.thread_id, tournament.channel_id} - {None}:
            assert place is not None
            target = await self.channel(place)
            await target.send(clip(text, 2000), allowed_mentions=none)

    # -- leaving, replacing, re-pairing, cancelling ----------------------------------------------
    async def current_table(
        self, tournament: Tournament, user_id: int
    ) -> tuple[TournamentTable, Table] | None:
        for row in await self.store.tournament_tables(tournament.id, tournament.round):
            if row.state == "void" or user_id not in row.seats or row.table_id is None:
                continue
            table = await self.store.get_table(row.table_id)
            if table is not None and table.status is TableStatus.ACTIVE:
                return row, table
        return None

    async def withdraw(self, tournament: Tournament, user_id: int, status: str) -> None:
        """Drop (by the player) or remove (by the organiser): no later rounds, and their
        seat in a running game of the tournament goes to the AI (`good`, as any resigned
        seat), which plays it out; it ranks last. A game of a round still opening does the
        same as it starts (`open_table`)."""
        await self.store.set_player_status(tournament.id, user_id, status, round=tournament.round)
        current = await self.current_table(tournament, user_id)
        if current is not None:
            await self._hand_leavers_to_ai(tournament.id, current[1].id)
        await self.advance(tournament.id)

    async def _hand_leavers_to_ai(self, tournament_id: int, table_id: int) -> None:
        """Resign the seats of the game's players who left the tournament (read afresh from
        the store: one may drop while their table is being opened)."""
        tournament = await self.store.get_tournament(tournament_id)
        live = await self.manager.fetch(table_id)
        if tournament is None or live is None:
            return
        for seat, taken in enumerate(live.table.seats):
            player = tournament.player(taken.user_id or 0)
            if player is None or player.status == "playing" or taken.resigned:
                continue
            with contextlib.suppress(Refusal):
                await self.manager.resign(live, seat)

    async def has_moved(self, tournament: Tournament, user_id: int) -> bool:
        """Whether the player has made a move of their own (not the AI for them) in a game
        of the tournament; their table-mates' moves do not count."""
        for row in await self.store.tournament_tables(tournament.id):
            if row.state == "void" or user_id not in row.seats or row.table_id is None:
                continue
            table = await self.store.get_table(row.table_id)
            seat = table.seat_of(user_id) if table is not None else None
            if seat is not None and await self._seat_moved(row.table_id, seat):
                return True
        return False

    async def _seat_moved(self, table_id: int, seat: int) -> bool:
        """Whether a person moved for the seat (the AI's moves and timeouts are no one's)."""
        return any(
            a.seat == seat and a.user_id is not None for a in await self.store.actions(table_id)
        )

    async def replace(self, tournament: Tournament, old: int, new: int, name: str) -> None:
        """Another user takes the place of a player who has made no move yet, in the
        tournament and in the game they sit at now."""
        if await self.has_moved(tournament, old):
            raise Refusal("tournament.has_played", user=f"<@{old}>")
        current = await self.current_table(tournament, old)
        if current is not None:
            _, table = current
            seat = table.seat_of(old)
            assert seat is not None
            updated = await self.store.replace_seat_user(table.id, seat, old, new, name)
            self.manager.note_table(updated)
            await self._show_to_newcomer(table.id)
        await self.store.replace_player(tournament.id, old, new, name)

    async def _show_to_newcomer(self, table_id: int) -> None:
        """The table shown afresh, as after `/reopen`: a newcomer to an awaited seat is
        mentioned and sent their turn (the display had told the player they replace)."""
        game = await self.manager.fetch(table_id)
        display = getattr(self.bot, "display", None)
        if game is not None and display is not None:
            await display.show_afresh(game)

    async def repair(self, tournament: Tournament) -> None:
        """Seat the current round again (after players left or were replaced), while no
        player has moved in its games (the AI playing a removed player's seat may have)."""
        async with self.lock(tournament.id):
            round_no = tournament.round
            rows = [
                r
                for r in await self.store.tournament_tables(tournament.id, round_no)
                if r.state != "void"
            ]
            for row in rows:
                if row.table_id is None:
                    continue
                table = await self.store.get_table(row.table_id)
                finished = table is not None and table.status is TableStatus.FINISHED
                if finished or await self._anyone_moved(row.table_id):
                    raise Refusal("tournament.round_started")
            for row in rows:
                live = await self.manager.fetch(row.table_id) if row.table_id else None
                if live is not None:
                    with contextlib.suppress(Refusal):
                        await self.manager.abandon(live)
                elif row.table_id is not None:
                    with contextlib.suppress(Exception):
                        await self.store.cancel_lobby(row.table_id)
            await self.store.void_round_tables(tournament.id, round_no)
            numbers = [
                r.number for r in await self.store.tournament_tables(tournament.id, round_no)
            ]
            fresh = await self._pair(tournament, round_no)
            await self.store.add_round(
                tournament.id,
                round_no,
                list(fresh.tables),
                fresh.byes,
                first_number=max(numbers, default=0) + 1,
            )
        await self.advance(tournament.id)

    async def _end_table(self, table_id: int) -> bool:
        """Abandon the game in play at the table (a game not started yet is cancelled):
        whether there was a game to end."""
        live = await self.manager.fetch(table_id)
        if live is None:
            with contextlib.suppress(StoreError):
                await self.store.cancel_lobby(table_id)
            return False
        try:
            await self.manager.abandon(live)
        except Refusal:
            return False  # it ended meanwhile
        return True

    async def _anyone_moved(self, table_id: int) -> bool:
        return any(a.user_id is not None for a in await self.store.actions(table_id))

    async def cancel(self, tournament: Tournament) -> None:
        """End the tournament: its games still running are abandoned (so not rated, and
        their clocks stop), and the channel and each of their threads are told."""
        async with self.lock(tournament.id):
            await self.store.end_tournament(tournament.id, TournamentStatus.CANCELLED)
            locale = self.locale(tournament)
            for row in await self.store.tournament_tables(tournament.id):
                if row.state == "void" or row.table_id is None:
                    continue
                if await self._end_table(row.table_id) and row.thread_id is not None:
                    thread = await self.channel(row.thread_id)
                    note = t(locale, "tournament.cancelled_table", name=tournament.name)
                    await thread.send(note, allowed_mentions=discord.AllowedMentions.none())
            channel = await self.channel(tournament.channel_id)
            await channel.send(
                t(locale, "tournament.cancelled_post", name=tournament.name),
                allowed_mentions=discord.AllowedMentions.none(),
            )
