"""Keyflower's pictures drawn from stamps and caches (issue 29 item 5) are the pictures drawn
afresh: text at its kind's start, regular polygons and rounded boxes as Pillow draws them,
tile faces pasted where they were drawn before, and nothing of one table's picture in
another's."""

from __future__ import annotations

import copy
import random

from PIL import Image, ImageDraw

from meeple_hall.games.core import Action
from meeple_hall.games.keyflower import engine
from meeple_hall.games.keyflower.components import tiles
from meeple_hall.games.testing import random_choices
from meeple_hall.renderers import keyflower as picture
from meeple_hall.renderers.palette import BACKGROUND, INK, font
from meeple_hall.renderers.phone import keyflower as phone

# What the table draws as text: numbers, tile codes and "?".
TEXTS = [str(n) for n in range(41)] + sorted(tiles()) + ["?"]


def _start(rng: random.Random) -> float:
    """A fraction of a pixel, often next to where the kind of start changes."""
    edge = rng.choice((0.0, 1 / 128, 31.5 / 64, 32.5 / 64, 63.5 / 64, 1.0))
    return min(0.999999, max(0.0, rng.choice((rng.random(), edge + rng.uniform(-0.02, 0.02)))))


def _mask(text: str, size: int, stroke: int, xy: tuple[float, float]) -> tuple[object, ...]:
    start = (xy[0] - int(xy[0]), xy[1] - int(xy[1]))
    mask, offset = font(size).getmask2(
        text, "L", stroke_width=stroke, anchor="mm", start=start, stroke_filled=True
    )
    return int(xy[0]), int(xy[1]), mask.size, bytes(mask), offset


def test_text_drawn_at_its_kind_s_start_draws_the_same_pixels() -> None:
    rng = random.Random(29)
    moved = 0
    for _ in range(4000):
        text, size = rng.choice(TEXTS), rng.randrange(8, 64)
        stroke = rng.choice((0, max(2, size // 8)))
        xy = (rng.randrange(0, 1200) + _start(rng), rng.randrange(0, 900) + _start(rng))
        at = picture._same_glyphs_at(xy)
        moved += at != xy
        assert _mask(text, size, stroke, at) == _mask(text, size, stroke, xy), (text, size, xy)
    assert moved > 3000  # most texts share a mask with others


def test_regular_polygons_and_rounded_boxes_are_pillow_s() -> None:
    rng = random.Random(5)
    for _ in range(300):
        circle = (rng.uniform(20, 180), rng.uniform(20, 80), rng.uniform(2, 19))
        sides, width = rng.choice((5, 6, 8)), rng.choice((1, 2))
        outline = rng.choice((None, INK))
        ours, pillow = (Image.new("RGB", (200, 100), BACKGROUND) for _ in range(2))
        picture._regular(ImageDraw.Draw(ours), circle, sides, (200, 60, 50), outline, width)
        ImageDraw.Draw(pillow).regular_polygon(circle, sides, 0, (200, 60, 50), outline, width)
        assert ours.tobytes() == pillow.tobytes(), (circle, sides)
        x0, y0 = rng.uniform(1, 100), rng.uniform(1, 50)
        box = (x0, y0, x0 + rng.uniform(2, 95), y0 + rng.uniform(2, 45))
        radius, width = rng.choice((2, 5, 6, 10, 16)), rng.choice((1, 2, 3, 7))
        ours, pillow = (Image.new("RGB", (200, 100), BACKGROUND) for _ in range(2))
        picture._rounded(ImageDraw.Draw(ours), box, radius, (252, 249, 240), INK, width)
        ImageDraw.Draw(pillow).rounded_rectangle(box, radius, (252, 249, 240), INK, width)
        assert ours.tobytes() == pillow.tobytes(), (box, radius, width)


def _views(num_players: int, seed: int, every: int) -> list[dict]:
    """Every `every`-th spectator view of a random game, and its last."""
    state, rng, views = engine.new(num_players, seed), random.Random(seed), []
    step = 0
    while pending := engine.decisions(state):
        if step % every == 0:
            views.append(engine.view(state, step % num_players))
        d = rng.choice(pending)
        state = engine.apply(state, Action(d.seat, random_choices(d, rng)))
        step += 1
    return [*views, engine.view(state, 0)]


def _pictures(view: dict) -> list[Image.Image | None]:
    table = dict(view, you=None)
    own = phone.render_own(view)
    return [
        picture.render(table),
        picture.render_private(view),
        own,
        *(phone.render_focus(view, f) for f in phone.focuses(view)),
    ]


def _bytes(pictures: list[Image.Image | None]) -> list[bytes | None]:
    return [p.tobytes() if p is not None else None for p in pictures]


def test_warm_caches_draw_what_cold_caches_draw() -> None:
    pasted = 0
    for num_players, seed, every in ((2, 3, 9), (5, 8, 40)):
        for view in _views(num_players, seed, every):
            picture.clear_caches()
            fresh = _bytes(_pictures(view))
            for _ in range(2):  # the second time, the faces met before are pasted
                picture.kept_part.cache_clear()  # (not the parts holding them: test_*_parts)
                assert _bytes(_pictures(view)) == fresh
            pasted += sum(s is not None for s in picture._FACES.stamps.values())
    assert pasted > 100


def test_one_table_s_faces_never_show_in_another_s() -> None:
    """Two tables alike but for a tile's resources, rim, workers and start keyple: each
    drawn after the other's stamps are kept is itself."""
    view = _views(3, 4, 60)[2]
    other = copy.deepcopy(view)
    tile = other["players"][0]["village"][0]
    tile["resources"] = {"gold": 2, "wood": 1}
    tile["upgraded"] = not tile.get("upgraded")
    tile["start"] = not tile.get("start")
    tile["workers"] = [{"seat": 1, "colour": "red", "count": 2, "lying": False}]
    picture.clear_caches()
    fresh = {id(v): _bytes(_pictures(v)) for v in (view, other)}
    picture.clear_caches()
    for v in (view, view, other, view, other):
        assert _bytes(_pictures(v)) == fresh[id(v)]
    assert fresh[id(view)] != fresh[id(other)]
