"""Keyflower's phone view: the auction (tiles up for auction, turn order, boats) four tiles
to a row, each village alone, and a seat's own village above its screen and winter hand;
all drawn afresh at hex sizes that read at 400 px, with no number smaller than that width
allows (`MIN_FONT`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image

from meeple_hall.renderers import keyflower as table
from meeple_hall.renderers.palette import BACKGROUND
from meeple_hall.renderers.phone import (
    MIN_FONT,
    OWN,
    min_font_for,
    seat_focus,
    seat_of_focus,
    stack,
)


def focuses(view: dict[str, Any]) -> list[str]:
    seats = [seat_focus(p["seat"]) for p in view.get("players", [])]
    on_offer = view.get("offer") or view.get("turn_order") or view.get("boats")
    return ["auction", *seats] if on_offer else seats


def _legible(draw: Callable[[], Image.Image | None]) -> Image.Image | None:
    """Draw once to learn the picture's width, then again with no text smaller than reads
    at that width on a phone (the layout does not depend on the type)."""
    first = draw()
    if first is None:
        return None
    token = MIN_FONT.set(min_font_for(first.width))
    try:
        return draw()
    finally:
        MIN_FONT.reset(token)


def _empty() -> Image.Image:
    return Image.new("RGB", (table.PHONE_VILLAGE_W, 60), BACKGROUND)


def render_focus(view: dict[str, Any], focus: str) -> Image.Image:
    seat = seat_of_focus(focus, len(view.get("players", [])))
    if seat is not None:
        picture = _legible(lambda: table.village_picture(view, seat))
    else:
        picture = _legible(lambda: table.auction_picture(view))
    return picture or _empty()


def render_own(view: dict[str, Any]) -> Image.Image | None:
    you = view.get("you")
    if not you:
        return None
    seat = int(you["seat"])

    def own() -> Image.Image:
        village = table.village_picture(view, seat)
        private = table.render_private(view, hand_below=True)
        return stack([village, private], BACKGROUND)

    return _legible(own)


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
