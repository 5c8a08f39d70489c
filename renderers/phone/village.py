"""Village's phone view, cropped from the table picture: the action spaces with the market,
the crafts with council and church, the travel map, the chronicle with the bag, in solo
Karla's board, each farmyard; a seat's own farmyard above its served customers.

Each costs what it shows: a part of the table is drawn alone (`table.render_within`: the
table's layer and the pieces of the parts it shows, not the whole table to cut it from),
and the own area's two halves are drawn at the width they are shown at
(`table.render_private_half`), not drawn at their own and enlarged."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from meeple_hall.renderers import village as table
from meeple_hall.renderers.phone import OWN, Box, crop, crops, seat_focus, seat_of_focus, stack

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


KARLA_W = 480  # Karla's board drawn alone: her ring, her members, customers and dead


def focuses(view: dict[str, Any]) -> list[str]:
    solo = ["karla"] if view.get("karla") else []
    return [*PARTS, *solo, *(seat_focus(s) for s in range(view["num_players"]))]


def render_focus(view: dict[str, Any], focus: str) -> Image.Image:
    if focus == "karla":
        image = Image.new("RGB", (KARLA_W + 32, table.YARDS_H + 32), table.BACKGROUND)
        table.draw_karla(ImageDraw.Draw(image), view, 16, 16, KARLA_W, table.YARDS_H)
        return image
    seat = seat_of_focus(focus, view["num_players"])
    if seat is None:
        boxes = PARTS[focus]
        image = table.render_within(view, _hull(boxes))
        # one box: `crops`' own cut, without the copy it stacks it on
        return crop(image, boxes[0]) if len(boxes) == 1 else crops(image, boxes, table.BACKGROUND)
    image = Image.new("RGB", (YARD_W + 32, table.YARDS_H + 32), table.BACKGROUND)
    table.draw_player(ImageDraw.Draw(image), view, seat, 16, 16, YARD_W, table.YARDS_H)
    return image


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


SPLIT = table.PRIVATE_SPLIT  # between the farmyard (16-436) and the customers' panel (452-)
OWN_W = table.PRIVATE_W - SPLIT  # the customers' panel's width: the own area's


def _own_at(view: dict[str, Any], width: int) -> Image.Image | None:
    """The own area `width` wide: each half drawn at that width."""
    yard = table.render_private_half(view, "yard", width)
    customers = table.render_private_half(view, "customers", width)
    if yard is None or customers is None:
        return None
    return stack([yard, customers], table.BACKGROUND, gap=0)


def part_width(view: dict[str, Any], part: str) -> int | None:
    """The own area's width, known without drawing it (the customers' panel's: the private
    picture is always PRIVATE_W wide); None for any other part."""
    return OWN_W if part == OWN and view.get("you") else None


def at_width(
    view: dict[str, Any], part: str, image: Image.Image | None, width: int
) -> Image.Image | None:
    """The seat's own area in a decision's picture `width` wide: each half drawn at that width
    (not drawn at its own and enlarged; `image`, the own area drawn alone, is not needed);
    None for any other part."""
    return _own_at(view, width) if part == OWN else None


# What a decision's panel pictures, by its kind (Village's parts are the table's areas of
# the same name; the seat's farmyard and customers are its own area).
DECISION_PARTS: dict[str, tuple[str, ...]] = {
    "turn": ("actions", OWN),  # an action space's cubes, paid for from the farmyard
    "market": ("actions", OWN),  # the market's customers, served from the seat's goods
    "council": ("council",),
    "privilege": ("council",),
    "crafts": ("crafts", OWN),
    "church": ("church",),
    "advance": ("church",),
    "travel": ("map",),
    "karla": ("karla",),
    **dict.fromkeys(("harvest", "family", "die", "reward", "gift"), (OWN,)),
}
NO_PICTURE: dict[str, str] = {}  # every Village decision is about something on the table
