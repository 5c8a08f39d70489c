"""A tournament's podium (issue 28, item 5): the best three (or fewer) on steps of gold,
silver and bronze, each with their name and tournament points, a trophy over the winner.

Like every picture it holds no words of the bot's: names (a player's own, drawn in the
reader's glyph shapes, `palette.draw_text`) and numbers only. It reads on a phone: Discord
shows it about 400 px wide, where a name's letters stay near 10 px high.

    render_podium([Finisher("Ada", "18.5"), Finisher("王小明", "16")], language="zh-TW")
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from meeple_hall.renderers.palette import (
    BACKGROUND,
    INK,
    MUTED,
    SEAT_COLOURS,
    draw_text,
    text_length,
)

WIDTH, HEIGHT = 720, 460
MARGIN = 24
COLUMN = (WIDTH - 2 * MARGIN) // 3
FLOOR = HEIGHT - 30  # where the steps stand
STEP_TOPS = {1: 200, 2: 262, 3: 312}  # a step's top edge by place
# left to right: second, first, third
COLUMN_OF = {2: 0, 1: 1, 3: 2}
MEDALS = {
    1: (222, 172, 48),  # gold
    2: (168, 172, 180),  # silver
    3: (190, 120, 70),  # bronze
}
NAME_SIZES = (30, 27, 24)  # a long name steps down before it is clipped
POINTS_SIZE = 26
PLACE_SIZE = 64
GAP = 10  # between a step's top and the points above it


@dataclass(frozen=True)
class Finisher:
    name: str  # the player's display name
    points: str  # tournament points as the standings show them (standings.points_text)


def render_podium(finishers: Sequence[Finisher], language: str = "en") -> Image.Image:
    """The podium of `finishers`, best first (the first three are drawn; at least one);
    `language` is the reader's, which picks the glyph shapes of the names."""
    if not finishers:
        raise ValueError("a podium needs at least one finisher")
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    _confetti(draw)
    draw.line((MARGIN, FLOOR, WIDTH - MARGIN, FLOOR), fill=MUTED, width=3)
    for place, finisher in enumerate(finishers[:3], start=1):
        _step(draw, place, finisher, language)
    _trophy(draw, _centre(1), STEP_TOPS[1] - 162)
    return image


def _centre(place: int) -> int:
    return MARGIN + COLUMN * COLUMN_OF[place] + COLUMN // 2


def _step(draw: ImageDraw.ImageDraw, place: int, finisher: Finisher, language: str) -> None:
    """One step with its place number, the points above it and the name above them."""
    x, top = _centre(place), STEP_TOPS[place]
    left, right = x - COLUMN // 2 + 8, x + COLUMN // 2 - 8
    draw.rounded_rectangle((left, top, right, FLOOR), radius=10, fill=MEDALS[place])
    draw.rectangle((left, FLOOR - 10, right, FLOOR), fill=MEDALS[place])  # square feet
    draw.line((left + 10, top + 6, right - 10, top + 6), fill=_lighter(MEDALS[place]), width=3)
    draw_text(draw, (x, top + 52), str(place), size=PLACE_SIZE, fill=INK, anchor="mm")
    points_y = top - GAP
    draw_text(draw, (x, points_y), finisher.points, size=POINTS_SIZE, fill=MUTED, anchor="md")
    name, size = fit_name(finisher.name, COLUMN - 16, language)
    name_y = points_y - POINTS_SIZE - 12
    draw_text(draw, (x, name_y), name, size=size, fill=INK, language=language, anchor="md")


def fit_name(name: str, width: float, language: str) -> tuple[str, int]:
    """The name and size to draw it in `width`: the largest size it fits at, else the
    smallest, clipped with an ellipsis."""
    for size in NAME_SIZES:
        if text_length(name, size, language) <= width:
            return name, size
    size = NAME_SIZES[-1]
    while name and text_length(name + "…", size, language) > width:
        name = name[:-1]
    return name.rstrip() + "…", size


def _trophy(draw: ImageDraw.ImageDraw, x: int, top: int) -> None:
    """A cup with two handles on a stem and a base, over the winner's name."""
    gold, dark = MEDALS[1], (170, 124, 30)
    draw.ellipse((x - 40, top + 4, x - 14, top + 34), outline=dark, width=5)  # handles
    draw.ellipse((x + 14, top + 4, x + 40, top + 34), outline=dark, width=5)
    draw.pieslice((x - 30, top - 30, x + 30, top + 50), 0, 180, fill=gold)  # the bowl
    draw.rectangle((x - 30, top, x + 30, top + 10), fill=gold)
    draw.rectangle((x - 5, top + 48, x + 5, top + 60), fill=dark)  # stem
    draw.rounded_rectangle((x - 20, top + 58, x + 20, top + 68), radius=3, fill=dark)
    draw.line((x - 16, top + 6, x - 8, top + 30), fill=_lighter(gold), width=3)  # a shine


def _confetti(draw: ImageDraw.ImageDraw) -> None:
    """The same few flecks in the seats' colours every time, along the top (above every
    name, around the trophy)."""
    scatter = random.Random(28)
    for _ in range(36):
        x, y = scatter.uniform(MARGIN, WIDTH - MARGIN), scatter.uniform(12, 96)
        if abs(x - _centre(1)) < 70:
            continue  # the trophy's place
        w, h = scatter.uniform(4, 9), scatter.uniform(8, 14)
        colour = _paler(scatter.choice(SEAT_COLOURS))
        draw.rectangle((x, y, x + w, y + h), fill=colour)


def _lighter(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    r, g, b = colour
    return (min(255, r + 35), min(255, g + 35), min(255, b + 35))


def _paler(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Halfway to the background: flecks that stay behind the names."""
    (r, g, b), (br, bg, bb) = colour, BACKGROUND
    return ((r + br) // 2, (g + bg) // 2, (b + bb) // 2)
