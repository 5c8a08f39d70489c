"""Table pictures are encoded as PNGs that any decoder reads back pixel for pixel, drawn in
worker processes, and drawn once for a table that moved while its picture waited."""

import asyncio
import io
import threading

import pytest
from PIL import Image, ImageDraw

from meeple_hall import games, renderers
from meeple_hall.bot.render import PicturePool, encode_png, picture_workers, png_bytes
from meeple_hall.games import Action


def picture(mode: str) -> Image.Image:
    image = Image.new(mode, (37, 23), "white" if mode != "P" else 0)
    draw = ImageDraw.Draw(image)
    fill = {"L": 90, "P": 3}.get(mode, (200, 30, 40, 128)[: len(image.getbands())])
    draw.ellipse((3, 2, 30, 20), fill=fill)
    return image


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L", "P"])
def test_png_decodes_to_the_same_pixels(mode):
    image = picture(mode)
    back = Image.open(io.BytesIO(png_bytes(image)))
    assert back.format == "PNG" and back.mode == mode and back.size == image.size
    assert back.tobytes() == image.tobytes()
    assert back.convert("RGB").tobytes() == image.convert("RGB").tobytes()


def test_other_modes_are_stored_as_rgb():
    image = picture("CMYK")
    back = Image.open(io.BytesIO(png_bytes(image)))
    assert back.mode == "RGB" and back.tobytes() == image.convert("RGB").tobytes()


def test_a_palette_with_a_transparent_colour_keeps_it():
    image = picture("P")
    image.info["transparency"] = 0
    back = Image.open(io.BytesIO(png_bytes(image)))
    assert back.mode == "RGBA" and back.tobytes() == image.convert("RGBA").tobytes()
    assert back.getpixel((0, 0))[3] == 0


def test_the_picture_workers_use_every_core(monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 6)
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    assert picture_workers() == 4  # the cores this process may run on
    monkeypatch.delattr("os.sched_getaffinity")
    assert picture_workers() == 6
    monkeypatch.setattr("os.cpu_count", lambda: None)
    assert picture_workers() == 1


# -- where pictures are drawn ---------------------------------------------------------------
def _village_view() -> dict:
    engine = games.get("village")
    state = engine.new(3, 7)
    for _ in range(6):
        decision = engine.decisions(state)[0]
        state = engine.apply(state, Action(decision.seat, (decision.options[0].id,)))
    return engine.view(state, None)


async def test_a_picture_drawn_by_a_worker_process_is_the_one_drawn_here():
    view = _village_view()
    pool = PicturePool(max_workers=1)
    try:
        drawn = await pool.run("village", encode_png, view)
        assert pool._executor is not None  # a worker process drew it
    finally:
        pool.shutdown()
    assert drawn == encode_png("village", view)


class SlowPicture:
    """A renderer that notes what it draws and holds the drawing until told to finish."""

    def __init__(self) -> None:
        self.drawn: list[int] = []
        self.finish = threading.Event()

    def render(self, view: dict) -> Image.Image:
        self.drawn.append(view["move"])
        self.finish.wait(10)
        return Image.new("RGB", (8, 8), "white")


@pytest.fixture
def slow():
    picture = SlowPicture()
    renderers.register("slow", picture)  # drawn in a thread: a worker would not know it
    yield picture
    renderers._OVERRIDES.pop("slow", None)


async def test_a_table_that_moves_while_its_picture_waits_is_drawn_once_as_it_then_is(slow):
    pool = PicturePool(max_workers=1)
    table = {"move": 1}
    busy = asyncio.create_task(pool.run("slow", encode_png, {"move": 0}))
    while not slow.drawn:
        await asyncio.sleep(0.01)
    waiting = asyncio.create_task(
        pool.run_latest("slow", encode_png, lambda: ({"move": table["move"]},))
    )
    await asyncio.sleep(0.05)
    table["move"] = 2  # the table moved again before its picture was drawn
    assert slow.drawn == [0]
    slow.finish.set()
    await asyncio.gather(busy, waiting)
    assert slow.drawn == [0, 2]
    assert pool._executor is None
