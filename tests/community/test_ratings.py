"""Ratings: the model choice, what counts as rated, and the projection rebuilt from history
equal to the same games applied one at a time."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import openskill
from openskill.models import BradleyTerryFull, PlackettLuce

from meeple_hall.bot.ratings import MODEL, RatingBook, is_rated, rebuild, shown
from meeple_hall.bot.store import ResultRow

START = datetime(2026, 1, 1, tzinfo=UTC)


def game(
    table_id: int, users: list[int | None], ranks: list[int], when: datetime, **kw
) -> list[ResultRow]:
    return [
        ResultRow(
            table_id=table_id,
            game="pebbles",
            guild_id=kw.get("guild", 1),
            seat=seat,
            user_id=user,
            score=10 - rank,
            rank=rank,
            resigned=False,
            finished_at=when,
            breakdown={},
        )
        for seat, (user, rank) in enumerate(zip(users, ranks, strict=True))
    ]


def test_pinned_openskill_still_misrates_tied_winners_with_plackett_luce():
    """openskill issue #155 on the pinned version: with two tied winners at four, the third
    place gains as much as the winners under Plackett-Luce; Bradley-Terry (ours) ranks them."""
    assert openskill.__version__ == "6.2.0"
    pl = PlackettLuce()
    rated = pl.rate([[pl.rating()] for _ in range(4)], ranks=[1, 1, 3, 4])
    assert rated[2][0].mu == rated[0][0].mu  # the flaw: third is rated like the winners
    assert isinstance(MODEL, BradleyTerryFull)
    ours = MODEL.rate([[MODEL.rating()] for _ in range(4)], ranks=[1, 1, 3, 4])
    mus = [team[0].mu for team in ours]
    assert mus[0] == mus[1] > mus[2] > mus[3]


def test_new_players_show_zero_and_winners_go_up():
    assert round(shown(MODEL.mu, MODEL.sigma), 9) == 0
    book = rebuild(game(1, [10, 20, 30], [1, 2, 3], START))
    assert book.players[10].shown > book.players[20].shown > book.players[30].shown
    assert book.changes[1][10].delta > 0 and book.players[10].wins == 1


def test_what_is_rated():
    assert is_rated(game(1, [1, 2], [1, 2], START))
    assert not is_rated(game(1, [1, None], [1, 2], START))  # an AI seat from the start
    assert not is_rated(game(1, [1], [1], START))  # one human
    assert not is_rated(game(1, [1, 1], [1, 2], START))  # one human in two seats
    assert not is_rated(game(1, [1, 2], [1, 2], START), unrated=frozenset({1}))  # rated=no


def test_rebuilt_projection_equals_incremental_updates():
    rng = random.Random(7)
    rows: list[ResultRow] = []
    for table_id in range(1, 301):
        users = rng.sample(range(1, 25), rng.randint(2, 5))
        ranks = sorted(rng.randint(1, len(users)) for _ in users)
        if rng.random() < 0.1:
            users[0] = None  # type: ignore[call-overload]
        rows += game(table_id, users, ranks, START + timedelta(minutes=table_id))
    unrated = frozenset({5, 50})
    whole = rebuild(rows, unrated)
    step = RatingBook()
    for table_id in range(1, 301):
        step.apply_all([r for r in rows if r.table_id == table_id], unrated)
        step.apply_all([r for r in rows if r.table_id == table_id], unrated)  # seen: ignored
    assert set(whole.players) == set(step.players)
    for user, player in whole.players.items():
        other = step.players[user]
        assert (player.mu, player.sigma, player.games, player.wins) == (
            other.mu,
            other.sigma,
            other.games,
            other.wins,
        )
    assert 5 not in whole.changes and 50 not in whole.changes
    assert whole.leaderboard() == step.leaderboard()
    assert all(p.games >= 5 for _, p in whole.leaderboard())
