"""The Pebbles table picture and panel labels: a game's renderer hooks, for tests."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from meeple_hall.bot.presenters import OptionStyle
from meeple_hall.games import Decision, Option
from meeple_hall.renderers.palette import BACKGROUND, INK, font

COLOURS = {"red": (200, 60, 50), "blue": (50, 100, 190), "green": (60, 150, 80)}
EMOJI = {"red": "🔴", "blue": "🔵", "green": "🟢"}


def render(view: dict[str, Any]) -> Image.Image:
    image = Image.new("RGB", (800, 260), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for i, pebble in enumerate(view["pool"]):
        colour, value = pebble.split("-")
        x, y = 30 + (i % 15) * 50, 30 + (i // 15) * 50
        draw.ellipse((x - 20, y - 20, x + 20, y + 20), fill=COLOURS[colour])
        draw.text((x, y), value, fill="white", font=font(18), anchor="mm")
    for seat, player in enumerate(view["players"]):
        y = 150 + seat * 25
        draw.text(
            (30, y),
            f"{seat + 1}: {len(player['pebbles'])} · {player['coins']}",
            fill=INK,
            font=font(18),
        )
    return image


def option_style(decision: Decision, option: Option) -> OptionStyle | None:
    if decision.kind == "pick":
        colour, value = option.id.split("-")
        return OptionStyle(label=value, emoji=EMOJI[colour], description=f"{colour} pebble")
    return None


def private_text(view: dict[str, Any]) -> str:
    you = view.get("you")
    if not you:
        return ""
    hand = ", ".join(map(str, you["hand"])) or "—"
    return f"Hand: {hand}\nKept: {', '.join(map(str, you['kept'])) or '—'}"
