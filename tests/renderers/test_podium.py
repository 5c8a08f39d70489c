"""The tournament podium (renderers/podium.py): one to three finishers on their steps, names
in the reader's glyph shapes and never boxes, a long name kept in its own column, nothing
drawn but names and numbers, and every text readable at a phone's 400 px."""

from __future__ import annotations

import re

import pytest
from PIL import Image, ImageChops

from meeple_hall.renderers.palette import BACKGROUND
from meeple_hall.renderers.podium import (
    COLUMN,
    HEIGHT,
    MARGIN,
    MEDALS,
    STEP_TOPS,
    WIDTH,
    Finisher,
    fit_name,
    render_podium,
)
from tests.renderers.legibility import MIN_TEXT_PX, PHONE_WIDTH, texts_on_phone

TRIO = (Finisher("王小明", "18.5"), Finisher("さくら", "16"), Finisher("Ada 🎲", "12.33"))
LONG = "Bartholomew Fitzgerald-Worthington-Smythe 大冒險家"
MISSING = "\U000f0000"  # a private-use character no font has: drawn as the .notdef box
NUMBER = re.compile(r"\d+(\.\d+)?")


def column(image: Image.Image, place: int, top: int = 0, bottom: int = HEIGHT) -> Image.Image:
    """The picture's column of a place (second left, first centre, third right)."""
    left = MARGIN + COLUMN * {2: 0, 1: 1, 3: 2}[place]
    return image.crop((left, top, left + COLUMN, bottom))


def names_band(image: Image.Image, place: int) -> Image.Image:
    """Where a place's name is drawn: above its points, below the confetti."""
    return column(image, place, STEP_TOPS[place] - 80, STEP_TOPS[place] - 36)


def step_colour(image: Image.Image, place: int) -> tuple[int, int, int]:
    """The colour of a place's step, low in it (under its number)."""
    left = MARGIN + COLUMN * {2: 0, 1: 1, 3: 2}[place]
    return image.getpixel((left + 20, HEIGHT - 45))  # type: ignore[return-value]


def differs(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is not None


@pytest.mark.parametrize("count", [1, 2, 3])
def test_one_to_three_finishers_stand_on_their_steps(count: int) -> None:
    image = render_podium(TRIO[:count])
    assert image.size == (WIDTH, HEIGHT)
    for place in (1, 2, 3):
        expected = MEDALS[place] if place <= count else BACKGROUND
        assert step_colour(image, place) == expected, place


def test_only_the_first_three_are_drawn() -> None:
    fourth = (*TRIO, Finisher("Dana", "9"))
    assert not differs(render_podium(fourth), render_podium(TRIO))


def test_nobody_makes_no_podium() -> None:
    with pytest.raises(ValueError):
        render_podium([])


@pytest.mark.parametrize("language", ["en", "zh-TW", "ja"])
def test_nothing_drawn_but_names_and_numbers(language: str) -> None:
    finishers = (*TRIO[:2], Finisher(LONG, "7"))
    _, texts = texts_on_phone(lambda: render_podium(finishers, language))
    allowed = {f.name for f in finishers} | {fit_name(LONG, COLUMN - 16, language)[0]}
    drawn = {text.text for text in texts}
    words = {text for text in drawn if not NUMBER.fullmatch(text)}
    # each name is drawn in runs of one font each (the die is from the emoji font)
    assert words and all(any(w in name for name in allowed) for w in words)
    assert {"18.5", "16", "7", "1", "2", "3"} <= drawn


@pytest.mark.parametrize("language", ["en", "zh-TW", "ja"])
def test_every_text_reads_on_a_phone(language: str) -> None:
    finishers = (*TRIO[:2], Finisher(LONG, "7"))
    image, texts = texts_on_phone(lambda: render_podium(finishers, language))
    assert image.width >= PHONE_WIDTH
    smallest = min(texts, key=lambda text: text.height)
    assert smallest.height >= max(MIN_TEXT_PX, 9.0), smallest


def test_a_long_name_is_clipped_inside_its_own_column() -> None:
    short = render_podium((TRIO[0], Finisher("Bo", "16"), TRIO[2]))
    long = render_podium((TRIO[0], Finisher(LONG, "16"), TRIO[2]))
    assert differs(names_band(long, 2), names_band(short, 2))
    # the winner's and third's columns are untouched by the long second name
    assert not differs(column(long, 1), column(short, 1))
    assert not differs(column(long, 3), column(short, 3))
    clipped, size = fit_name(LONG, COLUMN - 16, "en")
    assert clipped.endswith("…") and LONG.startswith(clipped[:-1]) and size == 24
    assert fit_name("Bo", COLUMN - 16, "en") == ("Bo", 30)


@pytest.mark.parametrize("char", "直骨角")
def test_names_are_drawn_in_the_readers_glyph_shapes(char: str) -> None:
    def band(language: str) -> Image.Image:
        return names_band(render_podium((Finisher(f"{char}子", "10"),), language), 1)

    assert differs(band("ja"), band("zh-TW"))
    assert not differs(band("zh-TW"), band("en"))


@pytest.mark.parametrize("language", ["en", "zh-TW", "ja"])
def test_chinese_and_japanese_names_are_glyphs_not_boxes(language: str) -> None:
    def band(names: tuple[str, str, str]) -> list[Image.Image]:
        image = render_podium(tuple(Finisher(n, "1") for n in names), language)
        return [names_band(image, place) for place in (1, 2, 3)]

    names = ("王小明", "さくら", "김민준")
    drawn = band(names)
    boxes = band(tuple(MISSING * len(n) for n in names))  # type: ignore[arg-type]
    reversed_names = band(tuple(n[::-1] for n in names))  # type: ignore[arg-type]
    for place in range(3):
        assert differs(drawn[place], boxes[place]), names[place]
        # boxes all look alike: a name and its reverse would be the same picture
        assert differs(drawn[place], reversed_names[place]), names[place]
