"""Words in pictures as their reader writes them (issue 25, item 4): a Japanese reader's
leaderboard, standings and rating history draw 直, 骨 and 角 in the Japanese shapes, a
Chinese reader's in the Traditional Chinese ones, and an emoji in a player's name is drawn
from Noto Emoji instead of the missing-glyph box."""

from __future__ import annotations

import pytest
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
from meeple_hall.renderers.palette import emoji_font, face, has_glyph, runs, text_font

SHAPES_DIFFER = "直骨角"  # the same code points, drawn differently in Japan and Taiwan
MISSING = "\U000f0000"  # a private-use character no font has: drawn as the .notdef box
EMOJI_NAMES = ("🎲 Mika", "Kenji 🐉", "👩‍🌾 小春", "🇯🇵 Aoi")


def board(name: str, language: str) -> Image.Image:
    row = Row(("1", name, "12.5", "7"))
    return render_board(Board("Ranking", ("#", "Name", "R", "G"), (row,), language=language))


def name_cell(image: Image.Image) -> Image.Image:
    top = HEADER_HEIGHT + ROW_HEIGHT
    return image.crop((MARGIN + 60, top, MARGIN + 60 + 260, top + ROW_HEIGHT - 4))


def differs(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is not None


def test_each_language_has_its_face() -> None:
    assert face("ja") == face("ja-JP") == "Noto Sans CJK JP"
    assert face("zh-TW") == face("en") == face(None) == "Noto Sans CJK TC"
    assert text_font(18, "ja").getname()[0] == "Noto Sans CJK JP"
    assert text_font(18, "zh-TW").getname()[0] == "Noto Sans CJK TC"


@pytest.mark.parametrize("char", SHAPES_DIFFER)
def test_a_japanese_reader_sees_japanese_shapes(char: str) -> None:
    name = f"{char}子"
    japanese, chinese = board(name, "ja"), board(name, "zh-TW")
    assert differs(name_cell(japanese), name_cell(chinese)), char
    # the same name for two readers of one language is the same picture
    assert not differs(name_cell(japanese), name_cell(board(name, "ja")))
    assert not differs(name_cell(chinese), name_cell(board(name, "en")))


def test_the_rating_history_draws_its_words_in_the_readers_shapes() -> None:
    def picture(language: str) -> Image.Image:
        series = {"直角": [0.0, 3.0], "骨": [0.0, 1.0]}
        return render_history("直", series, ("角", "骨"), language)

    assert differs(picture("ja"), picture("zh-TW"))


def test_emoji_are_not_in_the_cjk_faces_but_in_the_emoji_font() -> None:
    for char in "🎲🐉👩🌾":
        assert not has_glyph(text_font(18, "ja"), char), char
        assert has_glyph(emoji_font(18), char), char


@pytest.mark.parametrize("name", EMOJI_NAMES)
@pytest.mark.parametrize("language", ["en", "zh-TW", "ja"])
def test_an_emoji_in_a_name_is_drawn_not_boxed(name: str, language: str) -> None:
    boxed = "".join(
        MISSING if not char.isascii() and not has_glyph(text_font(18, language), char) else char
        for char in name
    )
    drawn = name_cell(board(name, language))
    assert differs(drawn, name_cell(board(boxed, language))), name
    # every character goes to a font that has it: the name's own text, in its runs
    assert "".join(part for part, _ in runs(name, 18, language)) == name
    for part, font in runs(name, 18, language):
        base = part.rstrip("\u200d\ufe0f")
        assert all(has_glyph(font, char) or char in "\u200d\ufe0f" for char in base), part


def test_two_different_emoji_are_two_different_pictures() -> None:
    # boxes all look alike: a name with a dragon and one with a die would be the same picture
    assert differs(name_cell(board("Kenji 🐉", "en")), name_cell(board("Kenji 🎲", "en")))
