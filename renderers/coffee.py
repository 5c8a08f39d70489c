"""Coffee Traders at the table: the five cooperatives, the Arabica track, the Coffee Bars,
milestones and every player board, drawn from the spectator view (no words)."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from games.core import Decision, Option
from renderers import OptionStyle
from renderers.palette import BACKGROUND, INK, MUTED, SEAT_COLOURS, font

WIDTH = 1500
COFFEES = ("gua", "col", "bra", "eth", "ind")
COFFEE_COLOURS = {
    "gua": (232, 122, 48),
    "col": (176, 138, 92),
    "bra": (224, 96, 150),
    "eth": (140, 182, 60),
    "ind": (44, 158, 150),
    "kopi": (92, 62, 42),
}
COFFEE_EMOJI = {"gua": "🟧", "col": "🟫", "bra": "🩷", "eth": "🟩", "ind": "🟦", "kopi": "☕"}
ANDRE_COLOUR = (150, 150, 150)
PANEL = (232, 221, 198)
PANEL_DARK = (214, 199, 170)
GOLD = (238, 190, 60)
WHITE = (255, 255, 255)
PHASES = ("work", "assign", "trade", "harvest", "sell", "refresh")

Draw = ImageDraw.ImageDraw


def seat_colour(view: dict[str, Any], seat: int | None) -> tuple[int, int, int]:
    if seat is None:
        return MUTED
    andre = view.get("andre")
    if andre is not None and seat == andre["seat"]:
        return ANDRE_COLOUR
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def text(draw: Draw, xy: tuple[float, float], value: Any, size: int = 14, fill: Any = INK) -> None:
    draw.text(xy, str(value), font=font(size), fill=fill, anchor="mm")


def bean(draw: Draw, x: float, y: float, coffee: str, r: float = 6) -> None:
    """A coffee bean: an oval with its crease."""
    draw.ellipse(
        (x - r, y - r * 0.75, x + r, y + r * 0.75), fill=COFFEE_COLOURS[coffee], outline=INK
    )
    draw.line((x - r * 0.6, y, x + r * 0.6, y), fill=INK, width=1)


def disc(draw: Draw, x: float, y: float, colour: Any, r: float = 7) -> None:
    draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=INK, width=1)


def coin(draw: Draw, x: float, y: float, value: Any = "", r: float = 9) -> None:
    draw.ellipse((x - r, y - r, x + r, y + r), fill=GOLD, outline=(150, 110, 20), width=2)
    if value != "":
        text(draw, (x, y), value, size=int(r * 1.2))


def worker(draw: Draw, x: float, y: float, colour: Any = (120, 85, 55), s: float = 1.0) -> None:
    draw.ellipse((x - 3 * s, y - 9 * s, x + 3 * s, y - 3 * s), fill=colour, outline=INK)
    draw.rounded_rectangle(
        (x - 5 * s, y - 3 * s, x + 5 * s, y + 7 * s), 3, fill=colour, outline=INK
    )


def trader(draw: Draw, x: float, y: float, colour: Any) -> None:
    draw.polygon([(x, y - 9), (x + 7, y + 8), (x - 7, y + 8)], fill=colour, outline=INK)
    draw.ellipse((x - 4, y - 12, x + 4, y - 4), fill=colour, outline=INK)


def donkey(draw: Draw, x: float, y: float, colour: Any) -> None:
    draw.rounded_rectangle((x - 6, y - 3, x + 5, y + 3), 2, fill=colour, outline=INK)
    draw.rectangle((x + 3, y - 7, x + 7, y - 2), fill=colour, outline=INK)
    draw.line((x - 4, y + 3, x - 4, y + 7), fill=INK)
    draw.line((x + 3, y + 3, x + 3, y + 7), fill=INK)


def civet(draw: Draw, x: float, y: float) -> None:
    """A civet: a long dark body with pointed ears and a ringed tail."""
    fur = (95, 75, 60)
    draw.ellipse((x - 8, y - 3, x + 5, y + 5), fill=fur, outline=INK)
    draw.ellipse((x + 2, y - 6, x + 9, y + 1), fill=fur, outline=INK)
    draw.polygon([(x + 3, y - 5), (x + 4, y - 9), (x + 6, y - 5)], fill=fur)
    draw.line((x - 8, y + 1, x - 13, y - 4), fill=INK, width=2)


def truck(draw: Draw, x: float, y: float, colour: Any = (90, 90, 90)) -> None:
    draw.rectangle((x - 8, y - 5, x + 3, y + 3), fill=colour, outline=INK)
    draw.rectangle((x + 3, y - 2, x + 8, y + 3), fill=colour, outline=INK)
    disc(draw, x - 5, y + 5, INK, 2)
    disc(draw, x + 5, y + 5, INK, 2)


def building(draw: Draw, x: float, y: float, kind: str, colour: Any, step: bool = False) -> None:
    """Production station: a square with a chimney; fair trade post: a diamond; hospital: a
    cross; farm: a house."""
    fill = colour if colour is not None else PANEL
    outline = INK if colour is not None else MUTED
    # a built one has a heavier outline, to stand out at Discord's inline size
    width = 2 if colour is not None else 1
    if kind == "production":
        draw.rectangle((x - 8, y - 5, x + 8, y + 8), fill=fill, outline=outline, width=width)
        draw.rectangle((x + 2, y - 11, x + 6, y - 5), fill=fill, outline=outline, width=width)
    elif kind == "fairtrade":
        diamond = [(x, y - 10), (x + 9, y), (x, y + 10), (x - 9, y)]
        draw.polygon(diamond, fill=fill, outline=outline, width=width)
    elif kind == "hospital":
        draw.rectangle((x - 3, y - 9, x + 3, y + 9), fill=fill, outline=outline, width=width)
        draw.rectangle((x - 9, y - 3, x + 9, y + 3), fill=fill, outline=outline, width=width)
        draw.rectangle((x - 2, y - 2, x + 2, y + 2), fill=fill)
    else:
        draw.polygon(
            [(x - 8, y + 8), (x - 8, y - 1), (x, y - 9), (x + 8, y - 1), (x + 8, y + 8)],
            fill=fill,
            outline=outline,
            width=width,
        )
    if step:
        draw.line((x - 4, y + 13, x, y + 10, x + 4, y + 13), fill=INK, width=2)


def counter(draw: Draw, x: float, y: float, token: str, r: float = 7) -> None:
    """Arabica counter: a leaf-green ring; Animal counter: a filled disc; Wild: a star."""
    if token == "wild":
        draw.regular_polygon((x, y, r + 1), 5, fill=WHITE, outline=INK)
        draw.ellipse((x - 2, y - 2, x + 2, y + 2), fill=INK)
        return
    kind, coffee = token.split(":")
    if kind == "animal":
        disc(draw, x, y, COFFEE_COLOURS[coffee], r)
        draw.ellipse((x - 2, y - 2, x + 2, y + 2), fill=WHITE)
    else:
        draw.ellipse(
            (x - r, y - r, x + r, y + r), fill=WHITE, outline=COFFEE_COLOURS[coffee], width=3
        )


# -- the central board ------------------------------------------------------------------
COOP_W, COOP_H = 286, 360
ROW_Y = (300, 225, 150)  # row 1 at the bottom, like the hillside


def space_xy(x0: float, row: int, index: int, size: int) -> tuple[float, float]:
    gap = 52
    left = x0 + COOP_W / 2 - gap * (size - 1) / 2
    return left + gap * index, ROW_Y[row - 1]


def draw_coop(draw: Draw, view: dict[str, Any], coffee: str, x0: float, y0: float) -> None:
    coop = view["coops"][coffee]
    colour = COFFEE_COLOURS[coffee]
    draw.rounded_rectangle(
        (x0, y0, x0 + COOP_W, y0 + COOP_H), 14, fill=PANEL, outline=colour, width=4
    )
    draw.rounded_rectangle((x0, y0, x0 + COOP_W, y0 + 44), 14, fill=colour)
    # trading house: trader spaces, stock counters left, the coin
    spaces = 4 if view["rules_players"] == 5 else 3
    for i in range(spaces):
        x = x0 + 24 + i * 34
        draw.rounded_rectangle((x - 13, y0 + 8, x + 13, y0 + 38), 5, fill=PANEL_DARK, outline=INK)
        if i < len(coop["traders"]):
            trader(draw, x, y0 + 25, seat_colour(view, coop["traders"][i]))
    if coop["coin"]:
        coin(draw, x0 + 24 + spaces * 34, y0 + 23, 1, r=10)
    sx = x0 + COOP_W - 60
    draw.rectangle((sx - 9, y0 + 12, sx + 9, y0 + 32), fill=WHITE, outline=INK)
    bean(draw, sx, y0 + 22, coffee, 5)
    text(draw, (sx + 20, y0 + 22), coop["stock"], 16, WHITE)
    # town centre
    worker(draw, x0 + COOP_W - 22, y0 + 66, s=1.2)
    text(draw, (x0 + COOP_W - 22, y0 + 90), coop["town"], 15)
    # Animal counters left by the 2/3 row
    for i, token in enumerate(coop["animals"]):
        counter(draw, x0 + 20 + i * 20, y0 + 66, token, 8)
    rows = coop["rows"]
    y_shift = y0 - 40
    # pathways first, under the spaces
    for row in (1, 2):
        for upper in range(len(rows[row])):
            for lower in (upper, upper + 1):
                if lower >= len(rows[row - 1]):
                    continue
                ax, ay = space_xy(x0, row, lower, len(rows[row - 1]))
                bx, by = space_xy(x0, row + 1, upper, len(rows[row]))
                draw.line((ax, ay + y_shift, bx, by + y_shift), fill=PANEL_DARK, width=5)
                pathway = coop["pathways"].get(f"{row}.{lower}.{upper}")
                if pathway:
                    mx, my = (ax + bx) / 2, (ay + by) / 2 + y_shift
                    for d in range(pathway["donkeys"]):
                        donkey(draw, mx - 5 + d * 11, my, seat_colour(view, pathway["owner"]))
    for row, plantations in enumerate(rows, start=1):
        for index, plantation in enumerate(plantations):
            x, y = space_xy(x0, row, index, len(plantations))
            y += y_shift
            box = (x - 19, y - 19, x + 19, y + 19)
            if plantation is None:
                draw.rounded_rectangle(box, 7, fill=(224, 212, 186), outline=MUTED, width=2)
                label = {1: "1", 2: "1/2", 3: "2/3"}[row]
                text(draw, (x, y), label, 12, MUTED)
                continue
            owner = seat_colour(view, plantation["owner"])
            draw.rounded_rectangle(box, 7, fill=owner, outline=colour, width=4)
            ink = WHITE if sum(owner) < 380 else INK
            text(draw, (x - 6, y - 5), plantation["level"], 18, ink)
            if plantation["staffed"]:
                worker(draw, x + 9, y + 6, s=0.9)
            if plantation["truck"]:
                truck(draw, x - 26, y + 14)
    # building spaces along the bottom, by kind
    bx = x0 + 18
    for kind in ("production", "fairtrade", "hospital", "farm"):
        kinds = view["building_kinds"][kind]
        for i, owner in enumerate(coop["buildings"][kind]):
            if kinds[i] == "p45" and view["rules_players"] < 4 and owner is None:
                bx += 0
                continue
            colour_b = None if owner is None else seat_colour(view, owner)
            building(draw, bx, y0 + COOP_H - 34, kind, colour_b, kinds[i] == "step")
            bx += 22
        bx += 6
    # Quality Value by seat, small discs with numbers
    qx = x0 + 16
    for seat_key, value in coop["quality"].items():
        if value:
            disc(draw, qx, y0 + 298, seat_colour(view, int(seat_key)), 9)
            text(draw, (qx, y0 + 298), value, 11, WHITE)
            qx += 22


def draw_arabica(draw: Draw, view: dict[str, Any], x0: float, y0: float) -> None:
    cell = 36
    draw.rounded_rectangle((x0, y0, x0 + cell * 7 + 44, y0 + cell * 5 + 30), 10, fill=PANEL)
    for c in range(7):
        cx = x0 + 38 + c * cell + cell / 2
        if c == 3:
            coin(draw, cx, y0 + 12, 1, r=7)
        elif c == 4:
            donkey(draw, cx, y0 + 12, (140, 120, 100))
        elif c >= 5:
            text(draw, (cx, y0 + 12), 6 if c == 5 else 4, 13)
    players = view["players"]
    for r, coffee in enumerate(COFFEES):
        y = y0 + 28 + r * cell
        bean(draw, x0 + 20, y + cell / 2, coffee, 8)
        for c in range(7):
            x = x0 + 38 + c * cell
            fill = PANEL_DARK if c < 5 else (222, 196, 140)
            draw.rectangle((x + 1, y + 1, x + cell - 1, y + cell - 1), fill=fill, outline=PANEL)
        here: dict[int, list[int]] = {}
        for seat, p in enumerate(players):
            if view["andre"] is not None and seat == view["andre"]["seat"]:
                continue
            here.setdefault(p["arabica"][coffee], []).append(seat)
        for column, seats in here.items():
            x = x0 + 38 + (column - 1) * cell
            for k, seat in enumerate(seats):
                dx = 8 + (k % 3) * 10
                dy = 10 + (k // 3) * 14
                disc(draw, x + dx, y + dy, seat_colour(view, seat), 6)


def draw_bars(draw: Draw, view: dict[str, Any], x0: float, y0: float) -> None:
    width = 80
    for b, (bar, spaces) in enumerate(view["bar_spaces"].items()):
        x = x0 + b * (width + 8)
        draw.rounded_rectangle((x, y0, x + width, y0 + 44 * len(spaces) + 8), 10, fill=PANEL)
        for i, space in enumerate(spaces):
            y = y0 + 6 + i * 44
            owner = view["bars"][bar][i]
            fill = PANEL_DARK if owner is None else seat_colour(view, owner)
            draw.rounded_rectangle((x + 4, y, x + width - 4, y + 40), 7, fill=fill)
            need = space["need"]
            if need in COFFEE_COLOURS:
                bean(draw, x + 18, y + 14, need, 8)
            elif need == "any":
                draw.ellipse((x + 10, y + 8, x + 26, y + 20), fill=WHITE, outline=INK)
            else:
                for k in range(3):
                    bean(draw, x + 12 + k * 7, y + 14, COFFEES[k * 2], 4)
            text(draw, (x + 18, y + 31), space["amount"], 13)
            coin(draw, x + 44, y + 13, space["coins"], r=8)
            if space["points"]:
                draw.rectangle((x + 56, y + 22, x + 74, y + 37), fill=WHITE, outline=INK)
                text(draw, (x + 65, y + 30), space["points"], 12)
            animal = view["bar_animals"].get(f"{bar}.{i}")
            if animal:
                counter(draw, x + 64, y + 11, animal, 7)


def draw_header(draw: Draw, view: dict[str, Any], x0: float, y0: float) -> None:
    for p in range(3):
        fill = INK if p + 1 == view["period"] else (PANEL_DARK if p + 1 > view["period"] else MUTED)
        draw.rounded_rectangle((x0 + p * 60, y0, x0 + p * 60 + 52, y0 + 26), 6, fill=fill)
        text(draw, (x0 + p * 60 + 26, y0 + 13), 1970 + 5 * p, 13, WHITE)
    for i, phase in enumerate(PHASES):
        x = x0 + 200 + i * 34
        current = view["phase"] == phase
        disc(draw, x, y0 + 13, INK if current else PANEL_DARK, 12)
        text(
            draw,
            (x, y0 + 13),
            ("I", "II", "III", "IV", "V", "VI")[i],
            11,
            WHITE if current else INK,
        )
    x = x0 + 420
    for k, seat in enumerate(view["order"]):
        disc(draw, x + k * 30, y0 + 13, seat_colour(view, seat), 11)
        text(draw, (x + k * 30, y0 + 13), k + 1, 11, WHITE)
        if seat in view["active"]:
            draw.polygon(
                [(x + k * 30 - 6, y0 + 30), (x + k * 30 + 6, y0 + 30), (x + k * 30, y0 + 38)],
                fill=INK,
            )


def draw_milestones(draw: Draw, view: dict[str, Any], x0: float, y0: float) -> None:
    for m, milestone in enumerate(view["milestones"]):
        x = x0 + m * 106
        draw.rounded_rectangle((x, y0, x + 98, y0 + 70), 10, fill=PANEL, outline=INK)
        text(draw, (x + 16, y0 + 16), "ABC"[m], 18)
        draw.rectangle((x + 30, y0 + 4, x + 92, y0 + 28), fill=WHITE, outline=MUTED)
        milestone_icon(draw, milestone["id"], x + 46, y0 + 16)
        for k, points in enumerate(milestone["points"]):
            cx = x + 20 + k * 30
            marks = milestone["marks"]
            colour = seat_colour(view, marks[k]) if k < len(marks) else WHITE
            disc(draw, cx, y0 + 48, colour, 12)
            text(draw, (cx, y0 + 48), points, 12, WHITE if k < len(marks) else INK)


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
        bean(draw, x, y, "kopi", 7)
    elif icon == "cup":
        draw.rounded_rectangle((x - 7, y - 6, x + 5, y + 7), 3, fill=WHITE, outline=INK)
        draw.arc((x + 2, y - 3, x + 10, y + 4), -90, 90, fill=INK, width=2)
    elif icon == "warehouse":
        draw.rectangle((x - 7, y - 6, x + 7, y + 7), fill=INK)
    elif icon == "contract":
        draw.rectangle((x - 6, y - 8, x + 6, y + 8), fill=WHITE, outline=INK)
        draw.line((x - 3, y - 3, x + 3, y - 3), fill=INK)
        draw.line((x - 3, y + 2, x + 3, y + 2), fill=INK)
    elif icon == "plantation":
        draw.rounded_rectangle((x - 7, y - 7, x + 7, y + 7), 3, fill=(120, 160, 80), outline=INK)
    else:
        building(draw, x, y, icon, MUTED)
    text(draw, (x + 26, y), number, 14)


def draw_contract_bonus(draw: Draw, view: dict[str, Any], x0: float, y0: float) -> None:
    for i, letter in enumerate("ABCDEF"):
        x = x0 + i * 40
        draw.rounded_rectangle((x, y0, x + 34, y0 + 86), 6, fill=PANEL)
        text(draw, (x + 17, y0 + 11), letter, 14)
        for k, token in enumerate(reversed(view["contract_bonus"][letter][-5:])):
            counter(draw, x + 17, y0 + 28 + k * 13, token, 6)


def draw_sumatra(draw: Draw, view: dict[str, Any], x0: float, y0: float) -> None:
    """Sumatra with everyone's civets; beside it the Wild Stock and the general supply."""
    draw.ellipse((x0, y0, x0 + 300, y0 + 110), fill=(150, 185, 110), outline=(90, 120, 60), width=3)
    x = x0 + 40
    for seat, player in enumerate(view["players"]):
        for _ in range(player["sumatra"]):
            disc(draw, x, y0 + 62, seat_colour(view, seat), 11)
            civet(draw, x, y0 + 60)
            x += 30
    sx = x0 + 330
    for k in range(view["wild_stock"]):
        draw.rectangle((sx + k * 16, y0 + 20, sx + k * 16 + 12, y0 + 32), fill=WHITE, outline=INK)
    worker(draw, sx + 8, y0 + 72, s=1.3)
    text(draw, (sx + 36, y0 + 72), view["general_workers"], 16)


# -- player boards ----------------------------------------------------------------------
def draw_player(
    draw: Draw, view: dict[str, Any], seat: int, x0: float, y0: float, w: float
) -> None:
    p = view["players"][seat]
    colour = seat_colour(view, seat)
    if seat in view["active"]:
        draw.rounded_rectangle((x0 - 5, y0 - 5, x0 + w + 5, y0 + 255), 15, fill=INK)
    draw.rounded_rectangle((x0, y0, x0 + w, y0 + 250), 12, fill=PANEL, outline=colour, width=4)
    draw.rounded_rectangle((x0, y0, x0 + w, y0 + 30), 12, fill=colour)
    ink = WHITE if sum(colour) < 380 else INK
    text(draw, (x0 + 16, y0 + 15), seat + 1, 16, ink)
    coin(draw, x0 + 44, y0 + 15, p["coins"], r=12)
    worker(draw, x0 + 72, y0 + 17)
    text(draw, (x0 + 86, y0 + 15), p["pool"], 14, ink)
    trader(draw, x0 + 108, y0 + 17, colour)
    text(draw, (x0 + 122, y0 + 15), p["traders"], 14, ink)
    donkey(draw, x0 + 142, y0 + 15, (140, 120, 100))
    text(draw, (x0 + 156, y0 + 15), p["donkeys"], 14, ink)
    truck(draw, x0 + 176, y0 + 14)
    text(draw, (x0 + 192, y0 + 15), p["trucks"], 14, ink)
    if p["minus_tokens"]:
        badge = (x0 + 238, y0 + 110, x0 + 274, y0 + 132)
        draw.rounded_rectangle(badge, 8, fill=INK)
        text(draw, (x0 + 256, y0 + 121), -3 * p["minus_tokens"], 14, WHITE)
    # bonus supply: Action marker, trader, 3 coins (a pale slot once taken)
    bx, by = x0 + w - 66, y0 + 15
    draw.rounded_rectangle((bx - 10, by - 11, bx + 58, by + 11), 6, fill=WHITE)
    pale = PANEL_DARK
    marker = INK if "marker" in p["bonus"] else pale
    draw.rectangle((bx - 4, by - 6, bx + 6, by + 6), fill=marker)
    trader(draw, bx + 23, by + 2, colour if "trader" in p["bonus"] else pale)
    if "coins" in p["bonus"]:
        coin(draw, bx + 45, by, 3, r=9)
    else:
        disc(draw, bx + 45, by, pale, 9)
    # coffee stock: six columns of beans with counts
    for i, coffee in enumerate((*COFFEES, "kopi")):
        cx = x0 + 20 + i * 26
        n = p["coffee"][coffee]
        bar_h = min(n, 12) * 6
        draw.rectangle((cx - 8, y0 + 124 - bar_h, cx + 8, y0 + 124), fill=COFFEE_COLOURS[coffee])
        draw.rectangle((cx - 8, y0 + 52, cx + 8, y0 + 124), outline=MUTED)
        text(draw, (cx, y0 + 42), n, 13)
        bean(draw, cx, y0 + 134, coffee, 6)
    # trade ratio and warehouses
    rx = x0 + 180
    draw.rounded_rectangle((rx, y0 + 40, rx + 40, y0 + 62), 6, fill=WHITE, outline=INK)
    text(draw, (rx + 20, y0 + 51), f"{p['ratio']}:1", 13)
    built = p["built"]
    for k in range(5):
        fill = INK if k < built["warehouse"] else PANEL_DARK
        draw.rectangle((rx + k * 9, y0 + 70, rx + k * 9 + 7, y0 + 82), fill=fill)
    for k, kind in enumerate(("production", "fairtrade", "hospital")):
        total = 1 if kind == "hospital" else 3
        for j in range(total):
            building(
                draw, rx + 6 + j * 18, y0 + 100 + k * 20, kind, colour if j < built[kind] else None
            )
    # supplies: civets in Sumatra, stock counters
    cx = x0 + 240
    civet(draw, cx, y0 + 51)
    text(draw, (cx + 18, y0 + 51), p["sumatra"] + p["civets"], 13)
    for k, stock in enumerate(p["stocks"]):
        sx = cx - 6 + (k % 3) * 14
        sy = y0 + 74 + (k // 3) * 14
        fill = WHITE if stock == "wild" else COFFEE_COLOURS[stock]
        draw.rectangle((sx - 5, sy - 5, sx + 5, sy + 5), fill=fill, outline=INK)
    # contracts A–F: open ones show their coffee, done ones are ticked
    for i, letter in enumerate("ABCDEF"):
        x = x0 + 10 + i * ((w - 20) / 6)
        cw = (w - 20) / 6 - 4
        done = letter in p["fulfilled"]
        draw.rounded_rectangle(
            (x, y0 + 150, x + cw, y0 + 212), 6, fill=PANEL_DARK if done else WHITE, outline=INK
        )
        text(draw, (x + 10, y0 + 160), letter, 12)
        if done:
            draw.line((x + 10, y0 + 185, x + 18, y0 + 195, x + cw - 8, y0 + 172), fill=INK, width=3)
            continue
        wants = p["contracts"][letter]["wants"]
        if p["contracts"][letter]["hard_side"]:
            # the handicap: this contract lies 3-player side up
            draw.rounded_rectangle((x + cw - 20, y0 + 153, x + cw - 4, y0 + 169), 4, fill=INK)
            text(draw, (x + cw - 12, y0 + 161), 3, 11, WHITE)
        for k, (coffee, n) in enumerate(wants.items()):
            bean(draw, x + 12, y0 + 176 + k * 13, coffee, 5)
            text(draw, (x + 26, y0 + 176 + k * 13), n, 11)
    # counters on the Counter track
    for k, token in enumerate(p["counters"][:18]):
        counter(draw, x0 + 14 + k * 17, y0 + 228, token, 6)
    if p["counters"]:
        text(draw, (x0 + w - 18, y0 + 228), p["counter_height"], 13)
    if "scores" in view:
        # the final score on a gold plate across the contracts
        plate = (x0 + w / 2 - 50, y0 + 158, x0 + w / 2 + 50, y0 + 206)
        draw.rounded_rectangle(plate, 12, fill=GOLD, outline=INK, width=3)
        text(draw, (x0 + w / 2, y0 + 182), view["scores"][seat], 30)


def draw_andre(draw: Draw, view: dict[str, Any], x0: float, y0: float, w: float) -> None:
    andre = view["andre"]
    draw.rounded_rectangle(
        (x0, y0, x0 + w, y0 + 250), 12, fill=PANEL, outline=ANDRE_COLOUR, width=4
    )
    draw.rounded_rectangle((x0, y0, x0 + w, y0 + 30), 12, fill=ANDRE_COLOUR)
    for k, level in enumerate(andre["stack"]):
        draw.rounded_rectangle(
            (x0 + 12 + k * 28, y0 + 44, x0 + 36 + k * 28, y0 + 68), 5, fill=WHITE
        )
        text(draw, (x0 + 24 + k * 28, y0 + 56), level, 13)
    for k in range(andre["fair_trade_posts"]):
        building(draw, x0 + 24 + k * 24, y0 + 92, "fairtrade", ANDRE_COLOUR)
    for k in range(andre["traders"]):
        trader(draw, x0 + 120 + k * 20, y0 + 94, ANDRE_COLOUR)
    for k in range(andre["markers"]):
        disc(draw, x0 + 20 + k * 20, y0 + 126, ANDRE_COLOUR, 7)
    for k, token in enumerate(andre["flipped"]):
        counter(draw, x0 + 20 + k * 22, y0 + 160, token, 8)
    # his visible contract: top, middle and bottom coffee drive his choices
    card = (x0 + w - 70, y0 + 44, x0 + w - 20, y0 + 150)
    draw.rounded_rectangle(card, 8, fill=WHITE, outline=INK)
    for k, coffee in enumerate(andre["contract_coffees"]):
        bean(draw, x0 + w - 45, y0 + 70 + k * 30, coffee, 11)
    text(draw, (x0 + w - 45, y0 + 170), andre["contracts_left"], 18)


def render(view: dict[str, Any]) -> Image.Image:
    seats = len(view["players"])
    board_h = 660
    height = board_h + 270
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw_header(draw, view, 20, 12)
    for i, coffee in enumerate(COFFEES):
        draw_coop(draw, view, coffee, 16 + i * (COOP_W + 10), 56)
    lower = 428
    draw_arabica(draw, view, 16, lower)
    draw_bars(draw, view, 350, lower)
    draw_milestones(draw, view, 890, lower)
    draw_contract_bonus(draw, view, 1220, lower)
    draw_sumatra(draw, view, 890, lower + 110)
    top = board_h + 10
    width = (WIDTH - 20 - (seats - 1) * 8) / seats
    for seat in range(seats):
        x = 10 + seat * (width + 8)
        if view["andre"] is not None and seat == view["andre"]["seat"]:
            draw_andre(draw, view, x, top, width)
        else:
            draw_player(draw, view, seat, x, top, width)
    return image


def draw_own_arabica(draw: Draw, view: dict[str, Any], seat: int, x0: float, y0: float) -> None:
    """One company's five Arabica rows, its disc on each."""
    cell = 30
    draw.rounded_rectangle((x0, y0, x0 + cell * 7 + 40, y0 + cell * 5 + 16), 10, fill=PANEL)
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
        draw.rounded_rectangle((x0, y, x0 + 230, y + 34), 8, fill=PANEL)
        text(draw, (x0 + 14, y + 17), row, 15)
        for k, level in enumerate(p["plantations"].get(row, [])):
            box = (x0 + 30 + k * 32, y + 4, x0 + 56 + k * 32, y + 30)
            draw.rounded_rectangle(box, 5, fill=colour, outline=INK)
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
    return image.resize((1290, 420), Image.Resampling.LANCZOS)


def rules_text() -> str:
    return (
        "**Coffee Traders** (3–5 players; 2 players against the automaton André)\n"
        "Three periods (1970, 1975, 1980) of six phases: I Work (plant, send workers, breed "
        "donkeys, income or civet), II Assign workers (own fields first, then helping others "
        "moves you up the Arabica track), III Trade & build (buy coffee at a trading house, "
        "build, retire a trader), IV Harvest, V Sell (contracts and Coffee Bars), VI Refresh. "
        "Most points after 1980 wins: cooperative majorities, Arabica track, Coffee Bars, "
        "buildings, contracts, milestones, counters, leftovers.\n"
        "**Options**: `milestones = vicious` (only the top space of each milestone scores); "
        "`start = experienced` (place the first plantation yourself); `handicap = p1-2` … "
        "`p5-4` (that player's 2 or 4 random contracts show their 3-player side, at 4–5 "
        "players).\n"
        "**Reconstructed components** (not found in any public transcription, chosen to fit "
        "the rulebook and marked unverified): plantation spaces per cooperative row and their "
        "pathways, building spaces, the Coffee Bars' spaces (coffee, coins, VP), the coffee "
        "on every contract, which milestone tiles are A/B/C and their VP, the player board's "
        "plantation levels and bonuses, contract coins and VP, the Counter track VP.\n"
        "Everything is open information: `/hand` shows your company board larger."
    )


# -- option labels, private text --------------------------------------------------------
def option_style(decision: Decision, option: Option) -> OptionStyle | None:
    head = option.id.split(".")[0]
    emoji = {
        "plant": "🌱",
        "send": "👷",
        "donkey": "🫏",
        "civet": "🐈",
        "coins": "🪙",
        "bonus-coins": "🎁",
        "bonus-marker": "🎁",
        "bonus-trader": "🎁",
        "refill-coins": "📥",
        "refill-trader": "📥",
        "drop": "⏹️",
        "pass": "⏭️",
        "trader": "🚶",
        "build": "🏗️",
        "retire": "🎖️",
        "contract": "📜",
        "bar": "☕",
        "convert": "🔁",
        "buy": "🛒",
        "stock": "🏬",
        "join": "✅",
        "decline": "❌",
        "done": "✅",
        "coin": "🪙",
        "back": "↩️",
        "unpaid": "🚫",
    }.get(head)
    if emoji is None and head in COFFEE_EMOJI:
        emoji = COFFEE_EMOJI[head]
    if emoji is None and head in ("A", "B", "C"):
        emoji = "🌱"
    label = option.label if len(option.label) <= 80 else option.label[:77] + "…"
    return OptionStyle(
        label=label, emoji=emoji, description=f"{decision.prompt} ({option.id})"[:100]
    )


def private_text(view: dict[str, Any]) -> str:
    seat = view.get("you")
    if seat is None:
        return "You are watching this game."
    p = view["players"][seat]
    coffee = " ".join(f"{COFFEE_EMOJI[c]}{n}" for c, n in p["coffee"].items() if n) or "none"
    open_contracts = ", ".join(
        f"{letter}: " + " ".join(f"{n}{COFFEE_EMOJI[c]}" for c, n in info["wants"].items())
        for letter, info in p["contracts"].items()
    )
    lines = [
        f"**Your company (P{seat + 1})**: {p['coins']} coins, {p['pool']} workers, "
        f"{p['traders']} traders, {p['donkeys']} donkeys, {p['trucks']} trucks",
        f"**Coffee** (trade {p['ratio']}:1): {coffee}",
        f"**Open contracts**: {open_contracts or 'all fulfilled'}",
        f"**Bonus supply**: {', '.join(p['bonus']) or 'empty'}",
    ]
    if p["stocks"]:
        lines.append(f"**Stock counters**: {', '.join(p['stocks'])}")
    track = " ".join(f"{COFFEE_EMOJI[c]}{p['arabica'][c]}" for c in COFFEES)
    lines.append(f"**Arabica track**: {track} · Counter track height {p['counter_height']}")
    if p["milestones"]:
        won = ", ".join(f"{m} ({n} VP)" for m, n in p["milestones"].items())
        lines.append(f"**Milestones**: {won}")
    return "\n".join(lines)
