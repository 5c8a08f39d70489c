"""The AI levels behind one call: `choose(engine, state, seat, level, seed, think)`.

- `random`: a random legal answer (the baseline, kept for tests and benchmarks).
- `good`: the game's heuristic player, `meeple_hall.games.<game>.strategy.choose`, given a
  state determinized for its seat (it must answer in under 50 ms).
- `strong`: a search over determinized states (`mcts`) with `good` playing out the futures;
  it plans the seat's whole turn at its first step and follows the plan (`turns`) through
  the turn's later steps.

`state` may be the real state: each level sees it only through `determinize`, so no level
can read another seat's hand or the next draw.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

from meeple_hall.games.core import Decision, Engine, GameError

LEVELS = ("random", "good", "strong")
DEFAULT_THINK = 2.0

Policy = Callable[[Any, Decision, random.Random], tuple[str, ...]]
"""A player on a determinized state: `(state, decision, rng) -> chosen option ids`."""


class NoStrategy(GameError):
    """The game has no `good` player (yet): `games/<game>/strategy.py` is missing."""


def random_answer(decision: Decision, rng: random.Random) -> tuple[str, ...]:
    """A random legal answer; it chooses something whenever it may (never a bare pass of a
    multi-select that allows choosing nothing, unless nothing is offered)."""
    low = max(decision.min_choices, 1 if decision.max_choices else 0)
    count = rng.randint(low, decision.max_choices)
    return tuple(o.id for o in rng.sample(list(decision.options), count))


def random_policy(state: Any, decision: Decision, rng: random.Random) -> tuple[str, ...]:
    return random_answer(decision, rng)


def strategy(game_id: str) -> ModuleType:
    """The game's `good` player module; NoStrategy when the game has none."""
    name = f"meeple_hall.games.{game_id}.strategy"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if not exc.name or not name.startswith(exc.name):
            raise
        raise NoStrategy(
            f"{game_id} has no good AI player yet (no {name}); only the random level can play it"
        ) from None
    if not callable(getattr(module, "choose", None)):
        raise NoStrategy(f"{name} has no choose(state, decision, rng)")
    return module


def good_policy(game_id: str) -> Policy:
    return strategy(game_id).choose


def determinized(engine: Engine, state: Any, seat: int, seed: int) -> Any:
    """`engine.determinize(state, seat, seed)` without the event log: no rule reads the log
    (it is for players' eyes), and copying its messages was most of a determinization's
    cost. The log is set aside while the copy is made and put back; the copy's is empty."""
    log = getattr(state, "log", None)
    if not isinstance(log, list):
        return engine.determinize(state, seat, seed)
    state.log = []
    try:
        return engine.determinize(state, seat, seed)
    finally:
        state.log = log


def decision_for(engine: Engine, state: Any, seat: int) -> Decision:
    for decision in engine.decisions(state):
        if decision.seat == seat:
            return decision
    raise GameError(f"seat {seat + 1} has nothing to decide now")


def choose(
    engine: Engine,
    state: Any,
    seat: int,
    level: str,
    seed: int,
    think: float = DEFAULT_THINK,
) -> tuple[str, ...]:
    """The level's answer to `seat`'s pending decision in `state` (ids of a legal answer).

    The same arguments give the same answer for `random` and `good`; `strong` stops on the
    clock, so its answer can vary with the machine's speed."""
    decision = decision_for(engine, state, seat)
    rng = random.Random(f"{engine.id}:{seed}:{seat}")
    if level == "random":
        return random_answer(decision, rng)
    if level == "good":
        policy = good_policy(engine.id)
        return policy(determinized(engine, state, seat, rng.getrandbits(63)), decision, rng)
    if level == "strong":
        from meeple_hall.games.ai import evaluate, mcts, turns

        policy = good_policy(engine.id)
        answer = turns.planned(engine, state, seat, decision, policy, rng)
        if answer is not None:
            return answer  # a later step of a turn the search has planned
        forced = mcts.only_answer(decision)
        if forced is not None:
            return forced  # nothing to weigh: the turn's next step is searched, not planned
        plan = mcts.search_turn(
            engine,
            state,
            seat,
            think=think,
            rng=rng,
            policy=policy,
            evaluate=evaluate.for_game(engine.id),
            phase=evaluate.phase_for(engine.id),
            rated_prior=evaluate.rated_turns(engine.id),
        )
        turns.remember(engine, state, seat, plan, rng)
        return plan[0]
    raise GameError(f"unknown AI level {level!r} (levels: {', '.join(LEVELS)})")
