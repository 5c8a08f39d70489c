"""The `strong` level's plan for the rest of a turn: search once at a turn's first step,
then follow the plan through its later steps while the game goes as planned.

The search (`mcts.search_turn`) weighs plans of the seat's whole turn. Once it has chosen
one, the turn's later steps are answered from the plan (and by the good player after the
plan's own steps) without searching again: the time goes to the step where the turn is
decided. The plan is walked on a determinization and remembered as "where the seat sees
this, answer that", keyed by the seat's own view: a later step is answered from the plan
only if the seat sees exactly what the walk saw there. Anything the walk could not know (a
tile drawn, a card turned over mid-turn) changes the view, and the step is searched anew.

The memory is per process (the arena's games, a bot worker) and bounded; a step the
process has no plan for is simply searched, so a plan lost to another worker costs time,
never a wrong move (a remembered answer is used only if it is legal).
"""

from __future__ import annotations

import hashlib
import random
from collections import OrderedDict
from typing import Any

from meeple_hall.games.ai.levels import Policy, determinized
from meeple_hall.games.ai.mcts import Answer, Plan, is_legal, own_decision, step
from meeple_hall.games.core import Decision, Engine

REMEMBERED = 4096  # steps; the oldest are forgotten first
GOOD: Answer = ()  # "the good player answers this step" (never a plan's answer: those
# are remembered only for the plan's own steps, and an empty answer is never one of them)

_planned: OrderedDict[tuple[str, int, bytes], Answer] = OrderedDict()


def key(engine: Engine, state: Any, seat: int, decision: Decision) -> tuple[str, int, bytes]:
    """The seat's view of `state` and its pending decision, as a short digest (views are
    equal on the real state and on every determinization for the seat). The decision is
    part of it because a view need not show a turn's steps so far (Keyflower's does not);
    the log is not, because the AI's determinizations have none (`levels.determinized`)."""
    options = [o.id for o in decision.options]
    shown = (decision.kind, decision.min_choices, decision.max_choices, options)
    view = {k: v for k, v in engine.view(state, seat).items() if k != "log"}
    seen = repr((view, shown)).encode()
    return engine.id, seat, hashlib.blake2b(seen, digest_size=16).digest()


def _keep(entry: tuple[str, int, bytes], answer: Answer) -> None:
    _planned[entry] = answer
    while len(_planned) > REMEMBERED:
        _planned.popitem(last=False)


def planned(
    engine: Engine,
    state: Any,
    seat: int,
    decision: Decision,
    policy: Policy,
    rng: random.Random,
) -> Answer | None:
    """The answer for this step of a turn if the plan foresaw it: the plan's own, or the
    good player's for the steps after the plan (then the step after this one is marked for
    the good player too, if the turn goes on)."""
    answer = _planned.pop(key(engine, state, seat, decision), None)
    if answer is None:
        return None
    if answer != GOOD:
        return answer if is_legal(decision, answer) else None
    det = determinized(engine, state, seat, rng.getrandbits(63))
    answer = tuple(policy(det, decision, rng))
    det = step(engine, det, decision, answer)
    after = own_decision(engine, det, seat)
    if after is not None:
        _keep(key(engine, det, seat, after), GOOD)
    return answer


def remember(engine: Engine, state: Any, seat: int, plan: Plan, rng: random.Random) -> None:
    """Walk the plan on a determinization of `state` (its first step is the answer given
    now) and remember the answer of each later step by what the seat will see there, and
    that the good player answers the step after the plan, if the turn goes on."""
    det = determinized(engine, state, seat, rng.getrandbits(63))
    for index, answer in enumerate(plan):
        decision = own_decision(engine, det, seat)
        if decision is None or not is_legal(decision, answer):
            return  # the plan no longer fits: the step will be searched
        if index > 0:
            _keep(key(engine, det, seat, decision), answer)
        det = step(engine, det, decision, answer)
    decision = own_decision(engine, det, seat)
    if decision is not None:
        _keep(key(engine, det, seat, decision), GOOD)


def forget() -> None:
    """Drop every remembered plan (tests)."""
    _planned.clear()
