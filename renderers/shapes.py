"""Shapes that tell pieces apart without colour, for colour-blind players: a game gives each
of its kinds (worker colours, coffees, families) one of these, drawn about as large as a disc
of radius r."""

from __future__ import annotations

import math

from PIL import ImageDraw

from meeple_hall.renderers.palette import INK

Colour = tuple[int, int, int]

# Corners for r = 1 about (0, 0), y downwards; "circle" is drawn as an ellipse.
UNIT: dict[str, tuple[tuple[float, float], ...]] = {
    "square": ((-0.9, -0.9), (0.9, -0.9), (0.9, 0.9), (-0.9, 0.9)),
    "triangle": ((0.0, -1.25), (1.2, 0.85), (-1.2, 0.85)),
    "diamond": ((0.0, -1.2), (1.2, 0.0), (0.0, 1.2), (-1.2, 0.0)),
    "hourglass": ((-0.95, -0.95), (0.95, -0.95), (-0.95, 0.95), (0.95, 0.95)),
    "hexagon": tuple(
        (1.08 * math.cos(a), 1.08 * math.sin(a))
        for a in (math.pi / 6 + k * math.pi / 3 for k in range(6))
    ),
    "shield": ((-1.02, -1.02), (1.02, -1.02), (1.02, 0.2), (0.0, 1.17), (-1.02, 0.2)),
    "house": ((0.0, -1.17), (1.02, -0.2), (1.02, 1.02), (-1.02, 1.02), (-1.02, -0.2)),
}


def corners(
    shape: str, x: float, y: float, r: float, sx: float = 1.0, sy: float = 1.0
) -> list[tuple[float, float]]:
    """The shape's corners about (x, y), stretched by sx and sy (a lying worker is flat)."""
    return [(x + px * r * sx, y + py * r * sy) for px, py in UNIT[shape]]


def draw_shape(
    draw: ImageDraw.ImageDraw,
    shape: str,
    x: float,
    y: float,
    r: float,
    *,
    fill: Colour | None,
    outline: Colour | None = INK,
    width: int = 1,
    sx: float = 1.0,
    sy: float = 1.0,
) -> None:
    if shape == "circle":
        box = (x - r * sx, y - r * sy, x + r * sx, y + r * sy)
        draw.ellipse(box, fill=fill, outline=outline, width=width)
    else:
        draw.polygon(corners(shape, x, y, r, sx, sy), fill=fill, outline=outline, width=width)
