"""Ratings: a projection of the results table through OpenSkill, never a running total.

`RatingBook` is one scope's ratings (one game, on one server or across all of them),
built by applying rated games oldest first; `rebuild` makes one from history in a single
call, and `Ratings` keeps a book per (game, scope) and applies only the games finished
since it last looked, so asking again is cheap. Rebuilding from scratch gives the same
book as applying games one by one (a test holds both to that).

The model is Bradley-Terry with full pairing (`BradleyTerryFull`). OpenSkill's default,
Plackett-Luce, mis-rates tied winners (openskill issue #155, still so in 6.2.0): with two
players tied for first at a four-player table, the third place gains exactly as much as
the winners (a test checks this on the pinned version). Bradley-Terry compares every pair
of seats, so a shared first place ranks above third and a tie leaves both tied players
alike; Thurstone-Mosteller behaves as well but moves ratings about twice as far per game,
too jumpy for small servers. The stored ranks already carry each game's own tie-breaks,
and resigned seats (or seats handed to the AI) are ranked last there, so ranks are used
as they are.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from itertools import groupby

from openskill.models import BradleyTerryFull

from meeple_hall.bot.store import ResultRow, Store, Table
from meeple_hall.bot.table_settings import TableSetting, declare, value

MODEL = BradleyTerryFull()
MIN_GAMES_LISTED = 5  # a player is on a leaderboard after this many rated games
GLOBAL = None  # the scope of a rating across every server

# The host may mark a lobby unrated (`rated=no`): its game is left out of every rating.
RATED = declare(TableSetting("rated", ("yes", "no"), "yes"))


@dataclass
class PlayerRating:
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    wins: int = 0
    # (when, shown rating after that game), oldest first
    history: list[tuple[datetime, float]] = field(default_factory=list)

    @property
    def shown(self) -> float:
        """The conservative rating: mu − 3σ (0 for a new player)."""
        return shown(self.mu, self.sigma)


def shown(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


@dataclass(frozen=True)
class Change:
    before: float
    after: float

    @property
    def delta(self) -> float:
        return self.after - self.before


def is_rated(rows: list[ResultRow], unrated: frozenset[int] = frozenset()) -> bool:
    """A finished game counts when at least two humans sat down, no seat was the AI's from
    the start and the host did not mark it unrated. Abandoned games have no rows."""
    if not rows or rows[0].table_id in unrated:
        return False
    return _humans_only([row.user_id for row in rows])


def table_is_rated(table: Table) -> bool:
    """Whether the game at this table will count in ratings once it is finished (the rule
    of `is_rated`, read from the table itself)."""
    return value(table, RATED.id) != "no" and _humans_only([s.user_id for s in table.seats])


def _humans_only(user_ids: list[int | None]) -> bool:
    """Every seat a human's from the start (None: an AI seat), and at least two humans."""
    return None not in user_ids and len(set(user_ids)) >= 2


@dataclass
class RatingBook:
    players: dict[int, PlayerRating] = field(default_factory=dict)
    changes: dict[int, dict[int, Change]] = field(default_factory=dict)  # table -> user -> change
    applied: set[int] = field(default_factory=set)  # table ids seen (rated or not)
    latest: datetime | None = None

    def apply(self, rows: list[ResultRow], unrated: frozenset[int] = frozenset()) -> bool:
        """Apply one finished game (all its rows); False if it is not rated or seen already."""
        table_id = rows[0].table_id
        if table_id in self.applied:
            return False
        self.applied.add(table_id)
        when = rows[0].finished_at
        self.latest = when if self.latest is None else max(self.latest, when)
        if not is_rated(rows, unrated):
            return False
        seats = sorted(rows, key=lambda r: r.seat)
        before = [self.players.setdefault(r.user_id, PlayerRating()) for r in seats]  # type: ignore[arg-type]
        teams = [[MODEL.rating(mu=p.mu, sigma=p.sigma)] for p in before]
        rated = MODEL.rate(teams, ranks=[float(r.rank) for r in seats])
        changes: dict[int, Change] = {}
        for row, player, (new,) in zip(seats, before, rated, strict=True):
            old = player.shown
            player.mu, player.sigma = new.mu, new.sigma
            player.games += 1
            player.wins += row.rank == 1
            player.history.append((when, player.shown))
            changes[row.user_id] = Change(old, player.shown)  # type: ignore[index]
        self.changes[table_id] = changes
        return True

    def apply_all(self, rows: Iterable[ResultRow], unrated: frozenset[int] = frozenset()) -> None:
        """Apply games given as rows ordered by finish time (then table, then seat)."""
        for _, game_rows in groupby(rows, key=lambda r: r.table_id):
            self.apply(list(game_rows), unrated)

    def leaderboard(self, min_games: int = MIN_GAMES_LISTED) -> list[tuple[int, PlayerRating]]:
        """Players with enough rated games, best first (ties: more games, then user id)."""
        return _best_first((u, p) for u, p in self.players.items() if p.games >= min_games)

    def provisional(self, min_games: int = MIN_GAMES_LISTED) -> list[tuple[int, PlayerRating]]:
        """Players with some rated games but fewer than `min_games`, best first: listed
        after the established ones."""
        return _best_first((u, p) for u, p in self.players.items() if p.games < min_games)

    def standings(self, min_games: int = MIN_GAMES_LISTED) -> list[tuple[int, PlayerRating]]:
        """Everyone with a rated game: the established players, then the provisional."""
        return self.leaderboard(min_games) + self.provisional(min_games)

    def place_of(self, user_id: int, min_games: int = MIN_GAMES_LISTED) -> int | None:
        """The user's place in `standings` (None without a rated game)."""
        for place, (user, _) in enumerate(self.standings(min_games), start=1):
            if user == user_id:
                return place
        return None


def _best_first(
    players: Iterable[tuple[int, PlayerRating]],
) -> list[tuple[int, PlayerRating]]:
    return sorted(players, key=lambda item: (-item[1].shown, -item[1].games, item[0]))


def rebuild(rows: Iterable[ResultRow], unrated: frozenset[int] = frozenset()) -> RatingBook:
    """The one way ratings are made: every game in `rows`, oldest first."""
    book = RatingBook()
    ordered = sorted(rows, key=lambda r: (r.finished_at, r.table_id, r.seat))
    book.apply_all(ordered, unrated)
    return book


class Ratings:
    """Books per (game, scope), kept up to date from the store on demand."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._books: dict[tuple[str, int | None], RatingBook] = {}
        self._locks: dict[tuple[str, int | None], asyncio.Lock] = {}

    async def book(self, game: str, guild_id: int | None) -> RatingBook:
        key = (game, guild_id)
        async with self._locks.setdefault(key, asyncio.Lock()):
            book = self._books.get(key)
            unrated = frozenset(
                await self.store.tables_with_setting(game=game, name="rated", value="no")
            )
            if book is None:
                rows = await self.store.results_since(game=game, guild_id=guild_id)
                book = rebuild(rows, unrated)
            else:
                rows = await self.store.results_since(
                    game=game, guild_id=guild_id, since=book.latest
                )
                book.apply_all((r for r in rows if r.table_id not in book.applied), unrated)
                if len(book.applied) != await self.store.count_results(
                    game=game, guild_id=guild_id
                ):
                    # A game stamped before the latest one applied (another process's
                    # clock): order matters, so start again from history.
                    rows = await self.store.results_since(game=game, guild_id=guild_id)
                    book = rebuild(rows, unrated)
            self._books[key] = book
            return book

    async def changes_for(
        self, table_id: int, game: str, guild_id: int | None
    ) -> dict[int, Change]:
        """How the game changed each player's rating on its server (empty if not rated)."""
        book = await self.book(game, guild_id)
        return book.changes.get(table_id, {})
