"""Keyflower's table picture, option labels and private summary, drawn from views only.

The picture: a top bar (season, bag, green supply, skill pile, resource supply), the tiles
up for auction with every bid beside them (worker colour, count, a ring in the bidder's
seat colour), the turn-order tiles and boats, then each player's village as a hex map with
roads, water, upgraded sides (gold rim), resources and workers. Tile codes (S07, U03, ...)
are what players type, so they are printed; no words.
"""

from __future__ import annotations

import math
from typing import Any

from PIL import Image, ImageDraw

from games.core import Decision, Option
from renderers import OptionStyle
from renderers.palette import BACKGROUND, INK, MUTED, font

WIDTH = 1500
PANEL_H = 330  # a village panel's height, grown for tall villages up to MAX_PANEL_H
MAX_PANEL_H = 560
MIN_HEX = 52  # hex size (centre to corner) a tall village keeps, panel height permitting
SQRT3 = math.sqrt(3)

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
SCORES = {
    "apothecary": "workers",
    "craftsman": "workers",
    "key_market": "workers",
    "village_hall": "workers",
    "white_wind": "workers",
    "key_guild": "skills",
    "scholar": "skills",
    "scribes": "skills",
    "jeweller": "resources",
    "mercer": "resources",
    "watermill": "resources",
    "windmill": "resources",
}
ROAD = (120, 96, 70)
WATER = (60, 130, 210)
RIM = (200, 150, 20)
START = (128, 60, 170)


def _hex(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    return [
        (
            cx + size * math.cos(math.radians(60 * i - 30)),
            cy + size * math.sin(math.radians(60 * i - 30)),
        )
        for i in range(6)
    ]


def _edge_angle(d: int) -> float:
    """Direction d (0 east, counter-clockwise) as a screen angle in radians."""
    return math.radians(-60 * d)


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, int, int] = INK,
) -> None:
    draw.text(xy, text, font=font(size), fill=fill, anchor="mm")


def _pawn(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    colour: str,
    n: int,
    r: float = 9,
    ring: tuple[int, int, int] | None = None,
    lying: bool = False,
) -> None:
    """A worker: a coloured disc with its count, ringed in its owner's seat colour."""
    if ring:
        draw.ellipse((x - r - 3, y - r - 3, x + r + 3, y + r + 3), fill=ring)
    box = (
        (x - r * 1.3, y - r * 0.7, x + r * 1.3, y + r * 0.7)
        if lying
        else (x - r, y - r, x + r, y + r)
    )
    draw.ellipse(box, fill=WORKER.get(colour, MUTED), outline=INK)
    _text(draw, (x, y), str(n), int(r * 1.3), (255, 255, 255) if colour != "yellow" else INK)


def _token(
    draw: ImageDraw.ImageDraw, x: float, y: float, fill: tuple[int, int, int], n: int, r: float = 8
) -> None:
    draw.regular_polygon((x, y, r), 8, fill=fill, outline=INK)
    _text(draw, (x, y), str(n), int(r * 1.2), (255, 255, 255) if fill != RESOURCE["gold"] else INK)


def _glyph(draw: ImageDraw.ImageDraw, tile: dict[str, Any], x: float, y: float, s: float) -> None:
    """A small picture of what the tile does, with its numbers."""
    e = tile.get("effect", "")
    d = tile.get("detail", {})
    small = max(8, int(s * 0.22))
    if e in ("resources", "craft"):
        items = sorted(d.get("give", {}).items())
        for i, (k, n) in enumerate(items):
            _token(draw, x + (i - (len(items) - 1) / 2) * s * 0.42, y, RESOURCE[k], n, r=s * 0.18)
        if e == "craft":
            _skill(draw, x - s * 0.55, y, d.get("skill", ""), s * 0.15)
    elif e == "choose":
        for i, k in enumerate(d.get("options", [])):
            draw.regular_polygon(
                (x + (i - 1) * s * 0.34, y, s * 0.15), 8, fill=RESOURCE[k], outline=INK
            )
    elif e in ("workers", "brewer", "tavern", "green"):
        colour = "green" if e == "green" else "white"
        _meeple(draw, x, y, s * 0.5, WORKER.get(colour, (250, 250, 250)))
        _text(draw, (x + s * 0.32, y + s * 0.05), f"{d.get('n', '')}", small)
        if e == "green":
            _meeple(draw, x - s * 0.42, y, s * 0.35, WORKER[d.get("pay", "blue")])
        elif e == "brewer":
            _skill(draw, x - s * 0.45, y, "", s * 0.14)
        elif e == "tavern":
            _meeple(draw, x - s * 0.42, y, s * 0.35, MUTED)
    elif e in ("skills", "hiring"):
        _skill(draw, x, y, "", s * 0.18)
        _text(draw, (x + s * 0.34, y), str(d.get("n", "")), small)
        if e == "hiring":
            _skill(draw, x - s * 0.42, y, "saw", s * 0.12)
    elif e == "transport":
        draw.rectangle(
            (x - s * 0.3, y - s * 0.15, x + s * 0.1, y + s * 0.1), fill=ROAD, outline=INK
        )
        for dx in (-0.2, 0.0):
            draw.ellipse(
                (x + dx * s - s * 0.08, y + s * 0.06, x + dx * s + s * 0.08, y + s * 0.22), fill=INK
            )
        _text(draw, (x - s * 0.1, y - s * 0.02), str(d.get("carry", "")), small, (255, 255, 255))
        draw.polygon([(x + s * 0.3, y - s * 0.2), (x + s * 0.18, y), (x + s * 0.42, y)], fill=RIM)
        _text(draw, (x + s * 0.3, y + s * 0.12), f"{d.get('upgrades', '')}", small, RIM)
    elif e == "store":
        draw.regular_polygon((x, y, s * 0.3), 6, fill=None, outline=INK, width=2)
        kind = d.get("kind", "any")
        if kind == "any":
            for i, k in enumerate(("iron", "stone", "wood")):
                draw.regular_polygon((x + (i - 1) * s * 0.14, y, s * 0.08), 8, fill=RESOURCE[k])
        else:
            draw.regular_polygon((x, y, s * 0.13), 8, fill=RESOURCE[kind])
        _text(draw, (x + s * 0.42, y), f"{d.get('per', '')}", small)
    elif e in ("adjacent", "adjacent_upgraded"):
        for dx, dy in ((-0.16, 0.06), (0.16, 0.06), (0, -0.2)):
            draw.regular_polygon(
                (x + dx * s, y + dy * s, s * 0.12),
                6,
                fill=None,
                outline=RIM if e == "adjacent_upgraded" else INK,
                width=2,
            )
        _text(draw, (x + s * 0.42, y), f"{d.get('per', '')}", small)
    elif e == "ability":
        _text(draw, (x, y), tile.get("ability", ""), int(s * 0.42))
    elif tile.get("kind") in ("winter", "boat"):
        scores = SCORES.get(e, "")
        if scores == "workers":
            _meeple(draw, x - s * 0.32, y, s * 0.4, WORKER["green" if e == "key_market" else "red"])
        elif scores == "skills":
            _skill(draw, x - s * 0.32, y, "", s * 0.13)
        elif scores == "resources":
            colour = RESOURCE["gold" if e == "jeweller" else "wood"]
            draw.regular_polygon((x - s * 0.32, y, s * 0.13), 8, fill=colour, outline=INK)
        draw.regular_polygon((x + s * 0.05, y, s * 0.24), 5, fill=(255, 255, 255), outline=INK)
        for key in ("per_set", "per"):
            if key in d:
                _text(draw, (x + s * 0.05, y + s * 0.02), str(d[key]), small)
                break


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
    draw.rounded_rectangle(
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
) -> None:
    fill = SEASON.get(tile["kind"], (220, 220, 220))
    draw.polygon(
        _hex(cx, cy, size),
        fill=fill,
        outline=RIM if tile.get("upgraded") else INK,
        width=4 if tile.get("upgraded") else 1,
    )
    if edges:
        for d, kind in enumerate(tile.get("edges", "")):
            a = _edge_angle(d)
            mx, my = cx + math.cos(a) * size * SQRT3 / 2, cy + math.sin(a) * size * SQRT3 / 2
            if kind == "R":
                draw.line(
                    (cx + math.cos(a) * size * 0.35, cy + math.sin(a) * size * 0.35, mx, my),
                    fill=ROAD,
                    width=max(2, int(size / 9)),
                )
            elif kind == "W":
                px, py = -math.sin(a) * size / 2, math.cos(a) * size / 2
                draw.line(
                    (mx - px * 0.9, my - py * 0.9, mx + px * 0.9, my + py * 0.9),
                    fill=WATER,
                    width=max(3, int(size / 7)),
                )
    _text(draw, (cx, cy - size * 0.56), tile["id"], max(10, int(size * 0.3)))
    _glyph(draw, tile, cx, cy - size * 0.14, size)
    if tile.get("points"):
        draw.ellipse(
            (cx + size * 0.42, cy - size * 0.02, cx + size * 0.76, cy + size * 0.32),
            fill=(255, 255, 255),
            outline=INK,
        )
        _text(
            draw,
            (cx + size * 0.59, cy + size * 0.15),
            str(tile["points"]),
            max(9, int(size * 0.24)),
        )
    if tile.get("start"):
        draw.ellipse(
            (cx - size * 0.6, cy + size * 0.2, cx - size * 0.3, cy + size * 0.5), fill=START
        )
    res = [(k, n) for k, n in sorted(tile.get("resources", {}).items()) if n]
    for i, (k, n) in enumerate(res):
        x = cx + (i - (len(res) - 1) / 2) * size * 0.34
        _token(draw, x, cy + size * 0.62, RESOURCE[k], n, r=size * 0.16)
    workers = tile.get("workers", [])
    for i, g in enumerate(workers):
        x = cx + (i - (len(workers) - 1) / 2) * size * 0.34
        ring = SEAT[g["seat"] % len(SEAT)]
        _pawn(
            draw,
            x,
            cy + size * 0.3,
            g["colour"],
            g["count"],
            r=size * 0.13,
            ring=ring,
            lying=g["lying"],
        )


def _bids(
    draw: ImageDraw.ImageDraw, tile: dict[str, Any], cx: float, cy: float, size: float
) -> None:
    bids = tile.get("bids", [])
    for i, g in enumerate(bids):
        x = cx + (i - (len(bids) - 1) / 2) * size * 0.62
        _pawn(
            draw,
            x,
            cy + size * 1.32,
            g["colour"],
            g["count"],
            r=size * 0.24,
            ring=SEAT[g["seat"] % len(SEAT)],
            lying=g["lying"],
        )


def _top_bar(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    season = view.get("season", "spring")
    draw.rectangle((0, 0, WIDTH, 56), fill=SEASON.get(season, MUTED))
    for i in range(4):
        colour = SEASON[("spring", "summer", "autumn", "winter")[i]]
        r = 17 if i + 1 == view.get("round") else 9
        draw.ellipse(
            (24 + i * 44 - r, 28 - r, 24 + i * 44 + r, 28 + r),
            fill=colour,
            outline=INK,
            width=4 if r > 10 else 1,
        )
    x = 230
    draw.rounded_rectangle((x, 12, x + 40, 46), 8, fill=(30, 30, 30))
    _text(draw, (x + 20, 29), str(view.get("bag", 0)), 18, (255, 255, 255))
    _pawn(draw, x + 80, 29, "green", view.get("green", 0), r=14)
    draw.rectangle((x + 120, 15, x + 150, 43), fill=SKILL["anvil"], outline=INK)
    _text(draw, (x + 135, 29), str(view.get("skill_pile", 0)), 16, (255, 255, 255))
    for i, k in enumerate(("gold", "iron", "stone", "wood")):
        _token(draw, x + 200 + i * 46, 29, RESOURCE[k], view.get("supply", {}).get(k, 0), r=16)
    active = set(view.get("active_seats", []))
    for seat in range(view.get("num_players", 0)):
        cx = WIDTH - 40 - (view["num_players"] - 1 - seat) * 46
        r = 17 if seat in active else 12
        draw.ellipse(
            (cx - r, 28 - r, cx + r, 28 + r),
            fill=SEAT[seat],
            outline=INK,
            width=3 if seat in active else 1,
        )
        _text(draw, (cx, 28), str(seat + 1), 16, (255, 255, 255))
        if seat == view.get("start_player"):
            draw.ellipse((cx - 6, 46, cx + 6, 58), fill=START)


def _market(draw: ImageDraw.ImageDraw, view: dict[str, Any], top: int) -> int:
    """Tiles up for auction and the turn-order tiles with their bids; the boats below."""
    offer, order, boats = view.get("offer", []), view.get("turn_order", []), view.get("boats", [])
    y = top
    if offer or order:
        size = min(52.0, (WIDTH - 40) / (2.1 * len(offer) + 1.75 * len(order) + 0.8))
        x = 20 + size
        y = top + size + 6
        for tile in offer:
            _tile(draw, tile, x, y, size)
            _bids(draw, tile, x, y, size)
            x += size * 2.1
        x += size * 0.3
        for tile in order:
            _tile(draw, tile, x, y, size * 0.8, edges=False)
            _text(draw, (x, y + size * 0.05), str(tile.get("number", "")), int(size * 0.6))
            _bids(draw, tile, x, y, size * 0.8)
            x += size * 1.75
        y += size * 1.75
    if boats:
        bx = 20
        for boat in boats:
            fill = (220, 220, 220) if boat.get("taken") else SEASON["boat"]
            draw.rounded_rectangle((bx, y, bx + 200, y + 48), 14, fill=fill, outline=INK)
            draw.polygon(
                [(bx + 200, y + 8), (bx + 222, y + 24), (bx + 200, y + 40)], fill=fill, outline=INK
            )
            _text(draw, (bx + 20, y + 24), boat["id"], 16)
            k = 0
            for colour, n in sorted(boat.get("workers", {}).items()):
                _pawn(draw, bx + 52 + k * 28, y + 24, colour, n, r=11)
                k += 1
            for skill, n in sorted(boat.get("skills", {}).items()):
                cx = bx + 52 + k * 28
                _skill(draw, cx, y + 24, skill, 11)
                _text(draw, (cx, y + 24), str(n), 13, (255, 255, 255))
                k += 1
            bx += 240
        y += 60
    return int(y) + 8


def _centres(tiles: list[dict[str, Any]]) -> list[tuple[float, float]]:
    """Hex centres of placed tiles, in units of the hex size."""
    return [(SQRT3 * (t["q"] + t["r"] / 2), 1.5 * t["r"]) for t in tiles]


def _panel_height(players: list[dict[str, Any]]) -> int:
    """Tall enough that the tallest village in a row keeps readable hexes (within limits)."""
    need = PANEL_H
    for p in players:
        ys = [y for _, y in _centres([t for t in p.get("village", []) if "q" in t])]
        if ys:
            need = max(need, round((max(ys) - min(ys) + 2.2) * MIN_HEX) + 20)
    return min(need, MAX_PANEL_H)


def _village(
    draw: ImageDraw.ImageDraw, player: dict[str, Any], box: tuple[int, int, int, int], active: bool
) -> None:
    x0, y0, x1, y1 = box
    seat = player["seat"]
    draw.rounded_rectangle(
        box, 14, fill=(252, 249, 240), outline=SEAT[seat % len(SEAT)], width=8 if active else 3
    )
    draw.ellipse((x0 + 10, y0 + 10, x0 + 42, y0 + 42), fill=SEAT[seat % len(SEAT)])
    _text(draw, (x0 + 26, y0 + 26), str(seat + 1), 20, (255, 255, 255))
    if player.get("start_player"):
        draw.ellipse((x0 + 48, y0 + 16, x0 + 68, y0 + 36), fill=START)
    for i in range(int(player.get("winter_hand", 0) or 0)):
        draw.rounded_rectangle(
            (x0 + 12 + i * 14, y0 + 50, x0 + 32 + i * 14, y0 + 76),
            4,
            fill=SEASON["winter"],
            outline=INK,
        )
    tiles = [t for t in player.get("village", []) if "q" in t]
    if not tiles:
        return
    pts = _centres(tiles)
    minx, maxx = min(p[0] for p in pts) - 1, max(p[0] for p in pts) + 1
    miny, maxy = min(p[1] for p in pts) - 1.1, max(p[1] for p in pts) + 1.1
    w, h = x1 - x0 - 60, y1 - y0 - 20
    size = min(58.0, w / (maxx - minx), h / (maxy - miny))
    ox = x0 + 50 + (w - (maxx - minx) * size) / 2 - minx * size
    oy = y0 + 10 + (h - (maxy - miny) * size) / 2 - miny * size
    for t, (px, py) in zip(tiles, pts, strict=True):
        _tile(draw, t, ox + px * size, oy + py * size, size)
    waiting = player.get("to_place", [])
    for i, t in enumerate(waiting):
        _tile(draw, t, x1 - 24 - i * 40, y0 + 26, 18, edges=False)


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


def render_private(view: dict[str, Any]) -> Image.Image | None:
    """Behind the seat's screen (workers and skill tiles by kind) and its winter hand."""
    you = view.get("you")
    if not you:
        return None
    hand = you.get("winter_hand", [])
    seat = int(you.get("seat", 0))
    colour = SEAT[seat % len(SEAT)]
    screen_w, hex_size = 560, 76.0
    width = screen_w + 50 + max(1, len(hand)) * int(hex_size * 1.95) + 20
    img = Image.new("RGB", (max(width, 760), 300), BACKGROUND)
    draw = ImageDraw.Draw(img)
    # The screen: a wall under a roof, in the seat's colour.
    draw.polygon([(20, 70), (20 + screen_w / 2, 14), (20 + screen_w, 70)], fill=colour)
    draw.rounded_rectangle(
        (20, 66, 20 + screen_w, 286), 12, fill=(252, 249, 240), outline=colour, width=6
    )
    draw.ellipse((20 + screen_w / 2 - 20, 26, 20 + screen_w / 2 + 20, 66), fill=(255, 255, 255))
    _text(draw, (20 + screen_w / 2, 46), str(seat + 1), 26, colour)
    screen = you.get("screen", {})
    for i, c in enumerate(("blue", "red", "yellow", "green")):
        x, n = 85 + i * 130, screen.get(c, 0)
        _meeple(draw, x, 140, 90, WORKER[c] if n else (215, 210, 200))
        _text(draw, (x + 48, 150), str(n), 30, INK if n else MUTED)
    skills = you.get("skills", {})
    for i, k in enumerate(("anvil", "pick", "saw")):
        x, n = 90 + i * 175, skills.get(k, 0)
        _skill_icon(draw, x, 236, k, 26)
        _text(draw, (x + 55, 236), str(n), 30, INK if n else MUTED)
    # The winter hand: each tile's face; the ones chosen for auction ringed in green.
    x = 20 + screen_w + 40 + hex_size
    for tile in hand:
        if tile.get("chosen"):
            draw.polygon(_hex(x, 150, hex_size + 9), fill=WORKER["green"])
        _tile(draw, tile, x, 150, hex_size)
        x += hex_size * 1.95
    if not hand:
        draw.polygon(_hex(x, 150, hex_size), outline=MUTED, width=2)
    return img


def render(view: dict[str, Any]) -> Image.Image:
    players = view.get("players", [])
    cols = 3 if len(players) > 4 else 2
    rows = max(1, math.ceil(len(players) / cols))
    heights = [_panel_height(players[r * cols : (r + 1) * cols]) for r in range(rows)]
    top = 64
    scratch = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    y = _market(scratch, view, top)
    tops = [y + sum(h + 12 for h in heights[:r]) for r in range(rows)]
    img = Image.new("RGB", (WIDTH, tops[-1] + heights[-1] + 12), BACKGROUND)
    draw = ImageDraw.Draw(img)
    _top_bar(draw, view)
    _market(draw, view, top)
    panel_w = (WIDTH - 20 - (cols - 1) * 12) // cols
    final = view.get("final") or []
    for i, p in enumerate(players):
        r, c = divmod(i, cols)
        x0, y0 = 10 + c * (panel_w + 12), tops[r]
        x1, y1 = x0 + panel_w, y0 + heights[r]
        active = p["seat"] in view.get("active_seats", [])
        _village(draw, p, (x0, y0, x1, y1), active)
        if i < len(final):
            draw.rounded_rectangle((x1 - 70, y1 - 40, x1 - 10, y1 - 8), 8, fill=INK)
            score = sum(final[i]["breakdown"].values())
            _text(draw, (x1 - 40, y1 - 24), str(score), 20, (255, 255, 255))
    return img


EMOJI = {
    "bid": "🔨",
    "use": "⚒️",
    "pass": "⏭️",
    "blue": "🔵",
    "red": "🔴",
    "yellow": "🟡",
    "green": "🟢",
    "gold": "🟨",
    "iron": "⬛",
    "stone": "⬜",
    "wood": "🟫",
    "anvil": "🛠️",
    "pick": "⛏️",
    "saw": "🪚",
    "move": "🛒",
    "up": "⬆️",
    "done": "✅",
    "next": "➡️",
    "back": "↩️",
    "none": "✖️",
}


def option_style(decision: Decision, option: Option) -> OptionStyle | None:
    emoji = EMOJI.get(option.id)
    if option.id == "back":
        return OptionStyle(label=option.label, emoji=emoji)
    if decision.kind in (
        "location",
        "from",
        "to",
        "upgrade",
        "boat",
        "winter",
        "place_tile",
        "flip",
    ):
        name = option.label.split(" ", 1)[1] if " " in option.label else option.label
        return OptionStyle(
            label=f"{option.id} {name}",
            emoji="⛵" if option.id.startswith("B") else None,
            description=option.label,
        )
    if decision.kind == "count":
        return OptionStyle(label=option.id, description=f"{option.id} from behind your screen")
    if decision.kind == "place_rot":
        return OptionStyle(label=option.id, emoji="🔄", description=option.label)
    if decision.kind == "place_at":
        return OptionStyle(label=option.id, emoji="📍", description=option.label)
    if decision.kind == "pay":
        kinds = [part.lstrip("0123456789") for part in option.id.split("+")]
        parts = [(part[: -len(r)], r) for part, r in zip(option.id.split("+"), kinds, strict=True)]
        return OptionStyle(
            label=" + ".join(f"{n} {EMOJI.get(r, r)}" for n, r in parts),
            emoji="💰",
            description="Pay " + ", ".join(f"{n} {r}" for n, r in parts),
        )
    if emoji:
        return OptionStyle(label=option.label, emoji=emoji)
    return None


def private_text(view: dict[str, Any]) -> str:
    you = view.get("you")
    if not you:
        return "You are watching."
    screen = you.get("screen", {})
    skills = you.get("skills", {})
    lines = [
        "**Behind your screen**",
        "Workers: "
        + (", ".join(f"{EMOJI[c]} {n}" for c, n in sorted(screen.items()) if n) or "none"),
        "Skills: "
        + (", ".join(f"{EMOJI[s]} {s} {n}" for s, n in sorted(skills.items()) if n) or "none"),
    ]
    hand = you.get("winter_hand", [])
    if hand:
        lines.append(
            "**Winter tiles in hand**: " + ", ".join(f"{t['id']} {t['name']}" for t in hand)
        )
    if you.get("winter_pick"):
        lines.append("Chosen for auction: " + ", ".join(you["winter_pick"]))
    return "\n".join(lines)


RULES = """\
**Keyflower** (R&D Games, 2012) for 2–6 players: the whole base game over four seasons, \
as the rulebook says. No options.
• A turn is a few choices: `bid S07 red 2`, `use S03 blue 1`, a transport \
`use H2 red 1 move S03 wood H2 up H2 done`, or `pass`. Outbid workers move on together. \
Where an upgrade can be paid in several ways, you pick which resources go (`1gold+1iron`).
• Winter: everyone picks winter tiles at once, in secret; they are revealed shuffled.
• End scoring puts each resource, skill and worker where it scores most and lists it item by \
item; the start keyple is a wildcard for the player who won the start tile in winter.
**Reconstructed components** (the rulebook prints no tile numbers; see data/keyflower):
• road and water positions on every tile;
• home tiles (carry 1 / 1 upgrade; upgraded 2 / 1 and 5 points; cost wood, stone, iron);
• spring and summer numbers from a hobby transcription, not checked against printed tiles;
• every autumn number and upgrade cost;
• boat contents per season, Sea Breeze 3 points per boat;
• turn-order sides by player count (start keyple on the highest number in use).
**Readings**: a road must meet a road, fields and water may meet; Sea Bastion counts the \
largest loop drawn in one stroke; workers put behind the screen in winter score; \
resources on the barn and yards score there; outbid workers may move onto the tile they \
lost, to use it; a boat 4b mixed use may bring outbid bids."""


def rules_text() -> str:
    return RULES
