"""The `good` AI level for The Castles of Burgundy: legal through whole games,
deterministic, and sensible in positions where the right move is plain."""

from __future__ import annotations

import random

import pytest

from meeple_hall.games.burgundy import engine
from meeple_hall.games.burgundy.state import BurgundyState
from meeple_hall.games.burgundy.strategy import choose
from meeple_hall.games.core import Action
from tests.games.burgundy.helpers import decision, setup_player, table, tid


def _play_out(
    num_players: int, seed: int, good: set[int], moves: int = 20_000
) -> tuple[BurgundyState, list]:
    """A whole game: `good` seats ask the strategy, the others pick at random. Every answer
    of the strategy is checked against its decision before it is applied."""
    state = engine.new(num_players, seed)
    rng, pick = random.Random(seed), random.Random(seed + 1)
    log = []
    while engine.decisions(state) and len(log) < moves:
        d = engine.decisions(state)[0]
        if d.seat in good:
            answer = choose(state, d, rng)
            ids = {o.id for o in d.options}
            assert len(set(answer)) == len(answer), d
            assert d.min_choices <= len(answer) <= d.max_choices, d
            assert set(answer) <= ids, (answer, d)
        else:
            answer = tuple(o.id for o in pick.sample(d.options, d.min_choices or 1))
        log.append((d.seat, answer))
        state = engine.apply(state, Action(d.seat, answer))
    return state, log


@pytest.mark.parametrize(("num_players", "good"), [(2, {0, 1}), (3, {2}), (4, {0})])
def test_whole_games_with_legal_answers(num_players, good):
    state, _ = _play_out(num_players, seed=60 + num_players, good=good)
    result = engine.result(state)
    assert result is not None and len(result.scores) == num_players


def test_the_same_rng_gives_the_same_game():
    first, log1 = _play_out(2, seed=3, good={0}, moves=300)
    second, log2 = _play_out(2, seed=3, good={0}, moves=300)
    assert log1 == log2
    assert engine.dump(first) == engine.dump(second)


def _own_turn(state: BurgundyState, seat: int = 0) -> BurgundyState:
    """Let the strategy play the seat's whole turn."""
    rng = random.Random(0)
    while engine.decisions(state) and state.active == seat and state.turn == 0:
        d = decision(state)
        state = engine.apply(state, Action(d.seat, choose(state, d, rng)))
    return state


def test_it_completes_an_area_when_it_can():
    # Hex 12, next to the start castle, is a town of one space (die 3): a watchtower there
    # completes it at once (rulebook p.7: 1 point for the area plus 10 in phase A, and the
    # watchtower's 4).
    state = table(2)
    setup_player(state, 0, dice=(3, 6), storage=["watchtower"], workers=0)
    after = _own_turn(state)
    player = after.players[0]
    assert player.estate.get(12) == tid("watchtower")
    assert player.points["areas"] == 1 and player.points["phase bonus"] == 10


def test_it_sells_its_goods_in_the_last_round():
    # Phase E, round 5: unsold goods score 1 each at the end, sold ones 2 each at 2 players
    # (rulebook p.8), so a die matching the goods sells them.
    state = table(2)
    state.phase, state.round = 4, 5
    setup_player(state, 0, dice=(2, 2), storage=[], workers=0, goods={2: 3})
    after = _own_turn(state)
    assert after.players[0].goods.get(2, 0) == 0
    assert after.players[0].sold.get(2) == 3


def test_it_places_a_tile_rather_than_hoarding_workers():
    # A mine next to the castle (hex 25, die 4) pays a silverling at every phase end
    # (rulebook p.8); with two 4s the turn has room to place it and still use the other die.
    state = table(2)
    mine = tid("mine")
    setup_player(state, 0, dice=(4, 4), storage=[mine], workers=0)
    after = _own_turn(state)
    assert after.players[0].estate.get(25) == mine
