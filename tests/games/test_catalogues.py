"""The catalogues of converted games: every key in every language with the same fields, no
key that no source names, and a missing key or field caught."""

from __future__ import annotations

from pathlib import Path

import pytest

from meeple_hall.games import registry
from meeple_hall.games.burgundy.data import components
from meeple_hall.games.burgundy.words import tile_name
from meeple_hall.games.core import Msg
from meeple_hall.games.core.catalogues import (
    LANGUAGES,
    MissingMessage,
    catalogue,
    catalogue_problems,
    converted,
    in_score_order,
    render,
)
from meeple_hall.games.text_checks import unused_keys

ROOT = Path(__file__).resolve().parents[2]
CONVERTED = [g for g in registry.ids() if converted(g)]


def sources(game_id: str) -> list[Path]:
    return [
        *sorted((ROOT / "games" / game_id).glob("*.py")),
        ROOT / "renderers" / f"{game_id}.py",
        ROOT / "bot" / "presenters" / f"{game_id}.py",
    ]


def test_burgundy_is_converted_and_the_others_are_on_their_way():
    assert "burgundy" in CONVERTED
    assert converted("core")


@pytest.mark.parametrize("namespace", ["core", *CONVERTED])
def test_every_key_in_every_language_with_the_same_fields(namespace):
    assert catalogue_problems(namespace) == []


@pytest.mark.parametrize("game_id", CONVERTED)
def test_no_key_is_unused(game_id):
    assert unused_keys(game_id, sources(game_id)) == []


def test_an_unused_key_is_found():
    # without the presenter, the words only the presenter uses are unused
    unused = unused_keys("burgundy", sources("burgundy")[:-1])
    assert "burgundy.private.watching" in unused and "burgundy.log.takes" not in unused


def test_every_tile_has_a_name_in_every_language():
    for tile in components().tiles:
        names = {lang: render(lang, tile_name(tile.face), strict=True) for lang in LANGUAGES}
        assert all(names.values()) and names["en"] not in (names["zh-TW"], names["ja"]), names


def test_a_missing_key_or_field_is_caught_and_plain_text_passes():
    with pytest.raises(MissingMessage):
        render("ja", Msg("burgundy.no_such_key"), strict=True)
    with pytest.raises(MissingMessage):
        render("zh-TW", Msg("burgundy.log.takes", seat=Msg("core.seat", n=1)), strict=True)
    assert render("ja", "Plain text from a game not yet converted") == (
        "Plain text from a game not yet converted"
    )
    assert render("zh-TW", Msg("burgundy.count.workers", n=3)) == "3 個工人"
    assert render("en", Msg("burgundy.count.workers", n=1)) == "1 worker"


@pytest.mark.parametrize("game_id", ["keyflower", "burgundy", "village", "coffee"])
def test_a_breakdown_comes_back_in_the_catalogues_scoring_order(game_id: str) -> None:
    # Stores keep a breakdown as a JSON object (sorted keys on SQLite, jsonb on PostgreSQL),
    # so the final scores must not depend on the order a breakdown comes back in.
    prefix = f"{game_id}.score."
    listed = [
        key.removeprefix(prefix).replace("_", " ")
        for key in catalogue(game_id, "en")
        if key.startswith(prefix) and key.count(".") == 2
    ]
    assert len(listed) >= 5
    shuffled = {category: i for i, category in enumerate(sorted(listed, reverse=True))}
    shuffled["not in the catalogue"] = 0
    ordered = [category for category, _ in in_score_order(game_id, shuffled)]
    assert ordered == [*listed, "not in the catalogue"]
