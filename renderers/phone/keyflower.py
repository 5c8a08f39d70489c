"""Keyflower's phone view: the auction (tiles up for auction, turn order, boats) four tiles
to a row, each village alone, and a seat's own village above its screen and winter hand;
all drawn at hex sizes that read at 400 px, with no number smaller than that width allows
(`MIN_FONT`), each tile up for auction, boat, village and screen pasted as the table's
worker kept it while it stays the same (renderers/keyflower.py, `kept_part`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from meeple_hall.games.keyflower.village import DIRS
from meeple_hall.renderers import keyflower as table
from meeple_hall.renderers.palette import BACKGROUND, INK, MARK, font
from meeple_hall.renderers.phone import (
    MIN_FONT,
    OWN,
    PHONE_WIDTH,
    min_font_for,
    padded,
    seat_focus,
    seat_of_focus,
    stack,
)
from meeple_hall.renderers.phone import rings as shared


def focuses(view: dict[str, Any]) -> list[str]:
    seats = [seat_focus(p["seat"]) for p in view.get("players", [])]
    on_offer = view.get("offer") or view.get("turn_order") or view.get("boats")
    return ["auction", *seats] if on_offer else seats


# The type each picture was last drawn with, by picture ("auction", "village", "own") and the
# width it was to be shown at (0: its own): the next is drawn with it at once, and again only
# if its width asks for another (a picture's width does not depend on its type, and rarely
# changes from one move to the next).
_LAST_FONT: dict[tuple[str, int], int] = {}


def _legible(
    name: str, draw: Callable[[], Image.Image | None], width: int = 0
) -> Image.Image | None:
    """The picture `draw` makes, with no text smaller than reads on a phone at its width, or
    at `width` if that is wider (the width it is to be shown at). Drawn with the type last
    used for `name`, then once more if its width needs another: the picture is the same as
    if its width had been known beforehand."""
    font = _LAST_FONT.get((name, width), 0)
    picture = _drawn(draw, font)
    if picture is None:
        return None
    needed = min_font_for(max(picture.width, width))
    if needed == font:
        return picture
    _LAST_FONT[name, width] = needed
    return _drawn(draw, needed)


def _drawn(draw: Callable[[], Image.Image | None], font: int) -> Image.Image | None:
    token = MIN_FONT.set(font)
    try:
        return draw()
    finally:
        MIN_FONT.reset(token)


def _empty() -> Image.Image:
    return Image.new("RGB", (table.PHONE_VILLAGE_W, 60), BACKGROUND)


def render_focus(view: dict[str, Any], focus: str) -> Image.Image:
    return _drawn_for_width(view, focus, 0)


def render_own(view: dict[str, Any]) -> Image.Image | None:
    return _own(view, 0) if view.get("you") else None


def part_width(view: dict[str, Any], part: str) -> int | None:
    """The width of a decision's part as `render_decision` draws it alone, where it is known
    without drawing it: the auction's, and the seat's own area's (so that each is drawn once,
    for the picture's width; the auction was drawn first to learn its width). A seat's
    village (beside the own area: `narrowed`) is drawn at its own scale, as the own area's
    village is, on margins at least PHONE_WIDTH wide: drawn alone, a village narrower than a
    phone was enlarged by a whole factor (`fit`), often wider than the rest of the picture,
    which was then drawn again at that width."""
    if part == "auction":
        width = table.auction_width()
    elif part == USES:
        return PHONE_WIDTH  # drawn at the picture's width, with its marks (`marked`)
    elif part in (OWN, WAITING, SETTLED) and view.get("you"):
        width = table.own_width(view if part == OWN else settled(view))
    elif (seat := seat_of_focus(part, len(view.get("players", [])))) is not None:
        return max(PHONE_WIDTH, table.village_width(view["players"][seat]))
    else:
        return None
    return width if width >= PHONE_WIDTH else None  # else `fit` brings it to PHONE_WIDTH


def at_width(view: dict[str, Any], part: str, image: Image.Image | None, width: int) -> Image.Image:
    """A part of a decision's picture (a focus, or OWN) shown `width` wide (renderers/phone's
    `render_decision`): drawn again (or drawn, where only its width was known: `part_width`)
    if that width needs larger type than its own, and centred, never enlarged."""
    if image is None or min_font_for(image.width) != min_font_for(width):
        image = _drawn_for_width(view, part, width)
    return padded(image, width)


def _drawn_for_width(view: dict[str, Any], part: str, width: int) -> Image.Image:
    """A part (a focus, or OWN), its text no smaller than reads on a phone at its width or at
    `width` if wider."""
    if part == OWN:
        return _own(view, width) or _empty()
    if part == SETTLED:  # the own area without the tiles to place (WAITING draws them)
        return _own(settled(view), width, SETTLED) or _empty()
    if part == PLACING:
        return _placing(view, width) or _empty()
    if part == WAITING:
        return _waiting(view, width) or _empty()
    if part == USES:  # what it shows are its marks: drawn with them (`marked`)
        return Image.new("RGB", (max(width, PHONE_WIDTH), 1), BACKGROUND)
    seat = seat_of_focus(part, len(view.get("players", [])))
    if seat is not None:
        picture = _legible("village", lambda: table.village_picture(view, seat), width)
    else:
        picture = _legible("auction", lambda: table.auction_picture(view), width)
    return picture or _empty()


def _placing(view: dict[str, Any], width: int) -> Image.Image | None:
    """The seat's village with its free cells outlined around it (`PLACING`)."""
    if not view.get("you"):
        return None
    seat = int(view["you"]["seat"])
    return _legible(PLACING, lambda: table.village_picture(view, seat, room=True), width)


def _waiting(view: dict[str, Any], width: int) -> Image.Image | None:
    """The tiles the seat has still to place, large (`WAITING`), as wide as the own area or
    `width` if wider."""
    player = _own_village(view)
    if player is None or not player.get("to_place"):
        return None
    wide = max(width, table.own_width(settled(view)))
    return table.waiting_picture(player["to_place"], wide, min_font_for(wide))


def settled(view: dict[str, Any]) -> dict[str, Any]:
    """The seat's view with no tile left to place in its village (`SETTLED`): a copy where it
    has some, else itself."""
    player = _own_village(view)
    if player is None or not player.get("to_place"):
        return view
    players = list(view["players"])
    players[int(player["seat"])] = {**player, "to_place": []}
    return {**view, "players": players}


def _own(view: dict[str, Any], width: int, name: str = "own") -> Image.Image | None:
    seat = int(view["you"]["seat"])

    def own() -> Image.Image:
        village = table.village_picture(view, seat)
        private = table.render_private(view, hand_below=True)
        return stack([village, private], BACKGROUND)

    return _legible(name, own, width)


# What a decision's panel pictures, by its kind. Bidding and using work from the auction
# with workers from the seat's screen (its own area), and using from the other villages too
# (of each holding a tile offered, or the tile chosen, only those tiles: `narrowed`, `USES`),
# as what a use asks (which resource, skill tile or worker: the tile used, and what the seat
# holds); placing a tile happens around the seat's own village (`PLACING`); the rest happens
# in its own village.
PLACING = "placing"  # a decision's part only: the seat's village with its free cells around it
WAITING = "waiting"  # a decision's part only: the tiles the seat has still to place, large
# a decision's part only: the own area, its village without the tiles still to place (its
# strip's thumbnails: WAITING draws them, each once)
SETTLED = "settled"
USES = "uses"  # a decision's part only: the other villages cut to the tiles marked on them
DECISION_ONLY = (PLACING, WAITING, SETTLED, USES)
BIDDING = ("auction", OWN)
DECISION_PARTS: dict[str, tuple[str, ...]] = {
    "action": BIDDING,
    "location": BIDDING,
    "colour": BIDDING,
    "count": BIDDING,
    "mix": BIDDING,  # a boat 4b use's count of one colour, as `count`
    "gather": BIDDING,
    "resource": BIDDING,  # which resource the tile used gives
    "skill": BIDDING,  # which skill tile to give up to the tile used (Brewer, Hiring fair)
    "discard": BIDDING,  # which worker to discard to the tile used (Tavern)
    "boat": ("auction",),  # the boats, with their workers and skill tiles
    "place_tile": (WAITING, SETTLED),  # the tiles to place, then the village they go to
    "place_at": (PLACING,),
    "place_rot": (PLACING,),
    **dict.fromkeys(
        (
            "winter",  # the winter tiles in hand
            "flip",
            "upgrade",
            "pay",  # an upgrade's payment: the resources on the seat's tiles
            "transport",
            "from",
            "what",
            "to",
        ),
        (OWN,),
    ),
}
NO_PICTURE: dict[str, str] = {}  # every Keyflower decision is about something on the table


def _offered_tiles(fields: Sequence[Mapping[str, Any]]) -> set[str]:
    return {f["tile"] for f in fields if isinstance(f.get("tile"), str)}


def _action_tiles(fields: Sequence[Mapping[str, Any]]) -> set[str]:
    """The tiles the turn's first decision (`action`: bid, use, pass) may go to: its bid's
    (`bids`) and its use's (`uses`), none for any other decision."""
    return {t for f in fields for key in ("bids", "uses") for t in f.get(key, ())}


# A transport's decisions, whose lines each name a tile of the seat's village: the tile to
# upgrade or to move a resource from or to (`tile`), the tile it leaves (`what`'s `source`),
# the tiles a move may start from or an upgrade go to (`transport`'s `tiles`, folded lines).
CARRIED = ("transport", "upgrade", "from", "what", "to")


def _carried(fields: Sequence[Mapping[str, Any]]) -> set[str]:
    named = {f[k] for f in fields for k in ("tile", "source") if isinstance(f.get(k), str)}
    return named | {t for f in fields for t in f.get("tiles", ())}


def _chosen_tile(fields: Sequence[Mapping[str, Any]]) -> set[str]:
    """The tile the workers go to, which the steps after `location` name in their options
    (`location`: `PLACED_AT`); none for any other decision."""
    return {f["location"] for f in fields if isinstance(f.get("location"), str)}


def _villages(view: dict[str, Any]) -> dict[int, set[str]]:
    """Each seat's placed tiles, by seat."""
    return {
        p["seat"]: {t["id"] for t in p.get("village", []) if "q" in t}
        for p in view.get("players", [])
    }


def narrowed(
    view: dict[str, Any], part: str, fields: Sequence[Mapping[str, Any]]
) -> tuple[str, ...]:
    """Where the tiles the options name lie (their `tile`, the tile chosen for the workers the
    steps after `location` place, their `location`, and the tiles the turn's first decision
    may bid on or use, `bids` and `uses`): the auction only if one is up for
    auction (or none lies in a village: the boats, the winter hand), and before the seat's
    own area, those in the other villages (a worker may use a tile in any village), cut from
    them (`USES`: a whole village or three made the turn's first decision four screens
    tall)."""
    offered = _offered_tiles(fields) | _chosen_tile(fields) | _action_tiles(fields)
    villages = _villages(view)
    in_villages = offered & set().union(*villages.values())
    if not in_villages:
        return (part,)
    if part == "auction":
        auctioned = {t["id"] for t in (*view.get("offer", []), *view.get("turn_order", []))}
        return (part,) if offered & auctioned else ()
    if part in (OWN, SETTLED):
        you = view["you"]["seat"] if view.get("you") else None
        others = any(ids & offered for s, ids in villages.items() if s != you)
        return (USES, part) if others else (part,)
    return (part,)


# What a decision's picture marks: the tiles a worker may be placed on (`location`) or the
# winter boat Flipper may upgrade (`flip`: in the seat's own village), the tile chosen for
# the workers in the steps after `location` (`PLACED_AT`), the free cells a tile may be
# placed in (`place_at`, each with its mark: `mark_name`) and the tile placed, and the cell
# a tile is being turned in with each turn offered (`place_rot`, each turn with its mark).
PLACED_AT = ("colour", "gather", "count", "mix", "resource", "skill", "discard")
TileMark = tuple[str, str]  # ("tile", id)
CellMark = tuple[str, str, int, int]  # ("cell", mark, q, r): a free cell offered
SpotMark = tuple[str, int, int]  # ("spot", q, r): the cell a tile is turned in


def marks(view: dict[str, Any], kind: str, fields: Sequence[Mapping[str, Any]]) -> tuple[Any, ...]:
    if kind in ("location", "flip"):  # the tiles a worker may use, or Flipper may upgrade
        return tuple(("tile", t) for t in sorted(_offered_tiles(fields)))
    if kind in PLACED_AT:
        return tuple(("tile", t) for t in sorted(_chosen_tile(fields)))
    if kind == "action":  # the tiles a bid or use may go to, wherever they lie (`narrowed`)
        return tuple(("tile", t) for t in sorted(_action_tiles(fields)))
    if kind in CARRIED:  # the tiles its lines name
        return tuple(("tile", t) for t in sorted(_carried(fields)))
    if kind == "place_tile":  # each tile to place, named by its mark (drawn on it)
        return tuple(
            ("named", f["tile"], mark_name(f["mark"]))
            for f in fields
            if isinstance(f.get("tile"), str) and isinstance(f.get("mark"), int)
        )
    if kind == "place_at":  # the free cells offered, and the tile placed (drawn large)
        placed = {f["placing"] for f in fields if isinstance(f.get("placing"), str)}
        return (*_cells(view, fields), *(("placed", t) for t in sorted(placed)))
    if kind == "place_rot":  # every turn offered names the tile and its cell
        turns = [f for f in fields if "rot" in f and "cell" in f]
        if not turns:
            return ()
        q, r = turns[0]["cell"]
        named = tuple(
            (t["rot"], mark_name(t["mark"]) if "mark" in t else f"r{t['rot']}") for t in turns
        )
        return (("spot", q, r), ("turns", turns[0]["placing"], named))
    return ()


def _own_village(view: dict[str, Any]) -> dict[str, Any] | None:
    you = view.get("you")
    return view["players"][int(you["seat"])] if you else None


def mark_name(n: int) -> str:
    """What the picture writes for an option's `mark` (a free cell's, a turn's number, given
    by the engine): 1-10, then A-Z, as the panel's line wears it as a keycap emoji (1️⃣-🔟,
    🇦-🇿: bot/presenters/keyflower.py `keycap`); the number itself past those."""
    if 1 <= n <= 10:
        return str(n)
    if n <= 10 + 26:
        return chr(ord("A") + n - 11)
    return str(n)


def _cells(view: dict[str, Any], fields: Sequence[Mapping[str, Any]]) -> tuple[CellMark, ...]:
    """The free cells offered, each where the tiles next to it say it is (`near`: [direction
    from the tile, tile]), with its mark as the option gives it (`mark`, its panel line's
    keycap; else its id, `at`)."""
    player = _own_village(view)
    if player is None:
        return ()
    where = {t["id"]: (t["q"], t["r"]) for t in player.get("village", []) if "q" in t}
    out: dict[CellMark, None] = {}
    for f in fields:
        near = [n for n in f.get("near", ()) if n[1] in where]
        if "at" in f and near:
            d, tile = near[0]
            q, r = where[tile]
            dq, dr = DIRS[d]
            name = mark_name(f["mark"]) if "mark" in f else str(f["at"])
            out[("cell", name, q + dq, r + dr)] = None
    return tuple(out)


def marked(
    view: dict[str, Any], part: str, image: Image.Image, shown: tuple[Any, ...]
) -> Image.Image:
    """The part's picture (as shown, `image`) with the marks on it drawn on a copy: a ring
    round each tile offered (the auction's, a village's, the own area's village), an outline
    round each free cell offered with its name in it, or round the cell a tile is turned in;
    the image itself where the part shows none of them."""
    if part == USES:
        return _cut(view, image, shown)
    if part == WAITING:
        return _named(view, image, shown)
    rings = _rings(view, part, image, shown)
    above, below = _placed(view, part, image, shown), _turns(view, part, image, shown)
    out = _ringed(image.copy(), rings) if rings else image
    if above is None and below is None:
        return out
    return stack([above, out, below], BACKGROUND, gap=0)


def _cut(view: dict[str, Any], image: Image.Image, shown: tuple[Any, ...]) -> Image.Image:
    """The other villages cut to the tiles marked on them (`USES`), each ringed, as wide as
    the picture (`image`: the part as drawn, its width only); `image` where none is marked."""
    tiles = {m[1] for m in shown if m[0] == "tile"}
    you = view["you"]["seat"] if view.get("you") else None
    groups = [
        (p["seat"], [t for t in p.get("village", []) if "q" in t and t["id"] in tiles])
        for p in view.get("players", [])
        if p["seat"] != you
    ]
    groups = [(seat, ts) for seat, ts in groups if ts]
    if not groups:
        return image
    cut, where = table.cut_picture(groups, image.width, min_font_for(image.width))
    return _ringed(cut, [(x, y, size + 6, "") for x, y, size in where.values()])


def _named(view: dict[str, Any], image: Image.Image, shown: tuple[Any, ...]) -> Image.Image:
    """The tiles to place (`WAITING`, as shown: `image`) each with its name (`mark_name`: its
    panel lines' keycap) on a key at its hex's upper left corner, drawn on a copy; `image`
    where none is named."""
    names = {m[1]: m[2] for m in shown if m[0] == "named"}
    player = _own_village(view)
    tiles = player.get("to_place", []) if player else []
    if not any(t["id"] in names for t in tiles):
        return image
    out = image.copy()
    draw = ImageDraw.Draw(out)
    type_size = min_font_for(out.width)
    for tile, (cx, cy, size) in zip(tiles, table.waiting_tiles(len(tiles), out.width), strict=True):
        if tile["id"] not in names:
            continue
        text = max(type_size, round(size * 0.5))
        half = round(text * 0.7)
        x, y = max(half + 2, cx - 0.88 * size), max(half + 2, cy - 0.8 * size)
        box = (x - half, y - half, x + half, y + half)
        draw.rounded_rectangle(box, radius=half // 3, fill=MARK, outline=INK, width=3)
        draw.text((x, y), names[tile["id"]], fill=table.WHITE, font=font(text), anchor="mm")
    return out


def _ringed(out: Image.Image, rings: list[Ring]) -> Image.Image:
    """`out` with a ring round each of `rings`, each with its name in it, drawn on it (rings
    that would touch drawn apart: `rings.apart`)."""
    draw = ImageDraw.Draw(out)
    type_size = min_font_for(out.width)
    shapes = [shared.hexagon(cx, cy, r, max(4, round(r / 9)), 2) for cx, cy, r, _ in rings]
    shared.draw_rings(draw, shapes)
    for cx, cy, r, name in rings:
        if name:
            # a mark's name (1-10, A-Z) the same size whatever its length (🔟's "10" too)
            size = max(type_size, round(r * (0.5 if len(name) <= 2 else 0.34)))
            draw.text((cx, cy), name, fill=INK, font=font(size), anchor="mm")
    return out


def _placed(
    view: dict[str, Any], part: str, image: Image.Image, shown: tuple[Any, ...]
) -> Image.Image | None:
    """Above the placing picture, the tile being placed (`place_at`), as large as a tile up
    for auction with its roads (the village's strip shows it as a thumbnail only), as wide
    as the picture."""
    found = {m[1] for m in shown if m[0] == "placed"}
    player = _own_village(view)
    if part != PLACING or not found or player is None:
        return None
    tiles = [t for t in player.get("to_place", []) if t["id"] in found]
    if not tiles:
        return None
    return table.waiting_picture(tiles, image.width, min_font_for(image.width))


def _turns(
    view: dict[str, Any], part: str, image: Image.Image, shown: tuple[Any, ...]
) -> Image.Image | None:
    """Under the placing picture, the tile being placed in each turn offered, named by its
    mark (`mark_name`: its panel line's keycap), as wide as the picture."""
    found = [m for m in shown if m[0] == "turns"]
    player = _own_village(view)
    if part != PLACING or not found or player is None:
        return None
    _, tile_id, rots = found[0]
    tile = next((t for t in player.get("to_place", []) if t["id"] == tile_id), None)
    if tile is None:
        return None
    base = tile["edges"]
    turns = [(name, "".join(base[(d - k) % 6] for d in range(6))) for k, name in rots]
    return table.turns_picture(tile, turns, image.width, min_font_for(image.width))


def _hexagon(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    return [
        (cx + r * math.cos(math.radians(60 * i - 30)), cy + r * math.sin(math.radians(60 * i - 30)))
        for i in range(6)
    ]


Ring = tuple[float, float, float, str]  # centre, radius, a name to write in it ("": none)


def _rings(
    view: dict[str, Any], part: str, image: Image.Image, shown: tuple[Any, ...]
) -> list[Ring]:
    """Where each mark on the part lies in its picture as shown (drawn alone, then brought to
    the decision picture's width: centred on margins, or first enlarged by a whole factor,
    `fit`, where it was narrower than a phone)."""
    tiles = {m[1] for m in shown if m[0] == "tile"}
    if part == "auction":
        drawn = table.auction_tiles(view)
        return [
            (x + (image.width - table.auction_width()) // 2, y, s + 6, "")
            for t, (x, y, s) in drawn.items()
            if t in tiles
        ]
    if part == PLACING:
        player = _own_village(view)
        return _village_rings(player, image, shown, room=True, left=None) if player else []
    if part == OWN:
        player = _own_village(view)
        if player is None or not tiles:
            return []
        own = table.own_width(view)
        geometry = table.village_geometry(player)
        if geometry is None:
            return []
        left = (image.width - own) // 2 + (own - geometry.width) // 2
        return _village_rings(player, image, shown, room=False, left=left)
    seat = seat_of_focus(part, len(view.get("players", [])))
    if seat is None or not tiles:
        return []
    return _village_rings(view["players"][seat], image, shown, room=False, left=None)


def _village_rings(
    player: dict[str, Any],
    image: Image.Image,
    shown: tuple[Any, ...],
    room: bool,
    left: int | None,
) -> list[Ring]:
    """The marks on a village drawn alone (`village_picture`), at `left` in the picture as
    drawn (the own area: the village above the screen, never enlarged), or (None) the whole
    picture, perhaps enlarged, then centred."""
    geometry = table.village_geometry(player, room)
    if geometry is None:
        return []
    if left is None:
        scale = image.height / geometry.height
        x0 = (image.width - geometry.width * scale) / 2
    else:
        scale, x0 = 1.0, float(left)
    where = {t["id"]: (t["q"], t["r"]) for t in player.get("village", []) if "q" in t}
    out: list[Ring] = []
    for m in shown:
        if m[0] == "tile" and m[1] in where:
            cell, r, name = where[m[1]], geometry.size + 6, ""
        elif m[0] == "cell" and room:
            cell, r, name = (m[2], m[3]), geometry.size * 0.84, m[1]
        elif m[0] == "spot" and room:
            cell, r, name = (m[1], m[2]), geometry.size * 0.84, ""
        else:
            continue
        x, y = geometry.centre(*cell)
        out.append((x0 + x * scale, y * scale, r * scale, name))
    return out
