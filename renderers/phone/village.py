"""Village's phone view, cropped from the table picture: the action spaces with the market,
the crafts with council and church, the travel map, the chronicle with the bag, in solo
Karla's board, each farmyard; a seat's own farmyard above its served customers."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from meeple_hall.renderers import village as table
from meeple_hall.renderers.phone import OWN, Box, crops, seat_focus, seat_of_focus, stack, widened

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
        return crops(table.render(view), PARTS[focus], table.BACKGROUND)
    image = Image.new("RGB", (YARD_W + 32, table.YARDS_H + 32), table.BACKGROUND)
    table.draw_player(ImageDraw.Draw(image), view, seat, 16, 16, YARD_W, table.YARDS_H)
    return image


def render_own(view: dict[str, Any]) -> Image.Image | None:
    """The private picture's two halves one under the other: farmyard, then customers."""
    halves = _own_halves(view)
    if halves is None:
        return None
    farm, customers = halves
    # The farmyard is the narrower half: widened to the customers' panel, so that its
    # numbers do not read smaller than they would alone
    return stack([widened(farm, customers.width), customers], table.BACKGROUND, gap=0)


SPLIT = 444  # between the farmyard (16-436) and the customers' panel (452-)


def _own_halves(view: dict[str, Any]) -> tuple[Image.Image, Image.Image] | None:
    private = table.render_private(view)
    if private is None:
        return None
    return private.crop((0, 0, SPLIT, private.height)), private.crop(
        (SPLIT, 0, private.width, private.height)
    )


def part_width(view: dict[str, Any], part: str) -> int | None:
    """The own area's width, known without drawing it (the customers' panel's: the private
    picture is always PRIVATE_W wide); None for any other part."""
    return table.PRIVATE_W - SPLIT if part == OWN and view.get("you") else None


def at_width(
    view: dict[str, Any], part: str, image: Image.Image | None, width: int
) -> Image.Image | None:
    """The seat's own area in a decision's picture `width` wide: each half widened once,
    straight from the drawing (not the farmyard widened twice; `image`, the own area drawn
    alone, is not needed); None for any other part."""
    halves = _own_halves(view) if part == OWN else None
    if halves is None:
        return None
    return stack([widened(half, width) for half in halves], table.BACKGROUND, gap=0)


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
