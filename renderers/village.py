"""The Village table: the village board, the travel map, the chronicle and every farmyard
(and Karla's board in a solo game), drawn from the spectator view alone, without words."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache, partial
from typing import Any, NamedTuple

from PIL import Image, ImageChops, ImageDraw

from meeple_hall.renderers import stamps
from meeple_hall.renderers.palette import BACKGROUND, INK, MUTED, font
from meeple_hall.renderers.parts import PART_MARGIN
from meeple_hall.renderers.shapes import draw_shape

PANEL = (252, 248, 238)
LINE = (205, 193, 170)
# The family colours of the box: red, yellow, blue, white, purple; Karla takes grey-green.
SEATS = ((196, 58, 48), (232, 178, 40), (48, 98, 186), (236, 232, 222), (128, 76, 156))
KARLA = (92, 122, 104)
CUBES = {
    "orange": (232, 128, 36),
    "green": (78, 156, 70),
    "brown": (130, 84, 48),
    "pink": (226, 120, 160),
    "black": (34, 30, 30),
}
GOODS = {
    "scroll": (238, 222, 176),
    "horse": (166, 110, 64),
    "plow": (130, 136, 146),
    "ox": (92, 64, 44),
    "wagon": (196, 150, 80),
    "grain": (226, 190, 80),
}
SPACES = ("council", "church", "harvest", "family", "crafts", "market", "travel")
CATEGORIES = ("council", "crafts", "travel", "church", "farm")
SPACE_TINT = {
    "council": (196, 178, 214),
    "church": (214, 206, 186),
    "harvest": (236, 214, 140),
    "family": (236, 190, 170),
    "crafts": (190, 200, 210),
    "market": (180, 206, 226),
    "travel": (190, 214, 176),
    "farm": (236, 214, 140),
}


def seat_colour(seat: int) -> tuple[int, int, int]:
    return KARLA if seat < 0 else SEATS[seat % len(SEATS)]


def light(colour: tuple[int, int, int]) -> bool:
    """The ivory family: too near the cream of the boards to stand out by its fill."""
    return sum(colour) > 650


def contrast(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    return INK if sum(colour) > 500 else (250, 250, 250)


# -- glyph stamps ---------------------------------------------------------------------
# A table picture draws the same few glyphs (cubes, goods, members, customers) hundreds of
# times: each is a shape stamp (renderers/stamps.py), pixel for pixel the glyph drawn in
# place; text goes in a glyph only over its own fill. A glyph with a thick polygon outline
# (Pillow's comes out a pixel off here and there when moved) is not `movable`: it is
# stamped where it is. tests/renderers/test_village_stamps.py compares both ways.


def around(r: float, pad: int = 3) -> stamps.Reach:
    """The reach of a glyph centred on its position, of radius r."""
    e = math.ceil(r) + pad
    return -e, -e, e + 2, e + 2


def square(s: float, pad: int = 3) -> stamps.Reach:
    """The reach of a glyph of size s whose position is its top-left corner."""
    return -pad, -pad, math.ceil(s) + pad + 2, math.ceil(s) + pad + 2


class Scale(NamedTuple):
    """Lengths of a part drawn `k` times its size on the table (a seat's own area on a phone
    is drawn at the size it is shown, not enlarged): at 1 the table's own, unchanged; else
    rounded to whole pixels, so that glyphs move by whole pixels and their stamps serve
    again (renderers/stamps.py)."""

    k: float = 1

    def __call__(self, v: float) -> float:
        return v if self.k == 1 else round(v * self.k)

    def i(self, v: int) -> int:
        """A line's width, a radius."""
        return v if self.k == 1 else round(v * self.k)

    def font(self, size: int) -> int:
        """A font size whose digits are at least `k` times as high as `size`'s: the
        digits a phone shows read no smaller than the table's drawing enlarged `k` times
        (a digit's height is a whole number of pixels: `round(size * k)` may fall short;
        tests/renderers/legibility.py measures the digits)."""
        if self.k == 1:
            return size
        least, at = digit_height(size) * self.k, round(size * self.k)
        while digit_height(at) < least:
            at += 1
        return at


@lru_cache(maxsize=256)
def digit_height(size: int) -> int:
    _, top, _, bottom = font(size).getbbox("0")
    return int(bottom - top)


# -- small drawings -------------------------------------------------------------------


def text(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    value: Any,
    size: int = 16,
    fill: tuple[int, int, int] = INK,
    anchor: str = "mm",
) -> None:
    stamps.text(d, xy, str(value), font=font(size), fill=fill, anchor=anchor)


# Each influence colour also carries a mark, for players who cannot tell orange, green and
# brown apart (red-green colour blindness); the black plague cube needs none.
CUBE_MARK_INK = {"orange": INK, "green": INK, "brown": (250, 244, 228), "pink": INK}


@stamps.shape(lambda colour, s=14, lw=1: square(s))
def cube(d: ImageDraw.ImageDraw, x: float, y: float, colour: str, s: int = 14, lw: int = 1) -> None:
    """An influence or plague cube of size `s`, outlined `lw` wide."""
    box = (x, y, x + s, y + s)
    d.rounded_rectangle(box, radius=3, fill=CUBES[colour], outline=INK, width=lw)
    if colour not in CUBE_MARK_INK:
        return
    ink, c, m = CUBE_MARK_INK[colour], s / 2, s * 0.25
    cx, cy, w = x + c, y + c, max(1, round(s / 9))
    if colour == "orange":  # a dot
        d.ellipse((cx - m * 0.8, cy - m * 0.8, cx + m * 0.8, cy + m * 0.8), fill=ink)
    elif colour == "green":  # a triangle
        d.polygon(
            [(cx, cy - m * 1.1), (cx + m * 1.1, cy + m * 0.8), (cx - m * 1.1, cy + m * 0.8)],
            fill=ink,
        )
    elif colour == "brown":  # a bar
        d.rectangle((cx - m * 1.2, cy - m * 0.35, cx + m * 1.2, cy + m * 0.35), fill=ink)
    else:  # pink: a cross
        d.line((cx - m, cy - m, cx + m, cy + m), fill=ink, width=w + 1)
        d.line((cx - m, cy + m, cx + m, cy - m), fill=ink, width=w + 1)


@stamps.shape(lambda s=14: square(s))
def any_cube(d: ImageDraw.ImageDraw, x: float, y: float, s: int = 14) -> None:
    """A cube of any influence colour (a reward to choose): quartered in the four colours."""
    quarters = (("orange", 0, 0), ("green", 1, 0), ("pink", 0, 1), ("brown", 1, 1))
    h = s / 2
    for colour, col, row in quarters:
        d.rectangle(
            (x + col * h, y + row * h, x + (col + 1) * h, y + (row + 1) * h), fill=CUBES[colour]
        )
    d.rounded_rectangle((x, y, x + s, y + s), radius=3, outline=INK)


# Each family also has its own shape (heads of members, seat discs, markers), so families
# never depend on colour alone: red round, yellow square, blue diamond, white hexagon,
# purple shield; Karla a house.
SHAPES = ("circle", "square", "diamond", "hexagon", "shield")


def seat_shape(
    d: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    r: float,
    seat: int,
    fill: tuple[int, int, int] | None = None,
    outline: tuple[int, int, int] = INK,
    width: int = 1,
) -> None:
    """The seat's shape about (cx, cy), of about the area of a disc of radius r."""
    fill = seat_colour(seat) if fill is None else fill
    width = seat_outline(seat, width, outline)
    shape_glyph(d, cx, cy, seat_shape_name(seat), r, fill, outline, width)


def thin(shape: str, width: int) -> bool:
    """Whether a shape's outline moves with its stamp (see "glyph stamps")."""
    return shape == "circle" or width == 1


def seat_outline(seat: int, width: int = 1, outline: tuple[int, int, int] = INK) -> int:
    """The width of a seat's outline: the ivory family would fade into the cream board."""
    return max(width, 2) if light(seat_colour(seat)) and outline == INK else width


def seat_shape_name(seat: int) -> str:
    return "house" if seat < 0 else SHAPES[seat % len(SHAPES)]


@stamps.shape(
    lambda shape, r, fill, outline, width: around(1.25 * r + width),
    movable=lambda shape, r, fill, outline, width: thin(shape, width),
)
def shape_glyph(
    d: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    shape: str,
    r: float,
    fill: tuple[int, int, int],
    outline: tuple[int, int, int],
    width: int,
) -> None:
    draw_shape(d, shape, cx, cy, r, fill=fill, outline=outline, width=width)


def pawn(
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    seat: int,
    number: int | str,
    r: int = 11,
    lying: bool = False,
    scale: float = 1,
    least_font: int = 0,
) -> None:
    """A member standing (or lying) with its number; `scale`: see `Scale` (`r` is its
    radius as drawn); `least_font`: the number's least font size (a phone's picture)."""
    u = Scale(scale)
    pawn_body(d, x, y, seat, r, lying, scale)
    size = u.font(round(r / scale) + 2)  # r: the pawn's radius drawn, r / scale on the table
    size = max(size, least_font)
    text(d, (x, y - u(1)), number, size=size, fill=contrast(seat_colour(seat)))


@stamps.shape(
    lambda seat, r, lying, scale=1: around(1.25 * r + 5 * scale),
    movable=lambda seat, r, lying, scale=1: (
        lying or thin(seat_shape_name(seat), seat_outline(seat))
    ),
)
def pawn_body(
    d: ImageDraw.ImageDraw, x: float, y: float, seat: int, r: int, lying: bool, scale: float = 1
) -> None:
    u = Scale(scale)
    colour = seat_colour(seat)
    if lying:
        d.rounded_rectangle(
            (x - r - u(4), y - r + u(4), x + r + u(4), y + r - u(4)),
            radius=u.i(6),
            fill=colour,
            outline=INK,
        )
    else:
        body = (x - r + u(3), y + r - u(8), x + r - u(3), y + r + u(2))
        d.rectangle(body, fill=colour, outline=INK, width=u.i(1))
        seat_shape(d, x, y - u(3), r, seat, width=u.i(1))


@stamps.shape(lambda name, s=22, lw=1: square(s))
def good(d: ImageDraw.ImageDraw, x: float, y: float, name: str, s: int = 22, lw: int = 1) -> None:
    """A goods token: a coloured disc with a simple mark for each good (its lines `lw`
    wide, twice that where they are thick)."""
    colour = GOODS[name]
    d.ellipse((x, y, x + s, y + s), fill=colour, outline=INK, width=lw)
    c, m = x + s / 2, s / 4
    if name == "scroll":
        d.rectangle((c - m, y + m, c + m, y + s - m), outline=INK, width=lw)
        d.line((c - m + 2, y + s / 2, c + m - 2, y + s / 2), fill=INK, width=lw)
    elif name == "horse":
        d.polygon(
            [
                (c - m, y + s - m),
                (c - m, y + m + 2),
                (c + m, y + m),
                (c + m, y + m + 4),
                (c, y + m + 4),
                (c, y + s - m),
            ],
            fill=(250, 240, 220),
        )
    elif name == "plow":
        d.polygon([(c - m, y + m), (c + m, y + s / 2), (c - m, y + s - m)], fill=(240, 240, 240))
    elif name == "ox":
        d.arc(
            (c - m - 2, y + m - 2, c + m + 2, y + s / 2 + 2),
            180,
            360,
            fill=(250, 240, 220),
            width=2 * lw,
        )
        d.ellipse((c - m + 2, y + m + 2, c + m - 2, y + s - m), fill=(250, 240, 220))
    elif name == "wagon":
        d.ellipse((c - m, y + m, c + m, y + s - m), outline=INK, width=2 * lw)
        d.line((c - m, y + s / 2, c + m, y + s / 2), fill=INK, width=lw)
        d.line((c, y + m, c, y + s - m), fill=INK, width=lw)
    elif name == "grain":
        for k in (-1, 0, 1):
            d.line((c + k * m / 1.5, y + s - m, c + k * m, y + m), fill=(120, 90, 30), width=2 * lw)


@stamps.shape(lambda s=22: square(s))
def coin(d: ImageDraw.ImageDraw, x: float, y: float, s: int = 22) -> None:
    d.ellipse((x, y, x + s, y + s), fill=(232, 196, 70), outline=(150, 110, 30), width=2)
    d.ellipse((x + 6, y + 6, x + s - 6, y + s - 6), outline=(170, 130, 40))


@stamps.shape(lambda r, fill=None: around(r))
def star(
    d: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    r: float,
    fill: tuple[int, int, int] = (236, 200, 90),
) -> None:
    points = []
    for k in range(10):
        rad = r if k % 2 == 0 else r * 0.45
        a = -math.pi / 2 + k * math.pi / 5
        points.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    d.polygon(points, fill=fill, outline=INK)


@stamps.shape(lambda s=8: around(s))
def hourglass(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float = 8) -> None:
    d.polygon(
        [
            (cx - s, cy - s),
            (cx + s, cy - s),
            (cx, cy),
            (cx + s, cy + s),
            (cx - s, cy + s),
            (cx, cy),
        ],
        fill=(230, 210, 160),
        outline=INK,
    )


@stamps.shape(lambda s=10: around(s))
def quill(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float = 10) -> None:
    d.polygon(
        [(cx - s, cy + s), (cx + s * 0.8, cy - s), (cx + s, cy - s * 0.6), (cx - s * 0.6, cy + s)],
        fill=(250, 250, 250),
        outline=INK,
    )


def space_icon(d: ImageDraw.ImageDraw, name: str, cx: float, cy: float, s: float = 14) -> None:
    """One glyph per action space."""
    icon(d, cx, cy, name, s)


@stamps.shape(lambda name, s: around(s, pad=5))
def icon(d: ImageDraw.ImageDraw, cx: float, cy: float, name: str, s: float) -> None:
    if name == "harvest":
        good(d, cx - s, cy - s, "grain", int(2 * s))
    elif name == "family":
        d.polygon([(cx - s, cy), (cx, cy - s), (cx + s, cy)], fill=(190, 90, 70), outline=INK)
        d.rectangle((cx - s * 0.7, cy, cx + s * 0.7, cy + s), fill=(240, 225, 200), outline=INK)
    elif name == "crafts":
        d.rectangle(
            (cx - s, cy - s * 0.6, cx + s * 0.2, cy - s * 0.1), fill=(120, 120, 130), outline=INK
        )
        d.line((cx - s * 0.3, cy - s * 0.1, cx + s * 0.6, cy + s), fill=(120, 80, 40), width=4)
    elif name == "market":
        d.polygon(
            [
                (cx - s, cy - s * 0.3),
                (cx - s * 0.7, cy - s),
                (cx + s * 0.7, cy - s),
                (cx + s, cy - s * 0.3),
            ],
            fill=(200, 70, 60),
            outline=INK,
        )
        d.rectangle(
            (cx - s * 0.8, cy - s * 0.3, cx + s * 0.8, cy + s), fill=(240, 225, 200), outline=INK
        )
    elif name == "travel":
        good(d, cx - s, cy - s, "wagon", int(2 * s))
    elif name == "council":
        d.polygon(
            [(cx - s, cy - s * 0.5), (cx, cy - s), (cx + s, cy - s * 0.5)],
            fill=(220, 210, 190),
            outline=INK,
        )
        for k in (-0.7, 0, 0.7):
            d.rectangle(
                (cx + k * s - 2, cy - s * 0.5, cx + k * s + 2, cy + s * 0.8),
                fill=(230, 220, 200),
                outline=INK,
            )
        d.rectangle((cx - s, cy + s * 0.8, cx + s, cy + s), fill=(220, 210, 190), outline=INK)
    elif name == "church":
        d.rectangle((cx - 2, cy - s, cx + 2, cy + s), fill=INK)
        d.rectangle((cx - s * 0.6, cy - s * 0.5, cx + s * 0.6, cy - s * 0.2), fill=INK)
    elif name == "farm":
        d.polygon([(cx - s, cy), (cx, cy - s), (cx + s, cy)], fill=(170, 60, 50), outline=INK)
        d.rectangle((cx - s * 0.8, cy, cx + s * 0.8, cy + s), fill=(200, 90, 70), outline=INK)


def box(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float, float, float],
    fill: tuple[int, int, int] = PANEL,
    radius: int = 10,
    width: int = 2,
) -> None:
    stamps.rounded_rectangle(d, xy, radius=radius, fill=fill, outline=LINE, width=width)


def customer_tile(
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    tile: dict[str, Any] | None,
    s: int = 84,
    scale: float = 1,
) -> None:
    """A customer: its points large at the top, the goods it wants below (`s` its size at
    `scale`: 84 on the table)."""
    if tile is None:
        customer_face(d, x, y, None, (), s, scale)
        return
    customer_face(d, x, y, tile["points"], tuple(tile["wants"].items()), s, scale)
    u = Scale(scale)
    text(d, (x + s - u(24), y + u(16)), tile["points"], size=u.font(28))


@stamps.shape(lambda points, wants, s, scale=1: square(s))
def customer_face(
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    points: int | None,
    wants: tuple[tuple[str, int], ...],
    s: int,
    scale: float = 1,
) -> None:
    u = Scale(scale)
    if points is None:
        d.rounded_rectangle((x, y, x + s, y + s), radius=u.i(8), outline=LINE, width=u.i(2))
        return
    face = (x, y, x + s, y + s)
    d.rounded_rectangle(face, radius=u.i(8), fill=(250, 244, 228), outline=INK, width=u.i(1))
    star(d, x + u(15), y + u(16), u(11))
    g = (s - u.i(12)) // 3
    goods = [name for name, n in wants for _ in range(n)]
    for k, name in enumerate(goods):
        good(
            d, x + u(5) + (k % 3) * (g + 1), y + u(33) + (k // 3) * (g + 1), name, g, *lined(scale)
        )


MONK = -2


def token(
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    seat: int,
    number: int | str,
    r: int,
    scale: float = 1,
    least_font: int = 0,
) -> None:
    """A family member of a seat (Karla is -1), or a monk from the black bag."""
    if seat != MONK:
        pawn(d, x, y, seat, number, r, scale=scale, least_font=least_font)
    else:
        monk(d, x, y, r)


@stamps.shape(lambda r: around(r))
def monk(d: ImageDraw.ImageDraw, x: float, y: float, r: int) -> None:
    d.ellipse((x - r, y - r, x + r, y + r), fill=(10, 10, 10), outline=(140, 140, 140))
    d.line((x - r / 2, y - 1, x + r / 2, y - 1), fill=(210, 210, 210), width=2)
    d.line((x, y - r * 0.65, x, y + r * 0.55), fill=(210, 210, 210), width=2)


def pawn_grid(
    d: ImageDraw.ImageDraw,
    tokens: list[tuple[int, int | str]],
    box_xy: tuple[float, float, float, float],
    r_max: int = 12,
    centre: bool = False,
    scale: float = 1,
) -> None:
    """Tokens in rows inside a box, as large as r_max allows while they all fit. Drawn
    `scale` times their size on the table (see `Scale`): the box in pixels, r_max on the
    table, where the tokens' size is chosen, so that they are `scale` times as large."""
    for (seat, number), (x, y, r) in zip(
        tokens, grid_spots(len(tokens), box_xy, r_max, centre, scale), strict=True
    ):
        token(d, x, y, seat, number, r, scale)


def grid_spots(
    count: int,
    box_xy: tuple[float, float, float, float],
    r_max: int = 12,
    centre: bool = False,
    scale: float = 1,
) -> list[tuple[float, float, int]]:
    """Where `pawn_grid` puts `count` tokens in a box: each one's centre and radius."""
    if not count:
        return []
    u = Scale(scale)
    x, y, w, h = box_xy
    for size in range(r_max, 6, -1):
        cols = max(1, int(w / scale // (2 * size + 3)))
        rows = math.ceil(count / cols)
        if rows * (2 * size + 6) <= h / scale:
            break
    r, stride, row_h = u.i(size), u(2 * size + 3), u(2 * size + 6)
    spots = []
    for k in range(count):
        col, row = k % cols, k // cols
        left, top = x, y
        if centre:
            left += (w - min(cols, count - row * cols) * stride) / 2
            top += (h - rows * row_h) / 2
        spots.append((left + r + u(1.5) + col * stride, top + r + u(3) + row * row_h, r))
    return spots


def members(view: dict[str, Any], key: str, **where: Any) -> list[tuple[int, int | str]]:
    found = [m for m in view[key] if all(m[k] == v for k, v in where.items())]
    return [(m["seat"], m["number"]) for m in sorted(found, key=lambda m: (m["seat"], m["number"]))]


# -- layout ---------------------------------------------------------------------------
# About Discord's inline 550:350: the village board on the left, the status, travel map,
# black bag and chronicle on the right, the farmyards along the bottom.

WIDTH, HEIGHT = 1280, 820
BOARD_X, BOARD_W = 12, 760
SIDE_X, SIDE_W = 780, 488
YARDS_Y, YARDS_H = 532, 276
MAP_Y, MAP_H = 96, 232  # the travel map, under the status


class Layout(NamedTuple):
    """What the table's unchanging layer (boxes, icons, the map, farmyard frames) depends
    on: the same for every view of a game, and its cache key."""

    num_players: int
    karla: bool
    track_length: int
    open_stalls: int
    supply: tuple[str, ...]
    routes: tuple[tuple[tuple[str, ...], tuple[tuple[str, int], ...]], ...]
    rewards: tuple[tuple[str, str], ...]


def layout(view: dict[str, Any]) -> Layout:
    return Layout(
        view["num_players"],
        bool(view.get("karla")),
        view["track_length"],
        view["open_stalls"],
        tuple(view["supply"]),
        tuple((tuple(r["ends"]), tuple(r["cubes"].items())) for r in view["map"]["routes"]),
        tuple(view["map"]["cities"].items()),
    )


def yard_columns(table: Layout) -> tuple[int, int]:
    """How many boards stand along the bottom (the farmyards, Karla's) and their width."""
    slots = table.num_players + (1 if table.karla else 0)
    return slots, (WIDTH - 24 - (slots - 1) * 8) // slots


class Part(NamedTuple):
    """A part of the table: its frame (from the layout alone) and the pieces a view puts on
    it. The frame is under all of the part's pieces and no piece reaches another part's
    frame, so the frames of all parts may be drawn first (tests/renderers/
    test_village_stamps.py draws the table part by part and compares). `shows`: what of
    the view its pieces show, everything that changes them (with the layout and the box,
    the key its picture is kept under: `draw_kept`)."""

    frame: Callable[[ImageDraw.ImageDraw], None]
    pieces: Callable[[ImageDraw.ImageDraw, dict[str, Any]], None]
    box: tuple[int, int, int, int]  # the frame's: left, top, right, bottom
    shows: Callable[[dict[str, Any]], tuple[Any, ...]]
    # A farmyard's ring changes at every turn: drawn over its kept picture (`kept` then
    # `over` draw what `pieces` draws)
    kept: Callable[[ImageDraw.ImageDraw, dict[str, Any]], None] | None = None
    over: Callable[[ImageDraw.ImageDraw, dict[str, Any]], None] | None = None


def parts(table: Layout) -> list[Part]:
    found = [
        Part(
            lambda d: draw_spaces_frame(d, BOARD_X, 12),
            lambda d, view: draw_cubes_on_spaces(d, view, BOARD_X, 12),
            (BOARD_X, 12, BOARD_X + len(SPACES) * (SPACE_W + 6) - 6, 112),
            lambda view: (repr(view["spaces"]),),
        ),
        Part(
            lambda d: draw_market_frame(d, table, BOARD_X, 120),
            lambda d, view: draw_customers(d, view, BOARD_X, 120),
            (BOARD_X, 120, BOARD_X + 572, 308),
            market_shows,
        ),
        Part(
            lambda d: draw_supply_frame(d, table, BOARD_X + 580, 120, BOARD_W - 580, 188),
            lambda d, view: draw_supply_counts(d, view, BOARD_X + 580, 120, BOARD_W - 580, 188),
            (BOARD_X + 580, 120, BOARD_X + BOARD_W, 308),
            lambda view: (repr(view["supply"]),),
        ),
        Part(
            lambda d: draw_workshops_frame(d, BOARD_X, 316),
            lambda d, view: draw_workshop_members(d, view, BOARD_X, 316),
            (BOARD_X, 316, BOARD_X + len(SHOPS) * (SHOP_W + 6) - 6, 406),
            lambda view: (repr(view["workshops"]),),
        ),
        Part(
            lambda d: draw_stages_frame(d, BOARD_X, 414, SPACE_TINT["council"], "council"),
            lambda d, view: draw_council_members(d, view, BOARD_X, 414),
            (BOARD_X, 414, BOARD_X + 4 * (STAGE_W + 4) - 4, 524),
            lambda view: (repr(view["council"]), view["next_start"] is None),
        ),
        Part(
            lambda d: draw_stages_frame(d, CHURCH, 414, SPACE_TINT["church"], "church"),
            lambda d, view: draw_church_members(d, view, CHURCH, 414),
            (CHURCH, 414, CHURCH + 4 * (STAGE_W + 4) - 4, 524),
            church_shows,
        ),
        Part(
            lambda d: draw_status_frame(d, SIDE_X, 12, SIDE_W, 76),
            lambda d, view: draw_status_pieces(d, view, SIDE_X, 12, SIDE_W, 76),
            (SIDE_X, 12, SIDE_X + SIDE_W, 88),
            status_shows,
        ),
        Part(
            lambda d: draw_travel_frame(d, table, SIDE_X, MAP_Y, SIDE_W, MAP_H),
            lambda d, view: draw_travellers(d, view, SIDE_X, MAP_Y),
            (SIDE_X, MAP_Y, SIDE_X + SIDE_W, MAP_Y + MAP_H),
            travel_shows,
        ),
        Part(
            lambda d: draw_bag_frame(d, SIDE_X, 336, SIDE_W, 52),
            lambda d, view: draw_bag_pieces(d, view, SIDE_X, 336, SIDE_W, 52),
            (SIDE_X, 336, SIDE_X + SIDE_W, 388),
            lambda view: (repr(view["black_bag"]),),
        ),
        Part(
            lambda d: draw_chronicle_frame(d, SIDE_X, 396, SIDE_W, 128),
            lambda d, view: draw_chronicle_marks(d, view, SIDE_X, 396, SIDE_W, 128),
            (SIDE_X, 396, SIDE_X + SIDE_W, 524),
            lambda view: (repr(view["chronicle"]), repr(view["graves"])),
        ),
    ]
    _, w = yard_columns(table)
    for seat in range(table.num_players):
        x0 = BOARD_X + seat * (w + 8)
        found.append(
            Part(
                partial(
                    draw_yard_frame,
                    seat=seat,
                    track_length=table.track_length,
                    x0=x0,
                    y0=YARDS_Y,
                    w=w,
                    h=YARDS_H,
                ),
                partial(draw_yard, seat=seat, x0=x0, y0=YARDS_Y, w=w, h=YARDS_H),
                (x0, YARDS_Y, x0 + w, YARDS_Y + YARDS_H),
                partial(yard_shows, seat=seat),
                partial(draw_yard_pieces, seat=seat, x0=x0, y0=YARDS_Y, w=w, h=YARDS_H),
                partial(draw_yard_ring, seat=seat, x0=x0, y0=YARDS_Y, w=w, h=YARDS_H),
            )
        )
    if table.karla:
        x0 = BOARD_X + table.num_players * (w + 8)
        found.append(
            Part(
                lambda d: draw_karla_frame(d, x0, YARDS_Y, w, YARDS_H),
                lambda d, view: draw_karla_pieces(d, view, x0, YARDS_Y, w, YARDS_H),
                (x0, YARDS_Y, x0 + w, YARDS_Y + YARDS_H),
                lambda view: (repr(view["karla"]),),
            )
        )
    return found


def market_shows(view: dict[str, Any]) -> tuple[Any, ...]:
    """(Karla's mark on the front stall: a solo game's, as the layout says.)"""
    return repr(view["stalls"]), repr(view["queue"]), view["customers_left"]


def church_shows(view: dict[str, Any]) -> tuple[Any, ...]:
    karla = view.get("karla")
    return repr(view["church"]), repr(karla["church"]) if karla else None


# What the status shows (`draw_status_pieces`, `draw_step`, `draw_title`, `draw_winners`)
STATUS_SHOWS = (
    *("round", "phase", "active", "step", "market"),
    *("title_rank", "titles", "scores", "ranks", "ending", "final_turns"),
)


def status_shows(view: dict[str, Any]) -> tuple[Any, ...]:
    return (repr([(name in view, view.get(name)) for name in STATUS_SHOWS]),)


def travel_shows(view: dict[str, Any]) -> tuple[Any, ...]:
    return repr([p["cities"] for p in view["players"]]), repr(view["travellers"])


def yard_shows(view: dict[str, Any], seat: int) -> tuple[Any, ...]:
    """What a farmyard's kept pieces show (`draw_yard_pieces`): the seat's own, and what it
    is marked with (whether the game is solo, the layout says)."""
    marks = (view["start_player"] == seat, view["next_start"] == seat)
    score = view["scores"][seat] if "scores" in view else None
    return (*marks, "scores" in view, score, repr(view["players"][seat]))


def render(view: dict[str, Any]) -> Image.Image:
    """The table's unchanging layer (drawn once a process and kept) with the pieces the
    view puts on it: each part's as drawn before for what it shows, or drawn now and kept
    (`draw_kept`)."""
    table = layout(view)
    image = board(table).copy()
    d = ImageDraw.Draw(image)
    for part in parts(table):
        draw_kept(image, d, table, part, view)
    return image


def render_within(view: dict[str, Any], at: tuple[float, float, float, float]) -> Image.Image:
    """The table as `render` draws it as far as `at`'s right and bottom edges (the picture
    is cut there, not moved: it keeps the table's coordinates; it may reach a little
    further), with the pieces of only the parts that reach into `at`: a phone's part of the
    table costs what it shows, not the whole table. The parts whose frames lie in `at` are
    kept as `render` keeps them (a part the table's picture drew is pasted); the others
    only stand out into it (a piece may, by a few pixels: `REACH`), drawn."""
    table = layout(view)
    left, top, right, bottom = at
    width, height = math.ceil(right), math.ceil(bottom)
    reaching: list[tuple[Part, bool]] = []
    for part in parts(table):
        x0, y0, x1, y1 = part.box
        inside = x0 < right and left < x1 and y0 < bottom and top < y1
        if inside or (
            x0 - REACH < right and left < x1 + REACH and y0 - REACH < bottom and top < y1 + REACH
        ):
            reaching.append((part, inside))
        if inside:
            _, _, far_x, far_y = covered(part.box)
            width, height = max(width, far_x), max(height, far_y)
    image = board(table).crop((0, 0, min(WIDTH, width), min(HEIGHT, height)))
    d = ImageDraw.Draw(image)
    for part, inside in reaching:
        if inside:
            draw_kept(image, d, table, part, view)
        else:
            part.pieces(d, view)
    return image


# A worker's recent tables' parts: a table picture has 12-15 (1.0 Mpx in all, 4 MB as
# Pillow holds RGB), a move draws 2-4 anew; the largest are the farmyards at 2 players and
# Karla's board (0.17 Mpx, 0.7 MB). Measured full after every 3rd move's pictures of a
# game: 14-15 MiB held at 4-5 players, 22-25 MiB at 1-2.
PARTS_KEPT = 64


class Kept(NamedTuple):
    """A part's picture: its frame's box, and the strips about it where its pieces stand
    out of it (`Out`)."""

    inside: Image.Image
    out: tuple[Out, ...]


class Out(NamedTuple):
    """Pixels a part's pieces cover out of its box: those `mask` holds, at `at`."""

    pixels: Image.Image
    mask: Image.Image
    at: tuple[int, int]


@lru_cache(maxsize=PARTS_KEPT)
def kept_part(key: tuple[Any, ...]) -> list[Kept]:
    """Where the part drawn under `key` is kept (empty until it is drawn): by its box, the
    layout (its frame) and what it shows. A move changes a few parts; the others are
    pasted as they were. The least recently used go first."""
    return []


def covered(box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The pixels a part's pieces may cover (its box and `REACH` about it), on the table."""
    x0, y0, x1, y1 = box
    reach = REACH + PART_MARGIN
    return (
        max(0, x0 - reach),
        max(0, y0 - reach),
        min(WIDTH, x1 + reach + 1),
        min(HEIGHT, y1 + reach + 1),
    )


def draw_kept(
    image: Image.Image, d: ImageDraw.ImageDraw, table: Layout, part: Part, view: dict[str, Any]
) -> None:
    """A part's pieces on `image` (the table's layer, the parts before this one drawn):
    pasted as drawn before for the same layout and what it shows, or drawn and kept. Its
    frame's box is pasted whole (no other part reaches into it); the pixels its pieces
    cover out of it, through a mask of those pixels alone, since the next part's may lie
    beside them (a farmyard's ring). Drawing the parts in turn, as before, makes the same
    pixels as long as no two parts' pieces cover the same pixel
    (tests/renderers/test_village_parts.py)."""
    kept = kept_part((part.box, table, *part.shows(view)))
    x0, y0, x1, y1 = part.box
    if kept:
        image.paste(kept[0].inside, (x0, y0))
        for out in kept[0].out:
            image.paste(out.pixels, out.at, out.mask)
    else:
        strips = about(part.box)
        before = [image.crop(strip) for strip in strips]
        (part.kept or part.pieces)(d, view)
        after = [image.crop(strip) for strip in strips]
        stand_out = map(standing_out, before, after, strips)
        inside = image.crop((x0, y0, x1 + 1, y1 + 1))
        kept.append(Kept(inside, tuple(found for found in stand_out if found is not None)))
    if part.over is not None:
        part.over(d, view)


def about(box: tuple[int, int, int, int]) -> list[tuple[int, int, int, int]]:
    """The strips about a part's box its pieces may cover (`REACH`), on the table: above,
    below, left and right."""
    x0, y0, x1, y1 = box
    left, top, right, bottom = covered(box)
    strips = [
        (left, top, right, y0),
        (left, y1 + 1, right, bottom),
        (left, y0, x0, y1 + 1),
        (x1 + 1, y0, right, y1 + 1),
    ]
    return [s for s in strips if s[0] < s[2] and s[1] < s[3]]


CHANGED = [0] + [255] * 255  # a channel's difference: changed or not


def standing_out(
    before: Image.Image, after: Image.Image, strip: tuple[int, int, int, int]
) -> Out | None:
    """The pixels of a strip that drawing a part's pieces changed, if any."""
    changed = ImageChops.difference(before, after)
    bounds = changed.getbbox()
    if bounds is None:
        return None
    red, green, blue = changed.crop(bounds).split()
    mask = ImageChops.lighter(ImageChops.lighter(red, green), blue).point(CHANGED, "1")
    return Out(after.crop(bounds), mask, (strip[0] + bounds[0], strip[1] + bounds[1]))


REACH = 8  # the most a piece stands out of its part's frame (an active yard's ring: 5)


BOARDS = 8  # a layer a player count (solo is one) in practice: 5 of 4 MB in a worker


@lru_cache(maxsize=BOARDS)
def board(table: Layout) -> Image.Image:
    """The table without anything a move changes (keep it: callers copy it)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    d = ImageDraw.Draw(image)
    for part in parts(table):
        part.frame(d)
    return image


# -- the village board ----------------------------------------------------------------


SPACE_W = 103


def draw_spaces_frame(d: ImageDraw.ImageDraw, x0: int, y0: int) -> None:
    """The seven action spaces."""
    w = SPACE_W
    for i, name in enumerate(SPACES):
        x = x0 + i * (w + 6)
        box(d, (x, y0, x + w, y0 + 100), SPACE_TINT[name])
        space_icon(d, name, x + w / 2, y0 + 23, 16)


def draw_cubes_on_spaces(d: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y0: int) -> None:
    """The cubes on offer on each action space."""
    w = SPACE_W
    for i, name in enumerate(SPACES):
        x = x0 + i * (w + 6)
        # Up to four cubes (the most a setup card puts on a space) in a square, more in rows.
        cubes = view["spaces"].get(name, [])
        per_row, size = (2, 26) if len(cubes) <= 4 else (4, 22)
        for k, colour in enumerate(cubes):
            in_row = min(per_row, len(cubes) - k // per_row * per_row)
            left = x + (w - in_row * (size + 2) + 2) / 2
            top = y0 + 44 + (k // per_row) * (size + 2)
            cube(d, left + (k % per_row) * (size + 2), top, colour, size)


STALLS = 5


def draw_market_frame(d: ImageDraw.ImageDraw, table: Layout, x0: int, y0: int) -> None:
    """The market: its open stalls framed blue, the queue of next customers framed brown."""
    box(d, (x0, y0, x0 + 572, y0 + 188), SPACE_TINT["market"])
    space_icon(d, "market", x0 + 22, y0 + 26, 14)
    for i in range(min(STALLS, table.open_stalls)):
        x = x0 + 44 + i * 88
        d.rounded_rectangle(
            (x - 3, y0 + 2, x + 87, y0 + 92), radius=10, outline=(40, 90, 170), width=3
        )
    for i in range(STALLS):
        x = x0 + 44 + i * 88
        d.rounded_rectangle(
            (x - 3, y0 + 94, x + 87, y0 + 184), radius=10, outline=(150, 100, 60), width=3
        )


def draw_customers(d: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y0: int) -> None:
    """The customers in the stalls and the queue, and the face-down stack with its count."""
    for i, tile in enumerate(view["stalls"]):
        customer_tile(d, x0 + 44 + i * 88, y0 + 5, tile)
    for i in range(STALLS):
        tile = view["queue"][i] if i < len(view["queue"]) else None
        customer_tile(d, x0 + 44 + i * 88, y0 + 97, tile)
    left = view["customers_left"]
    sx, top = x0 + 486, max(0, min(4, left) - 1)
    for k in range(min(4, left)):
        d.rounded_rectangle(
            (sx + k * 3, y0 + 52 - k * 3, sx + 72 + k * 3, y0 + 136 - k * 3),
            radius=8,
            fill=(120, 150, 190),
            outline=INK,
        )
    if not left:
        d.rounded_rectangle((sx, y0 + 52, sx + 72, y0 + 136), radius=8, outline=LINE, width=2)
    text(d, (sx + 36 + 3 * top, y0 + 94 - 3 * top), left, 30, (250, 250, 250) if left else MUTED)
    if view.get("karla") is not None:
        front = next((i for i, t in enumerate(view["stalls"]) if t), None)
        if front is not None:
            cx = x0 + 44 + front * 88 + 42
            seat_shape(d, cx, y0 + 5, 9, -1, width=2)


def draw_supply_frame(
    d: ImageDraw.ImageDraw, table: Layout, x0: int, y0: int, w: int, h: int
) -> None:
    """The general supply of influence and plague cubes (limited, unlike goods)."""
    box(d, (x0, y0, x0 + w, y0 + h), PANEL)
    step = (h - 12) / len(table.supply)
    for k, colour in enumerate(table.supply):
        cube(d, x0 + 24, y0 + 6 + step * (k + 0.5) - 13, colour, 26)


def draw_supply_counts(
    d: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y0: int, w: int, h: int
) -> None:
    rows = list(view["supply"].values())
    step = (h - 12) / len(rows)
    for k, n in enumerate(rows):
        text(d, (x0 + w * 0.62, y0 + 6 + step * (k + 0.5)), n, size=28, fill=INK if n else MUTED)


SHOPS = (
    ("wainwright", "wagon"),
    ("stables", "horse"),
    ("office", "scroll"),
    ("smithy", "plow"),
    ("mill", "grain"),
)
SHOP_W = 147


def draw_workshops_frame(d: ImageDraw.ImageDraw, x0: int, y0: int) -> None:
    w = SHOP_W
    for i, (name, product) in enumerate(SHOPS):
        x = x0 + i * (w + 6)
        box(d, (x, y0, x + w, y0 + 90), SPACE_TINT["crafts"])
        good(d, x + 6, y0 + 5, product, 28)
        if name == "stables":
            good(d, x + 38, y0 + 5, "ox", 28)
        if name == "mill":
            coin(d, x + 40, y0 + 8, 24)
            coin(d, x + 56, y0 + 8, 24)


def draw_workshop_members(d: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y0: int) -> None:
    for tokens, box_xy, r_max in workshop_grids(view, x0, y0):
        pawn_grid(d, tokens, box_xy, r_max)


Grid = tuple[list[tuple[int, int | str]], tuple[float, float, float, float], int]
"""Tokens, the box `pawn_grid` stands them in, and their largest radius."""


def workshop_grids(view: dict[str, Any], x0: int, y0: int) -> list[Grid]:
    w = SHOP_W
    return [
        (members(view, "workshops", where=name), (x0 + i * (w + 6) + 4, y0 + 35, w - 8, 54), 14)
        for i, (name, _) in enumerate(SHOPS)
    ]


STAGE_W = 90
CHURCH_X = 388  # the church's stages, right of the council's
CHURCH = BOARD_X + CHURCH_X


def draw_stages_frame(
    d: ImageDraw.ImageDraw, x0: int, y0: int, tint: tuple[int, int, int], icon: str
) -> None:
    """Four stages (council or church), each with its stage pips."""
    w = STAGE_W
    for stage in range(1, 5):
        x = x0 + (stage - 1) * (w + 4)
        box(d, (x, y0, x + w, y0 + 110), tint)
        for k in range(stage):
            space_icon(d, icon, x + 14 + k * 20, y0 + 16, 8)


def draw_stage_members(
    d: ImageDraw.ImageDraw, tokens: list[list[tuple[int, int | str]]], x0: int, y0: int
) -> None:
    for stage_tokens, box_xy, r_max in stage_grids(tokens, x0, y0):
        pawn_grid(d, stage_tokens, box_xy, r_max)


def stage_grids(tokens: list[list[tuple[int, int | str]]], x0: int, y0: int) -> list[Grid]:
    w = STAGE_W
    return [
        (tokens[stage - 1], (x0 + (stage - 1) * (w + 4) + 3, y0 + 30, w - 6, 78), 14)
        for stage in range(1, 5)
    ]


def council_tokens(view: dict[str, Any]) -> list[list[tuple[int, int | str]]]:
    return [members(view, "council", stage=s) for s in range(1, 5)]


def church_tokens(view: dict[str, Any]) -> list[list[tuple[int, int | str]]]:
    """The church's members by stage, Karla's after the seats'."""
    church = [members(view, "church", stage=s) for s in range(1, 5)]
    karla = view.get("karla")
    for stage, n in (karla["church"] if karla else {}).items():
        church[int(stage) - 1].append((-1, n))
    return church


def draw_council_members(d: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y0: int) -> None:
    """The council's members by stage, and the next start player's marker while it is free."""
    draw_stage_members(d, council_tokens(view), x0, y0)
    if view["next_start"] is None:
        ring(d, x0 + 72, y0 + 18, INK)


def draw_church_members(d: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y0: int) -> None:
    """The church's members by stage (Karla's too)."""
    draw_stage_members(d, church_tokens(view), x0, y0)


def ring(
    d: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    colour: tuple[int, int, int],
    coin_inside: bool = False,
    scale: float = 1,
) -> None:
    """The next-start-player marker; in solo, while it may still be spent as a coin, with a
    coin inside."""
    u = Scale(scale)
    if coin_inside:
        coin(d, cx - u(8), cy - u(8), u.i(16))
    d.ellipse((cx - u(10), cy - u(10), cx + u(10), cy + u(10)), outline=colour, width=u.i(4))
    d.ellipse((cx - u(4), cy - u(15), cx + u(4), cy - u(7)), fill=(90, 160, 220), outline=INK)


def draw_status_frame(d: ImageDraw.ImageDraw, x0: int, y0: int, w: int, h: int) -> None:
    box(d, (x0, y0, x0 + w, y0 + h), PANEL)
    cy = y0 + h / 2
    # The round on a calendar leaf, unlike the seat discs.
    d.rounded_rectangle(
        (x0 + 10, cy - 29, x0 + 68, cy + 29), 8, fill=(250, 244, 228), outline=INK, width=3
    )
    d.rounded_rectangle(
        (x0 + 10, cy - 29, x0 + 68, cy - 17), 8, fill=(196, 58, 48), outline=INK, width=3
    )


def draw_status_pieces(
    d: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y0: int, w: int, h: int
) -> None:
    """The round, whose decision it is and what about; the end of the game coming."""
    cy = y0 + h / 2
    text(d, (x0 + 39, cy + 6), view["round"], size=32)
    x: float = x0 + 84
    if view["phase"] == "mass":
        space_icon(d, "church", x + 14, cy, 16)
        x += 40
    for seat in view["active"]:
        seat_disc(d, x + 29, cy, 29, seat, 34)
        x += 70
    x = draw_step(d, view, x + 22, cy)
    if "title_rank" in view:
        draw_title(d, view["title_rank"], view["titles"], x + 30, cy)
    elif "scores" in view:
        draw_winners(d, view, x + 10, cy)
    if view["ending"]:
        right = x0 + w - 26
        for seat in reversed(view["final_turns"]):
            seat_disc(d, right, cy, 16, seat, 18)
            right -= 36
        quill(d, right, cy, 18)


def seat_disc(
    d: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    r: float,
    seat: int,
    size: int,
    crossed: bool = False,
) -> None:
    """A seat's colour with its number; crossed out when the seat has passed."""
    colour = seat_colour(seat)
    seat_shape(d, cx, cy, r, seat, width=3 if r > 20 else 2)
    text(d, (cx, cy), seat + 1, size=size, fill=contrast(colour))
    if crossed:
        d.line((cx - r, cy + r, cx + r, cy - r), fill=INK, width=3)


def draw_step(d: ImageDraw.ImageDraw, view: dict[str, Any], x: float, cy: float) -> float:
    """The icon of the step being decided; returns where the next thing may go."""
    step = view["step"]
    market = view.get("market")
    if market is not None:
        space_icon(d, "market", x, cy, 20)
        seat_disc(d, x + 46, cy, 18, market["trigger"], 22)
        for k, seat in enumerate(market["passed"]):
            seat_disc(d, x + 88 + k * 32, cy, 14, seat, 16, crossed=True)
        return x + 84 + 32 * len(market["passed"])
    if step in SPACE_TINT:
        space_icon(d, step, x, cy, 20)
    elif step == "turn":
        hourglass(d, x, cy, 17)
    elif step == "die":
        quill(d, x, cy, 20)
    elif step in ("buy", "advance"):
        space_icon(d, "church", x, cy, 20)
    elif step == "karla":
        seat_shape(d, x, cy, 20, -1, width=2)
    elif step in ("privilege", "reward", "gift"):
        star(d, x, cy, 20)
    else:
        return x - 22
    return x + 24


def draw_winners(d: ImageDraw.ImageDraw, view: dict[str, Any], x: float, cy: float) -> None:
    """A cup and the seats placed first (ties broken as the rules say)."""
    d.polygon(
        [(x, cy - 22), (x + 40, cy - 22), (x + 32, cy + 4), (x + 8, cy + 4)],
        fill=(236, 200, 90),
        outline=INK,
    )
    d.rectangle((x + 17, cy + 4, x + 23, cy + 16), fill=(236, 200, 90), outline=INK)
    d.rounded_rectangle((x + 8, cy + 16, x + 32, cy + 24), 3, fill=(236, 200, 90), outline=INK)
    x += 52
    for seat, rank in enumerate(view["ranks"]):
        if rank == 1:
            seat_disc(d, x + 29, cy, 29, seat, 34)
            x += 70


def draw_title(d: ImageDraw.ImageDraw, rank: int, titles: int, x: float, y: float) -> None:
    """The solo achievement title: a medal and one lit star per title reached."""
    d.polygon([(x - 12, y + 14), (x - 20, y + 34), (x - 2, y + 26)], fill=KARLA, outline=INK)
    d.polygon([(x + 12, y + 14), (x + 20, y + 34), (x + 2, y + 26)], fill=KARLA, outline=INK)
    d.ellipse((x - 24, y - 24, x + 24, y + 24), fill=(236, 200, 90), outline=INK, width=3)
    text(d, (x, y), rank, size=30)
    for k in range(titles):
        lit = k < rank
        star(d, x + 50 + k * 30, y, 13, (236, 200, 90) if lit else (226, 220, 206))


# The travel map's places, in pixels inside the map's box (the map is reconstructed): each
# city is a disc with its letter, the letter its name starts with in the menus. Around it:
# who has been there (a grid of visit discs, left), its reward (right), who is travelling
# there (a row of members under it). Each route's cost sits at `t` along the route, where
# it leaves every city's places clear.
CITY_XY = {
    "village": (244, 210),
    "west": (142, 168),
    "north": (346, 168),
    "forest": (244, 110),
    "lake": (56, 66),
    "hill": (432, 66),
    "capital": (244, 24),
}
CITY_LETTER = {
    "west": "W",
    "north": "N",
    "forest": "F",
    "lake": "L",
    "hill": "H",
    "capital": "C",
}
ROUTE_T = {
    ("village", "north"): 0.35,
    ("village", "west"): 0.35,
    ("forest", "capital"): 0.38,
}
CITY_R = 19
VISIT_R, VISIT_PITCH = 6, 13
TRAVELLERS_MAX = 5
CUBE_S, CUBE_GAP = 16, 3

Box = tuple[float, float, float, float]


def route_cost_box(route: dict[str, Any], ox: float, oy: float) -> tuple[float, float, Box]:
    """Where a route's cost cubes go: their left end, top, and the box they fill."""
    a, b = route["ends"]
    if (b, a) in ROUTE_T:
        a, b = b, a
    t = ROUTE_T.get((a, b), 0.5)
    (ax, ay), (bx, by) = CITY_XY[a], CITY_XY[b]
    n = sum(route["cubes"].values())
    width = n * CUBE_S + (n - 1) * CUBE_GAP
    mx, my = ox + ax + (bx - ax) * t, oy + ay + (by - ay) * t
    left, top = mx - width / 2, my - CUBE_S / 2
    return left, top, (left, top, left + width, top + CUBE_S)


def visit_spot(cx: float, cy: float, k: int) -> tuple[float, float]:
    """Where seat k's visit disc goes on a city: a 2 x 3 grid left of it, a place each."""
    col, row = k % 2, k // 2
    return cx - CITY_R - 4 - VISIT_R - (1 - col) * VISIT_PITCH, cy + (row - 1) * VISIT_PITCH


def reward_box(cx: float, cy: float) -> Box:
    return cx + CITY_R + 3, cy - 12, cx + CITY_R + 27, cy + 12


def traveller_row(cx: float, cy: float, n: int) -> tuple[int, float, list[float]]:
    """Pawn size, row centre and the x of each of n travellers standing under a city."""
    r = 8 if n <= 3 else 6
    pitch = 2 * r + 3 if n <= 3 else 13
    return r, cy + CITY_R + r + 4, [cx + (k - (n - 1) / 2) * pitch for k in range(n)]


def travel_places(view: dict[str, Any], ox: float, oy: float) -> dict[str, list[Box]]:
    """Every box the map may fill, at the most it can hold (all seats visited a city, every
    traveller in one city): route costs, rewards, visit grids, traveller rows, city letters.
    The tests check that none of them overlaps another."""
    places: dict[str, list[Box]] = {"cost": [], "reward": [], "visits": [], "travellers": []}
    places["city"] = []
    for route in view["map"]["routes"]:
        places["cost"].append(route_cost_box(route, ox, oy)[2])
    for city, (x, y) in CITY_XY.items():
        cx, cy = ox + x, oy + y
        if city == "village":
            places["city"].append((cx - 17, cy - 17, cx + 17, cy + 17))
            continue
        places["city"].append((cx - CITY_R, cy - CITY_R, cx + CITY_R, cy + CITY_R))
        places["reward"].append(reward_box(cx, cy))
        first, last = visit_spot(cx, cy, 0), visit_spot(cx, cy, 5)
        places["visits"].append(
            (first[0] - VISIT_R, first[1] - VISIT_R, last[0] + VISIT_R, last[1] + VISIT_R)
        )
        r, row_y, xs = traveller_row(cx, cy, TRAVELLERS_MAX)
        places["travellers"].append((xs[0] - r, row_y - r - 3, xs[-1] + r, row_y + r + 2))
    return places


def draw_travel_frame(
    d: ImageDraw.ImageDraw, table: Layout, x0: int, y0: int, w: int, h: int
) -> None:
    """The travel map: routes with their cube costs, cities (their letters) with their
    rewards."""
    box(d, (x0, y0, x0 + w, y0 + h), (226, 234, 214))
    rewards = dict(table.rewards)
    routes: list[dict[str, Any]] = [
        {"ends": ends, "cubes": dict(cubes)} for ends, cubes in table.routes
    ]
    for route in routes:
        (ax, ay), (bx, by) = (city_at(end, x0, y0) for end in route["ends"])
        d.line((ax, ay, bx, by), fill=(150, 120, 80), width=5)
    for route in routes:
        left, top, _ = route_cost_box(route, x0, y0)
        colours = [c for c, n in route["cubes"].items() for _ in range(n)]
        for k, colour in enumerate(colours):
            cube(d, left + k * (CUBE_S + CUBE_GAP), top, colour, CUBE_S)
    for city in CITY_XY:
        cx, cy = city_at(city, x0, y0)
        if city == "village":
            space_icon(d, "family", cx, cy - 2, 16)
            continue
        d.ellipse(
            (cx - CITY_R, cy - CITY_R, cx + CITY_R, cy + CITY_R),
            fill=(250, 244, 228),
            outline=INK,
            width=2,
        )
        text(d, (cx, cy), CITY_LETTER[city], 22)
        rx0, ry0, rx1, ry1 = reward_box(cx, cy)
        rx, ry = (rx0 + rx1) / 2, (ry0 + ry1) / 2
        reward = rewards.get(city, "")
        if reward == "prestige":
            star(d, rx, ry, 12)
        elif reward == "coin":
            coin(d, rx - 11, ry - 11, 22)
        elif reward == "cubes":
            # 2 cubes of the traveller's choice: two cubes of every influence colour.
            any_cube(d, rx - 11, ry - 11, 13)
            any_cube(d, rx - 2, ry - 2, 13)


def city_at(city: str, x0: float, y0: float) -> tuple[float, float]:
    x, y = CITY_XY[city]
    return x0 + x, y0 + y


def draw_travellers(d: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y0: int) -> None:
    """Who has been where (discs) and who is travelling (members)."""
    for city in CITY_XY:
        if city == "village":
            continue
        cx, cy = city_at(city, x0, y0)
        for seat, player in enumerate(view["players"]):
            if city in player["cities"]:
                seat_shape(d, *visit_spot(cx, cy, seat), VISIT_R, seat)
        travellers = members(view, "travellers", where=city)
        r, row_y, xs = traveller_row(cx, cy, len(travellers))
        for x, (seat, number) in zip(xs, travellers, strict=True):
            token(d, x, row_y, seat, number, r)


def draw_traveller_members(d: ImageDraw.ImageDraw, view: dict[str, Any], least_font: int) -> None:
    """The travellers alone (`roomy_traveller_spots`), their numbers at least `least_font`:
    the travel map on a phone (renderers/phone/village.py), where the table's numbers would
    read too small."""
    for _, seat, number, x, y, r in roomy_traveller_spots(view):
        token(d, x, y, seat, number, r, least_font=least_font)


ROOMY_R = 8  # a traveller's radius on a phone's map, however many share a city


def roomy_traveller_spots(view: dict[str, Any]) -> list[Spot]:
    """Where a phone's map stands the travellers: as the table does (`traveller_spots`)
    where three or fewer share a city; where four or five do, as large as three (not
    smaller, to hold a number a phone reads), closer together, their row moved down from
    the city as far as it must be to stay clear of the map's other places (`travel_places`:
    only five in the forest must move, off its routes' costs); where more do, in a strip
    under the map, in rows after the city's letter (`crowd_rows`: no city has room for
    six about it)."""
    x0, y0 = SIDE_X, MAP_Y
    places = travel_places(view, x0, y0)
    others = [b for key in ("cost", "reward", "visits", "city") for b in places[key]]
    r = ROOMY_R
    spots: list[Spot] = []
    for k, city in enumerate(CITY_XY):
        travellers = members(view, "travellers", where=city) if city != "village" else []
        if len(travellers) <= 3:
            spots += traveller_spots(view, x0, y0, only=city)
            continue
        if len(travellers) > TRAVELLERS_MAX:
            continue  # in the strip, below
        n, pitch = len(travellers), 2 * r + 1
        cx, cy = city_at(city, x0, y0)
        xs = [cx + (i - (n - 1) / 2) * pitch for i in range(n)]
        row_y = cy + CITY_R + r + 4
        lowest = y0 + MAP_H - r - 3
        while row_y < lowest and any(
            _overlap((xs[0] - r, row_y - r - 3, xs[-1] + r, row_y + r + 2), b) for b in others
        ):
            row_y += 1
        spots += [(k, s, m, x, row_y, r) for x, (s, m) in zip(xs, travellers, strict=True)]
    return spots + [
        (k, seat, number, x, y, r)
        for k, _, y, line in crowd_rows(view)
        for x, (seat, number) in zip(crowd_xs(len(line)), line, strict=True)
    ]


# The strip under a phone's map (`roomy_traveller_spots`): a row a crowded city (more if
# its travellers need them), its letter's disc first, then its travellers in a row.
STRIP_GAP = 6  # between the map and the strip
STRIP_ROW = 2 * ROOMY_R + 10  # a row's height
STRIP_LETTER = 40  # the letter's disc's room, left of the travellers
STRIP_PER_ROW = (SIDE_W - STRIP_LETTER - 12) // (2 * ROOMY_R + 1)


def crowd_rows(view: dict[str, Any]) -> list[tuple[int, str, float, list[tuple[int, int | str]]]]:
    """The strip's rows: each city's index in CITY_XY, the city (empty on a row that goes
    on with the city's travellers), the row's centre and its travellers."""
    rows: list[tuple[int, str, float, list[tuple[int, int | str]]]] = []
    for k, city in enumerate(CITY_XY):
        travellers = members(view, "travellers", where=city) if city != "village" else []
        if len(travellers) <= TRAVELLERS_MAX:
            continue
        for i in range(0, len(travellers), STRIP_PER_ROW):
            y = MAP_Y + MAP_H + STRIP_GAP + (len(rows) + 0.5) * STRIP_ROW
            rows.append((k, city if i == 0 else "", y, travellers[i : i + STRIP_PER_ROW]))
    return rows


def crowd_xs(n: int) -> list[float]:
    """The x of each of a strip's row's `n` travellers."""
    pitch = 2 * ROOMY_R + 1
    return [SIDE_X + STRIP_LETTER + ROOMY_R + 4 + i * pitch for i in range(n)]


def roomy_map_bottom(view: dict[str, Any]) -> float:
    """The bottom of a phone's map, with its strip of crowded cities' travellers (if any)."""
    rows = len(crowd_rows(view))
    return MAP_Y + MAP_H + (STRIP_GAP + rows * STRIP_ROW + 4 if rows else 0)


def draw_crowd_strip(d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """The strip's panel and each crowded city's letter (as on the map, smaller), on a
    picture reaching `roomy_map_bottom` (the travellers: `draw_traveller_members`)."""
    rows = crowd_rows(view)
    if not rows:
        return
    top = MAP_Y + MAP_H + STRIP_GAP
    box(d, (SIDE_X, top, SIDE_X + SIDE_W, roomy_map_bottom(view)), (226, 234, 214))
    for _, city, y, _ in rows:
        if city:
            cx, r = SIDE_X + STRIP_LETTER / 2 + 2, STRIP_ROW / 2 - 1
            d.ellipse((cx - r, y - r, cx + r, y + r), fill=(250, 244, 228), outline=INK, width=2)
            text(d, (cx, y), CITY_LETTER[city], 18)


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def draw_bag_frame(d: ImageDraw.ImageDraw, x0: int, y0: int, w: int, h: int) -> None:
    d.rounded_rectangle((x0, y0, x0 + w, y0 + h), radius=14, fill=(40, 36, 36), outline=LINE)


def draw_bag_pieces(
    d: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y0: int, w: int, h: int
) -> None:
    """The black bag, open for all to see: its count, then monks and family members."""
    bag = view["black_bag"]
    text(d, (x0 + 30, y0 + h / 2), len(bag), size=30, fill=(250, 250, 250))
    pawn_grid(d, *bag_grid(view, x0, y0, w, h)[0])


def bag_grid(view: dict[str, Any], x0: int, y0: int, w: int, h: int) -> list[Grid]:
    tokens: list[tuple[int, int | str]] = [(t["seat"], t["number"]) for t in view["black_bag"]]
    return [(tokens, (x0 + 60, y0 + 3, w - 68, h - 6), 12)]


Spot = tuple[int, int, int | str, float, float, int]
"""A member standing on the table: where (its workshop, stage or city, in the table's order;
0 in the bag), its seat, number, centre and radius."""


def member_spots(view: dict[str, Any], where: str) -> list[Spot]:
    """Where the members of the workshops ('crafts'), the council, the church, the black
    bag ('bag') or the travellers on the map ('map') stand on the table, as drawn (a
    decision's picture marks some of them)."""
    if where == "map":
        return traveller_spots(view, SIDE_X, MAP_Y)
    grids = {
        "crafts": lambda: workshop_grids(view, BOARD_X, 316),
        "council": lambda: stage_grids(council_tokens(view), BOARD_X, 414),
        "church": lambda: stage_grids(church_tokens(view), CHURCH, 414),
        "bag": lambda: bag_grid(view, SIDE_X, 336, SIDE_W, 52),
    }[where]()
    return [
        (k, seat, number, x, y, r)
        for k, (tokens, box_xy, r_max) in enumerate(grids)
        for (seat, number), (x, y, r) in zip(
            tokens, grid_spots(len(tokens), box_xy, r_max), strict=True
        )
    ]


def traveller_spots(view: dict[str, Any], x0: int, y0: int, only: str = "") -> list[Spot]:
    """The travellers under each city (`draw_travellers`), or under `only` that one."""
    spots: list[Spot] = []
    for k, city in enumerate(CITY_XY):
        if city == "village" or (only and city != only):
            continue
        travellers = members(view, "travellers", where=city)
        r, row_y, xs = traveller_row(*city_at(city, x0, y0), len(travellers))
        spots += [(k, s, n, x, row_y, r) for x, (s, n) in zip(xs, travellers, strict=True)]
    return spots


GRAVES_X = 300  # the graves, right of the chronicle's slots


def draw_chronicle_frame(d: ImageDraw.ImageDraw, x0: int, y0: int, w: int, h: int) -> None:
    box(d, (x0, y0, x0 + w, y0 + h), (236, 226, 204))
    row = (h - 8) / len(CATEGORIES)
    for i, cat in enumerate(CATEGORIES):
        space_icon(d, cat, x0 + 20, y0 + 4 + i * row + row / 2, 9)
    gx = x0 + GRAVES_X
    d.rounded_rectangle((gx, y0 + 6, x0 + w - 6, y0 + h - 6), radius=8, fill=(200, 196, 186))


def draw_chronicle_marks(
    d: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y0: int, w: int, h: int
) -> None:
    """The chronicle, a row per profession (the dead lie in its slots; blocked slots grey),
    and the graves beside it."""
    row = (h - 8) / len(CATEGORIES)
    for i, cat in enumerate(CATEGORIES):
        y = y0 + 4 + i * row
        for k, mark in enumerate(view["chronicle"][cat]):
            x = x0 + 40 + k * 50
            slot(d, (x, y + 2, x + 46, y + row - 2), mark)
    gx = x0 + GRAVES_X
    for k, mark in enumerate(view["graves"]):
        cx, cy = gx + 32 + (k % 3) * 62, y0 + 12 + (k // 3) * 56
        grave(d, cx, cy, mark)
        if mark not in ("x", "", "k"):  # the dead of a seat (not Karla's) carry its number
            seat = int(mark)
            text(d, (cx, cy + 27), seat + 1, size=13, fill=contrast(seat_colour(seat)))


@stamps.shape(lambda mark: (-26, -2, 28, 54))
def grave(d: ImageDraw.ImageDraw, cx: float, cy: float, mark: str) -> None:
    """A grave, crossed when blocked, with the dead lying on it."""
    d.rounded_rectangle(
        (cx - 24, cy, cx + 24, cy + 50), radius=16, fill=(160, 156, 150), outline=INK
    )
    if mark == "x":
        d.line((cx - 12, cy + 12, cx + 12, cy + 40), fill=INK, width=3)
        d.line((cx + 12, cy + 12, cx - 12, cy + 40), fill=INK, width=3)
    elif mark:
        pawn_body(d, cx, cy + 28, -1 if mark == "k" else int(mark), 11, True)


def slot(d: ImageDraw.ImageDraw, xy: tuple[float, float, float, float], mark: str) -> None:
    x0, y0, x1, y1 = xy
    slot_face(d, x0, y0, x1 - x0, y1 - y0, mark)
    seat = -1 if mark in ("x", "", "k") else int(mark)
    if seat >= 0:
        text(d, ((x0 + x1) / 2, (y0 + y1) / 2), seat + 1, 14, contrast(seat_colour(seat)))


@stamps.shape(lambda w, h, mark: (-3, -3, math.ceil(w) + 5, math.ceil(h) + 5))
def slot_face(d: ImageDraw.ImageDraw, x0: float, y0: float, w: float, h: float, mark: str) -> None:
    """A chronicle slot: blocked (x), free, or with a seat's dead (k: Karla's)."""
    xy = (x0, y0, x0 + w, y0 + h)
    if mark == "x":
        d.rounded_rectangle(xy, radius=6, fill=(190, 184, 172))
        return
    d.rounded_rectangle(xy, radius=6, fill=(250, 244, 228), outline=LINE)
    if mark:
        colour = seat_colour(-1 if mark == "k" else int(mark))
        d.rounded_rectangle(
            (x0 + 3, y0 + 3, x0 + w - 3, y0 + h - 3), radius=5, fill=colour, outline=INK
        )


# -- farmyards ------------------------------------------------------------------------


def draw_time_track_frame(
    d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, length: int
) -> None:
    dot = r / 6
    for k in range(length):
        a = -math.pi / 2 + (k + 0.5) * 2 * math.pi / length
        x, y = cx + r * math.cos(a), cy + r * math.sin(a)
        d.ellipse((x - dot, y - dot, x + dot, y + dot), fill=(236, 226, 204), outline=LINE)


def draw_time_marker(
    d: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    r: float,
    length: int,
    position: int,
    seat: int,
    scale: float = 1,
) -> None:
    """The seat's marker on its time track (and the quill at the track's top)."""
    u = Scale(scale)
    dot = r / 6
    a = -math.pi / 2 + (position + 0.5) * 2 * math.pi / length
    x, y = cx + r * math.cos(a), cy + r * math.sin(a)
    marker = dot + u(5)
    seat_shape(d, x, y, marker, seat, width=u.i(3))
    quill(d, cx, cy - r, u(9))


def chip(
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    what: str,
    n: int,
    s: int,
    seat: int,
    size: int,
    scale: float = 1,
) -> None:
    """An icon of size s and a count beside it in a font of the given size, greyed when
    zero (`scale`: see `Scale`)."""
    lines = lined(scale)
    if what in CUBES:
        cube(d, x + 1, y + 1, what, s - 2, *lines)
    elif what in GOODS:
        good(d, x, y, what, s, *lines)
    elif what == "coins":
        coin(d, x, y, s)
    elif what == "customers":
        customers_icon(d, x, y, s, *lines)
    elif what == "cities":
        cities_icon(d, x, y, s, seat)
    text(d, (x + s + 5, y + s / 2), n, size, INK if n else MUTED, "lm")


def lined(scale: float) -> tuple[int, ...]:
    """A glyph's line width at `scale`, as its last argument: none at the table's size (its
    stamps are the table's), else the scaled width of its 1-pixel lines."""
    width = Scale(scale).i(1)
    return (width,) if width != 1 else ()


@stamps.shape(lambda s, lw=1: square(s))
def customers_icon(d: ImageDraw.ImageDraw, x: float, y: float, s: int, lw: int = 1) -> None:
    box = (x + 2, y, x + s - 2, y + s)
    d.rounded_rectangle(box, radius=4, fill=(120, 150, 190), outline=INK, width=lw)


@stamps.shape(lambda s, seat: square(s), movable=lambda s, seat: thin(seat_shape_name(seat), 2))
def cities_icon(d: ImageDraw.ImageDraw, x: float, y: float, s: int, seat: int) -> None:
    seat_shape(d, x + s / 2, y + s / 2, s / 2 - 3, seat, width=2)
    d.ellipse((x + s / 2 - 3, y + s / 2 - 3, x + s / 2 + 3, y + s / 2 + 3), fill=INK)


YARD = (246, 238, 214)


def draw_player(
    d: ImageDraw.ImageDraw, view: dict[str, Any], seat: int, x0: int, y0: int, w: int, h: int
) -> None:
    """A farmyard alone on the table's background: seat and prestige in the header, the
    time track with the family at home, the cubes, goods and holdings as counts, the unborn
    family, the final score."""
    at = (x0, y0, x0 + w + 1, y0 + h + 1)
    d._image.paste(alone(draw_yard_frame, (seat, view["track_length"], x0, y0, w, h), at), at)
    draw_yard(d, view, seat, x0, y0, w, h)


FRAMES = 24  # private pictures (1-2 MB) by seat and height, farmyards and Karla alone


@lru_cache(maxsize=FRAMES)
def alone(
    draw_frame: Callable[..., None], args: tuple[Any, ...], box: tuple[int, int, int, int]
) -> Image.Image:
    """A part's frame drawn where it goes on the table's background, cut out at `box`
    (which it stays in), to be pasted there whole."""
    canvas = Image.new("RGB", box[2:], BACKGROUND)
    draw_frame(ImageDraw.Draw(canvas), *args)
    return canvas.crop(box)


def yard_track(
    x0: float, y0: float, w: int, scale: float = 1, own: bool = False
) -> tuple[float, float, float]:
    """The centre and radius of a farmyard's time track: narrow yards (4 and 5 players) put
    the goods in a row under it; wide ones (2 players, solo) draw everything larger. `w` is
    the yard's width on the table; `scale` the size it is drawn at (see `Scale`). A seat's
    own farmyard (`own`: the private picture and the phone's own area, not the table) has a
    larger track, the family at home inside it large enough to read its numbers by
    (`home_spots`)."""
    u = Scale(scale)
    narrow, wide = w < 420, w >= 560
    r = u((44 if w < 300 else 50) if narrow else 64 if wide else OWN_TRACK if own else 50)
    return x0 + u(18) + r, y0 + u(64 if narrow else 56) + r, r


def draw_yard_frame(
    d: ImageDraw.ImageDraw,
    seat: int,
    track_length: int,
    x0: float,
    y0: float,
    w: int,
    h: int,
    scale: float = 1,
    own: bool = False,
) -> None:
    """A farmyard's board: its header in the family's colour with the seat number on the
    family's shape (the key to the shapes of its members), the time track's spaces. `w`
    and `h` are its size on the table; it is drawn `scale` times that (see `Scale`)."""
    u = Scale(scale)
    colour = seat_colour(seat)
    right = x0 + u(w)
    box(d, (x0, y0, right, y0 + u(h)), YARD, u.i(10), u.i(2))
    edge = INK if light(colour) else LINE
    header = (x0, y0, right, y0 + u(44))
    d.rounded_rectangle(header, radius=u.i(10), fill=colour, outline=edge, width=u.i(2))
    seat_shape(d, x0 + u(25), y0 + u(22), u(18), seat, fill=(250, 246, 236), width=u.i(2))
    text(d, (x0 + u(25), y0 + u(21)), seat + 1, size=u.font(26))
    draw_time_track_frame(d, *yard_track(x0, y0, w, scale, own), track_length)


def draw_yard(
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    seat: int,
    x0: float,
    y0: float,
    w: int,
    h: int,
    scale: float = 1,
    own: bool = False,
) -> None:
    """What is on a farmyard (drawn on its frame; `w` and `h` its size on the table, drawn
    `scale` times that, see `Scale`): the ring of a seat that must act, then its pieces
    (`own`: see `yard_track`)."""
    draw_yard_ring(d, view, seat, x0, y0, w, h, scale)
    draw_yard_pieces(d, view, seat, x0, y0, w, h, scale, own)


def draw_yard_ring(
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    seat: int,
    x0: float,
    y0: float,
    w: int,
    h: int,
    scale: float = 1,
) -> None:
    """The thick ring about the farmyard of a seat that must act (no piece lies under it:
    it may be drawn before them or after)."""
    if seat in view["active"]:
        u = Scale(scale)
        active = (x0 - u(3), y0 - u(3), x0 + u(w) + u(3), y0 + u(h) + u(3))
        d.rounded_rectangle(active, u.i(12), outline=INK, width=u.i(5))


def draw_yard_pieces(
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    seat: int,
    x0: float,
    y0: float,
    w: int,
    h: int,
    scale: float = 1,
    own: bool = False,
) -> None:
    u = Scale(scale)
    p = view["players"][seat]
    colour = seat_colour(seat)
    right, bottom = x0 + u(w), y0 + u(h)
    ink = contrast(colour)
    x = x0 + u(52)
    if view["start_player"] == seat:
        first = (x, y0 + u(10), x + u(24), y0 + u(34))
        d.ellipse(first, fill=(250, 250, 250), outline=INK, width=u.i(2))
        x += u(34)
    # Solo: the marker is a coin until spent (then it is gone till the next round).
    if view["next_start"] == seat and (not view.get("solo") or p["marker_coin"]):
        ring(d, x + u(10), y0 + u(25), INK, p["marker_coin"], scale)
        x += u(30)
    if p["deaths_due"]:
        quill(d, x + u(10), y0 + u(22), u(11))
        text(d, (x + u(32), y0 + u(22)), p["deaths_due"], size=u.font(26), fill=ink)
    star(d, right - u(78), y0 + u(22), u(16))
    text(d, (right - u(38), y0 + u(22)), p["prestige"], size=u.font(34), fill=ink)
    draw_yard_holdings(d, p, seat, (x0, y0, w, track_length(view)), scale, own)
    draw_unborn(d, p["unborn"], seat, x0, y0 + u(222 if w < 420 or w >= 560 else 218), scale)
    if "scores" in view:
        d.rounded_rectangle(
            (x0 + u(8), bottom - u(40), right - u(8), bottom - u(6)),
            radius=u.i(8),
            fill=(252, 232, 160),
            outline=INK,
        )
        star(d, x0 + u(28), bottom - u(23), u(13))
        text(d, (x0 + u(w) / 2, bottom - u(23)), view["scores"][seat], size=u.font(32))


def track_length(view: dict[str, Any]) -> int:
    return int(view["track_length"])


def draw_yard_holdings(
    d: ImageDraw.ImageDraw,
    p: dict[str, Any],
    seat: int,
    where: tuple[float, float, int, int],
    scale: float,
    own: bool = False,
) -> None:
    """The time track's marker and the family at home; the cubes, goods and holdings as
    counts (`where`: the yard's corner, its width on the table, the track's length)."""
    u = Scale(scale)
    x0, y0, w, length = where
    narrow, wide = w < 420, w >= 560
    row = u(29 if narrow else 31 if wide else 30)
    s0, size0 = (22, 24) if w < 300 else (24, 28) if narrow else (30, 34) if wide else (26, 30)
    s, size = u.i(s0), u.font(size0)
    cx, cy, r = yard_track(x0, y0, w, scale, own)
    draw_time_marker(d, cx, cy, r, length, p["time"], seat, scale)
    if own:
        least = Scale(scale).font(HOME_FONT)
        for n, (x, y, pr) in zip(p["farm"], home_spots(len(p["farm"]), cx, cy, scale), strict=True):
            token(d, x, y, seat, n, pr, scale, least_font=least)
    else:
        pawn_grid(d, *farm_grid(p, seat, x0, y0, w, scale), centre=True, scale=scale)

    cubes = list(p["cubes"].items())
    goods = list(p["goods"].items())
    # Coins as the score counts them; an unspent solo marker shows on its ring (below).
    held = [("grain", p["grain"]), ("coins", p["coins"])]
    held += [("customers", p["customers"]), ("cities", len(p["cities"]))]
    left = cx + r + u(22)
    columns = [cubes, held] if narrow else [cubes, goods, held]
    right = x0 + u(w)
    if narrow:
        step = (u(w) - u(16)) / len(goods)
        for k, (name, n) in enumerate(goods):
            at = (x0 + u(8) + k * step, y0 + u(184))
            chip(d, *at, name, n, u.i(s0 - 2), seat, u.font(size0 - 2), scale)
    col_w = (right - u(8) - left) / len(columns)
    for c, items in enumerate(columns):
        for k, (name, n) in enumerate(items):
            chip(d, left + c * col_w, y0 + u(54) + k * row, name, n, s, seat, size, scale)


def farm_grid(p: dict[str, Any], seat: int, x0: float, y0: float, w: int, scale: float = 1) -> Grid:
    """The family at home, inside the time track of a farmyard at (x0, y0), `w` wide on the
    table, drawn `scale` times that: its tokens, box and largest radius (`pawn_grid`,
    centred)."""
    cx, cy, r = yard_track(x0, y0, w, scale)
    inner = r * 0.62
    farm: list[tuple[int, int | str]] = [(seat, n) for n in p["farm"]]
    return farm, (cx - inner, cy - inner, 2 * inner, 2 * inner), 14 if w >= 560 else 12


def farm_spots(
    view: dict[str, Any],
    seat: int,
    x0: float,
    y0: float,
    w: int,
    scale: float = 1,
    own: bool = False,
) -> list[Spot]:
    """Where a farmyard's family at home stands as drawn (`draw_yard_holdings`; the radius
    as drawn, `scale` times the table's): a decision's picture marks some of them."""
    if own:
        farm = view["players"][seat]["farm"]
        cx, cy, _ = yard_track(x0, y0, w, scale, own)
        at_home = home_spots(len(farm), cx, cy, scale)
        return [(0, seat, n, x, y, r) for n, (x, y, r) in zip(farm, at_home, strict=True)]
    tokens, box_xy, r_max = farm_grid(view["players"][seat], seat, x0, y0, w, scale)
    spots = grid_spots(len(tokens), box_xy, r_max, centre=True, scale=scale)
    return [(0, s, n, x, y, r) for (s, n), (x, y, r) in zip(tokens, spots, strict=True)]


OWN_TRACK = 62  # an own farmyard's time track's radius (the table's is 50 in its width)
HOME_FONT = 14  # the least font of a number at home in an own farmyard (9 px at 400 on a phone)
HOME_ROOM = OWN_TRACK - OWN_TRACK / 6 - 5  # inside the track's spaces and the time marker


def home_spots(
    count: int, cx: float, cy: float, scale: float = 1
) -> list[tuple[float, float, int]]:
    """Where an own farmyard's family at home stands inside its time track about (cx, cy):
    in rows, as large as the track's inside holds them (12 on the table at most, 8 at
    least), none overlapping another (the widest shapes reach 1.25 times the radius, 3
    above the centre, the body 2 below the radius)."""
    if not count:
        return []
    u = Scale(scale)
    for size in range(12, 7, -1):
        rows = _home_rows(count, size)
        if rows is not None:
            break
    else:
        size, rows = 8, _balanced(count, math.ceil(math.sqrt(count)))
    across, down = 2.5 * size + 2, 2.25 * size + 6
    spots = []
    for i, in_row in enumerate(rows):
        y = (i - (len(rows) - 1) / 2) * down
        for j in range(in_row):
            x = (j - (in_row - 1) / 2) * across
            spots.append((cx + u(x), cy + u(y), u.i(size)))
    return spots


def _home_rows(count: int, size: int) -> list[int] | None:
    """The fewest rows of `count` members of radius `size` that fit inside the track, as
    many in each (the middle rows the fuller), or None."""
    across, down, reach = 2.5 * size + 2, 2.25 * size + 6, 1.25 * size + 2
    for k in range(1, count + 1):
        rows = _balanced(count, k)
        fits = all(
            math.hypot((j - (n - 1) / 2) * across, (i - (k - 1) / 2) * down) + reach <= HOME_ROOM
            for i, n in enumerate(rows)
            for j in range(n)
        )
        if fits:
            return rows
    return None


def _balanced(count: int, k: int) -> list[int]:
    """`count` in `k` rows differing by one at most, the fuller ones nearest the middle."""
    base, extra = divmod(count, k)
    middle = sorted(range(k), key=lambda i: abs(i - (k - 1) / 2))[:extra]
    return [base + (i in middle) for i in range(k)]


def draw_unborn(
    d: ImageDraw.ImageDraw, unborn: list[int], seat: int, x0: float, y: float, scale: float
) -> None:
    """Unborn family members: pale shapes of the family's colour, a row at height `y`."""
    u = Scale(scale)
    colour = seat_colour(seat)
    red, green, blue = ((c + 2 * yc) // 3 for c, yc in zip(colour, YARD, strict=True))
    pale = (red, green, blue)
    for k, n in enumerate(unborn):
        x = x0 + u(20) + k * u(24)
        outline = MUTED if light(colour) else LINE
        seat_shape(d, x, y, u(11), seat, fill=pale, outline=outline, width=u.i(2))
        text(d, (x, y), n, size=u.font(15), fill=INK)


def draw_karla(
    d: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y0: int, w: int, h: int
) -> None:
    """Karla's board: the ring of cube spaces (the last one lit) with the fate tiles
    between them, her members beside the council and waiting for the church, her
    customers and her dead."""
    at = (x0, y0, x0 + w + 1, y0 + h + 1)
    d._image.paste(alone(draw_karla_frame, (x0, y0, w, h), at), at)
    draw_karla_pieces(d, view, x0, y0, w, h)


def draw_karla_frame(d: ImageDraw.ImageDraw, x0: int, y0: int, w: int, h: int) -> None:
    box(d, (x0, y0, x0 + w, y0 + h), (222, 232, 224))
    d.rounded_rectangle((x0, y0, x0 + w, y0 + 44), radius=10, fill=KARLA, outline=LINE, width=2)
    pawn(d, x0 + 26, y0 + 24, -1, "", 12)


def draw_karla_pieces(
    d: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y0: int, w: int, h: int
) -> None:
    k = view["karla"]
    r = min(88, (h - 44) / 2 - 26)
    cx, cy = x0 + 22 + r + 18, y0 + 44 + (h - 44) / 2
    n = len(k["ring"])
    tiles = dict(zip([2, 4, 6], k["top"], strict=False))
    tiles.update(zip([8, 10, 0], k["bottom"], strict=False))
    for i in range(n):
        a = -math.pi / 2 + i * 2 * math.pi / n
        x, y = cx + r * math.cos(a), cy + r * math.sin(a)
        ring_space(d, x, y, i == k["last"], tuple(k["ring"][i][:4]))
        if i in tiles:
            b = a - math.pi / n
            fate_tile(d, cx + (r - 42) * math.cos(b), cy + (r - 42) * math.sin(b), tiles[i])
    space_icon(d, "council", cx, cy, 14)
    right = cx + r + 40
    space_icon(d, "council", right + 16, y0 + 80, 14)
    pawn_grid(d, [(-1, m) for m in k["beside"]], (right + 40, y0 + 62, x0 + w - right - 48, 36))
    space_icon(d, "church", right + 16, y0 + 136, 14)
    pawn_grid(d, [(-1, m) for m in k["waiting"]], (right + 40, y0 + 118, x0 + w - right - 48, 36))
    chip(d, right + 4, y0 + 180, "customers", k["customers"], 30, -1, 34)
    quill(d, right + 130, y0 + 195, 14)
    text(d, (right + 152, y0 + 195), k["dead"], 34, INK, "lm")


@stamps.shape(lambda last, cubes: around(17))
def ring_space(
    d: ImageDraw.ImageDraw, x: float, y: float, last: bool, cubes: tuple[str, ...]
) -> None:
    """A space of Karla's ring with its cubes, lit when it was her last."""
    d.rounded_rectangle(
        (x - 17, y - 17, x + 17, y + 17),
        radius=5,
        fill=(255, 236, 180) if last else (250, 250, 244),
        outline=INK if last else LINE,
        width=3 if last else 2,
    )
    if len(cubes) == 1:
        cube(d, x - 10, y - 10, cubes[0], 20)
    for j, colour in enumerate(cubes if len(cubes) > 1 else ()):
        cube(d, x - 14 + (j % 2) * 15, y - 14 + (j // 2) * 15, colour, 13)


@stamps.shape(lambda face: around(13))
def fate_tile(d: ImageDraw.ImageDraw, tx: float, ty: float, face: str) -> None:
    """A fate tile between the ring's spaces: face down (?), or face up."""
    fill = (90, 80, 70) if face == "?" else (250, 250, 250)
    d.rounded_rectangle((tx - 13, ty - 13, tx + 13, ty + 13), radius=4, fill=fill, outline=INK)
    if face == "quill":
        quill(d, tx, ty, 9)


# -- the private picture --------------------------------------------------------------

PRIVATE_W = 920
TILE = 84


def render_private(view: dict[str, Any]) -> Image.Image | None:
    """The seat's farmyard beside its served customers, face up with their points (the
    seat's one secret) and their sum."""
    you = view.get("you")
    if not you:
        return None
    seat = you["seat"]
    height = private_height(you)
    frame = (seat, view["track_length"], height)
    image = alone(draw_private_frame, frame, (0, 0, PRIVATE_W, height)).copy()
    d = ImageDraw.Draw(image)
    draw_yard(d, view, seat, *YOUR_YARD, own=True)
    draw_customers_pieces(d, you, *YOUR_CUSTOMERS, PRIVATE_W - 16)
    return image


def private_height(you: dict[str, Any]) -> int:
    rows = max(1, math.ceil(len(you["customers"]) / 4))
    return max(308, 96 + rows * (TILE + 10))


YOUR_YARD = (16, 16, 420, 276)  # x0, y0, w, h
YOUR_CUSTOMERS = (452, 16)
PRIVATE_SPLIT = 444  # between the farmyard (16-436) and the customers' panel (452-904)
HALVES = {"yard": (0, PRIVATE_SPLIT), "customers": (PRIVATE_SPLIT, PRIVATE_W)}


def render_private_half(view: dict[str, Any], half: str, width: int) -> Image.Image | None:
    """A half of the private picture ("yard" or "customers", `HALVES`: where it is cut)
    drawn `width` px wide: at the size a phone shows it, not drawn at its own and enlarged
    (renderers/phone/village.py); at its own width, the private picture's pixels there.
    Kept by what it shows (`kept_half`): the same picture for the same, not to be drawn on
    (callers copy it)."""
    you = view.get("you")
    if not you:
        return None
    kept = kept_half((half, width, *half_shows(view, half)))
    if not kept:
        kept.append(draw_private_half(view, you, half, width))
    return kept[0]


# The own areas' halves a worker drew last: a seat's decision picture (580 px wide under the
# market; most at 476, the farmyard alone) and its own area (476 px) each hold two; 0.6 MiB
# a half at 476 px, 1.5-2 MiB at 768 (taller with more customers served): 16 MiB at most.
HALVES_KEPT = 8


@lru_cache(maxsize=HALVES_KEPT)
def kept_half(key: tuple[Any, ...]) -> list[Image.Image]:
    """Where the half drawn under `key` is kept (empty until it is drawn): by the half, its
    width and what it shows. A seat's served customers seldom change; its farmyard, while
    others play, neither."""
    return []


def half_shows(view: dict[str, Any], half: str) -> tuple[Any, ...]:
    """What a half of the private picture shows: its seat, height (the customers' rows) and
    frame; the farmyard's pieces, with its ring, or the customers served and their points."""
    you = view["you"]
    seat = you["seat"]
    frame = (seat, private_height(you), view["track_length"])
    if half == "yard":
        return (*frame, seat in view["active"], *yard_shows(view, seat))
    return (*frame, repr(you["customers"]), you["customer_points"])


def draw_private_half(
    view: dict[str, Any], you: dict[str, Any], half: str, width: int
) -> Image.Image:
    left, right = HALVES[half]
    scale = width / (right - left)
    u = Scale(scale)
    height = private_height(you)
    frame = (half, you["seat"], view["track_length"], height, scale)
    image = alone(draw_half_frame, frame, (0, 0, width, u.i(height))).copy()
    d = ImageDraw.Draw(image)
    if half == "yard":
        x0, y0, w, h = YOUR_YARD
        draw_yard(d, view, you["seat"], u(x0), u(y0), w, h, scale, own=True)
    else:
        x0, y0 = YOUR_CUSTOMERS
        draw_customers_pieces(d, you, u(x0 - left), u(y0), u(PRIVATE_W - 16 - left), scale)
    return image


def draw_half_frame(
    d: ImageDraw.ImageDraw, half: str, seat: int, track_length: int, height: int, scale: float
) -> None:
    u = Scale(scale)
    if half == "yard":
        x0, y0, w, h = YOUR_YARD
        draw_yard_frame(d, seat, track_length, u(x0), u(y0), w, h, scale, own=True)
        return
    x0, y0 = YOUR_CUSTOMERS
    left = HALVES[half][0]
    right, bottom = u(PRIVATE_W - 16 - left), u(height - 16)
    draw_customers_frame(d, seat, (u(x0 - left), u(y0), right, bottom), scale)


def draw_customers_pieces(
    d: ImageDraw.ImageDraw,
    you: dict[str, Any],
    x0: float,
    y0: float,
    right: float,
    scale: float = 1,
) -> None:
    """The served customers' count and points in the panel's header, and the customers."""
    u = Scale(scale)
    tiles = you["customers"]
    ink = contrast(seat_colour(you["seat"]))
    text(d, (x0 + u(60), y0 + u(26)), len(tiles), u.font(34), ink, "lm")
    star(d, right - u(94), y0 + u(26), u(16))
    text(d, (right - u(44), y0 + u(26)), you["customer_points"], size=u.font(34), fill=ink)
    s, step = u.i(TILE), u(TILE + 10)
    for k, tile in enumerate(tiles):
        x, y = x0 + u(16) + (k % 4) * step, y0 + u(66) + (k // 4) * step
        customer_tile(d, x, y, tile, s, scale)
    if not tiles:
        customer_tile(d, x0 + u(16), y0 + u(66), None, s, scale)


def draw_private_frame(d: ImageDraw.ImageDraw, seat: int, track_length: int, height: int) -> None:
    """The seat's farmyard's frame and its customers' panel, header and customer icon."""
    draw_yard_frame(d, seat, track_length, *YOUR_YARD, own=True)
    draw_customers_frame(d, seat, (*YOUR_CUSTOMERS, PRIVATE_W - 16, height - 16))


def draw_customers_frame(
    d: ImageDraw.ImageDraw, seat: int, at: tuple[float, float, float, float], scale: float = 1
) -> None:
    u = Scale(scale)
    x0, y0, right, _ = at
    box(d, at, PANEL, u.i(10), u.i(2))
    header = (x0, y0, right, y0 + u(52))
    d.rounded_rectangle(header, radius=u.i(10), fill=seat_colour(seat), outline=LINE, width=u.i(1))
    icon = (x0 + u(16), y0 + u(10), x0 + u(48), y0 + u(42))
    d.rounded_rectangle(icon, radius=u.i(4), fill=(120, 150, 190), outline=INK, width=u.i(2))
