"""One shape-stamp mechanism for every game (renderers/stamps.py `shape`, issues 27 and 29):
Burgundy's pictures are pixel for pixel those of the stamps it had of its own (drawn on black
and on white at the stamp's corner), and Village's those of its glyphs drawn in place
(tests/renderers/test_village_stamps.py). The mechanism itself: tests/renderers/test_stamps.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from meeple_hall.renderers import burgundy, stamps, village
from meeple_hall.renderers.phone import burgundy as burgundy_phone
from tests.renderers.test_burgundy import playout

Glyph = Callable[..., None]
UNTOUCHED = [255] + [0] * 255


def burgundy_s_own_stamp(glyph: Glyph, reach: Callable[..., stamps.Reach]) -> Glyph:
    """The stamp Burgundy drew with before the shared one (its `stamp` and `_stamp` until
    issue 27), made afresh at every paste: the drawing on black and on white, at the stamp's
    corner moved by an even number of pixels, pasted through the pixels that came out the
    same on both."""

    def draw(d: ImageDraw.ImageDraw, x: float, y: float, *args: Any) -> None:
        left, top, right, bottom = reach(*args)
        ix, iy = math.floor(x), math.floor(y)
        odd = ((ix + left) % 2, (iy + top) % 2)
        corner = (-left + odd[0], -top + odd[1])
        size = (corner[0] + right, corner[1] + bottom)
        dark, light = Image.new("RGB", size, (0, 0, 0)), Image.new("RGB", size, (255, 255, 255))
        for picture in (dark, light):
            glyph(ImageDraw.Draw(picture), corner[0] + x - ix, corner[1] + y - iy, *args)
        red, green, blue = ImageChops.difference(dark, light).split()
        mask = ImageChops.lighter(ImageChops.lighter(red, green), blue).point(UNTOUCHED, "1")
        d._image.paste(dark, (ix - corner[0], iy - corner[1]), mask)

    return draw


def clear_caches() -> None:
    for module in (burgundy, stamps):
        for value in vars(module).values():
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()


def burgundy_pictures(spectator: dict, seat: dict) -> list[bytes]:
    pictures = [
        burgundy.render(spectator),
        burgundy.render_private(seat),
        burgundy_phone.render_own(seat),
        burgundy_phone.render_focus(spectator, "depots"),
        burgundy_phone.render_focus(spectator, "tracks"),
    ]
    return [picture.tobytes() for picture in pictures if picture is not None]


@pytest.mark.parametrize("players", [2, *(pytest.param(n, marks=pytest.mark.slow) for n in (3, 4))])
def test_burgundy_draws_what_its_own_stamps_drew(players: int, monkeypatch) -> None:
    moments, _ = playout(players, seed=40 + players, stops={0, 90, 240}, to_the_end=True)
    shared = []
    for spectator, seat in moments:
        clear_caches()
        shared.append(burgundy_pictures(spectator, seat))
    glyphs = stamps.shapes(burgundy)
    assert {glyph.__name__ for glyph in glyphs} >= {"_draw_tile", "draw_goods", "draw_die"}
    for glyph in glyphs:
        own = burgundy_s_own_stamp(glyph.__wrapped__, glyph.reach)
        monkeypatch.setattr(burgundy, glyph.__name__, own)
    for (spectator, seat), pictures in zip(moments, shared, strict=True):
        clear_caches()
        assert burgundy_pictures(spectator, seat) == pictures, spectator["round"]


def test_both_games_stamp_through_the_one_mechanism() -> None:
    """No game keeps a stamp of its own: every stamped glyph is a `stamps.shape`."""
    for module in (burgundy, village):
        assert stamps.shapes(module)
        assert not hasattr(module, "_stamp") and not hasattr(module, "Stamp")
        assert not hasattr(module, "STAMPED") and not hasattr(module, "stamped")
