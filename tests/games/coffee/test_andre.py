"""André, the 2-player automaton, as his play guide describes him."""

from __future__ import annotations

from meeple_hall.games.coffee import andre, engine, sell, trade
from meeple_hall.games.coffee.board import claim, path_key
from meeple_hall.games.coffee.data import COFFEES, components
from meeple_hall.games.coffee.state import CoffeeState
from meeple_hall.games.core import Action
from tests.games.coffee.helpers import clear_board, fresh, plant

ANDRE = 2


def two_player() -> CoffeeState:
    state = fresh(2, seed=3)
    state.order = [0, 1, ANDRE]
    return state


def test_andre_gets_five_different_arabica_counters_at_every_seed() -> None:
    """Setup step 6: "a set of 5 different Arabica counters", even when the Contract Bonus
    stacks happen to hold all six counters of one coffee."""
    for seed in range(300):
        state = engine.new(2, seed)
        assert state.andre is not None
        assert sorted(state.andre.counters) == sorted(f"arabica:{c}" for c in COFFEES)


def test_andre_setup_board_and_production_stations() -> None:
    state = two_player()
    assert state.andre is not None and state.andre.seat == ANDRE
    assert sorted(state.andre.stack) == [1, 1, 2, 2, 2, 2, 3, 3]
    assert state.andre.traders == 3 and state.andre.fair_trade_posts == 3
    assert len(state.andre.contracts) == 3 and len(set(state.andre.counters)) == 5
    stations = [c for c, coop in state.coops.items() if ANDRE in coop.buildings["production"]]
    assert len(stations) == 3
    assert state.rules_players == 3


def test_andre_starts_with_the_three_plantations_of_his_f_contract() -> None:
    """EN "Player Board Setup" 15B: the three level-1 plantations go on the board "(do this
    for André, too!)": top coffee on the middle 1 space, middle on the rightmost, bottom on
    the leftmost; his production stations stand in the same three cooperatives."""
    for seed in range(20):
        state = engine.new(2, seed)
        mine = {
            (coffee, space)
            for coffee, coop in state.coops.items()
            for space, p in enumerate(coop.rows[0])
            if p is not None and p.owner == ANDRE and p.level == 1
        }
        stations = {c for c, coop in state.coops.items() if ANDRE in coop.buildings["production"]}
        assert len(mine) == 3 and {c for c, _ in mine} == stations
        assert sorted(space for _, space in mine) == [0, 2, 4]
        assert sorted(state.andre.stack) == [1, 1, 2, 2, 2, 2, 3, 3]


def test_andre_improves_his_plantations_in_sequence() -> None:
    state = two_player()
    clear_board(state)
    coop = state.coops["gua"]
    assert andre.wanted_levels(coop, ANDRE) == [1]
    plant(state, "gua", 1, 2, owner=ANDRE)
    assert andre.wanted_levels(coop, ANDRE) == [2, 1]
    plant(state, "gua", 2, 1, owner=ANDRE, level=2)
    assert andre.wanted_levels(coop, ANDRE) == [3, 1]
    plant(state, "gua", 3, 1, owner=ANDRE, level=3)
    assert andre.wanted_levels(coop, ANDRE) == [1]


def test_andre_adds_a_level_two_next_to_his_level_one() -> None:
    state = two_player()
    clear_board(state)
    plant(state, "col", 1, 4, owner=ANDRE)
    stack = list(state.andre.stack)
    andre.add_plantation(state, "col")
    placed = [i for i, p in enumerate(state.coops["col"].rows[1]) if p]
    assert placed == [3]
    assert len(state.andre.stack) == len(stack) - 1


def test_andre_does_not_cut_off_another_players_path_if_he_can_help_it() -> None:
    """Play guide, Phase 1 Turn 1: "If possible, he places the new plantation so as not to
    cut off another player's plantation path", even if that leaves his own plantation."""
    state = two_player()
    clear_board(state)
    plant(state, "col", 1, 0, owner=ANDRE)  # leads to row-2 space 0 only
    plant(state, "col", 1, 1, owner=0)  # leads to row-2 spaces 0 and 1
    andre.add_plantation(state, "col")
    placed = [i for i, p in enumerate(state.coops["col"].rows[1]) if p]
    assert placed == [2]


def test_andre_does_not_take_a_space_claimed_by_another_players_donkeys() -> None:
    state = two_player()
    clear_board(state)
    plant(state, "gua", 1, 2, owner=ANDRE)  # leads to row-2 spaces 1 and 2
    claim(state.coops["gua"], path_key(1, 1, 1), 0, 1)  # P1's donkey claims row-2 space 1
    andre.add_plantation(state, "gua")
    placed = [i for i, p in enumerate(state.coops["gua"].rows[1]) if p]
    assert placed == [2]


def test_andre_piggybacks_only_into_the_second_position() -> None:
    state = two_player()
    for coop in state.coops.values():
        coop.traders = []
    state.players[1].coins = 10
    trade.lead_trader(state, 1, "bra")
    assert state.coops["bra"].traders == [1, ANDRE]
    assert [(p.seat, p.kind) for p in state.prompts] == [(0, "piggy_trader")]
    state = fresh(2, seed=3)
    state.order = [0, 1, ANDRE]
    for coop in state.coops.values():
        coop.traders = []
    trade.lead_trader(state, 0, "bra")
    assert state.prompts[0].kind == "piggy_trader" and state.prompts[0].seat == 1


def test_andre_never_takes_the_coin() -> None:
    state = two_player()
    for coop in state.coops.values():
        coop.traders = []
    state.andre.traders = 0
    trade.lead_trader(state, 0, "eth")
    state = engine.apply(state, Action(1, ("join",)))
    assert state.coops["eth"].coin


def test_andre_builds_his_fair_trade_post_on_the_four_five_player_space_first() -> None:
    state = two_player()
    clear_board(state)
    trade.andre_fair_trade_post(state)
    bottom = components().contracts[state.andre.contracts[0]].coffees[2]
    kinds = list(components().board["buildings"]["fairtrade"])
    assert state.coops[bottom].buildings["fairtrade"][kinds.index("p45")] == ANDRE
    trade.andre_fair_trade_post(state)
    assert state.coops[bottom].buildings["fairtrade"][kinds.index("step")] == ANDRE


def test_andre_delivers_to_the_lowest_spaces_of_his_middle_and_bottom_coffee() -> None:
    state = two_player()
    sell.andre_delivers(state)
    contract = components().contracts[state.andre.contracts[0]]
    taken = [
        components().bars[bar][i]
        for bar, spaces in state.bars.items()
        for i, owner in enumerate(spaces)
        if owner == ANDRE
    ]
    assert sorted(s.need for s in taken) == sorted(contract.coffees[1:])
    assert {s.amount for s in taken} == {1}
    assert state.andre.markers == 4


def test_andre_takes_coffee_but_throws_it_away() -> None:
    from meeple_hall.games.coffee import harvest

    state = two_player()
    clear_board(state)
    plant(state, "ind", 1, 0, owner=0, staffed=True)
    state.coops["ind"].traders = [ANDRE, 0]
    before = state.players[0].coffee["ind"]
    state.players[0].sumatra = 0
    harvest.harvest(state)
    assert state.players[0].coffee["ind"] == before + 1
    assert sum(state.players[ANDRE].coffee.values()) == 0


def test_andre_fills_his_empty_plantations_in_phase_two() -> None:
    from meeple_hall.games.coffee import assign

    state = two_player()
    clear_board(state)
    plant(state, "gua", 1, 0, owner=ANDRE)
    state.coops["gua"].town = 0
    general = state.general_workers
    assign.andre_fills(state)
    assert state.coops["gua"].rows[0][0].staffed
    assert state.general_workers == general - 1


def test_results_are_for_the_two_humans_only() -> None:
    from meeple_hall.games.testing import check_conformance

    playout = check_conformance(engine, 2, seed=21, deep_every=50)
    assert len(playout.result.scores) == 2
    assert playout.state.andre is not None and len(playout.state.andre.contracts) == 1
