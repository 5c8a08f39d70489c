"""The strong search on the real games: what it weighs."""

from __future__ import annotations

import random

from meeple_hall import games
from meeple_hall.games.ai import evaluate, levels, mcts
from meeple_hall.games.core import Action


def test_keyflowers_back_is_never_weighed_as_a_move() -> None:
    """Cancelling the turn's steps leads back to a decision already weighed; a search that
    weighs it can go round in circles."""
    engine = games.get("keyflower")
    state = engine.new(2, 1)
    policy = levels.good_policy("keyflower")
    rng = random.Random(1)
    while True:
        decision = engine.decisions(state)[0]
        if any(o.id == mcts.STEP_BACK for o in decision.options) and len(decision.options) > 2:
            break
        state = engine.apply(state, Action(decision.seat, policy(state, decision, rng)))
    run = mcts.Search(
        engine,
        state,
        decision.seat,
        random.Random(2),
        policy,
        evaluate.for_game("keyflower"),
        10.0,
        None,
    )
    assert (mcts.STEP_BACK,) not in run.answers()
    run.pick_candidates(engine.determinize(state, decision.seat, 3))
    assert all(mcts.STEP_BACK not in c.key for c in run.candidates)
    assert len(run.candidates) >= 2
