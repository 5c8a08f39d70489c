"""The game review (games/ai/review.py) on the four real games, at a tiny fixed budget
(playouts counted, not timed, so every run gives the same figures): its estimates come from
the reviewed seat's information only, its preferred answers are legal, each seat's costliest
moves come costliest first, and a review cut into chunks (as the bot's worker runs it) is
the same review."""

from __future__ import annotations

import random

import pytest

from meeple_hall import games
from meeple_hall.games.ai import levels, mcts, review
from meeple_hall.games.core import Action

REAL_GAMES = ("burgundy", "coffee", "keyflower", "village")


def one_in_the_default_run(kept: str) -> list:
    """The real games: `kept` in the default run, the others in the slow part (the same
    property on each game; seconds a game)."""
    return [g if g == kept else pytest.param(g, marks=pytest.mark.slow) for g in REAL_GAMES]


TINY = review.Budget(think=30.0, iterations=3, rounds=2, horizon=2)


def played(game_id: str, players: int, seed: int, moves: int | None = None):
    """Moves of a game between a good player (seat 0) and random ones, from its setup, to
    its end or for `moves` moves."""
    engine = games.get(game_id)
    state = engine.new(players, seed, {})
    good, rng = levels.good_policy(game_id), random.Random(seed)
    log: list[review.Move] = []
    while not engine.result(state) and (moves is None or len(log) < moves):
        decision = engine.decisions(state)[0]
        if decision.seat == 0:
            answer = tuple(good(state, decision, rng))
        else:
            answer = levels.random_answer(decision, rng)
        log.append((decision.seat, answer))
        state = mcts.step(engine, state, decision, answer)
    return engine, state, log


def own_view(engine, state, seat: int) -> dict:
    """The seat's view but the event log and the status line that tells its latest event
    (the AI's determinizations keep no log: `levels.determinized`)."""
    return {k: v for k, v in engine.view(state, seat).items() if k not in ("log", "status")}


@pytest.mark.parametrize("game_id", one_in_the_default_run("keyflower"))
def test_the_estimates_come_from_the_seats_own_information(game_id):
    """Two games that differ only in what the seat cannot see (the other hands, the draws
    to come) get the same review of the seat's decision; one it can see differs."""
    engine, state, log = played(game_id, 3, seed=11, moves=30)
    seat = next(d.seat for d in engine.decisions(state) if mcts.only_answer(d) is None)
    decision = levels.decision_for(engine, state, seat)
    other = levels.determinized(engine, state, seat, 987)
    assert engine.dump(other) != engine.dump(state)  # another seat's secrets, other draws
    assert own_view(engine, other, seat) == own_view(engine, state, seat)
    answer = (decision.options[-1].id,)
    reviews = [
        review.Reviewer(engine, 5, TINY).decision(s, len(log), seat, answer) for s in (state, other)
    ]
    assert reviews[0] == reviews[1]
    assert reviews[0] is not None and reviews[0].choices == answer
    # and what the seat cannot see matters: played out on the true games themselves, the
    # same answer ends differently (a review that read them would tell them apart)
    # (Coffee Traders at this point: both games end alike, so it shows nothing there)
    if game_id != "coffee":
        reviewer = review.Reviewer(engine, 5, TINY)
        ends = {reviewer.playout(s, seat, answer, 5000, seed=1) for s in (state, other)}
        assert len(ends) == 2


@pytest.mark.parametrize("game_id", one_in_the_default_run("village"))
def test_preferred_answers_are_legal_and_costliest_moves_come_first(game_id):
    engine, _, log = played(game_id, 2, seed=3, moves=20 if game_id == "coffee" else 40)
    setup = engine.new(2, 3, {})
    reviews, index, _ = review.review_moves(engine, setup, log, 0, frozenset({0, 1}), TINY, 3)
    assert index == len(log) and reviews
    state = setup
    by_index = {m.index: m for m in reviews}
    for position, (seat, choices) in enumerate(log):
        decision = levels.decision_for(engine, state, seat)
        if position in by_index:
            move = by_index[position]
            assert (move.seat, move.choices) == (seat, choices)
            assert mcts.is_legal(decision, move.preferred)
            if move.preferred == move.choices:
                assert move.cost == 0
        else:
            assert mcts.only_answer(decision) is not None  # only forced steps are skipped
        state = engine.apply(state, Action(seat, choices))
    summary = review.summarize(game_id, 2, reviews, frozenset({0, 1}), None, TINY.think)
    costly = [m for seat in summary.seats for m in seat.costliest]
    assert costly, "random play never cost a point"
    for seat in summary.seats:
        costs = [m.cost for m in seat.costliest]
        assert costs == sorted(costs, reverse=True) and len(costs) <= review.SHOWN
        assert all(
            c >= review.COST_FLOOR and m.seat == seat.seat
            for c, m in zip(costs, seat.costliest, strict=True)
        )
        own = sorted((m.cost for m in reviews if m.seat == seat.seat), reverse=True)
        assert costs == [c for c in own if c >= review.COST_FLOOR][: review.SHOWN]
        gains = [m.gain for m in seat.best]
        assert gains == sorted(gains, reverse=True) and all(g > 0 for g in gains)


def test_a_review_in_chunks_is_the_whole_review():
    # 18 moves: whole chunks of 5 and a short one (32 before, in chunks of 7: the same
    # chunking, twice the processor time)
    engine, state, log = played("keyflower", 2, seed=8, moves=18)
    seats = frozenset({0, 1})
    whole = review.review_game("keyflower", 2, 8, {}, log, seats, TINY)
    total, dump = review.prepare("keyflower", 2, 8, {}, log, seats)
    assert total == len(whole.moves) > 10
    chunks, start = [], 0
    while start < len(log):
        reviews, start, dump = review.review_chunk("keyflower", dump, log, start, seats, TINY, 8, 5)
        assert len(reviews) <= 5
        chunks += reviews
    assert tuple(chunks) == whole.moves
    assert dump == engine.dump(state)


def test_the_moves_made_for_a_seat_are_not_its_player_s():
    """The AI's moves for a seat (after its player resigned, on a timeout) are not reviewed
    as the player's: the moves it reviews are the player's own only."""
    engine, _, log = played("keyflower", 2, seed=8, moves=20)
    seats = frozenset({0, 1})
    made_for = frozenset(i for i, (seat, _) in enumerate(log) if seat == 1 and i >= 10)
    setup = engine.new(2, 8, {})
    everyone = review.reviewed_decisions(engine, setup, log, seats)
    own = review.reviewed_decisions(engine, setup, log, seats, made_for)
    assert 0 < own < everyone
    total, dump = review.prepare("keyflower", 2, 8, {}, log, seats, made_for)
    reviews, _, _ = review.review_chunk("keyflower", dump, log, 0, seats, TINY, 8, 99, made_for)
    assert total == own == len(reviews)
    assert not {m.index for m in reviews} & made_for


def test_solo_margins_are_scores_and_the_leader_after_the_first_period():
    assert review.margin([41.0], 0) == 41.0
    assert review.margin([30, 34, 20], 1) == 4.0 and review.margin([30, 34, 20], 2) == -14.0

    def move(index: int, seat: int, period: int, after: float) -> review.MoveReview:
        return review.MoveReview(index, seat, period, ("a",), ("a",), after, after, after)

    moves = [move(0, 0, 1, 5.0), move(1, 1, 1, -5.0), move(2, 0, 1, -2.0), move(3, 1, 1, 2.0)]
    moves.append(move(4, 0, 2, 9.0))
    done = review.summarize("village", 2, moves, frozenset({0, 1}), None, 1.0)
    assert review.leader_after(done) == 1  # the last estimates of period 1: -2 against +2
    assert (
        review.leader_after(review.summarize("village", 2, moves[:1], frozenset({0}), None, 1.0))
        is None
    )


def test_the_budget_fits_a_game_into_its_time():
    assert review.think_for(412) == pytest.approx(review.GAME_SECONDS / 412)
    assert review.think_for(3) == review.MAX_THINK and review.think_for(10**6) == review.MIN_THINK
