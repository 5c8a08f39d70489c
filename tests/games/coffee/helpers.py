"""Small builders for hand-made Coffee Traders positions."""

from __future__ import annotations

from meeple_hall.games.coffee import engine
from meeple_hall.games.coffee.data import COFFEES
from meeple_hall.games.coffee.state import CoffeeState, Plantation


def fresh(num_players: int = 4, seed: int = 1) -> CoffeeState:
    return engine.new(num_players, seed=seed)


def clear_board(state: CoffeeState) -> None:
    for coop in state.coops.values():
        coop.rows = [[None] * len(row) for row in coop.rows]
        coop.traders = []
        for spaces in coop.buildings.values():
            spaces[:] = [None] * len(spaces)


def plant(state: CoffeeState, coffee: str, row: int, space: int, owner: int, **kw) -> Plantation:
    plantation = Plantation(owner=owner, level=kw.pop("level", row), **kw)
    state.coops[coffee].rows[row - 1][space] = plantation
    return plantation


def no_coffee(state: CoffeeState) -> None:
    for player in state.players:
        for coffee in player.coffee:
            player.coffee[coffee] = 0


__all__ = ["COFFEES", "clear_board", "fresh", "no_coffee", "plant"]
