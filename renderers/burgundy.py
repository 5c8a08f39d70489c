"""The Castles of Burgundy table: the depots above the tracks (phases, rounds, turn order,
bonus tiles, supply) in the first column, each player's estate beside them two by two, in cells
sized so the picture still reads at Discord's inline size (about 550 x 350 px).

Drawn only from the spectator view. No words: colours, shapes and numbers. Every tile colour
carries its own shape (house, animals, book, tower, pick, boat) so the two greens and the yellow
stay apart for colour-blind players.

Drawn at half the cost and less (issue 29): what no move changes (the board's panels, each
seat's frame and empty estate) is drawn once and pasted, and tiles, dice, goods and the like
are pasted from stamps (see "stamps" below); only what the view changes is drawn. Each cell
(the depots, the tracks; a seat's as its header and its estate) is a part kept by what it shows
(`draw_cell`, renderers/parts.py): a move redraws the parts it changed and pastes the others,
and the phone pictures paste the same parts (a seat's estate drawn for the table is not drawn
again for its decision picture on the same worker). The table is drawn on a canvas the thread
keeps (`render`): a part that shows on it what the view shows is neither drawn nor pasted.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from meeple_hall.games.burgundy.data import components
from meeple_hall.renderers import parts, stamps

BACKGROUND = (232, 226, 211)
PANEL = (250, 247, 239)
INK = (52, 46, 40)
FAINT = (170, 160, 145)
TYPE_COLOURS = {
    "building": (214, 181, 128),
    "animal": (150, 204, 92),
    "knowledge": (246, 206, 54),
    "castle": (34, 102, 58),
    "mine": (140, 140, 146),
    "ship": (62, 124, 200),
}
ICON_INK = {"castle": (232, 240, 226), "ship": (236, 242, 250), "mine": (40, 40, 44)}
GOODS_COLOURS = {
    1: (205, 72, 62),
    2: (112, 84, 160),
    3: (228, 132, 178),
    4: (74, 168, 170),
    5: (232, 150, 48),
    6: (120, 84, 54),
}
PLAYER_COLOURS = [(200, 60, 55), (45, 105, 200), (235, 160, 30), (120, 70, 160)]
ANIMAL_COLOURS = {
    "cow": (110, 72, 48),
    "sheep": (250, 250, 246),
    "pig": (236, 150, 160),
    "hen": (230, 120, 30),
}
TYPE_ORDER = ("building", "animal", "knowledge", "castle", "mine", "ship")


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def mix(colour: tuple[int, ...], other: tuple[int, ...], t: float) -> tuple[int, int, int]:
    r, g, b = (round(a + (b - a) * t) for a, b in zip(colour[:3], other[:3], strict=True))
    return r, g, b


def text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: int, fill: Any) -> None:
    stamps.text(draw, xy, s, font=font(size), fill=fill, anchor="mm")


# -- stamps -------------------------------------------------------------------------------------
# A tile, a die, a goods stack is a shape stamp (renderers/stamps.py): drawn once, pasted
# wherever it goes. `anywhere`: a hex's centre lies at a multiple of the square root of 3, so
# every glyph is moved and its coordinates rounded at its stamp's corner; a few pixels of hex
# edges differ from the hex drawn in place (tests/renderers/test_burgundy_stamps.py), and the
# pictures are those of the stamps Burgundy had of its own (tests/renderers/test_shape_stamps.py).


# -- shapes -------------------------------------------------------------------------------------
def _unit(value: float) -> float:
    # cos(90°) comes out as 6e-17 and sin(-30°) as -0.5000000000000001: far from (0, 0) the
    # corners land on the whole or half pixel all the same, near it (as in a stamp) they
    # would not, and a stamp must draw what is drawn in place
    for exact in (0.0, 0.5, -0.5):
        if abs(value - exact) < 1e-9:
            return exact
    return value


HEX_CORNERS = tuple(
    (_unit(math.cos(math.radians(60 * i - 30))), _unit(math.sin(math.radians(60 * i - 30))))
    for i in range(6)
)


def hex_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    return [(cx + r * cos, cy + r * sin) for cos, sin in HEX_CORNERS]


def draw_hex(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: Any, edge: Any) -> None:
    # The edge as a hex under a smaller one: Pillow draws a wide polygon outline through a mask
    # the size of the whole picture, which is slow for hundreds of hexes.
    d.polygon(hex_points(cx, cy, r), fill=edge)
    d.polygon(hex_points(cx, cy, r - max(1, round(r / 12))), fill=fill)


# Each tile type's shape (and each building's), drawn around (cx, cy) with `s` about half the
# icon's size, in `ink`, with lines `w` wide.
Pen = ImageDraw.ImageDraw


def _house(d: Pen, cx: float, cy: float, s: float, ink: Any, w: int) -> None:
    d.line([(cx - s, cy), (cx, cy - s), (cx + s, cy)], fill=ink, width=w, joint="curve")
    d.rectangle([cx - s * 0.7, cy, cx + s * 0.7, cy + s * 0.8], outline=ink, width=w)


def _warehouse(d: Pen, cx: float, cy: float, s: float, ink: Any, w: int) -> None:
    _house(d, cx, cy, s, ink, w)
    d.line([cx - s * 0.7, cy, cx + s * 0.7, cy + s * 0.8], fill=ink, width=w)
    d.line([cx + s * 0.7, cy, cx - s * 0.7, cy + s * 0.8], fill=ink, width=w)


def _boarding_house(d: Pen, cx: float, cy: float, s: float, ink: Any, w: int) -> None:
    _house(d, cx, cy, s, ink, w)
    d.rectangle([cx - s * 0.2, cy + s * 0.3, cx + s * 0.2, cy + s * 0.8], fill=ink)


def _animals(d: Pen, cx: float, cy: float, s: float, ink: Any, w: int) -> None:
    for dx, dy in ((-0.5, 0.3), (0.5, 0.3), (0, -0.4)):
        x, y = cx + dx * s, cy + dy * s
        d.ellipse([x - s * 0.3, y - s * 0.3, x + s * 0.3, y + s * 0.3], fill=ink)


def _book(d: Pen, cx: float, cy: float, s: float, ink: Any, w: int) -> None:
    d.rectangle([cx - s * 0.8, cy - s * 0.6, cx + s * 0.8, cy + s * 0.6], outline=ink, width=w)
    d.line([cx, cy - s * 0.6, cx, cy + s * 0.6], fill=ink, width=w)


def _battlements(d: Pen, cx: float, cy: float, s: float, ink: Any, half_width: float) -> None:
    d.rectangle([cx - s * half_width, cy - s * 0.4, cx + s * half_width, cy + s * 0.8], fill=ink)
    for i in range(3):
        x = cx - s * half_width + i * s * half_width
        d.rectangle([x - s * 0.15, cy - s * 0.8, x + s * 0.15, cy - s * 0.4], fill=ink)


def _castle(d: Pen, cx: float, cy: float, s: float, ink: Any, w: int) -> None:
    _battlements(d, cx, cy, s, ink, 0.8)


def _watchtower(d: Pen, cx: float, cy: float, s: float, ink: Any, w: int) -> None:
    _battlements(d, cx, cy, s, ink, 0.45)


def _mine(d: Pen, cx: float, cy: float, s: float, ink: Any, w: int) -> None:
    d.polygon([(cx - s, cy + s * 0.7), (cx, cy - s * 0.8), (cx + s, cy + s * 0.7)], fill=ink)


def _ship(d: Pen, cx: float, cy: float, s: float, ink: Any, w: int) -> None:
    hull = [
        (cx - s, cy + s * 0.2),
        (cx + s, cy + s * 0.2),
        (cx + s * 0.6, cy + s * 0.7),
        (cx - s * 0.6, cy + s * 0.7),
    ]
    d.polygon(hull, fill=ink)
    d.polygon([(cx, cy - s * 0.9), (cx, cy + s * 0.1), (cx + s * 0.7, cy + s * 0.1)], fill=ink)


def _carpenter(d: Pen, cx: float, cy: float, s: float, ink: Any, w: int) -> None:
    d.line([cx - s * 0.7, cy - s * 0.6, cx + s * 0.7, cy - s * 0.6], fill=ink, width=w * 2)
    d.line([cx, cy - s * 0.6, cx, cy + s * 0.8], fill=ink, width=w * 2)


def _church(d: Pen, cx: float, cy: float, s: float, ink: Any, w: int) -> None:
    d.line([cx, cy - s * 0.9, cx, cy + s * 0.9], fill=ink, width=w * 2)
    d.line([cx - s * 0.5, cy - s * 0.35, cx + s * 0.5, cy - s * 0.35], fill=ink, width=w * 2)


def _market(d: Pen, cx: float, cy: float, s: float, ink: Any, w: int) -> None:
    awning = [
        (cx - s, cy - s * 0.2),
        (cx - s * 0.6, cy - s * 0.7),
        (cx + s * 0.6, cy - s * 0.7),
        (cx + s, cy - s * 0.2),
    ]
    d.polygon(awning, fill=ink)
    d.rectangle([cx - s * 0.8, cy, cx + s * 0.8, cy + s * 0.7], outline=ink, width=w)


def _bank(d: Pen, cx: float, cy: float, s: float, ink: Any, w: int) -> None:
    d.ellipse([cx - s * 0.8, cy - s * 0.8, cx + s * 0.8, cy + s * 0.8], outline=ink, width=w * 2)
    d.ellipse([cx - s * 0.3, cy - s * 0.3, cx + s * 0.3, cy + s * 0.3], fill=ink)


def _townhall(d: Pen, cx: float, cy: float, s: float, ink: Any, w: int) -> None:
    d.polygon([(cx - s, cy - s * 0.3), (cx, cy - s), (cx + s, cy - s * 0.3)], fill=ink)
    for i in (-1, 0, 1):
        x = cx + i * s * 0.6
        d.line([x, cy - s * 0.2, x, cy + s * 0.7], fill=ink, width=w * 2)
    d.line([cx - s, cy + s * 0.8, cx + s, cy + s * 0.8], fill=ink, width=w)


ICONS: dict[str, Callable[[Pen, float, float, float, Any, int], None]] = {
    "building": _house,
    "warehouse": _warehouse,
    "boarding": _boarding_house,
    "animal": _animals,
    "knowledge": _book,
    "castle": _castle,
    "watchtower": _watchtower,
    "mine": _mine,
    "ship": _ship,
    "carpenter": _carpenter,
    "church": _church,
    "market": _market,
    "bank": _bank,
    "townhall": _townhall,
}


def icon(d: Pen, kind: str, cx: float, cy: float, s: float, ink: Any) -> None:
    """The shape of a tile type (or of a building kind), `s` about half the icon's size."""
    draw = ICONS.get(kind)
    if draw is not None:
        draw(d, cx, cy, s, ink, max(1, round(s / 5)))


def hex_reach(r: float) -> stamps.Reach:
    """A stamp's reach for a hex of radius r about its centre."""
    reach = math.ceil(r) + 1
    return -reach, -reach, reach + 1, reach + 1


def draw_tile(d: ImageDraw.ImageDraw, tile: dict[str, Any], cx: float, cy: float, r: float) -> None:
    """A tile as the view gives it: its colour, and its building, animals or knowledge number."""
    face = (tile.get("building"), tile.get("animal"), tile.get("value"), tile.get("knowledge"))
    _draw_tile(d, cx, cy, r, tile["type"], *face)


@stamps.shape(lambda r, *face: hex_reach(r), anywhere=True)
def _draw_tile(
    d: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    r: float,
    kind: str,
    building: str | None,
    animal: str | None,
    value: int | None,
    knowledge: int | None,
) -> None:
    colour = TYPE_COLOURS[kind]
    draw_hex(d, cx, cy, r, colour, mix(colour, (0, 0, 0), 0.45))
    ink = ICON_INK.get(kind, INK)
    if kind == "building" and building is not None:
        icon(d, building, cx, cy, r * 0.5, ink)
    elif kind == "animal" and animal is not None and value is not None:
        draw_animals(d, animal, value, cx, cy, r)
    elif kind == "knowledge":
        icon(d, "knowledge", cx, cy - r * 0.3, r * 0.3, ink)
        text(d, (cx, cy + r * 0.3), str(knowledge), round(r * 0.55), INK)
    else:
        icon(d, kind, cx, cy, r * 0.5, ink)


def draw_animals(
    d: ImageDraw.ImageDraw, animal: str, value: int, cx: float, cy: float, r: float
) -> None:
    """`value` animals in a row, each its own shape as well as its colour (pink pigs and
    white sheep look alike to colour-blind players): hen triangle, cow square, pig diamond,
    sheep disc; their number below."""
    fill = ANIMAL_COLOURS[animal]
    a = r * 0.15
    for i in range(value):
        x = cx + (i - (value - 1) / 2) * r * 0.34
        y = cy - r * 0.22
        if animal == "hen":
            d.polygon([(x, y - a), (x + a, y + a), (x - a, y + a)], fill=fill, outline=INK)
        elif animal == "pig":
            b = a * 1.3
            d.polygon([(x, y - b), (x + b, y), (x, y + b), (x - b, y)], fill=fill, outline=INK)
        elif animal == "cow":
            d.rectangle([x - a, y - a, x + a, y + a], fill=fill, outline=INK)
        else:
            d.ellipse([x - a, y - a, x + a, y + a], fill=fill, outline=INK)
    text(d, (cx, cy + r * 0.38), str(value), round(r * 0.5), INK)


def draw_space(
    d: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float, die: int | None = None
) -> None:
    """An empty space for a tile type, with the die number it takes on an estate."""
    _draw_space(d, cx, cy, kind, r, die)


@stamps.shape(lambda kind, r, die: hex_reach(r), anywhere=True)
def _draw_space(
    d: ImageDraw.ImageDraw, cx: float, cy: float, kind: str, r: float, die: int | None
) -> None:
    colour = TYPE_COLOURS[kind]
    draw_hex(d, cx, cy, r, mix(colour, (255, 255, 255), 0.7), mix(colour, (0, 0, 0), 0.15))
    faint = mix(colour, (0, 0, 0), 0.3)
    if die is None:
        icon(d, kind, cx, cy, r * 0.45, faint)
    else:
        icon(d, kind, cx, cy - r * 0.28, r * 0.32, faint)
        text(d, (cx, cy + r * 0.42), str(die), round(r * 0.55), mix(colour, (0, 0, 0), 0.55))


def die_reach(s: float, *face: Any) -> stamps.Reach:
    return -1, -1, math.ceil(s) + 3, math.ceil(s) + 3


@stamps.shape(die_reach, anywhere=True)
def draw_die(
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    s: float,
    value: int,
    used: bool = False,
    fill: Any = (255, 255, 255),
) -> None:
    body = mix(fill, BACKGROUND, 0.6) if used else fill
    d.rounded_rectangle([x, y, x + s, y + s], radius=s / 6, fill=body, outline=INK, width=2)
    pips = {
        1: [(1, 1)],
        2: [(0, 0), (2, 2)],
        3: [(0, 0), (1, 1), (2, 2)],
        4: [(0, 0), (2, 0), (0, 2), (2, 2)],
        5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
        6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
    }[value]
    dot = s / 10
    ink = FAINT if used else INK
    for i, j in pips:
        px, py = x + s * (0.25 + 0.25 * i), y + s * (0.25 + 0.25 * j)
        d.ellipse([px - dot, py - dot, px + dot, py + dot], fill=ink)


def goods_reach(s: float, *stack: int) -> stamps.Reach:
    badge = max(8, s * 0.34)  # the count's disc, about the bottom right corner
    return -2, -10, math.ceil(s + max(9, badge)) + 3, math.ceil(s + badge) + 3


@stamps.shape(goods_reach, anywhere=True)
def draw_goods(
    d: ImageDraw.ImageDraw, x: float, y: float, s: float, kind: int, count: int = 1
) -> None:
    """A stack of goods tiles: coloured squares offset, the die number on top, the count."""
    for i in range(min(count, 4)):
        o = (min(count, 4) - 1 - i) * 3
        d.rectangle([x + o, y - o, x + o + s, y - o + s], fill=GOODS_COLOURS[kind], outline=INK)
    # The die number names the kind for colour-blind players (pink 3 and teal 4, red 1 and
    # brown 6 look alike to them); an ink edge keeps it legible on the light colours.
    d.text(
        (x + s / 2, y + s / 2),
        str(kind),
        font=font(round(s * 0.62)),
        fill=(255, 255, 255),
        anchor="mm",
        stroke_width=max(1, round(s / 20)),
        stroke_fill=INK,
    )
    if count > 1:
        b = max(8, s * 0.34)
        d.ellipse([x + s - b, y + s - b, x + s + b, y + s + b], fill=INK)
        text(d, (x + s, y + s), str(count), round(b * 1.5), (255, 255, 255))


def counter(d: ImageDraw.ImageDraw, x: float, y: float, kind: str, n: int, s: float = 28) -> None:
    """Silverlings (grey octagon) or workers (tan square) with their number."""
    _counter_shape(d, x, y, kind, s)
    stamps.text(d, (x + s + 5, y + s / 2), str(n), font=font(round(s * 1.1)), fill=INK, anchor="lm")


@stamps.shape(lambda kind, s: die_reach(s), anywhere=True)
def _counter_shape(d: ImageDraw.ImageDraw, x: float, y: float, kind: str, s: float) -> None:
    h = s / 2
    if kind == "silver":
        pts = [
            (
                x + h + h * math.cos(math.radians(45 * i + 22.5)),
                y + h + h * math.sin(math.radians(45 * i + 22.5)),
            )
            for i in range(8)
        ]
        d.polygon(pts, fill=(198, 200, 206), outline=INK)
    else:
        d.rectangle([x, y, x + s, y + s], fill=(200, 160, 110), outline=INK)
        d.ellipse([x + s * 0.34, y + s * 0.14, x + s * 0.66, y + s * 0.46], fill=INK)
        d.rectangle([x + s * 0.26, y + s * 0.5, x + s * 0.74, y + s * 0.86], fill=INK)


# -- the layout ---------------------------------------------------------------------------------
# Square-ish cells in a grid: the depots above the tracks in the first column, the players two
# by two beside them, so the picture stays near Discord's inline 550:350 at 4 players.
CELL_W = 450
CELL_H = 430
MARGIN = 12
HEADER_H = 52
ESTATE_R = 29


def columns(n: int) -> int:
    return 1 + math.ceil(n / 2)


def canvas_size(n: int) -> tuple[int, int]:
    return columns(n) * (CELL_W + MARGIN) + MARGIN, 2 * (CELL_H + MARGIN) + MARGIN


def cell(col: int, row: int) -> tuple[int, int]:
    return MARGIN + col * (CELL_W + MARGIN), MARGIN + row * (CELL_H + MARGIN)


def seat_cell(n: int, seat: int) -> tuple[int, int]:
    per_row = columns(n) - 1
    return cell(1 + seat % per_row, seat // per_row)


def panel(d: ImageDraw.ImageDraw, x: float, y: float, outline: Any = FAINT, width: int = 2) -> None:
    d.rounded_rectangle(
        [x, y, x + CELL_W, y + CELL_H], radius=14, fill=PANEL, outline=outline, width=width
    )


# -- the central board: depots ------------------------------------------------------------------
DEPOT_R = 31
DEPOT_W = (CELL_W - 24) / 2
DEPOT_H = 116


def draw_market(d: ImageDraw.ImageDraw, view: dict[str, Any], x: float, y: float) -> None:
    """Depots 1-6 two by two, the black depot below them (on the board's base: the panel and
    the depots' numbers)."""
    for depot in view["depots"]:
        draw_depot(d, depot, *depot_corner(depot["number"], x, y))
    draw_black_depot(d, view["black"], *black_centre(x, y))


def depot_corner(number: int, x: float, y: float) -> tuple[float, float]:
    i = number - 1
    return x + 8 + (i % 2) * (DEPOT_W + 8), y + 6 + (i // 2) * DEPOT_H


def depot_number(d: ImageDraw.ImageDraw, number: int, x: float, y: float) -> None:
    draw_die(d, *depot_number_box(x, y), number)


def depot_number_box(x: float, y: float) -> tuple[float, float, float]:
    """Where a depot's number (a die) lies, its corner at (x, y): its corner and side."""
    return x + 4, y + 8, 38


def draw_depot(d: ImageDraw.ImageDraw, depot: dict[str, Any], x: float, y: float) -> None:
    for (cx, cy), space in zip(depot_spaces(depot, x, y), depot["spaces"], strict=False):
        if space["tile"]:
            draw_tile(d, space["tile"], cx, cy, DEPOT_R)
        else:
            draw_space(d, space["type"], cx, cy, DEPOT_R)
    for (gx, gy), (kind, n) in zip(
        depot_goods_corners(depot, x, y), depot_goods(depot), strict=True
    ):
        draw_goods(d, gx, gy, DEPOT_GOODS, kind, n)


def depot_spaces(depot: dict[str, Any], x: float, y: float) -> list[tuple[float, float]]:
    """The centres of a depot's spaces (hexes of radius DEPOT_R), its corner at (x, y)."""
    step = DEPOT_R * math.sqrt(3)
    x0, y0 = x + 58 + step / 2, y + 6 + DEPOT_R
    if len(depot["spaces"]) <= 2:
        x0, y0 = x0 + 10, y0 + 0.75 * DEPOT_R  # one row of tiles (2 players): centred
    spots = [(0, 0), (step, 0), (step / 2, 1.5 * DEPOT_R), (1.5 * step, 1.5 * DEPOT_R)]
    return [(x0 + dx, y0 + dy) for (dx, dy), _ in zip(spots, depot["spaces"], strict=False)]


DEPOT_GOODS = 24  # a goods tile's side on a depot


def depot_goods(depot: dict[str, Any]) -> list[tuple[int, int]]:
    """A depot's goods as (kind, how many), by kind."""
    kinds: dict[int, int] = {}
    for g in depot["goods"]:
        kinds[g] = kinds.get(g, 0) + 1
    return sorted(kinds.items())


def depot_goods_corners(depot: dict[str, Any], x: float, y: float) -> list[tuple[float, float]]:
    """The top left corners of a depot's goods stacks (`depot_goods`' order), two to a row
    under its number, its corner at (x, y)."""
    count = len(set(depot["goods"]))
    return [(x + 3 + (i % 2) * 31, y + 54 + (i // 2) * 29) for i in range(count)]


BLACK_R = 26  # the black depot's hexes


def draw_black_depot(d: ImageDraw.ImageDraw, black: list[Any], cx: float, cy: float) -> None:
    r = BLACK_R
    half = len(black) * BLACK_STEP / 2
    d.rounded_rectangle([cx - half - 8, cy - r - 6, cx + half + 8, cy + r + 6], 12, (58, 52, 48))
    for x, t in zip(black_spaces(len(black), cx), black, strict=True):
        if t:
            draw_tile(d, t, x, cy, r)
        else:
            emblem(d, x, cy, r, None, (80, 74, 68), (110, 102, 94))


BLACK_STEP = BLACK_R * math.sqrt(3) + 2


def black_spaces(count: int, cx: float) -> list[float]:
    """The centres (across) of the black depot's `count` spaces, centred on cx."""
    half = count * BLACK_STEP / 2
    return [cx - half + BLACK_STEP * (i + 0.5) for i in range(count)]


def black_centre(x: float, y: float) -> tuple[float, float]:
    """The black depot's centre in the depots' cell at (x, y)."""
    return x + CELL_W / 2, y + 6 + 3 * DEPOT_H + 36


# -- the central board: phases, rounds, turn order, bonus tiles, supply -------------------------
def draw_tracks(d: ImageDraw.ImageDraw, view: dict[str, Any], x: float, y: float) -> None:
    """What moves on the tracks (the board's base has the rest, see `draw_tracks_base`)."""
    draw_phases(d, view, x + 12, y + 10)
    draw_bridge(d, view, x + 12, y + 128)
    draw_bonus_and_supply(d, view, x + 12, y + 318)


def draw_tracks_base(d: ImageDraw.ImageDraw, n: int, bridge: int, x: float, y: float) -> None:
    """The tracks' panel, the turn order track's `bridge` spaces, the bonus tiles' points
    and the face-down piles for n players."""
    panel(d, x, y)
    draw_bridge_spaces(d, bridge, x + 12, y + 128)
    draw_bonus_points_and_piles(d, n, x + 12, y + 318)


@lru_cache(maxsize=8)
def board_base(n: int, bridge: int) -> Image.Image:
    """The table's picture with nothing that a move changes, copied for every picture."""
    image = Image.new("RGB", canvas_size(n), BACKGROUND)
    d = ImageDraw.Draw(image)
    x, y = cell(0, 0)
    panel(d, x, y)
    for number in range(1, 7):
        depot_number(d, number, *depot_corner(number, x, y))
    draw_tracks_base(d, n, bridge, *cell(0, 1))
    return image


def draw_phases(d: ImageDraw.ImageDraw, view: dict[str, Any], x: float, y: float) -> None:
    """Phase bonus per phase (goods stacks still to come beside it), then the round goods and
    the white die."""
    phase = view["phase_index"]
    for i, bonus in enumerate(components().table["scoring"]["phase_bonus"].values()):
        state = "current" if i == phase else "past" if i < phase else "to come"
        goods = view["phase_goods_left"][i]
        _phase_box(d, x + i * 86, y, bonus, state, goods)
    ry = y + 60
    played = 5 - len(view["round_goods"])
    for i in range(5):
        goods = view["round_goods"][i - played] if i >= played else None
        current = i == view["round"] - 1
        _round_box(d, x + i * 70, ry, current, goods)
    if view["white"]:
        draw_die(d, x + 366, ry, 56, view["white"])


@stamps.shape(lambda bonus, state, goods: (-1, -1, 81, 53), anywhere=True)
def _phase_box(
    d: ImageDraw.ImageDraw, bx: float, y: float, bonus: int, state: str, goods: int
) -> None:
    """A phase's bonus (faint once past), framed while current, with its goods still to come."""
    current = state == "current"
    d.rounded_rectangle(
        [bx, y, bx + 78, y + 50],
        radius=8,
        fill=(250, 224, 140) if current else (236, 230, 214),
        outline=INK if current else FAINT,
        width=4 if current else 1,
    )
    text(d, (bx + 26, y + 26), str(bonus), 34, FAINT if state == "past" else INK)
    for k in range(goods):
        gx, gy = bx + 52 + (k % 2) * 12, y + 8 + (k // 2) * 12
        d.rectangle([gx, gy, gx + 9, gy + 9], fill=(90, 84, 78))


@stamps.shape(lambda current, goods: (-1, -1, 65, 59), anywhere=True)
def _round_box(
    d: ImageDraw.ImageDraw, bx: float, ry: float, current: bool, goods: int | None
) -> None:
    """A round's space, framed while current, with its goods until they are played."""
    d.rounded_rectangle(
        [bx, ry, bx + 62, ry + 56],
        radius=8,
        fill=(236, 230, 214),
        outline=INK if current else FAINT,
        width=4 if current else 1,
    )
    if goods is not None:
        draw_goods(d, bx + 11, ry + 8, 40, goods)


def draw_bridge(d: ImageDraw.ImageDraw, view: dict[str, Any], x: float, y: float) -> None:
    """The turn order track (ships move a disc right; the stack's top goes first), then the
    order of play with the active seat raised."""
    step = BRIDGE_STEP
    bar = y + 110
    for i, stack in enumerate(view["bridge"]):
        bx = x + i * step
        # bottom of the stack first, so each disc above covers only the rim of the one below
        for depth, seat in reversed(list(enumerate(stack))):
            py = bar - 20 - (len(stack) - 1 - depth) * 25
            draw_disc(d, bx + step / 2, py, 18, seat)
    oy = bar + 36
    for i, seat in enumerate(view["order"]):
        _order_box(d, x + i * 80, oy, seat, seat == view["active"])


BRIDGE_STEP = 54


def draw_bridge_spaces(d: ImageDraw.ImageDraw, spaces: int, x: float, y: float) -> None:
    """The turn order track's bar, its spaces and the arrow at its end."""
    step = BRIDGE_STEP
    bar = y + 110
    d.rounded_rectangle([x, bar, x + spaces * step, bar + 20], radius=8, fill=(160, 130, 95))
    for i in range(spaces):
        bx = x + i * step
        d.rectangle([bx + 4, bar - 3, bx + step - 4, bar + 23], outline=INK, width=1)
    ax = x + spaces * step + 8
    d.polygon([(ax, bar - 2), (ax + 24, bar + 10), (ax, bar + 22)], fill=INK)


@stamps.shape(lambda seat, active: (-1, -8, 73, 41), anywhere=True)
def _order_box(d: ImageDraw.ImageDraw, bx: float, oy: float, seat: int, active: bool) -> None:
    """A seat's place in the order of play, raised and pointed at while it is active."""
    lift = 6 if active else 0
    d.rounded_rectangle(
        [bx, oy - lift, bx + 70, oy + 38 - lift],
        radius=8,
        fill=PLAYER_COLOURS[seat],
        outline=INK,
        width=4 if active else 1,
    )
    text(d, (bx + 35, oy + 19 - lift), str(seat + 1), 32, header_ink(seat))
    if active:
        ax = bx + 35
        d.polygon([(ax - 10, oy + 38), (ax + 10, oy + 38), (ax, oy + 31)], fill=INK)


@stamps.shape(lambda r, seat: hex_reach(r + 1), anywhere=True)
def draw_disc(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, seat: int) -> None:
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=PLAYER_COLOURS[seat], outline=INK, width=2)
    text(d, (cx, cy + 1), str(seat + 1), round(r * 1.3), header_ink(seat))


def draw_bonus_and_supply(d: ImageDraw.ImageDraw, view: dict[str, Any], x: float, y: float) -> None:
    """One column per tile colour: its large and small bonus tile (greyed once taken, their
    points at the left), then its face-down pile with the tiles left."""
    for row, size in enumerate(("large", "small")):
        cy = y + 18 + row * 38
        for col, kind in enumerate(TYPE_ORDER):
            cx = x + 62 + col * 53
            r = 20 if size == "large" else 15
            there = size in view["bonus_left"][kind]
            colour = TYPE_COLOURS[kind] if there else mix(TYPE_COLOURS[kind], PANEL, 0.8)
            ink = ICON_INK.get(kind, INK) if there else FAINT
            emblem(d, cx, cy, r, kind, colour, INK if there else FAINT, ink)
    cy = y + 90
    for col, back in enumerate((*TYPE_ORDER, "black")):
        text(d, (x + 54 + col * 53 + 14, cy), str(view["supply"][back]), 18, INK)


def draw_bonus_points_and_piles(d: ImageDraw.ImageDraw, n: int, x: float, y: float) -> None:
    """The bonus tiles' points at n players and the face-down pile of each tile type."""
    scoring = components().table["scoring"]
    for row, size in enumerate(("large", "small")):
        text(d, (x + 16, y + 18 + row * 38), str(scoring[f"bonus_{size}"][str(n)]), 26, INK)
    cy = y + 90
    for col, back in enumerate((*TYPE_ORDER, "black")):
        cx = x + 54 + col * 53
        colour = TYPE_COLOURS.get(back, (58, 52, 48))
        for k in range(3):
            draw_hex(d, cx - 8, cy - k * 3, 13, mix(colour, (0, 0, 0), 0.15), INK)
        if back in TYPE_COLOURS:
            # the type's shape on the pile: building tan and animal green look alike otherwise
            icon(d, back, cx - 8, cy - 6, 6.5, ICON_INK.get(back, INK))


@stamps.shape(lambda r, *face: hex_reach(r), anywhere=True)
def emblem(
    d: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    r: float,
    kind: str | None,
    fill: Any,
    edge: Any,
    ink: Any = None,
) -> None:
    """A hex in `fill` edged in `edge`, with the shape of `kind` in `ink` (none for None)."""
    draw_hex(d, cx, cy, r, fill, edge)
    if kind is not None:
        icon(d, kind, cx, cy, r * 0.5, ink)


# -- the players --------------------------------------------------------------------------------
def header_ink(seat: int) -> tuple[int, int, int]:
    """White on the dark seat colours, ink on the light one (yellow-orange)."""
    r, g, b = PLAYER_COLOURS[seat]
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (255, 255, 255)


def hex_centre(q: int, r: int, size: float, ox: float, oy: float) -> tuple[float, float]:
    return ox + size * math.sqrt(3) * (q + r / 2), oy + size * 1.5 * r


def estate_origin(x: float, y: float) -> tuple[float, float]:
    """The centre hex of a player's estate in the panel at (x, y): left in the panel, its
    storage and goods in the column to the right."""
    return x + 8 + 3.5 * math.sqrt(3) * ESTATE_R, y + HEADER_H + (CELL_H - HEADER_H) / 2


def draw_player(image: Image.Image, view: dict[str, Any], seat: int, x: int, y: int) -> None:
    """A seat's cell: its panel (`player_base`), its header and its estate with what lies
    around it; the two are parts of their own in a picture (`draw_seat`)."""
    spaces = estate_spaces(view)
    image.paste(player_base(seat, seat == view["active"], spaces), (x, y))
    draw_header(ImageDraw.Draw(image), view, seat, x, y)
    draw_estate(image, view, seat, x, y)


def estate_spaces(view: dict[str, Any]) -> tuple[tuple[int, int, str, int], ...]:
    """The estate board's spaces, (q, r, type, die) each."""
    return tuple((h["q"], h["r"], h["type"], h["die"]) for h in view["estate_board"])


def draw_estate(image: Image.Image, view: dict[str, Any], seat: int, x: int, y: int) -> None:
    """What a seat's cell shows below its header: the tiles placed on its estate, silverlings,
    workers, goods sold, storage, goods and bonus tiles."""
    d = ImageDraw.Draw(image)
    p = view["players"][seat]
    board = view["estate_board"]
    ox, oy = estate_origin(x, y)
    placed = [h for h in board if str(h["id"]) in p["estate"]]
    for h in placed:
        cx, cy = hex_centre(h["q"], h["r"], ESTATE_R, ox, oy)
        draw_tile(d, p["estate"][str(h["id"])], cx, cy, ESTATE_R - 1)
    draw_area_edges(d, board, ESTATE_R, ox, oy, placed)
    counter(d, x + 10, y + HEADER_H + 8, "silver", p["silver"], 28)
    counter(d, x + 10, y + HEADER_H + 42, "workers", p["workers"], 28)
    draw_sold_pile(d, p["sold"], x + 14, y + CELL_H - 46)
    draw_side(d, p, x + CELL_W - 44, y + HEADER_H)


@lru_cache(maxsize=16)
def player_base(
    seat: int, active: bool, spaces: tuple[tuple[int, int, str, int], ...]
) -> Image.Image:
    """A seat's panel with what no move of that seat changes: the frame (in the seat's colour
    while active), the header's band and seat number, the empty estate and its row numbers;
    `spaces` are the estate's (q, r, type, die)."""
    image = Image.new("RGB", (CELL_W + 1, CELL_H + 1), BACKGROUND)
    d = ImageDraw.Draw(image)
    panel(d, 0, 0, PLAYER_COLOURS[seat] if active else FAINT, 6 if active else 2)
    draw_header_band(d, seat, active, 0, 0)
    empty = empty_estate(spaces)
    ox, oy = estate_origin(0, 0)
    image.paste(empty, (round(ox) - empty.width // 2, round(oy) - empty.height // 2), empty)
    draw_row_numbers(d, [{"q": q, "r": r} for q, r, _, _ in spaces], ox, oy)
    return image


def draw_header_band(d: ImageDraw.ImageDraw, seat: int, active: bool, x: float, y: float) -> None:
    """The header's band in the seat's colour, the seat number (pointed at while active)."""
    colour, ink = PLAYER_COLOURS[seat], header_ink(seat)
    d.rounded_rectangle([x, y, x + CELL_W, y + HEADER_H], radius=14, fill=colour)
    d.rectangle([x, y + HEADER_H - 14, x + CELL_W, y + HEADER_H], fill=colour)
    if active:
        d.polygon([(x + 10, y + 14), (x + 24, y + 26), (x + 10, y + 38)], fill=ink)
    text(d, (x + 40, y + 27), str(seat + 1), 34, ink)
    d.line([x + 62, y + 12, x + 62, y + 42], fill=ink, width=2)


def draw_header(
    d: ImageDraw.ImageDraw, view: dict[str, Any], seat: int, x: float, y: float
) -> None:
    """On the header's band: the score (in full, laps past 100 included) and the seat's two
    dice; at the end the final place instead of the dice."""
    p = view["players"][seat]
    colour, ink = PLAYER_COLOURS[seat], header_ink(seat)
    # The score in full: past 100 the track's marker only starts a new lap, so no "+100"
    # beside a number that already counts it.
    score = view["final"]["scores"][seat] if view.get("final") else p["score"]
    stamps.text(d, (x + 74, y + 28), str(score), font=font(44), fill=ink, anchor="lm")
    if view.get("final"):
        draw_rank(d, x + CELL_W - 40, y + 26, view["final"]["ranks"][seat])
        return
    pending = view.get("pending") if seat == view["active"] else None
    if pending and pending["castle"]:
        icon(d, "castle", x + CELL_W - 124, y + 26, 13, ink)
    for i, (value, used) in enumerate(zip(p["dice"], p["used"], strict=True)):
        dx = x + CELL_W - 96 + i * 46
        draw_die(d, dx, y + 7, 38, value, used, mix(colour, (255, 255, 255), 0.75))
        if pending and pending["die"] == i:
            box = (dx - 4, y + 3, dx + 42, y + 49)
            stamps.rounded_rectangle(d, box, radius=8, outline=ink, width=3)


ROW_INK = mix(INK, PANEL, 0.35)


def draw_row_numbers(
    d: ImageDraw.ImageDraw, board: list[dict[str, Any]], ox: float, oy: float
) -> None:
    """Each estate row's number at its right end: the labels find a hex by its row and its
    space counted from the left ("Bank on building 3 (row 5, space 4)")."""
    top = min(h["r"] for h in board)
    for r in sorted({h["r"] for h in board}):
        q = max(h["q"] for h in board if h["r"] == r)
        cx, cy = hex_centre(q, r, ESTATE_R, ox, oy)
        text(d, (cx + ESTATE_R * 0.87 + 10, cy), str(r - top + 1), 18, ROW_INK)


STORAGE_R = 26  # a stored tile's hex beside the estate (`draw_side`)


def storage_centre(space: int, x: float, y: float) -> tuple[float, float]:
    """The centre of storage space `space` (0-2) in a seat's cell at (x, y), where `draw_side`
    draws it (its `cx` is x + CELL_W - 44, its `y` y + HEADER_H)."""
    return x + CELL_W - 44, y + HEADER_H + 38 + space * 52


def draw_side(d: ImageDraw.ImageDraw, p: dict[str, Any], cx: float, y: float) -> None:
    """Storage (three spaces) and goods by kind down the panel's right; the bonus tiles taken
    in a row from the bottom right corner."""
    for i in range(3):
        cy = y + 38 + i * 52
        if i < len(p["storage"]):
            draw_tile(d, p["storage"][i], cx, cy, 26)
        else:
            emblem(d, cx, cy, 26, None, (236, 230, 214), FAINT)
    d.line([cx - 30, y + 178, cx + 30, y + 178], fill=FAINT, width=1)
    for i, (kind, n) in enumerate(p["goods"].items()):
        draw_goods(d, cx - 18, y + 192 + i * 44, 34, int(kind), n)
    for i, bonus in enumerate(p["bonus"]):
        kind = bonus["type"]
        r = 13 if bonus["size"] == "large" else 10
        bx, by = cx + 26 - i * 26, y + CELL_H - HEADER_H - 22
        emblem(d, bx, by, r, kind, TYPE_COLOURS[kind], INK, ICON_INK.get(kind, INK))


def draw_sold_pile(d: ImageDraw.ImageDraw, sold: int, x: float, y: float) -> None:
    """Goods sold, face down: how many (which kinds is the seat's secret); none sold leaves
    an empty outline."""
    if not sold:
        d.rectangle([x + 3, y + 3, x + 29, y + 27], outline=FAINT, width=1)
    for k in range(min(sold, 3)):
        d.rectangle(
            [x + 3 * k, y + 6 - 3 * k, x + 26 + 3 * k, y + 30 - 3 * k],
            fill=(90, 84, 78),
            outline=INK,
        )
    stamps.text(d, (x + 40, y + 18), str(sold), font=font(24), fill=INK, anchor="lm")


# Pointy-top hex edges in hex_points order (from the right side clockwise) and the axial step to
# the neighbour across each edge.
EDGE_STEPS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


@lru_cache(maxsize=4)
def empty_estate(board: tuple[tuple[int, int, str, int], ...]) -> Image.Image:
    """An estate board with nothing placed, its centre hex at the image's centre: drawn once,
    pasted into every player's panel."""
    half_w, half_h = math.ceil(3.5 * math.sqrt(3) * ESTATE_R) + 2, math.ceil(5.5 * ESTATE_R) + 2
    image = Image.new("RGBA", (2 * half_w, 2 * half_h), (0, 0, 0, 0))
    d = ImageDraw.Draw(image)
    for q, r, kind, die in board:
        cx, cy = hex_centre(q, r, ESTATE_R, half_w, half_h)
        draw_space(d, kind, cx, cy, ESTATE_R - 1, die)
    hexes = [{"q": q, "r": r, "type": kind} for q, r, kind, _ in board]
    draw_area_edges(d, hexes, ESTATE_R, half_w, half_h, hexes)
    return image


def draw_area_edges(
    d: ImageDraw.ImageDraw,
    board: list[dict[str, Any]],
    size: float,
    ox: float,
    oy: float,
    around: list[dict[str, Any]],
) -> None:
    """A dark line around every area (same-colour region), so areas read apart by outline as
    well as by colour and icon; drawn here for the hexes `around`."""
    kind_at = {(h["q"], h["r"]): h["type"] for h in board}
    width = max(2, round(size / 9))
    for h in around:
        sides = tuple(
            i
            for i, (dq, dr) in enumerate(EDGE_STEPS)
            if kind_at.get((h["q"] + dq, h["r"] + dr)) != h["type"]
        )
        if sides:
            cx, cy = hex_centre(h["q"], h["r"], size, ox, oy)
            _hex_edges(d, cx, cy, size, width, sides)


@stamps.shape(lambda size, width, sides: hex_reach(size + width), anywhere=True)
def _hex_edges(
    d: ImageDraw.ImageDraw, cx: float, cy: float, size: float, width: int, sides: tuple[int, ...]
) -> None:
    corners = hex_points(cx, cy, size - 1)
    for i in sides:
        d.line([corners[i], corners[(i + 1) % 6]], fill=INK, width=width)


@stamps.shape(lambda rank: (-27, -27, 28, 28), anywhere=True)
def draw_rank(d: ImageDraw.ImageDraw, cx: float, cy: float, rank: int) -> None:
    """A rosette with the final place in it (gold for the winner)."""
    fill = (245, 200, 40) if rank == 1 else (235, 235, 235)
    points = []
    for i in range(24):
        r = 25 if i % 2 == 0 else 20
        a = math.radians(15 * i)
        points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    d.polygon(points, fill=fill, outline=INK)
    d.ellipse([cx - 17, cy - 17, cx + 17, cy + 17], fill=fill, outline=INK, width=2)
    text(d, (cx, cy + 1), str(rank), 28, INK)


def render(view: dict[str, Any]) -> Image.Image:
    """The table: each cell as drawn before (`draw_cell`) on the background, on the canvas
    the thread keeps for the player count (`Canvas`), of which the table is a copy."""
    n = view["num_players"]
    canvas = Canvas.kept(n)
    try:
        for part in (*BOARD_CELLS, *range(n)):
            draw_cell(canvas.image, view, part, *cell_corner(n, part), shown=canvas.shown)
    except BaseException:
        Canvas.forget()  # a part half drawn: the next table starts afresh
        raise
    return canvas.image.copy()


class Canvas:
    """A table picture the thread drew last for a player count, and the key of each part it
    shows by the part's box (`draw_shown`): the next table draws or pastes only the parts whose
    keys changed (a part pasted is 0.03-0.13 ms, and the background 0.2 ms, of 1.2 million
    pixels: a move changes two parts of ten on average). Every pixel outside the parts' areas
    is the background, and the parts' areas do not meet (a margin of MARGIN between cells,
    SEAT_SPLIT within a seat's), so the canvas is the picture drawn afresh
    (tests/renderers/test_burgundy_parts.py). One a thread and player count (pictures are
    drawn in threads too): 3.4 MB (2 players) or 5.0 MB each as Pillow holds RGB."""

    _threads = threading.local()

    def __init__(self, n: int) -> None:
        self.image = Image.new("RGB", canvas_size(n), BACKGROUND)
        self.shown: dict[tuple[float, ...], tuple[Any, ...]] = {}

    @classmethod
    def kept(cls, n: int) -> Canvas:
        canvases: dict[int, Canvas] | None = getattr(cls._threads, "canvases", None)
        if canvases is None:
            canvases = cls._threads.canvases = {}
        found = canvases.get(n)
        if found is None:
            found = canvases[n] = cls(n)
        return found

    @classmethod
    def forget(cls) -> None:
        """The thread's canvases dropped (the tests' fresh drawing)."""
        cls._threads.canvases = {}


BOARD_CELLS = ("depots", "tracks")  # the first column, top to bottom


def cell_corner(n: int, part: str | int) -> tuple[int, int]:
    """The top left corner of a cell ("depots", "tracks" or a seat's) on the table."""
    return seat_cell(n, part) if isinstance(part, int) else cell(0, BOARD_CELLS.index(part))


def render_cell(view: dict[str, Any], part: str | int, pad: int) -> Image.Image:
    """One cell of the table ("depots", "tracks" or a seat's) with `pad` pixels of the table
    around it, drawn alone. Every cell's corner is even, so for an even `pad` the cell moves by
    an even number of pixels, as stamps do: Pillow draws it as on the table."""
    n = view["num_players"]
    x, y = cell_corner(n, part)
    box = (x - pad, y - pad, x + CELL_W + pad, y + CELL_H + pad)
    image = board_base(n, len(view["bridge"])).crop(box)
    draw_cell(image, view, part, pad, pad)
    return image


# -- the cells kept -----------------------------------------------------------------------------
# A worker's recent tables: parts of 455 x 435 pixels (the depots, the tracks), 455 x 377 (a
# seat's estate) and 455 x 58 (a seat's header), 0.8, 0.7 and 0.1 MB as Pillow keeps RGB (four
# bytes a pixel). A 4-player table's ten parts are 4.7 MB and a move draws two of them anew on
# average: 48 parts are that table and its last dozen moves, or a few tables; never more than
# 38 MB (18.9 MB after six games drawn on one worker).
PARTS_KEPT = 48


@lru_cache(maxsize=PARTS_KEPT)
def kept_part(key: tuple[Any, ...]) -> list[Image.Image]:
    """Where the part drawn under `key` is kept (empty until it is drawn): cells and parts of
    cells of table and phone pictures drawn before, by everything that changes their pixels
    (`cell_key`, `header_key`, `estate_key`). A move changes one to four of them; the others
    are pasted as they were. The least recently used go first."""
    return []


# What the tracks show of the view (`draw_tracks`); the rest is the board's base
TRACKS_SHOW = (
    "phase_index",
    "phase_goods_left",
    "round_goods",
    "round",
    "white",
    "bridge",
    "order",
    "active",
    "bonus_left",
    "supply",
)


def cell_key(view: dict[str, Any], part: str) -> tuple[Any, ...]:
    """Everything the depots' or the tracks' pixels depend on, but where the cell lies (a cell
    drawn alone, moved by whole pixels, is the table's, tests/renderers/test_burgundy_parts.py):
    the board's base under it (the player count; the turn order spaces are the track's) and
    the part of the view it shows."""
    if part == "depots":
        shown = repr([view["depots"], view["black"]])
    else:
        shown = repr([view[k] for k in TRACKS_SHOW])
    return (part, view["num_players"], shown)


def draw_cell(
    image: Image.Image,
    view: dict[str, Any],
    part: str | int,
    x: int,
    y: int,
    *,
    shown: dict[tuple[float, ...], tuple[Any, ...]] | None = None,
) -> None:
    """A cell ("depots", "tracks" or a seat's) with its corner at (x, y) of `image`, where the
    picture is the background around the cell: pasted as drawn before for what it shows, or
    drawn and kept (`parts.draw_part`); a seat's as two parts (`draw_seat`). A cell too near
    the picture's edge for its part's margin is drawn and not kept. `shown`: the keys of the
    parts `image` shows (a `Canvas`'s), where a part already shown is left as it is."""
    margin = parts.PART_MARGIN  # a part's area: its box, `margin` more each side
    within = min(x, y) >= margin and x + CELL_W + margin < image.width
    kept = within and y + CELL_H + margin < image.height
    if isinstance(part, int):
        if kept:
            draw_seat(image, view, part, x, y, shown=shown)
        else:
            draw_player(image, view, part, x, y)
        return
    base = board_cell_base(view["num_players"], len(view["bridge"]), part)
    drawing = draw_market if part == "depots" else draw_tracks

    def draw() -> None:
        image.paste(base, (x, y))
        drawing(ImageDraw.Draw(image), view, x, y)

    if kept:
        box = (x, y, x + CELL_W, y + CELL_H)
        draw_shown(image, cell_key(view, part), box, draw, shown)
    else:
        draw()


def draw_shown(
    image: Image.Image,
    key: tuple[Any, ...],
    box: tuple[float, float, float, float],
    draw_it: Callable[[], Any],
    shown: dict[tuple[float, ...], tuple[Any, ...]] | None,
) -> None:
    """`parts.draw_part` with Burgundy's `kept_part`; on a canvas (`shown`, `Canvas`), a part
    that shows the same key is left as it is, and a part drawn anew is drawn on the
    background, as on a fresh picture (no part is known to draw into its margin, so the tests
    pass without it, but one that did would leave its last pixels there)."""
    if shown is not None:
        if shown.get(box) == key:
            return
        if not kept_part(key):  # drawn: its area as a fresh picture's, the background
            m = parts.PART_MARGIN
            area = (
                math.floor(box[0]) - m,
                math.floor(box[1]) - m,
                math.ceil(box[2]) + m + 1,
                math.ceil(box[3]) + m + 1,
            )
            image.paste(BACKGROUND, area)
    parts.draw_part(image, kept_part, key, box, draw_it)
    if shown is not None:
        shown[box] = key


@lru_cache(maxsize=8)
def board_cell_base(n: int, bridge: int, part: str) -> Image.Image:
    """The board's base under the depots' or the tracks' cell (all of the base there is)."""
    x, y = cell_corner(n, part)
    return board_base(n, bridge).crop((x, y, x + CELL_W + 1, y + CELL_H + 1))


# A seat's cell is two parts: its header (the score and dice: every move of the seat) above
# SEAT_SPLIT, its estate and what lies around it below. The frame around both changes with
# whether the seat acts.
SEAT_SPLIT = HEADER_H + 4
HEADER_SHOWS = ("score", "dice", "used")  # of a seat's player, what its header shows
ESTATE_SHOWS = ("estate", "silver", "workers", "sold", "storage", "goods", "bonus")


def draw_seat(
    image: Image.Image,
    view: dict[str, Any],
    seat: int,
    x: int,
    y: int,
    *,
    shown: dict[tuple[float, ...], tuple[Any, ...]] | None = None,
) -> None:
    """A seat's cell as its two parts, each pasted as drawn before or drawn on its share of
    the seat's panel: the areas of the two (`parts.draw_part`) meet at SEAT_SPLIT."""
    spaces = estate_spaces(view)
    active = seat == view["active"]
    head, body = player_layers(seat, active, spaces)
    margin = parts.PART_MARGIN

    def draw_head() -> None:
        image.paste(head, (x, y))
        draw_header(ImageDraw.Draw(image), view, seat, x, y)

    def draw_body() -> None:
        image.paste(body, (x, y + SEAT_SPLIT))
        draw_estate(image, view, seat, x, y)

    top = (x, y, x + CELL_W, y + SEAT_SPLIT - margin - 1)
    draw_shown(image, header_key(view, seat), top, draw_head, shown)
    bottom = (x, y + SEAT_SPLIT + margin, x + CELL_W, y + CELL_H)
    draw_shown(image, estate_key(view, seat, spaces), bottom, draw_body, shown)


@lru_cache(maxsize=16)
def player_layers(
    seat: int, active: bool, spaces: tuple[tuple[int, int, str, int], ...]
) -> tuple[Image.Image, Image.Image]:
    """The seat's panel (`player_base`) above SEAT_SPLIT and below it."""
    base = player_base(seat, active, spaces)
    return base.crop((0, 0, base.width, SEAT_SPLIT)), base.crop((0, SEAT_SPLIT, *base.size))


def estate_key(
    view: dict[str, Any], seat: int, spaces: tuple[tuple[int, int, str, int], ...]
) -> tuple[Any, ...]:
    """What a seat's estate and what lies around it show: whether it acts (its frame), the
    estate board's spaces and the player's tiles, goods and the like."""
    player = view["players"][seat]
    shown = repr([player[k] for k in ESTATE_SHOWS])
    return ("estate", seat, seat == view["active"], spaces, shown)


def header_key(view: dict[str, Any], seat: int) -> tuple[Any, ...]:
    """What a seat's header shows: whether it acts and what is pending for it, its final
    score and place, its score and dice."""
    active = seat == view["active"]
    pending = repr(view.get("pending") if active else None)
    final = view.get("final")
    ranked = (final["scores"][seat], final["ranks"][seat]) if final else None
    player = view["players"][seat]
    return ("header", seat, active, pending, ranked, repr([player[k] for k in HEADER_SHOWS]))


# -- the private picture ------------------------------------------------------------------------
SOLD_W = 300
PRIVATE_W = CELL_W + SOLD_W + 3 * MARGIN


def render_private(view: dict[str, Any]) -> Image.Image | None:
    """The seat's own estate panel beside its sold goods, face down by kind: the one secret."""
    you = view.get("you")
    if not you:
        return None
    seat = you["seat"]
    image = Image.new("RGB", (PRIVATE_W, CELL_H + 2 * MARGIN), BACKGROUND)
    draw_cell(image, view, seat, MARGIN, MARGIN)
    draw_sold(ImageDraw.Draw(image), you["sold"], seat, PRIVATE_W - SOLD_W - MARGIN, MARGIN)
    return image


def draw_sold(d: ImageDraw.ImageDraw, sold: dict[str, int], seat: int, x: float, y: float) -> None:
    """One row per goods kind: the sold tiles stacked face down, edged in the kind's colour,
    with their count; a kind never sold stays an empty outline. Below: kinds sold, tiles sold
    (what knowledge tiles 15 and 25 count)."""
    box = (x, y, x + SOLD_W, y + CELL_H)
    stamps.rounded_rectangle(d, box, radius=14, fill=PANEL, outline=FAINT, width=2)
    box = (x, y, x + SOLD_W, y + HEADER_H)
    stamps.rounded_rectangle(d, box, radius=14, fill=PLAYER_COLOURS[seat])
    for k in range(3):
        d.rectangle(
            [x + 24 + 4 * k, y + 12 - 2 * k, x + 50 + 4 * k, y + 38 - 2 * k],
            fill=(90, 84, 78),
            outline=(255, 255, 255),
        )
    text(d, (x + 84, y + 26), str(sum(sold.values())), 28, header_ink(seat))
    for kind in range(1, 7):
        n = sold.get(str(kind), 0)
        ry = y + 64 + (kind - 1) * 52
        colour = GOODS_COLOURS[kind]
        d.rectangle([x + 20, ry, x + 64, ry + 44], fill=colour, outline=INK)
        text(d, (x + 42, ry + 22), str(kind), 24, (255, 255, 255))
        for i in range(min(n, 7)):
            bx = x + 84 + i * 26
            d.rectangle([bx, ry + 4, bx + 22, ry + 40], fill=(90, 84, 78), outline=colour, width=3)
        if n:
            text(d, (x + SOLD_W - 24, ry + 22), str(n), 22, INK)
        else:
            d.rectangle([x + 84, ry + 4, x + 106, ry + 40], outline=FAINT, width=1)
    kinds = sum(1 for n in sold.values() if n)
    row = y + CELL_H - 30
    d.line([x + 12, row - 24, x + SOLD_W - 12, row - 24], fill=FAINT, width=1)
    draw_hex(d, x + 40, row, 20, TYPE_COLOURS["knowledge"], INK)
    text(d, (x + 40, row), "15", 16, INK)
    text(d, (x + 84, row), str(kinds), 22, INK)
    draw_hex(d, x + 150, row, 20, TYPE_COLOURS["knowledge"], INK)
    text(d, (x + 150, row), "25", 16, INK)
    text(d, (x + 194, row), str(sum(sold.values())), 22, INK)
