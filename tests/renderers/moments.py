"""Moments of seeded random games for the renderer tests: what a picture worker is asked to
draw from, move after move (the kept-parts tests, tests/renderers/test_*_parts.py), and every
decision pending on the way, from its seat's view (the decision pictures' tests)."""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterator
from typing import Any

from PIL import Image

from meeple_hall.games.core import Action
from meeple_hall.games.testing import random_choices

Moment = tuple[dict[str, Any], dict[str, Any], str]  # spectator's view, mover's view, kind


def played(engine: Any, num_players: int, seed: int) -> Iterator[tuple[int, Any, Any]]:
    """Each move of a seeded random game: its number, the state and the decision answered
    in it (None at the end, with the final state)."""
    rng = random.Random(seed)
    state = engine.new(num_players, seed)
    step = 0
    while pending := engine.decisions(state):
        decision = rng.choice(pending)
        yield step, state, decision
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
        step += 1
    yield step, state, None


def pending_decisions(engine: Any, num_players: int, seed: int) -> Iterator[tuple[Any, Any]]:
    """Every decision pending at each move of a seeded random game (`played`), with its
    seat's view: (view, decision)."""
    for _, state, chosen in played(engine, num_players, seed):
        if chosen is None:
            return
        for decision in engine.decisions(state):
            yield engine.view(state, decision.seat), decision


def moments_of_a_game(
    engine: Any, num_players: int, seed: int, every: int, end_kind: str = ""
) -> list[Moment]:
    """After every `every` moves of a seeded random game, and at its end (seat 0's view, with
    `end_kind`): the spectator's view, the view of the seat to move and the kind of its
    decision."""
    moments = []
    for step, state, decision in played(engine, num_players, seed):
        if decision is None:
            moments.append((engine.view(state, None), engine.view(state, 0), end_kind))
        elif step % every == 0:
            seat_view = engine.view(state, decision.seat)
            moments.append((engine.view(state, None), seat_view, decision.kind))
    return moments


def pixels(image: Image.Image | None) -> tuple[tuple[int, int], int]:
    """The picture's size and a checksum of its pixels (a game's pictures whole would take
    hundreds of megabytes)."""
    assert image is not None
    return image.size, zlib.crc32(image.tobytes())
