"""What the phone pictures cost (issue 29 item 5): a part is drawn once, and brought to the
picture's width without resampling where that is not needed (centred on margins, or each
pixel made a square), so that it neither pays for a smooth resize nor for encoding the
colours one makes; the measure is bench/decision_pictures.py, legibility is
test_decision_pictures.py's and test_phone.py's."""

from __future__ import annotations

import random
from collections.abc import Callable
from importlib import import_module
from typing import Any

import pytest
from PIL import Image

from meeple_hall.games.core import Action
from meeple_hall.games.testing import random_choices
from meeple_hall.renderers import burgundy, keyflower, phone, village
from meeple_hall.renderers.phone import MIN_FONT, OWN, min_font_for, padded


def _view_of(game: str, players: int, kind: str, seed: int = 1) -> dict[str, Any]:
    """The deciding seat's view at the first decision of `kind` in a seeded random game."""
    engine = import_module(f"meeple_hall.games.{game}").engine
    state, rng = engine.new(players, seed=seed), random.Random(seed)
    while pending := engine.decisions(state):
        for decision in pending:
            if decision.kind == kind:
                return engine.view(state, decision.seat)
        decision = rng.choice(pending)
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    raise AssertionError(f"no {kind} decision")


def _counted(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    calls: list[int] = []
    original: Callable[..., Any] = getattr(owner, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counting)
    return calls


def test_keyflower_draws_a_picture_once_when_its_type_is_known(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # It was drawn twice every time: once to learn its width, once with the type that width
    # needs. The type the last picture needed is tried first: the same picture.
    view = _view_of("keyflower", 3, "count")
    phone.render_focus("keyflower", view, "auction")
    calls = _counted(monkeypatch, keyflower, "auction_picture")
    picture = phone.render_focus("keyflower", view, "auction")
    assert len(calls) == 1
    token = MIN_FONT.set(min_font_for(picture.width))
    try:
        expected = keyflower.auction_picture(view)
    finally:
        MIN_FONT.reset(token)
    assert expected is not None and picture.tobytes() == expected.tobytes()


def test_keyflower_s_narrower_part_is_drawn_for_the_picture_s_width() -> None:
    # A bid's picture: the auction above the seat's own area, which is wider. The auction is
    # drawn with the type the picture's width needs and centred, not enlarged.
    view = _view_of("keyflower", 3, "count")
    picture = phone.render_decision("keyflower", view, ("auction", OWN))
    assert picture is not None
    token = MIN_FONT.set(min_font_for(picture.width))
    try:
        auction = keyflower.auction_picture(view)
    finally:
        MIN_FONT.reset(token)
    assert auction is not None and auction.width < picture.width
    top = picture.crop((0, 0, picture.width, auction.height))
    assert top.tobytes() == padded(auction, picture.width).tobytes()


def test_a_part_nearly_as_wide_is_centred_not_resampled() -> None:
    # Burgundy's depots (462 px) above the seat's estate (474 px): centred, every pixel as
    # drawn (enlarged smoothly by 2.6 %, every pixel changed and the PNG was 46 KiB, now 27).
    view = _view_of("burgundy", 3, "action")
    picture = phone.render_decision("burgundy", view, ("depots", OWN))
    depots = burgundy.render_cell(view, "depots", pad=burgundy.MARGIN // 2)
    assert depots.width < picture.width <= depots.width * phone.PAD_WITHIN
    top = picture.crop((0, 0, picture.width, depots.height))
    assert top.tobytes() == padded(depots, picture.width).tobytes()


@pytest.mark.parametrize(("kind", "part"), [("work", OWN), ("sell_second", "bars")])
def test_a_narrow_picture_is_enlarged_by_a_whole_factor(kind: str, part: str) -> None:
    # Coffee Traders' own area (350 px) and Coffee Bars (290 px): each pixel a square of four,
    # as the cooperatives' (no colours made by smoothing: fewer bytes, no resize paid for).
    view = _view_of("coffee", 3, kind)
    picture = phone.render_decision("coffee", view, (part,))
    assert picture is not None and picture.width >= phone.PHONE_WIDTH
    assert picture.width % 2 == 0 and picture.height % 2 == 0
    half = picture.resize((picture.width // 2, picture.height // 2), Image.Resampling.NEAREST)
    assert half.resize(picture.size, Image.Resampling.NEAREST).tobytes() == picture.tobytes()


def test_village_s_own_area_under_the_action_spaces_is_drawn_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Its width is known without drawing it: it is drawn once the picture's width is known,
    # each half at that width (it was drawn alone to learn its width, then again).
    view = _view_of("village", 3, "turn")
    calls = _counted(monkeypatch, village, "render_private_half")
    picture = phone.render_decision("village", view, ("actions", OWN))
    assert len(calls) == 2
    assert (
        picture is not None
        and picture.width == phone.render_focus("village", view, "actions").width
    )
