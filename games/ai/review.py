"""A move-by-move review of an ended game: where each player won or lost it.

The game is replayed from its log. At each decision of a reviewed seat that offered a real
choice, the `strong` search (`mcts.search_turn`) says which answer it prefers, from that
seat's own information only: every estimate below is made on determinizations for the seat
(`levels.determinized`: another seat's hand and the draws to come are imagined, never
read). Then three one-step plans are played out on the same determinizations with the same
random numbers (common random numbers, so their differences are not luck):

- before: the good player's answer (what the seat's position was worth before it moved);
- after: the answer the seat gave;
- best: the answer the search preferred (the same plan as `after` when they agree).

After the plan's step the good player finishes the seat's turn and plays every seat to the
end of the game's phase (`evaluate.phase_for`), at most `horizon` decisions, then to the
end of the turn under way; the position is valued in points by the game's evaluation
(`evaluate.for_game`; a finished game by its scores) as the seat's margin to the best other
seat, or, solo, as its own score.

The time budget is per decision (`Budget.think`); `think_for` sizes it so that a whole game
reviews in about `GAME_SECONDS`. A review is cut into chunks (`review_moves` from a state
dump to a move number and back) so that its caller can show progress and queue it behind
other work; a decision's random numbers depend only on the game and its move number, so the
chunks do not change the result.

Pure code on the engine contract: it runs in a worker process.
"""

from __future__ import annotations

import copy
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from meeple_hall import games
from meeple_hall.games.ai import evaluate, levels, mcts
from meeple_hall.games.core import Action, Engine, Result

Answer = tuple[str, ...]
Move = tuple[int, Answer]  # (seat, choices) of one standing move of the log

GAME_SECONDS = 150.0  # a whole game's review at most about this long, on this machine
MIN_THINK, MAX_THINK = 0.12, 1.5  # seconds per decision
SEARCH_SHARE = 0.5  # of a decision's budget, for the search's preferred answer
TARGET_ROUNDS = 4  # the estimates' playouts are sized so that about this many rounds fit
MIN_ROUNDS, MAX_ROUNDS = 2, 24
FIRST_STEP_COST = 0.01  # seconds, assumed for one playout step until one is measured
MIN_HORIZON, MAX_HORIZON = 1, 400
SHOWN = 3  # costliest and best moves kept per seat
COST_FLOOR = 0.5  # points: a move that cost less is not called a costly one
PERIODS = {"keyflower": "season", "burgundy": "phase", "coffee": "period", "village": "round"}


@dataclass(frozen=True)
class Budget:
    """A decision's review budget: `think` seconds, or, for reproducible runs (tests), a
    fixed number of search playouts, estimate rounds and playout length."""

    think: float
    iterations: int | None = None
    rounds: int | None = None
    horizon: int | None = None


@dataclass(frozen=True)
class MoveReview:
    index: int  # the move's position among the game's standing moves (0-based)
    seat: int
    period: int  # the game's round, season, phase or year at the decision (`period`)
    choices: Answer  # what the seat answered
    preferred: Answer  # what the search preferred (ids of the same decision's options)
    before: float  # estimated final margin with the good player's answer
    after: float  # ... with the answer given
    best: float  # ... with the preferred answer

    @property
    def cost(self) -> float:
        """Points the answer given lost against the preferred one (estimated)."""
        return self.best - self.after

    @property
    def gain(self) -> float:
        """Points the answer given won over the good player's (estimated)."""
        return self.after - self.before


@dataclass(frozen=True)
class SeatReview:
    seat: int
    costliest: tuple[MoveReview, ...]  # the costliest first
    best: tuple[MoveReview, ...]  # the moves that gained most, the best first


@dataclass(frozen=True)
class Review:
    game_id: str
    players: int
    moves: tuple[MoveReview, ...]
    seats: tuple[SeatReview, ...]  # the reviewed seats
    result: Result | None
    think: float  # seconds per decision
    seconds: float = 0.0  # the review's own time, where it was measured
    extra: dict[str, Any] = field(default_factory=dict)


def period(game_id: str, state: Any) -> int:
    """The game's round, season (Keyflower), phase (Burgundy) or year (Coffee Traders)."""
    value = getattr(state, PERIODS.get(game_id, "round"), 0)
    return value if isinstance(value, int) else 0


def margin(scores: Sequence[float], seat: int) -> float:
    """The seat's lead over the best other seat (solo: its own score)."""
    if len(scores) == 1:
        return float(scores[0])
    return float(scores[seat]) - max(float(s) for j, s in enumerate(scores) if j != seat)


def think_for(decisions: int, seconds: float = GAME_SECONDS) -> float:
    """A decision's budget for a game with this many decisions to review."""
    return min(MAX_THINK, max(MIN_THINK, seconds / max(decisions, 1)))


def reviewed_decisions(
    engine: Engine,
    state: Any,
    moves: Sequence[Move],
    seats: frozenset[int],
    made_for: frozenset[int] = frozenset(),
) -> int:
    """How many of `moves`, played from `state`, are decisions a review weighs (a seat of
    `seats` with a real choice, not one of the moves `made_for` the seat by the AI or a
    timeout, by index); `state` is left as it was."""
    count = 0
    for index, (seat, choices) in enumerate(moves):
        decision = levels.decision_for(engine, state, seat)
        weighed = seat in seats and index not in made_for
        count += weighed and mcts.only_answer(decision) is None
        state = engine.apply(state, Action(seat, choices))
    return count


class Reviewer:
    """The estimates of one game's decisions, with what it has measured of a step's cost."""

    def __init__(self, engine: Engine, seed: int, budget: Budget) -> None:
        self.engine, self.seed, self.budget = engine, seed, budget
        self.policy = levels.good_policy(engine.id)
        self.evaluate = evaluate.for_game(engine.id)
        self.phase = evaluate.phase_for(engine.id)
        self.rated_prior = evaluate.rated_turns(engine.id)
        self.steps, self.step_seconds = 0, 0.0

    def rng(self, index: int) -> random.Random:
        return random.Random(f"review:{self.engine.id}:{self.seed}:{index}")

    def decision(self, state: Any, index: int, seat: int, choices: Answer) -> MoveReview | None:
        """The review of `seat`'s answer `choices` to its decision in `state`; None when the
        decision offered nothing to choose."""
        decision = levels.decision_for(self.engine, state, seat)
        if mcts.only_answer(decision) is not None:
            return None
        rng = self.rng(index)
        start = time.perf_counter()
        preferred = self.preferred(state, seat, rng)
        good = tuple(self.policy(self.determinized(state, seat, rng), decision, rng))
        plans = {"before": good, "after": tuple(choices), "best": preferred}
        deadline = start + self.budget.think
        values = self.estimates(state, seat, list(dict.fromkeys(plans.values())), rng, deadline)
        return MoveReview(
            index=index,
            seat=seat,
            period=period(self.engine.id, state),
            choices=tuple(choices),
            preferred=preferred,
            before=values[plans["before"]],
            after=values[plans["after"]],
            best=values[plans["best"]],
        )

    def determinized(self, state: Any, seat: int, rng: random.Random) -> Any:
        return levels.determinized(self.engine, state, seat, rng.getrandbits(63))

    def preferred(self, state: Any, seat: int, rng: random.Random) -> Answer:
        """The search's answer to the seat's decision, from the seat's information."""
        plan = mcts.search_turn(
            self.engine,
            state,
            seat,
            think=self.budget.think * SEARCH_SHARE,
            rng=rng,
            policy=self.policy,
            evaluate=self.evaluate,
            iterations=self.budget.iterations,
            horizon=self.budget.horizon,
            phase=self.phase,
            rated_prior=self.rated_prior,
        )
        return plan[0]

    def estimates(
        self, state: Any, seat: int, answers: list[Answer], rng: random.Random, deadline: float
    ) -> dict[Answer, float]:
        """Each answer's mean estimated margin over rounds of common determinizations."""
        totals: dict[Answer, list[float]] = {answer: [] for answer in answers}
        limit = self.budget.rounds or MAX_ROUNDS
        for count in range(limit):
            timed = self.budget.rounds is None and count >= MIN_ROUNDS
            if timed and time.perf_counter() >= deadline:
                break
            det = self.determinized(state, seat, rng)
            seed = rng.getrandbits(63)
            horizon = self.horizon(deadline, len(answers))
            for answer in answers:
                totals[answer].append(self.playout(det, seat, answer, horizon, seed))
        return {answer: statistics.fmean(values) for answer, values in totals.items()}

    def horizon(self, deadline: float, plans: int) -> int:
        """How far a playout goes: fixed by the budget, else sized from the measured cost of
        a step so that about `TARGET_ROUNDS` rounds fit before `deadline`."""
        if self.budget.horizon is not None:
            return self.budget.horizon
        per_step = self.step_seconds / self.steps if self.steps else FIRST_STEP_COST
        left = max(deadline - time.perf_counter(), 0.0)
        steps = left / TARGET_ROUNDS / max(plans, 1) / max(per_step, 1e-6)
        return max(MIN_HORIZON, min(MAX_HORIZON, int(steps)))

    def playout(self, det: Any, seat: int, answer: Answer, horizon: int, seed: int) -> float:
        """The seat's estimated margin after `answer` on a copy of `det`: the good player
        finishes the turn and plays every seat on, to the end of the phase, at most
        `horizon` decisions, then to the end of the turn under way."""
        start = time.perf_counter()
        rng = random.Random(seed)
        state, given = mcts.finish_turn(
            self.engine, copy.deepcopy(det), seat, (answer,), self.policy, rng
        )
        steps, last = len(given), seat
        mark = self.phase(state) if self.phase is not None else None
        for count in range(horizon + mcts.MAX_TURN_STEPS):
            pending = self.engine.decisions(state)
            if not pending:
                break
            decision = pending[0]
            phase_over = self.phase is not None and self.phase(state) != mark
            if decision.seat != last and (count >= horizon or phase_over):
                break
            last = decision.seat
            answer = tuple(self.policy(state, decision, rng))
            state = mcts.step(self.engine, state, decision, answer)
            steps += 1
        self.steps += steps
        self.step_seconds += time.perf_counter() - start
        return self.value(state, seat)

    def value(self, state: Any, seat: int) -> float:
        result = self.engine.result(state)
        scores = result.scores if result is not None else self.evaluate(state)
        return margin(scores, seat)


def review_moves(
    engine: Engine,
    state: Any,
    moves: Sequence[Move],
    start: int,
    seats: frozenset[int],
    budget: Budget,
    seed: int,
    *,
    limit: int | None = None,
    reviewed: Callable[[MoveReview], None] | None = None,
    made_for: frozenset[int] = frozenset(),
) -> tuple[list[MoveReview], int, Any]:
    """The reviews of the moves from `start` on, played from `state` (the game before move
    `start`), until `limit` decisions are reviewed or the moves end; also the number of the
    next move and the state before it. `reviewed` is told each review; the moves `made_for`
    the seat (by index: the AI's after a resignation, a timeout's) are not the player's."""
    reviewer = Reviewer(engine, seed, budget)
    out: list[MoveReview] = []
    index = start
    while index < len(moves) and (limit is None or len(out) < limit):
        seat, choices = moves[index]
        weighed = seat in seats and index not in made_for
        found = reviewer.decision(state, index, seat, choices) if weighed else None
        if found is not None:
            out.append(found)
            if reviewed is not None:
                reviewed(found)
        state = engine.apply(state, Action(seat, choices))
        index += 1
    return out, index, state


def prepare(
    game_id: str,
    players: int,
    seed: int,
    options: dict[str, str] | None,
    moves: Sequence[Move],
    seats: frozenset[int],
    made_for: frozenset[int] = frozenset(),
) -> tuple[int, str]:
    """For a worker process: how many decisions the review weighs, and the game's setup
    dumped (where `review_chunk` starts)."""
    engine = games.get(game_id)
    setup = engine.new(players, seed, options)
    return reviewed_decisions(engine, setup, moves, seats, made_for), engine.dump(setup)


def review_chunk(
    game_id: str,
    dump: str,
    moves: Sequence[Move],
    start: int,
    seats: frozenset[int],
    budget: Budget,
    seed: int,
    limit: int,
    made_for: frozenset[int] = frozenset(),
) -> tuple[list[MoveReview], int, str]:
    """`review_moves` on a dumped state, for a worker process: the reviews, the number of
    the next move and the dump of the state before it."""
    engine = games.get(game_id)
    reviews, index, state = review_moves(
        engine, engine.load(dump), moves, start, seats, budget, seed, limit=limit, made_for=made_for
    )
    return reviews, index, engine.dump(state)


def summarize(
    game_id: str,
    players: int,
    moves: Sequence[MoveReview],
    seats: frozenset[int],
    result: Result | None,
    think: float,
    seconds: float = 0.0,
) -> Review:
    """Per reviewed seat, its costliest moves and the moves that gained most."""
    per_seat = []
    for seat in sorted(seats):
        own = [m for m in moves if m.seat == seat]
        costly = sorted((m for m in own if m.cost >= COST_FLOOR), key=lambda m: (-m.cost, m.index))
        good = sorted((m for m in own if m.gain > 0), key=lambda m: (-m.gain, m.index))
        per_seat.append(SeatReview(seat, tuple(costly[:SHOWN]), tuple(good[:SHOWN])))
    return Review(game_id, players, tuple(moves), tuple(per_seat), result, think, seconds)


def review_game(
    game_id: str,
    players: int,
    seed: int,
    options: dict[str, str] | None,
    moves: Sequence[Move],
    seats: frozenset[int] | None = None,
    budget: Budget | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """The whole review of a game played by `moves` from its setup (`seats`: the seats to
    review, all by default), in this process."""
    engine = games.get(game_id)
    setup = engine.new(players, seed, options)
    seats = frozenset(range(players)) if seats is None else seats
    total = reviewed_decisions(engine, setup, moves, seats)
    budget = budget or Budget(think_for(total))
    began = time.perf_counter()
    done: list[MoveReview] = []

    def reviewed(move: MoveReview) -> None:
        done.append(move)
        if progress is not None:
            progress(len(done), total)

    reviews, _, state = review_moves(
        engine, setup, moves, 0, seats, budget, seed, reviewed=reviewed
    )
    return summarize(
        game_id,
        players,
        reviews,
        seats,
        engine.result(state),
        budget.think,
        time.perf_counter() - began,
    )


def leader_after(review: Review, first: int | None = None) -> int | None:
    """The seat the review rated ahead at the end of the game's first period (round,
    season, phase, year): the best estimate at each seat's last move in it; None when a
    seat was not reviewed there."""
    if not review.moves:
        return None
    first = min(m.period for m in review.moves) if first is None else first
    last: dict[int, MoveReview] = {}
    for move in review.moves:
        if move.period == first:
            last[move.seat] = move
    if len(last) < review.players:
        return None
    return max(last, key=lambda seat: (last[seat].after, -seat))
