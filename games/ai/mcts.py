"""The `strong` level: a search over whole turns that improves on the `good` player.

Determinized Monte Carlo search with the good player as the prior and the playout policy
(rollout policy improvement, Tesauro & Galperin 1996; determinized, as in Cowling, Powley
& Whitehouse 2012). A 2 s budget buys a few dozen good-player playouts in these games, too
few for a tree below the root to learn anything, so every playout goes to comparing a
handful of plans for the seat's turn:

- Turns, not steps: a seat's turn is its consecutive decisions until another seat decides
  (Keyflower: action, tile, colour, workers; Burgundy: die, action, placement and bonus
  actions). One step of such a turn changes nothing an evaluation can see, so the search
  weighs plans of the whole turn: a plan is a prefix of answers (`()` is the good player
  throughout), after which the good player finishes the turn. The caller (`levels`, with
  `turns`) follows the chosen plan through the turn's later steps without searching again.
- Candidates: the good player's turn first, then the plans that differ from it in one step
  (every other answer at each step of good's turn, good finishing the turn), then in one
  more step of the plans rated best; each is rated by the game's evaluation where the turn
  ends on the first determinization, and the `CANDIDATES - 1` best that end differently
  from good's turn are kept. A multi-select's answers are listed in full when there are
  few, else drawn at random.
- The prior: the candidate the others must beat. It is the good player's turn, unless the
  game marks its evaluation sound where a turn ends (`rated_prior`; Burgundy, whose turn
  uses dice already rolled and bids nothing) and a plan is rated above good's turn: then
  that plan. Good looks one die use ahead; the rating weighs the whole turn, and it costs
  a fraction of the budget, so the search improves on good even when a busy machine leaves
  it time for few playouts.
- Rounds: each round draws one determinization of the real state for the searching seat
  (`engine.determinize`: no secret of another seat and no future draw is seen) and plays
  every live candidate out on it with the same random numbers (common random numbers), so
  the differences between candidates are measured on the same imagined futures and most of
  the luck cancels out. A plan step that is not legal on a determinization (a draw went
  otherwise) hands the rest of the turn to the good player.
- Playouts: every seat is played by the good player to the end of the game's phase under
  way where the game marks its phases (`phase`: Keyflower's season, Burgundy's phase A–E,
  whose ends settle the bids, income and bonuses an evaluation cannot foresee well), at
  most for `horizon` decisions (sized from the measured cost of a step, so that about
  `TARGET_ROUNDS` rounds fit), and then on to the end of the turn under way (a half-taken
  turn is not valued). A finished game is valued by the share of rivals the seat finished
  ahead of and by how much; a cut-off one by the game's evaluation of final points, as the
  margins to the rivals (a point a rival loses counts like one the seat gains; at 3 and 4
  players every rival's, not only the leader's, as the target there is the average rank).
- Racing: a candidate whose paired margin to the leader is clearly negative is dropped
  (the prior only once a verdict against it may stand); when only one is left the search
  stops early (time management). When the first round shows that too few rounds fit for
  three plans, only the prior and the best other plan go on.
- The answer: the prior, unless another plan beat it on at least
  `OVERRULE_ROUNDS` paired rounds by a margin and with some confidence, a least spread
  (`SD_FLOOR`) assumed (a few noisy playouts should not overrule a sound heuristic).

The clock is checked before each playout, which is only started if its measured cost fits,
and before every step of a playout (a round the clock cut short is not counted), so a
decision overruns `think` by at most one playout step.
"""

from __future__ import annotations

import copy
import itertools
import math
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from meeple_hall.games.ai.evaluate import Evaluate, Phase, seats
from meeple_hall.games.ai.levels import Policy, decision_for, determinized, random_answer
from meeple_hall.games.core import Action, Decision, Engine, GameEngine

Answer = tuple[str, ...]
Plan = tuple[Answer, ...]
"""Answers to a turn's first steps; the good player answers the steps after them."""

WIN_WEIGHT = 0.7  # in a finished game's reward; the rest is the score margin
CANDIDATES = 3  # the prior and the two other plans rated best
MULTI_LISTED = 12  # a multi-select with at most this many answers has them all weighed
TARGET_ROUNDS = 6  # the horizon is sized so that about this many rounds fit
STEP_BACK = "back"  # Keyflower's option that cancels the turn's steps so far: never weighed
MIN_HORIZON, MAX_HORIZON = 2, 2000
MAX_TURN_STEPS = 40  # a turn longer than this is cut (no game's is; a guard)
SECOND_DEVIATIONS = 2  # plans rated best whose later steps are varied once more
MIN_ROUNDS = 3  # before any candidate is dropped
OVERRULE_ROUNDS = 4  # before any plan is preferred to the prior
SD_FLOOR = 0.03  # the least spread assumed of a paired margin: a few rounds that happen to
# agree must not look certain
DROP_Z = 2.0  # a candidate this many standard errors below the leader is dropped
OVERRULE_MARGIN = 0.01  # in reward units (a reward is in [0, 1])
OVERRULE_Z = 1.5  # standard errors of the paired margin needed to overrule the prior
TIME_SAFETY = 0.95  # share of the think time the search plans to use
RATING_SHARE = 0.3  # of the think time, at most, for listing and rating the plans
FIRST_HORIZON = 8  # the first round's playouts are at most about this long


@dataclass
class Stats:
    iterations: int = 0  # playouts
    rounds: int = 0
    horizon: int = 0
    candidates: int = 0
    overruled: bool = False  # the answer is not the good player's turn
    plans: int = 0  # plans listed and rated


@dataclass
class Candidate:
    plan: Plan  # () for the good player's own turn
    values: list[float] = field(default_factory=list)  # one per complete round
    alive: bool = True


def is_legal(decision: Decision, key: Answer) -> bool:
    ids = {o.id for o in decision.options}
    return (
        decision.min_choices <= len(key) <= decision.max_choices
        and len(set(key)) == len(key)
        and all(k in ids for k in key)
    )


def only_answer(decision: Decision) -> Answer | None:
    """The answer when there is nothing to choose."""
    if decision.min_choices == decision.max_choices == len(decision.options):
        return tuple(o.id for o in decision.options)
    return None


def rewards(scores: list[float], ranks: tuple[int, ...], scale: float, ref: float) -> list[float]:
    """One reward in [0, 1] per seat of a finished game: the share of its rivals it finished
    ahead of (a tie counts half; at two players, a win) and its margins to them (solo: the
    score against `ref`, the estimate where the search began)."""
    if len(scores) == 1:
        return [0.5 + 0.5 * math.tanh((scores[0] - ref) / scale)]
    out = []
    for i in range(len(scores)):
        rivals = [j for j in range(len(scores)) if j != i]
        ahead = sum(
            1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0 for j in rivals
        ) / len(rivals)
        out.append(WIN_WEIGHT * ahead + (1 - WIN_WEIGHT) * margin_reward(scores, i, scale, ref))
    return out


def margin_reward(scores: list[float], seat: int, scale: float, ref: float) -> float:
    """The seat's estimated margins to its rivals, each squashed into [0, 1] and averaged:
    a soft count of the rivals it is ahead of, so that at 3 and 4 players a point taken from
    any rival counts, not only from the leader (the target there is the average rank); at
    two players, the margin to the one rival (solo: its estimate against `ref`)."""
    if len(scores) == 1:
        return 0.5 + 0.5 * math.tanh((scores[0] - ref) / scale)
    rivals = [s for j, s in enumerate(scores) if j != seat]
    return statistics.fmean(0.5 + 0.5 * math.tanh((scores[seat] - r) / scale) for r in rivals)


def paired(a: Candidate, b: Candidate) -> tuple[float, float, int]:
    """Mean and standard error of `a`'s margin over `b` on the rounds both played."""
    n = min(len(a.values), len(b.values))
    if n == 0:
        return 0.0, math.inf, 0
    diffs = [x - y for x, y in zip(a.values[:n], b.values[:n], strict=True)]
    mean = statistics.fmean(diffs)
    se = max(statistics.stdev(diffs), SD_FLOOR) / math.sqrt(n) if n > 1 else math.inf
    return mean, se, n


def step(engine: Engine, state: Any, decision: Decision, answer: Answer) -> Any:
    """`state` after `answer`, changed in place where the engine allows (the callers pass
    their own copies); the answer is checked all the same."""
    if not isinstance(engine, GameEngine):
        return engine.apply(state, Action(decision.seat, answer))
    engine.check_choices(decision, answer)
    engine.perform(state, decision, answer)
    return state


def own_decision(engine: Engine, state: Any, seat: int) -> Decision | None:
    """The seat's pending decision if the turn is still its own (it decides first)."""
    pending = engine.decisions(state)
    if pending and pending[0].seat == seat:
        return pending[0]
    return None


def finish_turn(
    engine: Engine, state: Any, seat: int, plan: Plan, policy: Policy, rng: random.Random
) -> tuple[Any, Plan]:
    """`state` (changed in place) after the seat's turn, played by `plan` and then by the
    good player; also every answer given. A plan step that is not legal here (a draw went
    otherwise) hands the rest of the turn to the good player."""
    given: list[Answer] = []
    following = True
    for index in range(MAX_TURN_STEPS):
        decision = own_decision(engine, state, seat)
        if decision is None:
            break
        if following and index < len(plan) and is_legal(decision, plan[index]):
            answer = plan[index]
        else:
            following = False
            answer = tuple(policy(state, decision, rng))
        given.append(answer)
        state = step(engine, state, decision, answer)
    return state, tuple(given)


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
        phase: Phase | None = None,
        rated_prior: bool = False,
    ) -> None:
        self.engine, self.state, self.seat, self.rng = engine, state, seat, rng
        self.rated_prior = rated_prior
        self.policy, self.evaluate, self.scale = policy, evaluate, scale
        self.phase = phase
        self.fixed_horizon = horizon
        self.decision = decision_for(engine, state, seat)
        self.stats = Stats()
        self.steps = 0
        self.step_time = 0.0
        self.playout_time = 0.0
        self.ref = 0.0
        self.candidates: list[Candidate] = []
        self.good_turn: Plan = ()

    # -- candidates ------------------------------------------------------------------------
    def answers(self, decision: Decision | None = None) -> list[Answer]:
        """Every answer worth listing: single choices in full, small multi-selects in full,
        larger ones as a few random draws."""
        d = decision or self.decision
        # Undoing a step only leads back to a decision already weighed; weighed as a move,
        # its noisy playouts can win a round and the seat goes round in circles.
        ids = [o.id for o in d.options if o.id != STEP_BACK]
        if d.max_choices == 1:
            return [(i,) for i in ids] + ([()] if d.min_choices == 0 else [])
        listed: list[Answer] = []
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

    def rate(self, det: Any, plan: Plan, seed: int) -> tuple[float, Plan, Any]:
        """`plan`'s turn on a copy of `det`: the evaluation where the turn ends, the answers
        given, and the state there."""
        start = time.perf_counter()
        end, given = finish_turn(
            self.engine, copy.deepcopy(det), self.seat, plan, self.policy, random.Random(seed)
        )
        self.steps += len(given)
        self.step_time += time.perf_counter() - start
        self.stats.plans += 1
        return self.value(end), given, end

    def deviations(self, det: Any, given: Plan, frm: int) -> list[Plan]:
        """The plans that follow `given` up to a step at or after `frm` and answer that step
        otherwise (the good player finishing the turn)."""
        out: list[Plan] = []
        state = copy.deepcopy(det)
        for index, answer in enumerate(given):
            decision = own_decision(self.engine, state, self.seat)
            if decision is None:
                break
            if index >= frm:
                others = [alt for alt in self.answers(decision) if alt != answer]
                out.extend((*given[:index], alt) for alt in others)
            state = step(self.engine, state, decision, answer)
        return out

    def pick_candidates(self, det: Any, until: float | None = None) -> None:
        """The candidates, the prior first: the good player's turn and the other plans rated
        best where their turn ends on `det` (the first determinization); the rating stops at
        `until` (on a busy machine, a decision of thirty options would otherwise spend its
        budget on it)."""
        if seats(det) == 1:
            self.ref = self.evaluate(det)[0]
        seed = self.rng.getrandbits(63)
        good_value, self.good_turn, good_end = self.rate(det, (), seed)
        seen = {self.fingerprint(good_end)}
        rated: list[tuple[float, Plan, Plan]] = []  # (value, plan, answers given)

        def out_of_time() -> bool:
            return until is not None and bool(rated) and time.perf_counter() > until

        def weigh(plans: list[Plan]) -> None:
            for plan in plans:
                if out_of_time():
                    return
                value, given, end = self.rate(det, plan, seed)
                mark = self.fingerprint(end)
                if mark in seen:
                    continue  # the same turn as one already listed (another order, say)
                seen.add(mark)
                rated.append((value, plan, given))

        weigh(self.deviations(det, self.good_turn, 0))
        for _, plan, given in sorted(rated, key=lambda r: -r[0])[:SECOND_DEVIATIONS]:
            weigh(self.deviations(det, given, len(plan)))
        rated.sort(key=lambda r: -r[0])
        others = [plan for _, plan, _ in rated]
        if self.rated_prior and rated and rated[0][0] > good_value:
            kept = [others[0], (), *others[1 : CANDIDATES - 1]]
        else:
            kept = [(), *others[: CANDIDATES - 1]]
        self.candidates = [Candidate(plan) for plan in kept]
        self.stats.candidates = len(self.candidates)

    def fingerprint(self, state: Any) -> str:
        """What tells two ends of a turn apart on one determinization: the whole state (a
        seat's view need not show its own secret choices, such as a sealed bid)."""
        return self.engine.dump(state)

    def fit(self, think: float) -> None:
        """Where even the shortest playouts leave too few rounds (a slow good player on a
        busy machine), compare only the good player's turn and the best other plan."""
        per_step = self.step_time / max(self.steps, 1)
        rounds = think / max(per_step * MIN_HORIZON * len(self.candidates), 1e-9)
        if rounds < TARGET_ROUNDS:
            self.narrow()

    def narrow(self) -> None:
        """Keep only the good player's turn and the best other live plan (by the paired
        rounds so far, else by the rating): two plans get the rounds three would share."""
        live = [c for c in self.candidates[1:] if c.alive]
        if len(live) < 2:
            return
        if self.stats.rounds:
            live.sort(key=lambda c: -paired(c, self.candidates[0])[0])
        for c in live[1:]:
            c.alive = False
        if not self.stats.rounds:
            self.candidates = [self.candidates[0], live[0]]
        self.stats.candidates = 2

    def rounds_left(self, deadline: float) -> float:
        """How many more rounds of the live plans the clock allows, at the cost measured."""
        live = sum(c.alive for c in self.candidates)
        per_playout = self.playout_time / max(self.stats.iterations, 1)
        return (deadline - time.perf_counter()) / max(per_playout * live, 1e-9)

    # -- playouts --------------------------------------------------------------------------
    def value(self, det: Any) -> float:
        result = self.engine.result(det)
        if result is not None:
            scores = [float(s) for s in result.scores]
            return rewards(scores, result.ranks, self.scale, self.ref)[self.seat]
        return margin_reward(self.evaluate(det), self.seat, self.scale, self.ref)

    def playout(
        self, det: Any, plan: Plan, horizon: int, seed: int, deadline: float | None
    ) -> float | None:
        """The seat's turn by `plan` on a copy of `det`, then the good player for every seat
        with the random numbers of `seed`, until the game's phase ends (`phase`) or for
        `horizon` decisions, whichever comes first, and on to the end of the turn under way;
        the seat's reward where it stops, or None when the deadline passed first."""
        start = time.perf_counter()
        rng = random.Random(seed)
        state, given = finish_turn(
            self.engine, copy.deepcopy(det), self.seat, plan, self.policy, rng
        )
        steps = len(given)
        last = self.seat
        mark = self.phase(state) if self.phase is not None else None
        for count in range(horizon + MAX_TURN_STEPS):
            if deadline is not None and time.perf_counter() > deadline:
                return None
            pending = self.engine.decisions(state)
            if not pending:
                break
            decision = pending[0]
            if decision.seat != last and (
                count >= horizon or (self.phase is not None and self.phase(state) != mark)
            ):
                break  # a turn has just ended, past the horizon or with the phase
            last = decision.seat
            state = step(self.engine, state, decision, tuple(self.policy(state, decision, rng)))
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
        per_step = self.step_time / max(self.steps, 1)
        if not self.stats.iterations:
            # Sized from the rating's turns only: short ones would promise long playouts.
            per_step = max(per_step, think / (TARGET_ROUNDS * CANDIDATES * FIRST_HORIZON))
        live = sum(c.alive for c in self.candidates)
        per_round = think / TARGET_ROUNDS / max(live, 1)
        return max(MIN_HORIZON, min(MAX_HORIZON, int(per_round / max(per_step, 1e-6))))

    def round(self, horizon: int, deadline: float | None) -> bool:
        """One determinization, every live candidate played out on it; False when the
        clock ran out before the round was complete (its playouts are not counted)."""
        det = determinized(self.engine, self.state, self.seat, self.rng.getrandbits(63))
        seed = self.rng.getrandbits(63)
        values = []
        live = [c for c in self.candidates if c.alive]
        for c in live:
            if deadline is not None and self.stats.iterations:
                expected = self.playout_time / self.stats.iterations
                if time.perf_counter() + expected > deadline:
                    return False
            value = self.playout(det, c.plan, horizon, seed, deadline)
            if value is None:
                return False
            values.append(value)
        for c, v in zip(live, values, strict=True):
            c.values.append(v)
        self.stats.rounds += 1
        self.race()
        # Too few rounds ahead for three plans to reach a verdict: weigh two.
        if (
            deadline is not None
            and self.stats.rounds == 1
            and 1 + self.rounds_left(deadline) < 2 * OVERRULE_ROUNDS
        ):
            self.narrow()
        return True

    def race(self) -> None:
        """Drop the candidates clearly behind the leader."""
        live = [c for c in self.candidates if c.alive]
        if self.stats.rounds < MIN_ROUNDS or len(live) < 2:
            return
        leader = max(live, key=lambda c: statistics.fmean(c.values))
        for c in live:
            if c is leader or (c is self.candidates[0] and self.stats.rounds < OVERRULE_ROUNDS):
                continue  # the prior stays until a verdict against it may stand
            mean, se, _ = paired(c, leader)
            if mean + DROP_Z * se < 0:
                c.alive = False

    def settled(self) -> bool:
        return sum(c.alive for c in self.candidates) <= 1

    def best(self) -> Plan:
        """The prior (the first candidate), unless another plan beat it on the paired rounds
        by a clear margin."""
        prior = self.candidates[0]
        best_plan, best_mean = prior.plan, 0.0
        for c in self.candidates[1:]:
            mean, se, n = paired(c, prior)
            if n < OVERRULE_ROUNDS:
                continue
            # A plan still weighed after the prior was dropped as clearly behind wins.
            clear = not prior.alive and c.alive
            if (clear or (mean > OVERRULE_MARGIN and mean > OVERRULE_Z * se)) and mean > best_mean:
                best_plan, best_mean = c.plan, mean
        self.stats.overruled = best_plan != ()
        return best_plan or self.good_turn


def search_turn(
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
    phase: Phase | None = None,
    rated_prior: bool = False,
) -> Plan:
    """The best plan for `seat`'s turn found in `think` seconds (or `iterations` playouts)
    of search from its pending decision in `state`, seen only through determinizations:
    its first answer is the one to give now; the good player answers the turn's steps
    after the plan."""
    decision = decision_for(engine, state, seat)
    forced = only_answer(decision)
    if forced is not None:
        return (forced,)
    start = time.perf_counter()
    deadline = None if iterations is not None else start + TIME_SAFETY * think
    run = Search(engine, state, seat, rng, policy, evaluate, scale, horizon, phase, rated_prior)
    until = None if deadline is None else start + RATING_SHARE * think
    run.pick_candidates(determinized(engine, state, seat, rng.getrandbits(63)), until)
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
    plan = run.best()
    if stats is not None:
        stats.iterations, stats.rounds = run.stats.iterations, run.stats.rounds
        stats.horizon = run.horizon(think)
        stats.candidates, stats.overruled = run.stats.candidates, run.stats.overruled
        stats.plans = run.stats.plans
    return plan


def search(
    engine: Engine,
    state: Any,
    seat: int,
    think: float,
    rng: random.Random,
    policy: Policy,
    evaluate: Evaluate,
    **options: Any,
) -> Answer:
    """The answer to `seat`'s pending decision: the first step of `search_turn`'s plan."""
    return search_turn(engine, state, seat, think, rng, policy, evaluate, **options)[0]
