"""Keyflower's phone view: the auction (tiles up for auction, turn order, boats) four tiles
to a row, each village alone, and a seat's own village above its screen and winter hand;
all drawn at hex sizes that read at 400 px, with no number smaller than that width allows
(`MIN_FONT`), each tile up for auction, boat, village and screen pasted as the table's
worker kept it while it stays the same (renderers/keyflower.py, `kept_part`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image

from meeple_hall.renderers import keyflower as table
from meeple_hall.renderers.palette import BACKGROUND
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
    for the picture's width; the auction was drawn first to learn its width). None for a
    seat's village, whose picture may be narrower than the phone's and brought to it."""
    if part == "auction":
        width = table.auction_width()
    elif part == OWN and view.get("you"):
        width = table.own_width(view)
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
    seat = seat_of_focus(part, len(view.get("players", [])))
    if seat is not None:
        picture = _legible("village", lambda: table.village_picture(view, seat), width)
    else:
        picture = _legible("auction", lambda: table.auction_picture(view), width)
    return picture or _empty()


def _own(view: dict[str, Any], width: int) -> Image.Image | None:
    seat = int(view["you"]["seat"])

    def own() -> Image.Image:
        village = table.village_picture(view, seat)
        private = table.render_private(view, hand_below=True)
        return stack([village, private], BACKGROUND)

    return _legible("own", own, width)


# What a decision's panel pictures, by its kind. Bidding and using work from the auction
# with workers from the seat's screen (its own area); the rest happens in its own village.
BIDDING = ("auction", OWN)
DECISION_PARTS: dict[str, tuple[str, ...]] = {
    "action": BIDDING,
    "location": BIDDING,
    "colour": BIDDING,
    "count": BIDDING,
    "gather": BIDDING,
    "boat": ("auction",),  # the boats, with their workers and skill tiles
    **dict.fromkeys(
        (
            "winter",  # the winter tiles in hand
            "place_tile",
            "place_at",
            "place_rot",
            "flip",
            "upgrade",
            "transport",
            "from",
            "what",
            "to",
            "resource",
            "skill",
            "discard",
        ),
        (OWN,),
    ),
}
NO_PICTURE: dict[str, str] = {}  # every Keyflower decision is about something on the table
