"""games/core/undo.py: the log's undo entries, the moves standing, replays with undos, and
the reveals the engines declare beyond the marks."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from meeple_hall import games
from meeple_hall.games import Action, Decision, GameError, Option, Result
from meeple_hall.games.core import Rng
from meeple_hall.games.core.contract import is_option_id
from meeple_hall.games.core.engine import GameEngine
from meeple_hall.games.core.undo import (
    UNDO,
    History,
    NoUndo,
    replay,
    snapshot_holds,
    standing,
    undo_choices,
    undone_seq,
    with_chain,
)
from meeple_hall.games.testing import check_conformance
from tests.testgame import engine as pebbles


@dataclass(frozen=True)
class Line:
    seq: int
    seat: int
    choices: tuple[str, ...]


def test_an_undo_entry_is_no_game_option():
    assert not is_option_id(UNDO)
    assert undone_seq(undo_choices(12)) == 12
    assert undone_seq(("undo", "12")) is None and undone_seq((UNDO, "x")) is None


def test_standing_moves_and_snapshots():
    log = [
        Line(1, 0, ("a",)),
        Line(2, 1, ("b",)),
        Line(3, 1, undo_choices(2)),
        Line(4, 1, ("c",)),
    ]
    assert [e.seq for e in standing(log)] == [1, 4]
    assert snapshot_holds(1, log[1:]) and not snapshot_holds(2, log[2:])


def bids(*amounts: int) -> list[Line]:
    return [Line(i + 1, i, (f"bid{a}",)) for i, a in enumerate(amounts)]


def test_replay_honours_undo_entries_and_refuses_forged_ones():
    start = pebbles.new(3, seed=5)
    log = [*bids(2, 1), Line(3, 0, undo_choices(1)), Line(4, 0, ("bid0",))]
    state, _ = replay(pebbles, log, start)
    expected = start
    for action in (Action(1, ("bid1",)), Action(0, ("bid0",))):
        expected = pebbles.apply(expected, action)
    assert pebbles.dump(state) == pebbles.dump(expected)

    with pytest.raises(GameError, match="takes back 1, not 2"):
        replay(pebbles, [*bids(2, 1), Line(3, 1, undo_choices(1))], start)
    # all three bids: the last one shows them, so no undo may cross it
    with pytest.raises(GameError, match="not allowed"):
        replay(pebbles, [*bids(2, 1, 0), Line(4, 0, undo_choices(1))], start)


def test_an_undo_goes_back_one_own_move_at_a_time():
    state = pebbles.new(2, seed=3)
    state, history = replay(pebbles, bids(2, 1), state, History())
    pool = list(state.pool)
    first = state
    state = pebbles.apply(state, Action(0, (pool[0],)))
    history = history.moved(pebbles, 3, Action(0, (pool[0],)), first, state)
    plan = history.plan_undo(pebbles, state, 0)
    assert plan.target == 3 and pebbles.dump(plan.state) == pebbles.dump(first)
    with pytest.raises(NoUndo) as refused:
        plan.history.plan_undo(pebbles, plan.state, 0)  # her bid was shown
    assert refused.value.reason == "reveal"
    with pytest.raises(NoUndo) as refused:
        history.plan_undo(pebbles, state, 1)  # Bob's bid was the one that showed both
    assert refused.value.reason == "reveal"


def keyflower_until(kind: str, seed: int = 1):
    engine = games.get("keyflower")
    state, rng = engine.new(3, seed), random.Random(seed)
    while True:
        pending = engine.decisions(state)
        decision = next((d for d in pending if d.kind == kind), None)
        if decision is not None:
            return engine, state, decision, pending
        d = rng.choice(pending)
        options = [o.id for o in d.options if o.id != "back"] or [d.options[0].id]
        picked = tuple(rng.sample(options, d.min_choices or 1)[: max(1, d.min_choices)])
        state = engine.apply(state, Action(d.seat, picked))


def test_keyflower_workers_from_behind_a_screen_are_a_reveal():
    engine, state, decision, _ = keyflower_until("count")
    action = Action(decision.seat, (decision.options[0].id,))
    after = engine.apply(state, action)
    assert sum(after.players[decision.seat].screen.values()) < sum(
        state.players[decision.seat].screen.values()
    )
    assert engine.reveals(state, action, after)


def test_keyflower_winter_picks_are_undone_beside_the_others_picks():
    engine, state, _, pending = keyflower_until("winter")
    assert len(pending) == 3  # chosen by everyone at once
    first, second = pending[0], pending[1]
    a = Action(first.seat, tuple(o.id for o in first.options[: first.min_choices]))
    b = Action(second.seat, tuple(o.id for o in second.options[: second.min_choices]))
    mid = engine.apply(state, a)
    end = engine.apply(mid, b)
    history = History().moved(engine, 1, a, state, mid).moved(engine, 2, b, mid, end)
    assert not any(step.reveals for step in history.steps)
    plan = history.plan_undo(engine, end, first.seat)
    assert plan.target == 1
    assert engine.dump(plan.state) == engine.dump(engine.apply(state, b))


def test_the_conformance_checks_catch_a_reveal_the_engine_does_not_declare(monkeypatch):
    """Pebbles without its declaration that the last bid shows all bids fails the checks."""
    check_conformance(pebbles, 2, seed=1, deep_every=1)
    monkeypatch.setattr(type(pebbles), "shows_secret", lambda self, before, action, after: False)
    with pytest.raises(AssertionError, match="could not have known"):
        check_conformance(pebbles, 2, seed=1, deep_every=1)


def test_only_the_last_states_are_kept(monkeypatch):
    from meeple_hall.games.core import undo

    monkeypatch.setattr(undo, "HELD_MOST", 1)
    state = pebbles.new(2, seed=3)
    state, history = replay(pebbles, bids(2, 1), state, History())
    for seq, seat in ((3, 0), (4, 1)):
        action = Action(seat, (state.pool[0],))
        after = pebbles.apply(state, action)
        history, state = history.moved(pebbles, seq, action, state, after), after
    assert list(history.befores) == [4]
    with pytest.raises(NoUndo) as refused:
        history.plan_undo(pebbles, state, 0)
    assert refused.value.reason == "too_far"
    assert history.plan_undo(pebbles, state, 1).target == 4


# -- one click, one undo: the moves of a panel's folded line ------------------------------
@dataclass
class TwoStepState:
    rng: Rng
    done: list[str] = field(default_factory=list)


class TwoSteps(GameEngine[TwoStepState]):
    """Seat 0 makes two moves in a row ("x", or "s", which shows a secret), then seat 1 one."""

    id = "two_steps"
    name = "Two steps"
    min_players = 2
    max_players = 2
    state_type = TwoStepState

    def setup(self, num_players: int, rng: Rng, options: dict[str, str]) -> TwoStepState:
        return TwoStepState(rng=rng)

    def decisions(self, state: TwoStepState) -> list[Decision]:
        seat = 0 if len(state.done) % 3 < 2 else 1
        options = (Option("x", "X"), Option("s", "Show"))
        return [Decision(seat, "step", "Step", options)] if len(state.done) < 9 else []

    def perform(self, state: TwoStepState, decision: Decision, choices: tuple[str, ...]) -> None:
        state.done.append(choices[0])

    def view(self, state: TwoStepState, seat: int | None) -> dict[str, object]:
        return {"num_players": 2, "done": list(state.done)}

    def shows_secret(self, before: TwoStepState, action: Action, after: TwoStepState) -> bool:
        return action.choices == ("s",)

    def result(self, state: TwoStepState) -> Result | None:
        return None


@dataclass(frozen=True)
class ChainedLine(Line):
    chained: bool = False


def test_the_moves_of_one_submission_are_taken_back_together():
    engine = TwoSteps()
    start = engine.new(2, seed=1)
    log = [ChainedLine(1, 0, ("x",)), ChainedLine(2, 0, ("x",), chained=True)]
    state, history = replay(engine, log, start, History())
    assert [step.chained for step in history.steps] == [False, True]
    plans = with_chain(engine, history.plan_undo(engine, state, 0))
    assert [plan.target for plan in plans] == [2, 1]
    assert engine.dump(plans[-1].state) == engine.dump(start)
    # the log of that click: its two undo entries, replayed one after the other
    undos = [ChainedLine(3, 0, undo_choices(2)), ChainedLine(4, 0, undo_choices(1), True)]
    again, _ = replay(engine, [*log, *undos], start, History())
    assert engine.dump(again) == engine.dump(start)

    # the same two moves made by two clicks are taken back one a click
    apart = [ChainedLine(1, 0, ("x",)), ChainedLine(2, 0, ("x",))]
    state, history = replay(engine, apart, start, History())
    assert [plan.target for plan in with_chain(engine, history.plan_undo(engine, state, 0))] == [2]


def test_a_chain_is_taken_back_only_as_far_as_undo_allows():
    engine = TwoSteps()
    start = engine.new(2, seed=1)
    # the chain's first move showed a secret: one undo takes back the second alone
    log = [ChainedLine(1, 0, ("s",)), ChainedLine(2, 0, ("x",), chained=True)]
    state, history = replay(engine, log, start, History())
    plans = with_chain(engine, history.plan_undo(engine, state, 0))
    assert [plan.target for plan in plans] == [2]
    assert plans[0].state.done == ["s"]
    # a chain whose last move showed a secret is not taken back at all
    log = [ChainedLine(1, 0, ("x",)), ChainedLine(2, 0, ("s",), chained=True)]
    state, history = replay(engine, log, start, History())
    with pytest.raises(NoUndo) as refused:
        history.plan_undo(engine, state, 0)
    assert refused.value.reason == "reveal"
