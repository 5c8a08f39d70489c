"""Why the `good` player answers as it does: its answer to a seat's decision with the
feature that decided it, for `/hint` (bot/hints.py).

The good players (`games/<game>/strategy.py`) choose by an estimate of the seat's final
points (`strategy.evaluate`): the points the end scoring would give now, plus what the
position is worth on the way there. A reason says which part of that carried the answer,
in no language: a `Reason` is a kind and its numbers (and a scoring category as the game's
catalogue names it); the bot words it in the reader's language (`hint.reason.<kind>`).

- `only`: nothing to weigh, the decision has one answer;
- `points`: it scores the most points now of the answers offered (`points`, the most of
  them in `category`);
- `estimate`: it scores no more now, but leaves the seat's estimated final score the
  highest of the answers offered (`after`, against `next` for the next best);
- `plan`: it is a step of the turn the good player plans (the steps after it, weighed
  together, make the best turn; on its own this step is not the highest).

Everything is worked out on a determinized state (what the seat knows), never the real one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from meeple_hall import games
from meeple_hall.games.ai import levels
from meeple_hall.games.ai.evaluate import strategy_estimate
from meeple_hall.games.core import Action, Decision, Engine, GameError, Msg
from meeple_hall.games.core.catalogues import score_category

# answers weighed against the chosen one (a decision can offer many hexes or tiles)
MOST_WEIGHED = 60
TIE = 1e-6


@dataclass(frozen=True)
class Reason:
    kind: str
    numbers: dict[str, int] = field(default_factory=dict)
    category: Msg | str | None = None  # the scoring category that gained most (`points`)


@dataclass(frozen=True)
class Advice:
    choices: tuple[str, ...]
    reason: Reason


Breakdown = Callable[[Any, int], dict[str, int]]


def breakdown_for(game_id: str) -> Breakdown | None:
    """The game's end scoring of a seat by category, applied to the state as it is."""
    if game_id == "keyflower":
        from meeple_hall.games.keyflower import scoring as keyflower

        return lambda state, seat: dict(keyflower.score(state, seat)[0])
    if game_id == "burgundy":
        from meeple_hall.games.burgundy import scoring as burgundy

        return lambda state, seat: dict(burgundy.breakdown(state.players[seat]))
    if game_id == "village":
        from meeple_hall.games.village import scoring as village

        return lambda state, seat: dict(village.breakdown(state, seat))
    if game_id == "coffee":
        from meeple_hall.games.coffee import scoring as coffee

        return lambda state, seat: dict(coffee.breakdown(state, seat))
    return None


def advise(engine: Engine, state: Any, seat: int, seed: int) -> Advice:
    """The good level's answer to the seat's decision (exactly `levels.choose(..., "good",
    seed)`) and the reason for it."""
    choices = levels.choose(engine, state, seat, "good", seed)
    decision = levels.decision_for(engine, state, seat)
    known = levels.determinized(engine, state, seat, random.Random(seed).getrandbits(63))
    return Advice(choices, reason_for(engine, known, decision, choices))


def advise_from_dump(game_id: str, state_dump: str, seat: int, seed: int) -> Advice:
    """What runs in a worker process (bot/hints.py): the good player's answer and its reason
    on a dumped state. Here, not in bot/hints.py: a spawned worker imports the module of the
    function it is given, and this one imports nothing of the bot's Discord side."""
    engine = games.get(game_id)
    return advise(engine, engine.load(state_dump), seat, seed)


def reason_for(engine: Engine, state: Any, decision: Decision, choices: tuple[str, ...]) -> Reason:
    """Why `choices` answer `decision` in `state` (a state the seat cannot tell from the
    real one)."""
    if len(decision.options) <= 1 or _only_answer(decision):
        return Reason("only")
    seat = decision.seat
    scoring = breakdown_for(engine.id)
    estimate = strategy_estimate(engine.id)
    if scoring is None or estimate is None:
        return Reason("plan")
    before = scoring(state, seat)
    weighed = _weighed(engine, state, decision, choices, scoring, estimate)
    chosen = weighed.pop(choices, None)
    if chosen is None:
        return Reason("plan")
    gains, after = chosen
    gained = sum(gains.values()) - sum(before.values())
    if gained > 0 and all(sum(g.values()) <= sum(gains.values()) for g, _ in weighed.values()):
        category = max(gains, key=lambda k: gains[k] - before.get(k, 0))
        return Reason("points", {"points": gained}, score_category(engine.id, category))
    best_other = max((e for _, e in weighed.values()), default=None)
    if best_other is None or after + TIE >= best_other:
        numbers = {"after": round(after)}
        if best_other is not None:
            numbers["next"] = round(best_other)
        return Reason("estimate", numbers)
    return Reason("plan")


def _only_answer(decision: Decision) -> bool:
    return decision.min_choices == decision.max_choices == len(decision.options)


def _weighed(
    engine: Engine,
    state: Any,
    decision: Decision,
    choices: tuple[str, ...],
    scoring: Breakdown,
    estimate: Callable[[Any, int], float],
) -> dict[tuple[str, ...], tuple[dict[str, int], float]]:
    """The chosen answer and the other single answers offered (at most MOST_WEIGHED): each
    one's end scoring and estimated final score after it."""
    answers = [choices]
    if decision.min_choices <= 1 <= decision.max_choices:
        answers += [(o.id,) for o in decision.options[:MOST_WEIGHED] if (o.id,) != choices]
    out = {}
    for answer in answers:
        try:
            after = engine.apply(state, Action(decision.seat, answer))
        except GameError:
            continue
        out[answer] = (scoring(after, decision.seat), estimate(after, decision.seat))
    return out
