"""Round-2 audit: player-count differences, shortages, combined effects and timing."""

from __future__ import annotations

from games.coffee import engine
from games.coffee.board import placements
from games.coffee.state import CoffeeState, Pathway
from games.coffee.work import donkey_pathways
from games.core import Action
from tests.games.coffee.helpers import clear_board, fresh, plant


def decide(state: CoffeeState, seat: int, *choices: str) -> CoffeeState:
    return engine.apply(state, Action(seat, choices))


# -- donkeys claiming a 2/3 space ------------------------------------------------------------
def test_a_two_three_space_claimed_by_an_opponents_donkeys_cannot_be_planted_at_all() -> None:
    # zh-TW: a 2/3 space another player has reached with donkeys cannot be planted, "even by
    # truck" (so not by donkeys along the other pathway either)
    state = fresh(4)
    clear_board(state)
    plant(state, "gua", 1, 0, owner=0)
    plant(state, "gua", 1, 1, owner=0)
    plant(state, "gua", 2, 0, owner=0, support=0, level=2)
    plant(state, "gua", 1, 2, owner=1)
    plant(state, "gua", 2, 1, owner=1, support=2, level=2)
    # row-3 space 0 is joined to row-2 spaces 0 (player 0) and 1 (player 1, with donkeys)
    state.coops["gua"].pathways["2.1.0"] = Pathway(owner=1, donkeys=1)
    me = state.players[0]
    me.donkeys, me.trucks = 2, 1
    spaces = {(p.row, p.space) for p in placements(state, 0, 3) if p.coffee == "gua"}
    assert (3, 0) not in spaces
    state.coops["gua"].pathways.pop("2.1.0")
    spaces = {(p.row, p.space) for p in placements(state, 0, 3) if p.coffee == "gua"}
    assert (3, 0) in spaces


def test_no_donkey_is_bred_towards_a_two_three_space_an_opponent_has_claimed() -> None:
    state = fresh(4)
    clear_board(state)
    plant(state, "gua", 1, 0, owner=0)
    plant(state, "gua", 2, 0, owner=0, support=0, level=2)
    plant(state, "gua", 1, 2, owner=1)
    plant(state, "gua", 2, 1, owner=1, support=2, level=2)
    assert "gua.2.0.0" in donkey_pathways(state, 0)
    state.coops["gua"].pathways["2.1.0"] = Pathway(owner=1, donkeys=1)
    assert "gua.2.0.0" not in donkey_pathways(state, 0)
