"""The Castles of Burgundy's phone view: the table's cells cropped one at a time (each is
450 px wide, so it shows nearly at full size on a phone): the depots, the tracks and each
seat's estate; a seat's own estate above its sold goods. A decision pictures the depots its
options name in a layout of its own, a row each (`DEPOT_PARTS`, `render_row`): the table's
depots are two by two, their goods 24 px squares, 20 px on a phone; a row's goods are a
third larger, their digits 40 % larger, its tiles a little larger. A decision's picture
rings, in palette.MARK, the places its options name: the estate's hexes a tile may go on,
the tiles that may be taken or bought, the depots a ship may empty, the stored tiles offered
for discard (`marks`, `marked`)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from PIL import Image, ImageDraw

from meeple_hall.renderers import burgundy as table
from meeple_hall.renderers.palette import INK, MARK, font
from meeple_hall.renderers.phone import OWN, PAD_WITHIN, seat_focus, seat_of_focus
from meeple_hall.renderers.phone import rings as shared

PARTS = table.BOARD_CELLS


def focuses(view: dict[str, Any]) -> list[str]:
    return [*PARTS, *(seat_focus(s) for s in range(view["num_players"]))]


def render_focus(view: dict[str, Any], focus: str) -> Image.Image:
    """The cell as the table shows it, drawn alone (or pasted as kept, `table.draw_cell`); a
    depot's row for a decision (`DEPOT_PARTS`, `render_row`)."""
    if focus in DEPOT_PARTS:
        return render_row(view, DEPOT_OF_PART[focus])
    if focus == ESTATE:
        return render_estate(view)
    seat = seat_of_focus(focus, view["num_players"])
    return table.render_cell(view, focus if seat is None else seat, pad=FOCUS_PAD)


FOCUS_PAD = table.MARGIN // 2  # a focus: the cell and this much of the table around it


def render_own(view: dict[str, Any]) -> Image.Image | None:
    """The seat's estate panel (as on the table, and pasted as the table's worker kept it)
    above its sold goods (its secret)."""
    you = view.get("you")
    if not you:
        return None
    seat = you["seat"]
    width, height = table.CELL_W + 2 * table.MARGIN, table.CELL_H + 2 * table.MARGIN
    image = Image.new("RGB", (width, 2 * height), table.BACKGROUND)
    table.draw_cell(image, view, seat, table.MARGIN, table.MARGIN)
    sold = sold_panel(seat, tuple(sorted(you["sold"].items())))
    image.paste(sold, ((width - sold.width) // 2, height))
    return image


def render_estate(view: dict[str, Any]) -> Image.Image:
    """The seat's estate panel alone (`render_own`'s top half, without the sold goods): a
    decision that is not about the goods sold (`ESTATE`)."""
    seat = view["you"]["seat"]
    width, height = table.CELL_W + 2 * table.MARGIN, table.CELL_H + 2 * table.MARGIN
    image = Image.new("RGB", (width, height), table.BACKGROUND)
    table.draw_cell(image, view, seat, table.MARGIN, table.MARGIN)
    return image


@lru_cache(maxsize=8)
def sold_panel(seat: int, sold: tuple[tuple[str, int], ...]) -> Image.Image:
    """A seat's goods sold by kind on its margin of background, under its estate panel: drawn
    once for what it shows (it changes when the seat sells; 0.6 MB each as Pillow keeps RGB)."""
    image = Image.new(
        "RGB", (table.SOLD_W + 2 * table.MARGIN, table.CELL_H + 2 * table.MARGIN), table.BACKGROUND
    )
    table.draw_sold(ImageDraw.Draw(image), dict(sold), seat, table.MARGIN, table.MARGIN)
    return image


# A decision pictures the depots its options name, each as a row of its own (`render_row`):
# depots 1-6, then the black depot (its index 0 in the marks, as in the options' fields).
DEPOT_PARTS = (*(f"depot{n}" for n in range(1, 7)), "black")
DEPOT_OF_PART = {part: (n + 1) % 7 for n, part in enumerate(DEPOT_PARTS)}  # black: 0
# The own area without its sold goods: a placing, a town hall's, a discard (the sold goods
# panel is ~330 of its ~770 px at 400 wide).
ESTATE = "estate"
DECISION_ONLY = (*DEPOT_PARTS, ESTATE)

# What a decision's panel pictures, by its kind. The dice, the storage, the goods and the
# estate's empty spaces are in the seat's own area; the tiles to take and the goods a ship
# takes are in the depots (those the options name: `narrowed`).
DECISION_PARTS: dict[str, tuple[str, ...]] = {
    # the seat's two dice and its workers, and where its lines take tiles from (the depots,
    # the black one to buy from) and place them (the estate); a castle's die likewise
    **dict.fromkeys(("die", "castle"), (*DEPOT_PARTS, OWN)),
    "action": (*DEPOT_PARTS, OWN),  # take from a depot, place, ship or sell from storage
    "take": DEPOT_PARTS,  # the die's depot
    "effect_take": DEPOT_PARTS,
    "buy": DEPOT_PARTS,  # the black depot (and any other a knowledge tile buys from)
    # a ship takes a depot's goods into the storage (its 3 kinds), choosing kinds where the
    # storage has too little room
    **dict.fromkeys(("ship", "shipgoods"), (*DEPOT_PARTS, OWN)),
    # a town hall's market, carpenter or church also takes a tile (its `takes`: the depots)
    "townhall": (*DEPOT_PARTS, ESTATE),
    **dict.fromkeys(("place", "discard"), (ESTATE,)),
    "warehouse": (OWN,),  # sells goods: the goods sold below
}
NO_PICTURE: dict[str, str] = {}  # every Burgundy decision is about something on the table


def narrowed(
    view: dict[str, Any], part: str, fields: Sequence[Mapping[str, Any]]
) -> tuple[str, ...]:
    """A depot's row only where an option names something in it (`named_depots`): none for
    a die whose values take nothing and which buys nothing (both dice used: only ending the
    turn), nor for an action that only places, sells or takes workers (the estate shows all
    of it); a ship's depots with goods, the take's one depot."""
    if part in DEPOT_OF_PART and DEPOT_OF_PART[part] not in named_depots(view, fields):
        return ()
    return (part,)


def named_depots(view: dict[str, Any], fields: Sequence[Mapping[str, Any]]) -> set[int]:
    """The depots (0: the black one) the options name: a die's depots to take from
    (`takes_from`) and to buy from (`buys`), an action's take (`depot`), a tile to buy or
    to take by an effect (`depot`), the depots a ship may empty (`depots`); a take's tiles
    are the pending die's depot's."""
    found: set[int] = set()
    for f in fields:
        if f.get("takes_from"):
            found.add(f["takes_from"])
        found.update(d for d, _ in f.get("buys", ()))
        found.update(d for d, _ in f.get("takes", ()))
        found.update(f.get("depots", ()))
        if "depot" in f and f.get("action", "take") == "take":
            found.add(f["depot"])
        elif "tile" in f and "depot" not in f and "hex" not in f:  # a take: the die's depot
            pending = view.get("pending") or {}
            if pending.get("kind") == "take":
                found.add(pending["value"])
    return found


# -- a depot's row ------------------------------------------------------------------------------
# A depot in a row as wide as the own area (so neither is scaled to the other): its number
# (a die), its goods (up to three to a row, two rows) and its tiles in a row. At 400 px the
# goods are 27 px squares (the table's 20) with 11.8 px digits (8.4), a stack's count 9.3 px
# (7.6), the tiles 56 px hexes (52).
ROW_W = table.CELL_W + 2 * table.MARGIN
ROW_H = 88
ROW_R = 33  # a tile's hex
ROW_DIE = 40  # the depot's number
ROW_GOODS = 32  # a goods tile's side, up to three kinds (95 % of depots with goods)
ROW_GOODS_TWO_ROWS = 28  # four kinds or more, in two rows
GOODS_ACROSS = 3
GOODS_GAP = 14  # across, between stacks: room for a stack's count (its disc) and its layers
STACKED = 9  # a stack of four shows its lowest tile this much higher (and to the right)
ROW_LEFT = table.MARGIN + 10  # the number's left edge
GOODS_LEFT = ROW_LEFT + ROW_DIE + 12
TILES_LEFT = GOODS_LEFT + GOODS_ACROSS * (ROW_GOODS + GOODS_GAP)
TILE_STEP = ROW_R * math.sqrt(3) + 3
BLACK_H = 2 * table.BLACK_R + 16


def render_row(view: dict[str, Any], depot: int) -> Image.Image:
    """Depot `depot`'s row (0: the black depot's), as drawn before for what it shows."""
    if depot == 0:
        return _black_row(tuple(_tile_key(t) for t in view["black"]))
    shown = view["depots"][depot - 1]
    spaces = tuple((s["type"], _tile_key(s["tile"])) for s in shown["spaces"])
    return _depot_row(depot, spaces, tuple(shown["goods"]))


TileKey = tuple[tuple[str, Any], ...] | None


def _tile_key(tile: dict[str, Any] | None) -> TileKey:
    return tuple(sorted(tile.items())) if tile else None


@lru_cache(maxsize=24)
def _depot_row(
    number: int, spaces: tuple[tuple[str, TileKey], ...], goods: tuple[int, ...]
) -> Image.Image:
    """A depot's row: drawn once for what it shows (0.16 MB as Pillow keeps RGB)."""
    image = Image.new("RGB", (ROW_W, ROW_H), table.BACKGROUND)
    d = ImageDraw.Draw(image)
    _row_panel(d, ROW_H)
    table.draw_die(d, *row_number_box(), number)
    depot = {"goods": list(goods)}
    side, corners = row_goods(depot)
    for (gx, gy), (good, n) in zip(corners, table.depot_goods(depot), strict=True):
        table.draw_goods(d, gx, gy, side, good, n)
    for (cx, cy), (kind, tile) in zip(row_tile_centres(len(spaces)), spaces, strict=True):
        if tile is None:
            table.draw_space(d, kind, cx, cy, ROW_R)
        else:
            table.draw_tile(d, dict(tile), cx, cy, ROW_R)
    return image


@lru_cache(maxsize=4)
def _black_row(tiles: tuple[TileKey, ...]) -> Image.Image:
    """The black depot's row, as the table draws it."""
    image = Image.new("RGB", (ROW_W, BLACK_H), table.BACKGROUND)
    black = [dict(t) if t else None for t in tiles]
    table.draw_black_depot(ImageDraw.Draw(image), black, ROW_W / 2, BLACK_H / 2)
    return image


def _row_panel(d: ImageDraw.ImageDraw, height: int) -> None:
    box = (table.MARGIN, 1, ROW_W - table.MARGIN, height - 2)
    d.rounded_rectangle(box, radius=12, fill=table.PANEL, outline=table.FAINT, width=2)


def row_number_box() -> tuple[float, float, float]:
    """A depot's number in its row: its corner and side."""
    return ROW_LEFT, (ROW_H - ROW_DIE) / 2, ROW_DIE


def row_goods(depot: dict[str, Any]) -> tuple[int, list[tuple[float, float]]]:
    """A depot's goods stacks in its row: their side and their top left corners
    (`table.depot_goods`' order), up to three in a row; past three kinds, smaller in two rows.
    Each stack's layers (up to STACKED above) and count's disc (`table.draw_goods`) stay
    within the row."""
    count = len(set(depot["goods"]))
    side = ROW_GOODS if count <= GOODS_ACROSS else ROW_GOODS_TWO_ROWS
    badge = max(8, side * 0.34)  # the count's disc's radius, about the bottom right corner
    down = side + math.ceil(badge) + 2
    rows = -(-count // GOODS_ACROSS)
    tall = STACKED + side + (rows - 1) * down + badge
    top = (ROW_H - tall) / 2 + STACKED
    return side, [
        (GOODS_LEFT + (i % GOODS_ACROSS) * (side + GOODS_GAP), top + (i // GOODS_ACROSS) * down)
        for i in range(count)
    ]


def row_tile_centres(count: int) -> list[tuple[float, float]]:
    """The centres of a depot's `count` spaces in its row, from TILES_LEFT."""
    first = TILES_LEFT + ROW_R * math.sqrt(3) / 2
    return [(first + i * TILE_STEP, ROW_H / 2) for i in range(count)]


# -- marks --------------------------------------------------------------------------------------
# What a decision's picture marks, from its options' fields: the estate's hexes a tile may be
# placed on ("Bank on building 3 (row 3, space 3)": ("hex", id)), the tiles that may be taken
# or bought (("tile", depot, face), depot 0 the black depot), the depots a ship may empty and
# the one whose goods kinds a ship is choosing (("depot", n)), the stored tiles a full storage
# may discard (("stored", face)).
Mark = tuple[Any, ...]


def marks(view: dict[str, Any], kind: str, fields: Sequence[Mapping[str, Any]]) -> tuple[Mark, ...]:
    """The places the options of a decision of `kind` name, none for a kind whose options are
    all the picture shows (the goods to sell, a warehouse's goods). A die's (or a castle's, or
    its action's) options name a depot to take from (`takes_from`, an action's `depot`: each
    of its tiles), the tiles on sale (`buys`) and hexes to place on (`hexes`); a discard the
    stored tiles (("stored", face))."""
    found: dict[Mark, None] = {}
    if kind in ("place", "townhall"):
        found.update((("hex", f["hex"]), None) for f in fields if "hex" in f)
        found.update((("tile", d, face), None) for f in fields for d, face in f.get("takes", ()))
    elif kind in ("die", "castle", "action"):
        # a black depot tile's number (the buy's keycap: `numbers`, from the engine)
        found.update(
            (("key", 0, face, n), None) for f in fields for face, n in f.get("numbers", {}).items()
        )
        for f in fields:
            depot = f.get("takes_from") or (f.get("depot") if f.get("action") == "take" else None)
            if depot:
                found.update((("tile", depot, t["face"]), None) for t in depot_tiles(view, depot))
            found.update((("tile", d, face), None) for d, face in f.get("buys", ()))
            found.update((("hex", h), None) for h in f.get("hexes", ()))
    elif kind == "discard":
        found.update((("stored", f["tile"]), None) for f in fields if "tile" in f)
    elif kind in ("buy", "effect_take"):
        found.update((("tile", f["depot"], f["tile"]), None) for f in fields if "depot" in f)
        found.update(
            (("key", 0, f["tile"], f["mark"]), None)
            for f in fields
            if f.get("depot") == 0 and isinstance(f.get("mark"), int)
        )
    elif kind == "take":
        pending = view.get("pending") or {}
        depot = pending.get("value") if pending.get("kind") == "take" else None  # the die's
        found.update((("tile", depot, f["tile"]), None) for f in fields if depot and "tile" in f)
    elif kind in ("ship", "shipgoods"):  # the depots shipped, or their goods to choose from
        found.update((("depot", d), None) for f in fields for d in f.get("depots", ()))
    return tuple(found)


def marked(
    view: dict[str, Any], part: str, image: Image.Image, found: tuple[Any, ...]
) -> Image.Image:
    """The part's picture with a ring around each place marked on it (on a copy); the
    picture itself where none is."""
    if part in (OWN, ESTATE):
        rings = own_rings(view, [m for m in found if m[0] in ("hex", "stored")])
        native = table.CELL_W + 2 * table.MARGIN
    elif part in DEPOT_OF_PART:
        rings = row_rings(view, DEPOT_OF_PART[part], found)
        native = ROW_W
    else:
        return image
    if not rings:
        return image
    scale, left = placement(image.width, native)
    out = image.copy()
    draw = ImageDraw.Draw(out)
    # every ring's rim first, rings that would touch drawn apart (`rings.draw_rings`), then
    # the keys over them
    shared.draw_rings(draw, [r.at(scale, left) for r in rings if not isinstance(r, Key)])
    for ring in rings:
        if isinstance(ring, Key):
            ring.draw(draw, scale, left, rim=False)
    return out


def placement(width: int, native: int) -> tuple[float, float]:
    """How a part drawn `native` px wide lies in its picture `width` px wide: its scale and
    its left edge (renderers/phone `widened`: centred on margins if nearly as wide, else
    enlarged)."""
    if width == native or native < width <= native * PAD_WITHIN:
        return 1.0, (width - native) // 2
    return width / native, 0.0


RING_W = 5  # a ring's width in the mark's colour, at the part's own size (4 px at 400 wide)
RIM_W = 2  # the ink each side of it
BOX_GAP = 1  # between a box and its ring


class HexRing(NamedTuple):
    """A ring along the edge of a hex (its centre and radius in the part's own pixels)."""

    cx: float
    cy: float
    r: float

    def at(self, scale: float, left: float) -> shared.Ring:
        """The ring at `scale`, moved `left`."""
        return shared.hexagon(
            left + self.cx * scale,
            self.cy * scale,
            self.r * scale,
            round(RING_W * scale),
            RIM_W * scale,
            ink=round((RING_W + 2 * RIM_W) * scale),
        )


class BoxRing(NamedTuple):
    """A rounded ring just outside a box (in the part's own pixels)."""

    x0: float
    y0: float
    x1: float
    y1: float

    def at(self, scale: float, left: float) -> shared.Ring:
        """The ring at `scale`, moved `left`."""
        grow = (BOX_GAP + RING_W + RIM_W) * scale  # Pillow draws it inwards
        box = (
            left + self.x0 * scale - grow,
            self.y0 * scale - grow,
            left + self.x1 * scale + grow,
            self.y1 * scale + grow,
        )
        width, ink = round(RING_W * scale), round((RING_W + 2 * RIM_W) * scale)
        rim = RIM_W * scale
        return shared.box(box, width, rim, 6 * scale + grow, ink=ink, rounder=rim)


KEY_HALF = 12  # a number's key: half its side (20 px at 400 wide), its digit 17 px (14)
KEY_TEXT = 17


class Key(NamedTuple):
    """A number on a key in the mark's colour, centred at (cx, cy): a black-depot tile's,
    its panel line's keycap."""

    cx: float
    cy: float
    text: str

    def draw(self, draw: ImageDraw.ImageDraw, scale: float, left: float, rim: bool) -> None:
        """At `scale`, moved `left`: nothing with the rims, the key over every ring."""
        if rim:
            return
        x, y, half = left + self.cx * scale, self.cy * scale, KEY_HALF * scale
        y = max(y, half + 1)
        box = (x - half, y - half, x + half, y + half)
        draw.rounded_rectangle(box, radius=half / 3, fill=MARK, outline=INK, width=round(2 * scale))
        draw.text((x, y), self.text, fill=INK, font=font(round(KEY_TEXT * scale)), anchor="mm")


Ring = HexRing | BoxRing | Key


def own_rings(view: dict[str, Any], found: Sequence[Mark]) -> list[Ring]:
    """A ring along the edge of each estate hex marked and of each stored tile marked (each
    tile of its face), in the own area (`render_own`: the seat's cell at (MARGIN, MARGIN))."""
    you = view.get("you")
    if you is None:
        return []
    at = {h["id"]: (h["q"], h["r"]) for h in view["estate_board"]}
    ox, oy = table.estate_origin(table.MARGIN, table.MARGIN)
    stored = view["players"][you["seat"]]["storage"]
    rings: list[Ring] = []
    for mark in found:
        if mark[0] == "hex" and mark[1] in at:
            centre = table.hex_centre(*at[mark[1]], table.ESTATE_R, ox, oy)
            rings.append(HexRing(*centre, table.ESTATE_R - 1))
        elif mark[0] == "stored":
            rings += [
                HexRing(*table.storage_centre(i, table.MARGIN, table.MARGIN), table.STORAGE_R)
                for i, t in enumerate(stored)
                if _is(t, mark[1])
            ]
    return rings


def row_rings(view: dict[str, Any], depot: int, found: Sequence[Mark]) -> list[Ring]:
    """A ring around each tile marked in depot `depot`'s row (0: the black depot's) and
    around its number where the depot is marked."""
    rings: list[Ring] = []
    if depot == 0:
        tiles = view["black"]
        across = table.black_spaces(len(tiles), ROW_W / 2)
        centres = [(x, BLACK_H / 2) for x in across]
        r = table.BLACK_R
    else:
        tiles = [space["tile"] for space in view["depots"][depot - 1]["spaces"]]
        centres, r = row_tile_centres(len(tiles)), ROW_R
    for mark in found:
        if mark[0] == "tile" and mark[1] == depot:
            rings += [
                HexRing(*c, r) for c, t in zip(centres, tiles, strict=True) if _is(t, mark[2])
            ]
        elif mark[0] == "depot" and mark[1] == depot:
            x, y, side = row_number_box()
            rings.append(BoxRing(x, y, x + side, y + side))
    # a black tile's number over the rings, on its upper left corner
    rings += [
        Key(c[0] - 0.72 * r, c[1] - 0.62 * r, str(mark[3]))
        for mark in found
        if mark[0] == "key" and mark[1] == depot
        for c, t in zip(centres, tiles, strict=True)
        if _is(t, mark[2])
    ]
    return rings


def depot_tiles(view: dict[str, Any], depot: int) -> list[dict[str, Any]]:
    """The tiles in numbered depot `depot` (1-6), as the view shows them."""
    return [space["tile"] for space in view["depots"][depot - 1]["spaces"] if space["tile"]]


def _is(tile: dict[str, Any] | None, face: str) -> bool:
    return tile is not None and tile["face"] == face
