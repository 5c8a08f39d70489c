"""Stamps (`renderers/stamps.py`) draw exactly what Pillow's own calls draw: text in Latin,
CJK and emoji at several sizes, anchors and fractional positions, and rounded rectangles of
every kind the renderers draw, near the picture's edges too."""

from __future__ import annotations

import random
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

from meeple_hall.renderers import palette, stamps

BACKGROUND = (245, 239, 226)
TEXTS = ("Village 12", "Karla", "42", "黃金咖啡", "カールラ", "紀錄：3", "🎲", "🦊✨")
ANCHORS = ("la", "lt", "mm", "ms", "rs", "rb", "md", "lm")
POSITIONS = ((10, 12), (10.5, 12.25), (33.3, 7.8), (-4.6, 40.1), (190.75, 70.5))


def pair(size: tuple[int, int] = (200, 80)) -> tuple[Image.Image, Image.Image]:
    return Image.new("RGB", size, BACKGROUND), Image.new("RGB", size, BACKGROUND)


def font_for(text: str, size: int):
    return palette.runs(text, size, "ja")[0][1]


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("size", (11, 16, 23))
def test_stamped_text_is_pillow_s_text(text, size):
    font = font_for(text, size)
    hits = stamps._glyph_mask.cache_info().hits
    for anchor in ANCHORS:
        for xy in POSITIONS:
            plain, _ = pair()
            ImageDraw.Draw(plain).text(xy, text, fill=(52, 46, 40), font=font, anchor=anchor)
            for cache in ("cold", "warm"):
                stamped, _ = pair()
                stamps.text(
                    ImageDraw.Draw(stamped), xy, text, fill=(52, 46, 40), font=font, anchor=anchor
                )
                assert stamped.tobytes() == plain.tobytes(), (text, size, anchor, xy, cache)
    assert stamps._glyph_mask.cache_info().hits >= hits + len(ANCHORS) * len(POSITIONS)


def test_stamped_text_takes_each_call_s_colour():
    font = palette.font(18)
    for fill in ((200, 60, 50), (50, 100, 190), "white"):
        plain, stamped = pair()
        ImageDraw.Draw(plain).text((5, 5), "Keyflower", fill=fill, font=font)
        stamps.text(ImageDraw.Draw(stamped), (5, 5), "Keyflower", fill=fill, font=font)
        assert stamped.tobytes() == plain.tobytes()


def test_multiline_and_blending_text_are_pillow_s():
    font = palette.font(14)
    plain, stamped = pair()
    ImageDraw.Draw(plain, "RGBA").text((5, 5), "a\nb", fill=(0, 0, 0, 128), font=font)
    stamps.text(ImageDraw.Draw(stamped, "RGBA"), (5, 5), "a\nb", fill=(0, 0, 0, 128), font=font)
    assert stamped.tobytes() == plain.tobytes()


ROUNDED = [
    # (box size, radius, fill, outline, width): what the renderers draw
    ((20, 20), 3, (200, 60, 50), (52, 46, 40), 1),
    ((20, 20), 3, None, (52, 46, 40), 1),
    ((72, 84), 8, None, (120, 110, 100), 2),
    ((120, 44), 10, (230, 170, 40), (52, 46, 40), 2),
    ((126, 50), 12, None, (52, 46, 40), 5),
    ((24, 8), 3, (236, 200, 90), (52, 46, 40), 1),
    ((30, 30), 20, (60, 150, 80), None, 1),  # the corners join: a circle
    ((40, 10), 9, (60, 150, 80), (52, 46, 40), 1),  # the top and bottom halves join
    ((10, 40), 9, (60, 150, 80), (52, 46, 40), 3),
    ((50, 30), 0, (60, 150, 80), (52, 46, 40), 1),  # no curve: a rectangle
    ((50, 30), 6, (52, 46, 40), (52, 46, 40), 1),  # outline as the fill
    ((0, 0), 4, (52, 46, 40), None, 1),
    ((300, 200), 14, (40, 36, 36), (120, 110, 100), 1),
]


@pytest.mark.parametrize("shape", ROUNDED, ids=str)
def test_stamped_rounded_rectangles_are_pillow_s(shape):
    (w, h), radius, fill, outline, width = shape
    rng = random.Random(7)
    spots = [(0, 0), (1, 1), (-5, -3), (180, 60)] + [
        (rng.randint(-10, 200), rng.randint(-10, 80)) for _ in range(6)
    ]
    hits = stamps._rounded_stamp.cache_info().hits
    for x, y in spots:
        plain, stamped = pair((220, 100))
        box = (x, y, x + w, y + h)
        ImageDraw.Draw(plain).rounded_rectangle(
            box, radius, fill=fill, outline=outline, width=width
        )
        stamps.rounded_rectangle(
            ImageDraw.Draw(stamped), box, radius, fill=fill, outline=outline, width=width
        )
        assert stamped.tobytes() == plain.tobytes(), (shape, x, y)
    assert stamps._rounded_stamp.cache_info().hits >= hits + len(spots) - 1


def test_float_corners_and_point_pairs_are_pillow_s():
    for box in ((3.5, 4.25, 60.5, 30.75), ((3.0, 4.0), (60.0, 30.0)), ((2, 2), (40, 20))):
        plain, stamped = pair()
        ImageDraw.Draw(plain).rounded_rectangle(box, 5, fill=(60, 150, 80), outline=(0, 0, 0))
        stamps.rounded_rectangle(
            ImageDraw.Draw(stamped), box, 5, fill=(60, 150, 80), outline=(0, 0, 0)
        )
        assert stamped.tobytes() == plain.tobytes(), box


@pytest.mark.parametrize("language", ("en", "zh-TW", "ja"))
def test_draw_text_is_pillow_s_text_run_by_run(language):
    """`palette.draw_text` (stamped) draws what Pillow draws for each of its runs."""
    name = "Kaz 🦊 黃金・カード ✨"
    for anchor, xy in (("la", (4, 30)), ("mm", (100.0, 40.5)), ("rs", (195, 50))):
        plain, stamped = pair()
        draw = ImageDraw.Draw(plain)
        x = xy[0] - {"l": 0, "m": 0.5, "r": 1}[anchor[0]] * palette.text_length(name, 17, language)
        for part, font in palette.runs(name, 17, language):
            draw.text((x, xy[1]), part, fill=(52, 46, 40), font=font, anchor=f"l{anchor[1]}")
            x += font.getlength(part)
        palette.draw_text(
            ImageDraw.Draw(stamped),
            xy,
            name,
            size=17,
            fill=(52, 46, 40),
            language=language,
            anchor=anchor,
        )
        assert stamped.tobytes() == plain.tobytes(), (language, anchor)


def test_the_caches_keep_at_most_their_budget_of_pixels():
    made = []

    def blank(width: int) -> object:
        made.append(width)
        return Image.new("L", (width, 10)).im

    cache = stamps.pixel_bounded(1000)(blank)
    for width in (40, 30, 20):  # 900 pixels: all kept
        cache(width)
    cache(40)  # used again: the newest
    assert cache.cache_info() == (1, 3, 1000, 3)
    cache(50)  # 1,400 pixels: the least recently used go (30, then 20)
    assert cache.cache_info().currsize == 2
    cache(40), cache(50)
    assert made == [40, 30, 20, 50] and cache.cache_info().hits == 3
    cache(30)
    assert made[-1] == 30
    cache.cache_clear()
    assert cache.cache_info() == (0, 0, 1000, 0)


# -- shape stamps -----------------------------------------------------------------------------
INK = (52, 46, 40)
LABEL_FONT = ImageFont.load_default(size=11)


def badge(d: ImageDraw.ImageDraw, x: float, y: float, label: str, fill: tuple) -> None:
    """A glyph of what the games' glyphs draw: a rounded rectangle with a thick outline (its
    corners rounded half to even), a disc, a triangle and text on its fill."""
    d.rounded_rectangle((x, y, x + 31, y + 19), radius=5, fill=fill, outline=INK, width=2)
    d.ellipse((x + 3.5, y + 4, x + 12.5, y + 13), fill=(250, 250, 250), outline=INK)
    d.polygon([(x + 25, y + 4), (x + 29, y + 9.5), (x + 25, y + 15)], fill=INK)
    stamps.text(d, (x + 19, y + 10), label, font=LABEL_FONT, fill=INK, anchor="mm")


def badge_reach(label: str, fill: tuple) -> stamps.Reach:
    return -2, -2, 35, 23


stamped_badge = stamps.shape(badge_reach)(badge)
badge_anywhere = stamps.shape(badge_reach, anywhere=True)(badge)
badge_in_place = stamps.shape(badge_reach, movable=lambda label, fill: False)(badge)


def label(d: ImageDraw.ImageDraw, x: float, y: float, value: str) -> None:
    """Text on nothing: its soft edges partly clear."""
    d.text((x, y), value, font=LABEL_FONT, fill=INK, anchor="mm")


stamped_label = stamps.shape(lambda value: (-30, -10, 32, 12))(label)


def framed(d: ImageDraw.ImageDraw, x: float, y: float, fill: tuple) -> None:
    """A stamped glyph drawing another: pasted on its clear picture."""
    d.rectangle((x - 3, y - 3, x + 40, y + 26), fill=(200, 210, 220), outline=INK)
    stamped_badge(d, x + 2, y + 2, "7", fill)


stamped_framed = stamps.shape(lambda fill: (-4, -4, 42, 28))(framed)

# Whole, half and quarter pixels, odd and even, a third, near the corner (below LOCAL) and
# past the far edges (cut off there).
BADGE_SPOTS = ((3.5, 2.25), (40.3, 50.5), (63.5, 64.5), (150.5, 120.5), (151.5, 121.75))
BADGE_SPOTS += ((100 + 1 / 3, 90.0), (201, 161), (275.25, 185.5), (-10.5, 30.0))


def compare(glyph: Any, drawing: Any, spots: tuple, *args: Any, mode: str = "RGB") -> None:
    for cache in ("cold", "warm"):
        ground = BACKGROUND if mode == "RGB" else (0, 0, 0, 0)
        pasted, drawn = Image.new(mode, (300, 200), ground), Image.new(mode, (300, 200), ground)
        for x, y in spots:
            glyph(ImageDraw.Draw(pasted), x, y, *args)
            drawing(ImageDraw.Draw(drawn), x, y, *args)
        assert pasted.tobytes() == drawn.tobytes(), (glyph.__name__, args, cache)


@pytest.mark.parametrize("fill", [(200, 60, 50), (236, 232, 222)])
@pytest.mark.parametrize("glyph", [stamped_badge, badge_in_place], ids=["movable", "in place"])
def test_a_shape_stamp_pastes_the_glyph_drawn_in_place(glyph, fill):
    stamps._shape_stamp.cache_clear()
    compare(glyph, badge, BADGE_SPOTS, "12", fill)


def test_a_stamp_moves_a_glyph_only_where_its_coordinates_move_exactly():
    """One stamp for a glyph at every even move from LOCAL on (on a multiple of 1/64), one
    for each place elsewhere (below LOCAL, a third) and for a glyph not movable."""
    stamps._shape_stamp.cache_clear()
    picture = ImageDraw.Draw(Image.new("RGB", (300, 200)))
    for x, y in ((80.5, 70.25), (82.5, 72.25), (180.5, 100.25), (240.5, 64.25)):
        stamped_badge(picture, x, y, "3", INK)
    assert stamps._shape_stamp.cache_info().misses == 1
    for x, y in ((20.5, 70.25), (22.5, 72.25), (80 + 1 / 3, 70.25), (82 + 1 / 3, 72.25)):
        stamped_badge(picture, x, y, "3", INK)
    assert stamps._shape_stamp.cache_info().misses == 5
    for x, y in ((80.5, 70.25), (82.5, 72.25)):
        badge_in_place(picture, x, y, "3", INK)
    assert stamps._shape_stamp.cache_info().misses == 7


def test_anywhere_a_stamp_moves_every_glyph_by_even_pixels():
    """`anywhere`: one stamp for a glyph at every even move of the same fraction of a pixel,
    below LOCAL and at a third too; at whole and half pixels, the glyph drawn in place."""
    stamps._shape_stamp.cache_clear()
    picture = ImageDraw.Draw(Image.new("RGB", (300, 200)))
    for x, y in ((20 + 1 / 3, 8.5), (22 + 1 / 3, 10.5), (26 + 1 / 3, 16.5)):
        badge_anywhere(picture, x, y, "3", INK)
    assert stamps._shape_stamp.cache_info().misses == 1
    halves = ((3.5, 2.0), (40, 50.5), (63.5, 64.5), (150.5, 121), (201, 161), (275.5, 185))
    compare(badge_anywhere, badge, halves, "12", (200, 60, 50))


def test_a_glyph_partly_clear_is_pasted_by_its_alpha():
    """Text on nothing blends with the ground it is pasted on, as drawn there."""
    stamps._shape_stamp.cache_clear()
    compare(stamped_label, label, BADGE_SPOTS, "Karla 12")
    stamp = stamps._shape_stamp(label, stamped_label.reach, 100.5, 90.0, ("Karla 12",))
    assert stamp.mask.mode == "L"


def test_a_stamp_in_a_stamp_is_the_glyph_drawn_there():
    """A glyph pasted on a clear picture (a stamp of another glyph, a layer) is the glyph
    drawn there; a stamp drawing a stamped glyph pastes what is drawn in place."""
    stamps._shape_stamp.cache_clear()
    compare(stamped_badge, badge, BADGE_SPOTS, "5", (200, 60, 50), mode="RGBA")
    compare(stamped_framed, framed, BADGE_SPOTS, (60, 150, 80))


def test_shapes_are_the_module_s_stamped_glyphs():
    import sys

    here = stamps.shapes(sys.modules[__name__])
    assert here == [stamped_badge, badge_anywhere, badge_in_place, stamped_label, stamped_framed]
    assert all(glyph.__wrapped__ in (badge, label, framed) for glyph in here)
