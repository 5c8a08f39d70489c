"""The strong search on the real games: what it weighs."""

from __future__ import annotations

import random

from meeple_hall import games
from meeple_hall.games.ai import evaluate, levels, mcts, turns
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
    assert all((mcts.STEP_BACK,) not in c.plan for c in run.candidates)
    assert len(run.candidates) >= 2


def keyflower_turn_start(seed: int) -> tuple[object, object]:
    """Keyflower at 2 players, played by the good player up to a seat's first step of a
    turn that takes several steps (action, tile, colour, workers)."""
    engine = games.get("keyflower")
    state = engine.new(2, seed)
    policy = levels.good_policy("keyflower")
    rng = random.Random(seed)
    while True:
        decision = engine.decisions(state)[0]
        answer = tuple(policy(state, decision, rng))
        if decision.kind == "action" and answer != ("pass",):
            return engine, state
        state = engine.apply(state, Action(decision.seat, answer))


def test_a_keyflower_plan_is_a_whole_turn() -> None:
    engine, state = keyflower_turn_start(1)
    seat = engine.decisions(state)[0].seat
    run = mcts.Search(
        engine,
        state,
        seat,
        random.Random(2),
        levels.good_policy("keyflower"),
        evaluate.for_game("keyflower"),
        10.0,
        None,
    )
    run.pick_candidates(engine.determinize(state, seat, 3))
    kinds = []
    det = engine.determinize(state, seat, 3)
    for answer in run.good_turn:
        decision = engine.decisions(det)[0]
        kinds.append(decision.kind)
        det = engine.apply(det, Action(seat, answer))
    assert kinds[:4] == ["action", "location", "colour", "count"]
    assert engine.decisions(det)[0].seat != seat  # the plan runs to the end of the turn
    # The plans rated differ from good's turn anywhere in it, not only in its first step.
    first = engine.decisions(state)[0]
    firsts = [o for o in first.options if o.id != mcts.STEP_BACK]
    assert run.stats.plans > len(firsts)


def test_the_strong_level_searches_once_a_turn_and_follows_its_plan(monkeypatch) -> None:
    engine, state = keyflower_turn_start(4)
    seat = engine.decisions(state)[0].seat
    turns.forget()
    searched: list[tuple[str, ...]] = []
    plans: list[mcts.Plan] = []
    original = mcts.search_turn

    def counting(*args, **kwargs):
        searched.append(engine.decisions(args[1])[0].kind)
        plans.append(original(*args, **kwargs))
        return plans[-1]

    monkeypatch.setattr(mcts, "search_turn", counting)
    given = []
    while engine.decisions(state)[0].seat == seat:
        answer = levels.choose(engine, state, seat, "strong", seed=len(given), think=0.05)
        given.append(answer)
        state = engine.apply(state, Action(seat, answer))
    assert searched == ["action"]  # only the turn's first step was searched
    assert len(given) >= 4
    assert tuple(given[: len(plans[0])]) == plans[0]  # the plan's steps, as planned


def test_a_step_the_plan_did_not_foresee_is_searched() -> None:
    engine, state = keyflower_turn_start(4)
    seat = engine.decisions(state)[0].seat
    turns.forget()
    policy = levels.good_policy("keyflower")
    rng = random.Random(1)
    plan = (("bid",),)
    turns.remember(engine, state, seat, plan, rng)
    after_bid = engine.apply(state, Action(seat, ("bid",)))
    after_use = engine.apply(state, Action(seat, ("use",)))
    decision = engine.decisions(after_use)[0]
    assert turns.planned(engine, after_use, seat, decision, policy, rng) is None
    decision = engine.decisions(after_bid)[0]
    # After the plan's own steps, the good player answers, from the plan's memory.
    assert turns.planned(engine, after_bid, seat, decision, policy, rng) is not None
