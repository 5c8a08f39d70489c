"""Coffee Traders at the table: the five cooperatives, the Arabica track, the Coffee Bars,
milestones and every player board, drawn from the spectator view (no words). Each coffee
has a shape as well as a colour, and every piece on the board its owner's seat number, so
the table reads for players with a red-green colour deficiency.

Discord shows the picture inline about 550 px wide, so the canvas is 1400 px wide and about
1.6 times as wide as tall: what decides the game (period, phase, whose turn, plantations and
their levels, who holds the Coffee Bars, coins, coffee, scores) is drawn large enough to read
at that size; the finer print (costs, contract wants, counters) reads after a tap."""

from __future__ import annotations

import json
from functools import cache, lru_cache, partial
from typing import Any

from PIL import Image, ImageDraw

from meeple_hall.renderers import parts
from meeple_hall.renderers.palette import BACKGROUND, INK, MUTED, SEAT_COLOURS, font
from meeple_hall.renderers.shapes import draw_shape
from meeple_hall.renderers.stamps import rounded_rectangle

WIDTH = 1400
MARGIN = 12
# the type of the numbers that must read inline: digits 9 px tall at 550 px wide
BIG = 34
COFFEES = ("gua", "col", "bra", "eth", "ind")
COFFEE_COLOURS = {
    "gua": (232, 122, 48),
    "col": (176, 138, 92),
    "bra": (224, 96, 150),
    "eth": (140, 182, 60),
    "ind": (44, 158, 150),
    "kopi": (92, 62, 42),
}
ANDRE_COLOUR = (150, 150, 150)
PANEL = (232, 221, 198)
PANEL_DARK = (214, 199, 170)
EMPTY_SPACE = (224, 212, 186)
GOLD = (238, 190, 60)
PALE_GOLD = (240, 222, 170)
WHITE = (255, 255, 255)
DONKEY_BROWN = (140, 120, 100)
PHASES = ("work", "assign", "trade", "harvest", "sell", "refresh")
NUMERALS = ("I", "II", "III", "IV", "V", "VI")

Draw = ImageDraw.ImageDraw


def seat_colour(view: dict[str, Any], seat: int | None) -> tuple[int, int, int]:
    if seat is None:
        return MUTED
    andre = view.get("andre")
    if andre is not None and seat == andre["seat"]:
        return ANDRE_COLOUR
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def ink_on(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """White type on dark fills, ink on light ones."""
    return WHITE if sum(colour) < 380 else INK


def text(draw: Draw, xy: tuple[float, float], value: Any, size: int = 14, fill: Any = INK) -> None:
    """`value` centred on xy. The same few numbers come back hundreds of times a picture, so
    each is rasterised once and stamped from then on (a third of the drawing time)."""
    left, top, mask = glyphs(str(value), size)
    draw.bitmap((round(xy[0]) + left, round(xy[1]) + top), mask, fill=fill)


# A glyph's edge keeps one shade, half-way between the type and what it lies on, where
# FreeType gives up to 254: text is nearly half of a table picture's bytes, and those shades
# two fifths of the text's (a busy 5-player table: 65 KiB with them all, 52 KiB with one, 54
# with two). At Discord's inline size, and enlarged on a tap, the type looks the same.
TEXT_EDGE = tuple(0 if alpha < 64 else 255 if alpha >= 192 else 128 for alpha in range(256))


@cache
def glyphs(value: str, size: int) -> tuple[int, int, Image.Image]:
    """The mask of `value` (its edges one shade, `TEXT_EDGE`) and its offset from the centre
    point."""
    # whole pixels: a FreeType font's box is in them already (Pillow's hints say float)
    left, top, right, bottom = (int(v) for v in font(size).getbbox(value, anchor="mm"))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)))
    ImageDraw.Draw(mask).text((-left, -top), value, font=font(size), fill=255, anchor="mm")
    # in place, the same mask: tests/renderers/legibility.py follows the text drawn on it
    mask.paste(mask.point(TEXT_EDGE))
    return left, top, mask


def seat_badge(draw: Draw, x: float, y: float, seat: int, r: float = 8) -> None:
    """A seat's number on a small white disc, pinned to whatever that seat owns, for
    whoever cannot tell the seat colours apart."""
    disc(draw, x, y, WHITE, r)
    text(draw, (x, y), seat + 1, round(r * 1.5), INK)


# Each coffee has a shape of its own as well as its colour, so that the five kinds read for
# players who cannot tell orange, brown and green (or pink and teal) apart.
COFFEE_SHAPES = {
    "gua": "circle",
    "col": "square",
    "bra": "triangle",
    "eth": "diamond",
    "ind": "hourglass",
    "kopi": "bean",
}


def bean(draw: Draw, x: float, y: float, coffee: str, r: float = 6) -> None:
    """A coffee: its colour in its shape (kopi luwak: a bean with its crease)."""
    fill = COFFEE_COLOURS[coffee]
    if COFFEE_SHAPES[coffee] != "bean":
        draw_shape(draw, COFFEE_SHAPES[coffee], x, y, r, fill=fill)
        return
    draw.ellipse((x - r * 1.1, y - r * 0.6, x + r * 1.1, y + r * 0.6), fill=fill, outline=INK)
    draw.line((x - r * 0.6, y, x + r * 0.6, y), fill=INK, width=max(1, round(r / 8)))


def disc(draw: Draw, x: float, y: float, colour: Any, r: float = 7, width: int = 1) -> None:
    draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=INK, width=width)


def coin(draw: Draw, x: float, y: float, value: Any = "", r: float = 9) -> None:
    draw.ellipse((x - r, y - r, x + r, y + r), fill=GOLD, outline=(150, 110, 20), width=2)
    if value != "":
        text(draw, (x, y), value, size=int(r * 1.25))


def worker(draw: Draw, x: float, y: float, colour: Any = (120, 85, 55), s: float = 1.0) -> None:
    draw.ellipse((x - 3 * s, y - 9 * s, x + 3 * s, y - 3 * s), fill=colour, outline=INK)
    rounded_rectangle(
        draw, (x - 5 * s, y - 3 * s, x + 5 * s, y + 7 * s), 3 * s, fill=colour, outline=INK
    )


def trader(
    draw: Draw, x: float, y: float, colour: Any, s: float = 1.0, seat: int | None = None
) -> None:
    """A trader; `seat`: its owner's number on its coat, for those who cannot tell the seat
    colours apart."""
    draw.polygon(
        [(x, y - 9 * s), (x + 7 * s, y + 8 * s), (x - 7 * s, y + 8 * s)], fill=colour, outline=INK
    )
    draw.ellipse((x - 4 * s, y - 12 * s, x + 4 * s, y - 4 * s), fill=colour, outline=INK)
    if seat is not None:
        text(draw, (x, y + 3 * s), seat + 1, round(9 * s), ink_on(colour))


def donkey(draw: Draw, x: float, y: float, colour: Any, s: float = 1.0) -> None:
    rounded_rectangle(
        draw, (x - 6 * s, y - 3 * s, x + 5 * s, y + 3 * s), 2 * s, fill=colour, outline=INK
    )
    draw.rectangle((x + 3 * s, y - 7 * s, x + 7 * s, y - 2 * s), fill=colour, outline=INK)
    width = max(1, round(s))
    draw.line((x - 4 * s, y + 3 * s, x - 4 * s, y + 7 * s), fill=INK, width=width)
    draw.line((x + 3 * s, y + 3 * s, x + 3 * s, y + 7 * s), fill=INK, width=width)


def civet(draw: Draw, x: float, y: float, s: float = 1.0) -> None:
    """A civet: a long dark body with pointed ears and a ringed tail."""
    fur = (95, 75, 60)
    draw.ellipse((x - 8 * s, y - 3 * s, x + 5 * s, y + 5 * s), fill=fur, outline=INK)
    draw.ellipse((x + 2 * s, y - 6 * s, x + 9 * s, y + 1 * s), fill=fur, outline=INK)
    draw.polygon([(x + 3 * s, y - 5 * s), (x + 4 * s, y - 9 * s), (x + 6 * s, y - 5 * s)], fill=fur)
    draw.line((x - 8 * s, y + 1 * s, x - 13 * s, y - 4 * s), fill=INK, width=max(2, round(2 * s)))


def action_marker(draw: Draw, x: float, y: float, s: float = 1.0) -> None:
    """An Action marker: the black cube of the Work phase, outlined to show on dark seats."""
    rounded_rectangle(
        draw, (x - 7 * s, y - 7 * s, x + 7 * s, y + 7 * s), 2, fill=INK, outline=WHITE
    )


def truck(draw: Draw, x: float, y: float, colour: Any = (90, 90, 90), s: float = 1.0) -> None:
    draw.rectangle((x - 8 * s, y - 5 * s, x + 3 * s, y + 3 * s), fill=colour, outline=INK)
    draw.rectangle((x + 3 * s, y - 2 * s, x + 8 * s, y + 3 * s), fill=colour, outline=INK)
    disc(draw, x - 5 * s, y + 5 * s, INK, 2 * s)
    disc(draw, x + 5 * s, y + 5 * s, INK, 2 * s)


def building(
    draw: Draw,
    x: float,
    y: float,
    kind: str,
    colour: Any,
    step: bool = False,
    s: float = 1.0,
    seat: int | None = None,
) -> None:
    """Production station: a square with a chimney; fair trade post: a diamond; hospital: a
    cross; farm: a house. `seat`: the builder's number on it."""
    fill = colour if colour is not None else PANEL
    outline = INK if colour is not None else MUTED
    # a built one has a heavier outline, to stand out at Discord's inline size
    width = 2 if colour is not None else 1
    if kind == "production":
        draw.rectangle(
            (x - 8 * s, y - 5 * s, x + 8 * s, y + 8 * s), fill=fill, outline=outline, width=width
        )
        draw.rectangle(
            (x + 2 * s, y - 11 * s, x + 6 * s, y - 5 * s), fill=fill, outline=outline, width=width
        )
    elif kind == "fairtrade":
        diamond = [(x, y - 10 * s), (x + 9 * s, y), (x, y + 10 * s), (x - 9 * s, y)]
        draw.polygon(diamond, fill=fill, outline=outline, width=width)
    elif kind == "hospital":
        draw.rectangle(
            (x - 3 * s, y - 9 * s, x + 3 * s, y + 9 * s), fill=fill, outline=outline, width=width
        )
        draw.rectangle(
            (x - 9 * s, y - 3 * s, x + 9 * s, y + 3 * s), fill=fill, outline=outline, width=width
        )
        draw.rectangle((x - 2 * s, y - 2 * s, x + 2 * s, y + 2 * s), fill=fill)
    else:
        house = [(-8, 8), (-8, -1), (0, -9), (8, -1), (8, 8)]
        draw.polygon(
            [(x + dx * s, y + dy * s) for dx, dy in house], fill=fill, outline=outline, width=width
        )
    if seat is not None:
        middle = {"production": 2.0, "farm": 2.5}.get(kind, 0.0)
        text(draw, (x, y + middle * s), seat + 1, round(10 * s), ink_on(fill))
    if step:
        draw.line((x - 4, y + 13 * s, x, y + 10 * s, x + 4, y + 13 * s), fill=INK, width=2)


def counter(draw: Draw, x: float, y: float, token: str, r: float = 7) -> None:
    """Arabica counter: the coffee's shape as a thick coloured outline on white; Animal
    counter: the shape filled, a white dot in it; Wild: a star."""
    if token == "wild":
        draw.regular_polygon((x, y, r + 1), 5, fill=WHITE, outline=INK)
        draw.ellipse((x - 2, y - 2, x + 2, y + 2), fill=INK)
        return
    kind, coffee = token.split(":")
    if kind == "animal":
        bean(draw, x, y, coffee, r)
        draw.ellipse((x - r / 3, y - r / 3, x + r / 3, y + r / 3), fill=WHITE)
        return
    width = max(3, round(r / 2.5))
    colour = COFFEE_COLOURS[coffee]
    draw_shape(draw, COFFEE_SHAPES[coffee], x, y, r, fill=WHITE, outline=colour, width=width)


# -- the header: period, phase, turn order, Sumatra, supplies ------------------------------
HEADER_H = 56


def draw_header(draw: Draw, view: dict[str, Any], y0: float) -> None:
    cy = y0 + HEADER_H / 2
    x = MARGIN
    for p in range(3):
        past, now = p + 1 < view["period"], p + 1 == view["period"]
        fill = INK if now else (MUTED if past else PANEL_DARK)
        rounded_rectangle(draw, (x, cy - 20, x + 84, cy + 20), 10, fill=fill)
        text(draw, (x + 42, cy + 1), 1970 + 5 * p, 28, WHITE if now or past else MUTED)
        x += 92
    x += 16
    for i, phase in enumerate(PHASES):
        now = view["phase"] == phase
        disc(draw, x + 21, cy, INK if now else PANEL_DARK, 23 if now else 17)
        text(draw, (x + 21, cy), NUMERALS[i], 24 if now else 16, WHITE if now else INK)
        x += 46
    x += 22
    # turn order, left to right; the seats that must act wear a thick ring and an arrow
    for seat in view["order"]:
        colour = seat_colour(view, seat)
        if seat in view["active"]:
            draw.ellipse((x - 4, cy - 26, x + 48, cy + 26), fill=INK)
        disc(draw, x + 22, cy, colour, 22, 2)
        text(draw, (x + 22, cy + 1), seat + 1, BIG - 2, ink_on(colour))
        x += 56
    draw_sumatra(draw, view, x + 14, y0 + 4, WIDTH - MARGIN - 250 - x - 14)
    # the Wild Stock and the general supply of workers
    sx = WIDTH - MARGIN - 236
    for k in range(view["wild_stock"]):
        draw.rectangle((sx + k * 20, cy - 9, sx + k * 20 + 16, cy + 7), fill=WHITE, outline=INK)
    worker(draw, WIDTH - MARGIN - 80, cy + 2, s=1.8)
    text(draw, (WIDTH - MARGIN - 36, cy), view["general_workers"], 28)


TURN_ORDER_X = MARGIN + 3 * 92 + 16 + len(PHASES) * 46 + 22


def draw_turn_arrows(draw: Draw, view: dict[str, Any], y0: float) -> None:
    """An arrow under each seat that must act, its tip over the cooperatives' top edge."""
    for k, seat in enumerate(view["order"]):
        if seat in view["active"]:
            x = TURN_ORDER_X + k * 56
            draw.polygon(
                [(x + 14, y0 + HEADER_H), (x + 30, y0 + HEADER_H), (x + 22, y0 + HEADER_H + 9)],
                fill=INK,
            )


def draw_sumatra(draw: Draw, view: dict[str, Any], x0: float, y0: float, w: float) -> None:
    """Sumatra, an island with everyone's civets on it."""
    if w < 80:
        return
    box = (x0, y0, x0 + w, y0 + HEADER_H - 8)
    rounded_rectangle(draw, box, 24, fill=(150, 185, 110), outline=(90, 120, 60), width=3)
    x, y = x0 + 28, y0 + (HEADER_H - 8) / 2
    for seat, player in enumerate(view["players"]):
        for _ in range(player["sumatra"]):
            if x > x0 + w - 20:
                return
            disc(draw, x, y, seat_colour(view, seat), 17, 2)
            civet(draw, x + 1, y + 1, 1.2)
            seat_badge(draw, x + 13, y - 10, seat, 7)
            x += 38


# -- the cooperatives ---------------------------------------------------------------------
COOP_W = (WIDTH - 2 * MARGIN - 4 * 8) // 5
COOP_H = 300
SPACE = 44  # a plantation space, wide enough for its level to read inline
PITCH_X, PITCH_Y = 48, 56
ROW_Y = (194, 138, 82)  # row 1 at the bottom, like the hillside


def space_xy(x0: float, y0: float, row: int, index: int, size: int) -> tuple[float, float]:
    left = x0 + COOP_W / 2 - PITCH_X * (size - 1) / 2
    return left + PITCH_X * index, y0 + ROW_Y[row - 1]


def trader_pitch(rules_players: int) -> tuple[int, int]:
    """How many trader spaces a trading house has, and how far apart they are drawn."""
    return (4, 34) if rules_players == 5 else (3, 38)


def pathways(sizes: list[int]) -> list[tuple[str, int, int, int]]:
    """Every pathway of a cooperative: its key and the spaces it joins (lower row, lower
    index, upper index)."""
    return [
        (f"{row}.{lower}.{upper}", row, lower, upper)
        for row in (1, 2)
        for upper in range(sizes[row])
        for lower in (upper, upper + 1)
        if lower < sizes[row - 1]
    ]


def draw_coop_board(
    draw: Draw, coffee: str, rules_players: int, sizes: list[int], x0: float, y0: float
) -> None:
    """What is printed on a cooperative: its frame, trading house, pathways, empty spaces."""
    colour = COFFEE_COLOURS[coffee]
    rounded_rectangle(
        draw, (x0, y0, x0 + COOP_W, y0 + COOP_H), 14, fill=PANEL, outline=colour, width=4
    )
    rounded_rectangle(draw, (x0, y0, x0 + COOP_W, y0 + 50), 14, fill=colour)
    draw.rectangle((x0, y0 + 30, x0 + COOP_W, y0 + 50), fill=colour)
    spaces, pitch = trader_pitch(rules_players)
    for i in range(spaces):
        x = x0 + 24 + i * pitch
        rounded_rectangle(draw, (x - 16, y0 + 7, x + 16, y0 + 43), 6, fill=PANEL_DARK, outline=INK)
    sx = x0 + COOP_W - 64
    rounded_rectangle(draw, (sx - 16, y0 + 9, sx + 16, y0 + 41), 5, fill=WHITE, outline=INK)
    bean(draw, sx, y0 + 25, coffee, 10)
    worker(draw, x0 + COOP_W - 44, y0 + ROW_Y[2] - 10, s=1.6)
    for _, row, lower, upper in pathways(sizes):
        ax, ay = space_xy(x0, y0, row, lower, sizes[row - 1])
        bx, by = space_xy(x0, y0, row + 1, upper, sizes[row])
        draw.line((ax, ay, bx, by), fill=PANEL_DARK, width=6)
    half = SPACE / 2
    for row, size in enumerate(sizes, start=1):
        for index in range(size):
            x, y = space_xy(x0, y0, row, index, size)
            box = (x - half, y - half, x + half, y + half)
            rounded_rectangle(draw, box, 8, fill=EMPTY_SPACE, outline=MUTED, width=2)
            text(draw, (x + 3, y + 4), {1: "1", 2: "1/2", 3: "2/3"}[row], 15, MUTED)
            space_number(draw, x, y, index, INK)
        row_number(draw, x0, y0, row)


def space_number(draw: Draw, x: float, y: float, index: int, fill: Any) -> None:
    """A space's number in its row (the menus' "row 2, space 4"), in its top-left corner."""
    text(draw, (x - SPACE / 2 + 8, y - SPACE / 2 + 9), index + 1, 13, fill)


def row_number(draw: Draw, x0: float, y0: float, row: int) -> None:
    """A row's number (1 at the bottom) on a dark tab at the right edge of the cooperative."""
    x, y = x0 + COOP_W - 9, y0 + ROW_Y[row - 1] + 12
    rounded_rectangle(draw, (x - 6, y - 9, x + 6, y + 9), 4, fill=INK)
    text(draw, (x, y), row, 14, WHITE)


def draw_coop(draw: Draw, view: dict[str, Any], coffee: str, x0: float, y0: float) -> None:
    """What lies on a cooperative: traders, stock, counters, donkeys, plantations, buildings."""
    coop = view["coops"][coffee]
    draw_trading_house(draw, view, coop, x0, y0)
    draw_plantations(draw, view, coop, COFFEE_COLOURS[coffee], x0, y0)
    # donkeys over the plantations, the plantations' numbers over the donkeys
    draw_donkeys(draw, view, coop, x0, y0)
    draw_plantation_marks(draw, view, coop, x0, y0)
    draw_quality(draw, view, coop, x0, y0)
    draw_coop_buildings(draw, view, coop, x0, y0)


def draw_trading_house(
    draw: Draw, view: dict[str, Any], coop: dict[str, Any], x0: float, y0: float
) -> None:
    """Traders, the coin and the stock counters on top; beside the 2/3 row the Animal
    counters left of it and the town's workers right of it."""
    spaces, pitch = trader_pitch(view["rules_players"])
    for i, seat in enumerate(coop["traders"][:spaces]):
        trader(draw, x0 + 24 + i * pitch, y0 + 27, seat_colour(view, seat), 1.45, seat)
    if coop["coin"]:
        coin(draw, x0 + 24 + spaces * pitch - 2, y0 + 25, 1, r=13)
    text(draw, (x0 + COOP_W - 26, y0 + 25), coop["stock"], 30, WHITE)
    for i, token in enumerate(coop["animals"]):
        counter(draw, x0 + 18 + i * 26, y0 + ROW_Y[2] - 12, token, 11)
    text(draw, (x0 + COOP_W - 20, y0 + ROW_Y[2] - 10), coop["town"], 26)


def placed(coop: dict[str, Any], x0: float, y0: float) -> list[tuple[float, float, int, Any]]:
    """Each plantation on the cooperative with its centre and its space's index."""
    return [
        (*space_xy(x0, y0, row, index, len(plantations)), index, plantation)
        for row, plantations in enumerate(coop["rows"], start=1)
        for index, plantation in enumerate(plantations)
        if plantation is not None
    ]


def draw_plantations(
    draw: Draw, view: dict[str, Any], coop: dict[str, Any], colour: Any, x0: float, y0: float
) -> None:
    half = SPACE / 2
    for x, y, _, plantation in placed(coop, x0, y0):
        box = (x - half, y - half, x + half, y + half)
        owner = seat_colour(view, plantation["owner"])
        rounded_rectangle(draw, box, 8, fill=owner, outline=colour, width=4)
        text(draw, (x - 4, y + 1), plantation["level"], BIG, ink_on(owner))
        if plantation["staffed"]:
            worker(draw, x + 13, y + 8, s=1.05)
        if plantation["truck"]:
            truck(draw, x - half - 4, y + half - 4, s=1.3)


def draw_plantation_marks(
    draw: Draw, view: dict[str, Any], coop: dict[str, Any], x0: float, y0: float
) -> None:
    """Each plantation's space number and its owner's seat, drawn over the donkeys."""
    half = SPACE / 2
    for x, y, index, plantation in placed(coop, x0, y0):
        space_number(draw, x, y, index, ink_on(seat_colour(view, plantation["owner"])))
        seat_badge(draw, x + half - 5, y - half + 5, plantation["owner"], 10)


def draw_quality(
    draw: Draw, view: dict[str, Any], coop: dict[str, Any], x0: float, y0: float
) -> None:
    """Quality Value by seat: the majorities scored at the end."""
    qx = x0 + 22
    for seat_key, value in coop["quality"].items():
        if value:
            seat_fill = seat_colour(view, int(seat_key))
            disc(draw, qx, y0 + 236, seat_fill, 15, 2)
            text(draw, (qx, y0 + 236), value, 20, ink_on(seat_fill))
            seat_badge(draw, qx + 13, y0 + 224, int(seat_key), 7)
            qx += 40


def draw_coop_buildings(
    draw: Draw, view: dict[str, Any], coop: dict[str, Any], x0: float, y0: float
) -> None:
    """Building spaces along the bottom, by kind, as large as the row allows (the spaces
    of 4-5 players only left out at 3)."""
    spots, pitch = building_spots(view, coop, x0)
    for kind, _, bx, number, owner, step in spots:
        colour_b = None if owner is None else seat_colour(view, owner)
        building(draw, bx, y0 + BUILDING_Y, kind, colour_b, step, pitch / 22, owner)
        text(draw, (bx, y0 + COOP_H - 11), number, 11, MUTED)


BUILDING_Y = COOP_H - 31  # a building space's centre, from a cooperative's top


def building_spots(
    view: dict[str, Any], coop: dict[str, Any], x0: float
) -> tuple[list[tuple[str, int, float, int, Any, bool]], float]:
    """Each building space drawn on a cooperative (kind, index, centre x, its number as
    drawn, owner, Arabica step), and their pitch."""
    shown = [
        (kind, i, owner, kinds[i] == "step")
        for kind in ("production", "fairtrade", "hospital", "farm")
        for i, owner in enumerate(coop["buildings"][kind])
        if (kinds := view["building_kinds"][kind])[i] != "p45"
        or view["rules_players"] >= 4
        or owner is not None
    ]
    pitch = min(30.0, (COOP_W - 30 - 3 * 5) / len(shown))
    bx, last, number = x0 + 8 + pitch / 2, shown[0][0], 0
    spots = []
    for kind, i, owner, step in shown:
        if kind != last:
            bx, last, number = bx + 5, kind, 0
        number += 1
        spots.append((kind, i, bx, number, owner, step))
        bx += pitch
    return spots, pitch


DONKEY_SIZE = 1.8


def draw_donkeys(
    draw: Draw, view: dict[str, Any], coop: dict[str, Any], x0: float, y0: float
) -> None:
    """The donkeys on the pathways, over the plantations' corners so none is hidden, each
    pathway's owner on a badge."""
    sizes = [len(row) for row in coop["rows"]]
    for key, row, lower, upper in pathways(sizes):
        pathway = coop["pathways"].get(key)
        if not pathway:
            continue
        ax, ay = space_xy(x0, y0, row, lower, sizes[row - 1])
        bx, by = space_xy(x0, y0, row + 1, upper, sizes[row])
        mx, my = (ax + bx) / 2, (ay + by) / 2
        n = pathway["donkeys"]
        fill = seat_colour(view, pathway["owner"])
        for d in range(n):
            donkey(draw, mx + (d - (n - 1) / 2) * 20, my, fill, DONKEY_SIZE)
        seat_badge(draw, mx - 10 * n - 8, my - 8, pathway["owner"], 8)


# -- the middle band: Arabica track, Coffee Bars, milestones, contract bonus -------------
BAND_H = 226


ARABICA_CELL = (40, 35)
ARABICA_TOP = 30
ARABICA_W = 34 + 7 * ARABICA_CELL[0] + 8


def draw_arabica_board(draw: Draw, x0: float, y0: float) -> None:
    """The Arabica track as printed: a row of seven spaces per coffee, the rewards above."""
    cell_w, cell_h = ARABICA_CELL
    rounded_rectangle(draw, (x0, y0, x0 + ARABICA_W, y0 + BAND_H), 10, fill=PANEL)
    for c in range(7):
        cx = x0 + 34 + c * cell_w + cell_w / 2
        if c == 3:
            coin(draw, cx, y0 + 16, 1, r=11)
        elif c == 4:
            donkey(draw, cx, y0 + 17, DONKEY_BROWN, 1.4)
        elif c >= 5:
            text(draw, (cx, y0 + 16), 6 if c == 5 else 4, 22)
    for r, coffee in enumerate(COFFEES):
        y = y0 + ARABICA_TOP + r * cell_h
        bean(draw, x0 + 18, y + cell_h / 2, coffee, 11)
        for c in range(7):
            x = x0 + 34 + c * cell_w
            fill = PANEL_DARK if c < 5 else (222, 196, 140)
            draw.rectangle((x + 1, y + 1, x + cell_w - 1, y + cell_h - 1), fill=fill, outline=PANEL)
    # the column numbers the menus use ("now column 3")
    bottom = y0 + ARABICA_TOP + 5 * cell_h
    for c in range(7):
        text(draw, (x0 + 34 + c * cell_w + cell_w / 2, (bottom + y0 + BAND_H) / 2), c + 1, 14)


def draw_arabica(draw: Draw, view: dict[str, Any], x0: float, y0: float) -> None:
    """Everyone's disc on each row of the Arabica track."""
    cell_w, cell_h = ARABICA_CELL
    players = view["players"]
    for r, coffee in enumerate(COFFEES):
        y = y0 + ARABICA_TOP + r * cell_h
        here: dict[int, list[int]] = {}
        for seat, p in enumerate(players):
            if view["andre"] is not None and seat == view["andre"]["seat"]:
                continue
            here.setdefault(p["arabica"][coffee], []).append(seat)
        for column, seats in here.items():
            x = x0 + 34 + (column - 1) * cell_w
            spots = DISC_SPOTS[min(len(seats), 5)]
            for seat, (dx, dy) in zip(seats, spots, strict=False):
                r = 10 if len(seats) == 1 else 8 if len(seats) <= 2 else 7
                fill = seat_colour(view, seat)
                cx, cy = x + cell_w / 2 + dx, y + cell_h / 2 + dy
                disc(draw, cx, cy, fill, r)
                text(draw, (cx, cy), seat + 1, r + 3, ink_on(fill))


# where 1 to 5 discs sit in an Arabica cell, from its centre
DISC_SPOTS = {
    1: [(0, 0)],
    2: [(-9, 0), (9, 0)],
    3: [(-10, -8), (10, -8), (0, 8)],
    4: [(-10, -8), (10, -8), (-10, 8), (10, 8)],
    5: [(-12, -9), (0, -9), (12, -9), (-6, 9), (6, 9)],
}


BAR_W, BAR_GAP = 90, 6
BAR_TAB = 22  # the bar's number above its spaces


def bar_pitch(spaces: list[Any]) -> float:
    return (BAND_H - BAR_TAB - 6) / max(5, len(spaces))


def draw_bars(
    draw: Draw, view: dict[str, Any], x0: float, y0: float, printed: bool = False
) -> None:
    """The Coffee Bars, a column each: every space's coffee, coins and points, filled in the
    colour of whoever delivered there (`printed`: the empty bars as on the board)."""
    width = BAR_W
    for b, (bar, spaces) in enumerate(view["bar_spaces"].items()):
        x = x0 + b * (width + BAR_GAP)
        if printed:
            rounded_rectangle(draw, (x, y0, x + width, y0 + BAND_H), 10, fill=PANEL)
            text(draw, (x + width / 2, y0 + BAR_TAB / 2 + 2), b + 1, 18)
        pitch = bar_pitch(spaces)
        for i, space in enumerate(spaces):
            y = y0 + BAR_TAB + 1 + i * pitch
            owner = None if printed else view["bars"][bar][i]
            if owner is None and not printed:
                continue
            fill = PANEL_DARK if owner is None else seat_colour(view, owner)
            rounded_rectangle(draw, (x + 4, y, x + width - 4, y + pitch - 4), 7, fill=fill)
            cy = y + (pitch - 4) / 2
            need = space["need"]
            if need in COFFEE_COLOURS:
                bean(draw, x + 18, cy - 7, need, 9)
            elif need == "any":
                draw.ellipse((x + 9, cy - 14, x + 27, cy), fill=WHITE, outline=INK)
            else:
                for k in range(3):
                    bean(draw, x + 11 + k * 7, cy - 7, COFFEES[k * 2], 4)
            ink = INK if owner is None else ink_on(fill)
            text(draw, (x + 18, cy + 10), space["amount"], 16, ink)
            coin(draw, x + 44, cy - 6, space["coins"], r=10)
            if space["points"]:
                draw.rectangle((x + 58, cy + 1, x + width - 8, cy + 18), fill=WHITE, outline=INK)
                text(draw, ((x + 58 + x + width - 8) / 2, cy + 10), space["points"], 14)
            if owner is not None:
                seat_badge(draw, x + width - 16, cy - 8, owner)
    if printed:
        return
    for key, animal in view["bar_animals"].items():
        bar, i = key.split(".")
        b = list(view["bar_spaces"]).index(bar)
        pitch = bar_pitch(view["bar_spaces"][bar])
        x = x0 + b * (width + BAR_GAP)
        cy = y0 + BAR_TAB + 1 + int(i) * pitch + (pitch - 4) / 2
        counter(draw, x + width - 17, cy - 8, animal, 8)


def draw_milestones(draw: Draw, view: dict[str, Any], x0: float, y0: float, w: float) -> None:
    left, each = columns(x0, w, 3, gap=8)
    for m, milestone in enumerate(view["milestones"]):
        x = left + m * (each + 8)
        rounded_rectangle(draw, (x, y0, x + each, y0 + 96), 10, fill=PANEL, outline=INK)
        text(draw, (x + 18, y0 + 21), "ABC"[m], 22)
        rounded_rectangle(
            draw, (x + 36, y0 + 6, x + each - 6, y0 + 36), 6, fill=WHITE, outline=MUTED
        )
        milestone_icon(draw, milestone["id"], x + 56, y0 + 21)
        marks = milestone["marks"]
        pitch = (each - 12) / 3
        for k, points in enumerate(milestone["points"]):
            cx = x + 6 + pitch * (k + 0.5)
            colour = seat_colour(view, marks[k]) if k < len(marks) else WHITE
            disc(draw, cx, y0 + 66, colour, 18, 2)
            text(draw, (cx, y0 + 66), points, 20, ink_on(colour) if k < len(marks) else INK)
            if k < len(marks):
                seat_badge(draw, cx + 15, y0 + 52, marks[k])


def milestone_icon(draw: Draw, milestone: str, x: float, y: float) -> None:
    """The milestone's goal as an icon and its number."""
    icons = {
        "traders": ("trader", 5),
        "storage": ("bean", 20),
        "bars": ("cup", 6),
        "warehouses": ("warehouse", 5),
        "stations": ("production", 6),
        "presence": ("farm", 4),
        "contracts": ("contract", 6),
        "plantations": ("plantation", 11),
        "quality": ("hospital", 16),
    }
    icon, number = icons[milestone]
    if icon == "trader":
        trader(draw, x, y + 2, MUTED)
    elif icon == "bean":
        bean(draw, x, y, "kopi", 9)
    elif icon == "cup":
        rounded_rectangle(draw, (x - 7, y - 6, x + 5, y + 7), 3, fill=WHITE, outline=INK)
        draw.arc((x + 2, y - 3, x + 10, y + 4), -90, 90, fill=INK, width=2)
    elif icon == "warehouse":
        draw.rectangle((x - 8, y - 7, x + 8, y + 8), fill=INK)
    elif icon == "contract":
        draw.rectangle((x - 7, y - 9, x + 7, y + 9), fill=WHITE, outline=INK)
        draw.line((x - 3, y - 3, x + 3, y - 3), fill=INK)
        draw.line((x - 3, y + 2, x + 3, y + 2), fill=INK)
    elif icon == "plantation":
        # a seedling, not a square: a square is Colombia's coffee
        leaf = (120, 160, 80)
        draw.line((x, y + 9, x, y - 2), fill=INK, width=2)
        draw.ellipse((x - 10, y - 7, x, y - 1), fill=leaf, outline=INK)
        draw.ellipse((x, y - 10, x + 10, y - 4), fill=leaf, outline=INK)
        draw.line((x - 7, y + 9, x + 7, y + 9), fill=INK, width=2)
    else:
        building(draw, x, y, icon, MUTED)
    text(draw, (x + 32, y), number, 22)


def draw_contract_bonus(draw: Draw, view: dict[str, Any], x0: float, y0: float, w: float) -> None:
    """The contract-bonus stacks A–F, their Arabica counters face up."""
    left, each = columns(x0, w, 6, gap=6)
    height = BAND_H - 104
    for i, letter in enumerate("ABCDEF"):
        x = left + i * (each + 6)
        rounded_rectangle(draw, (x, y0, x + each, y0 + height), 8, fill=PANEL)
        text(draw, (x + 14, y0 + 16), letter, 18)
        stack = list(reversed(view["contract_bonus"][letter][-5:]))
        for k, token in enumerate(stack):
            cx = x + each / 2 + (10 if k % 2 else -10) + (0 if len(stack) > 1 else 10)
            counter(draw, cx, y0 + 38 + k * 16, token, 9)


# -- player boards ------------------------------------------------------------------------
PLAYER_H = 244


def draw_player(
    draw: Draw, view: dict[str, Any], seat: int, x0: float, y0: float, w: float
) -> None:
    p = view["players"][seat]
    colour = seat_colour(view, seat)
    if seat in view["active"]:
        active_ring(draw, x0, y0, w)
    rounded_rectangle(
        draw, (x0, y0, x0 + w, y0 + PLAYER_H), 12, fill=PANEL, outline=colour, width=4
    )
    rounded_rectangle(draw, (x0, y0, x0 + w, y0 + 46), 12, fill=colour)
    draw.rectangle((x0, y0 + 30, x0 + w, y0 + 46), fill=colour)
    draw_company_header(draw, p, seat, colour, x0, y0, w)
    draw_coffee_held(draw, p, x0, y0, w)
    draw_buildings_built(draw, p, seat, colour, x0, y0 + 122, w)
    draw_supplies(draw, p, colour, x0, y0 + 152, w)
    draw_contracts(draw, p, x0, y0 + 168, y0 + 220, w)
    draw_counter_track(draw, p, x0, y0, w)
    if "scores" in view:
        draw_final_score(draw, view["scores"], seat, x0, y0, w)


# the header's pieces after the coins, drawn at (x, y) with a scale
HEADER_ICONS = {
    "marker": lambda draw, x, y, colour, s: action_marker(draw, x, y - 1, s),
    "worker": lambda draw, x, y, colour, s: worker(draw, x, y, s=s * 1.15),
    "trader": lambda draw, x, y, colour, s: trader(draw, x, y + 1, colour, s),
    "donkey": lambda draw, x, y, colour, s: donkey(draw, x, y - 1, DONKEY_BROWN, s * 1.05),
    "truck": lambda draw, x, y, colour, s: truck(draw, x, y - 2, s=s * 1.05),
}


def draw_company_header(
    draw: Draw, p: dict[str, Any], seat: int, colour: Any, x0: float, y0: float, w: float
) -> None:
    """Seat number and coins large, then the Action markers left for the Work phase,
    workers, traders, donkeys, trucks (narrower and closer at 5 players)."""
    ink = ink_on(colour)
    text(draw, (x0 + 22, y0 + 24), seat + 1, BIG, ink)
    coin(draw, x0 + 64, y0 + 23, p["coins"], r=21)
    items = (
        ("marker", p["markers"] + int(p["color_marker"])),
        ("worker", p["pool"]),
        ("trader", p["traders"]),
        ("donkey", p["donkeys"]),
        ("truck", p["trucks"]),
    )
    pitch = min(54.0, (w - 94) / len(items))
    s = 1.0 if pitch < 44 else 1.2
    size = 21 if pitch < 44 else 24
    x = x0 + 96
    for icon, value in items:
        HEADER_ICONS[icon](draw, x + 4, y0 + 24, colour, s)
        text(draw, (x + pitch - (13 if pitch < 44 else 20), y0 + 23), value, size, ink)
        x += pitch


def draw_coffee_held(draw: Draw, p: dict[str, Any], x0: float, y0: float, w: float) -> None:
    """A bean and its count for each kind, kopi luwak last."""
    left, col = columns(x0, w, 6, padding=8)
    for i, coffee in enumerate((*COFFEES, "kopi")):
        cx = left + col * (i + 0.5)
        n = p["coffee"][coffee]
        rounded_rectangle(
            draw,
            (cx - col / 2 + 2, y0 + 52, cx + col / 2 - 2, y0 + 102),
            8,
            fill=WHITE if n else PANEL_DARK,
        )
        bean(draw, cx, y0 + 64, coffee, 10)
        text(draw, (cx, y0 + 87), n, 30, INK if n else MUTED)


def draw_buildings_built(
    draw: Draw, p: dict[str, Any], seat: int, colour: Any, x0: float, y: float, w: float
) -> None:
    """The trade ratio, the warehouses and the buildings of the company."""
    x = x0 + 10
    rounded_rectangle(draw, (x, y - 13, x + 46, y + 13), 7, fill=WHITE, outline=INK)
    text(draw, (x + 23, y), f"{p['ratio']}:1", 17)
    x += 54
    built = p["built"]
    for k in range(5):
        fill = INK if k < built["warehouse"] else PANEL_DARK
        draw.rectangle((x + k * 10, y - 8, x + k * 10 + 8, y + 8), fill=fill)
    x += 58
    pitch = min(22.0, (x0 + w - x - 12) / 7)
    for kind, total in (("production", 3), ("fairtrade", 3), ("hospital", 1)):
        for j in range(total):
            mine = j < built[kind]
            building(
                draw, x + pitch / 2, y + 1, kind, colour if mine else None, s=min(1.0, pitch / 21)
            )
            if mine:
                # the seat's number, as large as the building holds (readable on a phone)
                middle = 3 if kind == "production" else 1
                text(draw, (x + pitch / 2, y + middle), seat + 1, 13, ink_on(colour))
            x += pitch
        x += 3


def draw_supplies(
    draw: Draw, p: dict[str, Any], colour: Any, x0: float, y: float, w: float
) -> None:
    """Civets, stock counters (a white tile with its coffee; a blank one is wild), −3 VP
    tokens, and the bonus supply: Action marker, trader, 3 coins (a pale slot once taken)."""
    x = x0 + 18
    civet(draw, x, y + 1, 1.1)
    text(draw, (x + 22, y), p["sumatra"] + p["civets"], 18)
    x += 40
    for stock in p["stocks"]:
        draw.rectangle((x - 8, y - 8, x + 8, y + 8), fill=WHITE, outline=INK)
        if stock != "wild":
            bean(draw, x, y, stock, 5)
        x += 19
    if p["minus_tokens"]:
        rounded_rectangle(draw, (x - 4, y - 12, x + 38, y + 12), 8, fill=INK)
        text(draw, (x + 17, y), -3 * p["minus_tokens"], 17, WHITE)
    bx = x0 + w - 86
    rounded_rectangle(draw, (bx, y - 12, bx + 78, y + 12), 7, fill=WHITE)
    pale = PANEL_DARK
    draw.rectangle((bx + 9, y - 7, bx + 21, y + 7), fill=INK if "marker" in p["bonus"] else pale)
    trader(draw, bx + 39, y + 2, colour if "trader" in p["bonus"] else pale)
    if "coins" in p["bonus"]:
        coin(draw, bx + 62, y, 3, r=10)
    else:
        disc(draw, bx + 62, y, pale, 10)


def columns(x0: float, w: float, count: int, gap: int = 0, padding: int = 0) -> tuple[float, int]:
    """Where the first of `count` columns `gap` apart starts in `w` (less `padding` each side),
    and how wide each is: whole pixels, centred, so that a coffee or a number is the same
    pixels in every column (a table picture deflates 1-2 % smaller)."""
    inside = int(w) - 2 * padding - (count - 1) * gap
    return x0 + padding + inside % count // 2, inside // count


def draw_contracts(
    draw: Draw, p: dict[str, Any], x0: float, top: float, bottom: float, w: float
) -> None:
    """Contracts A–F: open ones show their coffee, done ones are ticked."""
    left, cw = columns(x0, w, 6, padding=8)
    for i, letter in enumerate("ABCDEF"):
        x = left + i * cw
        done = letter in p["fulfilled"]
        rounded_rectangle(
            draw,
            (x + 1, top, x + cw - 2, bottom),
            6,
            fill=PANEL_DARK if done else WHITE,
            outline=INK,
        )
        text(draw, (x + 10, top + 9), letter, 13, MUTED if done else INK)
        if done:
            draw.line((x + 8, top + 30, x + 16, top + 42, x + cw - 8, top + 16), fill=INK, width=4)
        else:
            draw_contract_wants(draw, p["contracts"][letter], x, top, cw)


def draw_contract_wants(
    draw: Draw, contract: dict[str, Any], x: float, top: float, cw: float
) -> None:
    if contract["hard_side"]:
        # the handicap: this contract lies 3-player side up
        rounded_rectangle(draw, (x + cw - 18, top + 2, x + cw - 4, top + 16), 4, fill=INK)
        text(draw, (x + cw - 11, top + 9), 3, 11, WHITE)
    for k, (coffee, n) in enumerate(contract["wants"].items()):
        bean(draw, x + cw / 2 - 8, top + 20 + k * 12, coffee, 6 if cw >= 50 else 5)
        text(draw, (x + cw / 2 + 8, top + 20 + k * 12), n, 14 if cw >= 50 else 12)


def draw_counter_track(draw: Draw, p: dict[str, Any], x0: float, y0: float, w: float) -> None:
    n = len(p["counters"])
    step = min(18.0, (w - 60) / max(1, n))
    for k, token in enumerate(p["counters"]):
        counter(draw, x0 + 16 + k * step, y0 + 232, token, 7)
    if n:
        text(draw, (x0 + w - 20, y0 + 231), p["counter_height"], 16)


def draw_final_score(
    draw: Draw, scores: list[int], seat: int, x0: float, y0: float, w: float
) -> None:
    """The final score on a plate over the coffee left over (it scores nothing), so the
    contracts stay in sight: gold for the best score."""
    score = scores[seat]
    best = score == max(scores)
    plate = (x0 + w / 2 - 62, y0 + 50, x0 + w / 2 + 62, y0 + 104)
    rounded_rectangle(
        draw, plate, 14, fill=GOLD if best else PALE_GOLD, outline=INK, width=5 if best else 2
    )
    text(draw, (x0 + w / 2, y0 + 77), score, 46)


def draw_andre(draw: Draw, view: dict[str, Any], x0: float, y0: float, w: float) -> None:
    andre = view["andre"]
    if andre["seat"] in view["active"]:
        active_ring(draw, x0, y0, w)
    rounded_rectangle(
        draw, (x0, y0, x0 + w, y0 + PLAYER_H), 12, fill=PANEL, outline=ANDRE_COLOUR, width=4
    )
    rounded_rectangle(draw, (x0, y0, x0 + w, y0 + 46), 12, fill=ANDRE_COLOUR)
    draw.rectangle((x0, y0 + 30, x0 + w, y0 + 46), fill=ANDRE_COLOUR)
    text(draw, (x0 + 22, y0 + 24), andre["seat"] + 1, BIG, INK)
    # his plantation stack: the levels he plants next, closer together on a narrow board
    # (eight 40 px boxes overflowed the phone view's 330 px)
    pitch = min(40.0, (w - 56) / max(1, len(andre["stack"])))
    for k, level in enumerate(andre["stack"]):
        left = x0 + 48 + k * pitch
        box = (left, y0 + 6, left + pitch - 6, y0 + 40)
        rounded_rectangle(draw, box, 6, fill=WHITE, outline=INK)
        text(draw, (left + (pitch - 6) / 2, y0 + 23), level, 24 if pitch >= 36 else 21)
    for k in range(andre["fair_trade_posts"]):
        building(draw, x0 + 26 + k * 30, y0 + 76, "fairtrade", ANDRE_COLOUR, s=1.4)
    for k in range(andre["traders"]):
        trader(draw, x0 + 26 + k * 30, y0 + 124, ANDRE_COLOUR, 1.5)
    for k in range(andre["markers"]):
        disc(draw, x0 + 26 + k * 26, y0 + 166, ANDRE_COLOUR, 10, 2)
    for k, token in enumerate(andre["flipped"]):
        counter(draw, x0 + 26 + k * 26, y0 + 208, token, 10)
    # his visible contract: top, middle and bottom coffee drive his choices
    card = (x0 + w - 84, y0 + 58, x0 + w - 24, y0 + 184)
    rounded_rectangle(draw, card, 8, fill=WHITE, outline=INK)
    for k, coffee in enumerate(andre["contract_coffees"]):
        bean(draw, x0 + w - 54, y0 + 84 + k * 36, coffee, 14)
    text(draw, (x0 + w - 54, y0 + 212), andre["contracts_left"], 28)


COOPS_TOP = HEADER_H + 12
BAND_TOP = COOPS_TOP + COOP_H + 10
PLAYERS_TOP = BAND_TOP + BAND_H + 14
HEIGHT = PLAYERS_TOP + PLAYER_H + MARGIN


def coop_x(i: int) -> float:
    return MARGIN + i * (COOP_W + 8)


def band_x(view: dict[str, Any]) -> tuple[float, float, float]:
    """Where the Coffee Bars start, where the milestones start, and how wide those are."""
    bars = MARGIN + ARABICA_W + 10
    right = bars + len(view["bar_spaces"]) * (BAR_W + BAR_GAP) - BAR_GAP + 10
    return bars, right, WIDTH - MARGIN - right


@cache
def printed_board(layout: str) -> Image.Image:
    """The empty table for a game's layout (its player count, plantation spaces and Coffee
    Bars): drawn once, copied under every picture of that game."""
    view = json.loads(layout)
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for i, coffee in enumerate(COFFEES):
        sizes = view["sizes"][coffee]
        draw_coop_board(draw, coffee, view["rules_players"], sizes, coop_x(i), COOPS_TOP)
    draw_arabica_board(draw, MARGIN, BAND_TOP)
    bars, _, _ = band_x(view)
    draw_bars(draw, view, bars, BAND_TOP, printed=True)
    return image


# A worker's recent tables: about 7 pictures' parts (0.2-0.5 MB a part, 25-35 MB in all)
PARTS_KEPT = 96


@lru_cache(maxsize=PARTS_KEPT)
def kept_part(key: tuple[Any, ...]) -> list[Any]:
    """Where the part drawn under `key` is kept (empty until it is drawn): parts of table
    pictures drawn before (a player board, a cooperative, the header), by everything that
    changes their pixels. A move changes one or two of them; the others are pasted as they
    were. The least recently used go first."""
    return []


def seat_colours(view: dict[str, Any]) -> tuple[tuple[int, int, int], ...]:
    return tuple(seat_colour(view, seat) for seat in range(len(view["players"])))


def active_ring(draw: Draw, x0: float, y0: float, w: float) -> None:
    """The thick dark frame around the board of a seat that must act."""
    rounded_rectangle(draw, (x0 - 6, y0 - 6, x0 + w + 6, y0 + PLAYER_H + 6), 16, fill=INK)


# The rows of the table a part of the phone view is cut from (`render`'s `rows`): the
# cooperatives (with the turn arrows over their top edge), and the middle band, each with
# the phone's margin (4 px). The header's part ends above the first, each part ends within
# its rows, and the players' boards begin below the second (an acting seat's ring, 6 px
# above its board).
COOPS_ROWS = (COOPS_TOP - 2 * parts.PART_MARGIN, BAND_TOP - 2 * parts.PART_MARGIN)
BAND_ROWS = (BAND_TOP - 2 * parts.PART_MARGIN, PLAYERS_TOP - 6)


def render(view: dict[str, Any], rows: tuple[int, int] = (0, HEIGHT)) -> Image.Image:
    """The table: the printed board for its layout, and each part of it pasted as drawn
    before or drawn now (`parts.draw_part`), in the order the parts lie over each other.
    `rows`: only the rows from `rows[0]` to `rows[1]` are wanted (COOPS_ROWS, BAND_ROWS): the
    picture ends at `rows[1]` and the parts lying wholly outside them are not drawn (a
    phone's part cut from them reads the same pixels as from the whole table)."""
    top, bottom = rows
    seats = len(view["players"])
    layout = layout_of(view)
    printed = printed_board(layout)
    image = printed.copy() if bottom >= HEIGHT else printed.crop((0, 0, WIDTH, bottom))
    draw = ImageDraw.Draw(image)
    colours = seat_colours(view)
    header = (
        "header",
        colours,
        repr([view[k] for k in ("period", "phase", "order", "active")]),
        repr([p["sumatra"] for p in view["players"]]),
        view["wild_stock"],
        view["general_workers"],
    )
    bottom_of_header = COOPS_TOP - 2 * parts.PART_MARGIN - 1  # the arrows reach over the coops
    if top < bottom_of_header:
        parts.draw_part(
            image,
            kept_part,
            header,
            (0, 0, WIDTH - 1, bottom_of_header),
            lambda: draw_header(draw, view, 4),
        )
    if bottom <= COOPS_ROWS[0]:
        return image
    if top < COOPS_ROWS[1]:
        for i, coffee in enumerate(COFFEES):
            x, key = coop_x(i), coop_key(view, coffee, layout, colours)
            box = (x, COOPS_TOP, x + COOP_W, COOPS_TOP + COOP_H)
            parts.draw_part(
                image, kept_part, key, box, partial(draw_coop, draw, view, coffee, x, COOPS_TOP)
            )
        draw_turn_arrows(draw, view, 4)
    if bottom <= BAND_ROWS[0]:
        return image
    draw_band(image, draw, view, layout, colours)
    if bottom <= BAND_ROWS[1]:
        return image
    # boards of whole pixels, centred: each board's pieces lie on the pixel grid as on the
    # others, and the picture deflates smaller (about 1 % with `columns`, at 5 players)
    width, spare = divmod(WIDTH - 2 * MARGIN - (seats - 1) * 12, seats)
    for seat in range(seats):
        x = MARGIN + spare // 2 + seat * (width + 12)
        acting = seat in view["active"]
        if acting:
            active_ring(draw, x, PLAYERS_TOP, width)
        key = ("board", x, width, *board_key(view, seat))
        if view["andre"] is not None and seat == view["andre"]["seat"]:
            drawn = partial(draw_andre, draw, view, x, PLAYERS_TOP, width)
        else:
            drawn = partial(draw_player, draw, view, seat, x, PLAYERS_TOP, width)
        draw_board_part(image, key, x, width, acting, drawn)
    return image


def draw_board_part(
    image: Image.Image, key: tuple[Any, ...], x: int, width: int, acting: bool, drawn: Any
) -> None:
    """A player's board (`parts.draw_part`), kept whether or not its seat must act: the ring
    of a seat that must act lies under the board (its rounded corners and the part's margin
    show it), and everything the board draws lies within its rounded shape, opaque. A board
    kept with the ring, or without it, is pasted through its shape (`board_shape`) where the
    seat now acts otherwise: a move that only passes the turn draws no board again (it drew
    two, half the boards a table drew)."""
    area = (x - parts.PART_MARGIN, PLAYERS_TOP - parts.PART_MARGIN)
    kept = kept_part(key)
    if kept:
        board, ringed = kept
        image.paste(board, area, None if ringed == acting else board_shape(width))
        return
    drawn()
    margin = parts.PART_MARGIN
    box = (
        x - margin,
        PLAYERS_TOP - margin,
        x + width + margin + 1,
        PLAYERS_TOP + PLAYER_H + margin + 1,
    )
    kept.extend((image.crop(box), acting))


@cache
def board_shape(width: int) -> Image.Image:
    """The pixels a player's board `width` wide covers, in its part (PART_MARGIN around it)."""
    margin = parts.PART_MARGIN
    size = (width + 2 * margin + 1, PLAYER_H + 2 * margin + 1)
    mask = Image.new("L", size, 0)
    box = (margin, margin, margin + width, margin + PLAYER_H)
    ImageDraw.Draw(mask).rounded_rectangle(box, 12, fill=255, outline=255, width=4)
    return mask


def layout_of(view: dict[str, Any]) -> str:
    """What the printed board of a game shows: its player count, plantation spaces and
    Coffee Bars."""
    return json.dumps(
        {
            "rules_players": view["rules_players"],
            "sizes": {c: [len(row) for row in view["coops"][c]["rows"]] for c in COFFEES},
            "bar_spaces": view["bar_spaces"],
        },
        sort_keys=True,
    )


def coop_key(
    view: dict[str, Any], coffee: str, layout: str, colours: tuple[Any, ...]
) -> tuple[Any, ...]:
    """What a cooperative's part shows."""
    rules = (colours, view["rules_players"], repr(view["building_kinds"]))
    return ("coop", coffee, layout, rules, repr(view["coops"][coffee]))


def band_keys(view: dict[str, Any], layout: str, colours: Any) -> dict[str, tuple[Any, ...]]:
    """What each part of the middle band shows: the Arabica track, the Coffee Bars, the
    milestones with the contract bonus."""
    andre = view["andre"]["seat"] if view["andre"] is not None else None
    return {
        "arabica": ("arabica", colours, andre, repr([p["arabica"] for p in view["players"]])),
        "bars": ("bars", layout, colours, repr(view["bars"]), repr(view["bar_animals"])),
        "market": (
            "market",
            layout,
            colours,
            repr(view["milestones"]),
            repr(view["contract_bonus"]),
        ),
    }


def board_key(view: dict[str, Any], seat: int) -> tuple[Any, ...]:
    """What a seat's board shows, but where it lies and whether it must act."""
    if view["andre"] is not None and seat == view["andre"]["seat"]:
        return ("andre", repr(view["andre"]))
    score = None
    if "scores" in view:
        score = (view["scores"][seat], view["scores"][seat] == max(view["scores"]))
    return ("player", seat, seat_colour(view, seat), score, repr(view["players"][seat]))


def draw_band(
    image: Image.Image, draw: Draw, view: dict[str, Any], layout: str, colours: Any
) -> None:
    """The middle band: the Arabica track, the Coffee Bars, the milestones and contract
    bonus, each a part of its own."""
    keys = band_keys(view, layout, colours)
    bottom = BAND_TOP + BAND_H
    parts.draw_part(
        image,
        kept_part,
        keys["arabica"],
        (MARGIN, BAND_TOP, MARGIN + ARABICA_W, bottom),
        lambda: draw_arabica(draw, view, MARGIN, BAND_TOP),
    )
    bars, x, right = band_x(view)
    parts.draw_part(
        image,
        kept_part,
        keys["bars"],
        (bars, BAND_TOP, x - 10, bottom),
        lambda: draw_bars(draw, view, bars, BAND_TOP),
    )

    def draw_market() -> None:
        draw_milestones(draw, view, x, BAND_TOP, right)
        draw_contract_bonus(draw, view, x, BAND_TOP + 104, right)

    parts.draw_part(image, kept_part, keys["market"], (x, BAND_TOP, x + right, bottom), draw_market)


def draw_own_arabica(draw: Draw, view: dict[str, Any], seat: int, x0: float, y0: float) -> None:
    """One company's five Arabica rows, its disc on each."""
    cell = 30
    rounded_rectangle(draw, (x0, y0, x0 + cell * 7 + 40, y0 + cell * 5 + 16), 10, fill=PANEL)
    for r, coffee in enumerate(COFFEES):
        y = y0 + 8 + r * cell
        bean(draw, x0 + 18, y + cell / 2, coffee, 8)
        for c in range(7):
            x = x0 + 34 + c * cell
            fill = PANEL_DARK if c < 5 else (222, 196, 140)
            draw.rectangle((x + 1, y + 1, x + cell - 1, y + cell - 1), fill=fill, outline=PANEL)
        column = view["players"][seat]["arabica"][coffee]
        disc(
            draw, x0 + 34 + (column - 1) * cell + cell / 2, y + cell / 2, seat_colour(view, seat), 9
        )


def draw_stacks(draw: Draw, view: dict[str, Any], seat: int, x0: float, y0: float) -> None:
    """The plantations still on the board per contract row (A–C), and the row's farm."""
    p = view["players"][seat]
    colour = seat_colour(view, seat)
    for r, row in enumerate(("A", "B", "C")):
        y = y0 + r * 40
        rounded_rectangle(draw, (x0, y, x0 + 230, y + 34), 8, fill=PANEL)
        text(draw, (x0 + 14, y + 17), row, 15)
        for k, level in enumerate(p["plantations"].get(row, [])):
            box = (x0 + 30 + k * 32, y + 4, x0 + 56 + k * 32, y + 30)
            rounded_rectangle(draw, box, 5, fill=colour, outline=INK)
            text(draw, (x0 + 43 + k * 32, y + 17), level, 14, WHITE)
        building(draw, x0 + 214, y + 18, "farm", colour if row in p["farms"] else None)


def render_private(view: dict[str, Any]) -> Image.Image | None:
    """The seat's own company board, its Arabica rows and plantation stacks, larger."""
    seat = view.get("you")
    if seat is None:
        return None
    view = dict(view, active=[])
    image = Image.new("RGB", (860, 280), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw_player(draw, view, seat, 10, 15, 330)
    draw_own_arabica(draw, view, seat, 354, 15)
    draw_stacks(draw, view, seat, 620, 15)
    milestones = view["players"][seat]["milestones"]
    for k, points in enumerate(milestones.values()):
        disc(draw, 640 + k * 34, 160, seat_colour(view, seat), 14)
        text(draw, (640 + k * 34, 160), points, 13, WHITE)
    # Bilinear, as renderers/phone enlarges: Lanczos looked no sharper at this 1.5 times and
    # cost twice the time and three times the colours to encode (bench/decision_pictures.py)
    return image.resize((1290, 420), Image.Resampling.BILINEAR)
