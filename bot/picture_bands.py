"""A palette picture's PNG data stream (IDAT) deflated by horizontal bands, each band's
compressed bytes kept by the worker for the next picture that has the same band.

A move changes a small part of a table picture. Each band of `BAND_ROWS` rows is deflated by
a fresh compressor and ends on a sync flush (byte-aligned, no final block), so its compressed
bytes depend only on its own rows: the stream is the zlib header, the bands' segments one
after the other, an empty final block and the Adler-32 of all rows (combined from the bands'
own). A band is known by its RGB pixels, the palette and the level: a band seen before
(`BandCache`) costs neither the palette mapping nor the deflate. The bytes are the same
whether a band was remembered or not: a worker that drew nothing yet and one that drew the
table's last move write the same PNG.
"""

from __future__ import annotations

import ctypes
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from PIL import Image
from zlib_ng import zlib_ng

# Rows a band: measured at 16, 32 and 64 (bench/README.md, "Pictures encoded by the band").
BAND_ROWS = 32
# The rows above a band that its compressor is given as a dictionary (`_deflated`).
CONTEXT_ROWS = 2
# The final block of a deflate stream that holds nothing: BFINAL, fixed codes, end of block.
EMPTY_FINAL_BLOCK = b"\x03\x00"
ADLER_BASE = 65521
# A worker keeps the segments of this many bytes of bands (about 500 table pictures).
CACHE_BYTES = 32 * 1024 * 1024
# What a cached band costs beyond its segment (its key and the dictionary's entry).
ENTRY_OVERHEAD = 240


@dataclass(frozen=True)
class Segment:
    """A band deflated alone: its compressed bytes, and the Adler-32 and length of its rows
    (each row's filter byte included)."""

    data: bytes
    adler: int
    length: int


BandKey = tuple[int | bytes, ...]


class BandCache:
    """Segments by band (its pixels' checksums, size, palette and level), the least recently
    used dropped beyond `limit` bytes. A lock: a game registered at run time is drawn in
    threads (bot/render.py), which share the process's cache."""

    def __init__(self, limit: int = CACHE_BYTES) -> None:
        self.limit = limit
        self.size = 0
        self.found = 0  # bands met again, and bands deflated (bench/game_figures.py)
        self.deflated = 0
        self._segments: OrderedDict[BandKey, Segment] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: BandKey) -> Segment | None:
        with self._lock:
            segment = self._segments.get(key)
            if segment is not None:
                self._segments.move_to_end(key)
                self.found += 1
            return segment

    def put(self, key: BandKey, segment: Segment) -> None:
        with self._lock:
            self.deflated += 1
            if key in self._segments:
                return
            self._segments[key] = segment
            self.size += len(segment.data) + ENTRY_OVERHEAD
            while self.size > self.limit:
                _, dropped = self._segments.popitem(last=False)
                self.size -= len(dropped.data) + ENTRY_OVERHEAD

    def clear(self) -> None:
        with self._lock:
            self._segments.clear()
            self.size = self.found = self.deflated = 0


cache = BandCache()


def palette_stream(
    image: Image.Image, colours: list[int], level: int, bands: BandCache | None = None
) -> bytes:
    """The zlib stream of `image` (RGB) mapped to the palette `colours` (flat RGB triples),
    its rows unfiltered, deflated band by band at `level` (`bands`: the worker's cache)."""
    bands = cache if bands is None else bands
    palette = bytes(colours)
    with pixel_bytes(image) as (raw, depth):
        keys = [
            _band_key(raw, image.width * depth, top, bottom, palette, level)
            for top, bottom in _bands(image.height)
        ]
    segments: list[Segment | None] = [bands.get(key) for key in keys]
    strips = [
        (_context_top(first * BAND_ROWS), min(image.height, (last + 1) * BAND_ROWS), first, last)
        for first, last in _runs_missing(segments)
    ]
    rows = b""
    if strips:
        rows = _palette_rows(
            _stacked(image, [(top, bottom) for top, bottom, *_ in strips]), colours
        )
    row_bytes = image.width + 1
    at = 0  # the first row of the strip in `rows`, less the strip's own first row
    view = memoryview(rows)  # each band's rows and context read in place, not copied
    for strip_top, strip_bottom, first, last in strips:
        at -= strip_top
        for index in range(first, last + 1):
            top, bottom = index * BAND_ROWS, min(image.height, (index + 1) * BAND_ROWS)
            context = view[(at + _context_top(top)) * row_bytes : (at + top) * row_bytes]
            own = view[(at + top) * row_bytes : (at + bottom) * row_bytes]
            segment = segments[index] = _deflated(own, context, level)
            bands.put(keys[index], segment)
        at += strip_bottom
    return _zlib_stream([s for s in segments if s is not None], level)


def _stacked(image: Image.Image, strips: list[tuple[int, int]]) -> Image.Image:
    """The picture's strips of rows (first and end row) one under the other: mapped to the
    palette by one call (a call costs about 1 ms more than its pixels: Pillow's lookup of
    the colours met, made again for each call)."""
    if strips == [(0, image.height)]:
        return image
    if len(strips) == 1:  # one copy, not a picture made and the strip pasted on it
        return image.crop((0, strips[0][0], image.width, strips[0][1]))
    # not filled first (None): every row is pasted
    stacked = Image.new("RGB", (image.width, sum(bottom - top for top, bottom in strips)), None)
    at = 0
    for top, bottom in strips:
        stacked.paste(image.crop((0, top, image.width, bottom)), (0, at))
        at += bottom - top
    return stacked


def _bands(height: int) -> Iterator[tuple[int, int]]:
    for top in range(0, height, BAND_ROWS):
        yield top, min(height, top + BAND_ROWS)


def _context_top(top: int) -> int:
    """The first of the rows above a band that its compressor is given as a dictionary."""
    return max(0, top - CONTEXT_ROWS)


def _band_key(
    raw: memoryview, stride: int, top: int, bottom: int, palette: bytes, level: int
) -> BandKey:
    """A band of the picture's pixel bytes `raw` (`stride` bytes a row, `pixel_bytes`), the
    rows above it given as context included: its pixels known by two checksums of different
    kinds (CRC-32 and Adler-32: 64 bits; a hash of 3.6 MB costs 2-5 ms, these 0.4 ms), the
    row's bytes, its rows and context's rows, the palette and the level."""
    pixels = raw[_context_top(top) * stride : bottom * stride]
    context = top - _context_top(top)
    return (
        zlib_ng.crc32(pixels),
        zlib_ng.adler32(pixels),
        stride,
        bottom - top,
        context,
        palette,
        level,
    )


# The Arrow C data interface's structures (https://arrow.apache.org/docs/format/
# CDataInterface.html, a stable ABI): what Pillow's `Image.__arrow_c_array__` hands out.
class _ArrowSchema(ctypes.Structure):
    _fields_ = [
        ("format", ctypes.c_char_p),
        ("name", ctypes.c_char_p),
        ("metadata", ctypes.c_char_p),
        ("flags", ctypes.c_int64),
        ("n_children", ctypes.c_int64),
        ("children", ctypes.POINTER(ctypes.c_void_p)),
        ("dictionary", ctypes.c_void_p),
        ("release", ctypes.c_void_p),
        ("private_data", ctypes.c_void_p),
    ]


class _ArrowArray(ctypes.Structure):
    _fields_ = [
        ("length", ctypes.c_int64),
        ("null_count", ctypes.c_int64),
        ("offset", ctypes.c_int64),
        ("n_buffers", ctypes.c_int64),
        ("n_children", ctypes.c_int64),
        ("buffers", ctypes.POINTER(ctypes.c_void_p)),
        ("children", ctypes.POINTER(ctypes.c_void_p)),
        ("dictionary", ctypes.c_void_p),
        ("release", ctypes.c_void_p),
        ("private_data", ctypes.c_void_p),
    ]


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


@contextmanager
def pixel_bytes(image: Image.Image) -> Iterator[tuple[memoryview, int]]:
    """The RGB picture's pixels as bytes, row after row, and the bytes a pixel: read in place
    where Pillow exports them (`Image.__arrow_c_array__`, as Pillow 13 does: 4 bytes a
    pixel, RGB and a padding byte, valid while the export is held, here for the `with`
    block), else copied (`tobytes`, 3 bytes a pixel). The copy was about a fifth of a table
    picture's encoding on a worker that knew most of its bands (1.5-2 ms of 1.2 million
    pixels, bench/README.md "Table pictures, cheaper to encode")."""
    exported = _exported(image)
    if exported is None:
        yield memoryview(image.tobytes()), 3
        return
    capsules, view = exported
    try:
        yield view, 4
    finally:
        view.release()
        del capsules  # released with the export: Pillow's memory is no longer read


def _exported(image: Image.Image) -> tuple[Any, memoryview] | None:
    """Pillow's Arrow export of an RGB picture (a list of 4 bytes a pixel, in one buffer) and
    a view of its bytes, or None where Pillow exports none or another layout."""
    export = getattr(image, "__arrow_c_array__", None)
    if export is None or image.mode != "RGB":
        return None
    try:
        capsules = export()
    except (ValueError, OSError):  # a picture in more than one block of memory
        return None
    schema = _ArrowSchema.from_address(_capsule_pointer(capsules[0], b"arrow_schema"))
    array = _ArrowArray.from_address(_capsule_pointer(capsules[1], b"arrow_array"))
    if schema.format != b"+w:4" or array.n_children != 1 or array.offset:
        return None
    values = _ArrowArray.from_address(array.children[0])
    size = image.width * image.height * 4
    if values.n_buffers != 2 or values.offset or values.length != size or not values.buffers[1]:
        return None
    data = (ctypes.c_char * size).from_address(values.buffers[1])
    return capsules, memoryview(data).cast("B")


def _runs_missing(segments: list[Segment | None]) -> Iterator[tuple[int, int]]:
    """The first and last index of each run of bands not known: a strip of rows to map to
    the palette, the rows above its first band (its compressor's context) included."""
    start = None
    for index, segment in enumerate([*segments, True]):
        if segment is None and start is None:
            start = index
        elif segment is not None and start is not None:
            yield start, index - 1
            start = None


def _palette_rows(image: Image.Image, colours: list[int]) -> bytes:
    """The rows of `image` mapped to the palette, each after its filter byte 0 ("none"): the
    mapped picture pasted one column in on a picture whose first column is 0."""
    padded = Image.new("P", (image.width + 1, image.height), 0)
    padded.paste(mapped(image, colours), (1, 0))
    return padded.tobytes()


def mapped(image: Image.Image, colours: list[int]) -> Image.Image:
    """Each pixel of the RGB `image` as the index of its nearest palette colour.

    Pillow maps a pixel by the corner of its cell of 4×4×4 colours (each channel's two low
    bits cleared), not by the pixel's own colour: a colour nearer that corner than a flat
    colour would take all of the flat colour's pixels (a table's linen drawn 2-3 off on half
    its pixels). So each colour is looked up at its cell's corner."""
    lookup = Image.new("P", (1, 1))
    lookup.putpalette([channel & ~3 for channel in colours])
    return image.quantize(palette=lookup, dither=Image.Dither.NONE)


def _deflated(rows: bytes | memoryview, context: bytes | memoryview, level: int) -> Segment:
    """A band's rows deflated alone, ending on a sync flush; the rows above it (`context`)
    given as the compressor's dictionary, so that its first rows find theirs above as the
    others do (a fresh compressor a band of 32 rows cost 3-5 % more bytes, 1 % with two
    rows of context)."""
    compressor = zlib_ng.compressobj(
        level, zlib_ng.DEFLATED, -15, zlib_ng.DEF_MEM_LEVEL, zlib_ng.Z_DEFAULT_STRATEGY, context
    )
    data = compressor.compress(rows) + compressor.flush(zlib_ng.Z_SYNC_FLUSH)
    return Segment(data, zlib_ng.adler32(rows), len(rows))


def _zlib_stream(segments: list[Segment], level: int) -> bytes:
    adler = 1
    for segment in segments:
        adler = adler32_combine(adler, segment.adler, segment.length)
    return b"".join(
        (
            zlib_header(level),
            *(segment.data for segment in segments),
            EMPTY_FINAL_BLOCK,
            adler.to_bytes(4, "big"),
        )
    )


def zlib_header(level: int) -> bytes:
    """A zlib header as zlib writes it for `level`: deflate with a 32 KiB window, the level's
    class (informative only) and the check bits."""
    level_class = 0 if level < 2 else 1 if level < 6 else 2 if level == 6 else 3
    header = 0x7800 | (level_class << 6)
    return (header + (-header) % 31).to_bytes(2, "big")


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from each one's Adler-32 and
    the second's length (zlib's adler32_combine, which Python's zlib does not offer)."""
    first_low, first_high = first & 0xFFFF, first >> 16
    second_low, second_high = second & 0xFFFF, second >> 16
    low = (first_low + second_low - 1) % ADLER_BASE
    high = (first_high + second_high + second_length * (first_low - 1)) % ADLER_BASE
    return (high << 16) | low
