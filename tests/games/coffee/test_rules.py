"""Rules pinned one at a time, through the engine's own decisions."""

from __future__ import annotations

import pytest

from meeple_hall.games.coffee import arabica, engine, scoring, sell
from meeple_hall.games.coffee.data import components
from meeple_hall.games.coffee.state import CoffeeState, Pathway
from meeple_hall.games.core import Action, IllegalAction
from tests.games.coffee.helpers import clear_board, fresh, no_coffee, plant


def at_trade(state: CoffeeState) -> CoffeeState:
    state.phase, state.step, state.turn, state.passes, state.prompts = "trade", "", 0, 0, []
    state.order = list(range(len(state.players)))
    for coop in state.coops.values():
        coop.traders = []
    for player in state.players:
        player.coins = 10
    return state


def act(state: CoffeeState, *choices: str) -> CoffeeState:
    (decision,) = engine.decisions(state)
    return engine.apply(state, Action(decision.seat, choices))


def kinds(state: CoffeeState) -> list[tuple[int, str]]:
    return [(d.seat, d.kind) for d in engine.decisions(state)]


# -- setup ------------------------------------------------------------------------------
def test_setup_by_player_count() -> None:
    three, four, five = fresh(3), fresh(4), fresh(5)
    assert {p.traders for p in three.players} == {4}
    assert {p.traders for p in four.players} == {3}
    assert all(p.color_marker for p in four.players)
    assert not any(p.color_marker for p in five.players)
    assert {p.pool for p in five.players} == {1}
    assert four.wild_stock == 4 and five.wild_stock == 5 and three.wild_stock == 0
    assert [len(four.contract_bonus[x]) for x in "ABCDEF"] == [4, 4, 3, 3, 3, 3]
    assert [len(five.contract_bonus[x]) for x in "ABCDEF"] == [5, 5, 4, 4, 4, 4]
    assert all("trader" in p.row_items for p in five.players)
    assert not any("trader" in p.row_items for p in three.players)


def test_f_contract_matches_e_and_places_three_level_one_plantations() -> None:
    state = fresh(5, seed=4)
    for seat, player in enumerate(state.players):
        assert player.contracts["F"][1:] == player.contracts["E"][1:]
        mine = [p for c in state.coops.values() for p in c.rows[0] if p and p.owner == seat]
        assert len(mine) == 3 and {p.level for p in mine} == {1}
        assert sum(player.coffee.values()) == 4
        assert sum(player.arabica.values()) == 6  # 5-player head start on one row


def test_andre_always_goes_last() -> None:
    for seed in range(5):
        state = fresh(2, seed=seed)
        assert state.order[-1] == 2 and sorted(state.order[:2]) == [0, 1]


# -- Arabica track ----------------------------------------------------------------------
def test_arabica_coin_on_column_four_and_donkey_only_for_the_first_on_five() -> None:
    state = fresh(4)
    for seat in (0, 1):
        state.players[seat].arabica["gua"] = 3
        coins, donkeys = state.players[seat].coins, state.players[seat].donkeys
        arabica.advance(state, seat, "gua")
        arabica.advance(state, seat, "gua")
        assert state.players[seat].coins == coins + 1
        assert state.players[seat].donkeys == donkeys + (1 if seat == 0 else 0)


def test_only_one_player_on_the_seventh_column() -> None:
    state = fresh(4)
    state.players[0].arabica["col"] = 6
    state.players[1].arabica["col"] = 6
    arabica.advance(state, 0, "col")
    arabica.advance(state, 1, "col")
    assert (state.players[0].arabica["col"], state.players[1].arabica["col"]) == (7, 6)
    assert arabica.arabica_points(state.players[0].arabica) == 10


def test_no_moving_back_from_the_coin_or_donkey_space() -> None:
    state = fresh(4)
    for column, allowed in ((1, False), (3, True), (4, False), (5, False), (6, True)):
        state.players[0].arabica["bra"] = column
        assert arabica.can_move_back(state, 0, "bra") is allowed


def test_all_rows_on_two_bring_the_trader_and_on_three_the_truck() -> None:
    state = fresh(4)
    player = state.players[0]
    player.arabica = dict.fromkeys(player.arabica, 2)
    player.arabica["eth"] = 1
    traders = player.traders
    arabica.advance(state, 0, "eth")
    assert player.traders == traders + 1 and not player.track_trader
    player.arabica = dict.fromkeys(player.arabica, 3)
    player.arabica["eth"] = 2
    arabica.advance(state, 0, "eth")
    assert player.trucks == 1
    arabica.advance(state, 0, "eth")
    assert player.trucks == 1 and player.traders == traders + 1


# -- Phase 1: plantations ----------------------------------------------------------------
def test_first_plantation_in_a_cooperative_costs_a_worker_and_must_be_level_one() -> None:
    from meeple_hall.games.coffee.board import placements

    state = fresh(4)
    clear_board(state)
    assert {p.row for p in placements(state, 0, 1)} == {1}
    assert placements(state, 0, 2) == []
    state.players[0].pool = 0
    assert placements(state, 0, 1) == []


def test_row_two_needs_a_donkey_and_an_opponents_donkey_blocks_it() -> None:
    from meeple_hall.games.coffee.board import placements

    state = fresh(4)
    clear_board(state)
    plant(state, "gua", 1, 0, owner=0)
    ids = {p.id for p in placements(state, 0, 2)}
    assert ids == {"gua.2.0.v0"}
    state.players[0].donkeys = 0
    assert placements(state, 0, 2) == []
    state.players[0].donkeys = 1
    state.coops["gua"].pathways["1.0.0"] = Pathway(owner=1, donkeys=1)
    assert placements(state, 0, 2) == []


def test_row_three_by_truck_needs_a_free_row_one_plantation() -> None:
    from meeple_hall.games.coffee.board import placements

    state = fresh(4)
    clear_board(state)
    state.players[0].trucks = 1
    state.players[0].donkeys = 0
    plant(state, "ind", 1, 4, owner=0)
    assert {p.id for p in placements(state, 0, 3)} == {"ind.3.0.t", "ind.3.1.t", "ind.3.2.t"}
    plant(state, "ind", 3, 0, owner=0, truck=True)
    assert placements(state, 0, 3) == []


def test_planting_row_two_spends_the_donkey_and_advances_the_track() -> None:
    state = fresh(4)
    clear_board(state)
    state.phase, state.turn, state.prompts = "work", 0, []
    state.order = [0, 1, 2, 3]
    state.done = [False] * 4
    player = state.players[0]
    player.plantations["A"] = [2]  # the last plantation of row A: a worker below it
    plant(state, "gua", 1, 1, owner=0)
    coins, donkeys, pool = player.coins, player.donkeys, player.pool
    state = act(state, "plant")
    state = act(state, "A")
    state = act(state, "gua.2.0.v1")
    player = state.players[0]
    assert (player.coins, player.donkeys, player.arabica["gua"]) == (coins - 1, donkeys - 1, 2)
    assert player.pool == pool + 1
    assert state.coops["gua"].pathways["1.1.0"].owner == 0
    assert (0, "farm") in kinds(state)


# -- Phase 3: trade & build ------------------------------------------------------------
def test_piggyback_is_free_and_a_lone_decliner_takes_the_coin() -> None:
    """The BGG ruling in the zh-TW digest: a decliner still takes the coin if everyone
    after them piggybacks."""
    state = at_trade(fresh(5))
    state = act(state, "trader.gua")
    assert state.players[0].coins == 8 and state.players[0].stocks == ["gua"]
    state = act(state, "decline")
    state = act(state, "join")
    state = act(state, "join")
    state = act(state, "join")
    coop = state.coops["gua"]
    assert coop.traders == [0, 2, 3, 4] and not coop.coin
    assert [p.coins for p in state.players] == [8, 11, 10, 10, 10]


def test_at_four_players_the_fourth_cannot_follow_and_takes_the_coin() -> None:
    state = at_trade(fresh(4))
    state = act(state, "trader.col")
    state = act(state, "join")
    state = act(state, "join")
    assert state.coops["col"].traders == [0, 1, 2]
    assert state.players[3].coins == 11
    assert kinds(state) == [(1, "trade")]


def test_at_three_players_all_may_follow_and_nobody_takes_the_coin() -> None:
    state = at_trade(fresh(3))
    state = act(state, "trader.eth")
    state = act(state, "join")
    state = act(state, "join")
    assert state.coops["eth"].traders == [0, 1, 2] and state.coops["eth"].coin


def test_building_piggyback_pays_the_builder_one_coffee() -> None:
    state = at_trade(fresh(4))
    no_coffee(state)
    state.players[1].coffee["bra"] = 2
    state = act(state, "build.warehouse")
    state = act(state, "gua")  # the warehouse's coffee
    assert kinds(state) == [(1, "piggy_build")]
    state = act(state, "join.warehouse")
    state = act(state, "bra")
    state = act(state, "col")
    assert state.players[0].coffee["bra"] == 1 and state.players[1].coffee["bra"] == 1
    assert state.players[0].ratio == 3 and state.players[1].ratio == 3
    assert state.players[1].coins == 10  # a follower pays no coins


def test_passing_does_not_end_the_phase_until_all_pass_in_succession() -> None:
    state = at_trade(fresh(3))
    state = act(state, "pass")
    state = act(state, "trader.ind")
    state = act(state, "decline")
    state = act(state, "decline")
    state = act(state, "pass")
    state = act(state, "trader.gua")
    assert state.phase == "trade"


def test_refused_choice_leaves_state_untouched() -> None:
    state = at_trade(fresh(4))
    before = engine.dump(state)
    with pytest.raises(IllegalAction):
        engine.apply(state, Action(0, ("trader.nowhere",)))
    assert engine.dump(state) == before


# -- scoring ----------------------------------------------------------------------------
def test_cooperative_ties_add_and_split_rounding_up() -> None:
    assert scoring.shared_ranks({0: 5, 1: 5, 2: 3}, [16, 8, 4]) == {0: 12, 1: 12, 2: 4}
    assert scoring.shared_ranks({0: 2, 1: 2, 2: 2}, [16, 8, 4]) == {0: 10, 1: 10, 2: 10}
    assert scoring.shared_ranks({0: 4, 1: 1, 2: 1}, [16, 8]) == {0: 16, 1: 4, 2: 4}
    assert scoring.shared_ranks({0: 4, 1: 0}, [16, 8]) == {0: 16}


def test_buildings_count_for_quality_only_with_a_plantation() -> None:
    from meeple_hall.games.coffee.board import quality

    state = fresh(4)
    clear_board(state)
    state.coops["gua"].buildings["hospital"][0] = 0
    assert quality(state, "gua", 0) == 0
    plant(state, "gua", 1, 0, owner=0)
    assert quality(state, "gua", 0) == 3


def test_coffee_bar_majority_tie_goes_to_the_marker_further_down() -> None:
    state = fresh(4)
    state.bars = {bar: [None] * len(spaces) for bar, spaces in state.bars.items()}
    state.bars["b1"] = [0, 1, None, 0, 1]
    assert scoring.bar_majorities(state) == {1: 4, 0: 2}


# -- milestones -------------------------------------------------------------------------
def test_milestone_takes_the_topmost_empty_space() -> None:
    from meeple_hall.games.coffee.milestones import check_milestones

    state = fresh(4)
    state.milestones = ["warehouses"]
    state.milestone_marks = {"warehouses": []}
    for seat in (2, 0):
        state.players[seat].built["warehouse"] = 5
        check_milestones(state)
    points = components().milestones["warehouses"].points
    assert state.milestone_marks["warehouses"] == [2, 0]
    assert state.players[2].milestones == {"warehouses": points[0]}
    assert state.players[0].milestones == {"warehouses": points[1]}


def test_milestone_reached_by_two_at_once_goes_in_turn_order() -> None:
    """Two companies fulfilling a milestone with the same move (a harvest, say) take its
    spaces in turn order (the rulebooks are silent; lobby seats carry no meaning)."""
    from meeple_hall.games.coffee.milestones import check_milestones

    state = fresh(4)
    state.order = [3, 1, 0, 2]
    state.milestones = ["warehouses"]
    state.milestone_marks = {"warehouses": []}
    for seat in (0, 1):
        state.players[seat].built["warehouse"] = 5
    check_milestones(state)
    assert state.milestone_marks["warehouses"] == [1, 0]


def test_vicious_variant_lets_only_the_first_score() -> None:
    from meeple_hall.games.coffee.milestones import check_milestones

    state = engine.new(2, seed=5, options={"milestones": "vicious"})
    state.milestones = ["contracts"]
    state.milestone_marks = {"contracts": []}
    for seat in (1, 0):
        state.players[seat].fulfilled = list("ABCDEF")
        check_milestones(state)
    assert state.milestone_marks["contracts"] == [1]
    assert state.players[0].milestones == {}


# -- harvest civets, building bonuses --------------------------------------------------
def test_four_of_every_coffee_sends_a_civet_and_civets_bring_kopi_luwak() -> None:
    from meeple_hall.games.coffee import harvest

    state = fresh(4)
    clear_board(state)
    no_coffee(state)
    for coffee in ("gua", "col", "bra", "eth", "ind"):
        state.players[0].coffee[coffee] = 4
        state.players[1].coffee[coffee] = 3
    state.players[0].sumatra = 1
    state.players[1].sumatra = 0
    harvest.harvest(state)
    assert state.players[0].coffee["kopi"] == 2 and state.players[0].sumatra == 0
    assert state.players[1].coffee["kopi"] == 0


def test_three_players_need_six_of_every_coffee_for_the_civet() -> None:
    from meeple_hall.games.coffee import harvest

    state = fresh(3)
    clear_board(state)
    no_coffee(state)
    for coffee in ("gua", "col", "bra", "eth", "ind"):
        state.players[0].coffee[coffee] = 5
    state.players[0].sumatra = 0
    harvest.harvest(state)
    assert state.players[0].coffee["kopi"] == 0


def test_building_bonuses_follow_the_player_board() -> None:
    from meeple_hall.games.coffee.build import build

    state = fresh(4)
    clear_board(state)
    no_coffee(state)
    player = state.players[0]
    assert build(state, 0, "production", "eth.1") == []
    assert player.coffee["eth"] == 2
    build(state, 0, "fairtrade", "eth.0")  # a space with an Arabica step
    assert player.arabica["eth"] == 2
    prompts = build(state, 0, "fairtrade", "col.1")
    assert [p.kind for p in prompts] == ["advance"]
    for _ in range(3):
        build(state, 0, "warehouse", None)
    assert player.ratio == 2 and player.built["warehouse"] == 4
    assert scoring.building_points(player.built) == 1 + 1 + 2 + 1 + 3 + 5


def test_experienced_players_place_their_bottom_plantation_in_turn_order() -> None:
    state = engine.new(3, seed=6, options={"start": "experienced"})
    for _ in range(3):
        (decision,) = engine.decisions(state)
        assert decision.kind == "start" and decision.seat == state.order[state.turn % 3]
        assert all(o.id.split(".")[1] == "1" for o in decision.options)
        state = engine.apply(state, Action(decision.seat, (decision.options[-1].id,)))
    assert state.phase == "work"
    for seat in range(3):
        mine = [p for c in state.coops.values() for p in c.rows[0] if p and p.owner == seat]
        assert len(mine) == 3


def test_handicap_puts_two_or_four_random_contracts_on_the_three_player_side() -> None:
    """EN "Player Board Setup" 13: experienced players with new players may use "the 3-player
    side of 2 or 4 random contracts" in a 4- or 5-player game."""
    state = engine.new(4, seed=3, options={"handicap": "p2-4"})
    hard = state.players[1]
    assert len(hard.hard_sides) == 4 and not any(p.hard_sides for p in state.players[:1])
    table = components().contracts
    for letter, cid in hard.contracts.items():
        side = table[cid].side3 if letter in hard.hard_sides else table[cid].side45
        assert sell.contract_wants(state, 1, letter) == dict(
            zip(table[cid].coffees, side, strict=True)
        )
    view = engine.view(state, None)["players"][1]["contracts"]
    assert sorted(x for x, c in view.items() if c["hard_side"]) == hard.hard_sides
    assert len(engine.new(5, seed=3, options={"handicap": "p5-2"}).players[4].hard_sides) == 2
    assert not any(p.hard_sides for p in engine.new(3, 3, {"handicap": "p1-4"}).players)


def test_a_handicapped_contract_costs_its_three_player_side() -> None:
    state = engine.new(4, seed=3, options={"handicap": "p1-2"})
    letter = state.players[0].hard_sides[0]
    contract = components().contracts[state.players[0].contracts[letter]]
    state.phase, state.step, state.turn, state.prompts = "sell", "", 0, []
    state.order, state.done = [1, 2, 3, 0], [False] * 4
    no_coffee(state)
    short = dict(zip(contract.coffees, contract.side45, strict=True))
    state.players[0].coffee.update(short)
    ids = {o.id for o in engine.decisions(state)[0].options}
    assert f"contract.{letter}" not in ids
    state.players[0].coffee.update(zip(contract.coffees, contract.side3, strict=True))
    state = act(state, f"contract.{letter}")
    assert sum(state.players[0].coffee.values()) == 0
