"""The shared random-playout checks at every player count (2 = two humans and André)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple_hall import games
from meeple_hall.games.coffee import engine
from meeple_hall.games.testing import check_conformance


def test_registered_as_coffee() -> None:
    assert games.get("coffee") is engine
    assert (engine.min_players, engine.max_players) == (2, 5)


@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_playouts_at_two_players(seed: int) -> None:
    check_conformance(engine, 2, seed, deep_every=25)


@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_playouts_at_three_players(seed: int) -> None:
    check_conformance(engine, 3, seed, deep_every=29)


@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_playouts_at_four_players(seed: int) -> None:
    check_conformance(engine, 4, seed, deep_every=37)


@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_playouts_at_five_players(seed: int) -> None:
    check_conformance(engine, 5, seed, deep_every=41)


def test_random_playout_with_the_vicious_milestones() -> None:
    check_conformance(engine, 2, seed=77, options={"milestones": "vicious"}, deep_every=23)


def test_random_playout_with_experienced_start_and_a_handicap() -> None:
    options = {"start": "experienced", "handicap": "p3-4"}
    check_conformance(engine, 4, seed=78, options=options, deep_every=7)
