"""The fallback for a game without a picture of its own: seat colours on a plain table."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from meeple_hall.renderers.palette import BACKGROUND, SEAT_COLOURS, font

WIDTH, HEIGHT = 640, 160


def render(view: dict[str, Any]) -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    players = int(view.get("num_players", 0))
    for seat in range(players):
        x = 60 + seat * 100
        draw.ellipse((x - 30, 50, x + 30, 110), fill=SEAT_COLOURS[seat % len(SEAT_COLOURS)])
        draw.text((x, 80), str(seat + 1), fill="white", font=font(28), anchor="mm")
    return image
