"""The `good` AI level for Keyflower: legal through whole games, deterministic, and sensible
in positions where the right move is plain."""

from __future__ import annotations

import random

import pytest

from meeple_hall.games.core import Action
from meeple_hall.games.keyflower import engine
from meeple_hall.games.keyflower.state import KeyflowerState
from meeple_hall.games.keyflower.strategy import choose
from tests.games.keyflower.helpers import give_tile, play, table


def _play_out(
    num_players: int, seed: int, good: set[int], moves: int = 20_000
) -> tuple[KeyflowerState, list]:
    """A whole game: `good` seats ask the strategy, the others pick at random. Every answer
    of the strategy is checked against its decision before it is applied."""
    state = engine.new(num_players, seed)
    rng, pick = random.Random(seed), random.Random(seed + 1)
    log = []
    while len(log) < moves:
        pending = engine.decisions(state)
        if not pending:
            return state, log
        for decision in pending:
            if decision.seat in good:
                answer = choose(state, decision, rng)
                ids = {o.id for o in decision.options}
                assert len(set(answer)) == len(answer), decision
                assert decision.min_choices <= len(answer) <= decision.max_choices, decision
                assert set(answer) <= ids, (answer, decision)
            else:
                answer = (pick.choice(decision.options).id,)
            log.append((decision.seat, answer))
            state = engine.apply(state, Action(decision.seat, answer))
    assert moves < 20_000, "the game did not end"
    return state, log


@pytest.mark.parametrize(
    ("num_players", "good"), [(2, {0, 1}), (3, {0, 1, 2}), (4, {1}), (4, {0, 1, 2, 3})]
)
def test_whole_games_with_legal_answers(num_players, good):
    state, _ = _play_out(num_players, seed=40 + num_players, good=good)
    result = engine.result(state)
    assert result is not None and len(result.scores) == num_players


def test_the_same_rng_gives_the_same_game():
    first, log1 = _play_out(3, seed=5, good={0, 1, 2}, moves=400)
    second, log2 = _play_out(3, seed=5, good={0, 1, 2}, moves=400)
    assert log1 == log2
    assert engine.dump(first) == engine.dump(second)


def _decision(state, seat):
    return next(d for d in engine.decisions(state) if d.seat == seat)


def test_it_bids_or_uses_instead_of_passing_at_the_start_of_spring():
    state = table(2, offer=("S01", "S02", "S03", "S04", "S06", "S07"))
    rng = random.Random(0)
    answer = choose(state, _decision(state, 0), rng)
    assert answer != ("pass",)
    # Followed through, the turn places workers (a bid beside a tile or a use on it).
    while state.current == 0 and state.passes == 0:
        state = engine.apply(state, Action(0, choose(state, _decision(state, 0), rng)))
    placed = [g for t in state.tiles.values() for g in (*t.bids, *t.workers) if g.seat == 0]
    assert placed


def test_a_home_transport_upgrades_a_tile_it_can_pay_for():
    state = table(2, offer=("S01", "S02", "S03", "S04", "S06", "S07"))
    give_tile(state, 0, "S05", 1, 0)
    state.players[0].skills = {"pick": 1}  # Keystone quarry's upgrade costs a pick
    home = state.players[0].home
    state = play(state, 0, "use", home, "red", "1")
    assert _decision(state, 0).kind == "transport"
    rng = random.Random(0)
    assert choose(state, _decision(state, 0), rng) == ("up",)
    state = play(state, 0, "up")
    assert choose(state, _decision(state, 0), rng) == ("S05",)


def test_winter_puts_up_the_tiles_that_score_for_it():
    state = table(2)
    state.season, state.phase, state.offer = 3, "winter", []
    seat = state.players[0]
    seat.screen = {"green": 5, "red": 2}
    seat.skills = {}
    seat.winter_hand = ["W05", "W06", "W09"]  # Keythedral, Key market, Scribes
    answer = choose(state, _decision(state, 0), random.Random(0))
    # Keythedral scores 12 and the Key market 2 a green worker; Scribes, with no skill
    # tiles behind the screen, would only help an opponent.
    assert set(answer) == {"W05", "W06"}
