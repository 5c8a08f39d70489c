"""Colours and type shared by every table picture, so the four games look like one site."""

from __future__ import annotations

from functools import cache

import noto_cjk_sans_otc
from PIL import ImageFont

BACKGROUND = (245, 239, 226)  # warm table linen
INK = (52, 46, 40)
MUTED = (150, 140, 125)
SEAT_COLOURS = (
    (200, 60, 50),  # red
    (50, 100, 190),  # blue
    (60, 150, 80),  # green
    (230, 170, 40),  # yellow
    (130, 80, 160),  # purple
    (60, 60, 60),  # black
)


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font: numbers and symbols need no installed fonts."""
    return ImageFont.load_default(size=size)


# Pillow's bundled font has no Chinese, Japanese or Korean glyphs: a name in them would be a
# row of boxes. Noto Sans CJK comes from a dependency (noto-cjk-sans-otc); of its collection's
# regions, Traditional Chinese gives the glyph shapes our zh-TW players read, and every face
# has kana, Hangul and Latin too.
TEXT_FACE = "Noto Sans CJK TC"


@cache
def _text_font_index() -> int:
    """The TC face's place in the collection, found by name (past the last face, Pillow
    raises OSError)."""
    path = str(noto_cjk_sans_otc.FONT_PATH)
    index = 0
    while ImageFont.truetype(path, 12, index=index).getname()[0] != TEXT_FACE:
        index += 1
    return index


@cache
def text_font(size: int) -> ImageFont.FreeTypeFont:
    """The font for words a person wrote or reads in their language (names, titles, column
    headers); table pictures keep `font` for their numbers."""
    return ImageFont.truetype(str(noto_cjk_sans_otc.FONT_PATH), size, index=_text_font_index())
