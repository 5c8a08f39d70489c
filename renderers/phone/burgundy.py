"""The Castles of Burgundy's phone view: the table's cells cropped one at a time (each is
450 px wide, so it shows nearly at full size on a phone): the depots, the tracks and each
seat's estate; a seat's own estate above its sold goods. A decision's picture rings, in
palette.MARK, the places its options name: the estate's hexes a tile may go on, the tiles that
may be taken or bought, the depots a ship may empty, the stored tiles offered for discard
(`marks`, `marked`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from PIL import Image, ImageDraw

from meeple_hall.renderers import burgundy as table
from meeple_hall.renderers.palette import INK, MARK
from meeple_hall.renderers.phone import OWN, PAD_WITHIN, seat_focus, seat_of_focus

PARTS = table.BOARD_CELLS


def focuses(view: dict[str, Any]) -> list[str]:
    return [*PARTS, *(seat_focus(s) for s in range(view["num_players"]))]


def render_focus(view: dict[str, Any], focus: str) -> Image.Image:
    """The cell as the table shows it, drawn alone (or pasted as kept, `table.draw_cell`)."""
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


@lru_cache(maxsize=8)
def sold_panel(seat: int, sold: tuple[tuple[str, int], ...]) -> Image.Image:
    """A seat's goods sold by kind on its margin of background, under its estate panel: drawn
    once for what it shows (it changes when the seat sells; 0.6 MB each as Pillow keeps RGB)."""
    image = Image.new(
        "RGB", (table.SOLD_W + 2 * table.MARGIN, table.CELL_H + 2 * table.MARGIN), table.BACKGROUND
    )
    table.draw_sold(ImageDraw.Draw(image), dict(sold), seat, table.MARGIN, table.MARGIN)
    return image


# What a decision's panel pictures, by its kind. The dice, the storage, the goods and the
# estate's empty spaces are in the seat's own area; the tiles to take and the goods a ship
# takes are in the depots.
DECISION_PARTS: dict[str, tuple[str, ...]] = {
    # the seat's two dice and its workers, and where its lines take tiles from (the depots,
    # the black one to buy from) and place them (the estate); a castle's die likewise
    **dict.fromkeys(("die", "castle"), ("depots", OWN)),
    "action": ("depots", OWN),  # take from a depot, place, ship or sell from storage
    "take": ("depots",),
    "effect_take": ("depots",),
    "buy": ("depots",),  # the black depot in the middle of the board
    # a ship takes a depot's goods into the storage (its 3 kinds), choosing kinds where the
    # storage has too little room
    **dict.fromkeys(("ship", "shipgoods"), ("depots", OWN)),
    **dict.fromkeys(("place", "townhall", "discard", "warehouse"), (OWN,)),
}
NO_PICTURE: dict[str, str] = {}  # every Burgundy decision is about something on the table

# What an option's fields name in the depots: a depot to take from (a die's, an action's), the
# tiles on sale, a depot's tile, the depots a ship may empty.
IN_DEPOTS = ("takes_from", "buys", "depot", "depots", "tile")


def narrowed(
    view: dict[str, Any], part: str, fields: Sequence[Mapping[str, Any]]
) -> tuple[str, ...]:
    """The depots only where an option names something in them: not for a die whose values
    take nothing and which buys nothing (both dice used: only ending the turn), nor for an
    action that only places, sells or takes workers (the estate shows all of it)."""
    if part == "depots" and not any(key in f for f in fields for key in IN_DEPOTS):
        return ()
    return (part,)


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
    elif kind in ("die", "castle", "action"):
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
    if part == OWN:
        rings = own_rings(view, [m for m in found if m[0] in ("hex", "stored")])
        native = table.CELL_W + 2 * table.MARGIN
    elif part == "depots":
        rings = depot_rings(view, [m for m in found if m[0] in ("tile", "depot")])
        native = table.CELL_W + 2 * FOCUS_PAD
    else:
        return image
    if not rings:
        return image
    scale, left = placement(image.width, native)
    out = image.copy()
    draw = ImageDraw.Draw(out)
    for rim in (True, False):  # every ring's rim first: a ring beside another stays whole
        for ring in rings:
            ring.draw(draw, scale, left, rim)
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

    def draw(self, draw: ImageDraw.ImageDraw, scale: float, left: float, rim: bool) -> None:
        """At `scale`, moved `left`: its ink rim (`rim`) or the mark over it."""
        corners = table.hex_points(left + self.cx * scale, self.cy * scale, self.r * scale)
        width = round((RING_W + (2 * RIM_W if rim else 0)) * scale)
        colour = INK if rim else MARK
        # the corners rounded by a disc each: a quarter of the time Pillow's curved joints take
        draw.line([*corners, corners[0]], fill=colour, width=width)
        half = width / 2 - 0.5
        for x, y in corners:
            draw.ellipse((x - half, y - half, x + half, y + half), fill=colour)


class BoxRing(NamedTuple):
    """A rounded ring just outside a box (in the part's own pixels)."""

    x0: float
    y0: float
    x1: float
    y1: float

    def draw(self, draw: ImageDraw.ImageDraw, scale: float, left: float, rim: bool) -> None:
        """At `scale`, moved `left`: its ink rim (`rim`) or the mark over it."""
        grow = (BOX_GAP + RING_W + (RIM_W if rim else 0)) * scale  # Pillow draws it inwards
        box = (
            left + self.x0 * scale - grow,
            self.y0 * scale - grow,
            left + self.x1 * scale + grow,
            self.y1 * scale + grow,
        )
        width = round((RING_W + (2 * RIM_W if rim else 0)) * scale)
        outline = INK if rim else MARK
        draw.rounded_rectangle(box, radius=6 * scale + grow, outline=outline, width=width)


Ring = HexRing | BoxRing


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


def depot_rings(view: dict[str, Any], found: Sequence[Mark]) -> list[Ring]:
    """A ring around each tile marked in a depot (the black one: 0) and around the number of
    each depot marked, in the depots' picture (`render_focus`: the cell at (FOCUS_PAD,
    FOCUS_PAD))."""
    x = y = FOCUS_PAD
    rings: list[Ring] = []
    for mark in found:
        if mark[0] == "tile" and mark[1] == 0:
            cx, cy = table.black_centre(x, y)
            across = zip(table.black_spaces(len(view["black"]), cx), view["black"], strict=True)
            rings += [HexRing(bx, cy, table.BLACK_R) for bx, t in across if _is(t, mark[2])]
        elif mark[0] == "tile":
            depot = view["depots"][mark[1] - 1]
            at = table.depot_spaces(depot, *table.depot_corner(mark[1], x, y))
            spaces = zip(at, (space["tile"] for space in depot["spaces"]), strict=False)
            rings += [HexRing(cx, cy, table.DEPOT_R) for (cx, cy), t in spaces if _is(t, mark[2])]
        elif mark[0] == "depot":
            # the depot's number, a die: its goods lie under it, its tiles beside it
            nx, ny, side = table.depot_number_box(*table.depot_corner(mark[1], x, y))
            rings.append(BoxRing(nx, ny, nx + side, ny + side))
    return rings


def depot_tiles(view: dict[str, Any], depot: int) -> list[dict[str, Any]]:
    """The tiles in numbered depot `depot` (1-6), as the view shows them."""
    return [space["tile"] for space in view["depots"][depot - 1]["spaces"] if space["tile"]]


def _is(tile: dict[str, Any] | None, face: str) -> bool:
    return tile is not None and tile["face"] == face
