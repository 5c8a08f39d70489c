"""One ring for the four games' decision pictures (issue 29 item 1): a line in palette.MARK
with an INK rim each side, round a hexagon (pointy-topped, as every game's hexes), a box
(rounded) or an ellipse; the games say only where their rings go and how wide.

Rings never merge: where two rings drawn together would touch or overlap (neighbouring
tiles, members standing close), `apart` draws them smaller, each inset towards its own
centre just enough to leave a gap between their rims, so each stays a closed outline a
player can count and match. Rings that touch nothing are drawn as asked.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Literal

from PIL import ImageDraw

from meeple_hall.renderers.palette import INK, MARK

COS30 = math.cos(math.radians(30))
GAP = 1.0  # px between two rings' outer rims at least (their MARK lines: 2 rims + this apart)
LEAST = 0.45  # a ring is never drawn smaller than this share of its size as asked
HEX_NORMALS = tuple(
    (math.cos(math.radians(a)), math.sin(math.radians(a))) for a in (0, 60, 120)
)  # the edge normals of a pointy-topped hexagon (corners at -30 + 60k degrees)

Shape = Literal["hex", "box", "oval"]


@dataclass(frozen=True)
class Ring:
    """A ring: `shape`, its outer edge (the rim's) about (x0, y0, x1, y1), its MARK line
    `width` wide inside a rim `rim` wide (INK, each side); a box's corners `radius` round;
    a hexagon's line along its corners, centred on them (x0, y0: its centre; x1 = y1: the
    corners' radius; `hexagon`), its corners rounded by a disc each (Pillow's curved joint
    looks the same at these widths and takes four times as long)."""

    shape: Shape
    x0: float  # a hexagon: its centre (x0, y0) and its corners' radius (x1, y1 the same)
    y0: float
    x1: float
    y1: float
    width: int
    rim: float
    radius: float = 0.0
    ink: int = 0  # the rim's whole width where not width + 2 * rim (0: that)
    rounder: float = 0.0  # the MARK line's corners this much less round than the rim's

    @property
    def centre(self) -> tuple[float, float]:
        if self.shape == "hex":
            return self.x0, self.y0
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2

    def reach(self) -> float:
        """A hexagon's outer apothem (its corners' radius times cos 30, plus half its ink),
        a circle's outer radius, a box's: half its smaller side."""
        if self.shape == "hex":
            return self.x1 * COS30 + self.ink_width() / 2
        return min((self.x1 - self.x0) / 2, (self.y1 - self.y0) / 2)

    def ink_width(self) -> int:
        return self.ink or round(self.width + 2 * self.rim)

    def inset(self, d: float) -> Ring:
        """The ring drawn `d` px further in all round (a hexagon: its edges)."""
        if d <= 0:
            return self
        if self.shape == "hex":
            r = self.x1 - d / COS30  # the corners move 1/cos30 as far as the edges
            return replace(self, x1=r, y1=r)
        return replace(
            self,
            x0=self.x0 + d,
            y0=self.y0 + d,
            x1=self.x1 - d,
            y1=self.y1 - d,
            radius=max(0.0, self.radius - d),
        )

    def draw(self, draw: ImageDraw.ImageDraw, rim: bool) -> None:
        """Its INK rim (`rim`) or its MARK line over it."""
        colour = INK if rim else MARK
        width = self.ink_width() if rim else self.width
        if self.shape == "hex":
            cx, cy, r = self.x0, self.y0, self.x1
            corners = [
                (
                    cx + r * math.cos(math.radians(60 * i - 30)),
                    cy + r * math.sin(math.radians(60 * i - 30)),
                )
                for i in range(6)
            ]
            draw.line([*corners, corners[0]], fill=colour, width=width)
            half = width / 2 - 0.5
            for x, y in corners:
                draw.ellipse((x - half, y - half, x + half, y + half), fill=colour)
            return
        d = 0.0 if rim else self.rim  # Pillow draws an outline inwards from the box
        box = (self.x0 + d, self.y0 + d, self.x1 - d, self.y1 - d)
        if self.shape == "oval":
            draw.ellipse(box, outline=colour, width=width)
        else:
            radius = self.radius if rim else max(0.0, self.radius - self.rounder)
            draw.rounded_rectangle(box, radius, outline=colour, width=width)


def hexagon(cx: float, cy: float, r: float, width: int, rim: float, ink: int = 0) -> Ring:
    """A ring whose line runs along a pointy-topped hexagon's corners `r` from (cx, cy)."""
    return Ring("hex", cx, cy, r, r, width, rim, ink=ink)


def box(
    outer: tuple[float, float, float, float],
    width: int,
    rim: float,
    radius: float,
    ink: int = 0,
    rounder: float = 0.0,
) -> Ring:
    """A rounded box ring, its rim's outer edge `outer`."""
    return Ring("box", *outer, width, rim, radius=radius, ink=ink, rounder=rounder)


def oval(outer: tuple[float, float, float, float], width: int, rim: float) -> Ring:
    """An ellipse ring, its rim's outer edge `outer`."""
    return Ring("oval", *outer, width, rim)


def overlap(a: Ring, b: Ring) -> float:
    """How far the two rings' outer edges reach into each other, less GAP (> 0: they would
    touch or cross, and each must come this far in, halved, to leave GAP between them);
    ≤ 0 where they stand apart."""
    (ax, ay), (bx, by) = a.centre, b.centre
    dx, dy = bx - ax, by - ay
    if a.shape == b.shape == "hex":
        # separating axes: two hexagons of one orientation are apart along an edge normal
        sep = max(abs(dx * nx + dy * ny) for nx, ny in HEX_NORMALS)
        return a.reach() + b.reach() + GAP - sep
    if a.shape == b.shape == "oval" and _round(a) and _round(b):
        return a.reach() + b.reach() + GAP - math.hypot(dx, dy)
    # boxes (or shapes of two kinds: their boxes): apart along x or along y
    ax0, ay0, ax1, ay1 = _extent(a)
    bx0, by0, bx1, by1 = _extent(b)
    gap_x = max(bx0 - ax1, ax0 - bx1)
    gap_y = max(by0 - ay1, ay0 - by1)
    return GAP - max(gap_x, gap_y)


def _round(ring: Ring) -> bool:
    return abs((ring.x1 - ring.x0) - (ring.y1 - ring.y0)) < 1


def _extent(ring: Ring) -> tuple[float, float, float, float]:
    if ring.shape != "hex":
        return ring.x0, ring.y0, ring.x1, ring.y1
    cx, cy = ring.centre
    half_w, half_h = ring.reach(), ring.x1 + ring.ink_width() / 2
    return cx - half_w, cy - half_h, cx + half_w, cy + half_h


def apart(rings: Sequence[Ring]) -> list[Ring]:
    """`rings`, each one that would touch another drawn inset (`Ring.inset`) half the
    overlap of its worst neighbour, so no two touch; never below LEAST of its size (a
    ring's line thinned where that is not enough)."""
    out = list(rings)
    for _ in range(3):  # insetting one pair can only part the others more: a few rounds
        need = [0.0] * len(out)
        for (i, a), (j, b) in combinations(enumerate(out), 2):
            o = overlap(a, b)
            if o > 0:
                need[i] = max(need[i], o / 2 + 0.5)
                need[j] = max(need[j], o / 2 + 0.5)
        if not any(need):
            break
        out = [
            _inset(ring, d, original) for ring, d, original in zip(out, need, rings, strict=True)
        ]
    return out


def _inset(ring: Ring, d: float, original: Ring) -> Ring:
    least = original.reach() * LEAST
    d = min(d, max(0.0, ring.reach() - least))
    return ring.inset(d)


def draw_rings(draw: ImageDraw.ImageDraw, rings: Sequence[Ring]) -> list[Ring]:
    """`rings` apart (`apart`), every rim drawn first then every line (a ring beside
    another stays whole); the rings as drawn."""
    drawn = apart(rings)
    for rim in (True, False):
        for ring in drawn:
            ring.draw(draw, rim)
    return drawn
