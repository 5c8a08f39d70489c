"""The shared contract checks and conservation over random games at every player count."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple_hall.games.testing import check_conformance
from meeple_hall.games.village import engine
from tests.games.village.helpers import check_conservation, playout


@settings(max_examples=6, deadline=None)
@given(num_players=st.integers(1, 5), seed=st.integers(0, 2**32))
def test_random_games_keep_the_contract(num_players: int, seed: int) -> None:
    check_conformance(engine, num_players, seed, deep_every=25)


def test_every_player_count_plays_to_a_result() -> None:
    for num_players in range(1, 6):
        playout_result = check_conformance(engine, num_players, seed=num_players, deep_every=40)
        assert len(playout_result.result.scores) == num_players


def test_karla_die_variant_keeps_the_contract() -> None:
    check_conformance(engine, 1, seed=5, options={"karla": "die"}, deep_every=10)


@settings(max_examples=5, deadline=None)
@given(num_players=st.integers(1, 5), seed=st.integers(0, 2**32))
def test_cubes_members_and_customers_are_conserved(num_players: int, seed: int) -> None:
    for state in playout(num_players, seed):
        check_conservation(state)
