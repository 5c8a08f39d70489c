"""The Castles of Burgundy's phone view: the table's cells cropped one at a time (each is
450 px wide, so it shows nearly at full size on a phone): the depots, the tracks and each
seat's estate; a seat's own estate above its sold goods."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from meeple_hall.renderers import burgundy as table
from meeple_hall.renderers.phone import OWN, seat_focus, seat_of_focus

PARTS = table.BOARD_CELLS


def focuses(view: dict[str, Any]) -> list[str]:
    return [*PARTS, *(seat_focus(s) for s in range(view["num_players"]))]


def render_focus(view: dict[str, Any], focus: str) -> Image.Image:
    """The cell as the table shows it, drawn alone (or pasted as kept, `table.draw_cell`)."""
    seat = seat_of_focus(focus, view["num_players"])
    return table.render_cell(view, focus if seat is None else seat, pad=table.MARGIN // 2)


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
# estate's empty spaces are in the seat's own area; the tiles to take are in the depots.
DECISION_PARTS: dict[str, tuple[str, ...]] = {
    "die": (OWN,),  # the seat's two dice and its workers
    "action": ("depots", OWN),  # take from a depot, place, ship or sell from storage
    "take": ("depots",),
    "effect_take": ("depots",),
    "buy": ("depots",),  # the black depot in the middle of the board
    **dict.fromkeys(("place", "townhall", "discard", "ship", "warehouse", "castle"), (OWN,)),
}
NO_PICTURE: dict[str, str] = {}  # every Burgundy decision is about something on the table
