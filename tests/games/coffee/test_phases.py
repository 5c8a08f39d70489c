"""Work, Assign Workers, Sell and Refresh as the rulebooks describe them, step by step."""

from __future__ import annotations

from meeple_hall.games.coffee import engine, sell, work
from meeple_hall.games.coffee.data import components
from meeple_hall.games.coffee.flow import advance
from meeple_hall.games.coffee.refresh import return_pieces
from meeple_hall.games.coffee.state import CoffeeState, Pathway
from meeple_hall.games.coffee.supply import (
    civets_left,
    donkeys_left,
    gain_donkey,
    markers_available,
    send_civet,
    spend_markers,
)
from meeple_hall.games.core import Action
from tests.games.coffee.helpers import clear_board, fresh, no_coffee, plant


def decide(state: CoffeeState, seat: int, *choices: str) -> CoffeeState:
    return engine.apply(state, Action(seat, choices))


def only(state: CoffeeState) -> tuple[int, str]:
    (decision,) = engine.decisions(state)
    return decision.seat, decision.kind


def at_phase(state: CoffeeState, phase: str, step: str = "") -> CoffeeState:
    state.phase, state.step, state.turn, state.prompts = phase, step, 0, []
    state.order = list(range(len(state.players)))
    state.done = [False] * len(state.players)
    return state


# -- Phase 1 -------------------------------------------------------------------------------
def test_send_workers_staffs_one_plantation_per_player_and_rewards_helping() -> None:
    state = fresh(4)
    clear_board(state)
    plant(state, "gua", 1, 0, owner=0)
    plant(state, "gua", 1, 1, owner=1)
    plant(state, "gua", 2, 0, owner=1, support=1, level=2)
    state.coops["gua"].town = 6
    state = at_phase(state, "work")
    state = decide(state, 0, "send.gua")
    rows = state.coops["gua"].rows
    assert rows[0][0].staffed and rows[0][1].staffed and not rows[1][0].staffed
    assert state.coops["gua"].town == 4
    assert state.players[0].arabica["gua"] == 2


def test_too_few_workers_the_active_player_chooses_and_the_town_refills() -> None:
    state = fresh(4)
    clear_board(state)
    for seat in range(3):
        plant(state, "col", 1, seat, owner=seat)
    state.coops["col"].town = 2
    general = state.general_workers
    state = at_phase(state, "work")
    state = decide(state, 0, "send.col")
    assert only(state) == (0, "send_choose")
    state = decide(state, 0, "p2", "p3")
    staffed = [p.owner for p in state.coops["col"].rows[0] if p and p.staffed]
    assert staffed == [1, 2]
    assert state.coops["col"].town == 1 and state.general_workers == general - 1
    assert state.players[0].arabica["col"] == 2


def test_breeding_a_donkey_takes_two_markers() -> None:
    state = fresh(4)
    clear_board(state)
    plant(state, "eth", 1, 0, owner=0)
    state = at_phase(state, "work")
    state.players[0].markers = 2
    state.players[0].color_marker = False
    state = decide(state, 0, "donkey")
    state = decide(state, 0, "eth.1.0.0")
    assert state.coops["eth"].pathways["1.0.0"].owner == 0
    assert state.players[0].markers == 0 and state.players[0].donkeys == 1


def test_the_bonus_marker_gives_one_more_action_when_the_player_takes_it() -> None:
    """EN "Bonus Supply": the bonus items are the player's to use "at any time"; nothing is
    taken from it unasked."""
    state = at_phase(fresh(3), "work")
    state.players[0].markers, state.players[0].markers_used = 0, 3
    ids = {o.id for o in engine.decisions(state)[0].options}
    assert "coins" not in ids and "bonus-marker" in ids
    state = decide(state, 0, "bonus-marker")
    state = decide(state, 0, "coins")
    assert state.players[0].bonus == ["trader", "coins"]
    assert markers_available(state.players[0]) == 0
    return_pieces(state)
    assert state.players[0].markers == 3 and "marker" in state.players[0].bonus


def test_four_players_choose_the_bonus_marker_or_the_colour_marker() -> None:
    """With the black markers spent, a 4-player company may use its colour marker (gone for
    good) or the bonus marker (back at the Refresh, but it counts in the two-of-three)."""
    state = at_phase(fresh(4), "work")
    state.players[0].markers = 0
    ids = {o.id for o in engine.decisions(state)[0].options}
    assert {"coins", "bonus-marker"} <= ids
    kept = decide(decide(state, 0, "bonus-marker"), 0, "coins").players[0]
    assert kept.color_marker and "marker" not in kept.bonus
    used = decide(state, 0, "coins").players[0]
    assert not used.color_marker and used.color_marker_used and "marker" in used.bonus


def test_breeding_with_one_black_marker_needs_the_bonus_marker_taken() -> None:
    state = fresh(3)
    clear_board(state)
    plant(state, "eth", 1, 0, owner=0)
    state = at_phase(state, "work")
    state.players[0].markers = 1
    ids = {o.id for o in engine.decisions(state)[0].options}
    assert "donkey" not in ids and "bonus-marker" in ids
    state = decide(state, 0, "bonus-marker")
    assert "donkey" in {o.id for o in engine.decisions(state)[0].options}


def test_the_bonus_trader_is_taken_by_choice_for_an_action_or_a_piggyback() -> None:
    state = at_phase(fresh(3), "trade")
    state.passes = 0
    for player in state.players:
        player.coins, player.traders = 10, 0
    for coop in state.coops.values():
        coop.traders = []
    ids = {o.id for o in engine.decisions(state)[0].options}
    assert not any(i.startswith("trader.") for i in ids) and "bonus-trader" in ids
    state = decide(state, 0, "bonus-trader")
    state = decide(state, 0, "trader.gua")
    (decision,) = engine.decisions(state)
    assert decision.kind == "piggy_trader" and "bonus supply" in str(decision.options[0].label)
    state = decide(state, decision.seat, "join")
    follower = state.players[decision.seat]
    assert "trader" not in follower.bonus and follower.traders_out == 1
    assert state.coops["gua"].traders == [0, decision.seat]


def test_one_bonus_must_stay_but_refilling_frees_another() -> None:
    state = at_phase(fresh(3), "work")
    player = state.players[0]
    player.bonus = ["marker"]
    player.coins = 5
    ids = {o.id for o in engine.decisions(state)[0].options}
    assert "bonus-coins" not in ids and "refill-coins" in ids
    state = decide(state, 0, "refill-coins")
    assert state.players[0].bonus == ["marker", "coins"] and state.players[0].coins == 2


def test_with_no_marker_left_putting_coins_back_frees_the_bonus_marker() -> None:
    """EN "Bonus Supply": refilling Bonus C "would allow you to take the third bonus": a
    company whose markers are spent and whose bonus supply holds only the marker may put 3
    coins back and then take the marker."""
    state = at_phase(fresh(3), "work")
    player = state.players[0]
    player.markers, player.markers_used, player.bonus, player.coins = 0, 3, ["marker"], 4
    ids = [o.id for o in engine.decisions(state)[0].options]
    assert ids == ["refill-coins", "refill-trader", "drop"]
    state = decide(state, 0, "refill-coins")
    state = decide(state, 0, "bonus-marker")
    assert markers_available(state.players[0]) == 1


def test_with_no_trader_left_putting_coins_back_frees_the_bonus_trader() -> None:
    state = at_phase(fresh(3), "trade")
    state.passes = 0
    player = state.players[0]
    player.traders, player.traders_out, player.bonus, player.coins = 0, 4, ["trader"], 5
    ids = [o.id for o in engine.decisions(state)[0].options]
    assert ids == ["refill-coins", "pass"]
    state = decide(state, 0, "refill-coins")
    state = decide(state, 0, "bonus-trader")
    assert state.players[0].traders == 1 and state.players[0].coins == 2


# -- Phase 2 ------------------------------------------------------------------------------
def test_own_plantations_are_staffed_simultaneously_row_one_first() -> None:
    state = fresh(4)
    clear_board(state)
    plant(state, "bra", 1, 0, owner=0)
    plant(state, "bra", 2, 0, owner=0, support=0, level=2)
    plant(state, "ind", 1, 0, owner=1)
    state = at_phase(state, "assign", "own")
    state.done = [False] * 4
    pending = {d.seat: {o.id for o in d.options} for d in engine.decisions(state)}
    assert pending == {0: {"bra.1.0", "done"}, 1: {"ind.1.0", "done"}}
    state = decide(state, 1, "ind.1.0")
    state = decide(state, 0, "bra.1.0")
    assert {o.id for o in engine.decisions(state)[0].options} == {"bra.2.0", "done"}


def test_staffing_an_opponents_plantation_advances_the_track() -> None:
    state = fresh(4)
    clear_board(state)
    plant(state, "eth", 1, 2, owner=1)
    state = at_phase(state, "assign", "other")
    for seat in (1, 2, 3):
        state.players[seat].pool = 0
    state = decide(state, 0, "eth.1.2")
    assert state.coops["eth"].rows[0][2].staffed
    assert state.players[0].arabica["eth"] == 2 and state.players[0].pool == 1


def test_penalty_paid_in_coins_and_steps_back() -> None:
    state = fresh(4)
    clear_board(state)
    state.period = 2
    plant(state, "gua", 1, 0, owner=0)
    state = at_phase(state, "assign", "penalty")
    state.owed = {0: 2}
    player = state.players[0]
    player.coins = 1
    player.arabica["col"] = 3
    state = decide(state, 0, "coin")
    state = decide(state, 0, "back.col")
    assert (state.players[0].coins, state.players[0].arabica["col"]) == (0, 2)
    assert state.phase == "trade"


def penalty_without_coins_or_arabica_steps() -> CoffeeState:
    """The penalty step with seat 0 owing 1, holding two plantations in Guatemala, no coins
    and no Arabica step to give back."""
    state = fresh(4)
    clear_board(state)
    plant(state, "gua", 1, 0, owner=0)
    plant(state, "gua", 2, 0, owner=0, support=0, level=2)
    state = at_phase(state, "assign", "penalty")
    state.owed = {0: 1}
    player = state.players[0]
    player.coins = 0
    player.arabica = dict.fromkeys(player.arabica, 1)
    return state


def test_penalty_that_cannot_be_paid_removes_the_plantation() -> None:
    state = penalty_without_coins_or_arabica_steps()
    state.players[0].bonus = ["marker"]
    advance(state)
    rows = state.coops["gua"].rows
    assert rows[1][0] is None and rows[0][0] is not None


def test_penalty_may_go_unpaid_rather_than_take_the_bonus_coins() -> None:
    """EN "Bonus Supply": its items are used by choice. A company without coins or Arabica
    steps to give may keep its 3 bonus coins and lose the plantations it cannot pay for."""
    state = penalty_without_coins_or_arabica_steps()
    options = [o.id for o in engine.decisions(state)[0].options]
    assert options == ["unpaid", "bonus-coins"]
    state = decide(state, 0, "unpaid")
    rows = state.coops["gua"].rows
    assert rows[1][0] is None and rows[0][0] is not None
    assert "coins" in state.players[0].bonus and state.players[0].coins == 0


# -- Phase 5 ------------------------------------------------------------------------------
def test_fulfilling_a_contract_pays_coins_bonus_and_the_contract_bonus_counter() -> None:
    state = at_phase(fresh(4), "sell")
    no_coffee(state)
    state.order = [3, 2, 1, 0]  # reverse order: seat 0 first
    player = state.players[0]
    wants = components().contracts[player.contracts["A"]].wants(4)
    for coffee, n in wants.items():
        player.coffee[coffee] = n
    coins = player.coins
    top = state.contract_bonus["A"][-1]
    state = decide(state, 0, "contract.A")
    player = state.players[0]
    assert sum(player.coffee.values()) == 0
    assert player.coins == coins + 1
    assert player.counters == [top]
    assert only(state) == (0, "contract_bonus")
    state = decide(state, 0, "1")  # B-side style choice of the A space: a civet
    assert state.players[0].sumatra == 2
    assert only(state)[0] == 1  # the turn moved on


def test_finishing_a_contract_row_gives_a_row_bonus() -> None:
    state = at_phase(fresh(4), "sell")
    no_coffee(state)
    state.order = [3, 2, 1, 0]
    player = state.players[0]
    player.contracts.pop("A")
    player.fulfilled.append("A")
    player.coffee["kopi"] = 20
    state = decide(state, 0, "contract.B")
    state = decide(state, 0, "0")
    state = decide(state, 0, "gua")  # the B bonus: one Arabica step
    assert only(state) == (0, "row_bonus")
    state = decide(state, 0, "trader")
    assert state.players[0].traders == 4


def test_one_delivery_then_dropping_out_sets_next_turn_order() -> None:
    state = at_phase(fresh(4), "sell")
    no_coffee(state)
    state.order = [3, 2, 1, 0]
    first = next(iter(components().bars))
    need = components().bars[first][0].need
    state.players[0].coffee[need] = 1
    coins = state.players[0].coins
    state = decide(state, 0, f"bar.{first}.0")
    assert state.bars[first][0] == 0
    assert only(state) == (0, "sell_second")
    state = decide(state, 0, "drop")
    assert state.players[0].coins == coins + 1
    assert state.done[0] and state.next_order == [0]
    assert only(state) == (1, "sell")


def test_conversion_at_the_trade_ratio_never_makes_kopi_luwak() -> None:
    state = at_phase(fresh(4), "sell")
    no_coffee(state)
    state.order = [3, 2, 1, 0]
    state.players[0].coffee.update(gua=2, col=1, kopi=1)
    state = decide(state, 0, "convert.eth")
    state = decide(state, 0, "gua1", "gua2", "col1", "kopi1")
    coffee = state.players[0].coffee
    assert (coffee["eth"], coffee["gua"], coffee["kopi"]) == (1, 0, 0)
    assert "convert.kopi" not in {o.id for o in engine.decisions(state)[0].options}


# -- Phase 6 ------------------------------------------------------------------------------
def test_refresh_refills_bonus_coins_with_minus_three_tokens_and_pays_stock() -> None:
    state = fresh(4)
    no_coffee(state)
    player = state.players[0]
    player.bonus = ["marker", "trader"]
    player.coins = 1
    player.stocks = ["gua", "gua", "eth"]
    state = at_phase(state, "sell")
    state.next_order = [2, 1, 3]
    state.done = [False, True, True, True]
    state.order = [1, 2, 3, 0]
    state = decide(state, 0, "drop")
    player = state.players[0]
    assert player.coins == 0 and player.minus_tokens == 2 and "coins" in player.bonus
    assert (player.coffee["gua"], player.coffee["eth"]) == (2, 1)
    assert state.order == [2, 1, 3, 0] and state.period == 2 and state.phase == "work"
    assert all(c.coin for c in state.coops.values())


def test_delivering_to_all_six_bars_takes_a_wild_stock_counter() -> None:
    state = at_phase(fresh(4), "sell")
    state.order = [3, 2, 1, 0]
    bars = list(state.bars)
    for bar in bars[:5]:
        state.bars[bar][1] = 0
    state.players[0].coffee["kopi"] = 10
    state = decide(state, 0, "bar.seoul.0")
    state = decide(state, 0, "kopi1", "kopi2")
    assert state.players[0].stocks == ["wild"] and state.wild_stock == 3


def test_three_different_stock_counters_build_a_warehouse() -> None:
    state = at_phase(fresh(4), "sell")
    state.order = [3, 2, 1, 0]
    state.players[0].stocks = ["gua", "gua", "col", "wild"]
    state = decide(state, 0, "stock.1")
    (decision,) = engine.decisions(state)
    assert {o.id for o in decision.options} == {"gua", "col", "wild1"}
    state = decide(state, 0, "gua", "col", "wild1")
    state = decide(state, 0, "eth")  # the warehouse's coffee
    player = state.players[0]
    assert player.stocks == ["gua"] and player.built["warehouse"] == 2 and player.ratio == 3


def test_building_piggyback_in_a_cooperative_builds_there() -> None:
    state = fresh(3)
    clear_board(state)
    state = at_phase(state, "trade")
    state.passes = 0
    for player in state.players:
        player.coins = 10
    state.players[2].coffee["kopi"] = 1
    state = decide(state, 0, "build.production")
    state = decide(state, 0, "gua.0")
    assert only(state) == (1, "piggy_build")
    state = decide(state, 1, "decline")
    state = decide(state, 2, "join.fairtrade")
    state = decide(state, 2, "kopi")
    (decision,) = engine.decisions(state)
    assert decision.kind == "build_site"
    assert all(o.id.startswith("gua.") for o in decision.options)
    state = decide(state, 2, decision.options[0].id)
    assert 2 in state.coops["gua"].buildings["fairtrade"]
    assert state.players[0].coffee["kopi"] >= 1


def test_spectators_never_see_andres_face_down_counters() -> None:
    state = fresh(2, seed=9)
    view = engine.view(state, None)
    assert "counters" not in view["andre"]
    assert view["andre"]["flipped"] == []
    assert "rng" not in view and "you" not in view
    assert engine.view(state, 1)["you"] == 1


def test_seoul_takes_the_different_kinds_the_player_chooses() -> None:
    state = at_phase(fresh(4), "sell")
    no_coffee(state)
    state.order = [3, 2, 1, 0]
    state.players[0].coffee.update(gua=3, eth=1, kopi=1)
    state = decide(state, 0, "bar.seoul.1")  # three different kinds
    (decision,) = engine.decisions(state)
    assert decision.kind == "mixed_pay" and decision.min_choices == 3
    assert {o.id for o in decision.options} == {"gua", "eth", "kopi1"}
    state = decide(state, 0, "gua", "eth", "kopi1")
    assert state.players[0].coffee == {"gua": 2, "col": 0, "bra": 0, "eth": 0, "ind": 0, "kopi": 0}
    assert state.bars["seoul"][1] == 0
    assert engine.decisions(state)[0].kind in ("advance", "sell_second")


def test_refresh_asks_only_players_over_the_warehouse_limit() -> None:
    state = fresh(4)
    no_coffee(state)
    state.players[1].coffee.update(gua=12, col=2)
    state.players[2].coffee.update(eth=1, kopi=1)
    state = at_phase(state, "sell")
    state.done = [True, True, True, False]
    state.next_order = [0, 1, 2]
    state.order = [0, 1, 2, 3]
    state = decide(state, 3, "drop")
    assert [(d.seat, d.kind) for d in engine.decisions(state)] == [(1, "storage")]
    state = decide(state, 1, "gua")
    coffee = state.players[1].coffee
    assert (coffee["gua"], coffee["col"]) == (10, 0)  # one warehouse, on the gua column
    assert state.players[2].coffee["eth"] == 1 and state.phase == "work"


def test_coffee_costs_two_coins_until_1980_then_three() -> None:
    """EN "Phase 5: Sell", General Rules: "Periods 1–2: 2 coins each; Period 3: 3 coins"."""
    for period, price in ((1, 2), (2, 2), (3, 3)):
        state = at_phase(fresh(4), "sell")
        state.period = period
        no_coffee(state)
        state.order = [3, 2, 1, 0]  # Sell runs in reverse turn order: seat 0 first
        state.players[0].coins = 7
        state = decide(state, 0, "buy.eth")
        assert state.players[0].coins == 7 - price
        assert state.players[0].coffee["eth"] == 1
        assert only(state)[0] == 0  # buying is free: the turn goes on


def test_row_bonus_civet_goes_to_sumatra_but_in_1980_to_the_company_supply() -> None:
    """EN "Phase 5" A.5: "1 civet into Sumatra (Period 3: into your I. Work: COMPANY SUPPLY)"."""
    for period, in_sumatra, in_supply in ((2, 1, 0), (3, 0, 1)):
        state = fresh(4)
        state.period = period
        player = state.players[0]
        sumatra, civets = player.sumatra, player.civets
        player.row_items.append("civet")
        sell.row_bonus(state, 0, "civet")
        assert (player.sumatra - sumatra, player.civets - civets) == (in_sumatra, in_supply)


def test_the_four_player_colour_marker_leaves_the_game_once_used() -> None:
    """EN "Phase 6" 2: markers return "except the one in your color; if you used it, remove
    it from the game"."""
    state = fresh(4)
    player = state.players[0]
    assert player.color_marker and player.markers == 3
    spend_markers(player, 4)
    assert not player.color_marker and player.markers == 0 and "marker" in player.bonus
    return_pieces(state)
    assert player.markers == 3 and not player.color_marker and "marker" in player.bonus
    assert not fresh(3).players[0].color_marker


def test_nine_donkeys_per_colour_then_no_breeding_and_no_more_gains() -> None:
    """EN "Components": 9 donkeys per colour; breeding takes one "from your personal supply"."""
    state = fresh(4)
    clear_board(state)
    plant(state, "eth", 1, 0, owner=0)
    plant(state, "gua", 1, 0, owner=0)
    state.coops["gua"].pathways["1.0.0"] = Pathway(owner=0, donkeys=1)
    state = at_phase(state, "work")
    player = state.players[0]
    player.donkeys = 7  # 7 in the company supply + 1 on a pathway: one left
    assert "donkey" in options_of(state)
    state = decide(state, 0, "donkey")
    state = decide(state, 0, "eth.1.0.0")
    assert donkeys_left(state, 0) == 0
    gain_donkey(state, 0)
    assert state.players[0].donkeys == 7
    state.players[0].markers = 3
    assert "donkey" not in options_of(state)


def test_six_civets_per_colour_then_no_civet_action() -> None:
    """EN "Components": 6 civets per colour; one waits beside the contracts from setup."""
    state = at_phase(fresh(4), "work")
    player = state.players[0]
    assert player.row_items.count("civet") == 1 and player.sumatra == 1
    player.sumatra = 4
    assert civets_left(state, 0) == 1
    state = decide(state, 0, "civet")
    assert state.players[0].sumatra == 5 and civets_left(state, 0) == 0
    assert "civet" not in options_of(state)
    send_civet(state, 0)
    assert state.players[0].sumatra == 5


def options_of(state: CoffeeState, seat: int = 0) -> set[str]:
    """The Work options `seat` would have on its turn."""
    return {o.id for o in work.work_options(state, seat)}


def test_a_trader_without_coins_may_take_the_bonus_coins_to_act() -> None:
    state = at_phase(fresh(3), "trade")
    state.passes = 0
    player = state.players[0]
    player.coins = 1
    assert {o.id for o in engine.decisions(state)[0].options} == {"bonus-coins", "pass"}
    state = decide(state, 0, "bonus-coins")
    assert "trader.gua" in {o.id for o in engine.decisions(state)[0].options}
