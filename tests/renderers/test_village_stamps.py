"""Village's pictures drawn from cached stamps and the table's cached layer (issue 29 item 5)
are pixel for pixel the pictures drawn in place: every stamped glyph against its drawing,
the table on its layer against the table drawn part by part with every glyph in place, and
warm caches against cold ones in any order of tables (no picture leaks into another)."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from meeple_hall.games.testing import random_game
from meeple_hall.games.village import engine
from meeple_hall.renderers import stamps
from meeple_hall.renderers import village as renderer
from meeple_hall.renderers.phone import OWN
from meeple_hall.renderers.phone import village as phone

TILE = {"id": "c23", "wants": {"horse": 1, "plow": 1, "grain": 1}, "points": 7}
# Each stamped glyph with arguments of every kind the pictures draw.
GLYPH_ARGS = {
    "cube": [(c, s) for c in renderer.CUBES for s in (13, 16, 20, 22, 26, 28)]
    + [(c, 41, 2) for c in renderer.CUBES],  # an own area drawn larger: its lines wider
    "any_cube": [(13,), (14,)],
    "shape_glyph": [
        (shape, r, renderer.seat_colour(seat), renderer.INK, width)
        for seat, shape in ((-1, "house"), *enumerate(renderer.SHAPES))
        for r, width in ((6, 1), (8.3, 2), (11, 2), (18, 2), (29, 3), (16, 3))
    ],
    "pawn_body": [
        (seat, r, lying) for seat in range(-1, 5) for r in (7, 8, 11, 14) for lying in (False, True)
    ]
    + [(seat, 19, False, 1.73) for seat in range(5)],
    "good": [(name, s) for name in renderer.GOODS for s in (20, 22, 24, 28, 30)]
    + [(name, s, 2) for name in renderer.GOODS for s in (39, 45)],
    "coin": [(16,), (22,), (24,), (30,)],
    "star": [(11,), (13, (226, 220, 206)), (16,), (20,)],
    "hourglass": [(17,)],
    "quill": [(9,), (11,), (14,), (18,), (20,)],
    "icon": [(name, s) for name in renderer.SPACE_TINT for s in (8, 9, 14, 16, 20)],
    "customer_face": [
        (None, (), 84),
        (7, tuple(TILE["wants"].items()), 84),
        (None, (), 136, 1.61),
        (7, tuple(TILE["wants"].items()), 136, 1.61),
    ],
    "monk": [(7,), (12,)],
    "grave": [("",), ("x",), ("0",), ("3",), ("k",)],
    "slot_face": [(46, 20.0, mark) for mark in ("", "x", "0", "4", "k")],
    "customers_icon": [(22,), (30,), (45, 2)],
    "cities_icon": [(24, seat) for seat in range(5)],
    "ring_space": [(False, ()), (True, ("pink",)), (False, ("orange", "green", "brown"))],
    "fate_tile": [("?",), ("quill",), ("",)],
}
# Whole and half pixels, odd and even, near the picture's corner and its far edges (a
# glyph is cut off there), on both sides of the stamps' LOCAL; thick outlines at (1002, 50)
# come out a pixel off if moved.
POSITIONS = ((3.5, 2.25), (40.3, 50.5), (63.5, 64.5), (150.5, 120.5), (201.5, 161.5), (240.7, 33.3))
FAR = ((1201.5, 700.25), (1273, 815), (1002, 50))


def clear_caches() -> None:
    stamps._shape_stamp.cache_clear()
    renderer.board.cache_clear()
    renderer.alone.cache_clear()
    stamps._glyph_mask.cache_clear()
    stamps._rounded_stamp.cache_clear()


def test_every_stamped_glyph_is_named_here() -> None:
    assert {glyph.__name__ for glyph in stamps.shapes(renderer)} == set(GLYPH_ARGS)


@pytest.mark.parametrize("name", sorted(GLYPH_ARGS))
def test_a_pasted_glyph_is_the_glyph_drawn_in_place(name: str) -> None:
    glyph = getattr(renderer, name)
    clear_caches()
    for args in GLYPH_ARGS[name]:
        for positions, size in ((POSITIONS, (300, 200)), (FAR, (renderer.WIDTH, renderer.HEIGHT))):
            for cache in ("cold", "warm"):
                pasted = Image.new("RGB", size, renderer.BACKGROUND)
                drawn = pasted.copy()
                for x, y in positions:
                    glyph(ImageDraw.Draw(pasted), x, y, *args)
                    glyph.__wrapped__(ImageDraw.Draw(drawn), x, y, *args)
                assert pasted.tobytes() == drawn.tobytes(), (name, args, positions, cache)
    assert stamps._shape_stamp.cache_info().hits > 0


def views_of_games() -> list[dict]:
    """Spectator and seat views of random games at every player count (solo against Karla
    too): at the start, a third of the way, two thirds and the end."""
    views = []
    for players in (1, 2, 3, 4, 5):
        states = random_game(engine, players, players)
        n = len(states)
        for moment in (states[1], states[n // 3], states[2 * n // 3], states[-1]):
            views.append(engine.view(moment, None))
            views.append(engine.view(moment, players - 1))
    return views


@pytest.fixture(scope="module")
def views() -> list[dict]:
    return views_of_games()


def test_the_table_on_its_layer_is_the_table_drawn_part_by_part(views, monkeypatch) -> None:
    """Each part's frame, then its pieces, every glyph drawn in place: as the table was
    drawn before its layer was kept (c8d1990)."""
    tables = [view for view in views if "you" not in view]
    layered = [renderer.render(view).tobytes() for view in tables]
    for glyph in stamps.shapes(renderer):
        monkeypatch.setattr(renderer, glyph.__name__, glyph.__wrapped__)
    for view, picture in zip(tables, layered, strict=True):
        image = Image.new("RGB", (renderer.WIDTH, renderer.HEIGHT), renderer.BACKGROUND)
        d = ImageDraw.Draw(image)
        for part in renderer.parts(renderer.layout(view)):
            part.frame(d)
            part.pieces(d, view)
        assert image.tobytes() == picture, (view["num_players"], view["round"])


def every_picture(view: dict) -> list[bytes]:
    """The table, and every part and farmyard a phone asks for, or the seat's pictures."""
    if "you" in view:
        private = renderer.render_private(view)
        own = phone.render_own(view)
        larger = phone.at_width(view, OWN, None, 768)  # under the action spaces
        assert private is not None and own is not None and larger is not None
        return [private.tobytes(), own.tobytes(), larger.tobytes()]
    pictures = [renderer.render(view)]
    pictures += [phone.render_focus(view, focus) for focus in phone.focuses(view)]
    return [picture.tobytes() for picture in pictures]


def test_warm_caches_in_any_order_draw_what_cold_caches_draw(views) -> None:
    """Each picture drawn with empty caches, then all again in reverse order with the
    caches of every other table, seat and player count warm."""
    cold = []
    for view in views:
        clear_caches()
        cold.append(every_picture(view))
    for view, fresh in reversed(list(zip(views, cold, strict=True))):
        assert every_picture(view) == fresh, (view["num_players"], view["round"], "you" in view)
    assert stamps._shape_stamp.cache_info().maxsize == stamps.SHAPE_STAMP_PIXELS
    assert renderer.board.cache_info().maxsize == renderer.BOARDS
    assert renderer.alone.cache_info().maxsize == renderer.FRAMES
