"""The AI levels behind one call, the process pool, and the arena command."""

from __future__ import annotations

import random
import sys
from types import ModuleType

import pytest

from meeple_hall import games
from meeple_hall.cli import main
from meeple_hall.games.ai import arena, levels, pool
from meeple_hall.games.core import Action, GameError
from tests.testgame import PebblesEngine, PebblesState

engine = PebblesEngine()


@pytest.fixture
def pebbles_strategy(monkeypatch: pytest.MonkeyPatch) -> list[PebblesState]:
    """A `good` player for Pebbles that bids nothing, takes the largest pebble, keeps the
    two best cards, and records the states it was shown."""
    seen: list[PebblesState] = []

    def choose(state, decision, rng: random.Random) -> tuple[str, ...]:
        seen.append(state)
        if decision.kind == "bid":
            return ("bid0",)
        best = sorted(decision.options, key=lambda o: int(o.id.split("-")[-1].lstrip("c")))
        return tuple(o.id for o in best[-decision.max_choices :])

    module = ModuleType("meeple_hall.games.pebbles.strategy")
    module.choose = choose  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "meeple_hall.games.pebbles", ModuleType("pebbles"))
    monkeypatch.setitem(sys.modules, module.__name__, module)
    return seen


def test_good_plays_the_games_strategy_on_a_determinized_state(pebbles_strategy) -> None:
    state = engine.new(3, seed=5)
    assert levels.choose(engine, state, 1, "good", seed=7) == ("bid0",)
    (shown,) = pebbles_strategy
    assert shown is not state
    assert engine.view(shown, 1) == engine.view(state, 1)
    others = [p.hand for i, p in enumerate(state.players) if i != 1]
    assert [p.hand for i, p in enumerate(shown.players) if i != 1] != others
    assert shown.rng.state != state.rng.state


def test_good_for_a_game_without_a_strategy_says_so() -> None:
    state = engine.new(2, seed=1)
    with pytest.raises(levels.NoStrategy, match="pebbles has no good AI player yet"):
        levels.choose(engine, state, 0, "good", seed=1)
    with pytest.raises(levels.NoStrategy):
        levels.choose(engine, state, 0, "strong", seed=1, think=0.1)


def test_strong_plays_legal_moves_with_the_good_player(pebbles_strategy) -> None:
    state = engine.new(2, seed=2)
    while engine.decisions(state):
        decision = engine.decisions(state)[0]
        answer = levels.choose(engine, state, decision.seat, "strong", seed=3, think=0.02)
        state = engine.apply(state, Action(decision.seat, answer))
    assert engine.result(state) is not None


def test_random_is_the_same_for_the_same_seed_and_bad_levels_are_refused() -> None:
    state = engine.new(4, seed=9)
    picks = {levels.choose(engine, state, 2, "random", seed=4) for _ in range(3)}
    assert len(picks) == 1
    with pytest.raises(GameError, match="unknown AI level 'genius'"):
        levels.choose(engine, state, 2, "genius", seed=4)
    with pytest.raises(GameError, match="seat 1 has nothing to decide"):
        levels.choose(engine, engine.apply(state, Action(0, ("bid1",))), 0, "random", 1)


async def test_the_pool_answers_from_a_worker_process() -> None:
    coffee = games.get("coffee")
    state = coffee.new(2, seed=6)
    seat = coffee.decisions(state)[0].seat
    try:
        answer = await pool.choose_in_pool("coffee", coffee.dump(state), seat, "random", 11)
    finally:
        pool.shutdown()
    assert answer == levels.choose(coffee, state, seat, "random", 11)
    with pytest.raises(GameError, match="unknown AI level"):
        await pool.choose_in_pool("coffee", coffee.dump(state), seat, "clever", 11)


def test_arena_prints_a_line_per_level(capsys: pytest.CaptureFixture[str]) -> None:
    main(
        ["arena", "--game", "coffee", "--players", "2", "--seats", "random,random", "--games", "6"]
    )
    main(
        [
            "arena",
            "--game",
            "village",
            "--players",
            "3",
            "--seats",
            "random",
            "--games",
            "2",
            "--processes",
            "1",
        ]
    )
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    for line in lines:
        assert line.startswith("random: win ") and " % [" in line and "avg rank" in line
        assert "decision p50" in line and " p95 " in line
    assert "over 12 seat-games" in lines[0] and "win 50.0 %" in lines[0]  # one winner a game


def test_arena_reports_the_solo_score_distribution(capsys: pytest.CaptureFixture[str]) -> None:
    main(
        [
            "arena",
            "--game",
            "village",
            "--players",
            "1",
            "--seats",
            "random",
            "--games",
            "4",
            "--processes",
            "1",
        ]
    )
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith("random: solo score mean ") and "quartiles" in line
    assert "over 4 games" in line


def test_arena_refuses_what_it_cannot_play() -> None:
    with pytest.raises(SystemExit, match="unknown AI level 'smart'"):
        main(["arena", "--game", "coffee", "--players", "2", "--seats", "smart,random"])
    with pytest.raises(SystemExit, match="2–5 players, not 7"):
        main(["arena", "--game", "coffee", "--players", "7", "--seats", "random"])


def test_seats_rotate_and_wilson_bounds_hold() -> None:
    assert [arena.lineup(["strong", "good"], 2, g) for g in range(2)] == [
        ["strong", "good"],
        ["good", "strong"],
    ]
    assert arena.lineup(["good", "random"], 4, 1) == ["random", "good", "random", "good"]
    low, high = arena.wilson(93, 100)
    assert 0.85 < low < 0.93 < high < 0.97
    assert arena.wilson(0, 10)[0] == 0.0


def test_strong_plans_nothing_from_a_step_with_one_answer(pebbles_strategy) -> None:
    """A forced step is answered at once and leaves no plan behind: the turn's next step,
    which has a choice, is searched rather than handed to the good player."""
    from meeple_hall.games.ai import turns

    state = engine.new(2, seed=2)
    state.step, state.order, state.pool = "pick", [0], ["red-3"]  # then the same seat keeps cards
    turns.forget()
    assert levels.choose(engine, state, 0, "strong", seed=1, think=0.05) == ("red-3",)
    assert not turns._planned
