"""The `strong` level: information-set Monte Carlo tree search over determinized states.

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012): every iteration draws a new
determinization of the real state for the searching seat (`engine.determinize`), so the
tree is a tree of the seat's information, not of one imagined deal. The walk down the tree
only considers the children legal in this determinization, and a child's exploration term
counts the iterations it was available in (their "availability" counts). Each seat at a node
picks what is best for itself (the rewards are a vector, one entry per seat).

The game's `good` player enters twice: at a new node its answer is the first child tried
(a prior), and it plays every seat in the playouts. A playout stops after `horizon`
decisions and the position is valued by the game's evaluation (estimated final scores);
the horizon is chosen from the measured cost of a playout step so that a few dozen
iterations fit in the time budget. Rewards mix who wins (a shared first place is shared)
with the score margin, so a sure win still prefers the larger lead.

Decisions allowing several options at once (multi-selects) have too many answers to list:
their children are the answers the policy and random draws propose, added one at a time as
the node is visited more often (progressive widening).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from meeple_hall.games.ai.evaluate import Evaluate, seats
from meeple_hall.games.ai.levels import Policy, decision_for, random_answer
from meeple_hall.games.core import Action, Decision, Engine, ranks_from_scores

EXPLORATION = 0.7
WIN_WEIGHT = 0.7  # the rest of a reward is the score margin
TARGET_ITERATIONS = 48  # the playout horizon is sized so that about this many fit
MIN_VISITS_TO_COMPARE = 3
MARGIN_TO_OVERRULE = 0.03  # in reward units (a reward is in [0, 1])


@dataclass
class Node:
    seat: int = -1  # who chose the move leading here
    visits: int = 0
    available: int = 0
    total: list[float] = field(default_factory=list)
    children: dict[tuple[str, ...], Node] = field(default_factory=dict)
    prior: tuple[str, ...] | None = None

    def mean(self, seat: int) -> float:
        return self.total[seat] / self.visits if self.visits else 0.0


@dataclass
class Stats:
    iterations: int = 0
    horizon: int = 0
    step_seconds: float = 0.0


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
    """One reward in [0, 1] per seat: a share of first place and the margin to the best
    rival (solo: the score against `ref`, the estimate where the search began)."""
    if len(scores) == 1:
        return [0.5 + 0.5 * math.tanh((scores[0] - ref) / scale)]
    winners = [i for i, r in enumerate(ranks) if r == 1]
    out = []
    for i, score in enumerate(scores):
        share = 1.0 / len(winners) if i in winners else 0.0
        best_rival = max(s for j, s in enumerate(scores) if j != i)
        margin = 0.5 + 0.5 * math.tanh((score - best_rival) / scale)
        out.append(WIN_WEIGHT * share + (1 - WIN_WEIGHT) * margin)
    return out


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
        self.root = Node()
        self.fixed_horizon = horizon
        self.stats = Stats()
        self.steps = 0
        self.step_time = 0.0
        self.ref = 0.0

    def horizon(self, think: float) -> int:
        if self.fixed_horizon is not None:
            return self.fixed_horizon
        if not self.steps:
            return 8
        per_step = self.step_time / self.steps
        return max(4, min(200, int(think / TARGET_ITERATIONS / max(per_step, 1e-5))))

    def iterate(self, horizon: int) -> None:
        det = self.engine.determinize(self.state, self.seat, self.rng.getrandbits(63))
        if self.stats.iterations == 0 and seats(det) == 1:
            self.ref = self.evaluate(det)[0]
        node, path = self.root, [self.root]
        while True:
            pending = self.engine.decisions(det)
            if not pending:
                break
            if node is self.root:
                decision = next(d for d in pending if d.seat == self.seat)
            else:
                decision = pending[0]
            key, child = self.select(node, decision, det)
            det = self.engine.apply(det, Action(decision.seat, key))
            path.append(child)
            node = child
            if child.visits == 0:
                break
        value = self.playout(det, horizon)
        for n in path:
            if not n.total:
                n.total = [0.0] * len(value)
            n.visits += 1
            for i, v in enumerate(value):
                n.total[i] += v
        self.stats.iterations += 1

    def select(self, node: Node, decision: Decision, det: Any) -> tuple[tuple[str, ...], Node]:
        legal = [(k, c) for k, c in node.children.items() if is_legal(decision, k)]
        for _, child in legal:
            child.available += 1
        if len(legal) < self.width(node, decision):
            key = self.new_answer(node, decision, det)
            if key is not None and key not in node.children:
                child = Node(seat=decision.seat, available=1)
                node.children[key] = child
                return key, child
        if not legal:  # nothing new to add and nothing known legal here: the policy's answer
            key = self.policy(det, decision, self.rng)
            child = node.children.setdefault(key, Node(seat=decision.seat))
            child.available += 1
            return key, child
        fresh = [(k, c) for k, c in legal if c.visits == 0]
        if fresh:
            return fresh[0]
        return max(legal, key=lambda kc: self.ucb(node, kc[0], kc[1]))

    def ucb(self, node: Node, key: tuple[str, ...], child: Node) -> float:
        explore = EXPLORATION * math.sqrt(math.log(max(child.available, 1)) / child.visits)
        bias = 0.3 / (1 + child.visits) if key == node.prior else 0.0
        return child.mean(child.seat) + explore + bias

    @staticmethod
    def width(node: Node, decision: Decision) -> int:
        """How many children a node may have after `node.visits` visits."""
        grown = 1 + int(2 * math.sqrt(node.visits))
        if decision.max_choices == 1:
            return min(grown, len(decision.options) + (decision.min_choices == 0))
        return grown

    def new_answer(self, node: Node, decision: Decision, det: Any) -> tuple[str, ...] | None:
        if node.prior is None or node.prior not in node.children:
            node.prior = tuple(self.policy(det, decision, self.rng))
            if node.prior not in node.children:
                return node.prior
        if decision.max_choices == 1:
            untried = [(o.id,) for o in decision.options if (o.id,) not in node.children]
            if decision.min_choices == 0 and () not in node.children:
                untried.append(())
            return self.rng.choice(untried) if untried else None
        for _ in range(4):
            key = random_answer(decision, self.rng)
            if key not in node.children:
                return key
        return None

    def playout(self, det: Any, horizon: int) -> list[float]:
        start = time.perf_counter()
        steps = 0
        for _ in range(horizon):
            pending = self.engine.decisions(det)
            if not pending:
                break
            decision = pending[0]
            answer = self.policy(det, decision, self.rng)
            det = self.engine.apply(det, Action(decision.seat, tuple(answer)))
            steps += 1
        if steps:
            self.steps += steps
            self.step_time += time.perf_counter() - start
        result = self.engine.result(det)
        if result is not None:
            scores = [float(s) for s in result.scores]
            return rewards(scores, result.ranks, self.scale, self.ref)
        estimates = self.evaluate(det)
        return rewards(estimates, ranks_from_scores(estimates), self.scale, self.ref)

    def best(self) -> tuple[str, ...]:
        """The most visited answer, if the search found it clearly better than the good
        player's own answer; otherwise the good player's answer (a few noisy playouts
        should not overrule a sound heuristic)."""
        key, child = max(
            self.root.children.items(),
            key=lambda kc: (kc[1].visits, kc[1].mean(self.seat) if kc[1].visits else 0.0),
        )
        prior = self.root.children.get(self.root.prior) if self.root.prior else None
        if prior is None or prior is child or prior.visits < MIN_VISITS_TO_COMPARE:
            return key
        if child.mean(self.seat) >= prior.mean(self.seat) + MARGIN_TO_OVERRULE:
            return key
        return self.root.prior


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
    """The most visited answer after `think` seconds (or `iterations` iterations) of search
    for `seat`'s pending decision in `state`, seen only through determinizations."""
    decision = decision_for(engine, state, seat)
    forced = only_answer(decision)
    if forced is not None:
        return forced
    run = Search(engine, state, seat, rng, policy, evaluate, scale, horizon)
    deadline = time.perf_counter() + think
    while True:
        run.iterate(run.horizon(think))
        done = run.stats.iterations
        if iterations is not None and done >= iterations:
            break
        if iterations is None and time.perf_counter() >= deadline:
            break
    if stats is not None:
        stats.iterations = run.stats.iterations
        stats.horizon = run.horizon(think)
    return run.best()
