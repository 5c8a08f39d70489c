"""Parts of a table picture kept by what they show, so that a move redraws only the parts it
changed (issue 29 item 5: "drawing only what changed").

A renderer keeps its parts in its own `kept_part` (one per game module, so that the tests
can clear a game's cache by that name):

    @lru_cache(maxsize=PARTS_KEPT)
    def kept_part(key: tuple[Any, ...]) -> list[Image.Image]:
        return []

and draws each part through `draw_part(image, kept_part, key, box, draw_it)`. The key must
hold everything that changes the part's pixels (its slice of the view, the layout, the seat
colours, whether the seat must act…): a key that misses something pastes a stale part.
Each game pins that with a test drawing every picture of random games after others and
fresh (`tests/renderers/test_*_parts.py`)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from PIL import Image

PART_MARGIN = 2  # pixels a part's box reaches past the shapes it draws (rounding of floats)

KeptPart = Callable[[tuple[Any, ...]], list[Image.Image]]


def draw_part(
    image: Image.Image,
    kept_part: KeptPart,
    key: tuple[Any, ...],
    box: tuple[float, float, float, float],
    draw_it: Callable[[], Any],
) -> None:
    """The part of the picture inside `box`: pasted as drawn before under `key`, or drawn by
    `draw_it()` and kept. What lies in the box must be the picture's unchanging layer and
    this part only (parts drawn later may lie over it)."""
    x0, y0, x1, y1 = box
    area = (
        math.floor(x0) - PART_MARGIN,
        math.floor(y0) - PART_MARGIN,
        math.ceil(x1) + PART_MARGIN + 1,
        math.ceil(y1) + PART_MARGIN + 1,
    )
    kept = kept_part(key)
    if kept:
        image.paste(kept[0], area[:2])
        return
    draw_it()
    kept.append(image.crop(area))
