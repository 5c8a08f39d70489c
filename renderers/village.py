"""The Village table: the village board, the travel map, the chronicle and every farmyard
(and Karla's board in a solo game), drawn from the spectator view alone, without words."""

from __future__ import annotations

import math
from typing import Any

from PIL import Image, ImageDraw

from games.core import Decision, Option
from renderers import OptionStyle
from renderers.palette import BACKGROUND, INK, MUTED, font

WIDTH, HEIGHT = 1600, 1040
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
CITY_AT = {
    "village": (0.50, 0.92),
    "north": (0.50, 0.62),
    "west": (0.18, 0.74),
    "hill": (0.78, 0.40),
    "forest": (0.30, 0.40),
    "lake": (0.10, 0.30),
    "capital": (0.55, 0.12),
}
REWARD_TINT = {"prestige": (236, 200, 90), "cubes": (200, 150, 190), "coin": (220, 180, 60)}


def seat_colour(seat: int) -> tuple[int, int, int]:
    return KARLA if seat < 0 else SEATS[seat % len(SEATS)]


def contrast(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    return INK if sum(colour) > 500 else (250, 250, 250)


# -- small drawings -------------------------------------------------------------------


def text(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    value: Any,
    size: int = 16,
    fill: tuple[int, int, int] = INK,
) -> None:
    d.text(xy, str(value), font=font(size), fill=fill, anchor="mm")


def cube(d: ImageDraw.ImageDraw, x: float, y: float, colour: str, s: int = 14) -> None:
    d.rounded_rectangle((x, y, x + s, y + s), radius=3, fill=CUBES[colour], outline=INK)


def pawn(
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    seat: int,
    number: int | str,
    r: int = 11,
    lying: bool = False,
) -> None:
    colour = seat_colour(seat)
    if lying:
        d.rounded_rectangle(
            (x - r - 4, y - r + 4, x + r + 4, y + r - 4), radius=6, fill=colour, outline=INK
        )
    else:
        d.ellipse((x - r, y - r - 3, x + r, y + r - 3), fill=colour, outline=INK)
        d.rectangle((x - r + 3, y + r - 8, x + r - 3, y + r + 2), fill=colour, outline=INK)
    text(d, (x, y - 1), number, size=r + 2, fill=contrast(colour))


def good(d: ImageDraw.ImageDraw, x: float, y: float, name: str, s: int = 22) -> None:
    """A goods token: a coloured disc with a simple mark for each good."""
    colour = GOODS[name]
    d.ellipse((x, y, x + s, y + s), fill=colour, outline=INK)
    c, m = x + s / 2, s / 4
    if name == "scroll":
        d.rectangle((c - m, y + m, c + m, y + s - m), outline=INK)
        d.line((c - m + 2, y + s / 2, c + m - 2, y + s / 2), fill=INK)
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
            width=2,
        )
        d.ellipse((c - m + 2, y + m + 2, c + m - 2, y + s - m), fill=(250, 240, 220))
    elif name == "wagon":
        d.ellipse((c - m, y + m, c + m, y + s - m), outline=INK, width=2)
        d.line((c - m, y + s / 2, c + m, y + s / 2), fill=INK)
        d.line((c, y + m, c, y + s - m), fill=INK)
    elif name == "grain":
        for k in (-1, 0, 1):
            d.line((c + k * m / 1.5, y + s - m, c + k * m, y + m), fill=(120, 90, 30), width=2)


def coin(d: ImageDraw.ImageDraw, x: float, y: float, s: int = 22) -> None:
    d.ellipse((x, y, x + s, y + s), fill=(232, 196, 70), outline=(150, 110, 30), width=2)
    d.ellipse((x + 6, y + 6, x + s - 6, y + s - 6), outline=(170, 130, 40))


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


def quill(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float = 10) -> None:
    d.polygon(
        [(cx - s, cy + s), (cx + s * 0.8, cy - s), (cx + s, cy - s * 0.6), (cx - s * 0.6, cy + s)],
        fill=(250, 250, 250),
        outline=INK,
    )


def space_icon(d: ImageDraw.ImageDraw, name: str, cx: float, cy: float, s: float = 14) -> None:
    """One glyph per action space."""
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
) -> None:
    d.rounded_rectangle(xy, radius=radius, fill=fill, outline=LINE, width=2)


def customer_tile(
    d: ImageDraw.ImageDraw, x: float, y: float, tile: dict[str, Any] | None, s: int = 84
) -> None:
    if tile is None:
        d.rounded_rectangle((x, y, x + s, y + s), radius=8, outline=LINE, width=2)
        return
    d.rounded_rectangle((x, y, x + s, y + s), radius=8, fill=(250, 244, 228), outline=INK)
    star(d, x + s - 16, y + 16, 12)
    text(d, (x + s - 16, y + 17), tile["points"], size=13)
    wants = [g for g, n in tile["wants"].items() for _ in range(n)]
    for k, name in enumerate(wants):
        good(d, x + 6 + (k % 3) * 25, y + 34 + (k // 3) * 25, name, 22)


# -- the village board ----------------------------------------------------------------


def draw_spaces(d: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y0: int) -> None:
    w = 106
    for i, name in enumerate(SPACES):
        x = x0 + i * (w + 6)
        box(d, (x, y0, x + w, y0 + 128), SPACE_TINT[name])
        space_icon(d, name, x + w / 2, y0 + 24)
        for k, colour in enumerate(view["spaces"].get(name, [])):
            cube(d, x + 10 + (k % 5) * 18, y0 + 50 + (k // 5) * 18, colour)


def draw_market(d: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y0: int) -> None:
    box(d, (x0, y0, x0 + 772, y0 + 206), SPACE_TINT["market"])
    space_icon(d, "market", x0 + 26, y0 + 26)
    for i, tile in enumerate(view["stalls"]):
        open_stall = i < view["open_stalls"]
        x = x0 + 60 + i * 92
        if open_stall:
            d.rounded_rectangle(
                (x - 3, y0 + 9, x + 87, y0 + 99), radius=10, outline=(40, 90, 170), width=3
            )
        customer_tile(d, x, y0 + 12, tile)
    for i in range(5):
        tile = view["queue"][i] if i < len(view["queue"]) else None
        x = x0 + 60 + i * 92
        d.rounded_rectangle(
            (x - 3, y0 + 107, x + 87, y0 + 197), radius=10, outline=(150, 100, 60), width=3
        )
        customer_tile(d, x, y0 + 110, tile)
    # The face-down stack.
    sx = x0 + 540
    for k in range(min(4, view["customers_left"])):
        d.rounded_rectangle(
            (sx + 40 + k * 3, y0 + 60 - k * 3, sx + 124 + k * 3, y0 + 144 - k * 3),
            radius=8,
            fill=(120, 150, 190),
            outline=INK,
        )
    text(d, (sx + 91, y0 + 100), view["customers_left"], size=22, fill=(250, 250, 250))
    if view.get("karla") is not None:
        karla_marker(d, view, x0 + 60, y0 + 4)


def karla_marker(d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int) -> None:
    front = next((i for i, t in enumerate(view["stalls"]) if t), None)
    if front is not None:
        cx = x + front * 92 + 42
        d.ellipse((cx - 7, y - 2, cx + 7, y + 12), fill=KARLA, outline=INK)


def members_by(view: dict[str, Any], key: str) -> list[dict[str, Any]]:
    return sorted(view[key], key=lambda m: (m["seat"], m["number"]))


def draw_workshops(d: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y0: int) -> None:
    shops = (
        ("wainwright", "wagon"),
        ("stables", "horse"),
        ("office", "scroll"),
        ("smithy", "plow"),
        ("mill", "grain"),
    )
    w = 150
    for i, (name, product) in enumerate(shops):
        x = x0 + i * (w + 5)
        box(d, (x, y0, x + w, y0 + 118), SPACE_TINT["crafts"])
        good(d, x + 8, y0 + 8, product, 26)
        if name == "stables":
            good(d, x + 38, y0 + 8, "ox", 26)
        if name == "mill":
            coin(d, x + 40, y0 + 10, 22)
            coin(d, x + 54, y0 + 10, 22)
        here = [m for m in members_by(view, "workshops") if m["where"] == name]
        for k, m in enumerate(here):
            pawn(d, x + 18 + (k % 6) * 23, y0 + 60 + (k // 6) * 30, m["seat"], m["number"], 10)


def draw_stages(
    d: ImageDraw.ImageDraw,
    members: list[dict[str, Any]],
    x0: int,
    y0: int,
    tint: tuple[int, int, int],
    icon: str,
    extra: dict[int, int] | None = None,
) -> None:
    w = 92
    for stage in range(1, 5):
        x = x0 + (stage - 1) * (w + 4)
        box(d, (x, y0, x + w, y0 + 150), tint)
        for k in range(stage):
            space_icon(d, icon, x + 14 + k * 20, y0 + 18, 7)
        here = [m for m in members if m["stage"] == stage]
        for k, m in enumerate(here):
            pawn(d, x + 18 + (k % 4) * 19, y0 + 50 + (k // 4) * 28, m["seat"], m["number"], 9)
        if extra and stage in extra:
            pawn(d, x + w - 16, y0 + 130, -1, extra[stage], 9)


def draw_council_and_church(d: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y0: int) -> None:
    draw_stages(d, members_by(view, "council"), x0, y0, SPACE_TINT["council"], "council")
    if view["next_start"] is None:
        ring(d, x0 + 70, y0 + 20, INK)
    karla = view.get("karla")
    extra = {int(s): n for s, n in karla["church"].items()} if karla else None
    draw_stages(d, members_by(view, "church"), x0 + 392, y0, SPACE_TINT["church"], "church", extra)
    # The black bag, open for all to see.
    bx, by = x0 + 392 + 4 * 96 - 4, y0 + 160
    d.pieslice((bx - 384, by - 4, bx, by + 64), 0, 180, fill=(40, 36, 36))
    d.rectangle((bx - 384, by - 4, bx, by + 28), fill=(40, 36, 36))
    for k, token in enumerate(view["black_bag"]):
        x = bx - 370 + (k % 16) * 23
        y = by + 14 + (k // 16) * 26
        if token["seat"] == -2:
            d.ellipse((x - 9, y - 10, x + 9, y + 8), fill=(10, 10, 10), outline=(120, 120, 120))
            d.line((x - 4, y - 1, x + 4, y - 1), fill=(200, 200, 200), width=2)
            d.line((x, y - 6, x, y + 4), fill=(200, 200, 200), width=2)
        else:
            pawn(d, x, y, token["seat"], token["number"], 9)


def ring(d: ImageDraw.ImageDraw, cx: float, cy: float, colour: tuple[int, int, int]) -> None:
    d.ellipse((cx - 9, cy - 9, cx + 9, cy + 9), outline=colour, width=4)
    d.ellipse((cx - 3, cy - 13, cx + 3, cy - 7), fill=(90, 160, 220), outline=INK)


def draw_travel(
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    rewards: dict[str, str],
    routes: list[tuple[str, str, dict[str, int]]],
    x0: int,
    y0: int,
    w: int,
    h: int,
) -> None:
    box(d, (x0, y0, x0 + w, y0 + h), (226, 234, 214))

    def at(city: str) -> tuple[float, float]:
        fx, fy = CITY_AT.get(city, (0.5, 0.5))
        return x0 + 30 + fx * (w - 60), y0 + 20 + fy * (h - 40)

    for a, b, cost in routes:
        (ax, ay), (bx, by) = at(a), at(b)
        d.line((ax, ay, bx, by), fill=(150, 120, 80), width=5)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        colours = [c for c, n in cost.items() for _ in range(n)]
        for k, colour in enumerate(colours):
            cube(d, mx - 16 + k * 17, my - 7, colour, 13)
    for city in CITY_AT:
        cx, cy = at(city)
        if city == "village":
            space_icon(d, "family", cx, cy, 16)
            continue
        d.ellipse((cx - 26, cy - 26, cx + 26, cy + 26), fill=(250, 244, 228), outline=INK, width=2)
        reward = rewards.get(city, "")
        if reward == "prestige":
            star(d, cx + 16, cy - 16, 10)
            text(d, (cx + 16, cy - 15), 3, size=10)
        elif reward == "coin":
            coin(d, cx + 6, cy - 26, 18)
        elif reward == "cubes":
            cube(d, cx + 6, cy - 26, "pink", 10)
            cube(d, cx + 16, cy - 20, "orange", 10)
        seats = [s for s, p in enumerate(view["players"]) if city in p["cities"]]
        for k, seat in enumerate(seats):
            ang = math.pi * (0.6 + 0.25 * k)
            px, py = cx + 20 * math.cos(ang), cy + 20 * math.sin(ang)
            d.ellipse((px - 6, py - 6, px + 6, py + 6), fill=seat_colour(seat), outline=INK)
        travellers = [m for m in view["travellers"] if m["where"] == city]
        for k, m in enumerate(travellers):
            pawn(d, cx - 10 + (k % 3) * 14, cy - 2 + (k // 3) * 14, m["seat"], m["number"], 8)


def draw_chronicle(d: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y0: int) -> None:
    box(d, (x0, y0, x0 + 772, y0 + 196), (236, 226, 204))
    for i, cat in enumerate(CATEGORIES):
        x = x0 + 14 + i * 112
        space_icon(d, cat, x + 50, y0 + 20, 11)
        for k, mark in enumerate(view["chronicle"][cat]):
            slot(d, x + 4 + k * 20, y0 + 44, mark)
    gx = x0 + 580
    d.rounded_rectangle((gx, y0 + 10, gx + 180, y0 + 186), radius=8, fill=(200, 196, 186))
    for k, mark in enumerate(view["graves"]):
        cx, cy = gx + 30 + (k % 3) * 60, y0 + 44 + (k // 3) * 70
        d.rounded_rectangle(
            (cx - 22, cy - 18, cx + 22, cy + 48), radius=14, fill=(160, 156, 150), outline=INK
        )
        if mark == "x":
            d.line((cx - 12, cy, cx + 12, cy + 30), fill=INK, width=3)
            d.line((cx + 12, cy, cx - 12, cy + 30), fill=INK, width=3)
        elif mark:
            pawn(d, cx, cy + 16, -1 if mark == "k" else int(mark), "", 10, lying=True)


def slot(d: ImageDraw.ImageDraw, x: float, y: float, mark: str) -> None:
    d.rounded_rectangle((x, y, x + 16, y + 130), radius=6, fill=(250, 244, 228), outline=LINE)
    if mark == "x":
        d.rounded_rectangle((x, y, x + 16, y + 130), radius=6, fill=(190, 184, 172))
    elif mark:
        seat = -1 if mark == "k" else int(mark)
        d.rounded_rectangle(
            (x + 2, y + 30, x + 14, y + 110), radius=5, fill=seat_colour(seat), outline=INK
        )


# -- farmyards ------------------------------------------------------------------------


def draw_time_track(
    d: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    r: float,
    length: int,
    position: int,
    colour: tuple[int, int, int],
) -> None:
    for k in range(length):
        a = -math.pi / 2 + (k + 0.5) * 2 * math.pi / length
        x, y = cx + r * math.cos(a), cy + r * math.sin(a)
        d.ellipse((x - 7, y - 7, x + 7, y + 7), fill=(236, 226, 204), outline=LINE)
        if k == position:
            d.ellipse((x - 9, y - 9, x + 9, y + 9), fill=colour, outline=INK, width=2)
    quill(d, cx, cy - r, 8)


def draw_player(
    d: ImageDraw.ImageDraw, view: dict[str, Any], seat: int, x0: int, y0: int, w: int, h: int
) -> None:
    p = view["players"][seat]
    colour = seat_colour(seat)
    active = seat in view["active"]
    box(d, (x0, y0, x0 + w, y0 + h), (246, 238, 214))
    d.rounded_rectangle(
        (x0, y0, x0 + w, y0 + 34),
        radius=10,
        fill=colour,
        outline=INK if active else LINE,
        width=3 if active else 2,
    )
    text(d, (x0 + 20, y0 + 17), seat + 1, size=20, fill=contrast(colour))
    if view["start_player"] == seat:
        d.ellipse((x0 + 38, y0 + 7, x0 + 58, y0 + 27), fill=(250, 250, 250), outline=INK, width=2)
    if view["next_start"] == seat:
        ring(d, x0 + 74, y0 + 18, INK)
    star(d, x0 + w - 62, y0 + 17, 14)
    text(d, (x0 + w - 30, y0 + 17), p["prestige"], size=18, fill=contrast(colour))
    # Time track and the farm's family in the middle of it.
    cx, cy = x0 + 70, y0 + 112
    draw_time_track(d, cx, cy, 52, view["track_length"], p["time"], colour)
    for k, n in enumerate(p["farm"]):
        pawn(d, cx - 24 + (k % 3) * 24, cy - 14 + (k // 3) * 28, seat, n, 11)
    # Unborn family members: pale discs of the family's colour under the track.
    pale = tuple((c + 2 * b) // 3 for c, b in zip(colour, (246, 238, 214), strict=True))
    for k, n in enumerate(p["unborn"]):
        x = x0 + 16 + k * 22
        d.ellipse((x - 10, y0 + 174, x + 10, y0 + 194), fill=pale, outline=LINE, width=2)
        text(d, (x, y0 + 184), n, size=13, fill=INK)
    # Cubes, goods, grain, coins.
    gx = x0 + 138
    for k, (name, n) in enumerate(p["cubes"].items()):
        y = y0 + 46 + k * 26
        cube(d, gx, y, name, 18)
        text(d, (gx + 34, y + 9), n, size=16)
    hx = gx + 58
    for k, (name, n) in enumerate(p["goods"].items()):
        y = y0 + 44 + k * 27
        good(d, hx, y, name, 22)
        text(d, (hx + 36, y + 11), n, size=16, fill=INK if n else MUTED)
    kx = x0 + w - 56
    good(d, kx, y0 + 44, "grain", 22)
    text(d, (kx + 36, y0 + 55), p["grain"], size=16)
    coin(d, kx, y0 + 74)
    text(d, (kx + 36, y0 + 85), p["coins"] + (1 if p["marker_coin"] else 0), size=16)
    d.rounded_rectangle(
        (kx, y0 + 104, kx + 22, y0 + 126), radius=4, fill=(120, 150, 190), outline=INK
    )
    text(d, (kx + 36, y0 + 115), p["customers"], size=16)
    d.ellipse((kx + 2, y0 + 136, kx + 20, y0 + 154), fill=colour, outline=INK)
    text(d, (kx + 36, y0 + 145), len(p["cities"]), size=16)
    if p["deaths_due"]:
        quill(d, kx + 10, y0 + 172, 9)
        text(d, (kx + 36, y0 + 172), p["deaths_due"], size=16)
    if "scores" in view:
        d.rounded_rectangle(
            (x0 + 8, y0 + h - 34, x0 + w - 8, y0 + h - 6),
            radius=8,
            fill=(252, 232, 160),
            outline=INK,
        )
        star(d, x0 + 26, y0 + h - 20, 11)
        text(d, (x0 + w / 2, y0 + h - 20), view["scores"][seat], size=20)


def draw_karla(
    d: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y0: int, w: int, h: int
) -> None:
    k = view["karla"]
    box(d, (x0, y0, x0 + w, y0 + h), (222, 232, 224))
    d.rounded_rectangle((x0, y0, x0 + w, y0 + 34), radius=10, fill=KARLA, outline=LINE, width=2)
    cx, cy, r = x0 + 130, y0 + 134, 80
    n = len(k["ring"])
    tiles = dict(zip([2, 4, 6], k["top"], strict=False))
    tiles.update(zip([8, 10, 0], k["bottom"], strict=False))
    for i in range(n):
        a = -math.pi / 2 + i * 2 * math.pi / n
        x, y = cx + r * math.cos(a), cy + r * math.sin(a)
        d.rounded_rectangle(
            (x - 15, y - 15, x + 15, y + 15),
            radius=5,
            fill=(250, 250, 244) if i != k["last"] else (255, 236, 180),
            outline=INK if i == k["last"] else LINE,
            width=2,
        )
        cubes = k["ring"][i][:4]
        if len(cubes) == 1:
            cube(d, x - 7, y - 7, cubes[0], 14)
        for j, colour in enumerate(cubes if len(cubes) > 1 else []):
            cube(d, x - 13 + (j % 2) * 13, y - 13 + (j // 2) * 13, colour, 12)
        if i in tiles:
            b = a - math.pi / n
            tx, ty = cx + (r - 40) * math.cos(b), cy + (r - 40) * math.sin(b)
            face = tiles[i]
            fill = (90, 80, 70) if face == "?" else (250, 250, 250)
            d.rounded_rectangle(
                (tx - 11, ty - 11, tx + 11, ty + 11), radius=4, fill=fill, outline=INK
            )
            if face == "quill":
                quill(d, tx, ty, 7)
    space_icon(d, "council", cx - 30, cy - r, 8)
    for j, number in enumerate(k["beside"]):
        pawn(d, x0 + 290 + (j % 4) * 24, y0 + 64 + (j // 4) * 30, -1, number, 10)
    space_icon(d, "church", x0 + 290, y0 + 140, 10)
    for j, number in enumerate(k["waiting"]):
        pawn(d, x0 + 316 + j * 24, y0 + 140, -1, number, 10)
    d.rounded_rectangle(
        (x0 + 280, y0 + 180, x0 + 302, y0 + 202), radius=4, fill=(120, 150, 190), outline=INK
    )
    text(d, (x0 + 322, y0 + 191), k["customers"], size=16)
    quill(d, x0 + 352, y0 + 191, 9)
    text(d, (x0 + 376, y0 + 191), k["dead"], size=16)


def render(view: dict[str, Any]) -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    d = ImageDraw.Draw(image)
    # Round and the phase of the round.
    d.ellipse((16, 10, 56, 50), fill=(250, 244, 228), outline=INK, width=2)
    text(d, (36, 30), view["round"], size=20)
    if view["phase"] == "mass":
        space_icon(d, "church", 80, 30, 12)
    if view["ending"]:
        quill(d, 110, 30, 12)
    draw_spaces(d, view, 16, 60)
    draw_market(d, view, 16, 200)
    draw_workshops(d, view, 16, 416)
    draw_council_and_church(d, view, 16, 544)
    routes = [(r["ends"][0], r["ends"][1], r["cubes"]) for r in view["map"]["routes"]]
    draw_travel(d, view, view["map"]["cities"], routes, 804, 14, 780, 370)
    draw_chronicle(d, view, 804, 394)
    draw_supply(d, view, 804, 600)
    draw_status(d, view, 804, 674)
    n = view["num_players"]
    slots = n + (1 if view.get("karla") else 0)
    w = (WIDTH - 32 - (slots - 1) * 10) // slots
    w = min(w, 420)
    y = 796
    for seat in range(n):
        draw_player(d, view, seat, 16 + seat * (w + 10), y, w, 230)
    if view.get("karla"):
        draw_karla(d, view, 16 + n * (w + 10), y, w, 230)
    return image


def draw_status(d: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y0: int) -> None:
    """Whose decision it is and what about: a seat disc and the icon of the step."""
    box(d, (x0, y0, x0 + 772, y0 + 96), PANEL)
    for k, seat in enumerate(view["active"]):
        cx = x0 + 50 + k * 60
        d.ellipse(
            (cx - 30, y0 + 18, cx + 30, y0 + 78), fill=seat_colour(seat), outline=INK, width=3
        )
        text(d, (cx, y0 + 48), seat + 1, size=26, fill=contrast(seat_colour(seat)))
    step = view["step"]
    ix = x0 + 150
    market = view.get("market")
    if market is not None:
        step = ""
    if step in SPACE_TINT:
        space_icon(d, step, ix, y0 + 48, 22)
    elif step == "turn":
        hourglass(d, ix, y0 + 48, 18)
    elif step == "die":
        quill(d, ix, y0 + 48, 20)
    elif step in ("buy", "advance"):
        space_icon(d, "church", ix, y0 + 48, 22)
    elif step == "karla":
        d.ellipse((ix - 20, y0 + 28, ix + 20, y0 + 68), fill=KARLA, outline=INK, width=2)
    elif step in ("privilege", "reward", "gift"):
        star(d, ix, y0 + 48, 22)
    if market is not None:
        space_icon(d, "market", ix + 70, y0 + 48, 20)
        trigger = market["trigger"]
        d.ellipse((ix + 96, y0 + 36, ix + 120, y0 + 60), fill=seat_colour(trigger), outline=INK)
        for k, seat in enumerate(market["passed"]):
            d.ellipse(
                (ix + 134 + k * 22, y0 + 40, ix + 150 + k * 22, y0 + 56),
                fill=seat_colour(seat),
                outline=MUTED,
            )
            d.line((ix + 134 + k * 22, y0 + 56, ix + 150 + k * 22, y0 + 40), fill=INK, width=2)
    if "title_rank" in view:
        draw_title(d, view["title_rank"], view["titles"], x0 + 260, y0 + 48)
    if view["ending"]:
        quill(d, x0 + 600, y0 + 48, 18)
        for k, seat in enumerate(view["final_turns"]):
            d.ellipse(
                (x0 + 630 + k * 26, y0 + 38, x0 + 650 + k * 26, y0 + 58),
                fill=seat_colour(seat),
                outline=INK,
            )


def draw_title(d: ImageDraw.ImageDraw, rank: int, titles: int, x: float, y: float) -> None:
    """The solo achievement title: a medal and one lit star per title reached."""
    d.ellipse((x - 26, y - 26, x + 26, y + 26), fill=(236, 200, 90), outline=INK, width=3)
    d.polygon([(x - 14, y + 20), (x - 24, y + 44), (x - 4, y + 34)], fill=KARLA, outline=INK)
    d.polygon([(x + 14, y + 20), (x + 24, y + 44), (x + 4, y + 34)], fill=KARLA, outline=INK)
    text(d, (x, y), rank, size=26)
    for k in range(titles):
        lit = k < rank
        star(d, x + 52 + k * 34, y, 14, (236, 200, 90) if lit else (226, 220, 206))


def draw_supply(d: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y0: int) -> None:
    """The general supply of influence and plague cubes (limited, unlike goods)."""
    box(d, (x0, y0, x0 + 772, y0 + 60), PANEL)
    for k, (colour, n) in enumerate(view["supply"].items()):
        x = x0 + 20 + k * 150
        cube(d, x, y0 + 20, colour, 20)
        text(d, (x + 50, y0 + 30), n, size=18)


# -- menus and private text -----------------------------------------------------------

EMOJI = {
    "harvest": "🌾",
    "family": "👶",
    "crafts": "🔨",
    "market": "🛒",
    "travel": "🧭",
    "council": "🏛️",
    "church": "⛪",
    "well": "🪣",
    "orange": "🟧",
    "green": "🟩",
    "brown": "🟫",
    "pink": "🌸",
    "black": "⬛",
    "die": "🪦",
    "karla": "🧓",
    "buy": "🪙",
    "advance": "⛪",
    "reward": "🎁",
    "privilege": "📜",
    "gift": "🎁",
}


def option_style(decision: Decision, option: Option) -> OptionStyle | None:
    parts = option.id.split("-")
    if decision.kind == "turn":
        if parts[0] == "well":
            return OptionStyle(
                label=f"Well: 3 {parts[1]} → {parts[2]}",
                emoji=EMOJI["well"],
                description=option.label,
            )
        if parts[0] == "free":
            return OptionStyle(label=parts[1].capitalize(), emoji=EMOJI.get(parts[1]))
        space, colour = parts
        label = f"{space.capitalize()} ({'plague' if colour == 'black' else colour})"
        return OptionStyle(label=label, emoji=EMOJI.get(colour), description=option.label)
    if option.id in ("skip", "none", "done", "pass"):
        return OptionStyle(label=option.label, emoji="⏭️")
    long = len(option.label) > 80
    return OptionStyle(
        label=option.label[:80],
        emoji=EMOJI.get(decision.kind),
        description=option.label[:100] if long else None,
    )


def private_text(view: dict[str, Any]) -> str:
    you = view.get("you")
    if not you:
        return "Nothing secret."
    lines = [f"**Your customers** ({you['customer_points']} prestige at the end):"]
    for tile in you["customers"]:
        wants = ", ".join(f"{n} {g}" for g, n in tile["wants"].items())
        lines.append(f"- {wants} → **{tile['points']}**")
    if not you["customers"]:
        lines.append("- none yet")
    return "\n".join(lines)


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
    tiles = you["customers"]
    rows = max(1, math.ceil(len(tiles) / 4))
    height = max(262, 96 + rows * (TILE + 10))
    image = Image.new("RGB", (PRIVATE_W, height), BACKGROUND)
    d = ImageDraw.Draw(image)
    draw_player(d, view, seat, 16, 16, 420, 230)
    x0, y0 = 452, 16
    box(d, (x0, y0, PRIVATE_W - 16, height - 16), PANEL)
    d.rounded_rectangle(
        (x0, y0, PRIVATE_W - 16, y0 + 52), radius=10, fill=seat_colour(seat), outline=LINE
    )
    d.rounded_rectangle((x0 + 16, y0 + 10, x0 + 48, y0 + 42), radius=4, fill=(120, 150, 190))
    text(d, (x0 + 76, y0 + 26), len(tiles), size=22, fill=contrast(seat_colour(seat)))
    star(d, PRIVATE_W - 104, y0 + 26, 16)
    text(d, (PRIVATE_W - 60, y0 + 26), you["customer_points"], size=24)
    for k, tile in enumerate(tiles):
        customer_tile(d, x0 + 16 + (k % 4) * (TILE + 10), y0 + 66 + (k // 4) * (TILE + 10), tile)
    if not tiles:
        customer_tile(d, x0 + 16, y0 + 66, None)
    return image


RULES = """\
**Village** (Big Box, Eggert/Plan B), 2 to 5 players, or solo against Karla. Each turn take \
one cube from an action space (or use the well: 3 cubes of one colour for any action) and act: \
harvest, family, crafts (train and make goods, or the mill), market day, council, travel, \
church. Time passes on your farmyard; passing the quill costs a life, and the dead fill the \
chronicle or the graves. A mass ends each round. The game ends when the last chronicle or \
grave space is taken. A solo score earns a title, apprentice (0-39) to sage (80+). The \
Big Box expansions (Inn, Port, Marriage) are not included.
Moves: a turn is `<space>-<colour>` (`crafts-pink`, `market-black`) or \
`well-<colour>-<space>`, then the action's choice (`born`, `go-north-2`, `serve-c03`, \
`skip`); `-coinsN` pays N coins in place of cubes (`enter-3-green-coins1`).
Options: `compensation` on/off (the suggested seat compensation), `start` random/seat1 \
(the rules' oldest player: drawn, or seat 1), `karla` standard/die (solo: Karla's colour by \
a die).
Your served customers are secret until the end (`/hand`).
**Reconstructed, not printed in the rulebook:** the life time track (10 spaces), the office \
training time, council promotion times, the setup cards' cube split \
(totals 18/21/24 are from reviews; 5 players reconstructed), how many chronicle and grave \
spaces each profession has, 21 of the 24 customer tiles, the travel map's layout and route \
costs, and Karla's board (ring size, fate tile places, clockwise order)."""


def rules_text() -> str:
    """Markdown for `/rules`: the game as played here and its reconstructed facts."""
    return RULES
