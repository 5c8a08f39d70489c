"""Village's conservation over random games at every player count: cubes, family members and
customers (the shared conformance checks run in tests/games/test_conformance.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.village.helpers import check_conservation, playout


@settings(max_examples=5, deadline=None)
@given(num_players=st.integers(1, 5), seed=st.integers(0, 2**32))
def test_cubes_members_and_customers_are_conserved(num_players: int, seed: int) -> None:
    for state in playout(num_players, seed):
        check_conservation(state)
