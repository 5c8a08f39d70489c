"""A table picture deflated by the band (`bot/picture_bands.py`: sync-flushed segments, an
empty final block, a combined Adler-32) decodes in a real Chromium to the pixels Pillow
reads: consecutive moves of a Burgundy table, each keeping the table's palette, encoded by a
worker that remembers the bands of the moves before."""

from __future__ import annotations

import base64
import io
import random

import pytest
from PIL import Image

from meeple_hall import games, renderers
from meeple_hall.bot.render import palette_png
from meeple_hall.games.core import Action
from meeple_hall.games.testing import random_choices

pytestmark = pytest.mark.browser

PIXELS = """async (source) => {
    const image = new Image();
    image.src = source;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext("2d", {colorSpace: "srgb"});
    context.drawImage(image, 0, 0);
    const data = context.getImageData(0, 0, image.width, image.height).data;
    let binary = "";
    for (let at = 0; at < data.length; at += 65536) {
        binary += String.fromCharCode(...data.subarray(at, at + 65536));
    }
    return [image.width, image.height, btoa(binary)];
}"""


def table_pictures(count: int) -> list[bytes]:
    engine = games.get("burgundy")
    rng = random.Random(9)
    state = engine.new(3, 9)
    palette, pictures = None, []
    for _ in range(40 + count):
        decision = rng.choice(engine.decisions(state))
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    for _ in range(count):
        data, palette = palette_png(renderers.render("burgundy", engine.view(state, None)), palette)
        pictures.append(data)
        decision = rng.choice(engine.decisions(state))
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    return pictures


async def test_chromium_decodes_a_banded_picture_to_pillow_s_pixels(chromium_path):
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=chromium_path, headless=True, args=["--no-sandbox"]
        )
        try:
            page = await browser.new_page()
            for data in table_pictures(3):
                source = "data:image/png;base64," + base64.b64encode(data).decode()
                width, height, pixels = await page.evaluate(PIXELS, source)
                seen = Image.frombytes("RGBA", (width, height), base64.b64decode(pixels))
                read = Image.open(io.BytesIO(data)).convert("RGBA")
                assert seen.size == read.size and seen.tobytes() == read.tobytes()
        finally:
            await browser.close()
