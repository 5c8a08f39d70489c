"""Pieces never appear from nowhere: workers, traders, coffee and coins in random games."""

from __future__ import annotations

import copy
import random

import pytest

from meeple_hall.games.coffee import engine, harvest
from meeple_hall.games.coffee.setup import TOTAL_WORKERS
from meeple_hall.games.coffee.state import CoffeeState
from meeple_hall.games.core import Action
from meeple_hall.games.testing import random_choices

TRADERS_PER_PLAYER = 6


def workers(state: CoffeeState) -> int:
    staffed = sum(
        1 for coop in state.coops.values() for row in coop.rows for p in row if p and p.staffed
    )
    towns = sum(coop.town for coop in state.coops.values())
    pools = sum(p.pool for p in state.players)
    return staffed + towns + pools + state.general_workers


def traders(state: CoffeeState, seat: int) -> int:
    p = state.players[seat]
    return (
        p.traders
        + p.traders_out
        + p.traders_retired
        + ("trader" in p.bonus)
        + p.track_trader
        + ("trader" in p.row_items)
    )


def playout(num_players: int, seed: int):
    rng = random.Random(seed)
    state = engine.new(num_players, seed)
    yield state, None
    while pending := engine.decisions(state):
        decision = rng.choice(pending)
        before = state
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
        yield state, before


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_workers_are_conserved(num_players: int) -> None:
    for state, _ in playout(num_players, seed=num_players * 11):
        assert workers(state) == TOTAL_WORKERS


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_every_player_owns_six_traders(num_players: int) -> None:
    for state, _ in playout(num_players, seed=num_players * 7):
        for seat in range(num_players):
            assert traders(state, seat) == TRADERS_PER_PLAYER


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_coins_and_coffee_never_go_negative(num_players: int) -> None:
    for state, _ in playout(num_players, seed=num_players * 5):
        for player in state.players:
            assert player.coins >= 0
            assert min(player.coffee.values()) >= 0
            assert player.donkeys >= 0 and player.trucks >= 0


@pytest.mark.parametrize("num_players", [2, 4])
def test_harvest_never_hands_out_more_than_was_produced(num_players: int) -> None:
    checked = 0
    for state, _ in playout(num_players, seed=3):
        if state.phase != "trade" or state.prompts:
            continue
        after = copy.deepcopy(state)
        harvest.harvest(after)
        for coffee in state.coops:
            gained = sum(
                after.players[s].coffee[coffee] - state.players[s].coffee[coffee]
                for s in range(num_players)
            )
            assert 0 <= gained <= harvest.production(state, coffee)
        checked += 1
    assert checked
