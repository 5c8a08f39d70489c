"""Keyflower's table picture and a seat's private picture, drawn from views only.

The picture is laid out to read at Discord's inline size (about 550 x 350 px): a top bar
with the season, whose turn it is (or who won), then the bag, green supply, skill pile and
resource supply; the tiles up for auction with every bid under them (worker colour and
shape, count, a ring in the bidder's seat colour and a badge with the seat number) and the
turn-order tiles; the boats with their contents; then every village as a hex map with
roads, water, upgraded sides (gold rim), resources and workers, all at one scale, packed in
rows so the hexes are as large as the canvas allows. Nothing is told by colour alone, for
colour-blind players. Tile codes (S07, U03, ...) are what players type, so they are
printed; no words (the words are in bot/presenters/keyflower.py).

The top bar, each tile up for auction with its bids, each boat, each village and a seat's
screen are parts kept by what they show (`kept_part`, renderers/parts.py): a move draws the
two or three it changed and pastes the others, in the table and the phone's pictures alike.
"""

from __future__ import annotations

import json
import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from functools import cache, lru_cache, partial
from itertools import combinations, pairwise
from typing import Any, NamedTuple

from PIL import Image, ImageDraw

from meeple_hall.games.keyflower.components import tiles
from meeple_hall.games.keyflower.village import DIRS
from meeple_hall.renderers import parts, stamps
from meeple_hall.renderers.palette import BACKGROUND, INK, MUTED, font
from meeple_hall.renderers.phone import MIN_FONT
from meeple_hall.renderers.shapes import UNIT, draw_shape

WIDTH = 1280
TARGET_H = round(WIDTH * 350 / 550)  # Discord shows an attachment in about 550 x 350 px
MAX_H = 1050  # taller, and the inline picture would be under 1/3 of its size
MARGIN = 12
GAP = 10
TOP = 72  # the top bar
MARKET_HEX = 62  # largest hex size (centre to corner) of a tile up for auction
VILLAGE_HEX = (38.0, 64.0)  # smallest and largest hex size in the villages
STRIP = 58  # a village's left strip: seat, start keyple, winter hand, final score
STRIP_MIN_H = 140
PAD = 10
BID_R = 16  # a bid's disc; the bidder's seat ring adds RING around it
RING = 5
BADGE = 11  # the bidder's seat number on a bid
BID_PITCH = 2 * (BID_R + RING) + 4
# A bid's reach left (its seat badge) and right (a triangle's ring) of its centre; the
# least step between two bids in a row that keeps the count under the next badge in view.
BID_LEFT = BID_R + RING * 0.6 + BADGE
BID_RIGHT = (BID_R + RING * 1.5) * 1.2
BID_MIN_STEP = 36
TRAY_INSET = 4
BOAT_H = 56
BOAT_SCORE_W = 74
SQRT3 = math.sqrt(3)
WHITE = (255, 255, 255)
PANEL = (252, 249, 240)

WORKER = {
    "blue": (52, 101, 196),
    "red": (206, 57, 47),
    "yellow": (240, 196, 40),
    "green": (64, 160, 72),
}
RESOURCE = {
    "gold": (232, 185, 35),
    "iron": (58, 58, 64),
    "stone": (150, 150, 155),
    "wood": (139, 90, 43),
}
SKILL = {"anvil": (70, 70, 80), "pick": (120, 120, 130), "saw": (160, 110, 60)}
SEAT = (
    (140, 70, 170),  # purple
    (0, 150, 150),  # teal
    (235, 120, 30),  # orange
    (220, 90, 150),  # pink
    (110, 80, 50),  # brown
    (80, 100, 120),  # slate
)
SEASON = {
    "home": (214, 196, 160),
    "spring": (170, 214, 140),
    "summer": (246, 222, 120),
    "autumn": (232, 160, 96),
    "winter": (180, 212, 236),
    "boat": (120, 170, 220),
    "turn_order": (200, 184, 220),
}
ROAD = (120, 96, 70)
WATER = (60, 130, 210)
RIM = (200, 150, 20)
START = (128, 60, 170)


# A hex's corners about its centre for size 1, pointy side up.
HEX_CORNERS = tuple(
    (math.cos(math.radians(60 * i - 30)), math.sin(math.radians(60 * i - 30))) for i in range(6)
)


def _hex(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    return [(cx + size * dx, cy + size * dy) for dx, dy in HEX_CORNERS]


def _edge_angle(d: int) -> float:
    """Direction d (0 east, counter-clockwise) as a screen angle in radians."""
    return math.radians(-60 * d)


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, int, int] = INK,
    halo: tuple[int, int, int] | None = None,
) -> None:
    """Centred text; a halo in the ground's colour keeps it clear of roads drawn under it.
    Drawn at the place that draws the same glyphs with a cached mask (`_same_glyphs_at`)."""
    typeface = font(max(size, MIN_FONT.get()))
    at = _same_glyphs_at(xy)
    if halo is not None and min(at) < 0:  # Pillow's start is negative there: its own call
        draw.text(
            at,
            text,
            fill=fill,
            font=typeface,
            anchor="mm",
            stroke_width=max(2, size // 8),
            stroke_fill=halo,
        )
        return
    if halo is not None:  # as Pillow draws a stroke: the stroke's mask, then the text's
        start = (at[0] - math.floor(at[0]), at[1] - math.floor(at[1]))
        mask, (dx, dy) = _halo_mask(text, typeface, max(2, size // 8), start)
        ink = draw._getink(halo)[0]
        draw.draw.draw_bitmap((int(at[0]) + dx, int(at[1]) + dy), mask, ink)
        if halo == fill:
            return
    stamps.text(draw, at, text, fill=fill, font=typeface, anchor="mm")


@lru_cache(maxsize=1024)  # tile codes at a few sizes, three starts each
def _halo_mask(
    text: str, typeface: Any, stroke: int, start: tuple[float, float]
) -> tuple[Any, tuple[int, int]]:
    return typeface.getmask2(
        text, "L", stroke_width=stroke, anchor="mm", start=start, stroke_filled=True
    )


# Pillow draws a text's glyphs at whole pixels: where a text starts within its pixel moves
# them by one pixel or none, and adds a row or column to the mask when it is not 0. For the
# bundled font with anchor "mm" that makes three kinds of start per axis: none, under
# 31.5/64 of a pixel (32.5/64 down), and the rest (tests/renderers/test_keyflower_drawing.py
# compares every text and size drawn here with Pillow's), so a text is drawn at its kind's
# start and the stamps' cache keeps three masks a text and size, not one a position. Starts
# within a rounding error of those bounds keep their place.
START_BOUNDS = (31.5 / 64, 32.5 / 64)
START_KINDS = (0.0, 0.25, 0.75)  # a start of each kind
NEAR = 1e-3 / 64


def _same_glyphs_at(xy: tuple[float, float]) -> tuple[float, float]:
    """A place that draws the same pixels as xy with anchor "mm" (xy where unsure)."""
    place = []
    for value, bound in zip(xy, START_BOUNDS, strict=True):
        whole = math.floor(value)
        part = value - whole
        if value < 0 or 0 < part < 1e-4 or abs(part - bound) < NEAR:
            return xy
        place.append(whole + START_KINDS[0 if part == 0 else 1 if part < bound else 2])
    return place[0], place[1]


def _regular(
    draw: ImageDraw.ImageDraw,
    circle: tuple[float, float, float],
    sides: int,
    fill: tuple[int, int, int] | None = None,
    outline: tuple[int, int, int] | None = None,
    width: int = 1,
) -> None:
    """`draw.regular_polygon(circle, sides, ...)`, its corners worked out as Pillow does
    with the angles' sines and cosines kept."""
    x, y, r = circle
    corners = [(round(r * c + x, 2), round(r * s + y, 2)) for c, s in _polygon_turns(sides)]
    draw.polygon(corners, fill=fill, outline=outline, width=width)


@cache
def _polygon_turns(sides: int) -> tuple[tuple[float, float], ...]:
    """Pillow's corner directions of a regular polygon (`_compute_regular_polygon_vertices`
    with rotation 0)."""
    step = 360 / sides
    angle = 270 - 0.5 * step
    turns = []
    for _ in range(sides):
        turns.append((math.cos(math.radians(360 - angle)), math.sin(math.radians(360 - angle))))
        angle += step
        if angle > 360:
            angle -= 360
    return tuple(turns)


ROUNDED_STAMP_AREA = 20_000  # a village's panel, met at each new layout, is drawn: quicker


def _rounded(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    radius: float,
    fill: tuple[int, int, int] | None = None,
    outline: tuple[int, int, int] | None = None,
    width: int = 1,
) -> None:
    """`draw.rounded_rectangle`, pasted from a stamp: Pillow rounds the corners of the box
    to whole pixels first, so where the box is wider and taller than its round corners the
    rounded box draws the same."""
    x0, y0, x1, y1 = box
    whole = (round(x0), round(y0), round(x1), round(y1))
    small = (x1 - x0) * (y1 - y0) <= ROUNDED_STAMP_AREA
    if small and min(x1 - x0, y1 - y0, whole[2] - whole[0], whole[3] - whole[1]) > 2 * radius + 1:
        stamps.rounded_rectangle(draw, whole, radius, fill=fill, outline=outline, width=width)
    else:
        draw.rounded_rectangle(box, radius, fill=fill, outline=outline, width=width)


# The parts of a picture (renderers/parts.py): the table's top bar, each tile up for auction
# with its bids, each boat and each village, and a seat's screen, kept by everything their
# pixels depend on (what they show, where, and the least type size in force: the phone's
# pictures draw the same parts with larger type). A move changes two or three of them; the
# others are pasted as they were, in the table and in the phone's pictures alike.
# They are kept up to a number of bytes rather than of parts, since a part is 0.05-1.4 MB
# (as Pillow holds RGB: 4 bytes a pixel): a table's picture and each seat's decision picture
# at one move keep 3.8 MiB at 2 players, 6.1 at 3, 10.5 at 6, so a picture worker keeps
# those of 4-10 tables.
PARTS_KEPT_BYTES = 40 * 2**20


class PartsInfo(NamedTuple):
    hits: int
    misses: int
    currsize: int  # parts kept
    held: int  # their bytes, but the last part drawn's (counted when the next is asked for)


class KeptParts:
    """`parts.draw_part`'s kept parts: the list a part's picture is kept in, by its key (empty
    until it is drawn); as `functools.lru_cache` over `key -> []`, but the least recently used
    go first once the pictures kept hold over `budget` bytes, so that at most `budget` bytes
    and the last part drawn are kept."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._kept: OrderedDict[tuple[Any, ...], list[Image.Image]] = OrderedDict()
        self._sizes: dict[tuple[Any, ...], int] = {}
        self._drawn: list[tuple[Any, ...]] = []  # keys asked for since the last miss
        self._held = self._hits = self._misses = 0
        self._lock = threading.Lock()  # a worker may draw in several threads

    def __call__(self, key: tuple[Any, ...]) -> list[Image.Image]:
        with self._lock:
            kept = self._kept.get(key)
            if kept:
                self._kept.move_to_end(key)
                self._hits += 1
                return kept
            self._misses += 1
            self._count_drawn()
            self._kept.pop(key, None)  # kept empty: its drawing failed
            while self._held > self.budget and self._kept:
                gone, _ = self._kept.popitem(last=False)
                self._held -= self._sizes.pop(gone, 0)
            kept = self._kept[key] = []
            self._drawn.append(key)
            return kept

    def _count_drawn(self) -> None:
        """Count the parts drawn under the keys asked for since the last miss."""
        for key in self._drawn:
            kept = self._kept.get(key)
            if kept and key not in self._sizes:
                self._sizes[key] = 4 * kept[0].width * kept[0].height
                self._held += self._sizes[key]
        self._drawn.clear()

    def cache_info(self) -> PartsInfo:
        return PartsInfo(self._hits, self._misses, len(self._kept), self._held)

    def cache_clear(self) -> None:  # named as functools' caches: tests clear them all
        with self._lock:
            self._kept.clear()
            self._sizes.clear()
            self._drawn.clear()
            self._held = self._hits = self._misses = 0


kept_part = KeptParts(PARTS_KEPT_BYTES)


def _part(
    draw: ImageDraw.ImageDraw,
    key: tuple[Any, ...],
    box: tuple[float, float, float, float],
    draw_it: Callable[[], Any],
) -> None:
    """The part of the picture in `box`, pasted as drawn before under `key` (with the type
    size in force) or drawn by `draw_it()` and kept: everything it draws lies in the box,
    on the background, and no other part reaches into it (the `PART_MARGIN` around it)."""
    parts.draw_part(draw._image, kept_part, (*key, MIN_FONT.get()), box, draw_it)


# What the top bar shows besides the final scores (`_top_bar`).
TOP_BAR_READS = ("season", "round", "active_seats", "supply", "skill_pile", "green", "bag")


# Each worker colour has its own shape, so workers read without colour vision too (red and
# green look alike to about 1 man in 12); the panels' emoji take the same shapes.
SHAPE = {"blue": "circle", "red": "triangle", "yellow": "diamond", "green": "square"}
# How far a shape's corners move out for a seat ring 1 px wide (a triangle's ring is
# thinner along its sides, so its corners do not stick out).
OUTSET = {"circle": 1.0, "triangle": 1.5, "diamond": math.sqrt(2), "square": 1.0}
# How far a full-size bid reaches below its row on the tray (a diamond's lower corner, with
# its seat ring): a tile's part reaches that far below its tray (`_lots`).
BID_BELOW = (
    max(
        max(y for _, y in UNIT.get(shape, ((0.0, 1.0),))) * (BID_R + RING * OUTSET[shape])
        for shape in SHAPE.values()
    )
    - BID_PITCH / 2
)


def _worker(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    colour: str,
    r: float,
    fill: tuple[int, int, int] | None = None,
    outline: tuple[int, int, int] | None = INK,
    width: int = 1,
    lying: bool = False,
) -> None:
    """A worker's shape in its colour (or `fill`)."""
    shape = SHAPE.get(colour, "circle")
    fill = fill or WORKER.get(colour, MUTED)
    sx, sy = (1.3, 0.7) if lying else (1.0, 1.0)
    draw_shape(draw, shape, x, y, r, fill=fill, outline=outline, width=width, sx=sx, sy=sy)


def _pawn(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    colour: str,
    n: int,
    r: float = 9,
    seat: int | None = None,
    ring_w: float = 3,
    lying: bool = False,
    badge: float = 0,
) -> None:
    """A worker: its colour's shape with its count, ringed in its owner's seat colour; a
    badge of radius `badge` on its upper left gives the owner's seat number too."""
    if seat is not None:
        grow = ring_w * OUTSET[SHAPE.get(colour, "circle")]
        _worker(
            draw, x, y, colour, r + grow, fill=SEAT[seat % len(SEAT)], outline=None, lying=lying
        )
    _worker(draw, x, y, colour, r, lying=lying)
    dy = r * 0.3 if SHAPE.get(colour) == "triangle" and not lying else 0.0
    size = int(r * (1.15 if dy else 1.4))
    _text(draw, (x, y + dy), str(n), size, WHITE if colour != "yellow" else INK)
    if seat is not None and badge:
        bx, by = x - r - ring_w * 0.6, y - r - ring_w * 0.2
        _seat_chip(draw, bx, by, seat, badge, width=1)


def _stored_spots(cx: float, cy: float, size: float, n: int) -> list[tuple[float, float, float]]:
    """Where resources kept on a tile lie: a row low in the hex, every piece (with its
    shadow) inside the hex's lower edges."""
    r = max(6.0, size * 0.13)
    y = cy + size * 0.6
    # The hex's half width at the pieces' lowest corner, less the piece and its shadow.
    room = SQRT3 * (size - (size * 0.6 + r * 1.2)) - r * 1.2
    step = min(size * 0.3, 2 * room / max(1, n - 1))
    return [(cx + (i - (n - 1) / 2) * step, y, r) for i in range(n)]


def _piece(
    draw: ImageDraw.ImageDraw, x: float, y: float, fill: tuple[int, int, int], n: int, r: float
) -> None:
    """Resource pieces (kept on a tile, or in the supply): a square block with a shadow and
    its count. What a tile produces is printed as an octagon instead (`_token`)."""
    sh = max(2.0, r * 0.18)
    draw.rectangle((x - r + sh, y - r + sh, x + r + sh, y + r + sh), fill=INK)
    draw.rectangle((x - r, y - r, x + r, y + r), fill=fill, outline=INK)
    _text(draw, (x, y), str(n), int(r * 1.3), WHITE if fill != RESOURCE["gold"] else INK)


def _token(
    draw: ImageDraw.ImageDraw, x: float, y: float, fill: tuple[int, int, int], n: int, r: float = 8
) -> None:
    _regular(draw, (x, y, r), 8, fill=fill, outline=INK)
    _text(draw, (x, y), str(n), int(r * 1.25), WHITE if fill != RESOURCE["gold"] else INK)


def _glyph(draw: ImageDraw.ImageDraw, tile: dict[str, Any], x: float, y: float, s: float) -> None:
    """A small picture of what the tile does, with its numbers."""
    drawer = GLYPHS.get(tile.get("effect", ""))
    if drawer is not None:
        drawer(draw, tile, x, y, s)
    elif tile.get("kind") in ("winter", "boat"):
        _scoring(draw, tile.get("effect", ""), tile.get("detail", {}), x, y, s)


def _small(s: float) -> int:
    """The type size of a glyph's numbers."""
    return max(8, int(s * 0.22))


def _gives(draw: ImageDraw.ImageDraw, tile: dict[str, Any], x: float, y: float, s: float) -> None:
    """Resources given (a craft tile: for a skill tile, drawn to their left)."""
    d = tile.get("detail", {})
    items = sorted(d.get("give", {}).items())
    for i, (k, n) in enumerate(items):
        _token(draw, x + (i - (len(items) - 1) / 2) * s * 0.42, y, RESOURCE[k], n, r=s * 0.18)
    if tile.get("effect") == "craft":
        _skill(draw, x - s * 0.55, y, d.get("skill", ""), s * 0.15)


def _chooses(draw: ImageDraw.ImageDraw, tile: dict[str, Any], x: float, y: float, s: float) -> None:
    for i, k in enumerate(tile.get("detail", {}).get("options", [])):
        _regular(draw, (x + (i - 1) * s * 0.34, y, s * 0.15), 8, fill=RESOURCE[k], outline=INK)


def _hires(draw: ImageDraw.ImageDraw, tile: dict[str, Any], x: float, y: float, s: float) -> None:
    """Workers from the bag; Green paid with a worker of a colour, Brewer with any skill
    tile, Tavern with a worker."""
    e, d = tile.get("effect", ""), tile.get("detail", {})
    if e == "green":
        _worker(draw, x, y, "green", s * 0.15)
        _worker(draw, x - s * 0.38, y, d.get("pay", "blue"), s * 0.11)
    else:
        _meeple(draw, x, y, s * 0.5, (250, 250, 250))
    _text(draw, (x + s * 0.32, y + s * 0.05), f"{d.get('n', '')}", _small(s))
    if e == "brewer":
        _any_skill(draw, x - s * 0.45, y, s * 0.14)
    elif e == "tavern":
        _meeple(draw, x - s * 0.42, y, s * 0.35, MUTED)


def _skills(draw: ImageDraw.ImageDraw, tile: dict[str, Any], x: float, y: float, s: float) -> None:
    _skill(draw, x, y, "", s * 0.18)
    _text(draw, (x + s * 0.34, y), str(tile.get("detail", {}).get("n", "")), _small(s))


def _hiring(draw: ImageDraw.ImageDraw, tile: dict[str, Any], x: float, y: float, s: float) -> None:
    """Any one skill tile in, n drawn from the pile: the paid tile is a kind you choose."""
    _any_skill(draw, x - s * 0.42, y, s * 0.13)
    draw.polygon(
        [(x - s * 0.24, y - s * 0.07), (x - s * 0.12, y), (x - s * 0.24, y + s * 0.07)],
        fill=INK,
    )
    _skill(draw, x + s * 0.02, y, "", s * 0.16)
    _text(draw, (x + s * 0.36, y), str(tile.get("detail", {}).get("n", "")), _small(s))


def _cart(draw: ImageDraw.ImageDraw, tile: dict[str, Any], x: float, y: float, s: float) -> None:
    """A transport: a cart with its capacity, an arrow with its upgrades."""
    d, small = tile.get("detail", {}), _small(s)
    draw.rectangle((x - s * 0.3, y - s * 0.15, x + s * 0.1, y + s * 0.1), fill=ROAD, outline=INK)
    for dx in (-0.2, 0.0):
        draw.ellipse(
            (x + dx * s - s * 0.08, y + s * 0.06, x + dx * s + s * 0.08, y + s * 0.22), fill=INK
        )
    _text(draw, (x - s * 0.1, y - s * 0.02), str(d.get("carry", "")), small, (255, 255, 255))
    draw.polygon([(x + s * 0.3, y - s * 0.2), (x + s * 0.18, y), (x + s * 0.42, y)], fill=RIM)
    _text(draw, (x + s * 0.3, y + s * 0.12), f"{d.get('upgrades', '')}", small, RIM)


def _store(draw: ImageDraw.ImageDraw, tile: dict[str, Any], x: float, y: float, s: float) -> None:
    d = tile.get("detail", {})
    _regular(draw, (x, y, s * 0.3), 6, fill=None, outline=INK, width=2)
    kind = d.get("kind", "any")
    if kind == "any":
        for i, k in enumerate(("iron", "stone", "wood")):
            _regular(draw, (x + (i - 1) * s * 0.14, y, s * 0.08), 8, fill=RESOURCE[k])
    else:
        _regular(draw, (x, y, s * 0.13), 8, fill=RESOURCE[kind])
    _text(draw, (x + s * 0.42, y), f"{d.get('per', '')}", _small(s))


def _adjacent(
    draw: ImageDraw.ImageDraw, tile: dict[str, Any], x: float, y: float, s: float
) -> None:
    """Points per neighbour (per upgraded neighbour: gold-rimmed)."""
    rim = RIM if tile.get("effect") == "adjacent_upgraded" else INK
    for dx, dy in ((-0.16, 0.06), (0.16, 0.06), (0, -0.2)):
        _regular(draw, (x + dx * s, y + dy * s, s * 0.12), 6, fill=None, outline=rim, width=2)
    _text(draw, (x + s * 0.42, y), f"{tile.get('detail', {}).get('per', '')}", _small(s))


def _ability(draw: ImageDraw.ImageDraw, tile: dict[str, Any], x: float, y: float, s: float) -> None:
    """A summer boat's ability (data/keyflower/i18n/en.toml [ability]) as a picture, with no
    words: what it gives or changes, drawn with the pieces it concerns."""
    code, u, small = tile.get("ability", ""), s * 0.13, _small(s)
    if code in ("1a", "1b"):  # more workers with each boat
        _item(draw, "boat", x - s * 0.36, y + u * 0.2, u)
        if code == "1a":
            _meeple(draw, x + s * 0.02, y + s * 0.06, s * 0.45, (250, 250, 250))
        else:
            _worker(draw, x + s * 0.02, y, "green", s * 0.13)
        _text(draw, (x + s * 0.36, y), "+2" if code == "1a" else "+1", small)
    elif code in ("2a", "2b"):  # a transport across fields, any edges / doubled
        _item(draw, "cart", x - s * 0.2, y, u)
        if code == "2a":
            _regular(draw, (x + s * 0.22, y, s * 0.15), 6, fill=None, outline=INK, width=2)
            _text(draw, (x + s * 0.22, y), "?", small)
        else:
            _text(draw, (x + s * 0.25, y), "x2", small)
    elif code in ("3a", "3b"):  # any resource as any: in upgrades / in scoring
        _item(draw, "resource", x - s * 0.2, y, u)
        if code == "3a":
            _item(draw, "upgrade", x + s * 0.2, y, u)
        else:
            _points(draw, x + s * 0.2, y, u, "?")
    elif code == "4a":  # outbid in another colour: a worker lying down
        _worker(draw, x - s * 0.18, y, "blue", s * 0.1)
        _worker(draw, x + s * 0.16, y, "red", s * 0.1, lying=True)
    elif code == "4b":  # a tile used in any colours
        for i, colour in enumerate(("blue", "red", "yellow")):
            _worker(draw, x + (i - 1) * s * 0.26, y, colour, s * 0.1)
    else:
        _text(draw, (x, y), code, int(s * 0.42))


Glyph = Callable[[ImageDraw.ImageDraw, dict[str, Any], float, float, float], None]
GLYPHS: dict[str, Glyph] = {
    "resources": _gives,
    "craft": _gives,
    "choose": _chooses,
    "workers": _hires,
    "brewer": _hires,
    "tavern": _hires,
    "green": _hires,
    "skills": _skills,
    "hiring": _hiring,
    "transport": _cart,
    "store": _store,
    "adjacent": _adjacent,
    "adjacent_upgraded": _adjacent,
    "ability": _ability,
}


# How each winter tile and boat scores, drawn as "what makes a set → points per set":
# ("count", n, item) n of the item; ("set", items) one each of different kinds;
# ("one", item) each of the item; ("choose", item) each of one kind you choose ("?").
SCORING_SETS: dict[str, tuple[Any, ...]] = {
    "apothecary": ("count", "set", "worker"),
    "craftsman": ("set", ("blue", "red", "yellow")),
    "village_hall": ("choose", "worker"),
    "white_wind": ("one", "worker"),
    "key_market": ("one", "green"),
    "key_guild": ("count", "set", "skill"),
    "scribes": ("set", ("anvil", "pick", "saw")),
    "scholar": ("choose", "skill"),
    "jeweller": ("one", "gold"),
    "mercer": ("set", ("iron", "stone", "wood")),
    "watermill": ("choose", "resource"),
    "windmill": ("count", "set", "resource"),
    "keyflower": ("one", "cart"),
    "sea_bastion": ("one", "loop"),
    "sea_breeze": ("one", "boat"),
    "flipper": ("one", "upgrade"),
}


def _scoring(
    draw: ImageDraw.ImageDraw, effect: str, d: dict[str, Any], x: float, y: float, s: float
) -> None:
    """A winter tile's or boat's end scoring: the set on the left, the points it scores in a
    pentagon on the right (a tile that only scores its printed points draws nothing here)."""
    rule = SCORING_SETS.get(effect)
    if rule is None:
        return
    gx, u = x - s * 0.3, s * 0.15
    small = max(8, int(s * 0.22))
    # the points' pentagon; a set of three moves it right, so its third item (Craftsman's
    # guild's yellow worker, Scribes' saw, Mercer's guild's wood) is not drawn under it
    px = x + s * 0.12
    if rule[0] == "count":
        _text(draw, (gx - s * 0.2, y), str(d.get(rule[1], "")), small)
        _item(draw, rule[2], gx + s * 0.08, y, u)
    elif rule[0] == "set":
        px = x + s * 0.22
        for i, item in enumerate(rule[1]):
            _item(draw, item, x - s * 0.41 + (i - 1) * s * 0.25, y, u * 0.85)
    else:
        _item(draw, rule[1], gx, y, u)
        if rule[0] == "choose":
            _text(draw, (gx + s * 0.02, y + s * 0.01), "?", small, WHITE, halo=INK)
    value = d.get("per_set", d.get("per"))
    if value is not None:
        _regular(draw, (px, y, s * 0.24), 5, fill=WHITE, outline=INK)
        _text(draw, (px, y + s * 0.02), str(value), small)


def _item(draw: ImageDraw.ImageDraw, item: str, x: float, y: float, u: float) -> None:
    """One thing a winter tile or boat counts, about 2u across."""
    if item in WORKER:
        _worker(draw, x, y, item, u)
    elif item == "worker":
        _meeple(draw, x, y + u * 0.4, u * 3, (250, 250, 250))
    elif item in SKILL:
        _skill_icon(draw, x, y, item, u)
    elif item == "skill":
        _skill(draw, x, y, "", u)
    elif item in RESOURCE:
        _regular(draw, (x, y, u), 8, fill=RESOURCE[item], outline=INK)
    elif item == "resource":
        _regular(draw, (x, y, u), 8, fill=(250, 250, 250), outline=INK)
        for i, k in enumerate(("iron", "stone", "wood")):
            draw.pieslice(
                (x - u * 0.7, y - u * 0.7, x + u * 0.7, y + u * 0.7),
                120 * i,
                120 * i + 120,
                fill=RESOURCE[k],
            )
    elif item == "cart":
        draw.rectangle((x - u, y - u * 0.7, x + u, y + u * 0.3), fill=ROAD, outline=INK)
        for dx in (-0.5, 0.5):
            draw.ellipse(
                (x + (dx - 0.35) * u, y + u * 0.2, x + (dx + 0.35) * u, y + u * 0.9), fill=INK
            )
    elif item == "loop":
        w = max(2, int(u / 3))
        draw.ellipse((x - u, y - u * 0.8, x + u, y + u * 0.8), outline=ROAD, width=w)
    elif item == "boat":
        draw.polygon(
            [
                (x - u * 1.1, y - u * 0.1),
                (x + u * 1.1, y - u * 0.1),
                (x + u * 0.6, y + u * 0.6),
                (x - u * 0.6, y + u * 0.6),
            ],
            fill=SEASON["boat"],
            outline=INK,
        )
        draw.line(
            (x - u * 1.2, y + u * 0.85, x + u * 1.2, y + u * 0.85),
            fill=WATER,
            width=max(2, int(u / 3)),
        )
    elif item == "upgrade":
        draw.polygon(
            [(x, y - u), (x + u, y + u * 0.6), (x - u, y + u * 0.6)], fill=RIM, outline=INK
        )


def _any_skill(draw: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    """A skill tile of whichever kind the player chooses."""
    _skill(draw, x, y, "", r)
    _text(draw, (x, y + r * 0.05), "?", max(8, int(r * 1.6)), WHITE)


def _meeple(
    draw: ImageDraw.ImageDraw, x: float, y: float, s: float, fill: tuple[int, int, int]
) -> None:
    draw.ellipse((x - s * 0.22, y - s * 0.55, x + s * 0.22, y - s * 0.12), fill=fill, outline=INK)
    draw.polygon(
        [(x - s * 0.4, y + s * 0.4), (x, y - s * 0.2), (x + s * 0.4, y + s * 0.4)],
        fill=fill,
        outline=INK,
    )


def _skill(draw: ImageDraw.ImageDraw, x: float, y: float, kind: str, r: float) -> None:
    _rounded(
        draw,
        (x - r, y - r, x + r, y + r),
        max(1, int(r / 3)),
        fill=SKILL.get(kind, (90, 90, 110)),
        outline=INK,
    )


def _tile(
    draw: ImageDraw.ImageDraw,
    tile: dict[str, Any],
    cx: float,
    cy: float,
    size: float,
    edges: bool = True,
    clear_stored: bool = False,
) -> None:
    """A tile: its face (pasted from a stamp where it was drawn before), then its workers;
    with `clear_stored` (the phone's villages), above the resources kept on it, whose counts
    the phone's larger type otherwise hides under the workers (`WORKERS_RAISED`)."""
    _stamped_face(draw, tile, cx, cy, size, edges)
    stored = clear_stored and any(tile.get("resources", {}).values())
    _tile_workers(draw, tile.get("workers", []), cx, cy, size, raised=stored)


def _face(
    draw: ImageDraw.ImageDraw,
    tile: dict[str, Any],
    cx: float,
    cy: float,
    size: float,
    edges: bool = True,
) -> None:
    """Everything printed or kept on a tile, all inside its hex: its season, roads and
    water, gold rim, code, what it does, points, start keyple, resources or upgrade cost."""
    draw.polygon(_hex(cx, cy, size), fill=SEASON.get(tile["kind"], (220, 220, 220)), outline=INK)
    if edges:
        for d, kind in enumerate(tile.get("edges", "")):
            a = _edge_angle(d)
            mx, my = cx + math.cos(a) * size * SQRT3 / 2, cy + math.sin(a) * size * SQRT3 / 2
            if kind == "R":
                draw.line(
                    (cx + math.cos(a) * size * 0.35, cy + math.sin(a) * size * 0.35, mx, my),
                    fill=ROAD,
                    width=max(3, int(size / 8)),
                )
            elif kind == "W":
                px, py = -math.sin(a) * size / 2, math.cos(a) * size / 2
                draw.line(
                    (mx - px * 0.9, my - py * 0.9, mx + px * 0.9, my + py * 0.9),
                    fill=WATER,
                    width=max(4, int(size / 6)),
                )
    if tile.get("upgraded"):
        rim = max(3, int(size / 11))
        draw.polygon(_hex(cx, cy, size - rim / 2), outline=RIM, width=rim)
    ground = SEASON.get(tile["kind"], (220, 220, 220))
    _text(draw, (cx, cy - size * 0.56), tile["id"], max(12, int(size * 0.42)), halo=ground)
    _glyph(draw, tile, cx, cy - size * 0.12, size)
    if tile.get("points"):
        _points(draw, cx + size * 0.6, cy + size * 0.14, size * 0.19, tile["points"])
    if tile.get("start"):
        _meeple(draw, cx - size * 0.5, cy + size * 0.32, size * 0.42, START)
    res = [(k, n) for k, n in sorted(tile.get("resources", {}).items()) if n]
    for (k, n), (x, y, r) in zip(res, _stored_spots(cx, cy, size, len(res)), strict=True):
        _piece(draw, x, y, RESOURCE[k], n, r)
    if not res and not tile.get("upgraded"):
        _upgrade_cost(draw, tile["id"], cx, cy, size)


# Where a tile's workers stand, below its centre (a share of the hex's size): over the
# resources kept on it at the phone's type sizes (`_stored_spots`: their row at 0.6, its top
# at 0.47), so raised there on a tile holding some, over the lower part of what it does.
WORKERS_AT = 0.33
WORKERS_RAISED = 0.2


def _tile_workers(
    draw: ImageDraw.ImageDraw,
    workers: list[dict[str, Any]],
    cx: float,
    cy: float,
    size: float,
    raised: bool = False,
) -> None:
    step = min(0.42, 1.3 / max(1, len(workers))) * size
    for i, g in enumerate(workers):
        _pawn(
            draw,
            cx + (i - (len(workers) - 1) / 2) * step,
            cy + size * (WORKERS_RAISED if raised else WORKERS_AT),
            g["colour"],
            g["count"],
            r=max(7.5, size * 0.15),
            seat=g["seat"],
            ring_w=max(2.5, size * 0.05),
            lying=g["lying"],
            badge=max(7.5, size * 0.13),
        )


# A tile's face drawn the second time it is met (the next picture of a table shows the same
# tiles at the same places) is kept as a stamp and pasted from then on. The stamp is the
# face drawn alone at the same place (Pillow's polygons move by a pixel here and there when
# moved by whole pixels), so the pasted pixels are the drawn ones; a face whose text would
# blend with what lies outside it is drawn.
FACE_STAMPS = 256  # 40-100 KB each (RGBA): a few busy tables' tiles a picture worker
FACE_SIGHTINGS = 4096


class _Faces:
    """Tile faces met (their keys) and the stamps of faces met twice, both bounded."""

    def __init__(self) -> None:
        self.met: OrderedDict[tuple[Any, ...], None] = OrderedDict()
        self.stamps: OrderedDict[tuple[Any, ...], tuple[Any, Any] | None] = OrderedDict()

    def stamp(self, key: tuple[Any, ...]) -> tuple[Any, Any] | bool | None:
        """The key's stamp (None: it cannot be one), or whether to make it now."""
        if key in self.stamps:
            self.stamps.move_to_end(key)
            return self.stamps[key]
        if key in self.met:
            return True
        self.met[key] = None
        if len(self.met) > FACE_SIGHTINGS:
            self.met.popitem(last=False)
        return False

    def keep(self, key: tuple[Any, ...], stamp: tuple[Any, Any] | None) -> None:
        self.stamps[key] = stamp
        if len(self.stamps) > FACE_STAMPS:
            self.stamps.popitem(last=False)

    def cache_clear(self) -> None:  # named as functools' caches: tests clear them all
        self.met.clear()
        self.stamps.clear()


_FACES = _Faces()


def _stamped_face(
    draw: ImageDraw.ImageDraw,
    tile: dict[str, Any],
    cx: float,
    cy: float,
    size: float,
    edges: bool,
) -> None:
    face = {k: v for k, v in tile.items() if k not in ("workers", "bids")}
    key = (json.dumps(face, sort_keys=True), cx, cy, size, edges, MIN_FONT.get())
    box = _face_box(cx, cy, size)
    found = _FACES.stamp(key) if _inside(draw, box) else None
    if found is True:
        found = _face_stamp(face, cx, cy, size, edges)
        _FACES.keep(key, found)
    if isinstance(found, tuple):
        colours, mask = found
        draw._image.paste(colours, box, mask)
    else:
        _face(draw, tile, cx, cy, size, edges)


def _face_box(cx: float, cy: float, size: float) -> tuple[int, int, int, int]:
    """Whole pixels around a face, with room for its outline."""
    m = math.ceil(size) + 4
    return math.floor(cx) - m, math.floor(cy) - m, math.floor(cx) + m + 2, math.floor(cy) + m + 2


def _inside(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> bool:
    width, height = draw.im.size
    return draw.im.mode == "RGB" and min(box) >= 0 and box[2] <= width and box[3] <= height


def _face_stamp(
    face: dict[str, Any], cx: float, cy: float, size: float, edges: bool
) -> tuple[Any, Any] | None:
    """The face drawn alone on a clear picture, its colours and the mask of what it drew;
    None if some of it would blend with what is under it (anti-aliased text off its hex)."""
    box = _face_box(cx, cy, size)
    with _CANVAS_LOCK:
        canvas = _clear_canvas(box)
        _face(ImageDraw.Draw(canvas), face, cx, cy, size, edges)
        picture = canvas.crop(box)
    alpha = picture.getchannel("A")
    if any(alpha.histogram()[1:255]):
        return None
    return picture, alpha.convert("1")


# The picture stamps are drawn on (`_clear_canvas`), one a process (at most 1280 x 1485 RGBA,
# 7.6 MB), and the lock its users hold (a worker may draw in several threads).
_CANVAS: list[Image.Image] = []
_CANVAS_LOCK = threading.Lock()


def _clear_canvas(box: tuple[int, int, int, int]) -> Image.Image:
    """A clear RGBA picture reaching at least to the box's lower right corner, clear inside
    the box: kept (a new picture as large cost more than the face drawn on it). What was drawn
    outside the box before is never read: a face draws inside its box (`_face_box`), and what
    Pillow draws inside a picture does not depend on its size."""
    canvas = _CANVAS[0] if _CANVAS else None
    if canvas is not None and canvas.width >= box[2] and canvas.height >= box[3]:
        canvas.paste((0, 0, 0, 0), box)
        return canvas
    width, height = box[2:]
    if canvas is not None:
        width, height = max(width, canvas.width), max(height, canvas.height)
    _CANVAS[:] = [Image.new("RGBA", (width, height), (0, 0, 0, 0))]
    return _CANVAS[0]


def _upgrade_cost(
    draw: ImageDraw.ImageDraw, tile_id: str, cx: float, cy: float, size: float
) -> None:
    """What upgrading the tile costs, low in the hex where kept resources would lie: a gold
    arrow and one piece per unit on a pale gold strip, like the printed upgrade box (EN
    "Transport and upgrading"). A tile keeping resources shows those instead."""
    spec = tiles().get(tile_id)
    if spec is None or not spec.upgrade:
        return
    units = [k for k, n in spec.upgrade.items() for _ in range(n)]
    r, step, y = size * 0.1, size * 0.22, cy + size * 0.62
    width = size * 0.14 + step * len(units)
    left = cx - width / 2
    _rounded(
        draw,
        (left - size * 0.04, y - size * 0.12, left + width + size * 0.02, y + size * 0.12),
        max(2, int(size * 0.06)),
        fill=_mix(RIM, WHITE, 0.75),
        outline=RIM,
        width=max(1, int(size / 30)),
    )
    ax = left + size * 0.05
    draw.polygon(
        [(ax, y - r * 1.1), (ax + r * 0.9, y + r * 0.7), (ax - r * 0.9, y + r * 0.7)],
        fill=RIM,
        outline=INK,
    )
    for i, unit in enumerate(units):
        _item(
            draw, "resource" if unit == "any" else unit, left + size * 0.14 + step * (i + 0.5), y, r
        )


def _points(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, points: int | str) -> None:
    """Points printed on a tile: a white disc with the number."""
    draw.ellipse((x - r, y - r, x + r, y + r), fill=WHITE, outline=INK)
    _text(draw, (x, y), str(points), max(9, int(r * 1.37)))


def _bids(
    draw: ImageDraw.ImageDraw, tile: dict[str, Any], cx: float, top: float, width: float
) -> None:
    """Every bid on a tile in rows under it, on a tray as wide as the tile: worker colour,
    count, the bidder's seat ring and badge. Every bid stays on its own tray: where tiles
    stand close the bids shrink a little to share a row, or take a row each."""
    bids = tile.get("bids", [])
    if not bids:
        return
    per_row, step, f = _bid_layout(width)
    pitch = BID_PITCH * f
    rows = math.ceil(len(bids) / per_row)
    _rounded(
        draw,
        (cx - width / 2 + TRAY_INSET, top, cx + width / 2 - TRAY_INSET, top + rows * pitch),
        10,
        fill=_mix(SEASON.get(tile["kind"], MUTED), BACKGROUND, 0.65),
    )
    # The badge sticks out on the left: the row's middle sits that much right of centre.
    shift = (BID_LEFT - BID_RIGHT) * f / 2
    for i, g in enumerate(bids):
        row, col = divmod(i, per_row)
        in_row = min(per_row, len(bids) - row * per_row)
        _pawn(
            draw,
            cx + shift + (col - (in_row - 1) / 2) * step,
            top + pitch / 2 + row * pitch,
            g["colour"],
            g["count"],
            r=BID_R * f,
            seat=g["seat"],
            ring_w=RING * f,
            lying=g["lying"],
            badge=BADGE * f,
        )


def _season_icon(
    draw: ImageDraw.ImageDraw, x: float, y: float, r: float, season: str, dim: bool
) -> None:
    """A disc in the season's colour with its sign: sprout, sun, leaf or snowflake."""
    fill = SEASON[season] if not dim else _mix(SEASON[season], BACKGROUND, 0.55)
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=INK, width=max(1, int(r / 9)))
    ink = _mix(INK, fill, 0.5) if dim else INK
    w = max(2, int(r / 7))
    if season == "spring":
        draw.line((x, y + r * 0.6, x, y - r * 0.1), fill=ink, width=w)
        for side in (-1, 1):
            draw.ellipse(
                (
                    min(x, x + side * r * 0.62),
                    y - r * 0.5,
                    max(x, x + side * r * 0.62),
                    y - r * 0.05,
                ),
                fill=(70, 150, 60) if not dim else fill,
                outline=ink,
            )
    elif season == "summer":
        for i in range(8):
            a = math.radians(45 * i)
            draw.line(
                (
                    x + math.cos(a) * r * 0.4,
                    y + math.sin(a) * r * 0.4,
                    x + math.cos(a) * r * 0.72,
                    y + math.sin(a) * r * 0.72,
                ),
                fill=ink,
                width=w,
            )
        draw.ellipse((x - r * 0.3, y - r * 0.3, x + r * 0.3, y + r * 0.3), fill=ink)
    elif season == "autumn":
        leaf = [
            (x - r * 0.55, y + r * 0.5),
            (x - r * 0.35, y - r * 0.3),
            (x + r * 0.55, y - r * 0.55),
        ]
        leaf.append((x + r * 0.3, y + r * 0.3))
        draw.polygon(leaf, fill=(190, 90, 30) if not dim else fill, outline=ink)
        draw.line((x - r * 0.62, y + r * 0.6, x + r * 0.3, y - r * 0.3), fill=ink, width=w)
    else:
        for i in range(3):
            a = math.radians(60 * i + 90)
            dx, dy = math.cos(a) * r * 0.68, math.sin(a) * r * 0.68
            draw.line((x - dx, y - dy, x + dx, y + dy), fill=ink, width=w)


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    """Colour a moved the fraction t of the way to colour b."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def _seat_chip(
    draw: ImageDraw.ImageDraw, x: float, y: float, seat: int, r: float, width: int = 2
) -> None:
    draw.ellipse(
        (x - r, y - r, x + r, y + r), fill=SEAT[seat % len(SEAT)], outline=INK, width=width
    )
    _text(draw, (x, y + 1), str(seat + 1), int(r * 1.2), WHITE)


def _scores(view: dict[str, Any]) -> list[int]:
    return [sum(f["breakdown"].values()) for f in view.get("final") or []]


def _top_bar(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """The season track, whose turn it is (a pointer) or who won (a cup), and the supply."""
    season = view.get("season", "spring")
    cy = TOP / 2
    draw.rectangle((0, 0, WIDTH, TOP), fill=SEASON.get(season, MUTED))
    draw.line((0, TOP - 1, WIDTH, TOP - 1), fill=_mix(SEASON.get(season, MUTED), INK, 0.3), width=2)
    x = float(MARGIN)
    for i, name in enumerate(("spring", "summer", "autumn", "winter")):
        r = 29 if i + 1 == view.get("round") else 16
        _season_icon(draw, x + r, cy, r, name, dim=i + 1 > view.get("round", 1))
        x += 2 * r + 8
    x += 26
    scores = _scores(view)
    if scores:
        best = max(scores)
        seats = [i for i, s in enumerate(scores) if s == best]
        _cup(draw, x + 18, cy, 24)
    else:
        seats = list(view.get("active_seats", []))
        if seats:
            draw.polygon([(x, cy - 18), (x + 30, cy), (x, cy + 18)], fill=INK)
    x += 48
    for seat in seats:
        _seat_chip(draw, x + 25, cy, seat, 25)
        x += 58
    x = WIDTH - MARGIN - 22
    for k in ("wood", "stone", "iron", "gold"):
        _piece(draw, x, cy, RESOURCE[k], view.get("supply", {}).get(k, 0), r=19)
        x -= 52
    x -= 8
    _rounded(draw, (x - 22, cy - 20, x + 22, cy + 20), 6, fill=SKILL["anvil"], outline=INK)
    _text(draw, (x, cy), str(view.get("skill_pile", 0)), 22, WHITE)
    x -= 58
    _pawn(draw, x, cy, "green", view.get("green", 0), r=21)
    x -= 58
    sack = (40, 36, 32)
    draw.polygon(
        [(x - 9, cy - 14), (x + 9, cy - 14), (x + 15, cy - 25), (x - 15, cy - 25)], fill=sack
    )
    draw.ellipse((x - 25, cy - 16, x + 25, cy + 27), fill=sack)
    draw.line((x - 11, cy - 15, x + 11, cy - 15), fill=RIM, width=3)
    _text(draw, (x, cy + 6), str(view.get("bag", 0)), 22, WHITE)


def _cup(draw: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    draw.pieslice(
        (x - r * 0.8, y - r * 1.1, x + r * 0.8, y + r * 0.5), 0, 180, fill=RIM, outline=INK
    )
    draw.rectangle((x - r * 0.8, y - r * 0.8, x + r * 0.8, y - r * 0.3), fill=RIM)
    draw.line((x - r * 0.8, y - r * 0.8, x + r * 0.8, y - r * 0.8), fill=INK, width=2)
    draw.rectangle((x - r * 0.12, y + r * 0.45, x + r * 0.12, y + r * 0.8), fill=RIM, outline=INK)
    draw.rectangle((x - r * 0.5, y + r * 0.8, x + r * 0.5, y + r), fill=RIM, outline=INK)


def _market_geometry(view: dict[str, Any]) -> tuple[float, float, float]:
    """Tile pitch and hex size in the auction row, and the height of the bids under the
    deepest tile."""
    offer, order = view.get("offer", []), view.get("turn_order", [])
    units = len(offer) + 0.8 * len(order) + (0.3 if offer and order else 0)
    if not units:
        return 0.0, 0.0, 0
    pitch = min(MARKET_HEX * SQRT3 + 24, (WIDTH - 2 * MARGIN) / units)
    size = min(float(MARKET_HEX), (pitch - 10) / SQRT3)
    rows = [_bids_height(len(t.get("bids", [])), pitch) for t in offer]
    rows += [_bids_height(len(t.get("bids", [])), pitch * 0.8) for t in order]
    return pitch, size, max(rows)


def _bid_layout(width: float) -> tuple[int, float, float]:
    """Bids per row under a tile `width` wide, the step between their centres and their
    scale: full size, or 4/5 where that lets two share a row, always inside the tray."""
    room = width - 2 * TRAY_INSET - 4
    best = (1, 0.0, 1.0)
    for f in (1.0, 0.8):
        span = room - (BID_LEFT + BID_RIGHT) * f
        if span < 0:
            continue
        per_row = 1 + int(span // (BID_MIN_STEP * f))
        if per_row > best[0]:
            best = (per_row, min(BID_PITCH * f, span / (per_row - 1)), f)
    return best


def _bids_height(n: int, width: float) -> float:
    per_row, _, f = _bid_layout(width)
    return math.ceil(n / per_row) * BID_PITCH * f


def _boat_width(boat: dict[str, Any]) -> int:
    items = len([n for n in boat.get("workers", {}).values() if n])
    items += len([n for n in boat.get("skills", {}).values() if n])
    return 52 + 36 * items + BOAT_SCORE_W + 26


def _boat_lines(boats: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    lines: list[list[dict[str, Any]]] = []
    x = WIDTH
    for boat in boats:
        w = _boat_width(boat) + GAP
        if x + w > WIDTH - MARGIN:
            lines.append([])
            x = MARGIN
        lines[-1].append(boat)
        x += w
    return lines


def _market_height(view: dict[str, Any]) -> int:
    _, size, bids_h = _market_geometry(view)
    h = 2 * size + 6 + bids_h + GAP if size else 0
    return int(h + len(_boat_lines(view.get("boats", []))) * (BOAT_H + GAP))


def _market(draw: ImageDraw.ImageDraw, view: dict[str, Any], top: int) -> None:
    """Tiles up for auction, then the turn-order tiles, each with its bids; the boats below."""
    pitch, size, bids_h = _market_geometry(view)
    y = float(top)
    if size:
        cy = top + size
        x = MARGIN + pitch / 2
        offer: list[Lot] = []
        for tile in view.get("offer", []):
            offer.append((tile, x, pitch, False))
            x += pitch
        x += pitch * 0.3 - pitch * 0.1
        order: list[Lot] = []
        for tile in view.get("turn_order", []):
            order.append((tile, x, pitch * 0.8, True))
            x += pitch * 0.8
        _lots(draw, offer, cy, size)
        _lots(draw, order, cy, size)  # far enough from the offer to be kept without it
        y = cy + size + 6 + bids_h + GAP
    for line in _boat_lines(view.get("boats", [])):
        _boats(draw, line, y)
        y += BOAT_H + GAP


# A tile up for auction in a row: the tile, its centre's x, the width of its place in the
# row (its tray's), and whether it is a turn-order tile (numbered, drawn smaller).
Lot = tuple[dict[str, Any], float, float, bool]


def _lots(draw: ImageDraw.ImageDraw, row: list[Lot], cy: float, size: float) -> None:
    """A row of tiles up for auction with their bids under them, each a part of its own: its
    place in the row, from its hex's top to its lowest bid. A tile's water and workers may
    reach a pixel or two into the place on its right (the parts' margin): a tile's part is
    kept with the tile on its left, but for that tile's bids, which stay on their tray (2 px
    inside it, `_bid_layout`), 4 px inside the place (`TRAY_INSET`)."""
    left: str | None = None
    for tile, cx, width, numbered in row:
        shown = repr(tile)
        bids = len(tile.get("bids", []))
        bottom = cy + size + 6
        if bids:
            bottom += _bids_height(bids, width) + BID_BELOW * _bid_layout(width)[2]
        key = ("lot", shown, left, cx, cy, size, width, numbered)
        box = (cx - width / 2, cy - size, cx + width / 2, bottom)
        _part(draw, key, box, partial(_lot, draw, tile, cx, cy, size, width, numbered))
        left = repr({k: v for k, v in tile.items() if k != "bids"})


def _lot(
    draw: ImageDraw.ImageDraw,
    tile: dict[str, Any],
    cx: float,
    cy: float,
    size: float,
    width: float,
    numbered: bool,
) -> None:
    """A tile up for auction (or a turn-order tile, `numbered`, drawn smaller) with its bids
    under it on a tray `width` wide."""
    if numbered:
        s = size * 0.8
        _tile(draw, tile, cx, cy, s, edges=False)
        _text(draw, (cx, cy + s * 0.02), str(tile.get("number", "")), int(s * 0.75))
    else:
        _tile(draw, tile, cx, cy, size)
    _bids(draw, tile, cx, cy + size + 6, width)


def _boats(draw: ImageDraw.ImageDraw, line: list[dict[str, Any]], y: float) -> None:
    """A line of boats from the left margin, each a part of its own."""
    bx = float(MARGIN)
    for boat in line:
        box = (bx, y, bx + _boat_width(boat) - 2, y + BOAT_H)  # its bow ends 2 px short
        _part(draw, ("boat", repr(boat), bx, y), box, partial(_boat, draw, boat, bx, y))
        bx += _boat_width(boat) + GAP


def _boat(draw: ImageDraw.ImageDraw, boat: dict[str, Any], x: float, y: float) -> None:
    w = _boat_width(boat) - 24
    fill = (215, 212, 205) if boat.get("taken") else SEASON["boat"]
    _rounded(draw, (x, y, x + w, y + BOAT_H), 16, fill=fill, outline=INK, width=2)
    draw.polygon(
        [(x + w - 2, y + 8), (x + w + 22, y + BOAT_H / 2), (x + w - 2, y + BOAT_H - 8)],
        fill=fill,
        outline=INK,
    )
    cy = y + BOAT_H / 2
    # The winter side, which scores at the end, on the boat's stern: what it counts and
    # its points (the rulebook has players look at it at setup).
    spec = tiles().get(boat["id"])
    if spec is not None:
        sx = x + w - BOAT_SCORE_W / 2 - 4
        _rounded(
            draw,
            (sx - BOAT_SCORE_W / 2 + 2, y + 6, sx + BOAT_SCORE_W / 2 - 2, y + BOAT_H - 6),
            10,
            fill=SEASON["winter"],
            outline=INK,
        )
        side = spec.front
        _scoring(draw, side.get("effect", ""), side, sx + 4, cy, 76)
        if side.get("points"):
            _points(draw, sx + 13, cy, 15, side["points"])
    _text(draw, (x + 27, cy), boat["id"], 22)
    k = x + 70
    for colour, n in sorted(boat.get("workers", {}).items()):
        if n:
            _pawn(draw, k, cy, colour, n, r=15)
            k += 36
    for skill, n in sorted(boat.get("skills", {}).items()):
        if n:
            _skill_icon(draw, k, cy, skill, 15)
            if n > 1:
                draw.ellipse((k + 6, cy - 22, k + 24, cy - 4), fill=WHITE, outline=INK)
                _text(draw, (k + 15, cy - 13), str(n), 14)
            k += 36


def _centres(tiles: list[dict[str, Any]]) -> list[tuple[float, float]]:
    """Hex centres of placed tiles, in units of the hex size."""
    return [(SQRT3 * (t["q"] + t["r"] / 2), 1.5 * t["r"]) for t in tiles]


def free_cells(player: dict[str, Any]) -> list[tuple[int, int]]:
    """The empty cells next to a village's placed tiles (axial q, r), where a new tile may go
    (games/keyflower/village.py: `placements`' frontier)."""
    taken = {(t["q"], t["r"]) for t in player.get("village", []) if "q" in t}
    return sorted({(q + dq, r + dr) for q, r in taken for dq, dr in DIRS} - taken)


def _cell_centre(q: int, r: int) -> tuple[float, float]:
    return SQRT3 * (q + r / 2), 1.5 * r


def _village_cells(player: dict[str, Any], room: bool) -> list[tuple[float, float]]:
    """Centres (in hex sizes) a village is laid out around: its placed tiles', and with
    `room` the free cells' around them too."""
    pts = _centres([t for t in player.get("village", []) if "q" in t])
    return pts + [_cell_centre(q, r) for q, r in free_cells(player)] if room else pts


def _extent(player: dict[str, Any], room: bool = False) -> tuple[float, float]:
    """A village's width and height in hex sizes, with a column for tiles still to place
    (and with `room`, the free cells around it)."""
    pts = _village_cells(player, room)
    w, h = SQRT3, 2.0
    if pts:
        w = max(p[0] for p in pts) - min(p[0] for p in pts) + SQRT3
        h = max(p[1] for p in pts) - min(p[1] for p in pts) + 2
    waiting = len(player.get("to_place", []))
    if waiting:
        w += math.ceil(waiting / max(1, int(h / 1.3))) * 0.65 * SQRT3 + 0.2
    return w, h


def _splits(n: int) -> list[list[range]]:
    """Every way to lay n villages out in rows, in seat order."""
    out = []
    for k in range(n):
        for cuts in combinations(range(1, n), k):
            bounds = (0, *cuts, n)
            out.append([range(a, b) for a, b in pairwise(bounds)])
    return out


def _rows_height(extents: list[tuple[float, float]], rows: list[range], size: float) -> float:
    return _stacked([max(extents[i][1] for i in r) for r in rows], size)


def _stacked(tallest: list[float], size: float) -> float:
    """Height of rows whose tallest villages are `tallest` hex sizes high."""
    return sum(max(STRIP_MIN_H, h * size + 2 * PAD) for h in tallest) + (len(tallest) - 1) * GAP


def _best_rows(
    extents: list[tuple[float, float]], room: float, largest: float
) -> tuple[list[range], float]:
    """The rows of villages and the common hex size (at most `largest`) that make the hexes
    largest within `room` pixels of height."""
    best: tuple[tuple[float, float], list[range], float] | None = None
    for rows in _splits(len(extents)):
        tallest = [max(extents[i][1] for i in r) for r in rows]
        fit = min(
            largest,
            *(
                (WIDTH - 2 * MARGIN - len(r) * (STRIP + 2 * PAD + GAP) + GAP)
                / sum(extents[i][0] for i in r)
                for r in rows
            ),
        )
        if _stacked(tallest, fit) > room:
            a, b = 0.0, fit
            for _ in range(16):
                m = (a + b) / 2
                a, b = (m, b) if _stacked(tallest, m) <= room else (a, m)
            fit = a
        # Rows of even length look like a table; a lopsided split must earn it.
        even = fit * (1 - 0.04 * (max(map(len, rows)) - min(map(len, rows))))
        key = (round(even, 1), -_stacked(tallest, fit))
        if best is None or key > best[0]:
            best = (key, rows, fit)
    assert best is not None
    return best[1], best[2]


def _layout(extents: list[tuple[float, float]], room: float) -> tuple[list[range], float]:
    """Villages laid out in `room` pixels of height; where that would leave the hexes too
    small to read, the picture grows taller (up to MAX_H) towards the smallest size, if that
    gains a tenth at least (a taller picture shows smaller inline)."""
    rows, size = _kept_layout(tuple(extents), room)
    return list(rows), size


@lru_cache(maxsize=256)  # a table's villages keep their extents for several moves
def _kept_layout(
    extents: tuple[tuple[float, float], ...], room: float
) -> tuple[tuple[range, ...], float]:
    lo, hi = VILLAGE_HEX
    rows, size = _best_rows(list(extents), room, hi)
    if size < lo:
        taller, grown = _best_rows(list(extents), max(room, MAX_H - (TARGET_H - room)), lo)
        if grown >= 1.1 * size:
            return tuple(taller), grown
    return tuple(rows), size


def _village_origin(
    player: dict[str, Any], box: tuple[float, float, float, float], size: float, room: bool
) -> tuple[float, float] | None:
    """Where a village's cell (0, 0) lies in its box (cell (q, r) is at `_cell_centre` times
    the hex size from it); None for a village with no tile placed."""
    x0, y0, x1, y1 = box
    pts = _village_cells(player, room)
    if not pts:
        return None
    minx, miny = min(p[0] for p in pts), min(p[1] for p in pts)
    w, h = _extent(player, room)
    left, right = x0 + STRIP + PAD, x1 - PAD
    ox = left + (right - left - w * size) / 2 + (SQRT3 / 2 - minx) * size
    oy = y0 + (y1 - y0 - h * size) / 2 + (1 - miny) * size
    return ox, oy


FREE_CELL = (196, 188, 170)  # a free cell's outline, where a tile may be placed


def _village(
    draw: ImageDraw.ImageDraw,
    player: dict[str, Any],
    box: tuple[float, float, float, float],
    size: float,
    active: bool,
    score: int | None,
    room: bool = False,
    phone: bool = False,
) -> None:
    """A village in its box; with `room`, laid out with its free cells around it, each
    outlined (the phone's picture of placing a tile); with `phone`, the workers on a tile
    holding resources raised clear of them (`_tile`'s `clear_stored`)."""
    x0, y0, _, y1 = box
    seat = player["seat"]
    colour = SEAT[seat % len(SEAT)]
    _rounded(
        draw,
        box,
        12,
        fill=_mix(PANEL, colour, 0.14) if active else PANEL,
        outline=colour,
        width=7 if active else 3,
    )
    sx = x0 + STRIP / 2 + 3
    _seat_chip(draw, sx, y0 + 31, seat, 23)
    y = y0 + 58
    if player.get("start_player"):
        _meeple(draw, sx, y + 20, 38, START)
        y += 38
    hand = int(player.get("winter_hand", 0) or 0)
    if hand:
        card = (sx - 14, y + 2, sx + 14, y + 36)
        _rounded(draw, card, 5, fill=SEASON["winter"], outline=INK, width=2)
        _text(draw, (sx, y + 19), str(hand), 21)
        if player.get("winter_chosen"):
            draw.ellipse((sx + 6, y - 4, sx + 20, y + 10), fill=WORKER["green"], outline=INK)
    if score is not None:
        _rounded(draw, (x0 + 6, y1 - 46, x0 + STRIP + 2, y1 - 8), 8, fill=INK)
        _text(draw, (x0 + STRIP / 2 + 4, y1 - 27), str(score), 26, WHITE)
    tiles = [t for t in player.get("village", []) if "q" in t]
    origin = _village_origin(player, box, size, room)
    if origin is None:
        return
    ox, oy = origin
    if room:
        for q, r in free_cells(player):
            px, py = _cell_centre(q, r)
            corners = _hex(ox + px * size, oy + py * size, size - 3)
            draw.line([*corners, corners[0]], fill=FREE_CELL, width=3, joint="curve")
    for t, (px, py) in zip(tiles, _centres(tiles), strict=True):
        _tile(draw, t, ox + px * size, oy + py * size, size, clear_stored=phone)
    waiting = player.get("to_place", [])
    if waiting:
        _, h = _extent(player, room)
        per_col = max(1, int(h / 1.3))
        right = max(p[0] for p in _village_cells(player, room))
        col_x = ox + (right + SQRT3 / 2 + 0.2) * size
        for i, t in enumerate(waiting):
            col, row = divmod(i, per_col)
            _tile(
                draw,
                t,
                col_x + (col + 0.5) * 0.65 * SQRT3 * size,
                y0 + (y1 - y0 - h * size) / 2 + (0.65 + row * 1.3) * size,
                size * 0.6,
                edges=False,
            )


def _kept_village(
    draw: ImageDraw.ImageDraw,
    player: dict[str, Any],
    box: tuple[float, float, float, float],
    size: float,
    active: bool,
    score: int | None,
    room: bool = False,
    phone: bool = False,
) -> None:
    """A village (`_village`) as a part: drawn inside its box."""
    key = ("village", repr(player), box, size, active, score, room, phone)
    _part(draw, key, box, lambda: _village(draw, player, box, size, active, score, room, phone))


def _skill_icon(draw: ImageDraw.ImageDraw, x: float, y: float, kind: str, r: float) -> None:
    """A skill tile with its tool drawn on it: anvil, pick axe or saw."""
    _skill(draw, x, y, kind, r)
    light = (245, 240, 228)
    if kind == "anvil":
        draw.polygon(
            [
                (x - r * 0.7, y - r * 0.35),
                (x + r * 0.7, y - r * 0.35),
                (x + r * 0.3, y + r * 0.1),
                (x + r * 0.3, y + r * 0.5),
                (x - r * 0.3, y + r * 0.5),
                (x - r * 0.3, y + r * 0.1),
            ],
            fill=light,
        )
    elif kind == "pick":
        draw.arc(
            (x - r * 0.75, y - r * 0.6, x + r * 0.75, y + r * 0.5), 200, 340, fill=light, width=3
        )
        draw.line((x, y - r * 0.55, x, y + r * 0.65), fill=light, width=3)
    elif kind == "saw":
        teeth = [(x - r * 0.7 + i * r * 0.28, y + (r * 0.3 if i % 2 else 0)) for i in range(6)]
        draw.polygon(
            [(x - r * 0.7, y - r * 0.35), (x + r * 0.7, y - r * 0.35), *teeth[::-1]], fill=light
        )


def render_private(view: dict[str, Any], hand_below: bool = False) -> Image.Image | None:
    """Behind the seat's screen (workers and skill tiles by kind) and its winter hand, beside
    the screen (or below it, for the phone)."""
    you = view.get("you")
    if not you:
        return None
    hand = you.get("winter_hand", [])
    seat = int(you.get("seat", 0))
    screen_w, hex_size = SCREEN_W, 76.0
    pitch = hex_size * 1.95
    if hand_below:
        per_row = 3
        rows = math.ceil(len(hand) / per_row)
        size = (screen_w + 40, 300 + rows * round(2 * hex_size + 24))  # as `own_width` says
    else:
        size = (max(screen_w + 50 + max(1, len(hand)) * int(pitch) + 20, 760), 300)
    img = Image.new("RGB", size, BACKGROUND)
    draw = ImageDraw.Draw(img)
    screen, skills = you.get("screen", {}), you.get("skills", {})
    _part(
        draw,
        ("screen", seat, repr(screen), repr(skills)),
        (20, 14, 20 + SCREEN_W, 286),
        lambda: _screen(draw, seat, screen, skills),
    )
    # The winter hand: each tile's face; the ones chosen for auction ringed in green.
    spots = []
    for i in range(len(hand)):
        if hand_below:
            row, col = divmod(i, 3)
            spots.append(
                (
                    20 + screen_w / 2 + (col - 1) * pitch,
                    300 + hex_size + 12 + row * (2 * hex_size + 24),
                )
            )
        else:
            spots.append((20 + screen_w + 40 + hex_size + i * pitch, 150))
    for tile, (hx, hy) in zip(hand, spots, strict=True):
        if tile.get("chosen"):
            draw.polygon(_hex(hx, hy, hex_size + 9), fill=WORKER["green"])
        _tile(draw, tile, hx, hy, hex_size)
    if not hand and not hand_below:
        draw.polygon(_hex(20 + screen_w + 40 + hex_size, 150, hex_size), outline=MUTED, width=2)
    return img


SCREEN_W = 560  # a seat's screen in its private picture


def _screen(
    draw: ImageDraw.ImageDraw, seat: int, screen: dict[str, int], skills: dict[str, int]
) -> None:
    """A seat's screen, a wall under a roof in its colour, and behind it the workers and
    skill tiles it holds by kind."""
    colour = SEAT[seat % len(SEAT)]
    draw.polygon([(20, 70), (20 + SCREEN_W / 2, 14), (20 + SCREEN_W, 70)], fill=colour)
    _rounded(draw, (20, 66, 20 + SCREEN_W, 286), 12, fill=(252, 249, 240), outline=colour, width=6)
    draw.ellipse((20 + SCREEN_W / 2 - 20, 26, 20 + SCREEN_W / 2 + 20, 66), fill=(255, 255, 255))
    _text(draw, (20 + SCREEN_W / 2, 46), str(seat + 1), 26, colour)
    for i, c in enumerate(("blue", "red", "yellow", "green")):
        x, n = 85 + i * 130, screen.get(c, 0)
        _meeple(draw, x, 140, 90, WORKER[c] if n else (215, 210, 200))
        _worker(draw, x, 160, c, 9, fill=WHITE, width=2)
        _text(draw, (x + 48, 150), str(n), 30, INK if n else MUTED)
    for i, k in enumerate(("anvil", "pick", "saw")):
        x, n = 90 + i * 175, skills.get(k, 0)
        _skill_icon(draw, x, 236, k, 26)
        _text(draw, (x + 55, 236), str(n), 30, INK if n else MUTED)


# -- the phone view: parts of the table drawn alone, larger (renderers/phone/keyflower.py) --
PHONE_HEX = 64.0  # hex size of the auction's tiles and, at most, of a village's
PHONE_COLUMNS = 4  # tiles up for auction per row
PHONE_VILLAGE_W = 560  # a village is drawn about this wide, its hexes no larger than PHONE_HEX


def village_picture(view: dict[str, Any], seat: int, room: bool = False) -> Image.Image:
    """One seat's village alone: its strip (seat, start keyple, winter hand, score) and map,
    hexes as large as fit about PHONE_VILLAGE_W px (never smaller than the table's); with
    `room`, its free cells outlined around it."""
    player = view["players"][seat]
    size, (width, height) = _village_picture_size(player, room)
    img = Image.new("RGB", (width, height), BACKGROUND)
    scores = _scores(view)
    box = (MARGIN, MARGIN, width - MARGIN, height - MARGIN)
    active = seat in view.get("active_seats", [])
    score = scores[seat] if scores else None
    _kept_village(ImageDraw.Draw(img), player, box, size, active, score, room, phone=True)
    return img


class VillageGeometry(NamedTuple):
    """Where `village_picture` draws a village's cells: cell (q, r)'s centre is `centre`, its
    hexes `size` from centre to corner, in a picture `width` x `height`."""

    size: float
    origin: tuple[float, float]
    width: int
    height: int

    def centre(self, q: int, r: int) -> tuple[float, float]:
        px, py = _cell_centre(q, r)
        return self.origin[0] + px * self.size, self.origin[1] + py * self.size


def village_geometry(player: dict[str, Any], room: bool = False) -> VillageGeometry | None:
    """`village_picture`'s layout of a seat's village (None if no tile is placed)."""
    size, (width, height) = _village_picture_size(player, room)
    box = (MARGIN, MARGIN, width - MARGIN, height - MARGIN)
    origin = _village_origin(player, box, size, room)
    return VillageGeometry(size, origin, width, height) if origin is not None else None


def _village_picture_size(
    player: dict[str, Any], room: bool = False
) -> tuple[float, tuple[int, int]]:
    """The hex size of a village drawn alone (`village_picture`), and the picture's size."""
    w, h = _extent(player, room)
    size = max(VILLAGE_HEX[0], min(PHONE_HEX, (PHONE_VILLAGE_W - STRIP - 2 * PAD) / w))
    width = round(STRIP + 2 * PAD + w * size + 2 * MARGIN)
    return size, (width, round(max(STRIP_MIN_H, h * size + 2 * PAD) + 2 * MARGIN))


def turns_picture(
    tile: dict[str, Any], turns: list[tuple[str, str]], width: int, type_size: int
) -> Image.Image:
    """A tile being placed drawn in each of its turns offered, in a picture `width` wide, each
    as large as a tile up for auction (at most: as many to a row as fit, rows as even as can
    be), each named under it (`turns`: its name and its sides, by direction), the name a size
    larger than the faces' text (the mark its panel line wears as a keycap)."""
    n = max(1, len(turns))
    fit = max(1, int((width - 2 * MARGIN) / (PHONE_HEX * SQRT3 + 24)))
    rows = math.ceil(n / fit)
    across = math.ceil(n / rows)
    pitch = (width - 2 * MARGIN) / across
    size = min(PHONE_HEX, pitch / (SQRT3 + 0.3))
    name_size = round(type_size * 1.5)
    row_h = 2 * size + 2 * name_size
    img = Image.new("RGB", (width, round(rows * row_h + 2 * MARGIN)), BACKGROUND)
    draw = ImageDraw.Draw(img)
    face = {k: v for k, v in tile.items() if k not in ("workers", "bids")}
    token = MIN_FONT.set(type_size)  # no text on the faces smaller than the picture needs
    try:
        for i, (name, edges) in enumerate(turns):
            row, column = divmod(i, across)
            left = (width - min(across, n - row * across) * pitch) / 2
            cx, cy = left + (column + 0.5) * pitch, MARGIN + row * row_h + size
            _face(draw, {**face, "edges": edges}, cx, cy, size)
            _text(draw, (cx, cy + size + name_size), name, name_size)
    finally:
        MIN_FONT.reset(token)
    return img


def waiting_picture(tiles: list[dict[str, Any]], width: int, type_size: int) -> Image.Image:
    """The tiles a seat has still to place (the phone's `place_tile` decision), side by side
    in a picture `width` wide, each face as large as the auction's (at most) with its roads:
    the village's strip shows them as thumbnails only."""
    where = waiting_tiles(len(tiles), width)
    size = where[0][2]
    img = Image.new("RGB", (width, round(2 * size + 2 * MARGIN)), BACKGROUND)
    draw = ImageDraw.Draw(img)
    token = MIN_FONT.set(type_size)  # no text on the faces smaller than the picture needs
    try:
        for tile, (cx, cy, _) in zip(tiles, where, strict=False):
            face = {k: v for k, v in tile.items() if k not in ("workers", "bids")}
            _face(draw, face, cx, cy, size)
    finally:
        MIN_FONT.reset(token)
    return img


def waiting_tiles(n: int, width: int) -> list[tuple[float, float, float]]:
    """Where `waiting_picture` draws n tiles in a picture `width` wide: each one's centre and
    hex size (one at least)."""
    n = max(1, n)
    size = min(PHONE_HEX, (width - 2 * MARGIN) / n / (SQRT3 + 0.3))
    pitch = (width - 2 * MARGIN) / n
    return [(MARGIN + (i + 0.5) * pitch, MARGIN + size, size) for i in range(n)]


CUT_HEX = 60.0  # a village cut's hexes (`cut_picture`): three panels of 1, 2, 1 tiles across
CUT_GAP = 16  # between two tiles of a village cut: room for their rings
CUT_PAD = 20  # around a cut's tiles inside its panel: room for their rings
CUT_CHIP = 18  # the seat's chip on a cut's panel, astride its top edge, at its left


def cut_picture(
    groups: list[tuple[int, list[dict[str, Any]]]], width: int, type_size: int
) -> tuple[Image.Image, dict[str, tuple[float, float, float]]]:
    """Villages cut to some of their tiles (the phone's decisions: those a worker may go to in
    the other villages), each village's in a panel of its own outlined in its seat's colour,
    its seat's chip astride the panel's top edge (over a hex's empty corner), the panels side
    by side as many as fit a picture `width` wide (`groups`: (seat, tiles) in order); each
    tile nearly as large as the auction's, with its workers and what it keeps. And where each
    tile lies: its centre and hex size, by id."""
    size = min(CUT_HEX, (width - 2 * MARGIN - 2 * CUT_PAD) / SQRT3)
    pitch = SQRT3 * size + CUT_GAP
    across = max(1, int((width - 2 * MARGIN - 2 * CUT_PAD + CUT_GAP) / pitch))
    panels = []  # (seat, tiles, columns, panel width, panel height)
    for seat, tiles_ in groups:
        lines = math.ceil(len(tiles_) / across)
        columns = math.ceil(len(tiles_) / lines)  # lines as even as can be
        panels.append((seat, tiles_, columns, 2 * CUT_PAD + columns * pitch - CUT_GAP, lines))
    rows: list[list[tuple[int, list[dict[str, Any]], int, float, int]]] = [[]]
    x = float(MARGIN)
    for panel in panels:
        if rows[-1] and x + panel[3] > width - MARGIN:
            rows.append([])
            x = float(MARGIN)
        rows[-1].append(panel)
        x += panel[3] + GAP
    line_h = 2 * size + CUT_GAP
    heights = [max(p[4] for p in row) * line_h - CUT_GAP + 2 * CUT_PAD + CUT_CHIP for row in rows]
    height = round(2 * MARGIN + sum(heights) + GAP * (len(rows) - 1))
    img = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    where: dict[str, tuple[float, float, float]] = {}
    token = MIN_FONT.set(type_size)  # no text on the faces smaller than the picture needs
    try:
        y = float(MARGIN)
        for row, row_h in zip(rows, heights, strict=True):
            x = (width - sum(p[3] for p in row) - GAP * (len(row) - 1)) / 2
            top = y + CUT_CHIP
            for seat, tiles_, columns, panel_w, lines in row:
                _rounded(
                    draw,
                    (x, top, x + panel_w, y + row_h),
                    12,
                    fill=PANEL,
                    outline=SEAT[seat % len(SEAT)],
                    width=3,
                )
                first = top + (y + row_h - top - lines * line_h + CUT_GAP) / 2 + size
                for i, tile in enumerate(tiles_):
                    line, column = divmod(i, columns)
                    cx = x + CUT_PAD + SQRT3 * size / 2 + column * pitch
                    cy = first + line * line_h
                    _tile(draw, tile, cx, cy, size, clear_stored=True)
                    where[tile["id"]] = (cx, cy, size)
                _seat_chip(draw, x + CUT_CHIP + 6, top, seat, CUT_CHIP)
                x += panel_w + GAP
            y += row_h + GAP
    finally:
        MIN_FONT.reset(token)
    return img, where


def village_width(player: dict[str, Any], room: bool = False) -> int:
    """The width of `village_picture`, known without drawing it."""
    return _village_picture_size(player, room)[1][0]


def own_width(view: dict[str, Any]) -> int:
    """The width of a seat's village above its screen and winter hand (the phone's own area:
    `village_picture` over `render_private(view, hand_below=True)`), known without drawing."""
    seat = int(view["you"]["seat"])
    return max(_village_picture_size(view["players"][seat])[1][0], SCREEN_W + 40)


def auction_width() -> int:
    """The width of `auction_picture`, whatever is on offer."""
    return round(PHONE_COLUMNS * (PHONE_HEX * SQRT3 + 24) + 2 * MARGIN)


def _auction_rows(
    tiles_: list[tuple[dict[str, Any], bool]],
) -> tuple[list[list[tuple[dict[str, Any], bool]]], list[float]]:
    """`auction_picture`'s rows of tiles (each with whether it is a turn-order tile) and each
    row's height."""
    pitch = PHONE_HEX * SQRT3 + 24
    rows = [tiles_[i : i + PHONE_COLUMNS] for i in range(0, len(tiles_), PHONE_COLUMNS)]
    heights = [
        2 * PHONE_HEX + 6 + max(_bids_height(len(t.get("bids", [])), pitch) for t, _ in row) + GAP
        for row in rows
    ]
    return rows, heights


def auction_tiles(view: dict[str, Any]) -> dict[str, tuple[float, float, float]]:
    """Where `auction_picture` draws each tile up for auction and turn-order tile: its
    centre and hex size, by tile id."""
    tiles_ = [(t, False) for t in view.get("offer", [])]
    tiles_ += [(t, True) for t in view.get("turn_order", [])]
    pitch = PHONE_HEX * SQRT3 + 24
    out: dict[str, tuple[float, float, float]] = {}
    y = float(MARGIN)
    for row, row_h in zip(*_auction_rows(tiles_), strict=True):
        for i, (t, numbered) in enumerate(row):
            out[t["id"]] = (
                MARGIN + (i + 0.5) * pitch,
                y + PHONE_HEX,
                PHONE_HEX * (0.8 if numbered else 1),
            )
        y += row_h
    return out


def auction_picture(view: dict[str, Any]) -> Image.Image | None:
    """The tiles up for auction and the turn-order tiles with their bids, PHONE_COLUMNS to
    a row, and the boats under them; None when nothing is on offer."""
    tiles_ = [(t, False) for t in view.get("offer", [])]
    tiles_ += [(t, True) for t in view.get("turn_order", [])]
    boats = view.get("boats", [])
    if not tiles_ and not boats:
        return None
    size = PHONE_HEX
    pitch = size * SQRT3 + 24
    width = auction_width()
    rows, heights = _auction_rows(tiles_)
    lines: list[list[dict[str, Any]]] = []
    x = width
    for boat in boats:
        if x + _boat_width(boat) > width - MARGIN:
            lines.append([])
            x = MARGIN
        lines[-1].append(boat)
        x += _boat_width(boat) + GAP
    height = round(MARGIN + sum(heights) + len(lines) * (BOAT_H + GAP) + MARGIN)
    img = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    y = float(MARGIN)
    for row, row_h in zip(rows, heights, strict=True):
        lots = [(t, MARGIN + (i + 0.5) * pitch, pitch, n) for i, (t, n) in enumerate(row)]
        _lots(draw, lots, y + size, size)
        y += row_h
    for line in lines:
        _boats(draw, line, y)
        y += BOAT_H + GAP
    return img


def clear_caches() -> None:
    """Forget everything kept between pictures (each picture worker keeps its own)."""
    kept_part.cache_clear()
    _kept_layout.cache_clear()
    _halo_mask.cache_clear()
    _FACES.cache_clear()


def render(view: dict[str, Any]) -> Image.Image:
    players = view.get("players", [])
    market_top = TOP + GAP
    villages_top = market_top + _market_height(view)
    extents = [_extent(p) for p in players]
    rows, size = _layout(extents, TARGET_H - villages_top - MARGIN)
    img = Image.new(
        "RGB",
        (WIDTH, round(villages_top + _rows_height(extents, rows, size) + MARGIN)),
        BACKGROUND,
    )
    draw = ImageDraw.Draw(img)
    top = repr([view.get(k) for k in TOP_BAR_READS])
    _part(
        draw,
        ("top", top, tuple(_scores(view))),
        (0, 0, WIDTH - 1, TOP),
        lambda: _top_bar(draw, view),
    )
    _market(draw, view, market_top)
    scores = _scores(view)
    active = set(view.get("active_seats", []))
    y = float(villages_top)
    for r in rows:
        row_h = _rows_height(extents, [r], size)
        natural = [STRIP + 2 * PAD + extents[i][0] * size for i in r]
        spare = (WIDTH - 2 * MARGIN - (len(r) - 1) * GAP - sum(natural)) / len(r)
        x = float(MARGIN)
        for i, w in zip(r, natural, strict=True):
            p = players[i]
            box = (x, y, x + w + spare, y + row_h)
            score = scores[i] if i < len(scores) else None
            _kept_village(draw, p, box, size, p["seat"] in active, score)
            x += w + spare + GAP
        y += row_h + GAP
    return img
