"""A state's copy (`copy.deepcopy`, which `GameEngine.apply` makes before every move and a
panel for every line it unfolds) is the same game and shares nothing that can change."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from meeple_hall import games
from meeple_hall.games import Action
from meeple_hall.games.core.messages import Msg

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
