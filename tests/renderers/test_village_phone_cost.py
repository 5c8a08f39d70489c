"""Village's phone pictures cost what they show (issue 29 item 5): a part of the table is
drawn alone, not cut from the whole table drawn, with the table's pixels; the own area is
drawn at the width a decision's picture shows it, not drawn at its own and enlarged, and its
digits read at least as large as enlarged. The measure is bench/decision_pictures.py; the
legibility of every decision picture is test_decision_pictures.py's."""

from __future__ import annotations

import math
from typing import Any

import pytest
from PIL import Image, ImageChops

from meeple_hall.games.testing import random_game
from meeple_hall.games.village import engine
from meeple_hall.renderers import phone, village
from meeple_hall.renderers.phone import OWN, crops
from meeple_hall.renderers.phone import village as phone_village
from tests.renderers.legibility import smallest_text


@pytest.fixture(scope="module")
def moments() -> list[Any]:
    """States of random games solo, at 3 and at 5 players: early, midway and at the end."""
    found = []
    for players in (1, 3, 5):
        states = random_game(engine, players, players)
        found += [states[1], states[len(states) // 2], states[-1]]
    return found


def test_a_part_of_the_table_is_drawn_alone_with_the_table_s_pixels(
    moments: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    spectators = [engine.view(state, None) for state in moments]
    wanted = [
        {
            focus: crops(_table(view, focus), boxes, village.BACKGROUND).tobytes()
            for focus, boxes in phone_village.PARTS.items()
        }
        for view in spectators
    ]

    def whole_table(view: dict[str, Any]) -> Image.Image:
        raise AssertionError("the whole table drawn for a part of it")

    monkeypatch.setattr(village, "render", whole_table)
    for view, parts in zip(spectators, wanted, strict=True):
        for focus, pixels in parts.items():
            drawn = phone_village.render_focus(view, focus)
            if focus == "map" and view["travellers"]:
                _only_the_travellers_differ(view, drawn, pixels)
            else:
                assert drawn.tobytes() == pixels, focus


def _table(view: dict[str, Any], focus: str) -> Image.Image:
    """The table's picture; for the crafts, with the workshops' numbers the phone draws on
    them (session 18's V2: the keycaps of their panel lines)."""
    image = village.render(view)
    if focus == "crafts":
        image = image.copy()
        phone_village._number_shops(image)
    return image


def _only_the_travellers_differ(view: dict[str, Any], drawn: Image.Image, table: bytes) -> None:
    """The phone's map is the table's but for its travellers, drawn with numbers a phone
    reads (and, more than three to a city, standing apart): every pixel that differs lies on
    a traveller, where the table stands it or where the phone does."""
    cut = Image.frombytes("RGB", drawn.size, table)
    assert drawn.tobytes() != table  # the numbers are larger
    (box,) = phone_village.PARTS["map"]
    left, top = box[0] - phone.PAD, box[1] - phone.PAD
    spots = village.member_spots(view, "map") + village.roomy_traveller_spots(view)
    changed = Image.eval(ImageChops.difference(drawn, cut).convert("L"), lambda v: 255 * (v > 0))
    bounds = changed.getbbox()
    assert bounds is not None
    for y in range(bounds[1], bounds[3]):
        for x in range(bounds[0], bounds[2]):
            if changed.getpixel((x, y)):
                at = (x + left, y + top)
                assert any(
                    math.hypot(at[0] - sx, at[1] - sy) <= 1.5 * r + 4 for *_, sx, sy, r in spots
                ), at


def test_the_own_area_is_drawn_at_the_width_it_is_shown_not_enlarged(
    moments: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    views = [engine.view(state, 0) for state in moments]
    actions = [phone.render_focus("village", view, "actions").width for view in views]

    def resized(*args: Any, **kwargs: Any) -> Image.Image:
        raise AssertionError("a Village phone picture resampled")

    monkeypatch.setattr(Image.Image, "resize", resized)
    for view, width in zip(views, actions, strict=True):
        picture = phone.render_decision("village", view, ("actions", OWN))
        assert picture is not None and picture.width == width
        own = phone.render_own("village", view)
        assert own is not None and own.width == village.PRIVATE_W - village.PRIVATE_SPLIT


def test_the_halves_at_their_own_width_are_the_private_picture(moments: list[Any]) -> None:
    for state in moments:
        view = engine.view(state, 0)
        private = village.render_private(view)
        assert private is not None
        for half, (left, right) in village.HALVES.items():
            drawn = village.render_private_half(view, half, right - left)
            assert drawn is not None
            cut = private.crop((left, 0, right, private.height))
            assert drawn.tobytes() == cut.tobytes(), half


@pytest.mark.parametrize("width", [476, 561, 768])
def test_the_own_area_drawn_larger_reads_as_large_as_enlarged(
    moments: list[Any], width: int
) -> None:
    """Each half's smallest digit, drawn `width` wide, at least as high as the half drawn
    at its own width and enlarged to `width` (both as a phone shows them)."""
    for state in moments:
        view = engine.view(state, 0)
        for half in village.HALVES:
            enlarged = smallest_text(lambda v=view, h=half: _enlarged(v, h, width))
            drawn = smallest_text(lambda v=view, h=half: village.render_private_half(v, h, width))
            assert drawn.height >= enlarged.height - 1e-9, (half, width, drawn, enlarged)


def _enlarged(view: dict[str, Any], half: str, width: int) -> Image.Image:
    left, right = village.HALVES[half]
    own = village.render_private_half(view, half, right - left)
    assert own is not None
    return own.resize((width, round(own.height * width / own.width)), Image.Resampling.BILINEAR)
