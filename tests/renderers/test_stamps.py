"""Stamps (`renderers/stamps.py`) draw exactly what Pillow's own calls draw: text in Latin,
CJK and emoji at several sizes, anchors and fractional positions, and rounded rectangles of
every kind the renderers draw, near the picture's edges too."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw

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
