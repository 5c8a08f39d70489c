"""What a cut-off playout is worth: each game's good player's own estimate of final points."""

from __future__ import annotations

import random

import pytest

from meeple_hall import games
from meeple_hall.games.ai import evaluate, levels
from meeple_hall.games.core import Action

GAMES = ("burgundy", "coffee", "keyflower", "village")


def good_moves(game_id: str, players: int, moves: int | None, seed: int = 2):
    engine = games.get(game_id)
    state = engine.new(players, seed)
    policy = levels.good_policy(game_id)
    rng = random.Random(seed)
    done = 0
    while (moves is None or done < moves) and engine.decisions(state):
        decision = engine.decisions(state)[0]
        state = engine.apply(state, Action(decision.seat, policy(state, decision, rng)))
        done += 1
    return engine, state


@pytest.mark.parametrize("game_id", GAMES)
def test_each_game_is_valued_by_its_good_players_estimate(game_id: str) -> None:
    _, state = good_moves(game_id, 2, 30)
    module = levels.strategy(game_id)
    values = evaluate.for_game(game_id)(state)
    assert values == [module.evaluate(state, seat) for seat in range(2)]
    now = evaluate.points_now(game_id)
    assert now is not None
    # Mid-game the estimate counts what the seats hold, not only what would score today.
    assert values != [now(state, seat) for seat in range(2)]


def test_keyflower_estimate_is_the_score_once_the_game_is_over() -> None:
    engine, state = good_moves("keyflower", 2, None)
    result = engine.result(state)
    assert result is not None
    assert evaluate.for_game("keyflower")(state) == [float(s) for s in result.scores]


def test_a_failing_estimate_falls_back_to_the_end_scoring(monkeypatch) -> None:
    _, state = good_moves("burgundy", 2, 10)
    module = levels.strategy("burgundy")

    def broken(state, seat):
        raise ValueError("not a position this player decides in")

    monkeypatch.setattr(module, "evaluate", broken)
    now = evaluate.points_now("burgundy")
    assert now is not None
    assert evaluate.for_game("burgundy")(state) == [now(state, seat) for seat in range(2)]


def test_only_games_whose_estimate_holds_at_a_turns_end_rate_plans_by_it() -> None:
    # Burgundy's estimate of a finished turn is sound (the dice are known, nothing is bid);
    # Keyflower's bids are only settled by the season's end, which a playout reaches.
    assert evaluate.rated_turns("burgundy")
    assert not evaluate.rated_turns("keyflower")
