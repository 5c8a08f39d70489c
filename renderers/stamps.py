"""Drawing stamps: text, rounded rectangles and a game's glyphs drawn once, then pasted,
pixel for pixel the same as Pillow's own calls (tests/renderers/test_stamps.py compares them).

    text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, *,
         fill: Ink, font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
         anchor: str | None = None) -> None
        `draw.text(xy, text, fill=fill, font=font, anchor=anchor)`. The glyph mask of a
        (text, font, anchor, fractional part of xy) is kept and drawn with the fill colour.

    rounded_rectangle(draw: ImageDraw.ImageDraw, xy: Box, radius: float = 0, *,
                      fill: Ink = None, outline: Ink = None, width: int = 1) -> None
        `draw.rounded_rectangle(xy, radius, fill=fill, outline=outline, width=width)`. A
        stamp per (size, radius, fill, outline, width) is kept and pasted.

    shape(reach: Callable[..., Reach], *, movable: Callable[..., bool] = ...,
          anywhere: bool = False) -> Callable[[Glyph], Glyph]
        A decorator: a game's glyph `draw(d, x, y, *args)` (a tile, a die, a cube) pasted
        from a stamp kept for each `args` and fractional position (see "shapes" below). Every
        game's shapes are stamped this one way.

`Ink` is an (r, g, b) tuple or None. Anything else these do not stamp (multiline text, a
font that is not a FreeType font, float corners, colours with alpha, a blending draw, a
stamp larger than MAX_STAMP_PIXELS) is handed to Pillow's call unchanged. The caches are
bounded by the pixels they keep (`pixel_bounded`, also for a renderer's own stamps) and
live in the process that draws (each picture worker has its own).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import update_wrapper, wraps
from types import ModuleType
from typing import Any, NamedTuple

from PIL import Image, ImageDraw, ImageFont

Ink = tuple[int, int, int] | None
Box = tuple[float, float, float, float] | tuple[tuple[float, float], tuple[float, float]]

# The caches are bounded by the pixels they hold, not by a count: a text or a panel may be
# large. Glyph masks are a byte a pixel (4 MB at most); rounded stamps five (20 MB at most).
TEXT_MASK_PIXELS = 4_000_000
ROUNDED_STAMP_PIXELS = 4_000_000
MAX_STAMP_PIXELS = 200_000  # a larger rounded rectangle (a panel) is drawn, not stamped


class CacheInfo(NamedTuple):
    """As `functools.lru_cache`'s: maxsize is the budget of pixels."""

    hits: int
    misses: int
    maxsize: int
    currsize: int


def pixel_bounded(budget: int) -> Callable[[Callable[..., Any]], Any]:
    """`functools.lru_cache` for functions returning pictures (Pillow's image cores, alone or
    first in a tuple): the least recently used are dropped once the kept pictures hold more
    than `budget` pixels. The same `cache_info()` and `cache_clear()`. Built of closures, as
    lru_cache's pure-Python version: a class would put a `cache_clear` on the module (the
    tests clear every renderer module's caches by that name)."""

    def decorate(make: Callable[..., Any]) -> Any:
        kept: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        counts = {"pixels": 0, "hits": 0, "misses": 0}

        def cached(*key: Any) -> Any:
            try:  # a hit is most of the calls: hundreds of stamps a picture
                known = kept[key][0]
            except KeyError:
                known = None
            if known is None:
                return remember(key)
            kept.move_to_end(key)
            counts["hits"] += 1
            return known

        def remember(key: tuple[Any, ...]) -> Any:
            counts["misses"] += 1
            value = make(*key)
            width, height = (value[0] if isinstance(value, tuple) else value).size
            kept[key] = (value, width * height)
            counts["pixels"] += width * height
            while counts["pixels"] > budget and len(kept) > 1:
                counts["pixels"] -= kept.popitem(last=False)[1][1]
            return value

        def cache_info() -> CacheInfo:
            return CacheInfo(counts["hits"], counts["misses"], budget, len(kept))

        def cache_clear() -> None:
            kept.clear()
            counts.update(pixels=0, hits=0, misses=0)

        cached.cache_info = cache_info  # type: ignore[attr-defined]
        cached.cache_clear = cache_clear  # type: ignore[attr-defined]
        return update_wrapper(cached, make)

    return decorate


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    *,
    fill: Any,
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
    anchor: str | None = None,
) -> None:
    """`draw.text` with the glyph mask cached (see the module's docstring)."""
    if "\n" in text or not isinstance(font, ImageFont.FreeTypeFont) or _blends(draw):
        draw.text(xy, text, fill=fill, font=font, anchor=anchor)
        return
    ink = _text_ink(draw, fill)
    if ink is None:
        return
    x, y = xy
    start = (math.modf(x)[0], math.modf(y)[0])
    mask, (dx, dy) = _glyph_mask(text, font, anchor or "la", draw.fontmode, start)
    draw.draw.draw_bitmap((int(x) + dx, int(y) + dy), mask, ink)


def _text_ink(draw: ImageDraw.ImageDraw, fill: Any) -> int | None:
    ink, fill_ink = draw._getink(fill)
    return fill_ink if ink is None else ink


@pixel_bounded(TEXT_MASK_PIXELS)
def _glyph_mask(
    text: str,
    font: ImageFont.FreeTypeFont,
    anchor: str,
    mode: str,
    start: tuple[float, float],
) -> tuple[Any, tuple[int, int]]:
    return font.getmask2(text, mode, anchor=anchor, start=start)


def rounded_rectangle(
    draw: ImageDraw.ImageDraw,
    xy: Box,
    radius: float = 0,
    *,
    fill: Ink = None,
    outline: Ink = None,
    width: int = 1,
) -> None:
    """`draw.rounded_rectangle` pasted from a cached stamp (see the module's docstring)."""
    box = _integer_box(xy)
    if box is None or not _stampable(draw, fill, outline):
        draw.rounded_rectangle(xy, radius, fill=fill, outline=outline, width=width)
        return
    x0, y0, x1, y1 = box
    size = (x1 - x0 + 1, y1 - y0 + 1)
    if size[0] * size[1] > MAX_STAMP_PIXELS:
        draw.rounded_rectangle(xy, radius, fill=fill, outline=outline, width=width)
        return
    colours, mask = _rounded_stamp(size, radius, fill, outline, width)
    draw.im.paste(colours, (x0, y0, x1 + 1, y1 + 1), mask)


def _blends(draw: ImageDraw.ImageDraw) -> bool:
    return draw.mode != draw._image.mode


def _integer_box(xy: Any) -> tuple[int, int, int, int] | None:
    """The box's corners when all four are whole numbers (a stamp is only moved by whole
    pixels); None otherwise."""
    flat = tuple(xy[0]) + tuple(xy[1]) if len(xy) == 2 else tuple(xy)
    if len(flat) != 4 or not all(isinstance(v, int) or float(v).is_integer() for v in flat):
        return None
    x0, y0, x1, y1 = (int(v) for v in flat)
    return (x0, y0, x1, y1) if x1 >= x0 and y1 >= y0 else None


def _stampable(draw: ImageDraw.ImageDraw, *colours: Any) -> bool:
    return (
        draw._image.mode == "RGB"
        and not _blends(draw)
        and all(c is None or (isinstance(c, tuple) and len(c) == 3) for c in colours)
    )


@pixel_bounded(ROUNDED_STAMP_PIXELS)
def _rounded_stamp(
    size: tuple[int, int], radius: float, fill: Ink, outline: Ink, width: int
) -> tuple[Any, Any]:
    """The rectangle drawn at (0, 0) on a transparent picture: its colours and the mask of
    the pixels it drew (fully opaque or untouched: Pillow draws these shapes without
    anti-aliasing)."""
    stamp = Image.new("RGBA", size, (0, 0, 0, 0))
    ImageDraw.Draw(stamp).rounded_rectangle(
        (0, 0, size[0] - 1, size[1] - 1),
        radius,
        fill=_opaque(fill),
        outline=_opaque(outline),
        width=width,
    )
    # A "1" mask pastes several times faster than an "L" one, and the same pixels.
    return stamp.convert("RGB").im, stamp.getchannel("A").convert("1").im


def _opaque(colour: Ink) -> tuple[int, int, int, int] | None:
    return None if colour is None else (*colour, 255)


# -- shapes -----------------------------------------------------------------------------------
# A game's glyphs (a tile, a die, a cube, a member) are drawn once on a clear picture and pasted
# from then on. Pillow places shapes and glyphs by their exact coordinates and draws shapes
# without anti-aliasing: a glyph drawn at the same fractional position and moved by whole pixels
# has the same pixels, each fully opaque or untouched (its text lies on its own fill, where it
# blends as on the picture; a pixel left partly clear is pasted by its alpha). Moved by an even
# number of pixels only: Pillow rounds a rounded rectangle's corners half to even.
#
# Where a stamp draws its glyph decides the last bits of the glyph's coordinates:
# - by default, about (LOCAL + x mod 2, LOCAL + y mod 2), the float precision of the picture's
#   own coordinates, and only for a glyph at x, y >= LOCAL on a multiple of 1/64 (a third, a
#   point of a circle would round differently); any other glyph, and one not `movable`, is
#   stamped where it is: pixel for pixel the glyph drawn in place (Village);
# - `anywhere`: every glyph, at its stamp's corner, a stamp for each fractional position:
#   where an edge falls exactly on a pixel's border, the last bit of its coordinates takes the
#   pixel or leaves it (a few pixels of Burgundy's hex edges, whose centres are at multiples of
#   the square root of 3: stamped in place, each hex would be a stamp of its own).
Glyph = Callable[..., None]
# A glyph's box about (floor(x), floor(y)): left, top, right and bottom, the last two excluded.
Reach = tuple[int, int, int, int]
LOCAL = 64
SHAPE_STAMP_PIXELS = 6_000_000  # five bytes a pixel (colours, mask): 30 MB at most
_SHAPES: list[Glyph] = []


def shape(
    reach: Callable[..., Reach],
    *,
    movable: Callable[..., bool] = lambda *args: True,
    anywhere: bool = False,
) -> Callable[[Glyph], Glyph]:
    """A glyph `draw(d, x, y, *args)` pasted from a stamp kept for each `args` (hashable: every
    argument that changes the pixels) and place the stamp draws it at (see above). The glyph
    stays within `reach(*args)`; one not `movable(*args)` is stamped where it is. The drawing
    itself stays at `__wrapped__`, the reach at `reach`."""

    def wrap(glyph: Glyph) -> Glyph:
        @wraps(glyph)
        def draw(d: ImageDraw.ImageDraw, x: float, y: float, *args: Any) -> None:
            if not movable(*args):
                dx = dy = 0
            elif anywhere:
                left, top, _, _ = reach(*args)
                dx, dy = 2 * math.floor((x + left) / 2), 2 * math.floor((y + top) / 2)
            else:
                dx, dy = _exact_move(x), _exact_move(y)
            _shape_stamp(glyph, reach, x - dx, y - dy, args).paste(d, dx, dy)

        draw.reach = reach  # type: ignore[attr-defined]
        _SHAPES.append(draw)
        return draw

    return wrap


def shapes(module: ModuleType) -> list[Glyph]:
    """The module's glyphs drawn from shape stamps."""
    return [glyph for glyph in _SHAPES if glyph.__module__ == module.__name__]


def _exact_move(v: float) -> int:
    return 2 * math.floor(v / 2) - LOCAL if v >= LOCAL and v * 64 % 1 == 0 else 0


class Stamp(NamedTuple):
    """A glyph's colours and mask (one bit a pixel, several times faster to paste through
    than a byte; a byte where some pixel is partly clear), and its box where drawn."""

    colours: Any
    mask: Any
    box: tuple[int, int, int, int]

    def paste(self, d: ImageDraw.ImageDraw, dx: int, dy: int) -> None:
        left, top, right, bottom = self.box
        at = (dx + left, dy + top, dx + right, dy + bottom)
        if d.im.mode == "RGB":
            d.im.paste(self.colours, at, self.mask)
            return
        # a clear picture (a stamp drawn in another, a layer): the glyph as drawn there
        drawn = self.colours.convert("RGBA")
        drawn.putband(self.mask if self.mask.mode == "L" else self.mask.convert("L"), 3)
        d.im.paste(drawn, at, drawn)


@pixel_bounded(SHAPE_STAMP_PIXELS)
def _shape_stamp(
    glyph: Glyph, reach: Callable[..., Reach], x: float, y: float, args: tuple[Any, ...]
) -> Stamp:
    """The glyph drawn at (x, y) on a clear picture, cut to its box (where the picture has
    one: a glyph stamped where it is may reach past its top or left edge)."""
    left, top, right, bottom = reach(*args)
    ix, iy = math.floor(x), math.floor(y)
    box = (max(0, ix + left), max(0, iy + top), ix + right, iy + bottom)
    canvas = Image.new("RGBA", box[2:], (0, 0, 0, 0))
    glyph(ImageDraw.Draw(canvas), x, y, *args)
    drawn = canvas.crop(box)
    alpha = drawn.getchannel("A")
    if any(alpha.histogram()[1:255]):
        return Stamp(drawn.convert("RGB").im, alpha.im, box)
    return Stamp(drawn.convert("RGB").im, alpha.convert("1", dither=Image.Dither.NONE).im, box)
