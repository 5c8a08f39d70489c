"""Names in Chinese and Japanese are drawn as their glyphs on the leaderboard, standings and
rating-history pictures, not as rows of the missing-glyph box."""

from __future__ import annotations

from PIL import Image, ImageChops

from meeple_hall.renderers.leaderboard import (
    HEADER_HEIGHT,
    MARGIN,
    ROW_HEIGHT,
    Board,
    Row,
    render_board,
    render_history,
)
from meeple_hall.renderers.palette import text_font

NAMES = ("王小明", "さくら")  # a Traditional Chinese and a Japanese player
MISSING = "\U000f0000"  # a private-use character no font has: drawn as the .notdef box


def board(names: tuple[str, ...]) -> Image.Image:
    rows = tuple(
        Row((str(place), name, "12.5", "7"), history=(0.0, 3.0, 2.0))
        for place, name in enumerate(names, start=1)
    )
    return render_board(Board("排行榜 — ランキング", ("#", "名前", "評分", "局"), rows))


def name_cell(image: Image.Image, row: int) -> Image.Image:
    top = HEADER_HEIGHT + ROW_HEIGHT * (row + 1)
    return image.crop((MARGIN + 60, top, MARGIN + 60 + 260, top + ROW_HEIGHT - 4))


def differs(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is not None


def test_every_character_of_the_names_has_a_glyph() -> None:
    font = text_font(18)
    box = font.getmask(MISSING)
    for char in "".join(NAMES):
        mask = font.getmask(char)
        assert (mask.size, bytes(mask)) != (box.size, bytes(box)), char


def test_board_draws_chinese_and_japanese_names_as_glyphs() -> None:
    drawn = board(NAMES)
    boxes = board(tuple(MISSING * len(name) for name in NAMES))
    reversed_names = board(tuple(name[::-1] for name in NAMES))
    for row in range(len(NAMES)):
        cell = name_cell(drawn, row)
        assert differs(cell, name_cell(boxes, row)), NAMES[row]
        # Boxes all look alike: a name and its reverse would be the same picture.
        assert differs(cell, name_cell(reversed_names, row)), NAMES[row]


def test_rating_history_draws_names_as_glyphs() -> None:
    def legend(names: tuple[str, ...]) -> Image.Image:
        image = render_history("王小明", {name: [0.0, 2.0] for name in names}, ("0", "2"))
        return image.crop((image.width - MARGIN - 150, 50, image.width, 110))

    assert differs(legend(NAMES), legend(tuple(name[::-1] for name in NAMES)))
    assert differs(legend(NAMES), legend(tuple(MISSING * len(name) for name in NAMES)))
