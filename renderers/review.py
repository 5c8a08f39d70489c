"""A game review's pictures (bot/review.py): each seat's estimated standing move by move
with the turning points marked, and where each seat's final points came from.

Drawn at 800 px wide so that they read on a phone, where Discord shows them about 400 px
wide: lines 5 px, numbers and names at 22–26 px (11–13 px there). Words are the caller's,
already in the reader's language (names, scoring categories); `language` picks their glyph
shapes. Seats keep the colours their game's table picture gives them.

    render_chart([Series("Ada", colour, [(3, 1.5), (7, -2.0)])], [Turn(7, -2.0, colour, 1)])
    render_breakdown([Bar("Ada", colour, [("Buildings", 12), ("Gold", 3)])])
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from meeple_hall.renderers.palette import (
    BACKGROUND,
    INK,
    MUTED,
    SEAT_COLOURS,
    draw_text,
    font,
    text_length,
)

WIDTH = 800
CHART_HEIGHT = 460
MARGIN = 24
AXIS_LEFT = 78  # room for the numbers of the vertical axis
LEGEND_HEIGHT = 44
NUMBER_SIZE = 22
NAME_SIZE = 24
LINE_WIDTH = 5
GRID = (222, 214, 198)
TURN_RADIUS = 15
BAR_HEIGHT = 44
BAR_GAP = 26
# where each game's table picture keeps its seat colours (renderers/<game>.py)
SEAT_COLOURS_OF = {"keyflower": "SEAT", "burgundy": "PLAYER_COLOURS", "village": "SEATS"}
CATEGORY_COLOURS = (
    (86, 140, 200),
    (222, 150, 60),
    (110, 170, 90),
    (200, 90, 90),
    (150, 110, 190),
    (90, 180, 180),
    (210, 180, 70),
    (170, 120, 90),
    (120, 120, 120),
    (230, 130, 170),
)


@dataclass(frozen=True)
class Series:
    name: str
    colour: tuple[int, int, int]
    points: Sequence[tuple[int, float]]  # (move number, estimated margin)


@dataclass(frozen=True)
class Turn:
    """A turning point: a seat's biggest swings, numbered for the text that tells them."""

    move: int
    value: float
    colour: tuple[int, int, int]
    number: int


@dataclass(frozen=True)
class Bar:
    name: str
    colour: tuple[int, int, int]
    parts: Sequence[tuple[str, int]]  # (category in the reader's words, points)


def seat_colour(game_id: str, seat: int) -> tuple[int, int, int]:
    """The seat's colour on its game's table picture."""
    from importlib import import_module

    colours: Sequence[tuple[int, int, int]] = SEAT_COLOURS
    name = SEAT_COLOURS_OF.get(game_id)
    if name is not None:
        colours = getattr(import_module(f"meeple_hall.renderers.{game_id}"), name)
    return tuple(colours[seat % len(colours)])  # type: ignore[return-value]


def render_chart(
    series: Sequence[Series], turns: Sequence[Turn], language: str = "en"
) -> Image.Image:
    """Each seat's estimated margin (vertical, points; 0 is level with the best rival) by
    move (horizontal), with the turning points circled and numbered."""
    image = Image.new("RGB", (WIDTH, CHART_HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    values = [v for s in series for _, v in s.points] + [0.0]
    moves = [m for s in series for m, _ in s.points] or [0]
    low, high = _nice_range(min(values), max(values))
    first, last = min(moves), max(max(moves), min(moves) + 1)
    box = (AXIS_LEFT, MARGIN, WIDTH - MARGIN, CHART_HEIGHT - MARGIN - LEGEND_HEIGHT - 30)

    def at(move: float, value: float) -> tuple[float, float]:
        x = box[0] + (move - first) / (last - first) * (box[2] - box[0])
        y = box[3] - (value - low) / (high - low) * (box[3] - box[1])
        return x, y

    _axes(draw, box, low, high, first, last, at)
    for s in series:
        line = [at(m, v) for m, v in s.points]
        if len(line) > 1:
            draw.line(line, fill=INK, width=LINE_WIDTH + 3, joint="curve")
            draw.line(line, fill=s.colour, width=LINE_WIDTH, joint="curve")
        for x, y in line[-1:]:
            draw.ellipse((x - 6, y - 6, x + 6, y + 6), fill=s.colour, outline=INK, width=2)
    for turn in turns:
        x, y = at(turn.move, turn.value)
        r = TURN_RADIUS
        draw.ellipse((x - r, y - r, x + r, y + r), fill=turn.colour, outline=INK, width=3)
        draw.text((x, y), str(turn.number), fill=_ink_on(turn.colour), font=font(20), anchor="mm")
    _legend(draw, series, language, CHART_HEIGHT - MARGIN - LEGEND_HEIGHT // 2)
    return image


def _nice_range(low: float, high: float) -> tuple[float, float]:
    """The vertical range, on round numbers, with room above and below."""
    span = max(high - low, 4.0)
    step = _step(span)
    return math.floor(low / step) * step - step / 2, math.ceil(high / step) * step + step / 2


def _step(span: float) -> float:
    raw = span / 5
    scale = 10 ** math.floor(math.log10(raw))
    return next(m * scale for m in (1, 2, 5, 10) if m * scale >= raw)


def _axes(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    low: float,
    high: float,
    first: int,
    last: int,
    at: Callable[[float, float], tuple[float, float]],
) -> None:
    """Grid lines at round values, a strong one at 0, move numbers along the bottom."""
    step = _step(high - low)
    value = math.ceil(low / step) * step
    while value <= high:
        _, y = at(first, value)
        zero = value == 0
        draw.line((box[0], y, box[2], y), fill=INK if zero else GRID, width=3 if zero else 1)
        number = "0" if zero else f"{value:+g}"
        draw.text((box[0] - 10, y), number, fill=INK, font=font(NUMBER_SIZE), anchor="rm")
        value += step
    draw.rectangle(box, outline=MUTED, width=2)
    move_step = max(1, int(_step(last - first)))
    move = math.ceil(first / move_step) * move_step
    while move <= last:
        x, _ = at(move, low)
        draw.text((x, box[3] + 6), str(move), fill=MUTED, font=font(NUMBER_SIZE), anchor="ma")
        move += move_step


def _legend(draw: ImageDraw.ImageDraw, series: Sequence[Series], language: str, y: float) -> None:
    x = float(AXIS_LEFT)
    for s in series:
        draw.rectangle((x, y - 8, x + 30, y + 8), fill=s.colour, outline=INK, width=2)
        x += 40
        name = _fit(s.name, NAME_SIZE, language, 220)
        draw_text(draw, (x, y), name, size=NAME_SIZE, fill=INK, language=language, anchor="lm")
        x += text_length(name, NAME_SIZE, language) + 30


def _fit(text: str, size: int, language: str, width: float) -> str:
    while len(text) > 1 and text_length(text, size, language) > width:
        text = text[:-2] + "…"
    return text


def _ink_on(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    return INK if sum(colour) > 450 else (255, 255, 255)


def render_breakdown(bars: Sequence[Bar], language: str = "en") -> Image.Image:
    """Each seat's final points as a bar cut by scoring category (the same colour for a
    category on every bar, with a legend), the total at its end."""
    labels = list(dict.fromkeys(label for bar in bars for label, points in bar.parts if points > 0))
    colour_of = {
        label: CATEGORY_COLOURS[i % len(CATEGORY_COLOURS)] for i, label in enumerate(labels)
    }
    legend_rows = _legend_rows(labels, language)
    height = MARGIN * 2 + len(bars) * (BAR_HEIGHT + BAR_GAP + NAME_SIZE + 8) + len(legend_rows) * 34
    image = Image.new("RGB", (WIDTH, max(height, 160)), BACKGROUND)
    draw = ImageDraw.Draw(image)
    totals = [sum(max(p, 0) for _, p in bar.parts) for bar in bars]
    widest = max([*totals, 1])
    full = WIDTH - 2 * MARGIN - 70
    y = float(MARGIN)
    for bar, total in zip(bars, totals, strict=True):
        draw.rectangle((MARGIN, y + 4, MARGIN + 18, y + 22), fill=bar.colour, outline=INK, width=2)
        name = _fit(bar.name, NAME_SIZE, language, WIDTH - 2 * MARGIN - 30)
        draw_text(draw, (MARGIN + 28, y), name, size=NAME_SIZE, fill=INK, language=language)
        y += NAME_SIZE + 8
        x = float(MARGIN)
        for label, points in bar.parts:
            if points <= 0:
                continue
            w = points / widest * full
            draw.rectangle(
                (x, y, x + w, y + BAR_HEIGHT), fill=colour_of[label], outline=INK, width=2
            )
            if font(NUMBER_SIZE).getlength(str(points)) + 6 < w:
                ink = _ink_on(colour_of[label])
                middle = (x + w / 2, y + BAR_HEIGHT / 2)
                draw.text(middle, str(points), fill=ink, font=font(NUMBER_SIZE), anchor="mm")
            x += w
        draw.text(
            (x + 10, y + BAR_HEIGHT / 2), str(total), fill=INK, font=font(NAME_SIZE), anchor="lm"
        )
        y += BAR_HEIGHT + BAR_GAP
    for row in legend_rows:
        x = float(MARGIN)
        for label in row:
            draw.rectangle((x, y + 4, x + 22, y + 26), fill=colour_of[label], outline=INK, width=2)
            at = (x + 30, y + 15)
            draw_text(draw, at, label, size=NUMBER_SIZE, fill=INK, language=language, anchor="lm")
            x += 30 + text_length(label, NUMBER_SIZE, language) + 24
        y += 34
    return image


def _legend_rows(labels: Sequence[str], language: str) -> list[list[str]]:
    """The categories' legend, cut into rows that fit the picture's width."""
    rows: list[list[str]] = []
    width = 0.0
    for label in labels:
        need = 30 + text_length(label, NUMBER_SIZE, language) + 24
        if not rows or width + need > WIDTH - 2 * MARGIN:
            rows.append([])
            width = 0.0
        rows[-1].append(label)
        width += need
    return rows
