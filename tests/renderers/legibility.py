"""How large the text of a picture reads on a phone, for the renderer tests.

Discord shows an attachment at most about 400 px wide on a phone (never wider than the
picture itself). A test draws a picture while this module watches every `ImageDraw.text`
call: it notes the font size and where the text went, and follows the drawing through
`paste`, `copy`, `crop`, `resize` and `bitmap` (Coffee Traders stamps cached text masks),
so text drawn on a sub-image is counted where it lands in the final picture. The height
of a text is the height of the drawn digit "0" in its font at its size (every table text is
a number or a tile id: digits and capitals share that height), multiplied by the scale of
every resize on the way and by the phone's scale, 400 / the final width. Only text whose
centre lies inside the final picture counts (a crop leaves the rest out).

Caches that keep drawn sub-images (Coffee's printed board and text masks, Burgundy's empty
estate) are cleared first, so every text is drawn while watched.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from meeple_hall.renderers import stamps

PHONE_WIDTH = 400  # the widest Discord shows an attachment on a phone
MIN_TEXT_PX = 7.0  # a digit's height on the phone: about a 10 px font, Discord's smallest


@dataclass
class Text:
    text: str
    x: float  # centre, in the image's pixels
    y: float
    height: float  # a digit's height, in the image's pixels


@dataclass
class Watch:
    """Texts drawn, by the id of the image they are on (each image kept alive meanwhile)."""

    texts: dict[int, list[Text]] = field(default_factory=dict)
    keep: list[Any] = field(default_factory=list)

    def on(self, image: Image.Image) -> list[Text]:
        return self.texts.get(id(image), [])

    def add(self, image: Image.Image, texts: list[Text]) -> None:
        if texts:
            self.keep.append(image)
            self.texts.setdefault(id(image), []).extend(texts)


@functools.cache
def _digit_height(font: Any) -> float:
    _, top, _, bottom = font.getbbox("0")
    return float(bottom - top)


def _clear_caches() -> None:
    for name, module in list(sys.modules.items()):
        if not name.startswith("meeple_hall.renderers"):
            continue
        for value in vars(module).values():
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and not isinstance(value, type):  # a cache's class: not one
                clear()


@contextlib.contextmanager
def watching() -> Iterator[Watch]:
    watch = Watch()
    originals: dict[tuple[Any, str], Callable[..., Any]] = {}

    def patch(owner: Any, name: str, make: Callable[[Callable[..., Any]], Callable[..., Any]]):
        originals[(owner, name)] = getattr(owner, name)
        setattr(owner, name, make(getattr(owner, name)))

    def text(original):
        def wrapped(self, xy, text, fill=None, font=None, anchor=None, *args, **kwargs):
            if font is None:
                font = self.getfont()
            left, top, right, bottom = self.textbbox(xy, str(text), font=font, anchor=anchor)
            watch.add(
                self._image,
                [Text(str(text), (left + right) / 2, (top + bottom) / 2, _digit_height(font))],
            )
            return original(self, xy, text, fill, font, anchor, *args, **kwargs)

        return wrapped

    def bitmap(original):
        def wrapped(self, xy, bitmap, fill=None):
            moved = [Text(t.text, t.x + xy[0], t.y + xy[1], t.height) for t in watch.on(bitmap)]
            watch.add(self._image, moved)
            return original(self, xy, bitmap, fill)

        return wrapped

    def paste(original):
        def wrapped(self, im, box=None, mask=None):
            if isinstance(im, Image.Image):
                x, y = (box[0], box[1]) if box is not None else (0, 0)
                watch.add(self, [Text(t.text, t.x + x, t.y + y, t.height) for t in watch.on(im)])
            return original(self, im, box, mask)

        return wrapped

    def copy(original):
        def wrapped(self):
            out = original(self)
            watch.add(out, list(watch.on(self)))
            return out

        return wrapped

    def crop(original):
        def wrapped(self, box=None):
            out = original(self, box)
            x, y = (box[0], box[1]) if box is not None else (0, 0)
            moved = [Text(t.text, t.x - x, t.y - y, t.height) for t in watch.on(self)]
            # Text outside the crop is cut off (else a crop pasted into a larger picture
            # would bring it back)
            inside = [t for t in moved if 0 <= t.x < out.width and 0 <= t.y < out.height]
            watch.add(out, inside)
            return out

        return wrapped

    def resize(original):
        def wrapped(self, size, *args, **kwargs):
            out = original(self, size, *args, **kwargs)
            sx, sy = size[0] / self.width, size[1] / self.height
            moved = [Text(t.text, t.x * sx, t.y * sy, t.height * sy) for t in watch.on(self)]
            watch.add(out, moved)
            return out

        return wrapped

    _clear_caches()
    patch(ImageDraw.ImageDraw, "text", text)
    # Stamped text (renderers/stamps.py) is drawn by Pillow's own call while watched: the
    # same pixels (tests/renderers/test_stamps.py), and the call above sees it.
    patch(stamps, "text", lambda _: lambda draw, xy, text, **kw: draw.text(xy, text, **kw))
    patch(ImageDraw.ImageDraw, "bitmap", bitmap)
    patch(Image.Image, "paste", paste)
    patch(Image.Image, "copy", copy)
    patch(Image.Image, "crop", crop)
    patch(Image.Image, "resize", resize)
    try:
        yield watch
    finally:
        for (owner, name), original in originals.items():
            setattr(owner, name, original)
        _clear_caches()


def phone_scale(image: Image.Image) -> float:
    return min(1.0, PHONE_WIDTH / image.width)


def texts_on_phone(draw: Callable[[], Image.Image | None]) -> tuple[Image.Image, list[Text]]:
    """The picture `draw` returns and its texts, sized as a phone shows them."""
    with watching() as watch:
        image = draw()
    assert image is not None
    scale = phone_scale(image)
    inside = [
        Text(t.text, t.x, t.y, t.height * scale)
        for t in watch.on(image)
        if 0 <= t.x < image.width and 0 <= t.y < image.height and t.text.strip()
    ]
    return image, inside


def smallest_text(draw: Callable[[], Image.Image | None]) -> Text:
    _, texts = texts_on_phone(draw)
    assert texts, "no text drawn: nothing to measure"
    return min(texts, key=lambda t: t.height)
