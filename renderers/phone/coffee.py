"""Coffee Traders' phone view: each cooperative, the Arabica track, the Coffee Bars (three
to a row) and the milestones with the contracts cropped from the table picture; each company
drawn alone; a seat's own company above its Arabica rows and plantations."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from meeple_hall.games.coffee.sell import contract_sides
from meeple_hall.renderers import coffee as table
from meeple_hall.renderers.palette import BACKGROUND, INK, MARK
from meeple_hall.renderers.phone import (
    OWN,
    Box,
    crops,
    fit,
    seat_focus,
    seat_of_focus,
    stack,
    widened,
)
from meeple_hall.renderers.phone import PAD as CROP_PAD
from meeple_hall.renderers.phone import rings as shared

COOPS = tuple(f"coop{i + 1}" for i in range(len(table.COFFEES)))


# André's board (2 players): his own part, not a seat's, since the table has no seat for
# him (`seatN` names the table's seats, and his seat number comes after theirs).
ANDRE = "andre"


def focuses(view: dict[str, Any]) -> list[str]:
    andre = view["andre"]["seat"] if view["andre"] is not None else None
    seats = [seat_focus(s) for s in range(len(view["players"])) if s != andre]
    return [*COOPS, "arabica", "bars", "market", *seats, *([ANDRE] if andre is not None else [])]


BARS_PER_ROW = 3  # the Coffee Bars, three to a row


def _boxes(view: dict[str, Any], focus: str) -> list[Box]:
    if focus != "bars":
        return [_box(view, focus)]
    bars, _, _ = table.band_x(view)
    pitch = table.BAR_W + table.BAR_GAP
    count = len(view["bar_spaces"])
    top, bottom = table.BAND_TOP, table.BAND_TOP + table.BAND_H
    return [
        (bars + i * pitch, top, bars + min(count, i + BARS_PER_ROW) * pitch - table.BAR_GAP, bottom)
        for i in range(0, count, BARS_PER_ROW)
    ]


def _box(view: dict[str, Any], focus: str) -> Box:
    band = (table.BAND_TOP, table.BAND_TOP + table.BAND_H)
    bars, right, _ = table.band_x(view)
    if focus in COOPS:
        x = table.coop_x(COOPS.index(focus))
        return x, table.COOPS_TOP, x + table.COOP_W, table.COOPS_TOP + table.COOP_H
    if focus == "arabica":
        return table.MARGIN, band[0], table.MARGIN + table.ARABICA_W, band[1]
    if focus == "bars":
        return bars, band[0], right - 10, band[1]
    if focus == "market":
        return right, band[0], table.WIDTH - table.MARGIN, band[1]
    raise ValueError(focus)


COMPANY_W = 330  # a company board drawn alone, as in the private picture


def _company(view: dict[str, Any], seat: int) -> Image.Image:
    image = Image.new("RGB", (COMPANY_W + 20, table.PLAYER_H + 26), BACKGROUND)
    table.draw_player(ImageDraw.Draw(image), view, seat, 10, 13, COMPANY_W)
    return image


# A worker's recent phone parts, as the phone shows them, by what they show (`_part_key`):
# the cooperatives (1 MB each) and the Coffee Bars (2 MB, and widened to a company's width),
# those of a table's last few moves. A cooperative's part changes only when something on it
# does: most of a decision picture's cooperatives are not cut and enlarged again (three in
# four, in seeded games). The band's other parts and a company's own area are not kept (a
# decision that shows them nearly always follows a change in them). 16 find as many as 40
# did, and keep 16-33 MB (seeded games' decision pictures).
PICTURES_KEPT = 16
KEPT_PARTS = frozenset({*COOPS, "bars"})


@lru_cache(maxsize=PICTURES_KEPT)
def kept_picture(key: tuple[Any, ...]) -> list[Image.Image]:
    """Where the phone picture made under `key` is kept (empty until it is made); the
    pictures are shared: whoever draws on one draws on a copy (`marked`)."""
    return []


def _kept(key: tuple[Any, ...], make: Callable[[], Image.Image]) -> Image.Image:
    kept = kept_picture(key)
    if not kept:
        kept.append(make())
    return kept[0]


def _arrows_over(view: dict[str, Any], box: Box) -> tuple[float, ...]:
    """Where the turn arrows reaching over the cooperatives' top edge lie over `box`'s
    columns (with its crop margin and a pixel's rounding)."""
    xs = (
        table.TURN_ORDER_X + k * 56
        for k, seat in enumerate(view["order"])
        if seat in view["active"]
    )
    return tuple(
        x for x in xs if x + 30 >= box[0] - CROP_PAD - 2 and x + 14 <= box[2] + CROP_PAD + 2
    )


def _part_key(
    view: dict[str, Any], part: str, table_keys: tuple[str, Any] | None = None
) -> tuple[Any, ...] | None:
    """Everything a part cut from the table shows (the table's parts' keys, and for a
    cooperative the turn arrows over it); None for a part that is not cut so. `table_keys`:
    the view's layout and seat colours, where they are worked out already."""
    if part not in COOPS and part not in ("arabica", "bars", "market"):
        return None
    layout, colours = table_keys or (table.layout_of(view), table.seat_colours(view))
    if part in COOPS:
        coffee = table.COFFEES[COOPS.index(part)]
        return (
            part,
            table.coop_key(view, coffee, layout, colours),
            _arrows_over(view, _box(view, part)),
        )
    return (part, table.band_keys(view, layout, colours)[part])


def render_focus(view: dict[str, Any], focus: str) -> Image.Image:
    """A focus, as `renderers/phone.render_focus` shows it (`fit`, which leaves it as it is)."""
    if focus == ANDRE:
        image = Image.new("RGB", (COMPANY_W + 20, table.PLAYER_H + 26), BACKGROUND)
        table.draw_andre(ImageDraw.Draw(image), view, 10, 13, COMPANY_W)
        return image
    seat = seat_of_focus(focus, len(view["players"]))
    if seat is not None:
        return _company(view, seat)
    if focus in BOARDS:
        return _board(view, focus)
    if focus in BONUS_PARTS:
        return _bonuses(focus.split(".")[1])
    if focus in EVERY_COOP_SIDE:
        side = focus.split(".")[1]
        return stack([folded(view, f"{coop}.{side}") for coop in COOPS], BACKGROUND, gap=SIDES_GAP)
    if focus in COOP_SIDES:
        return folded(view, focus)
    if focus == EVERY_COOP:
        # each cooperative as its own focus shows it: twice as large, each pixel a square of
        # four (`fit`), with twice the gap `crops` leaves. The cooperatives, one under
        # another, are narrower than a phone shows a picture, and enlarged smoothly to its
        # width their flat colours took three times the bytes (154 KiB against 47); the
        # phone's own scaling down to its width smooths them as well.
        table_keys = (table.layout_of(view), table.seat_colours(view))
        coops = [_focus(view, coop, _part_key(view, coop, table_keys)) for coop in COOPS]
        return stack(coops, BACKGROUND, gap=4 * CROP_PAD)
    return _focus(view, focus, _part_key(view, focus) if focus in KEPT_PARTS else None)


def _focus(view: dict[str, Any], focus: str, key: tuple[Any, ...] | None) -> Image.Image:
    """A part cut from the table, kept under its `key` if it is one of KEPT_PARTS."""
    if focus not in KEPT_PARTS:
        return fit(_cut(view, focus))
    assert key is not None, focus
    return _kept(key, lambda: fit(_cut(view, focus)))


def _cut(view: dict[str, Any], focus: str) -> Image.Image:
    """A part cut from the rows of the table it lies in, drawn alone (the table's other
    parts are not)."""
    rows = table.COOPS_ROWS if focus in COOPS else table.BAND_ROWS
    return crops(table.render(view, rows), _boxes(view, focus), BACKGROUND)


def at_width(
    view: dict[str, Any], part: str, image: Image.Image | None, width: int
) -> Image.Image | None:
    """A part cut from the table at a decision picture's width (`widened`), kept: the Coffee
    Bars widened to a company's width, most often."""
    key = _part_key(view, part) if part in KEPT_PARTS else None
    if key is None or image is None:
        return None
    return _kept((*key, width), lambda: widened(image, width))


def render_own(view: dict[str, Any]) -> Image.Image | None:
    """The private picture's parts one under another: the company board, its Arabica rows,
    its plantation stacks and milestones (as `renderers/phone.render_own` shows them: `fit`;
    not kept: nearly every decision that shows it follows a change in it)."""
    seat = view.get("you")
    if seat is None:
        return None
    return fit(_own(view, seat))


def _own(view: dict[str, Any], seat: int) -> Image.Image:
    view = dict(view, active=[])
    company = Image.new("RGB", (OWN_W, table.PLAYER_H + 26), BACKGROUND)
    table.draw_player(ImageDraw.Draw(company), view, seat, 10, 13, OWN_W - 20)
    arabica = Image.new("RGB", (260, 180), BACKGROUND)
    table.draw_own_arabica(ImageDraw.Draw(arabica), view, seat, 5, 5)
    stacks = Image.new("RGB", (240, OWN_STACKS_H), BACKGROUND)
    draw = ImageDraw.Draw(stacks)
    table.draw_stacks(draw, view, seat, 0, 5)
    milestones = view["players"][seat]["milestones"]
    for k, points in enumerate(milestones.values()):
        table.disc(draw, 20 + k * 34, 150, table.seat_colour(view, seat), 14)
        table.text(draw, (20 + k * 34, 150), points, 13, table.WHITE)
    return stack([company, arabica, stacks], BACKGROUND)


# A cooperative folded for a decision about one side of it, cut from its enlarged part (kept:
# `_focus`): `rows`, its plantation rows and pathways (workers sent, donkeys bred), without
# the trading house above or the Quality Values and building spaces below; `house`, the
# trading house (traders, coin, stock) over the Quality Values and building spaces, the
# rows between folded away. Table rows from a cooperative's top, each way.
FOLDS = {"rows": ((52, 217),), "house": ((-CROP_PAD, 52), (220, table.COOP_H + CROP_PAD))}
SIDES_GAP = 24  # between the five folded, one under another (each enlarged twice)
# The rows folded as `rows` are, but at least up to row 2 or 3 (`rows2`, `rows3`): a
# plantation's spaces to choose from, those rows kept whatever is planted (`_row_folds`).
ROWS_SIDES = ("rows", "rows2", "rows3")
COOP_SIDES = tuple(f"{coop}.{side}" for side in (*FOLDS, *ROWS_SIDES[1:]) for coop in COOPS)
EVERY_COOP_SIDE = tuple(f"coops.{side}" for side in FOLDS)  # the five, one under another


def _least(side: str) -> int:
    """The row a `rows` side keeps at least (`ROWS_SIDES`)."""
    return int(side[4:] or 1) if side in ROWS_SIDES else 1


def folded(view: dict[str, Any], part: str) -> Image.Image:
    """A cooperative's `part` (`coop3.rows`): the strips FOLDS names, cut from its enlarged
    part (`_focus`, CROP_PAD around it, each pixel a square of `scale`) and joined; its rows
    without a plantation or a donkey folded away too (`_row_folds`)."""
    coop, side = part.split(".")
    image = _focus(view, coop, _part_key(view, coop))
    scale = image.width // (table.COOP_W + 2 * CROP_PAD)
    coffee = table.COFFEES[COOPS.index(coop)]
    folds = _row_folds(view, coffee, _least(side)) if side in ROWS_SIDES else FOLDS[side]
    strips = [
        image.crop((0, (top + CROP_PAD) * scale, image.width, (bottom + CROP_PAD) * scale))
        for top, bottom in folds
    ]
    if folds[0] == TOWN:  # the empty top row between the Animal counters and the town
        _town_strip(view, coffee, strips[0], scale)
    elif side in ROWS_SIDES:  # the rows whole: the shape left of row 2
        x, y = (SHAPE_AT[0] + CROP_PAD) * scale, (SHAPE_AT[1] - folds[0][0]) * scale
        _shape_box(ImageDraw.Draw(strips[0]), coffee, x, y, scale)
    return strips[0] if len(strips) == 1 else stack(strips, BACKGROUND, gap=0)


SHAPE_AT = (21, table.ROW_Y[1])  # left of row 2's first space: nothing lies there


def _shape_box(draw: ImageDraw.ImageDraw, coffee: str, x: float, y: float, scale: int) -> None:
    """The coffee's shape in a white box, as the trading house shows it, centred on (x, y)."""
    half = 14 * scale
    table.rounded_rectangle(
        draw, (x - half, y - half, x + half, y + half), 5 * scale, fill=table.WHITE, outline=INK
    )
    table.bean(draw, x, y, coffee, 9 * scale)


def _town_strip(view: dict[str, Any], coffee: str, strip: Image.Image, scale: int) -> None:
    """Row 3's empty spaces painted over on the TOWN strip, and the coffee's shape drawn in
    their stead, in a white box as the trading house shows it (folded away with it): the
    shape the panel's lines name the cooperative by, beside its colour."""
    animals = len(view["coops"][coffee]["animals"])
    left = max(TOWN_GAP[0], 18 + 26 * animals - 13)
    draw = ImageDraw.Draw(strip)
    draw.rectangle(
        ((left + CROP_PAD) * scale, 0, (TOWN_GAP[1] + CROP_PAD) * scale, strip.height),
        fill=table.PANEL,
    )
    x = ((left + TOWN_GAP[1]) / 2 + CROP_PAD) * scale
    _shape_box(draw, coffee, x, strip.height / 2, scale)


# The plantation rows folded further for a decision on them: the rows above the highest
# holding a plantation (or a donkey's pathway reaching them) are left out, all but the thin
# strip at row 3's height that holds the cooperative's Animal counters (left) and the
# workers in its town (right), its empty spaces between painted over and the coffee's shape
# drawn there (`_town_strip`); with a plantation in row 3, the rows whole, the shape left of
# row 2 (`SHAPE_AT`). Work at a game's start, the five cooperatives one under another: row 1
# under that strip, half as tall (1,731 -> 1,137 px at 400 px wide, 3 players).
TOWN = (55, 85)  # table rows from a cooperative's top: above row 3's number tab
TOWN_GAP = (61, 207)  # row 3's spaces (3 of them), with their outline
ROWS_FROM = {1: 164, 2: 108}  # the top of the rows from row 1 up to row 2, 3


def _row_folds(view: dict[str, Any], coffee: str, least: int = 1) -> tuple[tuple[int, int], ...]:
    """The strips `folded` keeps of a cooperative's rows: up to its highest row planted (or
    a donkey's pathway reaching it), and at least up to row `least`."""
    coop = view["coops"][coffee]
    highest = max(
        [least]
        + [r for r, row in enumerate(coop["rows"], start=1) if any(p is not None for p in row)]
        + [int(key.split(".")[0]) + 1 for key, path in coop["pathways"].items() if path]
    )
    if highest >= 3:
        return FOLDS["rows"]
    return (TOWN, (ROWS_FROM[highest], FOLDS["rows"][0][1]))


# The deciding seat's company board alone (`company`), or over its plantation stacks, rows
# A-C (`board`), as wide as a cooperative's part: a decision's own part beside the
# cooperatives, read as large as its own area is (its company a phone's width), without
# widening the cooperatives to the own area's whole factor of 2 (they read large enough).
BOARDS = ("company", "board")
STACKS_H = 130  # rows A-C (`draw_stacks`)


def _board(view: dict[str, Any], part: str) -> Image.Image:
    seat = view["you"]
    company = _company(dict(view, active=[]), seat)
    if part == "board":
        stacks = Image.new("RGB", (company.width, STACKS_H), BACKGROUND)
        table.draw_stacks(ImageDraw.Draw(stacks), view, seat, (company.width - 230) // 2, 0)
        company = stack([company, stacks], BACKGROUND, gap=0)
    return widened(company, 2 * (table.COOP_W + 2 * CROP_PAD))


# The bonuses printed below a contract on the player board, one or two to choose from
# (`bonuses.B`: contract B's), each its pieces, left to right in the options' order. Drawn
# half a phone's width, as the parts cut from the table are (each pixel a square of four).
BONUSES = "bonuses"
BONUS_PARTS = tuple(f"{BONUSES}.{letter}" for letter in "ABCDEF")
BONUSES_SIZE = (table.COOP_W + 2 * CROP_PAD, 58)


def _bonuses(letter: str) -> Image.Image:
    image = Image.new("RGB", BONUSES_SIZE, BACKGROUND)
    draw = ImageDraw.Draw(image)
    sides = contract_sides(letter)
    table.text(draw, (16, BONUSES_SIZE[1] / 2), letter, 20)
    left, each = table.columns(32, BONUSES_SIZE[0] - 36, len(sides), gap=10)
    for k, items in enumerate(sides):
        x = left + k * (each + 10)
        box = (x, 4, x + each, BONUSES_SIZE[1] - 4)
        table.rounded_rectangle(draw, box, 8, fill=table.PANEL, outline=INK, width=2)
        pitch = min(36, each / len(items))
        first = x + each / 2 - pitch * (len(items) - 1) / 2
        for i, item in enumerate(items):
            _bonus_item(draw, item, first + i * pitch, BONUSES_SIZE[1] / 2)
    return image


def _bonus_item(draw: ImageDraw.ImageDraw, item: str, x: float, y: float) -> None:
    """A contract bonus's piece, as the table draws it: a worker, a civet, a donkey, a coin,
    a truck; an Arabica step as the chevron the building spaces wear; a building (`build`:
    any, `hospital`) as its building."""
    if item == "worker":
        table.worker(draw, x, y, s=1.8)
    elif item == "civet":
        table.civet(draw, x + 2, y, 1.8)
    elif item == "donkey":
        table.donkey(draw, x, y, (150, 150, 150), 1.8)
    elif item == "coin":
        table.coin(draw, x, y, 1, r=13)
    elif item == "truck":
        table.truck(draw, x, y, s=1.8)
    elif item == "arabica":
        draw.line((x - 11, y + 7, x, y - 6, x + 11, y + 7), fill=INK, width=5)
    else:
        kind = "hospital" if item == "hospital" else "production"
        table.building(draw, x, y + 2, kind, table.WHITE, s=1.6)


# What a decision's panel pictures, by its kind. Working, planting, staffing, building a
# site, the donkey and the pieces taken from or put on a cooperative happen on the
# cooperatives (those the options name: `narrowed`); converting, storing, paying and
# gaining coffee on the seat's own area; trading on the cooperatives; selling at the Coffee
# Bars and on the contracts (the seat's company board); advancing on the Arabica track.
EVERY_COOP = "coops"  # a decision's part only: the five cooperatives, cut from one drawing
# A plantation's spaces to choose from: the cooperatives the options name, each its rows
# folded as Work's are but kept up to the highest row named on it (`narrowed`: `rows2`,
# `rows3`), never the trading house or building spaces: the five cooperatives for a row-1
# planting were 2,278 px at 400 wide.
PLANTED = "coops.plant"
# The parts that show cooperatives those a decision's options name (`narrowed`).
COOP_PARTS = (EVERY_COOP, *EVERY_COOP_SIDE, PLANTED)
DECISION_ONLY = (EVERY_COOP, *COOP_SIDES, *EVERY_COOP_SIDE, *BOARDS, *BONUS_PARTS)
DECISION_PARTS: dict[str, tuple[str, ...]] = {
    # the contract fulfilled, on the company board, the two bonuses printed below it to
    # choose from (`bonuses`, narrowed to the contract's), and its bonus stack on the market
    "contract_bonus": ("company", BONUSES, "market"),
    "sell_second": ("bars",),
    "sell": ("bars", OWN),
    "mixed_pay": ("bars", OWN),
    "advance": ("arabica",),
    # the first decision of a turn, and a Trade: most options are about the seat's own
    # board (planting from rows A-C, building, removing a trader), the rest about the
    # cooperatives, folded to the side they act on, those the options name
    "work": ("board", "coops.rows"),
    "trade": ("company", "coops.house"),
    # a contract's bonus building: the company's columns, and where on the board it may go
    "free_build": ("company", "coops.house"),
    # a piggyback: the trading house a trader joins; what is built, and where
    "piggy_trader": ("coops.house",),
    "piggy_build": ("company", "coops.house"),
    # a building's space, or a farm's: the trading houses over their building spaces, those
    # the options name, the spaces ringed (`_sites`)
    "build_site": ("coops.house",),
    "plant_space": (PLANTED,),
    "farm": ("coops.house",),
    **dict.fromkeys(
        (
            "start",
            "staff_own",
            "staff_other",  # staff from the seat's own pool onto others' plantations
            "donkey",
            "remove",
            "animal",
            "send_choose",
        ),
        (EVERY_COOP,),
    ),
    **dict.fromkeys(
        (
            "plant_row",
            "penalty",
            "gain_coffee",
            "wild_income",
            "piggy_pay",
            "convert",
            "stock",
            "storage",
            "row_bonus",
        ),
        (OWN,),
    ),
}


def narrowed(
    view: dict[str, Any], part: str, fields: Sequence[Mapping[str, Any]]
) -> tuple[str, ...]:
    """The cooperatives a decision's options name (`coffee`, or the `place` a piggyback acts
    on), in the board's order, for the five (or the five folded); the five as one drawing
    when the options name them all, or none (a player to choose), none of the five folded
    when none is named; any other part as it is."""
    if part in BOARDS and view.get("you") is None:
        return ()  # a spectator's view has no company of its own
    if part == BONUSES:
        letters = dict.fromkeys(f["letter"] for f in fields if "letter" in f)
        return tuple(f"{BONUSES}.{letter}" for letter in letters)
    if part == PLANTED:
        return _planted(fields)
    if part != EVERY_COOP and part not in EVERY_COOP_SIDE:
        return (part,)
    named = {f.get("coffee", f.get("place", f.get("town"))) for f in fields}
    if part == "coops.house":  # and where a building offered may go
        named |= {site[1] for site in _sites(fields)}
    coops = tuple(c for c, coffee in zip(COOPS, table.COFFEES, strict=True) if coffee in named)
    if not coops and part in EVERY_COOP_SIDE:
        return ()  # nothing on the cooperatives: building a warehouse, say
    if not 0 < len(coops) < len(COOPS):
        return (part,)
    return coops if part == EVERY_COOP else tuple(f"{c}.{part.split('.')[1]}" for c in coops)


def _planted(fields: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    """Each cooperative a planting's options name, its rows up to the highest named
    (`PLANTED`), in the board's order."""
    highest: dict[str, int] = {}
    for f in fields:
        if f.get("coffee") in table.COFFEES and "row" in f:
            row = f["row"] + (1 if "upper_space" in f else 0)
            highest[f["coffee"]] = max(highest.get(f["coffee"], 1), row)
    return tuple(
        f"{coop}.rows{'' if highest[coffee] == 1 else min(3, highest[coffee])}"
        for coop, coffee in zip(COOPS, table.COFFEES, strict=True)
        if coffee in highest
    )


NO_PICTURE: dict[str, str] = {}  # every Coffee Traders decision is about something on the table


# The spaces a decision's options name, marked on the cooperatives it pictures: a plantation
# space ("Guatemala row 2, space 1") to plant on, staff, remove, start or farm on. A donkey's
# pathways are marked themselves, a thick line along each ("path", coffee, row, lower space,
# upper space): rings round both ends of each ran together where two shared a space.
MARKED_KINDS = frozenset({"plant_space", "staff_own", "staff_other", "remove", "start"})


# Building on the board, its space asked next: the open spaces of the buildings offered.
BUILT_KINDS = frozenset({"piggy_build", "trade", "free_build"})


# A building's space and a farm's: each space the options name ("site", coffee, kind, index);
# a farm's options name no building (`farm` is theirs).
SITE_KINDS = frozenset({"build_site", "farm"})


# Selling: the Coffee Bar spaces the options name ("bar", bar, space), and the contracts
# ("contract", letter) on the seat's company board.
SOLD_KINDS = frozenset({"sell", "sell_second"})


def marks(
    view: dict[str, Any], kind: str, fields: Sequence[Mapping[str, Any]]
) -> tuple[tuple[Any, ...], ...]:
    """(coffee, row, space) of every space the options name; ("path", coffee, row, lower,
    upper) of a donkey's pathways; ("bar", bar, space) and ("contract", letter) of the bar
    spaces and contracts a sale's options name; ("contract", letter) and ("bonus", letter)
    of a contract whose bonus is chosen."""
    if kind == "contract_bonus":
        letters = dict.fromkeys(f["letter"] for f in fields if "letter" in f)
        return tuple(m for letter in letters for m in (("contract", letter), ("bonus", letter)))
    if kind in SOLD_KINDS:
        sold: dict[tuple[Any, ...], None] = {}
        for f in fields:
            if f.get("action") == "bar":
                sold[("bar", f["bar"], f["space"])] = None
            elif f.get("action") == "contract":
                sold[("contract", f["letter"])] = None
        if kind == "sell_second":
            sold.update(dict.fromkeys(_after_trade(fields)))
        return tuple(sold)
    if kind in BUILT_KINDS:
        return _sites(fields)
    if kind in SITE_KINDS:
        return tuple(
            dict.fromkeys(
                ("site", f["coffee"], building, f["space"])
                for f in fields
                if "coffee" in f
                and "space" in f
                and (building := "farm" if kind == "farm" else f.get("building")) is not None
            )
        )
    if kind == "donkey":
        return tuple(
            dict.fromkeys(
                ("path", f["coffee"], f["row"], f["space"], f["upper_space"])
                for f in fields
                if "upper_space" in f
            )
        )
    if kind == "send_choose":
        return _staffed(fields)
    if kind not in MARKED_KINDS:
        return ()
    found: dict[tuple[str, int, int], None] = {}
    for f in fields:
        if "coffee" in f and "row" in f and "space" in f:
            found[(f["coffee"], f["row"], f["space"])] = None
            if "upper_space" in f:
                found[(f["coffee"], f["row"] + 1, f["upper_space"])] = None
    return tuple(found)


def _after_trade(fields: Sequence[Mapping[str, Any]]) -> list[tuple[str, str, int]]:
    """("bar", bar, space) of each Coffee Bar space a purchase makes the seat able to pay
    (`opens`, from the engine): a second delivery's panel folds a purchase with the delivery
    it makes possible ("Buy 1 Brazil for 2 coins, then Coffee Bar 5: 4 Brazil"), the
    picture rings that space too."""
    return [("bar", bar, i) for f in fields for bar, i in f.get("opens", ())]


def _staffed(fields: Sequence[Mapping[str, Any]]) -> tuple[Any, ...]:
    """(coffee, row, space) of the plantation each player to choose from would staff from
    the town center (`town`, `staffs`: from the engine, the seat's lowest not staffed)."""
    return tuple(dict.fromkeys((f["town"], *f["staffs"]) for f in fields if "staffs" in f))


def _sites(fields: Sequence[Mapping[str, Any]]) -> tuple[Any, ...]:
    """("site", coffee, kind, index) of each open building space an option building on the
    board may take (its `sites`, from the engine): a piggyback's on its cooperative, a
    Trade's or a contract bonus's on any (its site is asked next, folded into its line:
    `Build a production station in Colombia, space 3`)."""
    return tuple(
        dict.fromkeys(
            ("site", coffee, f["building"], i) for f in fields for coffee, i in f.get("sites", ())
        )
    )


PATH_SPAN = (0.3, 0.7)  # the share of a pathway marked, from its lower space's centre
PATH_W = 7  # a marked pathway's width, in table pixels (the printed pathway's is 6)


def marked(
    view: dict[str, Any], part: str, image: Image.Image, spaces: tuple[Any, ...]
) -> Image.Image:
    """The cooperatives' picture with a ring around each space marked, the Coffee Bars' and
    the own area's with a ring around each bar space and contract; any other part as it
    is. The part is the cooperatives cut from the table (`crops`: each its box and CROP_PAD,
    one under another), enlarged: where each space lies follows from that."""
    if part == "bars":
        return _rings(image, _bars_size(view), [_bar_box(view, m) for m in spaces if m[0] == "bar"])
    if part in (OWN, "company"):
        size = OWN_SIZE if part == OWN else (COMPANY_W + 20, table.PLAYER_H + 26)
        board_w = size[0] - 20
        boxes = [_contract_box(m[1], board_w) for m in spaces if m[0] == "contract"]
        return _rings(image, size, boxes)
    if part == "market":
        return _rings(
            image, _market_size(view), [_bonus_box(view, m[1]) for m in spaces if m[0] == "bonus"]
        )
    if part in COOP_SIDES and part.endswith(".house"):
        return _rings(image, HOUSE_SIZE, _site_boxes(view, part.split(".")[0], spaces))
    if part == "coops.house":  # the five, one under another (`render_focus`)
        pitch = HOUSE_SIZE[1] + SIDES_GAP // 2
        size = (HOUSE_SIZE[0], len(COOPS) * pitch - SIDES_GAP // 2)
        boxes = [
            (x0, y0 + k * pitch, x1, y1 + k * pitch)
            for k, coop in enumerate(COOPS)
            for x0, y0, x1, y1 in _site_boxes(view, coop, spaces)
        ]
        return _rings(image, size, boxes)
    layout = _layout(view, part)
    if layout is None:
        return image
    placed, drawn_h = layout
    shown = {coop: (top, folds) for coop, top, folds in placed}
    rings = [
        m for m in spaces if m[0] in table.COFFEES and COOPS[table.COFFEES.index(m[0])] in shown
    ]
    paths = [m[1:] for m in spaces if m[0] == "path" and COOPS[table.COFFEES.index(m[1])] in shown]
    if not rings and not paths:
        return image
    cut_w = table.COOP_W + 2 * CROP_PAD
    scale = image.height / drawn_h
    left = (image.width - cut_w * scale) / 2

    def at(coffee: str, row: int, space: int) -> tuple[float, float] | None:
        """Where a space's centre lies on the picture (None: on a strip folded away)."""
        i = table.COFFEES.index(coffee)
        size = len(view["coops"][coffee]["rows"][row - 1])
        x0 = table.coop_x(i)
        x, y = table.space_xy(x0, table.COOPS_TOP, row, space, size)
        cx = left + (x - round(x0) + CROP_PAD) * scale
        top, folds = shown[COOPS[i]]
        y -= table.COOPS_TOP
        for upper, lower in folds:
            if upper <= y <= lower:
                return cx, (top + y - upper) * scale
            top += lower - upper
        return None

    out = image.copy()
    draw = ImageDraw.Draw(out)
    for coffee, row, lower, upper in paths:
        a, b = at(coffee, row, lower), at(coffee, row + 1, upper)
        if a is None or b is None:
            continue
        (ax, ay), (bx, by) = a, b
        # the stretch between the two spaces' centres, less most of the spaces themselves
        ends = [(ax + (bx - ax) * t, ay + (by - ay) * t) for t in PATH_SPAN]
        draw.line(ends, fill=INK, width=round(PATH_W * scale) + 4)
        draw.line(ends, fill=MARK, width=round(PATH_W * scale))
    drawn: list[shared.Ring] = []
    for coffee, row, space in rings:
        centre = at(coffee, row, space)
        if centre is None:
            continue
        cx, cy = centre
        r = (table.SPACE / 2 + 5) * scale
        width = max(3, round(2.5 * scale))
        drawn.append(shared.box((cx - r, cy - r, cx + r, cy + r), width, 1, r / 3))
    shared.draw_rings(draw, drawn)
    return out


Placed = list[tuple[str, int, tuple[tuple[int, int], ...]]]


def _layout(view: dict[str, Any], part: str) -> tuple[Placed, int] | None:
    """A part showing cooperatives' plantation rows as drawn (table pixels), before it was
    enlarged: each cooperative, its top on the part and its strips (table rows from its
    top: `FOLDS`, the whole cut with CROP_PAD round it where not folded), and the part's
    height; None for any other part."""
    whole = ((-CROP_PAD, table.COOP_H + CROP_PAD),)
    if part in (EVERY_COOP, *COOPS):
        coops, gap, side = (COOPS if part == EVERY_COOP else (part,)), 2 * CROP_PAD, ""
    elif part == "coops.rows":  # the five folded, one under another (`render_focus`)
        coops, gap, side = COOPS, SIDES_GAP // 2, "rows"
    elif part in COOP_SIDES and part.split(".")[1].startswith("rows"):
        coops, gap, side = (part.split(".")[0],), 0, part.split(".")[1]
    else:
        return None
    placed: Placed = []
    top = 0
    for coop in coops:
        coffee = table.COFFEES[COOPS.index(coop)]
        folds = _row_folds(view, coffee, _least(side)) if side else whole
        placed.append((coop, top, folds))
        top += sum(lower - upper for upper, lower in folds) + gap
    return placed, top - gap


def _rings(image: Image.Image, drawn: tuple[int, int], boxes: Sequence[Box]) -> Image.Image:
    """A copy of a part's picture with a ring round each box, the boxes where the part lay
    as drawn (`drawn`: its size then), before it was enlarged and centred to the picture's
    width; the picture itself if there is none."""
    if not boxes:
        return image
    scale = image.height / drawn[1]
    left = (image.width - drawn[0] * scale) / 2
    out = image.copy()
    draw = ImageDraw.Draw(out)
    width = max(3, round(2 * scale))
    rings = []
    for x0, y0, x1, y1 in boxes:
        box = (left + x0 * scale, y0 * scale, left + x1 * scale, y1 * scale)
        grown = (box[0] - width, box[1] - width, box[2] + width, box[3] + width)
        rings.append(shared.box(grown, width, 1, 6 * scale))
    shared.draw_rings(draw, rings)
    return out


def _bars_size(view: dict[str, Any]) -> tuple[int, int]:
    """The Coffee Bars' part as cut (`crops` of `_boxes`), before `fit`."""
    boxes = _boxes(view, "bars")
    widths = [round(x1) - round(x0) + 2 * CROP_PAD for x0, _, x1, _ in boxes]
    height = table.BAND_H + 2 * CROP_PAD
    return max(widths), len(boxes) * height + (len(boxes) - 1) * 2 * CROP_PAD


def _bar_box(view: dict[str, Any], mark: tuple[Any, ...]) -> Box:
    """Where a bar space lies on the Coffee Bars' part as cut (`_bars_size`)."""
    _, bar, space = mark
    bars = list(view["bar_spaces"])
    b = bars.index(bar)
    boxes = _boxes(view, "bars")
    row = b // BARS_PER_ROW
    x0, top, x1, _ = boxes[row]
    width = round(x1) - round(x0) + 2 * CROP_PAD
    left = (_bars_size(view)[0] - width) // 2 - (round(x0) - CROP_PAD)
    down = row * (table.BAND_H + 4 * CROP_PAD) - (round(top) - CROP_PAD)
    x = table.band_x(view)[0] + b * (table.BAR_W + table.BAR_GAP)
    pitch = table.bar_pitch(view["bar_spaces"][bar])
    y = table.BAND_TOP + table.BAR_TAB + 1 + space * pitch
    return (left + x + 4, down + y, left + x + table.BAR_W - 4, down + y + pitch - 4)


# The own area as drawn (`_own`): the company board (OWN_W less 20, at 10, 13) over its
# Arabica rows and plantation stacks. As wide as the Coffee Bars' part (three bars to a row,
# `_bars_size`), so that a sale's picture, the bars over the own area, is either's width:
# drawn 350 wide, the own area made the picture 700 px, and the bars widened to it: a sale's
# picture took twice the time to draw and encode and 2.8 times the bytes (42 ms, 70 KiB
# against 20 ms, 25 KiB: bench/README.md, session 18's helper C). The company's type keeps
# its size (its contracts' counts 12 for 14: at the picture's width, 580 px for 700, every
# text reads larger on a phone).
OWN_W = 290
OWN_STACKS_H = 170  # rows A-C (to 119) and the milestones won below them (to 164)
OWN_SIZE = (OWN_W, table.PLAYER_H + 26 + 8 + 180 + 8 + OWN_STACKS_H)


def _contract_box(letter: str, board_w: int = OWN_W - 20) -> Box:
    """Where a contract lies on the own area as drawn (`OWN_SIZE`, `table.draw_contracts`),
    or on a company board `board_w` wide drawn at (10, 13)."""
    left, each = table.columns(10, board_w, 6, padding=8)
    x = left + "ABCDEF".index(letter) * each
    return (x + 1, 13 + 168, x + each - 2, 13 + 220)


def _market_size(view: dict[str, Any]) -> tuple[int, int]:
    """The milestones and contract bonus part as cut (`_box`), before `fit`."""
    x0, top, x1, bottom = _box(view, "market")
    return round(x1) - round(x0) + 2 * CROP_PAD, round(bottom) - round(top) + 2 * CROP_PAD


def _bonus_box(view: dict[str, Any], letter: str) -> Box:
    """Where a contract's bonus stack lies on the market part as cut (`_market_size`,
    `table.draw_contract_bonus`)."""
    x0, top, x1, _ = _box(view, "market")
    left, each = table.columns(x0, x1 - x0, 6, gap=6)
    x = left + "ABCDEF".index(letter) * (each + 6) - (round(x0) - CROP_PAD)
    y = top + 104 - (round(top) - CROP_PAD)
    return (x, y, x + each, y + table.BAND_H - 104 - 2 * CROP_PAD)


# A cooperative's `house` side as folded (`FOLDS`), before it was enlarged: its trading house
# over its Quality Values and building spaces.
HOUSE_SIZE = (
    table.COOP_W + 2 * CROP_PAD,
    sum(bottom - top for top, bottom in FOLDS["house"]),
)


def _site_boxes(view: dict[str, Any], coop: str, marks: tuple[Any, ...]) -> list[Box]:
    """Where each building space marked ("site", coffee, kind, index) on cooperative `coop`
    lies on its `house` side as folded (`HOUSE_SIZE`): the building and its number."""
    coffee = table.COFFEES[COOPS.index(coop)]
    wanted = {(m[2], m[3]) for m in marks if m[0] == "site" and m[1] == coffee}
    if not wanted:
        return []
    x0 = table.coop_x(COOPS.index(coop))
    spots, pitch = table.building_spots(view, view["coops"][coffee], x0)
    (top, upper), (lower, _) = FOLDS["house"]
    y = upper - top + table.BUILDING_Y - lower  # the buildings' centre, on the second strip
    left = CROP_PAD - round(x0)
    return [
        (left + bx - pitch / 2 + 1, y - 15, left + bx + pitch / 2 - 1, y + 25)
        for kind, i, bx, _, _, _ in spots
        if (kind, i) in wanted
    ]
