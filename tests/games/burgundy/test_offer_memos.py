"""What the die's offer keeps between states is what working it out afresh gives: a player's
`reach` (where stored tiles go, the knowledge tiles, the placings by die value) is kept for
an estate and storage, and a die's options for what they depend on (`turn._die_options`).
Checked in every state of played games, and with each knowledge tile that changes a die's
cost or where a tile may go."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from meeple_hall.games.burgundy import engine
from meeple_hall.games.burgundy.rules import (
    _reach,
    affordable,
    free_dice,
    knowledge,
    open_hexes,
    reach,
    signed_step,
    uses,
)
from meeple_hall.games.burgundy.state import BurgundyState
from meeple_hall.games.burgundy.turn import die_choices, die_label
from meeple_hall.games.core import Action, Option

from .helpers import setup_player, table


def die_choices_afresh(state: BurgundyState, seat: int) -> list[tuple[Option, Any]]:
    """The die's options worked out use by use, as they were before anything was kept: each
    value's uses, each use's worker cost, the cheapest affordable one on the label."""
    player = state.players[seat]
    targets = {t: open_hexes(player, t) for t in player.storage}
    known = knowledge(player)
    by_value = {value: uses(state, seat, value, targets) for value in range(1, 7)}
    out = []
    for slot in free_dice(player):
        rolled = player.dice[slot]
        for value in range(1, 7):
            useful = [cost for _, cost in affordable(player, slot, value, by_value[value], known)]
            if value != rolled and not useful:
                continue
            step = signed_step(rolled, value)
            oid = str(rolled) if step == 0 else f"{rolled}{step:+d}"
            label = die_label(rolled, value, min(useful, default=0))
            out.append((Option(oid, label, {"value": value}), (slot, value)))
    return out


def played_states(num_players: int, seed: int) -> Iterator[BurgundyState]:
    state = engine.new(num_players, seed)
    rng = random.Random(seed)
    while pending := engine.decisions(state):
        yield state
        decision = pending[0]
        ids = [o.id for o in decision.options]
        count = rng.randint(decision.min_choices, min(decision.max_choices, len(ids)))
        state = engine.apply(state, Action(decision.seat, tuple(rng.sample(ids, count))))


def assert_as_afresh(state: BurgundyState) -> None:
    seat = state.active
    player = state.players[seat]
    assert reach(player) == _reach(player)
    assert list(die_choices(state, seat)) == die_choices_afresh(state, seat)


@pytest.mark.parametrize(("num_players", "seed"), [(2, 11), (3, 12), (4, 13)])
def test_a_played_game_offers_the_dice_as_worked_out_afresh(num_players: int, seed: int) -> None:
    for state in played_states(num_players, seed):
        assert_as_afresh(state)


STORED = ["bank", "ship", "cow3", "mine", "castle", "k5", "church", "pig2"]


@pytest.mark.parametrize("number", [0, 1, 8, 9, 10, 11, 12])
def test_knowledge_tiles_turn_the_dice_as_worked_out_afresh(number: int) -> None:
    """Tiles 9-12 make a step free for some uses, 8 makes two steps a worker, 1 lets a town
    take a second building of a kind (0: none of them)."""
    rng = random.Random(number)
    for _ in range(60):
        state = table(2, seed=rng.randint(1, 50))
        estate = {26: "bank", 27: "market"} | ({13: f"k{number}"} if number else {})
        setup_player(
            state,
            dice=(rng.randint(1, 6), rng.randint(1, 6)),
            storage=rng.sample(STORED, rng.randint(0, 3)),
            workers=rng.randint(0, 4),
            estate=estate,
            goods={g: 1 for g in rng.sample(range(1, 7), rng.randint(0, 3))},
        )
        assert_as_afresh(state)


def test_a_reach_kept_is_for_the_same_tiles_on_the_same_hexes() -> None:
    """Two estates with tiles on the same hexes but different tiles there: each its own."""
    with_one, without = table(2), table(2)
    setup_player(with_one, storage=["bank"], estate={26: "bank", 13: "k1"})
    setup_player(without, storage=["bank"], estate={26: "bank", 13: "k2"})
    assert reach(without.players[0]) == _reach(without.players[0])
    assert reach(with_one.players[0]) == _reach(with_one.players[0])
    assert reach(with_one.players[0]).targets != reach(without.players[0]).targets
