"""The conformance checks of undo (games/core/undo.py), run by `games.testing.check_conformance`.

At a move `action` taking `before` to `after`:

- `engine.reveals` is true whenever the move drew or turned anything over (a generator or a
  marked field changed) and whenever another seat's private view changed;
- a move that reveals nothing teaches nobody anything: from a determinization of `before`
  for its actor or for another seat (anything that seat cannot see drawn again), the same
  move, where it is legal, shows that seat the same view afterwards;
- an undo of a move that reveals nothing is offered and, replayed from the log, restores
  `before` byte for byte in `dump()`; an undo across a reveal is refused;
- another seat's answer to a decision that was open beside the actor's does not block the
  undo (the state is then `before` with that answer), while any other seat's move does.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from meeple_hall.games.core.contract import Action, Engine, IllegalAction
from meeple_hall.games.core.hidden import hidden_parts
from meeple_hall.games.core.undo import History, NoUndo, replay, undo_choices


@dataclass(frozen=True)
class LogLine:
    seq: int
    seat: int
    choices: tuple[str, ...]


def _private(engine: Engine, state: Any, seat: int) -> str:
    public = engine.view(state, None)
    mine = engine.view(state, seat)
    return json.dumps({k: v for k, v in mine.items() if public.get(k) != v}, sort_keys=True)


def check_undo(
    engine: Engine,
    before: Any,
    action: Action,
    after: Any,
    num_players: int,
    rng: random.Random,
    choose: Any,
) -> None:
    reveals = engine.reveals(before, action, after)
    if hidden_parts(before) != hidden_parts(after):
        assert reveals, f"{action} drew or turned something over, but reveals() says no"
    for seat in range(num_players):
        if seat != action.seat and _private(engine, before, seat) != _private(engine, after, seat):
            assert reveals, f"{action} changed seat {seat}'s secrets, but reveals() says no"
    if not reveals:
        _check_learns_nothing(engine, before, action, after, num_players, rng)

    # The log: move 1 is `action` (from `before`, as from a snapshot), move 2 its undo.
    moved = [LogLine(1, action.seat, tuple(action.choices))]
    state, history = replay(engine, moved, before, History())
    assert engine.dump(state) == engine.dump(after), "replaying the move changed its outcome"
    if reveals:
        try:
            history.plan_undo(engine, state, action.seat)
        except NoUndo as refused:
            assert refused.reason == "reveal", refused.reason
        else:
            raise AssertionError(f"an undo of {action} was offered across a draw or reveal")
        return
    plan = history.plan_undo(engine, state, action.seat)
    assert plan.target == 1
    undone, _ = replay(engine, [*moved, LogLine(2, action.seat, undo_choices(1))], before)
    assert engine.dump(undone) == engine.dump(before), "an undo did not restore the state"
    assert engine.dump(plan.state) == engine.dump(before), "an undo plan is not the old state"
    _check_others_since(engine, before, action, after, history, rng, choose)


def _check_learns_nothing(
    engine: Engine,
    before: Any,
    action: Action,
    after: Any,
    num_players: int,
    rng: random.Random,
) -> None:
    seats = {action.seat, rng.randrange(num_players)}
    for seat in sorted(seats):
        guess = engine.determinize(before, seat, rng.getrandbits(32))
        try:
            imagined = engine.apply(guess, action)
        except IllegalAction:
            # the move depends on the actor's secret, which `seat` cannot know
            assert seat != action.seat, f"{action} refused in its actor's determinization"
            continue
        assert engine.view(imagined, seat) == engine.view(after, seat), (
            f"{action} showed seat {seat} something it could not have known, "
            "but reveals() says it reveals nothing"
        )


def _check_others_since(
    engine: Engine,
    before: Any,
    action: Action,
    after: Any,
    history: History,
    rng: random.Random,
    choose: Any,
) -> None:
    """After the move, another seat answers (if any must): the undo stands only if that seat's
    decision was open beside the actor's and neither move revealed anything."""
    others = [d for d in engine.decisions(after) if d.seat != action.seat]
    if not others:
        return
    decision = rng.choice(others)
    answer = Action(decision.seat, tuple(choose(decision, rng)))
    later = engine.apply(after, answer)
    history = history.moved(engine, 2, answer, after, later)
    simultaneous = any(d == decision for d in engine.decisions(before))
    try:
        plan = history.plan_undo(engine, later, action.seat)
    except NoUndo as refused:
        if simultaneous:
            assert refused.reason == "reveal" and history.steps[-1].reveals, (
                f"an undo of {action} was refused ({refused.reason}) after a simultaneous answer"
            )
        else:
            assert refused.reason in ("other_acted", "reveal"), refused.reason
        return
    assert simultaneous, f"an undo of {action} was offered after seat {decision.seat} acted"
    assert not history.steps[-1].reveals, f"an undo of {action} was offered across a reveal"
    alone = engine.apply(before, answer)
    assert engine.dump(plan.state) == engine.dump(alone), (
        "an undo past a simultaneous answer is not the state with that answer alone"
    )
