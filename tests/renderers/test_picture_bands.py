"""Table pictures deflated by the band (`bot/picture_bands.py`) with the table's palette kept
from move to move (`bot/render.py: Palette`): a worker that drew the table's last move and one
that drew nothing write the same bytes, the PNG decodes (zlib checks each stream's Adler-32)
to the drawing within test_encoding's tolerance, and a warm worker deflates only the bands a
move changed."""

from __future__ import annotations

import io
import random
import zlib
from functools import cache
from typing import Any

import pytest
from PIL import Image, ImageDraw

from meeple_hall import games, renderers
from meeple_hall.bot import picture_bands
from meeple_hall.bot.picture_bands import BAND_ROWS, BandCache, adler32_combine
from meeple_hall.bot.render import (
    LARGE_PICTURE,
    SMALLER_LEVEL,
    ZLIB_LEVEL,
    Palette,
    flat_png,
    palette_png,
    png_bytes,
    to_palette,
)
from meeple_hall.games.testing import random_game
from tests.renderers.test_encoding import MEAN_ERROR, P99_ERROR, P999_ERROR, REAL_GAMES, errors

MOVES = 6


@cache
def consecutive_views(game_id: str) -> tuple[dict[str, Any], ...]:
    """Spectator views of MOVES consecutive moves from the middle of a random 3-player game."""
    engine = games.get(game_id)
    states = random_game(engine, 3, 7)
    middle = len(states) // 2
    return tuple(engine.view(s, None) for s in states[middle : middle + MOVES])


def idat(data: bytes) -> bytes:
    """The PNG's one IDAT chunk's data."""
    start = data.index(b"IDAT") + 4
    return data[start : start + int.from_bytes(data[start - 8 : start - 4], "big")]


def whole_picture_png(image: Image.Image) -> bytes:
    """The picture mapped to its fresh palette and deflated in one piece (the encoder before
    the bands)."""
    level = SMALLER_LEVEL if image.width * image.height > LARGE_PICTURE else ZLIB_LEVEL
    return png_bytes(to_palette(image), level)


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_a_warm_worker_writes_the_bytes_of_a_cold_one_within_the_tolerance(game_id, monkeypatch):
    warm = BandCache()
    monkeypatch.setattr(picture_bands, "cache", warm)
    palette: Palette | None = None
    deflated, heights = [], []
    for view in consecutive_views(game_id):
        drawn = renderers.render(game_id, view)
        heights.append(drawn.height)
        before = warm.deflated
        sent, kept = palette_png(drawn, palette)
        deflated.append(warm.deflated - before)
        with monkeypatch.context() as cold:
            cold.setattr(picture_bands, "cache", BandCache())
            assert palette_png(drawn, palette) == (sent, kept)
        zlib.decompress(idat(sent))  # the stream's Adler-32 checked
        decoded = Image.open(io.BytesIO(sent))
        assert decoded.mode == "P" and decoded.size == drawn.size
        mean, p99, p999 = errors(drawn, decoded)
        assert mean <= MEAN_ERROR and p99 <= P99_ERROR and p999 <= P999_ERROR, (mean, p99, p999)
        palette = kept
    # the first picture deflated every band; some move changed only part of the table
    assert min(deflated[1:]) < deflated[0] == -(-heights[0] // BAND_ROWS), deflated


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_a_fresh_palette_gives_the_pixels_of_the_picture_deflated_whole(game_id):
    drawn = renderers.render(game_id, consecutive_views(game_id)[0])
    banded = Image.open(io.BytesIO(flat_png(drawn)))
    whole = Image.open(io.BytesIO(whole_picture_png(drawn)))
    assert banded.tobytes() == whole.tobytes()  # the same palette index, pixel by pixel
    assert banded.convert("RGB").tobytes() == whole.convert("RGB").tobytes()


def picture(*colours: tuple[int, int, int], height: int = 150) -> Image.Image:
    """A linen picture with a rectangle of each colour, over several bands."""
    drawn = Image.new("RGB", (200, height), (245, 239, 226))
    draw = ImageDraw.Draw(drawn)
    for k, colour in enumerate(colours):
        draw.rectangle((10 + 40 * k, 10, 40 + 40 * k, height - 10), fill=colour)
    return drawn


def test_a_table_keeps_its_palette_while_it_holds_every_flat_colour():
    red, blue, green = (200, 60, 50), (50, 100, 190), (60, 150, 80)
    first = Palette.choose(picture(red, blue))
    assert Palette.choose(picture(red), first) is first  # blue gone: kept
    with_green = Palette.choose(picture(red, green), first)  # green new: a fresh palette
    assert with_green is not first
    assert {red, green, blue} <= set(zip(*[iter(with_green.colours)] * 3, strict=True))
    assert Palette.choose(picture(red, blue), with_green) is with_green  # blue was kept


def test_a_band_changed_alone_is_the_only_one_deflated_again():
    bands = BandCache()
    drawn = picture((200, 60, 50), height=5 * BAND_ROWS)
    palette = Palette.choose(drawn)
    stream = picture_bands.palette_stream(drawn, palette.channels(), ZLIB_LEVEL, bands)
    assert bands.deflated == 5 and zlib.decompress(stream)
    ImageDraw.Draw(drawn).rectangle(
        (60, 2 * BAND_ROWS + 4, 70, 2 * BAND_ROWS + 8), fill=(200, 60, 50)
    )
    again = picture_bands.palette_stream(drawn, palette.channels(), ZLIB_LEVEL, bands)
    # the changed band alone: its last CONTEXT_ROWS rows, the next band's context, are not
    assert bands.deflated == 5 + 1 and bands.found == 4
    fresh = picture_bands.palette_stream(drawn, palette.channels(), ZLIB_LEVEL, BandCache())
    assert again == fresh


def test_the_cache_drops_the_least_recently_used_bands_beyond_its_bytes():
    bands = BandCache(limit=3 * (100 + picture_bands.ENTRY_OVERHEAD))
    for key in range(4):
        bands.put((key,), picture_bands.Segment(bytes(100), 1, 0))
    assert bands.get((0,)) is None and bands.get((3,)) is not None
    assert bands.size == 3 * (100 + picture_bands.ENTRY_OVERHEAD)


def test_adler32_combine_is_zlib_s():
    rng = random.Random(11)
    for first_length, second_length in ((0, 5), (7, 0), (1000, 70_000), (65_521, 65_522)):
        first, second = rng.randbytes(first_length), rng.randbytes(second_length)
        combined = adler32_combine(zlib.adler32(first), zlib.adler32(second), second_length)
        assert combined == zlib.adler32(first + second)


def test_the_zlib_header_is_zlib_s_for_each_level():
    for level in range(10):
        assert picture_bands.zlib_header(level) == zlib.compress(b"", level)[:2]
