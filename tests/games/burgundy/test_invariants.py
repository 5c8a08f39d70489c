"""Burgundy's own invariants along random games: tiles, goods, silverlings and workers are
conserved, and applying a move leaves the old state untouched (the shared conformance checks
run in tests/games/test_conformance.py)."""

import random
from collections import Counter

from meeple_hall.games.burgundy import engine
from meeple_hall.games.burgundy.data import components
from meeple_hall.games.core import Action
from meeple_hall.games.testing import random_choices


def hex_tiles(state):
    places = [*state.box, *state.black, *(t for d in state.depots for t in d)]
    for pile in state.supply.values():
        places += pile
    for p in state.players:
        places += [*p.estate.values(), *p.storage]
    places += [f.tile for f in state.stack if f.kind == "discard"]
    return [t for t in places if t >= 0]


def goods(state):
    count = Counter(state.goods_out) + Counter(state.round_goods)
    for stack in [*state.phase_goods, *state.depot_goods]:
        count.update(stack)
    for p in state.players:
        count.update(p.goods)
        count.update(p.sold)
    return count


def test_tiles_goods_silverlings_and_workers_are_conserved():
    rng = random.Random(3)
    state = engine.new(4, seed=3)
    while engine.decisions(state):
        decision = engine.decisions(state)[0]
        action = Action(decision.seat, random_choices(decision, rng))
        before = state
        state = engine.apply(state, action)
        tiles = hex_tiles(state)
        assert sorted(tiles) == list(range(len(components().tiles))), "tile lost"
        assert goods(state) == Counter({k: 7 for k in range(1, 7)})
        for seat, (old, new) in enumerate(zip(before.players, state.players, strict=True)):
            assert new.silver >= 0 and new.workers >= 0
            if seat != action.seat and before.phase == state.phase and not state.over:
                assert (old.silver, old.workers, old.score) == (new.silver, new.workers, new.score)


def test_applying_a_move_leaves_the_old_state_untouched():
    rng = random.Random(8)
    state = engine.new(3, seed=8)
    for _ in range(300):
        decision = engine.decisions(state)[0]
        before = engine.dump(state)
        new = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
        assert engine.dump(state) == before
        state = new
