"""Table pictures: drawn and encoded off the event loop, cached by table and move."""

from __future__ import annotations

import asyncio
import io
import struct
import zlib
from collections import OrderedDict
from typing import Any

import discord
from PIL import Image

from meeple_hall import renderers
from meeple_hall.renderers import phone

FILENAME = "table.png"
PRIVATE_FILENAME = "private.png"


def encode_png(game_id: str, view: dict[str, Any]) -> bytes:
    return png_bytes(renderers.render(game_id, view))


_PNG_COLOUR_TYPES = {"L": 0, "RGB": 2, "RGBA": 6}


def png_bytes(image: Image.Image) -> bytes:
    """A PNG whose rows are stored unfiltered.

    Pillow filters every row adaptively, which suits photographs; table pictures are flat
    colours, where unfiltered rows deflate both faster and smaller. zlib level 3 is as fast
    as level 1 here and a quarter smaller (bench/README.md).
    """
    if image.mode not in _PNG_COLOUR_TYPES:
        image = image.convert("RGBA" if "A" in image.getbands() else "RGB")
    width, height = image.size
    raw = image.tobytes()
    stride = len(raw) // height
    rows = b"".join(b"\0" + raw[y * stride : (y + 1) * stride] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, _PNG_COLOUR_TYPES[image.mode], 0, 0, 0)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"IDAT", zlib.compress(rows, 3)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


class TablePictures:
    """The latest table pictures of one bot, by table and move: `/board` and the table
    message share one drawing."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._cache: OrderedDict[tuple[int, int], bytes] = OrderedDict()

    async def png(self, table_id: int, seq: int, game_id: str, view: dict[str, Any]) -> bytes:
        key = (table_id, seq)
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        data = await asyncio.to_thread(encode_png, game_id, view)
        self._cache[key] = data
        while len(self._cache) > self.size:
            self._cache.popitem(last=False)
        return data


async def private_png(game_id: str, view: dict[str, Any]) -> bytes | None:
    """The seat's own area and secrets as a picture that reads on a phone (or the game's
    private picture where it has no phone view), if the game draws one."""

    def draw() -> bytes | None:
        image = phone.render_own(game_id, view)
        return png_bytes(image) if image is not None else None

    return await asyncio.to_thread(draw)


async def focus_png(game_id: str, view: dict[str, Any], focus: str) -> bytes | None:
    """One part of the table (`/board focus:`) at a size that reads on a phone."""

    def draw() -> bytes | None:
        image = phone.render_focus(game_id, view, focus)
        return png_bytes(image) if image is not None else None

    return await asyncio.to_thread(draw)


def as_file(data: bytes, filename: str = FILENAME) -> discord.File:
    return discord.File(io.BytesIO(data), filename=filename)
