"""The picture of a decision (issue 29 item 1): every decision kind met in seeded random
games of each real game, at every player count, maps to the parts of the table it is about
(or is listed as pictured by nothing, with the reason), and the picture reads at phone width
(tests/renderers/legibility.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from importlib import import_module

import pytest

from meeple_hall import games
from meeple_hall.games.core import Action, Decision
from meeple_hall.games.testing import random_choices
from meeple_hall.renderers import phone
from meeple_hall.renderers.palette import MARK
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


def _first_of_each_kind(game: str, players: int) -> dict[str, tuple[dict, Decision]]:
    """By decision kind, the deciding seat's view and the decision the first time a kind is
    met."""
    first: dict[str, tuple[dict, Decision]] = {}
    for view, decision in _decisions(game, players):
        first.setdefault(decision.kind, (view, decision))
    return first


def _fields(decision: Decision) -> list:
    return [option.fields for option in decision.options]


@pytest.mark.parametrize(
    ("game", "players"), [(g, n) for g, counts in PLAYER_COUNTS.items() for n in counts]
)
def test_every_decision_kind_is_pictured_legibly(game: str, players: int) -> None:
    kinds = phone.decision_kinds(game)
    for kind, (view, decision) in _first_of_each_kind(game, players).items():
        assert kind in kinds.pictured or kind in kinds.unpictured, (game, players, kind)
        if kind in kinds.unpictured:
            continue
        parts = phone.decision_parts(game, view, kind, _fields(decision))
        assert parts, (game, players, kind, "no part of the table to show")
        image, texts = texts_on_phone(lambda v=view, p=parts: phone.render_decision(game, v, p))
        assert image.width >= PHONE_WIDTH
        smallest = min(
            (t.height for t in texts), default=float("inf")
        )  # a picture may have no text
        assert smallest >= MIN_TEXT_PX, (game, players, kind, parts, smallest)


@pytest.mark.parametrize("game", PLAYER_COUNTS)
def test_every_kind_a_game_declares_is_pictured_or_says_why(game: str) -> None:
    """Not only the kinds random games happen to meet: every step kind the game declares
    (a kind met once in thousands of moves, such as Coffee Traders' starting plantation or
    Keyflower's payment for an upgrade, has a panel too)."""
    kinds = phone.decision_kinds(game)
    declared = set(games.get(game).steps.kinds)
    assert not declared - set(kinds.pictured) - set(kinds.unpictured), game
    assert not set(kinds.pictured) - declared, game  # no kind that no step asks


def test_coffee_s_cooperatives_are_narrowed_to_those_the_options_name() -> None:
    """Starting a plantation is about the cooperatives that hold a space for it: their parts
    alone, in the board's order; the five as one drawing when the options name them all or
    none."""
    view = next(v for v, d in _decisions("coffee", 3) if d.kind == "plant_space")
    named = [{"coffee": "ind", "row": 1, "space": 2}, {"coffee": "col", "row": 1, "space": 0}]
    assert phone.decision_parts("coffee", view, "start", named) == ("coop2", "coop5")
    every = [{"coffee": c} for c in ("gua", "col", "bra", "eth", "ind")]
    assert phone.decision_parts("coffee", view, "start", every) == ("coops",)
    # a planting: each cooperative named alone, its rows folded (up to those named)
    planted = phone.decision_parts("coffee", view, "plant_space", named)
    assert planted == ("coop2.rows", "coop5.rows")
    players = [{"seat": 1}, {"seat": 2}]
    assert phone.decision_parts("coffee", view, "send_choose", players) == ("coops",)
    assert phone.decision_parts("coffee", view, "sell", named) == ("bars", phone.OWN)


def test_coffee_s_picture_marks_the_spaces_the_options_name() -> None:
    """A ring in the mark colour around each space to plant on, in the cooperative it lies
    on; the parts kept for the next picture are not drawn on."""
    view, decision = next(
        (v, d) for v, d in _decisions("coffee", 3) if d.kind == "plant_space" and len(d.options) > 2
    )
    picture = phone.decision_picture("coffee", view, "plant_space", _fields(decision))
    spaces = {(o.fields["coffee"], o.fields["row"], o.fields["space"]) for o in decision.options}
    assert set(picture.marks) == spaces
    plain = phone.render_decision("coffee", view, picture.parts)
    marked = phone.render_decision("coffee", view, picture.parts, picture.marks)
    assert marked.size == plain.size
    assert MARK not in _colours(plain)
    rings = [(x, y) for (x, y), c in _pixels(marked) if c == MARK]
    assert len(rings) > 100 * len(spaces)  # rings, not specks
    assert phone.render_decision("coffee", view, picture.parts).tobytes() == plain.tobytes()
    without = phone.decision_picture("coffee", view, "convert", _fields(decision))
    assert without.marks == ()


def _colours(image) -> set:
    return {c for _, c in image.getcolors(1 << 24)}


def _pixels(image):
    width = image.width
    return (((i % width, i // width), c) for i, c in enumerate(image.getdata()))


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
