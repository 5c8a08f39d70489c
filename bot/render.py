"""Table pictures: drawn and encoded off the event loop, cached by table and move."""

from __future__ import annotations

import asyncio
import io
from collections import OrderedDict
from typing import Any

import discord
from PIL import Image

import renderers

FILENAME = "table.png"
PRIVATE_FILENAME = "private.png"


def encode_png(game_id: str, view: dict[str, Any]) -> bytes:
    return png_bytes(renderers.render(game_id, view))


def png_bytes(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    # Level 1 keeps encoding fast; table pictures are flat colours and compress well anyway.
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


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
    """The seat's secrets as a picture, if the game draws one."""

    def draw() -> bytes | None:
        image = renderers.render_private(game_id, view)
        return png_bytes(image) if image is not None else None

    return await asyncio.to_thread(draw)


def as_file(data: bytes, filename: str = FILENAME) -> discord.File:
    return discord.File(io.BytesIO(data), filename=filename)
