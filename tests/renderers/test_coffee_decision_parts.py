"""What Coffee Traders' decision pictures show (session 17, a fresh player's read): the first
decision of a turn (`work`) and a Trade show the seat's own board first, and the cooperatives
folded to the side the options act on, a few phone screens tall, not five."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from meeple_hall.games.core import Decision
from meeple_hall.renderers import phone
from meeple_hall.renderers.phone import coffee as coffee_phone
from tests.renderers.legibility import MIN_TEXT_PX, PHONE_WIDTH, texts_on_phone
from tests.renderers.test_decision_pictures import _decisions, _fields

SCREEN = 450  # a phone screen's picture, at PHONE_WIDTH (Discord's frame and keyboard aside)


def _first(kind: str, players: int = 3) -> tuple[dict, Decision]:
    return next((v, d) for v, d in _decisions("coffee", players) if d.kind == kind)


def _each(kind: str, players: int = 3) -> Iterator[tuple[dict, Decision]]:
    return ((v, d) for v, d in _decisions("coffee", players) if d.kind == kind)


def _picture(view: dict, decision: Decision):
    """What the decision pictures, the picture, and its texts as a phone shows them (every
    part drawn afresh: a kept part's texts were drawn before)."""
    shown = phone.decision_picture("coffee", view, decision.kind, _fields(decision))
    coffee_phone.kept_picture.cache_clear()
    image, texts = texts_on_phone(
        lambda: phone.render_decision("coffee", view, shown.parts, shown.marks)
    )
    assert texts and min(t.height for t in texts) >= MIN_TEXT_PX
    return shown, image


@pytest.mark.parametrize(("kind", "own"), [("work", "board"), ("trade", "company")])
def test_work_and_trade_show_the_own_board_first_and_fit_four_screens(kind: str, own: str) -> None:
    view, decision = _first(kind)
    shown, image = _picture(view, decision)
    assert shown.parts[0] == own
    board = coffee_phone.render_focus(view, own)
    assert image.crop((0, 0, *board.size)).tobytes() == board.tobytes()
    assert all(p.startswith("coop") for p in shown.parts[1:])
    assert image.height * PHONE_WIDTH / image.width <= 4 * SCREEN  # was 2,278 (5 screens)


def test_work_s_cooperatives_are_narrowed_to_those_the_options_name() -> None:
    view, decision = _first("work")
    fields = [f for f in _fields(decision) if f.get("coffee") in (None, "bra", "ind")]
    parts = phone.decision_parts("coffee", view, "work", fields)
    assert parts == ("board", "coop3.rows", "coop5.rows")
