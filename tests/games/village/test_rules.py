"""Rules of the base game pinned one by one."""

from __future__ import annotations

import pytest

from meeple_hall.games.core import Action, IllegalAction
from meeple_hall.games.village import data, engine
from meeple_hall.games.village.rounds import fill_spaces
from meeple_hall.games.village.state import CHURCH, COUNCIL, FARM, TRAVEL, WORKSHOP, Frame
from tests.games.village.test_rulebook_examples import at_turn, choose


def fresh(num_players: int = 2, seed: int = 1):
    return engine.new(num_players, seed, {"compensation": "off"})


def ids(state) -> set[str]:
    return {o.id for o in engine.decisions(state)[0].options}


def test_setup_follows_the_player_count() -> None:
    for n in range(2, 6):
        state = fresh(n)
        card = data.card(n)
        for player in state.players:
            assert sorted(m.number for m in player.members if m.place == FARM) == [1, 1, 1, 1]
            assert player.coins == 1
        assert sum(1 for t in state.stalls if t) == card["stalls"]
        assert len(state.queue) == 5
        assert sum(len(c) for c in state.spaces.values()) == sum(card["cubes"].values())
        assert sum(len(c) for c in state.spaces.values()) % n == 0
        blocked = sum(s.count("x") for s in state.chronicle.values()) + state.graves.count("x")
        labels = [
            label for k, v in data.setup()["chronicle"].items() if k != "verified" for label in v
        ]
        assert blocked == sum(1 for label in labels if label in card["blocked"])
        assert state.black_bag == ["monk"] * 4


def test_seat_compensation_follows_the_turn_order_from_the_start_player() -> None:
    state = engine.new(5, seed=3)
    start = state.start_player
    second, third, fourth, fifth = ((start + k) % 5 for k in range(1, 5))
    assert state.players[second].grain == 1
    assert sum(state.players[third].cubes.values()) == 1
    assert state.players[fifth].coins == 2
    assert state.players[start].coins == state.players[second].coins == 1
    (decision,) = engine.decisions(state)
    assert (decision.kind, decision.seat) == ("gift", fourth)
    state = choose(state, fourth, "pink")
    assert state.players[fourth].cubes["pink"] == 1
    decision = engine.decisions(state)[0]
    assert (decision.kind, decision.seat) == ("turn", start)


def test_a_random_player_starts_unless_the_table_seats_the_start_player_first() -> None:
    # BB setup 13: the oldest player starts; the bot cannot know ages, so it draws one.
    starts = {engine.new(4, seed=s).start_player for s in range(12)}
    assert len(starts) > 1
    seated = engine.new(4, seed=3, options={"start": "seat1"})
    assert seated.start_player == 0 and seated.players[1].grain == 1


def test_green_bag_gets_the_card_cubes_and_every_plague_cube_and_keeps_leftovers() -> None:
    state = fresh(2)
    on_board = sum(len(c) for c in state.spaces.values())
    in_bag = sum(state.green_bag.values())
    card = data.card(2)
    assert on_board + in_bag == 4 * card["add_per_colour"] + 6
    assert state.supply["black"] == 0
    state.spaces = {s: [] for s in data.spaces()}
    state.supply["orange"] = 1
    before = dict(state.green_bag)
    fill_spaces(state)
    assert state.supply["orange"] == 0  # only what the supply has
    total = sum(before.values()) + 1 + 3 * card["add_per_colour"]
    assert sum(state.green_bag.values()) + sum(map(len, state.spaces.values())) == total


def test_plague_costs_two_time_and_goes_back_to_the_supply() -> None:
    state = at_turn(fresh(), 0, family=["black"], harvest=["green"])
    state = choose(state, 0, "family-black")
    assert state.players[0].time == 2
    assert state.supply["black"] == 1


def test_harvest_amounts_and_the_grain_cap() -> None:
    for goods, amount in (
        (dict(), 2),
        (dict(horse=1, plow=1), 3),
        (dict(ox=1, plow=1, horse=1), 4),
    ):
        state = at_turn(fresh(), 0, harvest=["green", "green"])
        state.players[0].goods.update(goods)
        state = choose(state, 0, "harvest-green")
        state = choose(state, 0, "harvest")
        assert state.players[0].grain == amount
        assert state.players[0].goods["plow"] == goods.get("plow", 0)
    state = at_turn(fresh(), 0, harvest=["green", "green"])
    state.players[0].grain = 4
    state = choose(choose(state, 0, "harvest-green"), 0, "harvest")
    assert state.players[0].grain == 5


def test_no_harvest_without_a_member_on_the_farm() -> None:
    state = at_turn(fresh(), 0, harvest=["green", "green"])
    for m in state.players[0].members[:4]:
        m.place, m.where = WORKSHOP, "office"
    state = choose(state, 0, "harvest-green")
    assert engine.decisions(state)[0].seat == 1  # the turn simply ends


def test_family_births_the_lowest_number_or_brings_a_member_home() -> None:
    state = at_turn(fresh(), 0, family=["pink", "pink"])
    state.players[0].members[3].place, state.players[0].members[3].stage = COUNCIL, 2
    state = choose(state, 0, "family-pink")
    assert ids(state) == {"born", "recall-3", "skip"}
    born = choose(state, 0, "born")
    assert sorted(m.number for m in born.players[0].members if m.place == FARM) == [1, 1, 1, 2]
    home = choose(state, 0, "recall-3")
    assert home.players[0].members[3].place == FARM


def test_crafts_by_time_by_cubes_and_by_grain() -> None:
    state = at_turn(fresh(), 0, crafts=["orange", "orange"])
    player = state.players[0]
    player.cubes["pink"] = 1
    player.grain = 3
    state = choose(state, 0, "crafts-orange")
    options = ids(state)
    assert {"wainwright-cubes", "smithy-cubes", "office-cubes", "stables-ox-grain"} <= options
    assert "wainwright-time" not in options  # nobody trained yet
    wagon = choose(state, 0, "wainwright-train-0")
    assert wagon.players[0].time == 4 and wagon.players[0].goods["wagon"] == 1
    assert wagon.players[0].members[0].place == WORKSHOP
    ox = choose(state, 0, "stables-ox-grain")
    assert ox.players[0].grain == 0 and ox.players[0].goods["ox"] == 1
    plow = choose(state, 0, "smithy-cubes")
    assert plow.players[0].cubes == {"orange": 0, "green": 0, "brown": 0, "pink": 0}


def test_a_trained_member_makes_goods_for_production_time_only() -> None:
    state = at_turn(fresh(), 0, crafts=["orange", "orange"])
    state.players[0].members[0].place, state.players[0].members[0].where = WORKSHOP, "office"
    state = choose(choose(state, 0, "crafts-orange"), 0, "office-time")
    assert state.players[0].time == data.rules()["workshops"]["office"]["produce"]


def test_a_member_may_be_trained_without_making_a_good() -> None:
    state = at_turn(fresh(), 0, crafts=["orange", "orange"])
    state = choose(choose(state, 0, "crafts-orange"), 0, "smithy-trainonly-0")
    player = state.players[0]
    assert player.members[0].place == WORKSHOP and player.members[0].where == "smithy"
    assert player.time == data.rules()["workshops"]["smithy"]["train"]
    assert player.goods["plow"] == 0


def test_mill_turns_two_grain_and_two_time_into_two_coins() -> None:
    state = at_turn(fresh(), 0, crafts=["orange", "orange"])
    state.players[0].grain = 2
    state = choose(choose(state, 0, "crafts-orange"), 0, "mill")
    assert (state.players[0].grain, state.players[0].time, state.players[0].coins) == (0, 2, 3)


def test_council_entry_privilege_and_next_start_player() -> None:
    state = at_turn(fresh(), 1, council=["green", "green"])
    state.players[1].cubes["green"] = 1  # with the one taken: 2 green
    state = choose(state, 1, "council-green")
    state = choose(state, 1, "enter-0-green")
    assert ids(state) == {"p1", "none"}
    state = choose(state, 1, "p1")
    assert state.next_start == 1
    assert state.players[1].members[0].place == COUNCIL
    assert state.players[1].time == 1


def test_council_privileges_up_to_the_stage_reached() -> None:
    state = at_turn(fresh(), 0, council=["green", "green"])
    state.players[0].members[0].place, state.players[0].members[0].stage = COUNCIL, 4
    state = choose(choose(state, 0, "council-green"), 0, "privilege")
    options = ids(state)
    assert {"p1", "p2-orange-green", "p3-ox", "p4", "none"} <= options
    assert "p2-green-green" not in options  # two cubes of different colours
    state = choose(state, 0, "p4")
    assert (state.players[0].coins, state.players[0].prestige) == (0, 3)


def test_travel_pays_wagon_time_and_route_and_rewards_a_city_once() -> None:
    state = at_turn(fresh(), 0, travel=["brown", "brown"])
    player = state.players[0]
    player.goods["wagon"] = 2
    player.cubes["brown"] = 3
    state = choose(choose(state, 0, "travel-brown"), 0, "go-north-0")
    player = state.players[0]
    assert player.members[0].place == TRAVEL and player.members[0].where == "north"
    assert (player.goods["wagon"], player.cubes["brown"], player.time) == (1, 2, 2)
    assert player.prestige == 3 and player.cities == ["north"]
    state = at_turn(state, 0, travel=["brown"], harvest=["green"])
    state = choose(choose(state, 0, "travel-brown"), 0, "go-north-1")
    assert state.players[0].prestige == 3  # no second reward for north
    assert state.players[0].cities == ["north"]


def test_church_sends_a_member_into_the_black_bag_for_brown_or_time() -> None:
    state = at_turn(fresh(), 0, church=["brown", "brown"])
    state = choose(state, 0, "church-brown")
    brown = choose(state, 0, "church-0-brown")
    assert brown.black_bag.count("0:0") == 1 and brown.players[0].cubes["brown"] == 0
    slow = choose(state, 0, "church-0-time")
    assert slow.players[0].time == 3 and slow.players[0].cubes["brown"] == 1


def test_the_well_trades_three_cubes_of_one_colour_for_any_action() -> None:
    state = at_turn(fresh(), 0, harvest=["green"])
    state.players[0].cubes["pink"] = 3
    assert "well-pink-church" in ids(state)
    state = choose(state, 0, "well-pink-church")
    assert state.players[0].cubes["pink"] == 0
    assert state.spaces["harvest"] == ["green"]
    assert engine.decisions(state)[0].kind == "church"


def test_refused_actions_change_nothing() -> None:
    state = at_turn(fresh(), 0, harvest=["green"])
    before = engine.dump(state)
    with pytest.raises(IllegalAction):
        engine.apply(state, Action(0, ("church-green",)))
    with pytest.raises(IllegalAction):
        engine.apply(state, Action(1, ("harvest-green",)))
    assert engine.dump(state) == before


def test_oldest_visible_member_dies_and_the_bag_is_safe() -> None:
    state = at_turn(fresh(), 0, family=["black"], harvest=["green"])
    player = state.players[0]
    player.time = data.track_length() - 1
    for m in player.members[:4]:
        m.place = "bag"
    state.black_bag += [f"0:{i}" for i in range(4)]
    player.members[4].place = FARM  # a #2
    state = choose(state, 0, "family-black")
    state = choose(state, 0, "skip")
    assert state.players[0].members[4].place == "chronicle"
    assert state.chronicle["farm"][0] == "0"


def test_a_full_profession_sends_the_dead_to_the_graves() -> None:
    state = at_turn(fresh(), 0, family=["black"], harvest=["green"])
    state.chronicle["farm"] = ["1" if s == "" else s for s in state.chronicle["farm"]]
    state.players[0].time = data.track_length() - 1
    state = choose(choose(state, 0, "family-black"), 0, "skip")
    assert state.graves[0] == "0"
    assert state.players[0].members[0].place == "grave"


def test_last_space_ends_the_game_after_everyone_elses_final_turn() -> None:
    state = engine.new(3, seed=5, options={"compensation": "off"})
    state = at_turn(state, 1, family=["black", "green", "green"], harvest=["pink"])
    state.graves = ["2" if g == "" else g for g in state.graves]
    state.graves[0] = ""
    state.chronicle["farm"] = ["2" if s == "" else s for s in state.chronicle["farm"]]
    state.players[1].time = data.track_length() - 1
    state = choose(choose(state, 1, "family-black"), 1, "skip")
    assert state.ending and state.ender == 1
    assert state.final_turns == [0]
    (decision,) = engine.decisions(state)
    assert (decision.kind, decision.seat) == ("turn", 2)
    state = choose(state, 2, "family-green")
    state = choose(state, 2, "skip")
    state = choose(state, 0, "family-green")
    state = choose(state, 0, "skip")
    assert state.phase == "over"  # the final mass had nothing to decide
    result = engine.result(state)
    assert result is not None and len(result.scores) == 3


def test_final_turns_on_an_empty_board_are_free_actions() -> None:
    state = engine.new(2, seed=8, options={"compensation": "off"})
    state = at_turn(state, 0, family=["black"])
    state.chronicle = {k: ["1" if s == "" else s for s in v] for k, v in state.chronicle.items()}
    state.chronicle["farm"][0] = ""
    state.players[0].time = data.track_length() - 1
    state = choose(choose(state, 0, "family-black"), 0, "skip")
    assert state.ending and not any(state.spaces.values())
    options = ids(state)
    assert options == {
        f"free-{a}"
        for a in ("harvest", "family", "crafts", "market", "travel", "council", "church")
    }
    state = choose(state, 1, "free-harvest")
    state = choose(state, 1, "harvest")
    assert state.players[1].grain == 2
    assert state.phase == "over"


def test_final_scoring_tables_and_tie_breaks() -> None:
    state = fresh(2)
    a, b = state.players
    a.cities = ["north", "west", "hill"]
    a.members[4].place, a.members[4].stage = CHURCH, 4
    a.members[5].place, a.members[5].stage = COUNCIL, 3
    a.members[6].place, a.members[6].stage = COUNCIL, 1
    a.customers = ["c01"]
    a.coins = 2
    a.prestige = 5
    state.chronicle["farm"][:2] = ["0", "0"]
    state.chronicle["council"][:2] = ["0", "0"]
    for i in range(4):
        a.members[i].place = "chronicle"
    state.phase = "over"
    result = engine.result(state)
    assert result is not None
    assert result.breakdown[0] == {
        "prestige track": 5,
        "travel": 6,
        "church": 6,
        "council": 4,
        "chronicle": 7,
        "customers": 6,
        "coins": 2,
    }
    b.prestige = result.scores[0] - 1  # b: same total (1 coin), more grain
    b.grain = 1
    result = engine.result(state)
    assert result.scores[0] == result.scores[1]
    assert result.ranks == (2, 1)
    b.grain = 0
    result = engine.result(state)
    assert result.ranks == (2, 1)  # equal grain: b has more living members (11 vs 7)


def test_mass_draws_exactly_four_pieces_and_returns_the_monks() -> None:
    state = at_turn(fresh(), 1, harvest=["green"])
    for i in range(4):
        state.players[0].members[i].place = "bag"
        state.black_bag.append(f"0:{i}")
    state.players[0].coins = 0
    state.players[1].coins = 0
    state = choose(state, 1, "harvest-green")
    state = choose(state, 1, "skip")
    drawn = sum(1 for m in state.players[0].members if m.place == CHURCH)
    assert state.black_bag.count("monk") == 4
    assert drawn + sum(1 for t in state.black_bag if t != "monk") == 4
    assert 0 <= drawn <= 4
    assert state.round == 2


def test_next_start_player_marker_starts_the_next_round() -> None:
    state = at_turn(fresh(), 1, harvest=["green"])
    state.next_start = 1
    state = choose(choose(state, 1, "harvest-green"), 1, "skip")
    assert state.start_player == 1 and state.next_start is None
    assert engine.decisions(state)[0].seat == 1


def test_market_day_is_mandatory_and_others_pay_green_and_time() -> None:
    state = at_turn(fresh(), 0, market=["pink"], harvest=["green"])
    state.stalls = ["c02", "c18", "c21", "", ""]
    state.players[0].grain = 0
    state.players[1].grain = 4
    state.players[1].cubes["green"] = 0
    state.players[1].coins = 1
    waiting = list(state.queue)
    state = choose(state, 0, "market-pink")
    (decision,) = engine.decisions(state)
    assert decision.seat == 1 and {o.id for o in decision.options} == {
        "serve-c02",
        "serve-c18",
        "pass",
    }
    state = choose(state, 1, "serve-c18")
    assert (state.players[1].coins, state.players[1].time, state.players[1].grain) == (0, 1, 0)
    assert state.market is None
    assert state.stalls[:3] == ["c02", waiting[0], "c21"]
    assert state.queue[:4] == waiting[1:]


def test_time_passing_the_quill_during_a_market_day_kills_at_once() -> None:
    state = at_turn(fresh(), 0, market=["pink"], harvest=["green"])
    state.stalls = ["c02", "c03", "c21", "", ""]
    state.players[1].grain = 5
    state.players[1].goods["scroll"] = 1
    state.players[1].cubes["green"] = 2
    state.players[1].time = data.track_length() - 1
    state.players[0].grain = 0
    state = choose(state, 0, "market-pink")
    state = choose(state, 1, "serve-c02")
    assert state.players[1].members[0].place == "chronicle"
    assert state.market is not None  # the day goes on after the death
    (decision,) = engine.decisions(state)
    assert decision.kind == "market" and decision.seat == 1
    assert state.stack[-1] == Frame("market", 1)


def test_supply_shortages_limit_cube_rewards() -> None:
    state = at_turn(fresh(), 0, council=["green", "green"])
    state.players[0].members[0].place, state.players[0].members[0].stage = COUNCIL, 2
    state.supply["orange"] = 0
    state = choose(choose(state, 0, "council-green"), 0, "privilege")
    assert not any("orange" in i for i in ids(state))
    assert "p2-green-pink" in ids(state)


def test_when_every_customer_is_served_the_stalls_stay_empty() -> None:
    state = at_turn(fresh(), 0, market=["pink"], harvest=["green"])
    state.stalls = ["c02", "", "", "", ""]
    state.queue, state.customer_stack = [], []
    state.players[0].grain = 3
    state = choose(choose(state, 0, "market-pink"), 0, "serve-c02")
    assert state.market is None
    assert state.stalls == ["", "", "", "", ""]
    state = at_turn(state, 1, market=["pink"], harvest=["green"])
    state = choose(state, 1, "market-pink")  # a market day with nobody to serve
    assert state.market is None and engine.decisions(state)[0].seat == 0


def test_coins_chosen_for_a_two_colour_cost_replace_cubes_in_the_cost_order() -> None:
    state = at_turn(fresh(), 0, crafts=["green", "green"])
    player = state.players[0]
    player.cubes.update(pink=1, orange=1)
    player.coins = 2
    state = choose(state, 0, "crafts-green")
    assert {"wainwright-cubes", "wainwright-cubes-coins1", "wainwright-cubes-coins2"} <= ids(state)
    state = choose(state, 0, "wainwright-cubes-coins1")
    player = state.players[0]
    assert (player.cubes["pink"], player.cubes["orange"], player.coins) == (1, 0, 1)
    assert player.goods["wagon"] == 1


def test_an_option_that_needs_coins_for_missing_cubes_says_so_in_its_label() -> None:
    state = at_turn(fresh(), 0, crafts=["pink", "green"])
    state.players[0].coins = 2
    state = choose(state, 0, "crafts-pink")
    labels = {o.id: str(o.label) for o in engine.decisions(state)[0].options}
    assert labels["office-cubes"] == "Office: a scroll for 1 pink"
    # The cubes are written as they will be paid: the coin in the cube's place (issue 14:
    # not a cube and a coin).
    assert labels["office-cubes-coins1"] == "Office: a scroll for 1 coin"
    assert labels["smithy-cubes"] == "Smithy: a plow for 1 pink + 1 coin"
    assert labels["smithy-cubes-coins2"] == "Smithy: a plow for 2 coins"
    # Solo: the next-start-player marker is spent first, as a coin, and the label says so.
    state.players[0].marker_coin = True
    labels = {o.id: str(o.label) for o in engine.decisions(state)[0].options}
    assert labels["office-cubes-coins1"] == "Office: a scroll for the start marker as a coin"
    assert labels["smithy-cubes-coins2"] == (
        "Smithy: a plow for the start marker as a coin + 1 coin"
    )


def test_trip_labels_give_the_cost_and_a_new_citys_reward() -> None:
    state = at_turn(fresh(), 0, travel=["brown", "brown"])
    player = state.players[0]
    player.goods["wagon"] = 2
    player.cubes["brown"] = 3
    state = choose(state, 0, "travel-brown")
    labels = {o.id: str(o.label) for o in engine.decisions(state)[0].options}
    assert labels["go-north-0"] == "#1 travels to North: 2 brown + wagon + 2 time → 3 prestige"
    state = choose(state, 0, "go-north-0")
    state = at_turn(state, 0, travel=["brown"], harvest=["green"])
    state = choose(state, 0, "travel-brown")
    labels = {o.id: str(o.label) for o in engine.decisions(state)[0].options}
    assert labels["go-north-1"] == "#1 travels to North: 2 brown + wagon + 2 time (visited)"


def test_a_final_turn_says_so_in_its_prompt() -> None:
    state = at_turn(fresh(), 1, harvest=["green"])
    state.ending, state.ender = True, 0
    assert str(engine.decisions(state)[0].prompt).startswith("Your final turn: take a cube")
    state = at_turn(state, 1)
    assert str(engine.decisions(state)[0].prompt).startswith("Your final turn: any action")
