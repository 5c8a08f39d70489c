"""The Castles of Burgundy table: the central board above, each player's estate below.

Drawn only from the spectator view. No words: colours, shapes and numbers. Every tile colour
carries its own shape (house, animals, book, tower, pick, boat) so the two greens and the yellow
stay apart for colour-blind players.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from games.burgundy.data import components
from games.core import Decision, Option
from renderers import OptionStyle

WIDTH = 1600
BOARD_H = 430
PANEL_H = 470
MARGIN = 12

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
    return tuple(round(a + (b - a) * t) for a, b in zip(colour[:3], other[:3], strict=True))


def text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: int, fill: Any) -> None:
    draw.text(xy, s, font=font(size), fill=fill, anchor="mm")


# -- shapes -------------------------------------------------------------------------------------
def hex_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    return [
        (cx + r * math.cos(math.radians(60 * i - 30)), cy + r * math.sin(math.radians(60 * i - 30)))
        for i in range(6)
    ]


def draw_hex(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: Any, edge: Any) -> None:
    d.polygon(hex_points(cx, cy, r), fill=fill, outline=edge, width=max(1, round(r / 12)))


def icon(d: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, s: float, ink: Any) -> None:
    """The shape of a tile type (or of a building kind), `s` about half the icon's size."""
    w = max(1, round(s / 5))
    if kind in ("building", "warehouse", "boarding"):
        d.polygon([(cx - s, cy), (cx, cy - s), (cx + s, cy)], outline=ink, width=w)
        d.rectangle([cx - s * 0.7, cy, cx + s * 0.7, cy + s * 0.8], outline=ink, width=w)
        if kind == "warehouse":
            d.line([cx - s * 0.7, cy, cx + s * 0.7, cy + s * 0.8], fill=ink, width=w)
            d.line([cx + s * 0.7, cy, cx - s * 0.7, cy + s * 0.8], fill=ink, width=w)
        if kind == "boarding":
            d.rectangle([cx - s * 0.2, cy + s * 0.3, cx + s * 0.2, cy + s * 0.8], fill=ink)
    elif kind == "animal":
        for dx, dy in ((-0.5, 0.3), (0.5, 0.3), (0, -0.4)):
            d.ellipse(
                [
                    cx + dx * s - s * 0.3,
                    cy + dy * s - s * 0.3,
                    cx + dx * s + s * 0.3,
                    cy + dy * s + s * 0.3,
                ],
                fill=ink,
            )
    elif kind == "knowledge":
        d.rectangle([cx - s * 0.8, cy - s * 0.6, cx + s * 0.8, cy + s * 0.6], outline=ink, width=w)
        d.line([cx, cy - s * 0.6, cx, cy + s * 0.6], fill=ink, width=w)
    elif kind in ("castle", "watchtower"):
        k = 0.45 if kind == "watchtower" else 0.8
        d.rectangle([cx - s * k, cy - s * 0.4, cx + s * k, cy + s * 0.8], fill=ink)
        for i in range(3):
            x = cx - s * k + i * s * k
            d.rectangle([x - s * 0.15, cy - s * 0.8, x + s * 0.15, cy - s * 0.4], fill=ink)
    elif kind == "mine":
        d.polygon([(cx - s, cy + s * 0.7), (cx, cy - s * 0.8), (cx + s, cy + s * 0.7)], fill=ink)
    elif kind == "ship":
        d.polygon(
            [
                (cx - s, cy + s * 0.2),
                (cx + s, cy + s * 0.2),
                (cx + s * 0.6, cy + s * 0.7),
                (cx - s * 0.6, cy + s * 0.7),
            ],
            fill=ink,
        )
        d.polygon([(cx, cy - s * 0.9), (cx, cy + s * 0.1), (cx + s * 0.7, cy + s * 0.1)], fill=ink)
    elif kind == "carpenter":
        d.line([cx - s * 0.7, cy - s * 0.6, cx + s * 0.7, cy - s * 0.6], fill=ink, width=w * 2)
        d.line([cx, cy - s * 0.6, cx, cy + s * 0.8], fill=ink, width=w * 2)
    elif kind == "church":
        d.line([cx, cy - s * 0.9, cx, cy + s * 0.9], fill=ink, width=w * 2)
        d.line([cx - s * 0.5, cy - s * 0.35, cx + s * 0.5, cy - s * 0.35], fill=ink, width=w * 2)
    elif kind == "market":
        d.polygon(
            [
                (cx - s, cy - s * 0.2),
                (cx - s * 0.6, cy - s * 0.7),
                (cx + s * 0.6, cy - s * 0.7),
                (cx + s, cy - s * 0.2),
            ],
            fill=ink,
        )
        d.rectangle([cx - s * 0.8, cy, cx + s * 0.8, cy + s * 0.7], outline=ink, width=w)
    elif kind == "bank":
        d.ellipse(
            [cx - s * 0.8, cy - s * 0.8, cx + s * 0.8, cy + s * 0.8], outline=ink, width=w * 2
        )
        d.ellipse([cx - s * 0.3, cy - s * 0.3, cx + s * 0.3, cy + s * 0.3], fill=ink)
    elif kind == "townhall":
        d.polygon([(cx - s, cy - s * 0.3), (cx, cy - s), (cx + s, cy - s * 0.3)], fill=ink)
        for i in (-1, 0, 1):
            x = cx + i * s * 0.6
            d.line([x, cy - s * 0.2, x, cy + s * 0.7], fill=ink, width=w * 2)
        d.line([cx - s, cy + s * 0.8, cx + s, cy + s * 0.8], fill=ink, width=w)


def draw_tile(d: ImageDraw.ImageDraw, tile: dict[str, Any], cx: float, cy: float, r: float) -> None:
    kind, face = tile["type"], tile["face"]
    colour = TYPE_COLOURS[kind]
    draw_hex(d, cx, cy, r, colour, mix(colour, (0, 0, 0), 0.45))
    ink = ICON_INK.get(kind, INK)
    if kind == "building":
        icon(d, face, cx, cy, r * 0.5, ink)
    elif kind == "animal":
        animal, value = face[:-1], int(face[-1])
        fill = ANIMAL_COLOURS[animal]
        a = r * 0.13
        for i in range(value):
            x = cx + (i - (value - 1) / 2) * r * 0.32
            y = cy - r * 0.22
            shape = [x - a, y - a, x + a, y + a]
            if animal == "hen":
                d.polygon([(x, y - a), (x + a, y + a), (x - a, y + a)], fill=fill, outline=INK)
            elif animal == "cow":
                d.rectangle(shape, fill=fill, outline=INK)
            else:
                d.ellipse(shape, fill=fill, outline=INK)
        text(d, (cx, cy + r * 0.38), str(value), round(r * 0.5), INK)
    elif kind == "knowledge":
        icon(d, "knowledge", cx, cy - r * 0.3, r * 0.3, ink)
        text(d, (cx, cy + r * 0.3), face[1:], round(r * 0.55), INK)
    else:
        icon(d, kind, cx, cy, r * 0.5, ink)


def draw_space(
    d: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float, die: int | None = None
) -> None:
    colour = TYPE_COLOURS[kind]
    draw_hex(d, cx, cy, r, mix(colour, (255, 255, 255), 0.6), mix(colour, (0, 0, 0), 0.2))
    faint = mix(colour, (0, 0, 0), 0.4)
    if die is None:
        icon(d, kind, cx, cy, r * 0.45, faint)
    else:
        icon(d, kind, cx, cy - r * 0.28, r * 0.32, faint)
        text(d, (cx, cy + r * 0.42), str(die), round(r * 0.55), mix(colour, (0, 0, 0), 0.55))


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


def draw_goods(
    d: ImageDraw.ImageDraw, x: float, y: float, s: float, kind: int, count: int = 1
) -> None:
    """A stack of goods tiles: coloured squares offset, the die number on top, the count."""
    for i in range(min(count, 4)):
        o = (min(count, 4) - 1 - i) * 3
        d.rectangle([x + o, y - o, x + o + s, y - o + s], fill=GOODS_COLOURS[kind], outline=INK)
    text(d, (x + s / 2, y + s / 2), str(kind), round(s * 0.6), (255, 255, 255))
    if count > 1:
        d.ellipse([x + s - 4, y + s - 10, x + s + 12, y + s + 6], fill=INK)
        text(d, (x + s + 4, y + s - 2), str(count), 12, (255, 255, 255))


def counter(d: ImageDraw.ImageDraw, x: float, y: float, kind: str, n: int) -> None:
    """Silverlings (grey octagon) or workers (tan square) with their number."""
    if kind == "silver":
        pts = [
            (
                x + 13 + 13 * math.cos(math.radians(45 * i + 22.5)),
                y + 13 + 13 * math.sin(math.radians(45 * i + 22.5)),
            )
            for i in range(8)
        ]
        d.polygon(pts, fill=(198, 200, 206), outline=INK)
    else:
        d.rectangle([x + 1, y + 1, x + 25, y + 25], fill=(200, 160, 110), outline=INK)
        d.ellipse([x + 9, y + 4, x + 17, y + 12], fill=INK)
        d.rectangle([x + 7, y + 13, x + 19, y + 22], fill=INK)
    text(d, (x + 44, y + 13), str(n), 20, INK)


# -- the central board --------------------------------------------------------------------------
def draw_board(d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    d.rounded_rectangle(
        [MARGIN, MARGIN, WIDTH - MARGIN, BOARD_H], radius=14, fill=PANEL, outline=FAINT, width=2
    )
    cx, cy = 330, MARGIN + (BOARD_H - MARGIN) / 2
    d.ellipse([cx - 290, cy - 195, cx + 290, cy + 195], fill=(238, 232, 214), outline=FAINT)
    for depot in view["depots"]:
        a = math.radians(-90 + 60 * (depot["number"] - 1))
        draw_depot(d, depot, cx + 205 * math.cos(a), cy + 140 * math.sin(a))
    draw_black_depot(d, view["black"], cx, cy)
    draw_phases(d, view, 680, MARGIN + 22)
    draw_bridge(d, view, 680, MARGIN + 120)
    draw_supply(d, view, 700, BOARD_H - 28)
    draw_bonus_tiles(d, view, 1190, MARGIN + 22)


def draw_depot(d: ImageDraw.ImageDraw, depot: dict[str, Any], x: float, y: float) -> None:
    r = 21
    draw_die(d, x - 66, y - 34, 28, depot["number"])
    spots = [(-10, -16), (27, -16), (8, 16), (45, 16)]
    for (dx, dy), space in zip(spots, depot["spaces"], strict=False):
        if space["tile"]:
            draw_tile(d, space["tile"], x + dx, y + dy, r)
        else:
            draw_space(d, space["type"], x + dx, y + dy, r)
    kinds: dict[int, int] = {}
    for g in depot["goods"]:
        kinds[g] = kinds.get(g, 0) + 1
    for i, (kind, n) in enumerate(sorted(kinds.items())):
        draw_goods(d, x - 72 + (i % 2) * 30, y + 4 + (i // 2) * 24, 18, kind, n)


def draw_black_depot(d: ImageDraw.ImageDraw, black: list[Any], cx: float, cy: float) -> None:
    r = 19
    cols = 4
    rows = math.ceil(len(black) / cols)
    d.rounded_rectangle(
        [cx - 84, cy - rows * 18 - 4, cx + 84, cy + rows * 18 + 4], radius=10, fill=(58, 52, 48)
    )
    for i, t in enumerate(black):
        x = cx - 51 + (i % cols) * 34 + (17 if i // cols else 0) - 8
        y = cy - (rows - 1) * 16 + (i // cols) * 32
        if t:
            draw_tile(d, t, x, y, r)
        else:
            draw_hex(d, x, y, r, (80, 74, 68), (110, 102, 94))


def draw_phases(d: ImageDraw.ImageDraw, view: dict[str, Any], x: float, y: float) -> None:
    for i, bonus in enumerate(components().table["scoring"]["phase_bonus"].values()):
        bx = x + i * 96
        current = i == view["phase_index"]
        fill = (250, 224, 140) if current else (236, 230, 214)
        d.rounded_rectangle(
            [bx, y, bx + 86, y + 64],
            radius=8,
            fill=fill,
            outline=INK if current else FAINT,
            width=3 if current else 1,
        )
        text(d, (bx + 26, y + 32), str(bonus), 26, INK if i >= view["phase_index"] else FAINT)
        for k in range(view["phase_goods_left"][i]):
            d.rectangle(
                [
                    bx + 52 + (k % 2) * 14,
                    y + 8 + (k // 2) * 16,
                    bx + 63 + (k % 2) * 14,
                    y + 20 + (k // 2) * 16,
                ],
                fill=(90, 84, 78),
            )
    ry = y + 92
    played = 5 - len(view["round_goods"])
    for i in range(5):
        bx = x + i * 72
        d.rounded_rectangle(
            [bx, ry, bx + 60, ry + 60],
            radius=8,
            fill=(236, 230, 214),
            outline=INK if i == view["round"] - 1 else FAINT,
            width=3 if i == view["round"] - 1 else 1,
        )
        if i >= played:
            draw_goods(d, bx + 12, ry + 12, 36, view["round_goods"][i - played])
    if view["white"]:
        draw_die(d, x + 380, ry + 4, 52, view["white"])


def draw_bridge(d: ImageDraw.ImageDraw, view: dict[str, Any], x: float, y: float) -> None:
    spaces = len(view["bridge"])
    step = 64
    d.rounded_rectangle([x - 6, y + 150, x + spaces * step, y + 170], radius=8, fill=(160, 130, 95))
    for i, stack in enumerate(view["bridge"]):
        bx = x + i * step
        d.rectangle([bx, y + 146, bx + step - 10, y + 174], outline=INK, width=1)
        for depth, seat in enumerate(stack):
            py = y + 128 - (len(stack) - 1 - depth) * 28
            colour = PLAYER_COLOURS[seat]
            d.ellipse([bx + 12, py - 12, bx + 40, py + 16], fill=colour, outline=INK, width=2)
            text(d, (bx + 26, py + 2), str(seat + 1), 16, (255, 255, 255))
    ax = x + spaces * step + 10
    d.polygon([(ax, y + 150), (ax + 22, y + 160), (ax, y + 170)], fill=INK)
    order_y = y + 186
    for i, seat in enumerate(view["order"]):
        bx = x + i * 40
        active = seat == view["active"]
        d.rounded_rectangle(
            [bx, order_y, bx + 32, order_y + 20],
            radius=6,
            fill=PLAYER_COLOURS[seat],
            outline=INK,
            width=3 if active else 1,
        )


def draw_supply(d: ImageDraw.ImageDraw, view: dict[str, Any], x: float, y: float) -> None:
    """The face-down piles by back colour, with how many tiles are left in each."""
    for i, back in enumerate((*TYPE_ORDER, "black")):
        cx = x + i * 66
        colour = TYPE_COLOURS.get(back, (58, 52, 48))
        for k in range(3):
            draw_hex(d, cx, y - k * 3, 15, mix(colour, (0, 0, 0), 0.15), INK)
        text(d, (cx + 30, y), str(view["supply"][back]), 16, INK)


def draw_bonus_tiles(d: ImageDraw.ImageDraw, view: dict[str, Any], x: float, y: float) -> None:
    n = view["num_players"]
    for row, kind in enumerate(TYPE_ORDER):
        left = view["bonus_left"][kind]
        for col, size in enumerate(("large", "small")):
            cx, cy = x + 40 + col * 110, y + 22 + row * 62
            r = 26 if size == "large" else 20
            there = size in left
            colour = TYPE_COLOURS[kind] if there else mix(TYPE_COLOURS[kind], PANEL, 0.8)
            draw_hex(d, cx, cy, r, colour, INK if there else FAINT)
            icon(d, kind, cx, cy, r * 0.45, ICON_INK.get(kind, INK) if there else FAINT)
            points = components().table["scoring"][f"bonus_{size}"][str(n)]
            text(d, (cx + r + 24, cy), str(points), 22, INK if there else FAINT)


# -- the players --------------------------------------------------------------------------------
def hex_centre(q: int, r: int, size: float, ox: float, oy: float) -> tuple[float, float]:
    return ox + size * math.sqrt(3) * (q + r / 2), oy + size * 1.5 * r


def draw_player(
    d: ImageDraw.ImageDraw, view: dict[str, Any], seat: int, x: float, y: float, w: float
) -> None:
    p = view["players"][seat]
    colour = PLAYER_COLOURS[seat]
    active = seat == view["active"]
    d.rounded_rectangle(
        [x, y, x + w, y + PANEL_H],
        radius=14,
        fill=PANEL,
        outline=colour if active else FAINT,
        width=5 if active else 2,
    )
    d.rounded_rectangle([x, y, x + w, y + 46], radius=14, fill=colour)
    text(d, (x + 26, y + 23), str(seat + 1), 26, (255, 255, 255))
    score = view["final"]["scores"][seat] if view.get("final") else p["score"]
    text(d, (x + 86, y + 23), str(score), 30, (255, 255, 255))
    if view.get("final"):
        draw_rank(d, x + w - 120, y + 23, view["final"]["ranks"][seat])
    if p["lap"]:
        d.rounded_rectangle([x + 124, y + 10, x + 176, y + 36], radius=6, fill=(255, 255, 255))
        text(d, (x + 150, y + 23), str(100 * p["lap"]), 16, colour)
    pending = view.get("pending") if active else None
    for i, (value, used) in enumerate(zip(p["dice"], p["used"], strict=True)):
        dx = x + w - 84 + i * 40
        draw_die(d, dx, y + 7, 32, value, used, mix(colour, (255, 255, 255), 0.75))
        if pending and pending["die"] == i:
            d.rounded_rectangle([dx - 3, y + 4, dx + 35, y + 42], radius=7, outline=INK, width=3)
    if pending and pending["castle"]:
        icon(d, "castle", x + w - 110, y + 23, 11, (255, 255, 255))
    size = 28 if w > 600 else 25
    ox, oy = x + w / 2 - 4, y + 54 + 5.5 * size
    for h in view["estate_board"]:
        cx, cy = hex_centre(h["q"], h["r"], size, ox, oy)
        placed = p["estate"].get(str(h["id"]))
        if placed:
            draw_tile(d, placed, cx, cy, size - 1)
        else:
            draw_space(d, h["type"], cx, cy, size - 1, h["die"])
    draw_area_edges(d, view["estate_board"], size, ox, oy)
    counter(d, x + 14, y + 60, "silver", p["silver"])
    counter(d, x + 14, y + 94, "workers", p["workers"])
    draw_footer(d, p, x, y + PANEL_H - 98, w)


# Pointy-top hex edges in hex_points order (from the right side clockwise) and the axial step to
# the neighbour across each edge.
EDGE_STEPS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def draw_area_edges(
    d: ImageDraw.ImageDraw, board: list[dict[str, Any]], size: float, ox: float, oy: float
) -> None:
    """A dark line around every area (same-colour region), so areas read apart by outline as
    well as by colour and icon."""
    kind_at = {(h["q"], h["r"]): h["type"] for h in board}
    width = max(2, round(size / 9))
    for h in board:
        corners = hex_points(*hex_centre(h["q"], h["r"], size, ox, oy), size - 1)
        for i, (dq, dr) in enumerate(EDGE_STEPS):
            if kind_at.get((h["q"] + dq, h["r"] + dr)) != h["type"]:
                d.line([corners[i], corners[(i + 1) % 6]], fill=INK, width=width)


def draw_rank(d: ImageDraw.ImageDraw, cx: float, cy: float, rank: int) -> None:
    """A star with the final place in it (gold for the winner)."""
    points = []
    for i in range(10):
        r = 19 if i % 2 == 0 else 8
        a = math.radians(-90 + 36 * i)
        points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    d.polygon(points, fill=(245, 200, 40) if rank == 1 else (235, 235, 235), outline=INK)
    text(d, (cx, cy + 2), str(rank), 14, INK)


def draw_footer(d: ImageDraw.ImageDraw, p: dict[str, Any], x: float, y: float, w: float) -> None:
    """Storage and goods on one row; sold goods and bonus tiles below."""
    d.line([x + 12, y - 6, x + w - 12, y - 6], fill=FAINT, width=1)
    for i in range(3):
        cx, cy = x + 36 + i * 50, y + 26
        if i < len(p["storage"]):
            draw_tile(d, p["storage"][i], cx, cy, 24)
        else:
            draw_hex(d, cx, cy, 24, (236, 230, 214), FAINT)
    for i, (kind, n) in enumerate(p["goods"].items()):
        draw_goods(d, x + 190 + i * 52, y + 12, 28, int(kind), n)
    row = y + 76
    for k in range(min(p["sold"], 3)):
        d.rectangle(
            [x + 14 + 3 * k, row - 12 - 3 * k, x + 38 + 3 * k, row + 12 - 3 * k],
            fill=(90, 84, 78),
            outline=INK,
        )
    text(d, (x + 58, row), str(p["sold"]), 16, INK)
    for i, bonus in enumerate(p["bonus"]):
        kind, size = bonus.split(":")
        r = 15 if size == "large" else 11
        cx = x + 96 + i * 34
        draw_hex(d, cx, row, r, TYPE_COLOURS[kind], INK)
        icon(d, kind, cx, row, r * 0.45, ICON_INK.get(kind, INK))


def render(view: dict[str, Any]) -> Image.Image:
    n = view["num_players"]
    image = Image.new("RGB", (WIDTH, BOARD_H + PANEL_H + 3 * MARGIN), BACKGROUND)
    d = ImageDraw.Draw(image)
    draw_board(d, view)
    w = (WIDTH - MARGIN * (n + 1)) / n
    for seat in range(n):
        draw_player(d, view, seat, MARGIN + seat * (w + MARGIN), BOARD_H + 2 * MARGIN, w)
    return image


# -- the private picture ------------------------------------------------------------------------
PRIVATE_W = 1000
SOLD_W = 300


def render_private(view: dict[str, Any]) -> Image.Image | None:
    """The seat's own estate panel beside its sold goods, face down by kind: the one secret."""
    you = view.get("you")
    if not you:
        return None
    seat = you["seat"]
    image = Image.new("RGB", (PRIVATE_W, PANEL_H + 2 * MARGIN), BACKGROUND)
    d = ImageDraw.Draw(image)
    panel_w = PRIVATE_W - SOLD_W - 3 * MARGIN
    draw_player(d, view, seat, MARGIN, MARGIN, panel_w)
    draw_sold(d, you["sold"], seat, PRIVATE_W - SOLD_W - MARGIN, MARGIN)
    return image


def draw_sold(d: ImageDraw.ImageDraw, sold: dict[str, int], seat: int, x: float, y: float) -> None:
    """One row per goods kind: the sold tiles stacked face down, edged in the kind's colour,
    with their count; a kind never sold stays an empty outline. Below: kinds sold, tiles sold
    (what knowledge tiles 15 and 25 count)."""
    d.rounded_rectangle(
        [x, y, x + SOLD_W, y + PANEL_H], radius=14, fill=PANEL, outline=FAINT, width=2
    )
    d.rounded_rectangle([x, y, x + SOLD_W, y + 46], radius=14, fill=PLAYER_COLOURS[seat])
    for k in range(3):
        d.rectangle(
            [x + 24 + 4 * k, y + 10 - 2 * k, x + 50 + 4 * k, y + 36 - 2 * k],
            fill=(90, 84, 78),
            outline=(255, 255, 255),
        )
    text(d, (x + 84, y + 23), str(sum(sold.values())), 26, (255, 255, 255))
    for kind in range(1, 7):
        n = sold.get(str(kind), 0)
        ry = y + 62 + (kind - 1) * 58
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
    row = y + PANEL_H - 34
    d.line([x + 12, row - 26, x + SOLD_W - 12, row - 26], fill=FAINT, width=1)
    draw_hex(d, x + 40, row, 20, TYPE_COLOURS["knowledge"], INK)
    text(d, (x + 40, row), "15", 16, INK)
    text(d, (x + 84, row), str(kinds), 22, INK)
    draw_hex(d, x + 150, row, 20, TYPE_COLOURS["knowledge"], INK)
    text(d, (x + 150, row), "25", 16, INK)
    text(d, (x + 194, row), str(sum(sold.values())), 22, INK)


# -- labels and secrets -------------------------------------------------------------------------
TYPE_EMOJI = {
    "building": "🏠",
    "animal": "🐄",
    "knowledge": "📜",
    "castle": "🏰",
    "mine": "⛏️",
    "ship": "⛵",
}
ACTION_EMOJI = {"take": "📥", "place": "🧩", "sell": "💰", "workers": "👷"}


def option_style(decision: Decision, option: Option) -> OptionStyle | None:
    kind, oid = decision.kind, option.id
    if kind in ("die", "castle"):
        if oid == "buy":
            return OptionStyle(label="Buy (2)", emoji="⬛", description=option.label)
        if oid == "end":
            return OptionStyle(label="End turn", emoji="⏹️")
        return OptionStyle(label=option.label, emoji="🎲")
    if kind == "action":
        return OptionStyle(emoji=ACTION_EMOJI.get(oid), label=option.label)
    if kind in ("take", "place", "discard", "effect_take", "townhall", "buy"):
        face = oid.split("@")[0].split("/")[0]
        return OptionStyle(label=option.label, emoji=face_emoji(face), description=explain(face))
    if kind in ("ship", "shipgoods", "warehouse"):
        return OptionStyle(label=option.label, emoji="⛵" if kind == "ship" else "📦")
    return None


def explain(face: str) -> str | None:
    """What a tile does, from the component data (knowledge tiles and buildings)."""
    table = components().table
    if face.startswith("k") and face[1:].isdigit():
        return table["knowledge"]["tiles"][face[1:]]
    return table["buildings"].get(face)


def face_emoji(face: str) -> str | None:
    if face.startswith("k") and face[1:].isdigit():
        return TYPE_EMOJI["knowledge"]
    if face in TYPE_EMOJI:
        return TYPE_EMOJI[face]
    if face[:-1] in ANIMAL_COLOURS:
        return {"cow": "🐄", "sheep": "🐑", "pig": "🐖", "hen": "🐔"}[face[:-1]]
    return TYPE_EMOJI["building"] if face != "skip" else None


def private_text(view: dict[str, Any]) -> str:
    you = view.get("you")
    if not you:
        return "You are watching."
    p = view["players"][you["seat"]]
    sold = ", ".join(f"{n}× goods {g}" for g, n in you["sold"].items()) or "nothing yet"
    storage = ", ".join(t["face"] for t in p["storage"]) or "empty"
    goods = ", ".join(f"{n}× {g}" for g, n in p["goods"].items()) or "none"
    return (
        f"**Seat {you['seat'] + 1}**: {p['score']} points\n"
        f"Dice: {' '.join(str(v) for v in p['dice'])} · workers {p['workers']} · "
        f"silverlings {p['silver']}\n"
        f"Storage: {storage}\nGoods: {goods}\nSold (face down): {sold}"
    )


RULES = """\
**The Castles of Burgundy** (alea 2011), 2 to 4 players, five phases of five rounds.
Every player uses estate board no. 1. A turn: pick a die (workers turn it by 1, wrapping \
6 and 1), then its action: take a tile from that depot, place a stored tile on a matching \
hex, sell that kind of goods, or take 2 workers. Once per turn you may buy a black-depot \
tile for 2 silverlings. Castles, ships, buildings and knowledge tiles work as printed; \
follow-ups (castle action, town hall, ship goods, warehouse) are asked in turn.
Move text: die `5` (or `2+1`: a 2 raised by a worker; castle `c4`), action \
`take`/`place`/`sell`/`workers`, then the tile (`bank`, `k12`, `cow3@14`); `buy`, `end`. \
A ship names a depot (`3`, or `none` for an empty one: no goods).
Option `tiebreak`: `written` (fewer empty estate spaces wins ties, the default) or `other`. \
Option `start`: `random` (a die decides who starts, the default) or `seat1` (lobby order).
**Reconstructed, not printed here:** the die numbers of board 1 (two hobby \
transcriptions; its colours and towns match the 2011 rules), the animal values (2,2,3,3,4; \
black 3,4), the colour of each depot space, knowledge tile 15's 3 points per kind sold \
(2011; 2019 says 2), and depots 6 and 1 counting as neighbours for knowledge tile 5. \
Knowledge tile 6 buys with silverlings only, as in 2011."""


def rules_text() -> str:
    """Markdown for `/rules`: the game as played here and its reconstructed facts."""
    return RULES
