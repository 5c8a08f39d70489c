"""A state's copy (`copy.deepcopy`, which `GameEngine.apply` makes before every move and a
panel for every line it unfolds) is the same game and shares nothing that can change."""

from __future__ import annotations

import copy
import dataclasses
import random
from typing import Any

import pytest

from meeple_hall import games
from meeple_hall.games import Action
from meeple_hall.games.core import serial
from meeple_hall.games.core.hidden import hidden_parts
from meeple_hall.games.core.messages import Msg
from meeple_hall.games.core.rng import Rng

UNCHANGING = (type(None), bool, int, float, str, bytes, Msg)


def changeable(value: Any) -> list[Any]:
    """Every list, dict and object in the tree `value` (the parts a move could change)."""
    if isinstance(value, UNCHANGING):
        return []
    found = [] if isinstance(value, tuple) else [value]
    if isinstance(value, list | tuple):
        items = list(value)
    elif isinstance(value, dict):
        items = list(value.values())
    else:
        items = list(vars(value).values())
    return found + [part for item in items for part in changeable(item)]


@pytest.mark.parametrize("game_id", ["burgundy", "coffee", "keyflower", "village"])
def test_a_copy_shares_nothing_that_changes(game_id: str) -> None:
    engine = games.get(game_id)
    state = engine.new(engine.max_players if game_id != "village" else 1, 3)
    rng = random.Random(3)
    for _ in range(80):
        pending = engine.decisions(state)
        if not pending:
            break
        decision = pending[0]
        ids = [o.id for o in decision.options]
        count = rng.randint(decision.min_choices, min(decision.max_choices, len(ids)))
        state = engine.apply(state, Action(decision.seat, tuple(rng.sample(ids, count))))
        copied = copy.deepcopy(state)
        assert engine.dump(copied) == engine.dump(state)
        assert engine.decisions(copied) == engine.decisions(state)
        originals = {id(part) for part in changeable(state)}
        assert not [part for part in changeable(copied) if id(part) in originals]


def every_marked(value: Any) -> list[Any]:
    """Every generator's state and every marked field in the tree `value`, found by walking
    all of it (what `hidden_parts` finds while skipping fields that, by their type hints,
    hold neither)."""
    if isinstance(value, Rng):
        return [serial.encode(value.state)]
    if dataclasses.is_dataclass(value):
        return [
            part
            for f in dataclasses.fields(value)
            for part in (
                [serial.encode(getattr(value, f.name))]
                if f.metadata.get("hidden")
                else every_marked(getattr(value, f.name))
            )
        ]
    if isinstance(value, list | tuple):
        return [part for item in value for part in every_marked(item)]
    if isinstance(value, dict):
        return [part for item in value.values() for part in every_marked(item)]
    return []


@pytest.mark.parametrize("game_id", ["burgundy", "coffee", "keyflower", "village"])
def test_copies_and_hidden_parts_through_a_whole_game(game_id: str) -> None:
    """To the end (Keyflower's final scores, Village's Karla and market day): every copy the
    same game sharing nothing that changes, and the hidden parts all a full walk finds."""
    engine = games.get(game_id)
    state = engine.new(2, 5)
    rng = random.Random(5)
    moves = 0
    while engine.result(state) is None and moves < 3000:
        decision = engine.decisions(state)[0]
        ids = [o.id for o in decision.options]
        count = rng.randint(decision.min_choices, min(decision.max_choices, len(ids)))
        state = engine.apply(state, Action(decision.seat, tuple(rng.sample(ids, count))))
        moves += 1
        assert hidden_parts(state) == every_marked(state)
        if moves % 7 == 0 or engine.result(state) is not None:
            copied = copy.deepcopy(state)
            assert engine.dump(copied) == engine.dump(state)
            originals = {id(part) for part in changeable(state)}
            assert not [part for part in changeable(copied) if id(part) in originals]
    assert engine.result(state) is not None
    assert hidden_parts(state) != [], "every game holds a generator"
