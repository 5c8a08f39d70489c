"""The phone view: parts of the table, and a seat's own area, drawn to read at 400 px wide.

Discord shows an attachment about 400-550 px wide on a phone, where the whole table's tile
ids, die numbers and counts cannot be read. The full table stays as it is; beside it, a
game's module `renderers/phone/<game_id>.py` provides:

- `focuses(view) -> list[str]`: the parts `/board focus:` can show, in order: `seat1`,
  `seat2`, ... and the game's own parts (`auction`, `depots`, `map`, `market`, ...);
- `render_focus(view, focus) -> PIL.Image.Image`: that part, readable at 400 px wide;
- `render_own(view) -> PIL.Image.Image | None`: the seat's own area (`view(state, seat)`)
  and its secrets, for My info and `/hand`, readable at 400 px wide (None for a spectator);
- `DECISION_PARTS: dict[str, tuple[str, ...]]`: by a decision's `kind`, the parts its panel
  pictures (focus names, parts for decisions only named in `DECISION_ONLY`, or `OWN` for the
  seat's own area), and `NO_PICTURE: dict[str, str]`,
  the kinds pictured by nothing, each with the reason (`decision_parts`, `render_decision`);
  every kind a game's steps declare (`engine.steps.kinds`) is in one or the other;
- optionally `narrowed(view, part, fields) -> tuple[str, ...]`: a decision's part narrowed
  to where its options are (their `fields`): Coffee Traders' five cooperatives to those the
  options name;
- optionally `marks(view, kind, fields) -> tuple` (hashable, JSON-like) and
  `marked(view, part, image, marks) -> PIL.Image.Image`: what a decision's picture marks on
  its parts (the spaces its options name), and a part's picture with them drawn on a copy
  (the image itself where it has none of them: a drawn part may be kept).

A part is either drawn afresh at a larger size (Keyflower) or cropped from the table picture
(`crop`), where the table already draws it large enough. "Readable" is measured by the
renderer tests (tests/renderers/legibility.py): the smallest digit of a phone picture is at
least `MIN_TEXT_PX` high once Discord has scaled the picture to `PHONE_WIDTH`.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from types import ModuleType
from typing import Any, NamedTuple

from PIL import Image

from meeple_hall.renderers.palette import font

PHONE_WIDTH = 400  # the width Discord gives an attachment on a phone
MIN_TEXT_PX = 7  # a digit's height at that width (about a 10 px font, Discord's smallest)
DIGIT = 0.7  # a digit's height as a share of the font size (Pillow's bundled font)

Box = tuple[float, float, float, float]

# The least font size a picture being drawn for the phone may use, for renderers that draw
# their shapes larger than their numbers need (a context variable: pictures are drawn in
# worker threads, each with its own).
MIN_FONT: ContextVar[int] = ContextVar("min_font", default=0)


def min_font_for(width: float) -> int:
    """The least font size whose digits are MIN_TEXT_PX high when a picture `width` px wide
    is shown at PHONE_WIDTH (measured in the bundled font, whose digits are about 0.7 of
    its size)."""
    scale = min(1.0, PHONE_WIDTH / width)
    size = int(MIN_TEXT_PX / DIGIT / scale)
    while True:
        _, top, _, bottom = font(size).getbbox("0")
        if (bottom - top) * scale >= MIN_TEXT_PX:
            return size
        size += 1


def seat_focus(seat: int) -> str:
    return f"seat{seat + 1}"


def seat_of_focus(focus: str, num_players: int) -> int | None:
    """`seat2` → 1; None for anything else."""
    if focus.startswith("seat") and focus[4:].isdigit():
        seat = int(focus[4:]) - 1
        if 0 <= seat < num_players:
            return seat
    return None


def fit(image: Image.Image) -> Image.Image:
    """A picture narrower than PHONE_WIDTH, brought to it: Discord shows a narrow picture at
    its own size, so its text would stay small. Centred on margins if it is nearly as wide
    (`PAD_WITHIN`), else enlarged by a whole factor, each pixel a square (`enlarged`)."""
    if image.width >= PHONE_WIDTH:
        return image
    if image.width * PAD_WITHIN >= PHONE_WIDTH:
        return padded(image, PHONE_WIDTH)
    return enlarged(image, math.ceil(PHONE_WIDTH / image.width))


def enlarged(image: Image.Image, factor: int) -> Image.Image:
    """`factor` times as large, each pixel a square of pixels: its text reads as large as
    enlarged smoothly to the same width once the phone scales the picture to its own, its
    flat colours stay flat (a smooth enlargement made Coffee Traders' cooperatives three
    times the bytes, and its own area twice), and it costs next to nothing to make."""
    size = (image.width * factor, image.height * factor)
    return image.resize(size, Image.Resampling.NEAREST)


PAD = 4  # the margin `crop` keeps around a part


def crops(
    image: Image.Image, boxes: Sequence[Box], background: tuple[int, int, int], pad: int = PAD
) -> Image.Image:
    """Several parts of a picture one under another: a wide row of the table, cut in two,
    reads twice as large."""
    return stack([crop(image, box, pad) for box in boxes], background, gap=2 * pad)


def crop(image: Image.Image, box: Box, pad: int = PAD) -> Image.Image:
    """The part `box` of a picture, with a small margin, clipped to the picture."""
    x0, y0, x1, y1 = box
    return image.crop(
        (
            max(0, round(x0) - pad),
            max(0, round(y0) - pad),
            min(image.width, round(x1) + pad),
            min(image.height, round(y1) + pad),
        )
    )


def stack(
    images: Sequence[Image.Image | None],
    background: tuple[int, int, int],
    gap: int = 8,
    across: bool = False,
) -> Image.Image:
    """Pictures one under the other (or side by side), centred, on the background."""
    parts = [im for im in images if im is not None]
    if across:
        size = (
            sum(im.width for im in parts) + gap * (len(parts) - 1),
            max(im.height for im in parts),
        )
    else:
        size = (
            max(im.width for im in parts),
            sum(im.height for im in parts) + gap * (len(parts) - 1),
        )
    out = Image.new("RGB", size, background)
    at = 0
    for im in parts:
        if across:
            out.paste(im, (at, (size[1] - im.height) // 2))
            at += im.width + gap
        else:
            out.paste(im, ((size[0] - im.width) // 2, at))
            at += im.height + gap
    return out


def module(game_id: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"{__name__}.{game_id}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{game_id}":
            raise
        return None


def focuses(game_id: str, view: dict[str, Any]) -> list[str]:
    """The parts of the table `/board focus:` can show for this game, in order."""
    phone = module(game_id)
    return list(phone.focuses(view)) if phone is not None else []


def render_focus(game_id: str, view: dict[str, Any], focus: str) -> Image.Image | None:
    """One part of the table, readable on a phone; None where the game offers no such part."""
    phone = module(game_id)
    if phone is None or focus not in phone.focuses(view):
        return None
    return fit(phone.render_focus(view, focus))


def render_own(game_id: str, view: dict[str, Any]) -> Image.Image | None:
    """The seat's own area and secrets, readable on a phone; the game's private picture
    where it has no phone view."""
    phone = module(game_id)
    if phone is not None:
        own = phone.render_own(view)
        return fit(own) if own is not None else None
    from meeple_hall import renderers

    return renderers.render_private(game_id, view)


OWN = "own"  # a decision's part: the seat's own area and its secrets (`render_own`)


@dataclass(frozen=True)
class Parts:
    """The kinds of a game's decisions and what each pictures (see the module's text)."""

    pictured: dict[str, tuple[str, ...]]
    unpictured: dict[str, str]


def decision_kinds(game_id: str) -> Parts:
    phone = module(game_id)
    if phone is None:
        return Parts({}, {})
    return Parts(getattr(phone, "DECISION_PARTS", {}), getattr(phone, "NO_PICTURE", {}))


def decision_parts(
    game_id: str, view: dict[str, Any], kind: str, fields: Sequence[Mapping[str, Any]] = ()
) -> tuple[str, ...]:
    """The parts the panel of a decision of `kind` pictures, from the seat's view `view`
    (only parts there are now: Keyflower's auction is gone in winter; never another seat's
    secrets, since the view is the deciding seat's), narrowed by the game to where the
    decision's options are (`fields`: each option's, as the engine gives them)."""
    phone = module(game_id)
    wanted = decision_kinds(game_id).pictured.get(kind, ())
    if (narrowed := getattr(phone, "narrowed", None)) is not None and fields:
        wanted = tuple(dict.fromkeys(p for part in wanted for p in narrowed(view, part, fields)))
    offered = set(focuses(game_id, view)) | set(getattr(phone, "DECISION_ONLY", ()))
    if view.get("you") is not None:
        offered.add(OWN)
    return tuple(part for part in wanted if part in offered)


class DecisionPicture(NamedTuple):
    """What a decision's panel pictures: its parts, and what it marks on them."""

    parts: tuple[str, ...]
    marks: tuple[Any, ...] = ()


def decision_picture(
    game_id: str, view: dict[str, Any], kind: str, fields: Sequence[Mapping[str, Any]] = ()
) -> DecisionPicture:
    """`decision_parts`, and the places the game marks on them (its `marks`: where the
    options are), none if the decision pictures nothing."""
    parts = decision_parts(game_id, view, kind, fields)
    marks = getattr(module(game_id), "marks", None)
    if not parts or marks is None or not fields:
        return DecisionPicture(parts)
    return DecisionPicture(parts, tuple(marks(view, kind, fields)))


def render_decision(
    game_id: str, view: dict[str, Any], parts: Sequence[str], marks: tuple[Any, ...] = ()
) -> Image.Image | None:
    """The parts a decision is about, one under another, each readable at PHONE_WIDTH: each
    is brought to the widest's width (`_at_width`), so that none reads smaller than it does
    alone (by more than `PAD_WITHIN`), with the game's `marks` drawn on it. A part whose
    width the game knows without drawing it (its `part_width(view, part)`, None where it
    does not: Village's own area) is drawn once the picture's width is known, at that
    width."""
    known = getattr(module(game_id), "part_width", None)
    found: list[tuple[str, Image.Image | int]] = []
    for part in parts:
        width = known(view, part) if known is not None else None
        if width is not None:
            found.append((part, width))
        elif (image := _drawn(game_id, view, part)) is not None:
            found.append((part, image))
    if not found:
        return None
    width = max(f if isinstance(f, int) else f.width for _, f in found)
    images = [_at_width(game_id, view, part, f, width) for part, f in found]
    if marks and (marked := getattr(module(game_id), "marked", None)) is not None:
        images = [
            marked(view, part, image, marks) for (part, _), image in zip(found, images, strict=True)
        ]
    if len(images) == 1:  # as it is (stacked alone, it would be copied whole)
        return images[0]
    background = _rgb(images[0].getpixel((0, 0)))  # the game's own background colour
    return stack(images, background, gap=12)


def _drawn(game_id: str, view: dict[str, Any], part: str) -> Image.Image | None:
    image = render_own(game_id, view) if part == OWN else _render_part(game_id, view, part)
    return _rgb_image(image) if image is not None else None


def _rgb_image(image: Image.Image) -> Image.Image:
    """The picture in RGB: itself if it is (`convert` would copy it whole)."""
    return image if image.mode == "RGB" else image.convert("RGB")


def _at_width(
    game_id: str, view: dict[str, Any], part: str, drawn: Image.Image | int, width: int
) -> Image.Image:
    """A decision's part at the picture's width, from its drawing (or its width, where it was
    known without drawing it): the game's own way if it has one (its `at_width(view, part,
    image, width)`, None where it has none for that part: Keyflower draws its parts again
    with the type that width needs, Village widens its own area's two halves straight from
    the drawing, which it makes itself), else `widened`."""
    if isinstance(drawn, Image.Image) and drawn.width == width:
        return drawn
    own_way = getattr(module(game_id), "at_width", None)
    if drawn != width:
        image = drawn if isinstance(drawn, Image.Image) else None
        shown = own_way(view, part, image, width) if own_way is not None else None
        if shown is not None:
            return shown
    image = drawn if isinstance(drawn, Image.Image) else _drawn(game_id, view, part)
    assert image is not None, (game_id, part)  # a part whose width is known is drawn
    return widened(image, width)


def _render_part(game_id: str, view: dict[str, Any], part: str) -> Image.Image | None:
    """A focus, or a part a game offers for decisions only (its `DECISION_ONLY`)."""
    phone = module(game_id)
    if phone is not None and part in getattr(phone, "DECISION_ONLY", ()):
        return fit(phone.render_focus(view, part))
    return render_focus(game_id, view, part)


# A picture at least 1/PAD_WITHIN as wide as it is to be shown is centred on margins of its
# background instead of enlarged: its text reads at least 1/PAD_WITHIN as large as enlarged
# (the legibility tests hold), its pixels stay as drawn (flat colours: cheaper to encode) and
# no resampling is paid for.
PAD_WITHIN = 1.05
# Enlarging a picture further: bilinear. Lanczos looked no sharper once the phone scales the
# picture to its width, cost twice the processor time and made three times the colours
# (its ringing), which the palette encoder pays for (bench/decision_pictures.py).
ENLARGE = Image.Resampling.BILINEAR


def widened(image: Image.Image, width: int) -> Image.Image:
    """The picture at `width`: centred on margins if it is nearly as wide (`PAD_WITHIN`), else
    enlarged (or shrunk) in proportion."""
    if image.width == width:
        return image
    if image.width < width <= image.width * PAD_WITHIN:
        return padded(image, width)
    height = round(image.height * width / image.width)
    return image.resize((width, height), ENLARGE)


def padded(image: Image.Image, width: int) -> Image.Image:
    """The picture centred on a picture `width` wide, in its own background colour (its top
    left pixel: every part is drawn on, or cut from, the game's background)."""
    out = Image.new("RGB", (width, image.height), _rgb(image.getpixel((0, 0))))
    out.paste(image, ((width - image.width) // 2, 0))
    return out


def _rgb(pixel: object) -> tuple[int, int, int]:
    assert isinstance(pixel, tuple) and len(pixel) >= 3, pixel
    return (int(pixel[0]), int(pixel[1]), int(pixel[2]))
