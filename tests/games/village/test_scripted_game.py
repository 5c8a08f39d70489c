"""A whole 4-player game from setup to the final scores, played from scripted_game.json.

The script was recorded with record_script.py (`4 25 scripted_game.json`): a seeded chooser
that prefers purposeful moves. In 8 rounds it has every action: harvests of 2, 3 (horse and
plow) and 4 (ox and plow); births and members brought home; training with and without making
a good, goods by time, by cubes and by grain, the mill; market days with free and paid sales
and passes; council entries, promotions to stage 4 and all four privileges (also without
moving); trips from the village and on between cities with all three rewards; the church for
brown and for time; the well (once for a market day); coins paid for cubes lacking and by
choice; masses with buy-outs, promotions and majorities; deaths into every chronicle
profession and into the graves; and the end when the last grave is taken.

The moments below check what a player at the table could check from the Big Box rulebook (BB);
the final breakdowns are counted by hand from BB's final scoring and the end state.
Seat n in the comments is seat index n - 1 in the code, as the game's log says.
"""

from __future__ import annotations

import pytest

from meeple_hall.games.village import engine
from meeple_hall.games.village.state import CHURCH, COUNCIL, TRAVEL, WORKSHOP, Player, VillageState
from tests.games.village.helpers import load_script, replay

SCRIPT = load_script("scripted_game.json")
ACTIONS: list[list] = SCRIPT["actions"]


@pytest.fixture(scope="module")
def states() -> list[VillageState]:
    return replay(SCRIPT)


def at(states: list[VillageState], i: int, seat: int, choice: str):
    """The states around action i, after checking the script there is the move described."""
    assert ACTIONS[i] == [seat, choice], f"the script changed at action {i}"
    return states[i], states[i + 1]


def seat_marks(state: VillageState, seat: int) -> int:
    return sum(slots.count(str(seat)) for slots in state.chronicle.values())


def stages(player: Player, place: str) -> list[int]:
    return sorted(m.stage for m in player.members if m.place == place)


def test_the_script_is_a_whole_game_to_the_end(states):
    assert SCRIPT["players"] == 4 and len(ACTIONS) == 472
    last = states[-1]
    assert last.phase == "over" and engine.decisions(last) == []
    assert states[-2].phase != "over"
    assert last.round == 8


def test_replays_from_setup_byte_identically_twice(states):
    first, second = replay(SCRIPT), replay(SCRIPT)
    for i in [*range(0, len(states), 40), len(states) - 1]:
        assert engine.dump(states[i]) == engine.dump(first[i]) == engine.dump(second[i])


def test_setup_and_seat_compensation(states):
    # BB setup 5 and 14: one coin each; seat 2 one grain, seat 3 one random cube, seat 4
    # one cube of its choice (asked first, before seat 1 takes a cube).
    first = states[0]
    assert [p.coins for p in first.players] == [1, 1, 1, 1]
    assert [p.grain for p in first.players] == [0, 1, 0, 0]
    assert sum(first.players[2].cubes.values()) == 1
    before, after = at(states, 0, 3, "brown")
    assert sum(before.players[3].cubes.values()) == 0
    assert after.players[3].cubes["brown"] == 1
    # The 4-player card puts 24 cubes on the board, the market space 1.
    assert sum(len(c) for c in first.spaces.values()) == 24
    assert len(first.spaces["market"]) == 1


def test_training_and_making_a_plow_costs_both_times(states):
    # BB smithy: train a #1 from the farm (3 time) and make a plow (3 more): 0 + 3 + 3 = 6.
    before, after = at(states, 2, 0, "smithy-train-0")
    assert (before.players[0].time, after.players[0].time) == (0, 6)
    assert after.players[0].goods["plow"] == 1
    assert after.players[0].members[0].place == WORKSHOP
    assert after.players[0].members[0].where == "smithy"


def test_a_first_trip_pays_wagon_time_and_route_and_takes_the_reward(states):
    # BB travel: 2 time, 1 wagon and the route's cubes (village to the west city: 2 pink);
    # the west city's reward is 1 coin: time 4 + 2 = 6, coins 1 + 1 = 2.
    before, after = at(states, 12, 1, "go-west-1")
    b, a = before.players[1], after.players[1]
    assert (b.goods["wagon"], a.goods["wagon"]) == (1, 0)
    assert (b.cubes["pink"], a.cubes["pink"]) == (2, 0)
    assert (b.time, a.time) == (4, 6)
    assert (b.coins, a.coins) == (1, 2)
    assert a.cities == ["west"] and a.members[1].place == TRAVEL


def test_the_well_with_a_coin_standing_in_for_the_third_cube(states):
    # BB well: 3 cubes of one colour for any action; seat 3 has 2 brown and pays its coin as
    # the third (BB coins: a coin is any influence cube); then harvests 2 grain.
    before, after = at(states, 13, 2, "well-brown-harvest")
    assert (before.players[2].cubes["brown"], before.players[2].coins) == (2, 1)
    assert (after.players[2].cubes["brown"], after.players[2].coins) == (0, 0)
    assert before.spaces == after.spaces  # no cube was taken from the board
    _, after = at(states, 14, 2, "harvest")
    assert after.players[2].grain == 2


def test_a_plague_death_comes_at_the_end_of_the_turn(states):
    # BB time: a plague cube costs 2 time (9 -> 11, past the quill at 10); the harvest is
    # still carried out (3 + 2 = 5 grain), then the oldest member dies: seat 2's #1s are in
    # the wainwright, on the travel map, in the council and on the farm; it chooses the
    # traveller, who goes to the chronicle's travel spaces.
    before, after = at(states, 42, 1, "harvest-black")
    assert (before.players[1].time, after.players[1].time) == (9, 11)
    assert after.supply["black"] == before.supply["black"] + 1
    _, after = at(states, 43, 1, "harvest")
    assert after.players[1].grain == 5
    decision = engine.decisions(after)[0]
    assert decision.kind == "die" and len(decision.options) == 4
    _, after = at(states, 44, 1, "die-1")
    assert after.chronicle["travel"][0] == "1"


def test_first_mass_majority_goes_to_the_rightmost_member(states):
    # BB mass: seat 1 and seat 4 each have one member drawn onto stage 1; seat 4 pays
    # 1 + 1 grain to move its #1 to stage 3; equal numbers, the rightmost member wins 2.
    before, after = at(states, 49, 3, "up-1")
    assert before.phase == "mass"
    assert stages(before.players[0], CHURCH) == [1] and stages(before.players[3], CHURCH) == [1]
    assert (before.players[3].grain, after.players[3].grain) == (2, 1)
    _, after = at(states, 50, 3, "up-1")
    assert after.players[3].grain == 0 and stages(after.players[3], CHURCH) == [3]
    assert after.players[3].prestige == 2 and after.players[0].prestige == 0
    # Seat 2 took the next-start-player marker in the council (privilege 1): it starts
    # round 2 (BB "開始新一輪").
    assert ACTIONS[21] == [1, "p1"]
    assert after.round == 2 and after.start_player == 1
    assert engine.decisions(after)[0].seat == 1


def test_harvest_amounts_with_ox_and_plow_and_horse_and_plow(states):
    # BB harvest: ox + plow 4 grain (0 -> 4); horse + plow 3 grain (0 -> 3).
    before, after = at(states, 86, 0, "harvest")
    assert before.players[0].goods["ox"] and before.players[0].goods["plow"]
    assert (before.players[0].grain, after.players[0].grain) == (0, 4)
    before, after = at(states, 155, 2, "harvest")
    goods = before.players[2].goods
    assert goods["horse"] and goods["plow"] and not goods["ox"]
    assert (before.players[2].grain, after.players[2].grain) == (0, 3)


def test_stables_for_grain_the_mill_and_the_office_for_a_pink(states):
    # BB stables: a horse for 3 grain (4 -> 1).
    before, after = at(states, 104, 2, "stables-horse-grain")
    assert (before.players[2].grain, after.players[2].grain) == (4, 1)
    assert after.players[2].goods["horse"] == 1
    # BB mill: 2 grain and 2 time for 2 coins.
    before, after = at(states, 121, 0, "mill")
    b, a = before.players[0], after.players[0]
    assert (a.grain, a.time, a.coins) == (b.grain - 2, b.time + 2, b.coins + 2)
    # BB office: a scroll for 1 pink.
    before, after = at(states, 117, 2, "office-cubes")
    assert after.players[2].cubes["pink"] == before.players[2].cubes["pink"] - 1
    assert after.players[2].goods["scroll"] == 1


def test_the_trigger_sells_first_for_free_and_others_pay_green_and_time(states):
    # BB market: seat 3 triggers and serves scroll + plow for nothing more.
    before, after = at(states, 135, 2, "serve-c09")
    b, a = before.players[2], after.players[2]
    assert (a.time, a.cubes) == (b.time, b.cubes)
    assert (a.goods["scroll"], a.goods["plow"]) == (b.goods["scroll"] - 1, b.goods["plow"] - 1)
    # Seat 1 triggers a later market day and sells free (horse + grain); seat 2 then pays
    # 1 green and 1 time with plow + grain (time 55 -> 56).
    before, after = at(states, 355, 0, "serve-c04")
    assert after.players[0].time == before.players[0].time
    before, after = at(states, 356, 1, "serve-c20")
    b, a = before.players[1], after.players[1]
    assert (b.cubes["green"], a.cubes["green"]) == (2, 1) and (b.time, a.time) == (55, 56)
    assert (b.grain, a.grain) == (1, 0) and a.customers == ["c20"]
    # Seat 4 pays its time 49 -> 50: past the quill during a market day, its member dies at
    # once (BB "例外"), before the day goes on.
    before, after = at(states, 357, 3, "serve-c06")
    assert (before.players[3].time, after.players[3].time) == (49, 50)
    assert after.market is not None and engine.decisions(after)[0].kind == "die"
    before, after = at(states, 358, 3, "die-6")
    assert after.players[3].members[6].place == "chronicle"
    assert after.chronicle["council"][1] == "3"


def test_travel_on_between_cities_and_a_city_rewards_only_once(states):
    # Seat 4 moves its traveller west -> forest (2 orange): 3 prestige, 4 -> 7.
    before, after = at(states, 174, 3, "move-5-forest")
    b, a = before.players[3], after.players[3]
    assert (b.cubes["orange"], a.cubes["orange"]) == (3, 1)
    assert (b.prestige, a.prestige) == (4, 7) and a.cities == ["west", "forest"]
    # Capital -> hill costs 2 brown: it holds 3 brown but pays 1 coin in place of one (BB
    # coins: 2 brown, or 1 coin and 1 brown, or 2 coins); the hill gives 2 cubes of its
    # choice.
    before, after = at(states, 326, 3, "move-5-hill-coins1")
    b, a = before.players[3], after.players[3]
    assert (b.cubes["brown"], a.cubes["brown"]) == (3, 2) and (b.coins, a.coins) == (2, 1)
    before, after = at(states, 327, 3, "green-pink")
    assert after.players[3].cubes["green"] == before.players[3].cubes["green"] + 1
    assert after.players[3].cubes["pink"] == before.players[3].cubes["pink"] + 1
    # Back to the capital: one marker and one reward per city, so nothing more.
    before, after = at(states, 396, 3, "move-5-capital")
    b, a = before.players[3], after.players[3]
    assert a.cities == b.cities and (a.prestige, a.coins) == (b.prestige, b.coins)


def test_buying_members_out_of_the_black_bag(states):
    # BB mass step 1: seat 2 buys both its #2s out for 1 coin each (2 -> 0); they go to
    # stage 1 and need no draw.
    before, after = at(states, 181, 1, "buy-4")
    assert (before.players[1].coins, after.players[1].coins) == (2, 1)
    _, after = at(states, 182, 1, "buy-5")
    assert after.players[1].coins == 0
    assert after.players[1].members[4].place == CHURCH
    assert after.players[1].members[5].place == CHURCH


def test_council_to_stage_4_and_its_privilege(states):
    # Stage 3 -> 4 costs 2 green and 3 time (27 -> 30, past the quill).
    before, after = at(states, 193, 3, "promote-4-green")
    b, a = before.players[3], after.players[3]
    assert (b.cubes["green"], a.cubes["green"]) == (2, 0) and (b.time, a.time) == (27, 30)
    assert a.members[4].stage == 4 and a.deaths_due == 1
    # Privilege 4 without moving: exactly 1 coin for 3 prestige (7 -> 10).
    assert ACTIONS[212] == [3, "privilege"]
    before, after = at(states, 213, 3, "p4")
    assert (before.players[3].coins, after.players[3].coins) == (1, 0)
    assert (before.players[3].prestige, after.players[3].prestige) == (7, 10)


def test_a_full_profession_sends_the_dead_to_the_graves(states):
    # Seat 3's #1 in the wainwright dies, the crafts spaces open at 4 players are all taken.
    before, after = at(states, 258, 2, "mill")
    assert "" not in before.chronicle["crafts"]
    assert before.graves[0] == "" and after.graves[0] == "2"


def test_the_well_for_a_market_day(states):
    # 3 green for the market: the trigger's first sale is free (horse + plow + grain).
    before, after = at(states, 403, 3, "well-green-market")
    assert (before.players[3].cubes["green"], after.players[3].cubes["green"]) == (3, 0)
    assert after.market is not None and after.market.trigger == 3
    before, after = at(states, 404, 3, "serve-c23")
    assert after.players[3].time == before.players[3].time
    assert after.players[3].customers == ["c06", "c23"]


def test_the_last_grave_ends_the_game_after_the_others_final_turns(states):
    # Seat 3's #2 fills the last open grave (4 players: the grave labelled "5" is blocked);
    # seats 4, 1 and 2 take one more turn each, then the final mass, then the end.
    before, after = at(states, 462, 2, "die-4")
    assert not before.ending and after.ending and after.ender == 2
    assert after.graves == ["2", "1", "1", "0", "2", "x"]
    turns = [
        engine.decisions(s)[0].seat for s in states[463:-1] if engine.decisions(s)[0].kind == "turn"
    ]
    assert turns == [3, 0, 1]
    assert states[469].phase == "turn" and states[470].phase == "mass"
    assert states[-1].final_mass and states[-1].phase == "over"


def test_final_scores_counted_by_hand(states):
    last = states[-1]
    p = last.players
    # What the end state shows, seat by seat.
    assert p[0].cities == ["north"] and stages(p[0], CHURCH) == [2, 3]
    assert stages(p[0], COUNCIL) == [3] and seat_marks(last, 0) == 5
    assert p[0].customers == ["c05", "c04"] and p[0].coins == 0
    assert p[1].cities == ["west"] and stages(p[1], CHURCH) == [4]
    assert stages(p[1], COUNCIL) == [1] and seat_marks(last, 1) == 5
    assert p[1].customers == ["c20", "c12"] and p[1].coins == 0
    assert p[2].cities == ["north"] and stages(p[2], CHURCH) == [1, 1, 1, 4]
    assert stages(p[2], COUNCIL) == [] and seat_marks(last, 2) == 2
    assert p[2].customers == ["c09", "c01"] and p[2].coins == 0
    assert p[3].cities == ["west", "forest", "capital", "hill"]
    assert stages(p[3], CHURCH) == [3] and stages(p[3], COUNCIL) == [4]
    assert seat_marks(last, 3) == 5 and p[3].customers == ["c06", "c23"] and p[3].coins == 0

    result = engine.result(last)
    assert result is not None
    # Seat 1: prestige track 3 (north's reward; no church majority) | travel 1 city = 1 |
    # church stage 2 (3) + stage 3 (4) = 7 | council stage 3 = 4 | chronicle 5 members = 12 |
    # customers ox + plow 7 + horse + grain 4 = 11 | coins 0. 3 + 1 + 7 + 4 + 12 + 11 = 38.
    seat1 = {"travel": 1, "church": 3 + 4, "council": 4, "chronicle": 12, "customers": 7 + 4}
    # Seat 2: prestige 4 majorities (rounds 3 to 6) = 8 | travel 1 | church stage 4 = 6 |
    # council stage 1 = 0 | chronicle 5 = 12 | customers plow + grain 4 + plow + wagon 5 = 9.
    seat2 = {"travel": 1, "church": 6, "council": 0, "chronicle": 12, "customers": 4 + 5}
    # Seat 3: prestige north 3 + majorities in rounds 7 and 8 (4) = 7 | travel 1 |
    # church 2 + 2 + 2 + 6 = 12 | chronicle 2 members = 0 | customers scroll + plow 5 +
    # horse + plow 6 = 11.
    seat3 = {"travel": 1, "church": 2 + 2 + 2 + 6, "council": 0, "chronicle": 0, "customers": 11}
    # Seat 4: prestige majorities in rounds 1 and 2 (4) + forest 3 + a coin for 3 = 10 |
    # travel 4 cities = 10 | church stage 3 = 4 | council stage 4 = 6 | chronicle 5 = 12 |
    # customers ox + wagon 6 + horse + plow + grain 7 = 13.
    seat4 = {"travel": 10, "church": 4, "council": 6, "chronicle": 12, "customers": 6 + 7}
    hand = [
        {"prestige track": 3, **seat1, "coins": 0},
        {"prestige track": 2 * 4, **seat2, "coins": 0},
        {"prestige track": 3 + 2 * 2, **seat3, "coins": 0},
        {"prestige track": 2 * 2 + 3 + 3, **seat4, "coins": 0},
    ]
    assert [dict(b) for b in result.breakdown] == hand
    assert result.scores == (38, 36, 31, 55)
    assert result.ranks == (2, 3, 4, 1)
