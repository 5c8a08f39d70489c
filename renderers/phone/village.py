"""Village's phone view, cropped from the table picture: the action spaces with the market,
the crafts with council and church, the travel map, the chronicle with the bag, in solo
Karla's board, each farmyard; a seat's own farmyard above its served customers. For
decisions only (`DECISION_ONLY`): the action spaces drawn for the phone, numbered as the
turn's panel lines (`spaces_picture`), the market alone, the map without the status, the
own farmyard alone.

Each costs what it shows: a part of the table is drawn alone (`table.render_within`: the
table's layer and the pieces of the parts it shows, not the whole table to cut it from),
and the own area's two halves are drawn at the width they are shown at
(`table.render_private_half`), not drawn at their own and enlarged."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from meeple_hall.games.village import data as village_data
from meeple_hall.renderers import village as table
from meeple_hall.renderers.palette import INK
from meeple_hall.renderers.phone import (
    OWN,
    PAD_WITHIN,
    PHONE_WIDTH,
    Box,
    crop,
    crops,
    min_font_for,
    seat_focus,
    seat_of_focus,
    stack,
)
from meeple_hall.renderers.phone import PAD as CROP_PAD
from meeple_hall.renderers.phone import rings as shared

# Parts of the table picture (renderers/village.py's `render` layout), each a few boxes
# stacked so that none is much wider than a phone.
SHOP = 153  # a workshop's width with its gap
PARTS: dict[str, tuple[Box, ...]] = {
    "actions": ((table.BOARD_X, 12, table.BOARD_X + table.BOARD_W, 308),),
    "crafts": (
        (table.BOARD_X, 316, table.BOARD_X + 3 * SHOP - 6, 406),
        (table.BOARD_X + 3 * SHOP, 316, table.BOARD_X + 5 * SHOP - 6, 406),
    ),
    "council": ((table.BOARD_X, 414, table.BOARD_X + 376, 524),),
    "church": ((table.BOARD_X + 388, 414, table.BOARD_X + 764, 524),),
    "map": ((table.SIDE_X, 12, table.SIDE_X + table.SIDE_W, 328),),
    "chronicle": ((table.SIDE_X, 336, table.SIDE_X + table.SIDE_W, 524),),
}
YARD_W = 420  # a farmyard drawn alone, as in the private picture
SPLIT = table.PRIVATE_SPLIT  # between the farmyard (16-436) and the customers' panel (452-)
OWN_W = table.PRIVATE_W - SPLIT  # the customers' panel's width: the own area's


KARLA_W = 480  # Karla's board drawn alone: her ring, her members, customers and dead

# Parts drawn for decisions only (not `/board focus:` parts, `DECISION_ONLY`): the action
# spaces drawn for the phone (`spaces_picture`), the own area's farmyard without the
# customers served under it, the travel map without the status above it, the market
# without the action spaces above it and the supply beside it.
SPACES = "spaces"
YARD = "yard"
ROUTES = "routes"
STALLS = "stalls"
DECISION_ONLY = (SPACES, YARD, ROUTES, STALLS)
MAP_BOX: Box = (table.SIDE_X, table.MAP_Y, table.SIDE_X + table.SIDE_W, table.MAP_Y + table.MAP_H)
MARKET_BOX: Box = (table.BOARD_X, 120, table.BOARD_X + 572, 308)  # `table.parts`' market
# parts cut from the table
CUT: dict[str, tuple[Box, ...]] = {**PARTS, ROUTES: (MAP_BOX,), STALLS: (MARKET_BOX,)}
MAPS = ("map", ROUTES)  # the parts showing the travel map


def focuses(view: dict[str, Any]) -> list[str]:
    solo = ["karla"] if view.get("karla") else []
    return [*PARTS, *solo, *(seat_focus(s) for s in range(view["num_players"]))]


def render_focus(view: dict[str, Any], focus: str) -> Image.Image:
    if focus == SPACES:
        return spaces_picture(view, OWN_W)
    if focus == YARD:
        yard = _yard_at(view, OWN_W)
        assert yard is not None, "a farmyard of one's own: a seat's view"
        return yard
    if focus == "karla":
        image = Image.new("RGB", (KARLA_W + 32, table.YARDS_H + 32), table.BACKGROUND)
        table.draw_karla(ImageDraw.Draw(image), view, 16, 16, KARLA_W, table.YARDS_H)
        return image
    seat = seat_of_focus(focus, view["num_players"])
    if seat is None:
        boxes = CUT[focus]
        if focus in MAPS and view["travellers"]:
            boxes = _with_strip(view, boxes)
            image = _map_within(view, _hull(boxes), boxes)
        else:
            image = table.render_within(view, _hull(boxes))
        if focus == "crafts":
            _number_shops(image)
        # one box: `crops`' own cut, without the copy it stacks it on
        return crop(image, boxes[0]) if len(boxes) == 1 else crops(image, boxes, table.BACKGROUND)
    image = Image.new("RGB", (YARD_W + 32, table.YARDS_H + 32), table.BACKGROUND)
    table.draw_player(ImageDraw.Draw(image), view, seat, 16, 16, YARD_W, table.YARDS_H)
    return image


# The workshops' numbers on the phone's crafts (the keycaps their panel lines wear: bot/
# presenters/village.py), the mill's the fifth: each a keycap in its box's top right corner,
# where nothing stands (its goods are at the left, its members below).
SHOP_MARK = {shop: k for k, (shop, _) in enumerate(table.SHOPS, start=1)}
KEY = 26  # a keycap's size: a workshop's on the table, an action space's at the own area's width


def _number_shops(image: Image.Image) -> None:
    """Each workshop's number drawn on the table's picture (`table.render_within`'s: it
    keeps the table's coordinates), in a keycap as the action spaces' (`_space`)."""
    d = ImageDraw.Draw(image)
    for k in SHOP_MARK.values():
        right = table.BOARD_X + (k - 1) * SHOP + table.SHOP_W - 6
        top = SHOPS_Y + 6
        _keycap(d, right - KEY, top, KEY, k, 20, 6)


def _keycap(
    d: ImageDraw.ImageDraw,
    left: float,
    top: float,
    size: float,
    k: int,
    type_size: int,
    radius: int,
) -> None:
    """Number `k` in a keycap (the emoji its panel lines wear), `size` square at (left, top)."""
    d.rounded_rectangle((left, top, left + size, top + size), radius=radius, fill=KEYCAP)
    table.text(d, (left + size / 2, top + size / 2), k, type_size, PAPER)


def _map_within(view: dict[str, Any], at: Box, boxes: tuple[Box, ...]) -> Image.Image:
    """The travel map as `table.render_within` draws it, its travellers' numbers large
    enough to read on a phone: the table's (8 px high on a map 496 px wide) would read 6.5
    px at 400. The map is drawn without them (kept so, as the table keeps its parts), then
    they are drawn where the table stands them, each number at the least font the map's
    width needs (`min_font_for`)."""
    image = table.render_within({**view, "travellers": []}, at)
    width = max(b[2] - b[0] for b in boxes) + 2 * CROP_PAD
    draw = ImageDraw.Draw(image)
    bottom = table.roomy_map_bottom(view)
    if bottom > MAP_BOX[3]:  # the strip of a crowded city's travellers, where the bag was
        clear = (MAP_BOX[0] - CROP_PAD, MAP_BOX[3] + 2, MAP_BOX[2] + CROP_PAD, bottom + CROP_PAD)
        draw.rectangle(clear, fill=table.BACKGROUND)
        table.draw_crowd_strip(draw, view)
    table.draw_traveller_members(draw, view, min_font_for(width))
    return image


def _with_strip(view: dict[str, Any], boxes: tuple[Box, ...]) -> tuple[Box, ...]:
    """A map's part reaching down to the strip under the map, where more than five
    travellers share a city (`table.roomy_traveller_spots`)."""
    bottom = table.roomy_map_bottom(view)
    *above, (x0, y0, x1, y1) = boxes
    return (*above, (x0, y0, x1, max(y1, bottom)))


# The action spaces drawn for the phone (a turn's picture): four over three, each with its
# number (the keycap its panel lines wear: `SPACE_MARK`, bot/presenters/village.py), its
# icon (the family's its own, not the table's house, which reads as the market's stall)
# and its cubes, each twice as large on a phone as the table's.
SPACE_MARK = {space: k for k, space in enumerate(table.SPACES, start=1)}
SPACES_PER_ROW = 4
SPACE_GAP, SPACE_PAD = 8, 6  # between the spaces, about them
SPACE_CUBE, CUBE_GAP = 30, 4  # a cube's size at the own area's width, between two
SPACE_TOP = 44  # the cubes' first row, below the number and the icon
KEYCAP = (86, 96, 116)  # a keycap emoji's grey-blue


def spaces_picture(view: dict[str, Any], width: int) -> Image.Image:
    """The seven action spaces, `width` wide: drawn at the own area's width (`OWN_W`) and
    scaled with the width asked for (the picture's: `at_width`)."""
    u = table.Scale(width / OWN_W)
    image = Image.new("RGB", (width, u.i(SPACES_H)), table.BACKGROUND)
    d = ImageDraw.Draw(image)
    for name, at in zip(table.SPACES, space_boxes(width), strict=True):
        _space(d, view, name, at, u)
    return image


SPACE_CELL = (OWN_W - 2 * SPACE_PAD - (SPACES_PER_ROW - 1) * SPACE_GAP) / SPACES_PER_ROW
SPACE_TALL = SPACE_TOP + 2 * SPACE_CUBE + CUBE_GAP + 10
SPACE_ROWS = math.ceil(len(table.SPACES) / SPACES_PER_ROW)
SPACES_H = 2 * SPACE_PAD + SPACE_ROWS * SPACE_TALL + (SPACE_ROWS - 1) * SPACE_GAP


def space_boxes(width: int) -> list[Box]:
    """Each action space's box in `spaces_picture` `width` wide, in the table's order."""
    u = table.Scale(width / OWN_W)
    boxes: list[Box] = []
    for i in range(len(table.SPACES)):
        row, col = divmod(i, SPACES_PER_ROW)
        in_row = min(SPACES_PER_ROW, len(table.SPACES) - row * SPACES_PER_ROW)
        left = (OWN_W - in_row * SPACE_CELL - (in_row - 1) * SPACE_GAP) / 2
        left += col * (SPACE_CELL + SPACE_GAP)
        top = SPACE_PAD + row * (SPACE_TALL + SPACE_GAP)
        boxes.append((u(left), u(top), u(left + SPACE_CELL), u(top + SPACE_TALL)))
    return boxes


def _space(
    d: ImageDraw.ImageDraw, view: dict[str, Any], name: str, at: Box, u: table.Scale
) -> None:
    """An action space: its tint, number, icon and cubes (up to four: two rows of two)."""
    x0, y0, x1, _ = at
    table.box(d, at, table.SPACE_TINT[name], radius=u.i(10), width=u.i(2))
    _keycap(d, x0 + u(6), y0 + u(6), u(KEY), SPACE_MARK[name], u.font(20), u.i(6))
    cx = (x0 + x1) / 2 + u(10)
    if name == "family":
        _family_icon(d, cx, y0 + u(22), u(16))
    else:
        table.icon(d, cx, y0 + u(22), name, u(16))
    cubes = view["spaces"].get(name, [])
    size, gap = u.i(SPACE_CUBE), u(CUBE_GAP)
    for j, colour in enumerate(cubes):
        row, col = divmod(j, 2)
        in_row = min(2, len(cubes) - row * 2)
        left = (x0 + x1) / 2 - (in_row * size + (in_row - 1) * gap) / 2 + col * (size + gap)
        table.cube(d, left, y0 + u(SPACE_TOP) + row * (size + gap), colour, size, u.i(1))


PAPER = (250, 250, 250)  # a keycap's digit


def _family_icon(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    """The family space's icon on the phone: a parent and a child (the table draws a house,
    much like the market's stall beside it)."""
    # (centre's x, head's centre y, head's radius, body's top and half width, colour)
    for dx, head, r, top, half, colour in (
        (-0.38, -0.58, 0.32, -0.2, 0.5, (150, 96, 64)),
        (0.5, 0.1, 0.24, 0.38, 0.36, (226, 170, 90)),
    ):
        x = cx + dx * s
        body = (x - half * s, cy + top * s, x + half * s, cy + s)
        d.rounded_rectangle(body, radius=round(half * s * 0.8), fill=colour, outline=INK)
        y = cy + head * s
        d.ellipse((x - r * s, y - r * s, x + r * s, y + r * s), fill=colour, outline=INK)


def _hull(boxes: tuple[Box, ...], pad: int = 4) -> Box:
    """The boxes' bounds with `crops`' margin."""
    return (
        min(b[0] for b in boxes) - pad,
        min(b[1] for b in boxes) - pad,
        max(b[2] for b in boxes) + pad,
        max(b[3] for b in boxes) + pad,
    )


def render_own(view: dict[str, Any]) -> Image.Image | None:
    """The private picture's two halves one under the other: farmyard, then customers. The
    farmyard is the narrower half: drawn as wide as the customers' panel, so that its numbers
    do not read smaller than they would alone."""
    return _own_at(view, OWN_W)


def _own_at(view: dict[str, Any], width: int) -> Image.Image | None:
    """The own area `width` wide: each half drawn at that width."""
    yard = table.render_private_half(view, "yard", width)
    customers = table.render_private_half(view, "customers", width)
    if yard is None or customers is None:
        return None
    return stack([yard, customers], table.BACKGROUND, gap=0)


def _yard_at(view: dict[str, Any], width: int) -> Image.Image | None:
    """The own area's farmyard alone, `width` wide: the private picture's left half cut
    to the farmyard's height (the half is as tall as the customers served beside it)."""
    yard = table.render_private_half(view, "yard", width)
    if yard is None:
        return None
    _, y0, _, h = table.YOUR_YARD
    bottom = min(yard.height, round((y0 + h + y0) * width / SPLIT))
    return yard.crop((0, 0, width, bottom))


def part_width(view: dict[str, Any], part: str) -> int | None:
    """The own area's width, known without drawing it (the customers' panel's: the private
    picture is always PRIVATE_W wide), its farmyard's alone, and the action spaces' (drawn
    as wide as the own area); None for any other part."""
    if part == SPACES or (part in (OWN, YARD) and view.get("you")):
        return OWN_W
    return None


def at_width(
    view: dict[str, Any], part: str, image: Image.Image | None, width: int
) -> Image.Image | None:
    """The seat's own area in a decision's picture `width` wide: each half drawn at that width
    (not drawn at its own and enlarged; `image`, the own area drawn alone, is not needed);
    its farmyard alone, and the action spaces, drawn at that width; None for any other
    part."""
    if part == OWN:
        return _own_at(view, width)
    if part == YARD:
        return _yard_at(view, width)
    return spaces_picture(view, width) if part == SPACES else None


# What a decision's panel pictures, by its kind (Village's parts are the table's areas of
# the same name; the seat's farmyard and customers are its own area). What is paid (cubes,
# time, grain, coins), what is gained (goods, grain, cubes) and the members sent are in the
# farmyard (`YARD`: the own area without the customers served under it, which only a sale
# is about); a death is pictured where the members who may die stand (`narrowed`); the
# Mass's buying out, with the black bag (drawn above the chronicle); Karla's cube, with the
# action spaces it is taken from.
DECISION_PARTS: dict[str, tuple[str, ...]] = {
    # an action space's cubes (the spaces drawn for the phone, each numbered as its panel
    # lines' keycap), the cubes, time and members at home in the farmyard
    "turn": (SPACES, YARD),
    # the market's customers (its stalls and queue), served from the seat's goods, to join
    # those it has served (while it has served none, the farmyard alone: `narrowed`)
    "market": (STALLS, OWN),
    "council": ("council", YARD),
    "privilege": ("council",),
    "crafts": ("crafts", YARD),
    "church": ("church", YARD),
    "advance": ("church", YARD),  # grain paid
    "buy": ("chronicle", YARD),  # the black bag, and the coins
    # the map without the status above it, the cubes and time paid and the member leaving
    # home (ringed there, `narrowed`) in the farmyard
    "travel": (ROUTES, YARD),
    "karla": (SPACES, "karla"),
    "die": ("crafts", "council", "church", "map", YARD),
    # a birth onto the farmyard, or a member brought home there from where it stands
    # (ringed there: `narrowed`, `marks`)
    "family": ("crafts", "council", "church", "map", YARD),
    **dict.fromkeys(("harvest", "reward", "gift"), (YARD,)),
}
NO_PICTURE: dict[str, str] = {}  # every Village decision is about something on the table

START = village_data.travel()["start"]  # where a trip from home sets out

# Where a member who may die stands (a death's option's `row`), as a part of the picture
DIE_PARTS = {"crafts": "crafts", "council": "council", "church": "church", "travel": "map"}


def narrowed(
    view: dict[str, Any], part: str, fields: Sequence[Mapping[str, Any]]
) -> tuple[str, ...]:
    """A death's parts: those where the members who may die stand (its options' `row`: the
    farmyard's is `YARD`); a trip's farmyard only where a member may leave home; any other
    decision's part as it is."""
    if part == OWN and not _served(view):
        return (YARD,)  # a sale with no customer served yet: the farmyard, no empty panel
    if part in (OWN, YARD) and any("origin" in f for f in fields):
        return (part,) if any(f.get("origin") == START for f in fields) else ()
    rows = {f["row"] for f in fields if "row" in f and "member" in f}
    if not rows:
        # a family's birth alone: the farmyard it is born onto
        born = any(f.get("how") == "born" for f in fields)
        return () if born and part in RECALLED_FROM else (part,)
    shown = {DIE_PARTS.get(row, YARD) for row in rows}
    if any(f.get("how") == RECALL for f in fields):
        shown.add(YARD)  # where a member brought home goes
    return (part,) if part in shown else ()


RECALL = "recall"  # a family's option that brings a member home (its `how`)
RECALLED_FROM = frozenset(DIE_PARTS.values())  # where a member brought home stands


def _served(view: dict[str, Any]) -> bool:
    """Whether the seat has served a customer (its own area's lower half shows them)."""
    you = view.get("you")
    return bool(you and you["customers"])


# Marks: (where, place, seat, number): the members of a seat to ring, where they stand
# ('crafts', 'council', 'church', 'map', 'bag': `table.member_spots`; 'farm': the seat's
# farmyard in its own area, `table.farm_spots`), in one workshop, stage or city (`place`,
# as member_spots counts them) or in any (-1); or an action space to ring ('space', its
# index in `table.SPACES`, -1, -1); or a customer in the market's stalls ('customer', its
# stall, -1, -1); or a workshop ('shop', its index in `table.SHOPS`, -1, -1); or a council
# stage whose privilege is offered ('stage', its stage - 1, -1, -1).
Mark = tuple[str, int, int, int]
MARKED_PART = {"crafts": "crafts", "council": "council", "church": "church", "map": "map"}
MARKED_PART["chronicle"] = "bag"  # the black bag is drawn above the chronicle
MARKED_PART[OWN] = MARKED_PART[YARD] = "farm"  # the farmyard is the own area's upper half
MARKED_PART["actions"] = MARKED_PART[SPACES] = "space"
MARKED_PART[ROUTES] = "map"
# the boxes of the table ringed in a part, besides its members or action spaces
BOXES_MARKED = {"actions": "customer", "crafts": "shop", "map": "city", ROUTES: "city"}
BOXES_MARKED[STALLS] = "customer"
BOXES_MARKED["council"] = "stage"  # a stage whose privilege is offered
ANY = -1


def marks(view: dict[str, Any], kind: str, fields: Sequence[Mapping[str, Any]]) -> tuple[Mark, ...]:
    """What a decision's options name: the members who may die, those to buy out of the
    black bag, those in the church who may move up for the grain the seat has, those in the
    council who may move up, those at home on the farmyard who may enter the council, go
    to church or train in a workshop; the action space Karla's cube is taken from; the
    customers a sale serves; the workshops named."""
    if kind == "karla":
        spaces = {f["space"] for f in fields if f.get("space") in table.SPACES}
        return tuple(sorted(("space", table.SPACES.index(s), ANY, ANY) for s in spaces))
    if kind == "market":
        return _customers(view, fields)
    if kind == "privilege":
        stages = sorted({f["privilege"] for f in fields if "privilege" in f})
        return tuple(("stage", stage - 1, ANY, ANY) for stage in stages)
    if kind == "crafts":
        return _shops(fields) + _members(view, kind, fields)
    if kind == "travel":
        return _trips(view, fields)
    return _members(view, kind, fields)


def _members(
    view: dict[str, Any], kind: str, fields: Sequence[Mapping[str, Any]]
) -> tuple[Mark, ...]:
    """The seat's members a decision's options name, where they stand (`marks`)."""
    you = view.get("you")
    if you is None or not any("member" in f for f in fields):
        return ()
    seat = you["seat"]
    if kind == "die":
        number = _oldest(view, seat)
        rows = dict.fromkeys(f["row"] for f in fields if f.get("row") in DIE_PARTS)
        away = tuple((DIE_PARTS[row], ANY, seat, number) for row in rows)
        farm = any(f.get("row") == "farm" for f in fields)
        return (*away, ("farm", ANY, seat, number)) if farm else away
    if kind == "buy":
        bagged = sorted({t["number"] for t in view["black_bag"] if t["seat"] == seat})
        return tuple(("bag", ANY, seat, n) for n in bagged)
    if kind == "family":
        return _recalled(view, seat, fields)
    if kind == "advance":
        return _moving_up(view, "church", seat, _church_stages(view["players"][seat]["grain"]))
    found: tuple[Mark, ...] = ()
    if kind == "council" and any(f.get("how") == "promote" for f in fields):
        found = _moving_up(view, "council", seat, range(1, 4))
    if any(_from_the_farm(kind, f) for f in fields):
        found += _at_home(view, seat)
    return found


def _recalled(
    view: dict[str, Any], seat: int, fields: Sequence[Mapping[str, Any]]
) -> tuple[Mark, ...]:
    """The members a family's options bring home, where they stand: a stage of the council
    or church, a workshop, a city (its `row`, and its `stage` or `where`)."""
    found: list[Mark] = []
    for f in fields:
        if f.get("how") != RECALL or f.get("row") not in DIE_PARTS:
            continue
        where, number = DIE_PARTS[f["row"]], f["number"]
        if "stage" in f:
            place = f["stage"] - 1
        elif where == "crafts":
            place = SHOP_MARK[f["where"]] - 1
        else:
            place = list(table.CITY_XY).index(f["where"])
        found.append((where, place, seat, number))
    return tuple(dict.fromkeys(found))


# The options whose member goes from the farmyard (one option a number at home: members of
# one number are alike, games/village/actions.farm_members): into the council, to church
# (the black bag), into a workshop
FROM_THE_FARM: dict[str, Callable[[Mapping[str, Any]], bool]] = {
    "council": lambda f: f.get("how") == "enter",
    "church": lambda f: "member" in f,
    "crafts": lambda f: f.get("how") in ("train", "trainonly"),
}


def _trips(view: dict[str, Any], fields: Sequence[Mapping[str, Any]]) -> tuple[Mark, ...]:
    """A trip's cities offered, and its members who may go: those at home (one option a
    number: all of a number are alike), the seat's travellers in a city they may move on
    from."""
    cities = list(table.CITY_XY)
    found = [
        ("city", cities.index(c), ANY, ANY)
        for c in dict.fromkeys(f["city"] for f in fields if f.get("city") in cities)
    ]
    you = view.get("you")
    if you is None:
        return tuple(found)
    seat = you["seat"]
    origins = {f["origin"] for f in fields if "origin" in f}
    if START in origins:
        found += _at_home(view, seat)
    for m in view["travellers"]:
        if m["seat"] == seat and m["where"] in origins - {START}:
            found.append(("map", cities.index(m["where"]), seat, m["number"]))
    return tuple(dict.fromkeys(found))


def _shops(fields: Sequence[Mapping[str, Any]]) -> tuple[Mark, ...]:
    """The workshops the options name (the mill's option names none: it is the table's
    fifth workshop, `table.SHOPS`). Training is offered at every workshop but the mill while
    a member is at home, so four or five are ringed then: all are offered."""
    named = {MILL if f.get("how") == MILL else f.get("shop") for f in fields}
    return tuple(("shop", i, ANY, ANY) for i, (shop, _) in enumerate(table.SHOPS) if shop in named)


MILL = "mill"  # the mill's option's `how`, and its workshop on the table


def _customers(view: dict[str, Any], fields: Sequence[Mapping[str, Any]]) -> tuple[Mark, ...]:
    """The customers in the market's stalls that the options serve."""
    named = {f["customer"] for f in fields if "customer" in f}
    return tuple(
        ("customer", i, ANY, ANY)
        for i, tile in enumerate(view["stalls"])
        if tile is not None and tile["id"] in named
    )


def _from_the_farm(kind: str, fields: Mapping[str, Any]) -> bool:
    test = FROM_THE_FARM.get(kind)
    return test is not None and test(fields)


def _at_home(view: dict[str, Any], seat: int) -> tuple[Mark, ...]:
    """The seat's members at home on its farmyard, every number."""
    return tuple(("farm", ANY, seat, n) for n in sorted(set(view["players"][seat]["farm"])))


def _oldest(view: dict[str, Any], seat: int) -> int:
    """The lowest number of the seat's members to be seen (those who may die)."""
    away = (m["number"] for key in MEMBERS_AWAY for m in view[key] if m["seat"] == seat)
    return min([*view["players"][seat]["farm"], *away])


MEMBERS_AWAY = ("workshops", "council", "church", "travellers")


def _church_stages(grain: int) -> list[int]:
    """The church's stages a member may move up from, for `grain`."""
    costs = village_data.rules()["church"]["advance_grain"]
    return [stage for stage, cost in enumerate(costs, start=1) if cost <= grain]


def _moving_up(
    view: dict[str, Any], where: str, seat: int, stages: Iterable[int]
) -> tuple[Mark, ...]:
    """The seat's members in the council or church at one of `stages`."""
    at = set(stages)
    found = {
        (where, m["stage"] - 1, seat, m["number"]): None
        for m in view[where]
        if m["seat"] == seat and m["stage"] in at
    }
    return tuple(sorted(found))


def marked(
    view: dict[str, Any], part: str, image: Image.Image, found: tuple[Any, ...]
) -> Image.Image:
    """The part's picture with a ring around each member marked (or about the action space
    marked); the image itself where it marks none (a kept picture is never drawn on)."""
    boxes = sorted(m[1] for m in found if m[0] == BOXES_MARKED.get(part))
    if boxes:
        image = _boxes_ringed(image, part, boxes)
    where = MARKED_PART.get(part)
    wanted = {m for m in found if m[0] == where}
    if where is None or not wanted:
        return image
    if where == "space":
        return _spaces_ringed(image, part, sorted(m[1] for m in wanted))
    if where == "farm":
        # the own area's farmyard, drawn at the picture's width (`_own_at`): in its pixels
        scale = image.width / SPLIT
        x0, y0, w, _ = table.YOUR_YARD
        at = table.Scale(scale)
        spots = table.farm_spots(view, view["you"]["seat"], at(x0), at(y0), w, scale, own=True)
        rings = [(x, y, r + 5 * scale, scale) for *_, x, y, r in _wanted(spots, where, wanted)]
    else:
        place = _placement(part, image.width)
        rings = []
        # the map's travellers stand where the phone's map draws them (`_map_within`)
        standing = (
            table.roomy_traveller_spots(view) if where == "map" else table.member_spots(view, where)
        )
        for *_, x, y, r in _wanted(standing, where, wanted):
            cx, cy, scale = place(x, y)
            rings.append((cx, cy, (r + 5) * scale, scale))
    if not rings:
        return image
    out = image.copy()
    draw = ImageDraw.Draw(out)
    shared.draw_rings(
        draw,
        [
            shared.oval((cx - r, cy - r, cx + r, cy + r), max(3, round(2.5 * scale)), 1)
            for cx, cy, r, scale in rings
        ],
    )
    return out


def _wanted(spots: Iterable[table.Spot], where: str, wanted: set[Mark]) -> list[table.Spot]:
    return [
        s
        for s in spots
        if (where, s[0], s[1], s[2]) in wanted or (where, ANY, s[1], s[2]) in wanted
    ]


def _ring(box: Box, width: int, radius: float) -> shared.Ring:
    """A rounded ring in palette.MARK with an INK rim, `width` wide, about `box`."""
    return shared.box(box, width, 1, radius)


def _spaces_ringed(image: Image.Image, part: str, spaces: list[int]) -> Image.Image:
    """The action spaces' picture (the table's, at its size: it is wider than a phone; or
    the phone's, `spaces_picture`) with a ring about each of `spaces` (their index in
    `table.SPACES`), just outside its edge."""
    out = image.copy()
    draw = ImageDraw.Draw(out)
    rings = []
    if part == SPACES:
        scale = image.width / OWN_W
        boxes = space_boxes(image.width)
        for i in spaces:
            x0, y0, x1, y1 = boxes[i]
            reach = 3 * scale
            box = (x0 - reach, y0 - reach, x1 + reach, y1 + reach)
            rings.append(_ring(box, max(3, round(2.5 * scale)), round(10 * scale)))
        shared.draw_rings(draw, rings)
        return out
    place = _placement("actions", image.width)
    for i in spaces:
        left = table.BOARD_X + i * (table.SPACE_W + 6)
        (x0, y0, scale), (x1, y1, _) = place(left, SPACE_Y), place(left + table.SPACE_W, SPACE_Y)
        y1 = y0 + SPACE_H * scale
        reach = 3 * scale  # the ring's outer edge this far outside the space's
        box = (x0 - reach, y0 - reach, x1 + reach, y1 + reach)
        rings.append(_ring(box, max(3, round(2.5 * scale)), round(8 * scale)))
    shared.draw_rings(draw, rings)
    return out


def _cities_ringed(image: Image.Image, part: str, indices: list[int]) -> Image.Image:
    """The map's picture with a ring about each city offered (its index in CITY_XY)."""
    place = _placement(part, image.width)
    out = image.copy()
    draw = ImageDraw.Draw(out)
    rings = []
    for i in indices:
        cx, cy, scale = place(*table.city_at(list(table.CITY_XY)[i], table.SIDE_X, table.MAP_Y))
        r = (table.CITY_R + 4) * scale
        rings.append(shared.oval((cx - r, cy - r, cx + r, cy + r), max(3, round(2.5 * scale)), 1))
    shared.draw_rings(draw, rings)
    return out


SPACE_Y, SPACE_H = 12, 100  # the action spaces' top and height on the table (`table.parts`)
MARKET_X, MARKET_Y = table.BOARD_X + 44, 120 + 5  # the first stall's customer (`table.parts`)
STALL, TILE = 88, 84  # a stall's step and a customer's size
SHOPS_Y, SHOP_H = 316, 90  # the workshops' top and height (`table.parts`)
STAGES_Y, STAGE_H = 414, 110  # the council's stages' top and height (`table.parts`)


# The rows of boxes a part rings (on the table): the first box's left, the step to the next,
# the boxes' top, width and height, how far outside a box its ring reaches, its corners.
BOX_ROWS: dict[str, tuple[float, float, float, float, float, float, float]] = {
    # a customer in the market's stalls, over its stall's frame (the stalls touch)
    "actions": (MARKET_X, STALL, MARKET_Y, TILE, TILE, 4, 10),
    STALLS: (MARKET_X, STALL, MARKET_Y, TILE, TILE, 4, 10),
    # a council stage whose privilege is offered (4 px apart: just outside it)
    "council": (table.BOARD_X, table.STAGE_W + 4, STAGES_Y, table.STAGE_W, STAGE_H, 2, 10),
    # a workshop, just outside it
    "crafts": (table.BOARD_X, SHOP, SHOPS_Y, table.SHOP_W, SHOP_H, 3, 10),
}


def _boxes_ringed(image: Image.Image, part: str, indices: list[int]) -> Image.Image:
    """The part's picture with a ring about each box marked (`indices` in its row of boxes,
    `BOX_ROWS`): a customer in the market's stalls, a workshop, or a council stage; a city
    on the map."""
    if part in MAPS:
        return _cities_ringed(image, part, indices)
    first, step, top, width, height, reach, radius = BOX_ROWS[part]
    place = _placement(part, image.width)
    out = image.copy()
    draw = ImageDraw.Draw(out)
    rings = []
    for i in indices:
        left = first + i * step
        (x0, y0, scale), (x1, y1, _) = place(left, top), place(left + width, top + height)
        box = (x0 - reach * scale, y0 - reach * scale, x1 + reach * scale, y1 + reach * scale)
        rings.append(_ring(box, max(3, round(2.5 * scale)), round(radius * scale)))
    shared.draw_rings(draw, rings)
    return out


def _placement(part: str, width: int) -> Callable[[float, float], tuple[float, float, float]]:
    """Where a point of the table lies in a part's picture `width` wide, and how much larger
    it is drawn there: the part cut from the table (`render_focus`: its boxes, each with
    CROP_PAD about it, one under another, centred), brought to the phone's width (`fit`),
    then to the picture's (`widened`)."""
    boxes = CUT[part]
    cuts = [(b[2] - b[0] + 2 * CROP_PAD, b[3] - b[1] + 2 * CROP_PAD) for b in boxes]
    raw_w = max(w for w, _ in cuts)
    tops = [sum(h + 2 * CROP_PAD for _, h in cuts[:i]) for i in range(len(cuts))]
    # fit: as it is, centred on margins, or enlarged by a whole factor
    shift, scale, shown = 0.0, 1.0, raw_w
    if raw_w < PHONE_WIDTH:
        if raw_w * PAD_WITHIN >= PHONE_WIDTH:
            shift, shown = (PHONE_WIDTH - raw_w) // 2, PHONE_WIDTH
        else:
            scale = math.ceil(PHONE_WIDTH / raw_w)
            shown = raw_w * int(scale)
    # widened: as it is, centred on margins, or resized in proportion
    if shown < width <= shown * PAD_WITHIN:
        shift += (width - shown) // 2
    elif shown != width:
        shift, scale = shift * width / shown, scale * width / shown

    def place(x: float, y: float) -> tuple[float, float, float]:
        i = next(
            (
                k
                for k, b in enumerate(boxes)
                if b[0] - CROP_PAD <= x <= b[2] + CROP_PAD
                and b[1] - CROP_PAD <= y <= b[3] + CROP_PAD
            ),
            0,
        )
        x0, y0 = boxes[i][0] - CROP_PAD, boxes[i][1] - CROP_PAD
        left = (raw_w - cuts[i][0]) // 2
        return (
            shift + (left + x - x0) * scale,
            (tops[i] + y - y0) * scale,
            scale,
        )

    return place
