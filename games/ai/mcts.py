"""The `strong` level: a search over determinized states that improves on the `good` player.

Determinized Monte Carlo search with the good player as the prior and the playout policy
(rollout policy improvement, Tesauro & Galperin 1996; determinized, as in Cowling, Powley
& Whitehouse 2012). A few dozen playouts are all a 2 s budget buys in these games (a
good-player step costs 5–30 ms), too few for a tree below the root to learn anything, so
every playout goes to comparing a handful of answers at the root:

- Candidates: the good player's answer first, then the answers the evaluation rates best one
  step ahead (its top `CANDIDATES - 1`); a multi-select's answers are listed in full when
  there are few, else drawn at random.
- Rounds: each round draws one determinization of the real state for the searching seat
  (`engine.determinize`: no secret of another seat and no future draw is seen) and plays
  every live candidate out on it with the same random numbers (common random numbers), so
  the differences between candidates are measured on the same imagined futures and most of
  the luck cancels out.
- Playouts: every seat is played by the good player for `horizon` decisions (sized from the
  measured cost of a step, so that about `TARGET_ROUNDS` rounds fit; where even two-step
  playouts leave fewer, only the good answer and the best other one are compared). The
  position is valued by the game's evaluation of final points, as the margin to the best
  rival (win-oriented: a point a rival loses counts like one the seat gains); a finished
  game is valued by who won and by how much.
- Racing: a candidate whose paired margin to the leader is clearly negative is dropped;
  when only one is left the search stops early (time management).
- The answer: the good player's, unless another candidate beat it on the paired rounds by
  a margin and with some confidence (a few noisy playouts should not overrule a sound
  heuristic).

The clock is checked before each playout, which is only started if its measured cost fits,
and before every step of a playout (a round the clock cut short is not counted), so a
decision overruns `think` by at most one playout step.
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from meeple_hall.games.ai.evaluate import Evaluate, seats
from meeple_hall.games.ai.levels import Policy, decision_for, random_answer
from meeple_hall.games.core import Action, Decision, Engine

WIN_WEIGHT = 0.7  # in a finished game's reward; the rest is the score margin
CANDIDATES = 3  # the good player's answer and the best two others one step ahead
MULTI_LISTED = 12  # a multi-select with at most this many answers has them all weighed
TARGET_ROUNDS = 6  # the horizon is sized so that about this many rounds fit
STEP_BACK = "back"  # Keyflower's option that cancels the turn's steps so far: never weighed
MIN_HORIZON, MAX_HORIZON = 2, 60
MIN_ROUNDS = 3  # before any candidate is dropped or preferred
DROP_Z = 2.0  # a candidate this many standard errors below the leader is dropped
OVERRULE_MARGIN = 0.01  # in reward units (a reward is in [0, 1])
OVERRULE_Z = 1.5  # standard errors of the paired margin needed to overrule good's answer
TIME_SAFETY = 0.95  # share of the think time the search plans to use
RATING_SHARE = 0.3  # of the think time, at most, for rating the answers one step ahead
FIRST_HORIZON = 8  # the first round's playouts are at most about this long


@dataclass
class Stats:
    iterations: int = 0  # playouts
    rounds: int = 0
    horizon: int = 0
    candidates: int = 0
    overruled: bool = False


@dataclass
class Candidate:
    key: tuple[str, ...]
    values: list[float] = field(default_factory=list)  # one per complete round
    alive: bool = True


def is_legal(decision: Decision, key: tuple[str, ...]) -> bool:
    ids = {o.id for o in decision.options}
    return (
        decision.min_choices <= len(key) <= decision.max_choices
        and len(set(key)) == len(key)
        and all(k in ids for k in key)
    )


def only_answer(decision: Decision) -> tuple[str, ...] | None:
    """The answer when there is nothing to choose."""
    if decision.min_choices == decision.max_choices == len(decision.options):
        return tuple(o.id for o in decision.options)
    return None


def rewards(scores: list[float], ranks: tuple[int, ...], scale: float, ref: float) -> list[float]:
    """One reward in [0, 1] per seat of a finished game: a share of first place and the
    margin to the best rival (solo: the score against `ref`, the estimate where the search
    began)."""
    if len(scores) == 1:
        return [0.5 + 0.5 * math.tanh((scores[0] - ref) / scale)]
    winners = [i for i, r in enumerate(ranks) if r == 1]
    out = []
    for i in range(len(scores)):
        share = 1.0 / len(winners) if i in winners else 0.0
        out.append(WIN_WEIGHT * share + (1 - WIN_WEIGHT) * margin_reward(scores, i, scale, ref))
    return out


def margin_reward(scores: list[float], seat: int, scale: float, ref: float) -> float:
    """The seat's estimated margin to its best rival, squashed into [0, 1] (solo: its
    estimate against `ref`)."""
    if len(scores) == 1:
        return 0.5 + 0.5 * math.tanh((scores[0] - ref) / scale)
    best_rival = max(s for j, s in enumerate(scores) if j != seat)
    return 0.5 + 0.5 * math.tanh((scores[seat] - best_rival) / scale)


def paired(a: Candidate, b: Candidate) -> tuple[float, float, int]:
    """Mean and standard error of `a`'s margin over `b` on the rounds both played."""
    n = min(len(a.values), len(b.values))
    if n == 0:
        return 0.0, math.inf, 0
    diffs = [x - y for x, y in zip(a.values[:n], b.values[:n], strict=True)]
    mean = statistics.fmean(diffs)
    se = statistics.stdev(diffs) / math.sqrt(n) if n > 1 else math.inf
    return mean, se, n


class Search:
    def __init__(
        self,
        engine: Engine,
        state: Any,
        seat: int,
        rng: random.Random,
        policy: Policy,
        evaluate: Evaluate,
        scale: float,
        horizon: int | None,
    ) -> None:
        self.engine, self.state, self.seat, self.rng = engine, state, seat, rng
        self.policy, self.evaluate, self.scale = policy, evaluate, scale
        self.fixed_horizon = horizon
        self.decision = decision_for(engine, state, seat)
        self.stats = Stats()
        self.steps = 0
        self.step_time = 0.0
        self.playout_time = 0.0
        self.ref = 0.0
        self.candidates: list[Candidate] = []

    # -- candidates ------------------------------------------------------------------------
    def answers(self) -> list[tuple[str, ...]]:
        """Every answer worth listing: single choices in full, small multi-selects in full,
        larger ones as a few random draws."""
        d = self.decision
        # Undoing a step only leads back to a decision already weighed; weighed as a move,
        # its noisy playouts can win a round and the seat goes round in circles.
        ids = [o.id for o in d.options if o.id != STEP_BACK]
        if d.max_choices == 1:
            return [(i,) for i in ids] + ([()] if d.min_choices == 0 else [])
        listed: list[tuple[str, ...]] = []
        for k in range(d.min_choices, d.max_choices + 1):
            for combo in itertools.combinations(ids, k):
                listed.append(combo)
                if len(listed) > MULTI_LISTED:
                    break
            if len(listed) > MULTI_LISTED:
                break
        if len(listed) <= MULTI_LISTED:
            return listed
        drawn = {random_answer(d, self.rng) for _ in range(3 * CANDIDATES)}
        return sorted(drawn)

    def pick_candidates(self, det: Any, until: float | None = None) -> None:
        """The good player's answer, then the others the evaluation rates best one step
        ahead on `det` (the first determinization); the rating stops at `until` (on a busy
        machine, a decision of thirty options would otherwise spend its budget on it)."""
        start = time.perf_counter()
        good = tuple(self.policy(det, self.decision, self.rng))
        # The good player's own answer is a playout step's worth of work: the first round's
        # horizon is sized from it.
        self.steps, self.step_time = 1, time.perf_counter() - start
        if seats(det) == 1:
            self.ref = self.evaluate(det)[0]
        rated: list[tuple[float, tuple[str, ...]]] = []
        for key in self.answers():
            if key == good or not is_legal(self.decision, key):
                continue
            if until is not None and rated and time.perf_counter() > until:
                break
            after = self.engine.apply(det, Action(self.seat, key))
            rated.append((self.value(after), key))
        rated.sort(key=lambda vk: -vk[0])
        self.candidates = [Candidate(good)] + [Candidate(k) for _, k in rated[: CANDIDATES - 1]]
        self.stats.candidates = len(self.candidates)

    def fit(self, think: float) -> None:
        """Where even the shortest playouts leave too few rounds (a slow good player on a
        busy machine), compare only the good player's answer and the best other one."""
        per_step = self.step_time / max(self.steps, 1)
        rounds = think / max(per_step * MIN_HORIZON * len(self.candidates), 1e-9)
        if rounds < TARGET_ROUNDS and len(self.candidates) > 2:
            self.candidates = self.candidates[:2]
            self.stats.candidates = 2

    # -- playouts --------------------------------------------------------------------------
    def value(self, det: Any) -> float:
        result = self.engine.result(det)
        if result is not None:
            scores = [float(s) for s in result.scores]
            return rewards(scores, result.ranks, self.scale, self.ref)[self.seat]
        return margin_reward(self.evaluate(det), self.seat, self.scale, self.ref)

    def playout(
        self, det: Any, key: tuple[str, ...], horizon: int, seed: int, deadline: float | None
    ) -> float | None:
        """`key` played on `det` (not changed), then `horizon` decisions by the good player
        with the random numbers of `seed`; the seat's reward where it stops, or None when
        the deadline passed first."""
        start = time.perf_counter()
        state = self.engine.apply(det, Action(self.seat, key))
        rng = random.Random(seed)
        steps = 0
        perform = getattr(self.engine, "perform", None)
        for _ in range(horizon):
            if deadline is not None and time.perf_counter() > deadline:
                return None
            pending = self.engine.decisions(state)
            if not pending:
                break
            decision = pending[0]
            answer = tuple(self.policy(state, decision, rng))
            if perform is not None:
                # `state` is this playout's own copy: the move is made in place, without
                # the copy `apply` makes (the answer is checked all the same).
                self.engine.check_choices(decision, answer)
                perform(state, decision, answer)
            else:
                state = self.engine.apply(state, Action(decision.seat, answer))
            steps += 1
        elapsed = time.perf_counter() - start
        self.steps += steps
        self.step_time += elapsed
        self.playout_time += elapsed
        self.stats.iterations += 1
        return self.value(state)

    def horizon(self, think: float) -> int:
        if self.fixed_horizon is not None:
            return self.fixed_horizon
        per_step = self.step_time / self.steps
        if not self.stats.iterations:
            # Sized from one good answer only: a trivial one would promise long playouts.
            per_step = max(per_step, think / (TARGET_ROUNDS * CANDIDATES * FIRST_HORIZON))
        live = sum(c.alive for c in self.candidates)
        per_round = think / TARGET_ROUNDS / max(live, 1)
        return max(MIN_HORIZON, min(MAX_HORIZON, int(per_round / max(per_step, 1e-6))))

    def round(self, horizon: int, deadline: float | None) -> bool:
        """One determinization, every live candidate played out on it; False when the
        clock ran out before the round was complete (its playouts are not counted)."""
        det = self.engine.determinize(self.state, self.seat, self.rng.getrandbits(63))
        seed = self.rng.getrandbits(63)
        values = []
        live = [c for c in self.candidates if c.alive]
        for c in live:
            if deadline is not None and self.stats.iterations:
                expected = self.playout_time / self.stats.iterations
                if time.perf_counter() + expected > deadline:
                    return False
            value = self.playout(det, c.key, horizon, seed, deadline)
            if value is None:
                return False
            values.append(value)
        for c, v in zip(live, values, strict=True):
            c.values.append(v)
        self.stats.rounds += 1
        self.race()
        return True

    def race(self) -> None:
        """Drop the candidates clearly behind the leader."""
        live = [c for c in self.candidates if c.alive]
        if self.stats.rounds < MIN_ROUNDS or len(live) < 2:
            return
        leader = max(live, key=lambda c: statistics.fmean(c.values))
        for c in live:
            if c is leader:
                continue
            mean, se, _ = paired(c, leader)
            if mean + DROP_Z * se < 0 or (se == 0 and mean < 0):
                c.alive = False

    def settled(self) -> bool:
        return sum(c.alive for c in self.candidates) <= 1

    def best(self) -> tuple[str, ...]:
        """The candidate with the best paired margin over the good player's answer, if that
        margin is clear; else the good player's answer."""
        good = self.candidates[0]
        best_key, best_mean = good.key, 0.0
        for c in self.candidates[1:]:
            mean, se, n = paired(c, good)
            if n < MIN_ROUNDS and se != 0:
                continue
            if mean > OVERRULE_MARGIN and mean > OVERRULE_Z * se and mean > best_mean:
                best_key, best_mean = c.key, mean
        self.stats.overruled = best_key != good.key
        return best_key


def search(
    engine: Engine,
    state: Any,
    seat: int,
    think: float,
    rng: random.Random,
    policy: Policy,
    evaluate: Evaluate,
    scale: float = 10.0,
    horizon: int | None = None,
    iterations: int | None = None,
    stats: Stats | None = None,
) -> tuple[str, ...]:
    """The best answer found in `think` seconds (or `iterations` playouts) of search for
    `seat`'s pending decision in `state`, seen only through determinizations."""
    decision = decision_for(engine, state, seat)
    forced = only_answer(decision)
    if forced is not None:
        return forced
    start = time.perf_counter()
    deadline = None if iterations is not None else start + TIME_SAFETY * think
    run = Search(engine, state, seat, rng, policy, evaluate, scale, horizon)
    until = None if deadline is None else start + RATING_SHARE * think
    run.pick_candidates(engine.determinize(state, seat, rng.getrandbits(63)), until)
    if deadline is not None:
        run.fit(deadline - time.perf_counter())
    if len(run.candidates) > 1:
        while not run.settled():
            if iterations is not None and run.stats.iterations >= iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            if not run.round(run.horizon(think), deadline):
                break
    answer = run.best()
    if stats is not None:
        stats.iterations, stats.rounds = run.stats.iterations, run.stats.rounds
        stats.horizon = run.horizon(think)
        stats.candidates, stats.overruled = run.stats.candidates, run.stats.overruled
    return answer
