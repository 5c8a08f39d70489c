"""Keyflower's own checks: its name in the registry, a state copy that shares nothing, the
reconstructed components /rules lists, and random play with every summer boat's ability (the
shared conformance checks run in tests/games/test_conformance.py)."""

from __future__ import annotations

from meeple_hall.games.keyflower import engine


def test_registry_finds_keyflower() -> None:
    from meeple_hall import games

    assert games.get("keyflower").name == "Keyflower"


def test_state_copy_shares_no_mutable_part() -> None:
    import copy
    from dataclasses import fields

    state = engine.new(4, seed=3)
    twin = copy.deepcopy(state)
    assert engine.dump(twin) == engine.dump(state)
    for f in fields(state):
        value = getattr(state, f.name)
        if not isinstance(value, (int, str, bool)):
            assert getattr(twin, f.name) is not value, f.name
    for a, b in zip(state.players, twin.players, strict=True):
        assert a.screen is not b.screen and a.village is not b.village
    for key, tile in state.tiles.items():
        assert twin.tiles[key].resources is not tile.resources


def test_reconstructed_components_are_listed_for_the_rules_command() -> None:
    from meeple_hall.games.keyflower.components import reconstructed

    lines = reconstructed()
    assert any(line.startswith("A01 Barn") for line in lines)
    keythedral = next(line for line in lines if line.startswith("W05 "))
    assert "road position reconstructed" in keythedral  # its scoring is in the rulebook


def test_random_play_with_every_summer_boat_ability_offers_only_legal_choices() -> None:
    """Boats 1a-4b from the start, so random play meets every ability; all choices tried."""
    import random

    from meeple_hall.games.core import Action
    from meeple_hall.games.keyflower.state import Tile
    from meeple_hall.games.testing import (
        check_decisions,
        check_offered_choices_are_legal,
        random_choices,
    )

    for seed, sides in ((3, "abab"), (4, "baba")):
        state = engine.new(4, seed)
        for i, side in enumerate(sides):
            boat = f"U{9 + i:02d}"
            state.tiles[boat] = Tile(boat, side=side, placed=True, q=9, r=i)
            state.players[i].village.append(boat)
            state.summer_stack.remove(boat)
        rng = random.Random(seed)
        step = 0
        while pending := check_decisions(engine, state, 4):
            decision = rng.choice(pending)
            if step % 4 == 0:
                check_offered_choices_are_legal(engine, state, decision, rng, limit=8)
            state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
            step += 1
        assert engine.result(state) is not None
