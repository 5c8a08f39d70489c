"""Round-2 audit: player-count differences, shortages, combined effects and timing."""

from __future__ import annotations

import pytest

from meeple_hall.games.coffee import engine, harvest, scoring, sell, trade
from meeple_hall.games.coffee.board import open_building_spaces, placements
from meeple_hall.games.coffee.data import COFFEES, components
from meeple_hall.games.coffee.milestones import check_milestones
from meeple_hall.games.coffee.state import CoffeeState, Pathway
from meeple_hall.games.coffee.work import donkey_pathways
from meeple_hall.games.core import Action
from tests.games.coffee.helpers import clear_board, fresh, no_coffee, plant


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


# -- every rule that depends on the player count, at every count -----------------------------
# (players, traders, pool, colour marker, wild stock, extra counters per contract bonus stack,
#  row-bonus trader, trader spaces per house, coffee per plantation, civet threshold,
#  cooperative VP ranks, 4-/5-player building spaces open)
COUNTS = {
    2: (4, 2, False, 0, 0, False, 3, 3, 6, [16, 8], False),
    3: (4, 2, False, 0, 0, False, 3, 3, 6, [16, 8], False),
    4: (3, 2, True, 4, 1, True, 3, 2, 4, [16, 8, 4], True),
    5: (3, 1, False, 5, 2, True, 4, 2, 4, [16, 8, 4], True),
}


@pytest.mark.parametrize("n", sorted(COUNTS))
def test_setup_and_phases_follow_the_player_count(n: int) -> None:
    traders, pool, colour, wild, extra, row_trader, spaces, per, civet, ranks, _ = COUNTS[n]
    state = fresh(n, seed=3)
    humans = state.players[:n]
    assert {p.traders for p in humans} == {traders}
    assert {p.pool for p in humans} == {pool}
    assert {p.color_marker for p in humans} == {colour}
    assert {p.markers for p in humans} == {3}
    assert state.wild_stock == wild
    assert [len(state.contract_bonus[x]) for x in "ABCDEF"] == [
        3 + extra,
        3 + extra,
        *[2 + extra] * 4,
    ]
    assert {"trader" in p.row_items for p in humans} == {row_trader}
    assert trade.capacity(state) == spaces
    assert components().board["harvest"]["coffee_per_plantation"][str(state.rules_players)] == per
    threshold = components().board["harvest"]["civet_threshold"][str(state.rules_players)]
    assert threshold == civet
    assert components().board["cooperative_points"]["ranks"][str(state.rules_players)] == ranks
    # the 5-player head start: one row at column 2 for each player, nobody else
    assert {sum(p.arabica.values()) for p in humans} == {6 if n == 5 else 5}
    # contracts are read on the side for the player count (2 players: the 3-player side)
    side = "side3" if n <= 3 else "side45"
    for seat, player in enumerate(humans):
        for letter, cid in player.contracts.items():
            contract = components().contracts[cid]
            wants = dict(zip(contract.coffees, getattr(contract, side), strict=True))
            assert sell.contract_wants(state, seat, letter) == wants


@pytest.mark.parametrize("n", sorted(COUNTS))
def test_harvest_and_civet_threshold_by_player_count(n: int) -> None:
    *_, per, civet, _, _ = COUNTS[n]
    state = fresh(n, seed=5)
    clear_board(state)
    no_coffee(state)
    plant(state, "bra", 1, 0, owner=0, staffed=True)
    state.coops["bra"].traders = [0]
    for player in state.players:
        player.sumatra = 0
    me = state.players[0]
    for coffee in COFFEES:
        me.coffee[coffee] = civet
    me.coffee["bra"] = civet - 1 - per  # one short of the threshold after the harvest
    harvest.harvest(state)
    assert me.coffee["bra"] == civet - 1
    assert me.coffee["kopi"] == 0
    me.coffee["bra"] = civet - per  # exactly the threshold after the harvest
    state.coops["bra"].rows[0][0].staffed = True
    harvest.harvest(state)
    assert me.coffee["bra"] == civet and me.coffee["kopi"] == 1


@pytest.mark.parametrize("n", sorted(COUNTS))
def test_third_place_in_a_cooperative_scores_only_at_four_and_five(n: int) -> None:
    state = fresh(n, seed=2)
    clear_board(state)
    seats = [s for s in state.seats][:3]
    for i, seat in enumerate(seats):
        plant(state, "ind", 1, i, owner=seat)
    plant(state, "ind", 2, 0, owner=seats[0], level=2, support=0)
    plant(state, "ind", 2, 1, owner=seats[1], level=1, support=1)
    # QV 3, 2, 1
    points = scoring.cooperative_points(state)
    third = points.get(seats[2], 0)
    assert points[seats[0]] == 16 and points[seats[1]] == 8
    assert third == (4 if n >= 4 else 0)


@pytest.mark.parametrize("n", sorted(COUNTS))
def test_the_four_five_player_building_space_opens_only_at_four_and_five(n: int) -> None:
    state = fresh(n, seed=2)
    clear_board(state)
    kinds = list(components().board["buildings"]["fairtrade"])
    open_spaces = open_building_spaces(state, "col", "fairtrade")
    assert (kinds.index("p45") in open_spaces) == (n >= 4)
    assert len(open_spaces) == len(kinds) - (0 if n >= 4 else 1)


# -- shortages ---------------------------------------------------------------------------------
def at_sell(state: CoffeeState, seat: int = 0) -> CoffeeState:
    state.phase, state.step, state.turn, state.prompts = "sell", "", 0, []
    state.order = [s for s in state.seats if s != seat] + [seat]  # seat acts first in Sell
    state.done = [False] * len(state.players)
    return state


def test_eighteen_scoring_markers_then_no_more_deliveries_or_milestones() -> None:
    # EN "Components": 18 Scoring markers per colour, for Coffee Bar deliveries and milestones
    state = at_sell(fresh(3, seed=1))
    me = state.players[0]
    me.coffee = dict.fromkeys(me.coffee, 9)
    spaces = [(bar, i) for bar, row in state.bars.items() for i in range(len(row))]
    for bar, i in spaces[:16]:
        state.bars[bar][i] = 0
    me.milestones = {"x": 5}
    assert sell.bar_options(state, 0)  # one marker left
    me.milestones = {"x": 5, "y": 3}
    assert not sell.bar_options(state, 0)
    assert not any(o.id.startswith("bar.") for o in engine.decisions(state)[0].options)


def test_a_milestone_needs_a_scoring_marker_left() -> None:
    state = fresh(3, seed=1)
    me = state.players[0]
    spaces = [(bar, i) for bar, row in state.bars.items() for i in range(len(row))]
    for bar, i in spaces[:18]:
        state.bars[bar][i] = 0
    me.fulfilled = list("ABCDEF")
    if "contracts" not in state.milestones:
        state.milestones.append("contracts")
    state.milestone_marks["contracts"] = []
    check_milestones(state)
    assert "contracts" not in me.milestones and state.milestone_marks["contracts"] == []
    state.bars[spaces[0][0]][spaces[0][1]] = None
    check_milestones(state)
    assert "contracts" in me.milestones


def test_an_empty_general_supply_gives_no_workers_and_no_town_refill() -> None:
    state = fresh(4, seed=2)
    clear_board(state)
    total = state.general_workers
    plant(state, "gua", 1, 0, owner=0)
    plant(state, "gua", 1, 1, owner=1)
    state.coops["gua"].town = 2
    state.general_workers = 0
    state.phase, state.turn, state.order = "work", 0, [0, 1, 2, 3]
    state.done = [False] * 4
    state = decide(state, 0, "send.gua")
    assert state.coops["gua"].town == 0 and state.general_workers == 0
    assert not any(o.id == "send.gua" for o in engine.decisions(state)[0].options)
    pool = state.players[0].pool
    state.prompts = []
    sell.contract_bonus(state, 0, ["worker"])
    assert state.players[0].pool == pool and state.general_workers == 0
    assert total > 0


def test_an_empty_contract_bonus_stack_gives_no_counter() -> None:
    state = at_sell(fresh(4, seed=2))
    me = state.players[0]
    state.contract_bonus["A"] = []
    me.coffee = dict.fromkeys(me.coffee, 9)
    before = dict(me.arabica)
    state = decide(state, 0, "contract.A")
    me = state.players[0]
    assert me.counters == [] and "A" in me.fulfilled
    assert sum(me.arabica.values()) - sum(before.values()) <= 1  # at most the bonus step


def test_the_last_stock_counter_then_none_for_the_lead_trader() -> None:
    state = fresh(4, seed=2)
    state.phase, state.turn, state.passes, state.order = "trade", 0, 0, [0, 1, 2, 3]
    state.coops["eth"].stock = 0
    state.players[0].coins = 5
    state = decide(state, 0, "trader.eth")
    assert state.players[0].stocks == [] and state.coops["eth"].stock == 0
    assert state.coops["eth"].traders == [0]


def test_no_animal_counter_left_on_the_two_three_row_asks_for_none() -> None:
    state = fresh(4, seed=2)
    clear_board(state)
    plant(state, "col", 1, 0, owner=0)
    plant(state, "col", 2, 0, owner=0, support=0, level=2)
    state.coops["col"].animals = []
    state.phase, state.turn, state.order = "work", 0, [0, 1, 2, 3]
    state.done = [False] * 4
    me = state.players[0]
    me.plantations = {"A": [], "B": [3], "C": []}
    me.farms, me.coins, me.donkeys = [], 5, 2
    state = decide(state, 0, "plant")
    state = decide(state, 0, "col.3.0.v0")
    assert state.coops["col"].rows[2][0].owner == 0
    assert not state.prompts and state.players[0].counters == []


def test_no_wild_stock_left_delivering_to_all_six_bars_gives_nothing() -> None:
    state = at_sell(fresh(4, seed=2))
    me = state.players[0]
    me.coffee = dict.fromkeys(me.coffee, 9)
    state.wild_stock = 0
    for bar in list(state.bars)[1:]:
        state.bars[bar][0] = 0
    token = next(o.id for o in sell.bar_options(state, 0) if o.id.startswith("bar.b1."))
    sell.deliver(state, 0, token)
    assert "wild" not in me.stocks and state.wild_stock == 0


# -- effects that combine ------------------------------------------------------------------------
def test_second_fair_trade_post_on_a_step_space_gives_both_steps() -> None:
    state = fresh(4, seed=2)
    clear_board(state)
    no_coffee(state)  # nobody can pay a builder, so no piggyback prompt
    state.phase, state.turn, state.passes, state.order = "trade", 0, 0, [0, 1, 2, 3]
    me = state.players[0]
    me.built["fairtrade"], me.coins = 1, 4
    state = decide(state, 0, "build.fairtrade")
    state = decide(state, 0, "gua.0")  # the space shows a step on the Guatemala row
    state = decide(state, 0, "col")  # the post's own step, on a row of one's choice
    me = state.players[0]
    assert (me.arabica["gua"], me.arabica["col"]) == (2, 2)
    assert me.coins == 2 and scoring.building_points(me.built) == 1 + 2  # posts 1 and 2


def test_five_stock_counters_build_the_second_and_third_warehouse_with_both_bonuses() -> None:
    state = at_sell(fresh(4, seed=2))
    me = state.players[0]
    no_coffee(state)
    me.stocks = list(COFFEES)
    sumatra = me.sumatra
    state = decide(state, 0, "stock.2")
    state = decide(state, 0, *COFFEES)
    state = decide(state, 0, "eth")  # the 2nd warehouse's coffee
    state = decide(state, 0, "ind")  # the 3rd warehouse's coffee
    me = state.players[0]
    assert me.built["warehouse"] == 3 and me.ratio == 3 and me.stocks == []
    assert me.coffee["eth"] == 1 and me.coffee["ind"] == 1
    assert me.sumatra == sumatra + 1  # the 3rd warehouse's civet
    assert scoring.building_points(me.built) == 1 + 3


def test_free_warehouse_from_contract_d_improves_the_trade_ratio_at_once() -> None:
    state = at_sell(fresh(4, seed=2))
    me = state.players[0]
    me.coffee = dict.fromkeys(me.coffee, 9)
    wants = sell.contract_wants(state, 0, "D")
    state = decide(state, 0, "contract.D")
    state = decide(state, 0, "warehouse")
    state = decide(state, 0, "bra")
    me = state.players[0]
    assert me.ratio == 3 and me.built["warehouse"] == 2
    expected = {c: 9 - wants.get(c, 0) + (c == "bra") for c in COFFEES}
    assert {c: me.coffee[c] for c in COFFEES} == expected


def test_finishing_a_row_with_an_animal_and_the_contract_counter_reaches_the_track_trader() -> None:
    state = at_sell(fresh(4, seed=2))
    me = state.players[0]
    me.coffee = dict.fromkeys(me.coffee, 9)
    me.fulfilled = ["A"]
    del me.contracts["A"]
    me.arabica = {"gua": 1, "col": 2, "bra": 2, "eth": 2, "ind": 2}
    me.row_items = ["animal:gua", "civet", "trader"]
    state.contract_bonus["B"] = ["arabica:eth", "arabica:col"]  # col on top
    coins, traders = me.coins, me.traders
    state = decide(state, 0, "contract.B")
    state = decide(state, 0, "1")  # the two coins
    state = decide(state, 0, "animal.gua")
    me = state.players[0]
    # AB coins (1) + 2 bonus coins; the col counter, then the guatemala animal: all rows >= 2
    assert me.coins == coins + 1 + 2
    assert me.arabica == {"gua": 2, "col": 3, "bra": 2, "eth": 2, "ind": 2}
    assert sorted(me.counters) == ["animal:gua", "arabica:col"]
    assert me.traders == traders + 1 and not me.track_trader
    assert state.contract_bonus["B"] == ["arabica:eth"]


def test_piggyback_build_options_name_the_building_in_words() -> None:
    state = fresh(4, seed=2)
    clear_board(state)
    state.phase, state.turn, state.passes, state.order = "trade", 0, 0, [0, 1, 2, 3]
    state.players[0].coins = 4
    state.players[1].coffee["gua"] = 1
    state = decide(state, 0, "build.production")
    state = decide(state, 0, "col.1")
    (decision,) = engine.decisions(state)
    assert decision.seat == 1 and decision.kind == "piggy_build"
    labels = {o.id: str(o.label) for o in decision.options}
    assert labels["join.production"] == "Build a production station"
    assert labels["join.fairtrade"] == "Build a fair trade post"
