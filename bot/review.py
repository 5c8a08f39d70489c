"""`/review` behind the scenes: reviews of ended games run in a worker process of their own,
queued behind live play, and told in the reader's language.

- The queue (`Reviews`): one worker process, started on first use and run at a lower
  priority (`nice`) than the bot and its AI workers, so a review never slows a live game's
  AI moves; one review at a time per server; a second request for a game under review
  waits for the first and gets its result; finished reviews are kept by table id (in
  memory: a restart reviews again). The worker reviews a chunk of `CHUNK` decisions at a
  time (games/ai/review.py: `review_chunk`), and those listening are told the progress
  between chunks.
- The words (`review_text`): per reviewed seat (those a person sat at), their costliest
  moves (what they did, what the search preferred, the estimated difference) and what went
  well, each move told with the game's presenter (`panels.chosen_text`) in the reader's
  language; and the turning points the chart marks.
- The pictures (`chart_png`, `breakdown_png`, drawn by renderers/review.py).

What a review shows was the seat's to know: every estimate is made from the seat's own
information (games/ai/review.py) and the preferred answer is one of the seat's own options;
the choices themselves are shown because the game has ended (bot/move_shown.py).
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from meeple_hall import games
from meeple_hall.bot import ai
from meeple_hall.bot.components import Components, button, clip
from meeple_hall.bot.i18n import game_name, game_text, t
from meeple_hall.bot.panels import chosen_text
from meeple_hall.bot.replay import GameLine
from meeple_hall.bot.store import LoggedAction, Table
from meeple_hall.games.ai import pool
from meeple_hall.games.ai import review as reviewing
from meeple_hall.games.ai.review import Budget, Move, MoveReview, Review
from meeple_hall.games.core.catalogues import in_score_order, score_category
from meeple_hall.games.core.undo import standing
from meeple_hall.renderers import review as pictures

log = logging.getLogger(__name__)

CHUNK = 8  # decisions reviewed per job sent to the worker (progress is told between them)
KEPT = 64  # finished reviews kept in memory
NICENESS = 10  # the worker's lower priority
TURNING_POINTS = 3
EMBED_TEXT_MAX = 1024  # an embed field's value
Progress = Callable[[int, int], Awaitable[None]]


def reviewed_seats(table: Table) -> frozenset[int]:
    """The seats a person sat at: their decisions are reviewed (an AI's are not)."""
    return frozenset(i for i, seat in enumerate(table.seats) if seat.user_id is not None)


def reviewable_game(game_id: str) -> bool:
    """Whether the game has the `strong` player a review searches with."""
    return "strong" in ai.levels_for(game_id)


def review_buttons(table: Table, locale: str) -> Components:
    """The final-scores message's Review button (none for a game of AI seats only, nor for a
    game without the strong player)."""
    view = Components()
    if reviewed_seats(table) and reviewable_game(table.game):
        view.add_item(button(f"rv:{table.id}", t(locale, "review.button"), emoji="🔍"))
    return view


def budget_for(total: int) -> Budget:
    """A decision's budget for a game of `total` decisions to review: about
    `reviewing.GAME_SECONDS` for the game."""
    return Budget(reviewing.think_for(total))


class ReviewWorker(pool.Workers):
    """The one process reviews run in, at a lower priority than everything else. What it
    runs, its first step included (`pool.start_worker`), is in games/ai/: a spawned worker
    imports the module of every function it is given, and none of those imports discord.py,
    aiohttp or the store (issues 27 and 29)."""

    def __init__(self) -> None:
        super().__init__(max_workers=1, niceness=NICENESS)


@dataclass
class Job:
    """A review under way, and who waits for its progress."""

    listeners: list[Progress] = field(default_factory=list)
    task: asyncio.Task[Review] | None = None
    done: int = 0
    total: int = 0

    async def tell(self) -> None:
        for listener in list(self.listeners):
            try:
                await listener(self.done, self.total)
            except discord.HTTPException as exc:  # an edit that failed: the review goes on
                log.warning("could not show a review's progress: %s", exc)


class Reviews:
    def __init__(self, budget: Callable[[int], Budget] = budget_for, chunk: int = CHUNK) -> None:
        self.budget = budget
        self.chunk = chunk
        self.worker = ReviewWorker()
        self.finished: OrderedDict[int, Review] = OrderedDict()
        self.jobs: dict[int, Job] = {}
        self._servers: dict[int, asyncio.Lock] = {}

    def cached(self, table_id: int) -> Review | None:
        return self.finished.get(table_id)

    async def review(self, table: Table, log: list[LoggedAction], progress: Progress) -> Review:
        """The table's review: kept, under way (then waited for), or made now."""
        found = self.finished.get(table.id)
        if found is not None:
            return found
        job = self.jobs.get(table.id)
        if job is None:
            job = self.jobs[table.id] = Job()
            job.task = asyncio.create_task(self._make(table, log, job), name=f"review-{table.id}")
            job.task.add_done_callback(lambda _: self.jobs.pop(table.id, None))
        job.listeners.append(progress)
        if job.total:
            await progress(job.done, job.total)
        assert job.task is not None
        return await asyncio.shield(job.task)

    async def _make(self, table: Table, log: list[LoggedAction], job: Job) -> Review:
        counted = standing(log)
        moves: list[Move] = [(m.seat, tuple(m.choices)) for m in counted]
        # The AI's moves for a seat (after a resignation, on a timeout) are not the player's.
        made_for = frozenset(i for i, m in enumerate(counted) if m.user_id is None)
        seats = reviewed_seats(table)
        players = len(table.seats)
        loop = asyncio.get_running_loop()
        server = self._servers.setdefault(table.guild_id or 0, asyncio.Lock())
        async with server:  # one review at a time per server
            executor = self.worker.executor()
            began = loop.time()
            job.total, dump = await loop.run_in_executor(
                executor,
                reviewing.prepare,
                table.game,
                players,
                table.seed,
                dict(table.options),
                moves,
                seats,
                made_for,
            )
            await job.tell()
            budget = self.budget(job.total)
            reviews: list[MoveReview] = []
            start = 0
            while start < len(moves):
                found, start, dump = await loop.run_in_executor(
                    executor,
                    reviewing.review_chunk,
                    table.game,
                    dump,
                    moves,
                    start,
                    seats,
                    budget,
                    table.seed,
                    self.chunk,
                    made_for,
                )
                reviews += found
                job.done = len(reviews)
                await job.tell()
            done = reviewing.summarize(
                table.game, players, reviews, seats, None, budget.think, loop.time() - began
            )
        self.finished[table.id] = done
        while len(self.finished) > KEPT:
            self.finished.popitem(last=False)
        return done

    def close(self) -> None:
        for job in self.jobs.values():
            if job.task is not None:
                job.task.cancel()
        self.worker.shutdown()


# -- the words -------------------------------------------------------------------------------
def period_text(game_id: str, period: int, locale: str) -> str:
    """The round, season, phase or year of a move, as the game names it."""
    if game_id == "keyflower":
        return t(locale, f"review.season.{period % 4}")
    if game_id == "burgundy":
        return t(locale, "review.phase", phase="ABCDE"[period] if 0 <= period < 5 else period)
    if game_id == "coffee":
        return t(locale, "review.coffee_period", period=period)
    return t(locale, "review.round", round=period)


def points_text(points: float) -> str:
    return f"{points:.1f}"


@dataclass(frozen=True)
class Told:
    """What a review's words need besides the review: the table, and its game replayed."""

    table: Table
    line: GameLine
    locale: str

    def answer(self, move: MoveReview, answer: tuple[str, ...]) -> str:
        """An answer to the move's decision in the reader's words."""
        state = self.line.state_at(move.index)
        engine = self.line.engine
        text = chosen_text(self.table.game, engine, state, move.seat, (answer,), None, self.locale)
        return clip(text, 120)

    def where(self, move: MoveReview) -> str:
        period = period_text(self.table.game, move.period, self.locale)
        return t(self.locale, "review.where", move=move.index + 1, period=period)

    def costly(self, move: MoveReview) -> str:
        return t(
            self.locale,
            "review.costly_move",
            where=self.where(move),
            chose=self.answer(move, move.choices),
            preferred=self.answer(move, move.preferred),
            points=points_text(move.cost),
        )

    def good(self, move: MoveReview) -> str:
        return t(
            self.locale,
            "review.good_move",
            where=self.where(move),
            chose=self.answer(move, move.choices),
            points=points_text(move.gain),
        )


def game_line(table: Table, log: list[LoggedAction]) -> GameLine:
    engine = games.get(table.game)
    line = GameLine(engine, standing(log))
    line.checkpoints[0] = engine.new(len(table.seats), table.seed, table.options)
    return line


def turning_points(review: Review) -> list[MoveReview]:
    """The biggest swings of a seat's estimate from one of its moves to the next, the
    biggest first: the moves where the standing changed most."""
    swings: list[tuple[float, MoveReview]] = []
    last: dict[int, MoveReview] = {}
    for move in review.moves:
        before = last.get(move.seat)
        if before is not None:
            swings.append((abs(move.after - before.after), move))
        last[move.seat] = move
    swings.sort(key=lambda s: (-s[0], s[1].index))
    return [move for _, move in swings[:TURNING_POINTS]]


def review_embeds(told: Told, review: Review) -> list[discord.Embed]:
    """One embed per reviewed seat: its costliest moves and what went well."""
    table, locale = told.table, told.locale
    embeds = []
    for seat in review.seats:
        colour = discord.Colour.from_rgb(*pictures.seat_colour(table.game, seat.seat))
        embed = discord.Embed(title=clip(table.seats[seat.seat].name, 256), colour=colour)
        costly = "\n".join(told.costly(m) for m in seat.costliest)
        embed.add_field(
            name=t(locale, "review.costly"),
            value=clip(costly or t(locale, "review.no_costly"), EMBED_TEXT_MAX),
            inline=False,
        )
        good = "\n".join(told.good(m) for m in seat.best)
        embed.add_field(
            name=t(locale, "review.went_well"),
            value=clip(good or t(locale, "review.no_good"), EMBED_TEXT_MAX),
            inline=False,
        )
        embeds.append(embed)
    return embeds


def review_content(told: Told, review: Review, turns: list[MoveReview]) -> str:
    """The review's heading, how to read it, and the turning points the chart numbers."""
    table, locale = told.table, told.locale
    solo = len(table.seats) == 1
    lines = [
        t(locale, "review.title", game=game_name(locale, table.game), table=table.id),
        t(locale, "review.explain_solo" if solo else "review.explain"),
    ]
    if turns:
        lines.append(t(locale, "review.turning_points"))
    for number, move in enumerate(turns, 1):
        lines.append(
            t(
                locale,
                "review.turning_point",
                number=number,
                name=table.seats[move.seat].name,
                where=told.where(move),
                points=f"{move.after:+.1f}",
            )
        )
    return clip("\n".join(lines), 2000)


def chart_png(table: Table, review: Review, turns: list[MoveReview], locale: str) -> bytes:
    series = []
    for seat in review.seats:
        points = [(m.index + 1, m.after) for m in review.moves if m.seat == seat.seat]
        colour = pictures.seat_colour(table.game, seat.seat)
        series.append(pictures.Series(table.seats[seat.seat].name, colour, points))
    marks = [
        pictures.Turn(m.index + 1, m.after, pictures.seat_colour(table.game, m.seat), n)
        for n, m in enumerate(turns, 1)
    ]
    return png(pictures.render_chart(series, marks, locale))


def breakdown_png(table: Table, locale: str) -> bytes | None:
    """Where each seat's final points came from, by scoring category (None: no result)."""
    if not table.result:
        return None
    bars = []
    for seat, breakdown in enumerate(table.result.get("breakdown") or []):
        parts = [
            (game_text(locale, score_category(table.game, category)), int(points))
            for category, points in in_score_order(table.game, breakdown)
        ]
        colour = pictures.seat_colour(table.game, seat)
        bars.append(pictures.Bar(table.seats[seat].name, colour, parts))
    return png(pictures.render_breakdown(bars, locale)) if bars else None


def png(image: Any) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


@dataclass(frozen=True)
class Shown:
    content: str
    embeds: list[discord.Embed]
    files: list[tuple[str, bytes]]  # (file name, PNG)


def shown(table: Table, log: list[LoggedAction], review: Review, locale: str) -> Shown:
    """Everything the review posts, in `locale` (run off the event loop: it replays the game
    and draws)."""
    told = Told(table, game_line(table, log), locale)
    turns = turning_points(review)
    files = [("review.png", chart_png(table, review, turns, locale))]
    breakdown = breakdown_png(table, locale)
    if breakdown is not None:
        files.append(("points.png", breakdown))
    return Shown(review_content(told, review, turns), review_embeds(told, review), files)
