"""The picture of a decision (issue 29 item 1): every decision kind met in seeded random
games of each real game, at every player count, maps to the parts of the table it is about
(or is listed as pictured by nothing, with the reason), and the picture reads at phone width
(tests/renderers/legibility.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from importlib import import_module

import pytest

from meeple_hall.games.core import Action, Decision
from meeple_hall.games.testing import random_choices
from meeple_hall.renderers import phone
from tests.renderers.legibility import MIN_TEXT_PX, PHONE_WIDTH, texts_on_phone

PLAYER_COUNTS = {
    "keyflower": (2, 3, 4, 5, 6),
    "burgundy": (2, 3, 4),
    "village": (1, 2, 3, 4),
    "coffee": (2, 3, 4, 5),
}
MOVES = 3000  # a random game's moves at most (each ends well before)


def _decisions(game: str, players: int) -> Iterator[tuple[dict, Decision]]:
    """Every decision of a seeded random game, with its seat's view, in the order met."""
    engine = import_module(f"meeple_hall.games.{game}").engine
    state, rng = engine.new(players, seed=players), random.Random(players)
    for _ in range(MOVES):
        pending = engine.decisions(state)
        if not pending:
            return
        for decision in pending:
            yield engine.view(state, decision.seat), decision
        decision = rng.choice(pending)
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))


def _first_of_each_kind(game: str, players: int) -> dict[str, dict]:
    """By decision kind, the deciding seat's view the first time a kind is met."""
    first: dict[str, dict] = {}
    for view, decision in _decisions(game, players):
        first.setdefault(decision.kind, view)
    return first


@pytest.mark.parametrize(
    ("game", "players"), [(g, n) for g, counts in PLAYER_COUNTS.items() for n in counts]
)
def test_every_decision_kind_is_pictured_legibly(game: str, players: int) -> None:
    kinds = phone.decision_kinds(game)
    for kind, view in _first_of_each_kind(game, players).items():
        assert kind in kinds.pictured or kind in kinds.unpictured, (game, players, kind)
        if kind in kinds.unpictured:
            continue
        parts = phone.decision_parts(game, view, kind)
        assert parts, (game, players, kind, "no part of the table to show")
        image, texts = texts_on_phone(lambda v=view, p=parts: phone.render_decision(game, v, p))
        assert image.width >= PHONE_WIDTH
        smallest = min(
            (t.height for t in texts), default=float("inf")
        )  # a picture may have no text
        assert smallest >= MIN_TEXT_PX, (game, players, kind, parts, smallest)


def test_the_kinds_without_a_picture_say_why() -> None:
    for game in PLAYER_COUNTS:
        kinds = phone.decision_kinds(game)
        assert not set(kinds.pictured) & set(kinds.unpictured), game
        assert all(reason.strip() for reason in kinds.unpictured.values()), game
    # Today every kind of the four games shows something (no list of exceptions).
    assert all(not phone.decision_kinds(g).unpictured for g in PLAYER_COUNTS)


def test_a_decision_s_picture_is_drawn_from_the_seat_s_own_view() -> None:
    # Keyflower's screen and winter hand are secret: a spectator's view has no own area, so
    # a decision about it has no part to picture there; the seat's view has.
    engine = import_module("meeple_hall.games.keyflower").engine
    state = engine.new(3, seed=3)
    decision = engine.decisions(state)[0]
    assert phone.decision_parts("keyflower", engine.view(state, decision.seat), "count") == (
        "auction",
        phone.OWN,
    )
    assert phone.decision_parts("keyflower", engine.view(state, None), "count") == ("auction",)
    assert phone.decision_parts("keyflower", engine.view(state, None), "winter") == ()


def test_a_part_that_is_gone_is_left_out() -> None:
    # In winter Keyflower's auction is empty: a bid's picture is the seat's own area only.
    view = {"players": [{"seat": 0}, {"seat": 1}], "you": {"seat": 0}}
    assert phone.decision_parts("keyflower", view, "action") == (phone.OWN,)
    assert phone.decision_parts("keyflower", view, "no such kind") == ()
