"""Rings that never merge (issue 29 item 1): where the decision picture rings places that lie
side by side (Keyflower's auction hexes, Burgundy's stored tiles, Village's farm members,
Coffee's plantation spaces), each ring stays a closed outline of its own, so a player can
count them and match them with the lines: in seeded decision pictures of each game, the
MARK-coloured pixels fall into as many connected pieces as rings were drawn
(renderers/phone/rings.py, `apart`)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from PIL import Image, ImageDraw

from meeple_hall import games
from meeple_hall.games.core import Action
from meeple_hall.games.testing import random_choices
from meeple_hall.renderers import phone
from meeple_hall.renderers.palette import MARK
from meeple_hall.renderers.phone import rings


def _pieces(image: Image.Image) -> int:
    """How many 8-connected pieces the MARK-coloured pixels of `image` make."""
    width, data = image.width, image.convert("RGB").tobytes()
    mark = bytes(MARK)
    left = {i for i in range(len(data) // 3) if data[3 * i : 3 * i + 3] == mark}
    pieces = 0
    while left:
        pieces += 1
        todo = [left.pop()]
        while todo:
            i = todo.pop()
            x = i % width
            for dx in (-1, 0, 1):
                if not 0 <= x + dx < width:
                    continue
                for dy in (-width, 0, width):
                    if (j := i + dx + dy) in left:
                        left.remove(j)
                        todo.append(j)
    return pieces


def _pictures(
    game: str, players: int, seed: int, kinds: set[str], count: int
) -> Iterator[tuple[dict[str, Any], Any]]:
    """The first `count` decision pictures of `kinds` in a seeded random game that ring
    something (the view and the picture's parts and marks)."""
    engine = games.get(game)
    state, rng = engine.new(players, seed), random.Random(seed)
    found = 0
    while found < count and (pending := engine.decisions(state)):
        decision = pending[0]
        if decision.kind in kinds:
            view = engine.view(state, decision.seat)
            fields = [dict(o.fields) for o in decision.options]
            picture = phone.decision_picture(game, view, decision.kind, fields)
            if picture.marks:
                found += 1
                yield view, picture
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))


# a few pictures each where the rings, drawn as asked, touch (they merged before `apart`)
CASES = [
    ("keyflower", 4, 1, {"location"}, 2),
    ("village", 1, 1, {"church", "crafts"}, 2),
    ("burgundy", 2, 1, {"discard"}, 1),
    ("coffee", 3, 1, {"plant_space"}, 2),
]


@pytest.mark.parametrize(("game", "players", "seed", "kinds", "count"), CASES)
def test_every_ring_is_a_piece_of_its_own(
    game: str, players: int, seed: int, kinds: set[str], count: int, monkeypatch: Any
) -> None:
    drawn: list[int] = []
    draw_rings = rings.draw_rings

    def counted(draw: ImageDraw.ImageDraw, asked: Sequence[rings.Ring]) -> list[rings.Ring]:
        drawn.append(len(asked))
        return draw_rings(draw, asked)

    monkeypatch.setattr(rings, "draw_rings", counted)
    touching = 0
    for view, picture in _pictures(game, players, seed, kinds, count):
        drawn.clear()
        image = phone.render_decision(game, view, picture.parts, picture.marks)
        assert image is not None
        assert sum(drawn) >= 2
        assert _pieces(image) == sum(drawn), picture.marks
        touching += 1
    assert touching == count


def test_rings_apart_leave_a_gap_and_keep_the_others_as_asked() -> None:
    """Two neighbouring hexes' rings are drawn inset until their rims part; a third ring
    away from both is drawn as asked."""
    side = 40.0
    step = side * 3**0.5  # neighbouring pointy-topped hexes' centres
    asked = [
        rings.hexagon(50, 50, side + 6, 5, 2),
        rings.hexagon(50 + step, 50, side + 6, 5, 2),
        rings.hexagon(400, 50, side + 6, 5, 2),
    ]
    assert rings.overlap(asked[0], asked[1]) > 0
    drawn = rings.apart(asked)
    assert rings.overlap(drawn[0], drawn[1]) <= 0
    assert drawn[2] == asked[2]
    image = Image.new("RGB", (500, 110), (255, 255, 255))
    rings.draw_rings(ImageDraw.Draw(image), asked)
    assert _pieces(image) == 3
