"""The phone view (renderers/phone): every part of the table `/board focus:` offers, and every
seat's own area, reads at phone width; the whole table does not (which is why the view exists).

How text is measured: tests/renderers/legibility.py watches every text the renderers draw
and takes the height of a digit in its font, scaled as Discord scales the picture to 400 px.
"""

from __future__ import annotations

import random
from importlib import import_module

import pytest

from meeple_hall import renderers
from meeple_hall.games.core import Action
from meeple_hall.games.testing import random_choices
from meeple_hall.renderers import phone
from tests.renderers.legibility import MIN_TEXT_PX, PHONE_WIDTH, texts_on_phone

GAMES = {  # game: (player counts, steps into a random game)
    "keyflower": ((2, 5), (0, 90, 100_000)),
    "burgundy": ((2, 4), (0, 150)),
    "village": ((2, 5), (0, 120)),
    "coffee": ((3, 4), (0, 150)),
}
assert MIN_TEXT_PX == phone.MIN_TEXT_PX and PHONE_WIDTH == phone.PHONE_WIDTH


def _states(game: str):
    """(engine, state, players, step) at the steps asked for (any step past the game's end
    stands for its last state)."""
    engine = import_module(f"meeple_hall.games.{game}").engine
    counts, stops = GAMES[game]
    for n in counts:
        state, rng, step = engine.new(n, seed=n), random.Random(n), 0
        wanted = list(stops)
        while wanted:
            pending = engine.decisions(state)
            if step == wanted[0] or not pending:
                yield engine, state, n, step
                wanted.pop(0)
                if not pending:
                    break
                continue
            d = rng.choice(pending)
            state = engine.apply(state, Action(d.seat, random_choices(d, rng)))
            step += 1


def _smallest(draw) -> float:
    image, texts = texts_on_phone(draw)
    assert image.width >= PHONE_WIDTH  # a narrower picture would show at its own size
    return min((t.height for t in texts), default=float("inf"))


@pytest.mark.parametrize("game", GAMES)
def test_every_focus_and_own_area_reads_on_a_phone(game: str) -> None:
    seen = set()
    for engine, state, n, step in _states(game):
        view = engine.view(state, None)
        for focus in phone.focuses(game, view):
            seen.add(focus)
            height = _smallest(lambda v=view, f=focus: phone.render_focus(game, v, f))
            assert height >= MIN_TEXT_PX, (game, n, step, focus, height)
        for seat in range(n):
            own = engine.view(state, seat)
            height = _smallest(lambda v=own: phone.render_own(game, v))
            assert height >= MIN_TEXT_PX, (game, n, step, "own", seat, height)
    assert {"seat1", "seat2"} <= seen


@pytest.mark.parametrize("game", GAMES)
def test_the_whole_table_does_not_read_on_a_phone(game: str) -> None:
    # The measure can fail: the full table's smallest numbers are below the bar.
    engine, state, _, _ = next(_states(game))
    view = engine.view(state, None)
    assert _smallest(lambda: renderers.render(game, view)) < MIN_TEXT_PX


def test_focuses_name_the_seats_and_the_game_s_parts() -> None:
    expected = {
        "keyflower": ["auction", "seat1", "seat2"],
        "burgundy": ["depots", "tracks", "seat1", "seat2"],
        "village": ["actions", "crafts", "council", "church", "map", "chronicle"],
        "coffee": ["coop1", "coop2", "coop3", "coop4", "coop5", "arabica", "bars", "market"],
    }
    for game, parts in expected.items():
        engine, state, n, _ = next(_states(game))
        offered = phone.focuses(game, engine.view(state, None))
        assert offered[: len(parts)] == parts
        assert offered[-n:] == [f"seat{s + 1}" for s in range(n)]
        assert phone.render_focus(game, engine.view(state, None), "nowhere") is None
        assert phone.render_own(game, engine.view(state, None)) is None  # a spectator


def test_seat_focus_names() -> None:
    assert phone.seat_focus(1) == "seat2"
    assert phone.seat_of_focus("seat2", 3) == 1
    assert phone.seat_of_focus("seat4", 3) is None
    assert phone.seat_of_focus("seats", 3) is None
