"""Table pictures are sent as 256-colour PNGs (`bot/render.py: flat_png`): they decode to the
picture drawn within a palette's tolerance, and the four games' busiest tables stay under
60 KiB.

The tolerance, per colour channel (0–255) over all pixels of the picture: on average at
most 0.5 off (measured 0.01–0.06 over 1–6 players; it was 1.5, and 1.5–1.7 was measured on
Burgundy at 3 players before the flat colours were looked up at their cell's corner, see
`to_palette`); 99 % of values at most 4 off (the flat areas, which are nearly all of a
table: their colours stay as drawn); 99.9 % at most 24 off (anti-aliased edges, which take
the nearest of the 256 colours)."""

from __future__ import annotations

import io
import random
from functools import cache
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from meeple_hall import games, renderers
from meeple_hall.bot import picture_bands
from meeple_hall.bot.render import MAX_PICTURE_BYTES, flat_png, png_bytes
from meeple_hall.games.testing import random_game

REAL_GAMES = ("burgundy", "coffee", "keyflower", "village")
MEAN_ERROR = 0.5
P99_ERROR = 4
P999_ERROR = 24


@cache
def busiest_views(game_id: str) -> tuple[dict[str, Any], ...]:
    """Spectator views of a random 4-player game: half-way and at the end, when most is on
    the table."""
    engine = games.get(game_id)
    states = random_game(engine, 4, 3)
    return tuple(engine.view(s, None) for s in (states[len(states) // 2], states[-1]))


def decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image


def error_quantile(histogram: list[int], share: float) -> int:
    """The smallest error that `share` of the channel values are within."""
    total, seen = sum(histogram), 0
    for error, count in enumerate(histogram):
        seen += count
        if seen >= share * total:
            return error
    return len(histogram) - 1


def errors(drawn: Image.Image, sent: Image.Image) -> tuple[float, int, int]:
    """Mean, 99th and 99.9th percentile of the channel errors."""
    bands = ImageChops.difference(drawn, sent.convert("RGB")).histogram()
    histogram = [sum(bands[error + 256 * band] for band in range(3)) for error in range(256)]
    mean = sum(error * count for error, count in enumerate(histogram)) / sum(histogram)
    return mean, error_quantile(histogram, 0.99), error_quantile(histogram, 0.999)


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_table_pictures_decode_to_the_drawing_within_the_palette_tolerance(game_id):
    for view in busiest_views(game_id):
        drawn = renderers.render(game_id, view)
        sent = decoded(flat_png(drawn))
        assert sent.mode == "P" and sent.size == drawn.size
        mean, p99, p999 = errors(drawn, sent)
        assert mean <= MEAN_ERROR and p99 <= P99_ERROR and p999 <= P999_ERROR, (mean, p99, p999)


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_the_busiest_table_pictures_are_under_60_kib(game_id):
    for view in busiest_views(game_id):
        size = len(flat_png(renderers.render(game_id, view)))
        assert size <= MAX_PICTURE_BYTES == 60 * 1024, f"{size / 1024:.0f} KiB"


def test_a_picture_of_few_colours_is_sent_exactly():
    drawn = Image.new("RGB", (300, 200), (245, 239, 226))
    draw = ImageDraw.Draw(drawn)
    for k, colour in enumerate(((200, 60, 50), (50, 100, 190), (60, 150, 80), (52, 46, 40))):
        draw.rectangle((20 + 60 * k, 40, 70 + 60 * k, 160), fill=colour)
    sent = decoded(flat_png(drawn))
    assert sent.mode == "P" and sent.convert("RGB").tobytes() == drawn.tobytes()


@pytest.mark.parametrize("mode", ("L", "P", "RGB"))
def test_each_row_is_stored_whole(mode):
    """Rows of a byte a pixel are laid out apart from the others (`_unfiltered_rows`): an
    odd width and random pixels come back as they were."""
    rng = random.Random(5)
    bands = len(mode)
    drawn = Image.frombytes(mode, (37, 11), rng.randbytes(37 * 11 * bands))
    if mode == "P":
        drawn.putpalette(rng.randbytes(768))
    sent = decoded(png_bytes(drawn))
    assert sent.mode == mode and sent.tobytes() == drawn.tobytes()
    if mode == "P":
        assert sent.getpalette() == drawn.getpalette()


def test_a_flat_colour_keeps_its_pixels_beside_a_shade_nearer_its_cell_s_corner():
    """Pillow looks a pixel up by its 4×4×4 cell's corner: (250, 247, 239) is looked up as
    (248, 244, 236), which (247, 243, 235), of another cell, is nearer to. Both are flat
    colours here, and each keeps its own pixels."""
    linen, shade = (250, 247, 239), (247, 243, 235)
    drawn = Image.new("RGB", (200, 120), linen)
    ImageDraw.Draw(drawn).rectangle((20, 20, 80, 80), fill=shade)
    sent = decoded(flat_png(drawn))
    assert sent.convert("RGB").tobytes() == drawn.tobytes()


def test_a_picture_with_transparency_is_sent_whole():
    drawn = Image.new("RGBA", (40, 30), (0, 0, 0, 0))
    ImageDraw.Draw(drawn).ellipse((5, 5, 35, 25), fill=(200, 60, 50, 180))
    sent = decoded(flat_png(drawn))
    assert sent.mode == "RGBA" and sent.tobytes() == drawn.tobytes()


def test_the_tolerance_catches_a_shifted_colour():
    drawn = Image.new("RGB", (100, 100), (245, 239, 226))
    shifted = Image.new("RGB", (100, 100), (245, 239, 216))
    assert errors(drawn, shifted)[1] > P99_ERROR


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_a_table_picture_s_pixels_are_read_in_place(game_id, monkeypatch):
    """`picture_bands.pixel_bytes`: the bands are known by the picture's own memory (Pillow's
    Arrow export, 4 bytes a pixel), not a copy of it (a pixel changed is seen), the same
    bytes as a copy (`tobytes`) padding aside; where Pillow exports nothing the picture is
    copied, and the PNG is the same."""
    drawn = renderers.render(game_id, busiest_views(game_id)[0])
    with picture_bands.pixel_bytes(drawn) as (raw, depth):
        assert depth == 4 and raw.tobytes() == drawn.tobytes("raw", "RGBX")
        drawn.putpixel((0, 0), (1, 2, 3))
        assert raw[:3].tobytes() == bytes((1, 2, 3))
    in_place = flat_png(drawn)
    monkeypatch.setattr(picture_bands, "_exported", lambda image: None)
    monkeypatch.setattr(picture_bands, "cache", picture_bands.BandCache())
    with picture_bands.pixel_bytes(drawn) as (raw, depth):
        assert depth == 3 and raw.tobytes() == drawn.tobytes()
    assert flat_png(drawn) == in_place
