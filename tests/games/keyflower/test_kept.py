"""What Keyflower keeps instead of working it out again gives what working it out afresh
gives: the spectator's view kept per state (and the seats asked read from the steps asked,
not from the decisions), a seat's view made of it, along whole random games in which the
views of each state are asked again after later states were viewed."""

from __future__ import annotations

import random
from typing import Any

import pytest

from meeple_hall.games.core import Action
from meeple_hall.games.keyflower import engine
from meeple_hall.games.keyflower.state import KeyflowerState
from meeple_hall.games.keyflower.view import own_view, public_view


def _fresh(state: KeyflowerState, seat: int | None) -> dict[str, Any]:
    """The view as it was made before any was kept: the seats asked from the decisions."""
    out = public_view(state, sorted({d.seat for d in engine.decisions(state)}))
    if seat is not None:
        out["you"] = own_view(state, seat)
    return out


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 8)])
def test_kept_views_are_the_views_made_afresh(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = engine.new(players, seed)
    seats: list[int | None] = [None, *range(players)]
    earlier: list[KeyflowerState] = []
    phases = set()
    while engine.result(state) is None:
        phases.add(state.phase)
        for seat in seats:
            assert engine.view(state, seat) == _fresh(state, seat), (state.phase, seat)
        for old in earlier[-3:]:  # asked again after later states were viewed
            assert engine.view(old, None) == _fresh(old, None)
        earlier.append(state)
        decision = rng.choice(engine.decisions(state))
        ids = [o.id for o in decision.options]
        count = rng.randint(decision.min_choices, min(decision.max_choices, len(ids)))
        state = engine.apply(state, Action(decision.seat, tuple(rng.sample(ids, count))))
    assert {"play", "winter", "place"} <= phases  # several seats asked at once, too
    for seat in seats:
        assert engine.view(state, seat) == _fresh(state, seat)
