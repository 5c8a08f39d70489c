"""Table pictures are encoded as PNGs that any decoder reads back pixel for pixel."""

import io

import pytest
from PIL import Image, ImageDraw

from meeple_hall.bot.render import png_bytes


def picture(mode: str) -> Image.Image:
    image = Image.new(mode, (37, 23), "white" if mode != "P" else 0)
    draw = ImageDraw.Draw(image)
    fill = {"L": 90, "P": 3}.get(mode, (200, 30, 40, 128)[: len(image.getbands())])
    draw.ellipse((3, 2, 30, 20), fill=fill)
    return image


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L"])
def test_png_decodes_to_the_same_pixels(mode):
    image = picture(mode)
    back = Image.open(io.BytesIO(png_bytes(image)))
    assert back.format == "PNG" and back.mode == mode and back.size == image.size
    assert back.tobytes() == image.tobytes()


def test_other_modes_are_stored_as_rgb():
    image = picture("P")
    back = Image.open(io.BytesIO(png_bytes(image)))
    assert back.mode == "RGB" and back.tobytes() == image.convert("RGB").tobytes()
