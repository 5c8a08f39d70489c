"""Colours and type shared by every table picture, so the four games look like one site."""

from __future__ import annotations

import re
from functools import cache, lru_cache
from pathlib import Path

import manimgx_fonts
import noto_cjk_sans_otc
from PIL import ImageDraw, ImageFont

from meeple_hall.renderers import stamps

BACKGROUND = (245, 239, 226)  # warm table linen
INK = (52, 46, 40)
MUTED = (150, 140, 125)
# A decision picture's marks on the places its options name (renderers/phone `marked`):
# no seat's, coffee's or board's colour.
MARK = (228, 0, 132)
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
# row of boxes. Noto Sans CJK comes from a dependency (noto-cjk-sans-otc). Its collection
# draws the same characters in each region's shapes (直, 骨, 角 differ between Japan and
# Taiwan), so the reader's language picks the face: Japanese for ja, Traditional Chinese
# (which every other reader gets) for zh-TW and en. Every face has kana, Hangul and Latin.
FACES = {"ja": "Noto Sans CJK JP"}
TEXT_FACE = "Noto Sans CJK TC"
# Emoji (in players' names) are in no CJK face: Noto Emoji, a monochrome outline font that
# Pillow draws like any other, comes from a dependency (manimgx-fonts).
EMOJI_FONT = Path(manimgx_fonts.__file__).with_name("NotoEmoji[wght].ttf")
# Characters that only change the one before them (variation selectors, the zero-width
# joiner, skin tones): drawn with that character's font.
_JOINING = re.compile(r"[\u200d\ufe0e\ufe0f\U0001f3fb-\U0001f3ff\U000e0020-\U000e007f]")
_NO_GLYPH = "\U000f0000"  # a private-use character no font has: its .notdef box


def face(language: str | None) -> str:
    """The collection's face for a reader's language (`ja`, `ja-JP`, `zh-TW`, `en`, None)."""
    return FACES.get(str(language or "").split("-")[0], TEXT_FACE)


@cache
def _face_index(name: str) -> int:
    """A face's place in the collection, found by name (past the last face, Pillow raises
    OSError)."""
    path = str(noto_cjk_sans_otc.FONT_PATH)
    index = 0
    while ImageFont.truetype(path, 12, index=index).getname()[0] != name:
        index += 1
    return index


@cache
def text_font(size: int, language: str | None = None) -> ImageFont.FreeTypeFont:
    """The font for words a person wrote or reads in their language (names, titles, column
    headers), in the shapes the reader's language writes them; table pictures keep `font`
    for their numbers. `draw_text` adds the emoji this font lacks."""
    name = face(language)
    return ImageFont.truetype(str(noto_cjk_sans_otc.FONT_PATH), size, index=_face_index(name))


@cache
def emoji_font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(EMOJI_FONT), size)


def has_glyph(font: ImageFont.FreeTypeFont, char: str) -> bool:
    """Whether a font draws a character as itself, not as its missing-glyph box."""
    return _mask_key(font, char) != _mask_key(font, _NO_GLYPH)


@lru_cache(maxsize=8192)  # players' names: a few thousand characters at most
def _mask_key(font: ImageFont.FreeTypeFont, char: str) -> tuple[tuple[int, int], bytes]:
    mask = font.getmask(char)
    return mask.size, bytes(mask)


@lru_cache(maxsize=4096)  # names, titles and headers, in three languages
def runs(
    text: str, size: int, language: str | None = None
) -> tuple[tuple[str, ImageFont.FreeTypeFont], ...]:
    """A text cut where its font changes: the reader's face, and Noto Emoji for what the
    face has no glyph for (when Noto Emoji has one)."""
    words, emoji = text_font(size, language), emoji_font(size)
    out: list[tuple[str, ImageFont.FreeTypeFont]] = []
    for char in text:
        if out and _JOINING.match(char):
            chosen = out[-1][1]
        elif char.isspace() or has_glyph(words, char) or not has_glyph(emoji, char):
            chosen = words
        else:
            chosen = emoji
        if out and out[-1][1] is chosen:
            out[-1] = (out[-1][0] + char, chosen)
        else:
            out.append((char, chosen))
    return tuple(out)


@lru_cache(maxsize=4096)
def text_length(text: str, size: int, language: str | None = None) -> float:
    return sum(font.getlength(part) for part, font in runs(text, size, language))


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    *,
    size: int,
    fill: tuple[int, int, int],
    language: str | None = None,
    anchor: str = "la",
) -> None:
    """`draw.text` for words: the reader's face, emoji from Noto Emoji. `anchor` is Pillow's
    two letters (horizontal l/m/r, then vertical)."""
    horizontal, vertical = anchor[0], anchor[1]
    x, y = xy
    width = text_length(text, size, language)
    x -= {"l": 0.0, "m": width / 2, "r": width}[horizontal]
    for part, part_font in runs(text, size, language):
        stamps.text(draw, (x, y), part, fill=fill, font=part_font, anchor=f"l{vertical}")
        x += part_font.getlength(part)
