"""Table pictures drawn and encoded as PNGs: what a picture worker runs (bot/render.py).

A worker process unpickles the function it is given by its module: this one's, which imports
the renderers, Pillow and zlib-ng but nothing of the bot's (no discord.py, aiohttp or store),
so that a worker starts in a fraction of the time and holds none of them
(tests/bot/test_picture_workers.py). bot/render.py gives these names to the bot's other parts.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from PIL import Image
from zlib_ng import zlib_ng

from meeple_hall import renderers
from meeple_hall.bot import picture_bands
from meeple_hall.renderers import phone


def encode_png(game_id: str, view: dict[str, Any]) -> bytes:
    return flat_png(renderers.render(game_id, view))


def encode_table(
    game_id: str, view: dict[str, Any], previous: Palette | None
) -> tuple[bytes, Palette | None]:
    """A table picture and its palette, keeping the table's `previous` one if it can."""
    return palette_png(renderers.render(game_id, view), previous)


_PNG_COLOUR_TYPES = {"L": 0, "RGB": 2, "P": 3, "RGBA": 6}
# Rows are deflated by zlib-ng (a faster zlib, same format): at level 3 in two thirds of
# zlib's time and 5-15 % smaller; at level 6 as small as zlib at 7 in half its time.
ZLIB_LEVEL = 3
# Table pictures should stay under 60 KiB. Those of more than LARGE_PICTURE pixels
# (Burgundy's and Coffee's, 1.2 million) are about 70 KiB at ZLIB_LEVEL: they are deflated
# at SMALLER_LEVEL, a fifth smaller for about 5 ms more (bench/README.md). Decided by the
# size, not by trying, so that a picture is always the same bytes and is deflated once.
MAX_PICTURE_BYTES = 60 * 1024
LARGE_PICTURE = 1_100_000
SMALLER_LEVEL = 6
# A palette is worked out from every PALETTE_STEP-th pixel of every PALETTE_STEP-th row:
# flat colours cover many pixels, so the sample holds them all at a sixteenth of the work.
PALETTE_STEP = 4
PALETTE_COLOURS = 256
# A colour of at least FLAT_SAMPLES pixels of the sample (about 64 of the picture) is a flat
# colour, which a table's next picture keeps exactly (`Palette`); a palette keeps up to
# KEPT_FLATS flat colours that its picture no longer shows.
FLAT_SAMPLES = 4
KEPT_FLATS = 128


def flat_png(image: Image.Image) -> bytes:
    """A game picture as a PNG of at most 256 colours (`Palette`): a byte a pixel instead of
    three, so it deflates in about half the time and bytes (bench/README.md, "Pictures at
    half the cost"). A picture with transparency is kept whole (`png_bytes`)."""
    return palette_png(image)[0]


def palette_png(
    image: Image.Image, previous: Palette | None = None
) -> tuple[bytes, Palette | None]:
    """`flat_png`, and its palette, which the same table's next picture keeps if it can
    (`Palette.choose`). Deflated by the band (`bot/picture_bands.py`): the bands a worker met
    in its last pictures, with the same palette, are neither mapped nor deflated again; the
    bytes are the same in any worker."""
    if image.mode != "RGB":
        return png_bytes(image), None
    large = image.width * image.height > LARGE_PICTURE
    level = SMALLER_LEVEL if large else ZLIB_LEVEL
    palette = Palette.choose(image, previous)
    colours = palette.channels()
    header = struct.pack(">IIBBBBB", image.width, image.height, 8, _PNG_COLOUR_TYPES["P"], 0, 0, 0)
    data = b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", bytes(colours)),
            _chunk(b"IDAT", picture_bands.palette_stream(image, colours, level)),
            _chunk(b"IEND", b""),
        )
    )
    return data, palette


RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Palette:
    """The colours of a picture's palette (RGB triples one after the other), and which of
    them are its flat colours (at least FLAT_SAMPLES pixels of the sample), as bytes: a bot
    keeps one for each of its tables.

    A fresh palette is the most frequent colours of a sample of the picture's pixels (the
    flat colours, then the anti-aliased edges' commonest shades; an octree's shades were no
    nearer and cost 1 ms more), the most frequent first: Pillow gives the pixels of a cell
    of 4×4×4 colours to the first of the colours looked up at that cell's corner
    (`picture_bands.mapped`), which must be the flat colour, not a shade. The commonest
    shades change from move to move (the 256th colour is seen once or twice in the sample),
    so a table's next picture keeps its last palette while that holds all of the picture's
    flat colours: the bands a move did not change are then the same bytes
    (`bot/picture_bands.py`). The picture's bytes depend on the picture and the palette it
    was given, never on a worker's memory. tests/renderers/test_encoding.py states the
    tolerance."""

    colours: bytes
    flats: bytes

    def channels(self) -> list[int]:
        return list(self.colours)

    @classmethod
    def choose(cls, image: Image.Image, previous: Palette | None = None) -> Palette:
        """`previous` if it holds every flat colour of `image` (as a flat colour or as a
        shade), else a fresh palette that also keeps `previous`'s flat colours that are not
        in the picture (up to KEPT_FLATS flat colours in all): a colour that comes and goes
        (a seat's highlight) stays."""
        counted = _sample_colours(image, ordered=False)
        flats = [rgb for count, rgb in counted if count >= FLAT_SAMPLES]
        if previous is not None and len(flats) <= PALETTE_COLOURS and previous.holds(flats):
            return previous  # most pictures of a table: nothing sorted (0.1-0.4 ms)
        counted.sort(reverse=True)
        flats = [rgb for count, rgb in counted if count >= FLAT_SAMPLES][:PALETTE_COLOURS]
        if previous is not None and previous.holds(flats):
            return previous
        gone = set(_triples(previous.flats)).difference(flats) if previous is not None else ()
        kept = sorted(gone)[: max(0, KEPT_FLATS - len(flats))]
        chosen = dict.fromkeys([*flats, *kept])
        for _, rgb in counted:
            if len(chosen) >= PALETTE_COLOURS:
                break
            chosen.setdefault(rgb)
        return cls(_packed(chosen), _packed([*flats, *kept]))

    def holds(self, colours: Iterable[RGB]) -> bool:
        """Whether every one of `colours` is among the palette's."""
        channels = iter(self.colours)
        return set(zip(channels, channels, channels, strict=True)).issuperset(colours)


def _triples(colours: bytes) -> list[RGB]:
    return [(colours[at], colours[at + 1], colours[at + 2]) for at in range(0, len(colours), 3)]


def _packed(colours: Iterable[RGB]) -> bytes:
    return bytes(channel for colour in colours for channel in colour)


def _sample_colours(image: Image.Image, ordered: bool = True) -> list[tuple[int, RGB]]:
    """The colours of every PALETTE_STEP-th pixel of every PALETTE_STEP-th row, with their
    counts, the most frequent first (`ordered`; else as Pillow counted them)."""
    width, height = image.size
    sample = image.resize(
        (max(1, width // PALETTE_STEP), max(1, height // PALETTE_STEP)),
        Image.Resampling.NEAREST,
    )
    # an RGB picture's colours are (r, g, b) tuples: sorted as they are, by count then colour
    colours = cast(list[tuple[int, RGB]], sample.getcolors(sample.width * sample.height) or [])
    return sorted(colours, reverse=True) if ordered else colours


def to_palette(image: Image.Image) -> Image.Image:
    """An RGB picture of flat colours as a "P" picture of its fresh `Palette`, each pixel
    given the nearest of its colours (`picture_bands.mapped`)."""
    colours = Palette.choose(image).channels()
    indexed = picture_bands.mapped(image, colours)
    indexed.putpalette(colours)
    return indexed


def png_bytes(image: Image.Image, level: int = ZLIB_LEVEL) -> bytes:
    """A PNG of the picture's own pixels whose rows are stored unfiltered.

    Pillow filters every row adaptively, which suits photographs; table pictures are flat
    colours, where unfiltered rows deflate both faster and smaller. zlib level 3 is as fast
    as level 1 here and a quarter smaller (bench/README.md).
    """
    image = _storable(image)
    width, height = image.size
    rows = _unfiltered_rows(image)
    header = struct.pack(">IIBBBBB", width, height, 8, _PNG_COLOUR_TYPES[image.mode], 0, 0, 0)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            *_palette_chunks(image),
            _chunk(b"IDAT", zlib_ng.compress(rows, level)),
            _chunk(b"IEND", b""),
        )
    )


def _unfiltered_rows(image: Image.Image) -> bytes:
    """The picture's rows, each after its filter byte 0 ("none"). A picture of a byte a pixel
    is pasted one column in on a picture whose first column is 0: a third of the time of
    joining its rows."""
    width, height = image.size
    if image.mode in ("P", "L"):
        padded = Image.new(image.mode, (width + 1, height), 0)
        padded.paste(image, (1, 0))
        return padded.tobytes()
    raw = image.tobytes()
    stride = len(raw) // height
    return b"".join(b"\0" + raw[y * stride : (y + 1) * stride] for y in range(height))


def _storable(image: Image.Image) -> Image.Image:
    """The picture in a mode `png_bytes` writes as it is (a palette with a transparent
    colour becomes RGBA)."""
    if image.mode == "P" and "transparency" in image.info:
        return image.convert("RGBA")
    if image.mode not in _PNG_COLOUR_TYPES:
        return image.convert("RGBA" if "A" in image.getbands() else "RGB")
    return image


def _palette_chunks(image: Image.Image) -> tuple[bytes, ...]:
    """A "P" picture's colours (PLTE), as many entries as its highest index needs."""
    if image.mode != "P":
        return ()
    colours = image.getpalette("RGB") or []
    highest = image.getextrema()[1]
    assert isinstance(highest, int), "a P picture's extrema are its lowest and highest index"
    used = (highest + 1) * 3
    return (_chunk(b"PLTE", bytes(colours[:used]).ljust(used, b"\0")),)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode_own(game_id: str, view: dict[str, Any]) -> bytes | None:
    image = phone.render_own(game_id, view)
    return flat_png(image) if image is not None else None


def encode_focus(game_id: str, view: dict[str, Any], focus: str) -> bytes | None:
    image = phone.render_focus(game_id, view, focus)
    return flat_png(image) if image is not None else None


def encode_decision(
    game_id: str, view: dict[str, Any], parts: tuple[str, ...], marks: tuple[Any, ...] = ()
) -> bytes | None:
    image = phone.render_decision(game_id, view, parts, marks)
    return flat_png(image) if image is not None else None


def load_renderers(game_ids: tuple[str, ...]) -> int:
    """Imports the games' renderers (a worker's first picture otherwise does): the
    playground starts its picture workers so (bot/playground/workers.py)."""
    for game_id in game_ids:
        renderers.for_game(game_id)
    return len(game_ids)
