"""What a position is worth to each seat when a playout is cut off before the end.

An evaluation estimates every seat's final score on a (determinized) state. Each game's
strategy module offers its own, `evaluate(state, seat) -> float` (the estimate of final
points its good player decides by); a game without one is valued by the points a seat
would have if the game ended now (the game's own end scoring). A strategy module may also
mark its game's phases, `phase(state)`, where a cut-off playout best stops.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeple_hall.games.ai.levels import NoStrategy, strategy

Evaluate = Callable[[Any], list[float]]
Phase = Callable[[Any], object]
"""A mark of the game's phase (Keyflower's season): where it changes, a playout cut short
ends at a natural point for the evaluation."""


def seats(state: Any) -> int:
    count = getattr(state, "num_players", None)
    return count if isinstance(count, int) else len(state.players)


def points_now(game_id: str) -> Callable[[Any, int], float] | None:
    """The game's end scoring applied to the state as it is, if the game has one."""
    if game_id == "keyflower":
        from meeple_hall.games.keyflower import scoring as keyflower

        return lambda state, seat: float(sum(keyflower.score(state, seat)[0].values()))
    if game_id == "burgundy":
        from meeple_hall.games.burgundy import scoring as burgundy

        return lambda state, seat: float(sum(burgundy.breakdown(state.players[seat]).values()))
    if game_id == "village":
        from meeple_hall.games.village import scoring as village

        return lambda state, seat: float(sum(village.breakdown(state, seat).values()))
    if game_id == "coffee":
        from meeple_hall.games.coffee import scoring as coffee

        return lambda state, seat: float(sum(coffee.breakdown(state, seat).values()))
    return None


def strategy_estimate(game_id: str) -> Callable[[Any, int], float] | None:
    """The good player's own estimate of a seat's final points, where it has one."""
    try:
        module = strategy(game_id)
    except NoStrategy:
        return None
    estimate = getattr(module, "evaluate", None)
    if not callable(estimate):
        return None
    fallback = points_now(game_id)
    if fallback is None:
        return estimate

    def guarded(state: Any, seat: int) -> float:
        # A strategy's value is written for positions it decides in; on a few leaves
        # (Burgundy: a discard step with empty storage) it fails, and the end scoring
        # stands in.
        try:
            return estimate(state, seat)
        except ValueError:
            return fallback(state, seat)

    return guarded


def phase_for(game_id: str) -> Phase | None:
    """The strategy module's `phase(state)`, where it has one."""
    try:
        module = strategy(game_id)
    except NoStrategy:
        return None
    phase = getattr(module, "phase", None)
    return phase if callable(phase) else None


def rated_turns(game_id: str) -> bool:
    """Whether the strategy module marks its estimate as sound where a seat's own turn ends
    (`RATED_TURNS = True`): then the search's default is the plan of the turn rated best
    there, not the good player's own turn (see `mcts`). An estimate that only a playout
    makes sound (Keyflower's bids wait for the season's end) leaves it False."""
    try:
        module = strategy(game_id)
    except NoStrategy:
        return False
    return bool(getattr(module, "RATED_TURNS", False))


def for_game(game_id: str) -> Evaluate:
    per_seat = strategy_estimate(game_id) or points_now(game_id)
    if per_seat is None:
        return lambda state: [0.0] * seats(state)
    return lambda state: [per_seat(state, seat) for seat in range(seats(state))]
