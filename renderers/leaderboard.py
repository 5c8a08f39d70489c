"""Ranked lists as pictures: leaderboards, tournament standings and a rating history, in
the colours and type of the table pictures. The same rows are always sent as text too."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from meeple_hall.renderers.palette import (
    BACKGROUND,
    INK,
    MUTED,
    SEAT_COLOURS,
    draw_text,
    text_length,
)

ROW_HEIGHT = 34
HEADER_HEIGHT = 70
MARGIN = 24
SPARK_WIDTH = 140


@dataclass(frozen=True)
class Row:
    cells: tuple[str, ...]  # first cell is the place, second the name
    history: tuple[float, ...] = ()  # drawn as a sparkline
    highlight: bool = False  # the caller's own row


@dataclass(frozen=True)
class Board:
    title: str
    headers: tuple[str, ...]
    rows: tuple[Row, ...]
    widths: tuple[int, ...] = field(default=())  # pixel width per column
    language: str = "en"  # the reader's: it chooses the glyph shapes (palette.face)


def _widths(board: Board) -> tuple[int, ...]:
    if board.widths:
        return board.widths
    return (60, 260, *([110] * (len(board.headers) - 2)))


def render_board(board: Board) -> Image.Image:
    widths = _widths(board)
    sparks = any(row.history for row in board.rows)
    width = MARGIN * 2 + sum(widths) + (SPARK_WIDTH + 16 if sparks else 0)
    height = HEADER_HEIGHT + ROW_HEIGHT * (len(board.rows) + 1) + MARGIN
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    lang = board.language
    draw_text(draw, (MARGIN, 22), board.title, size=26, fill=INK, language=lang)
    y = HEADER_HEIGHT
    x = MARGIN
    for header, w in zip(board.headers, widths, strict=False):
        draw_text(
            draw,
            (x, y + ROW_HEIGHT // 2 - 2),
            header,
            size=16,
            fill=MUTED,
            language=lang,
            anchor="lm",
        )
        x += w
    draw.line((MARGIN, y + ROW_HEIGHT - 2, width - MARGIN, y + ROW_HEIGHT - 2), fill=MUTED)
    for index, row in enumerate(board.rows):
        y = HEADER_HEIGHT + ROW_HEIGHT * (index + 1)
        if row.highlight:
            draw.rectangle(
                (MARGIN - 8, y, width - MARGIN + 8, y + ROW_HEIGHT - 4), fill=(233, 222, 196)
            )
        elif index % 2:
            draw.rectangle(
                (MARGIN - 8, y, width - MARGIN + 8, y + ROW_HEIGHT - 4), fill=(239, 232, 216)
            )
        x = MARGIN
        for column, (cell, w) in enumerate(zip(row.cells, widths, strict=False)):
            colour = SEAT_COLOURS[index] if column == 0 and index < 3 else INK
            draw_text(
                draw,
                (x, y + (ROW_HEIGHT - 4) // 2),
                _fit(cell, w - 10, lang),
                size=18,
                fill=colour,
                language=lang,
                anchor="lm",
            )
            x += w
        if row.history:
            sparkline(draw, row.history, (x + 8, y + 4, x + 8 + SPARK_WIDTH, y + ROW_HEIGHT - 8))
    return image


def sparkline(
    draw: ImageDraw.ImageDraw, values: Sequence[float], box: tuple[int, int, int, int]
) -> None:
    left, top, right, bottom = box
    if len(values) == 1:
        values = (values[0], values[0])
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    points = [
        (
            left + (right - left) * i / (len(values) - 1),
            bottom - (bottom - top) * (v - low) / span,
        )
        for i, v in enumerate(values)
    ]
    draw.line(points, fill=SEAT_COLOURS[1], width=2)
    draw.ellipse(
        (points[-1][0] - 3, points[-1][1] - 3, points[-1][0] + 3, points[-1][1] + 3),
        fill=SEAT_COLOURS[0],
    )


def render_history(
    title: str,
    series: dict[str, Sequence[float]],
    labels: tuple[str, str],
    language: str = "en",
) -> Image.Image:
    """Rating over time, one line per game (x: rated games played, y: shown rating), its
    words in the glyph shapes of the reader's `language`."""
    width, height = 640, 300
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw_text(draw, (MARGIN, 16), title, size=22, fill=INK, language=language)
    box = (MARGIN + 40, 60, width - MARGIN - 150, height - 40)
    values = [v for s in series.values() for v in s] or [0.0]
    low, high = min([*values, 0.0]), max([*values, 1.0])
    span = high - low or 1.0
    draw.rectangle(box, outline=MUTED)
    small = functools.partial(draw_text, draw, size=14, fill=MUTED, language=language)
    small((box[0] - 8, box[1]), f"{high:.0f}", anchor="ra")
    small((box[0] - 8, box[3]), f"{low:.0f}", anchor="rd")
    small((box[0], box[3] + 8), labels[0])
    small((box[2], box[3] + 8), labels[1], anchor="ra")
    for index, (name, points) in enumerate(series.items()):
        colour = SEAT_COLOURS[index % len(SEAT_COLOURS)]
        seq = list(points) if len(points) > 1 else list(points) * 2
        if not seq:
            continue
        xy = [
            (
                box[0] + (box[2] - box[0]) * i / (len(seq) - 1),
                box[3] - (box[3] - box[1]) * (v - low) / span,
            )
            for i, v in enumerate(seq)
        ]
        draw.line(xy, fill=colour, width=3)
        draw_text(
            draw, (box[2] + 12, box[1] + 24 * index), name, size=16, fill=colour, language=language
        )
    return image


def _fit(text: str, width: int, language: str) -> str:
    if text_length(text, 18, language) <= width:
        return text
    while text and text_length(text + "…", 18, language) > width:
        text = text[:-1]
    return text + "…"
