"""The game ends when the last chronicle space or grave is taken, after everyone else's
final turn and a final mass (BB "遊戲結束")."""

from __future__ import annotations

import random

import pytest

from games.core import Action
from games.village import engine


def full(slots: list[str]) -> bool:
    return "" not in slots


@pytest.mark.parametrize(("num_players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4), (2, 9), (3, 10)])
def test_random_games_end_with_a_full_chronicle_or_graves_and_one_turn_each(
    num_players: int, seed: int
) -> None:
    rng = random.Random(seed)
    state = engine.new(num_players, seed)
    finals: list[int] = []
    ender = None
    while pending := engine.decisions(state):
        decision = pending[0]
        if state.ending and decision.kind == "turn":
            finals.append(decision.seat)
        was_ending = state.ending
        state = engine.apply(state, Action(decision.seat, (rng.choice(decision.options).id,)))
        if state.ending and not was_ending:
            ender = state.ender
    assert state.ending and ender is not None
    chronicle_full = all(full(s) for s in state.chronicle.values())
    assert chronicle_full or full(state.graves)
    expected = {s for s in range(num_players) if s != ender or state.market_ender is not None}
    assert set(finals) == expected
    assert len(finals) == len(expected)
    assert state.phase == "over" and engine.result(state) is not None
