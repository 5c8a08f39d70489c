"""Colours and type shared by every table picture, so the four games look like one site."""

from __future__ import annotations

from functools import cache

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
