"""The game ends when the last chronicle space or grave is taken, after everyone else's
final turn and a final mass (BB "遊戲結束")."""

from __future__ import annotations

import random

import pytest

from meeple_hall.games.core import Action
from meeple_hall.games.village import data, engine


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


def near_the_end(num_players: int, seed: int):
    """A game whose graves have exactly one free space left, seat 0 to act on a market."""
    from tests.games.village.test_rulebook_examples import at_turn

    state = engine.new(num_players, seed, {"compensation": "off"})
    state = at_turn(state, 0, market=["pink"], harvest=["green", "green", "green"])
    state.graves = ["2" if g == "" else g for g in state.graves]
    state.graves[0] = ""
    state.chronicle = {k: ["2" if s == "" else s for s in v] for k, v in state.chronicle.items()}
    state.chronicle["council"][0] = ""
    state.stalls = ["c02", "c18", "c21", "", ""]
    return state


def test_end_in_someone_elses_market_day_gives_everyone_a_final_turn_trigger_last() -> None:
    from tests.games.village.test_rulebook_examples import choose

    state = near_the_end(3, seed=12)
    state.players[0].grain = 0
    state.players[1].grain = 3
    state.players[1].cubes["green"] = 1
    state.players[1].time = data.track_length() - 1
    state = choose(state, 0, "market-pink")
    state = choose(state, 1, "serve-c02")  # seat 2 pays 1 time: the quill, the last grave
    assert state.ending and state.ender == 1 and state.market_ender == 0
    seats = []
    while engine.decisions(state):
        decision = engine.decisions(state)[0]
        if decision.kind == "turn":
            seats.append(decision.seat)
        option = "harvest-green" if decision.kind == "turn" else decision.options[-1].id
        state = engine.apply(state, Action(decision.seat, (option,)))
    assert seats == [1, 2, 0]


def test_end_in_ones_own_market_day_gives_the_others_a_final_turn() -> None:
    from tests.games.village.test_rulebook_examples import choose

    state = near_the_end(3, seed=13)
    state.players[0].grain = 5
    state.players[0].goods["wagon"] = 1
    state.players[0].cubes["green"] = 1
    state.players[0].time = data.track_length() - 1
    state.players[1].grain = state.players[2].grain = 0
    state = choose(state, 0, "market-pink")
    state = choose(state, 0, "serve-c02")  # the trigger's first sale is free: no time
    assert not state.ending
    state = choose(state, 0, "serve-c21")  # 1 green and 1 time: the quill, the last grave
    assert state.ending and state.ender == 0 and state.market_ender is None
    seats = []
    while engine.decisions(state):
        decision = engine.decisions(state)[0]
        if decision.kind == "turn":
            seats.append(decision.seat)
        option = "harvest-green" if decision.kind == "turn" else decision.options[-1].id
        state = engine.apply(state, Action(decision.seat, (option,)))
    assert seats == [1, 2]


def test_the_view_ranks_ties_as_the_result_does() -> None:
    state = engine.new(3, seed=6)
    while pending := engine.decisions(state):
        d = pending[0]
        state = engine.apply(state, Action(d.seat, (d.options[0].id,)))
    result = engine.result(state)
    assert result is not None
    assert engine.view(state, None)["ranks"] == list(result.ranks)
