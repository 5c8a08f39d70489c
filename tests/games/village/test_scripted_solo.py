"""A whole solo game against Karla from setup to the final score and title, played from
scripted_solo.json (recorded with record_script.py `1 39 scripted_solo.json`).

In 4 rounds Karla takes a cube after each of the player's cubes (same space and colour, else
clockwise, else the player's pick), flips fate tiles, dies into the chronicle by the space her
cube came from and into the graves, holds market days, reacts at the market and the church,
fills her church stages left to right, and ends the game by taking the last grave; the player
uses the next-start-player marker as a coin, triggers a market day, wins one majority and
loses three, and takes one final turn. The final score is counted by hand from the Big Box
rulebook (BB) and gives the title "traveller" (40-49).
"""

from __future__ import annotations

import pytest

from meeple_hall.games.village import engine
from meeple_hall.games.village.state import CHURCH, COUNCIL, VillageState
from tests.games.village.helpers import load_script, replay

SCRIPT = load_script("scripted_solo.json")
ACTIONS: list[list] = SCRIPT["actions"]


@pytest.fixture(scope="module")
def states() -> list[VillageState]:
    return replay(SCRIPT)


def at(states: list[VillageState], i: int, choice: str):
    assert ACTIONS[i] == [0, choice], f"the script changed at action {i}"
    return states[i], states[i + 1]


def karla(state: VillageState):
    assert state.karla is not None
    return state.karla


def test_the_script_is_a_whole_solo_game(states):
    assert SCRIPT["players"] == 1 and len(ACTIONS) == 96
    assert states[-1].phase == "over" and engine.decisions(states[-1]) == []
    assert states[-1].round == 4


def test_replays_from_setup_byte_identically_twice(states):
    first, second = replay(SCRIPT), replay(SCRIPT)
    for i in [*range(0, len(states), 10), len(states) - 1]:
        assert engine.dump(states[i]) == engine.dump(first[i]) == engine.dump(second[i])


def test_karla_takes_after_the_players_action_clockwise_for_the_same_colour(states):
    # The player takes crafts' orange and trains + builds at the wainwright (2 + 2 time).
    # Crafts holds no other orange; clockwise on Karla's board (market, travel, council)
    # the first orange is the council's. Her first cube goes beside the council icon,
    # passing no fate tile.
    before, after = at(states, 0, "crafts-orange")
    assert before.spaces["crafts"] == ["green", "orange", "pink"]
    assert karla(after).last == -1  # she waits for the end of the player's turn
    before, after = at(states, 1, "wainwright-train-0")
    assert after.players[0].time == 4
    assert after.spaces["council"] == ["orange", "pink"]
    assert karla(after).ring[0] == ["orange"] and not any(karla(after).top_up)
    # Crafts' green: the next green clockwise is the church's, so she reacts there: her
    # lowest member waiting on the church (a #3) goes into the black bag, for free.
    before, after = at(states, 3, "stables-trainonly-1")
    assert karla(after).ring[1] == ["green"]
    assert karla(after).waiting == [3, 4, 4] and "k:3" in after.black_bag


def test_the_next_start_marker_is_spent_as_a_coin(states):
    # Council entry for 1 time and 2 green: 1 green and the coin. Privilege 1: the marker.
    before, after = at(states, 5, "enter-2-green")
    assert (after.players[0].coins, after.players[0].cubes["green"]) == (0, 0)
    before, after = at(states, 6, "p1")
    assert after.players[0].marker_coin
    # Her third cube passes the first top fate tile: blank, nobody dies.
    assert karla(after).top_up == [True, False, False] and karla(after).dead == 0
    # West costs 2 pink: the player has 1 and pays the marker as the other (BB solo: the
    # marker may be used as a coin); west's reward is a real coin.
    before, after = at(states, 8, "go-west-3")
    b, a = before.players[0], after.players[0]
    assert (b.cubes["pink"], a.cubes["pink"]) == (1, 0)
    assert (b.marker_coin, a.marker_coin) == (True, False) and (b.coins, a.coins) == (0, 1)


def test_a_quill_kills_karlas_oldest_into_the_chronicle_of_the_cubes_space(states):
    # The player makes a wagon for pink + orange; Karla takes travel's pink; it passes the
    # second top tile, a quill: her oldest (a #1 beside the board) dies, into the travel
    # spaces of the chronicle because the cube came from travel.
    before, after = at(states, 11, "wainwright-cubes")
    k = karla(after)
    assert k.ring[4] == ["pink"]
    assert karla(before).top_up == [True, False, False] and k.top_up == [True, True, False]
    assert k.top[1] == "quill" and k.dead == 1
    assert k.beside == [1, 1, 1, 2, 2, 2]
    assert after.chronicle["travel"] == ["0", "k", "x", "x", "x"]


def test_karlas_market_day_and_the_reshuffled_fate_set(states):
    # Plague from family for the player (2 time); Karla's plague comes from the market: she
    # triggers a market day and serves the frontmost customer; the player has nothing to
    # sell. Her cube flips the last top tile: all three are up, the set is reshuffled face
    # down.
    before, after = at(states, 17, "born")
    assert before.stalls[:3] == ["c01", "c05", "c10"]
    assert karla(after).customers == ["c01"]
    assert after.stalls[:3] == ["c04", "c05", "c10"]
    assert karla(after).top_up == [False, False, False]
    assert karla(after).top.count("quill") == 1


def test_first_mass_the_player_beats_karla_on_the_rightmost_member(states):
    # Drawn: the player's #2 and Karla's #3, both onto stage 1; the player pays 1 grain to
    # move to stage 2; one member each, the player's is further right: 2 prestige.
    before, after = at(states, 23, "up-5")
    assert karla(before).church == {1: 3}
    assert (before.players[0].grain, after.players[0].grain) == (2, 1)
    before, after = at(states, 24, "done")
    assert after.players[0].prestige == 2 and after.round == 2
    # A new round: every cube on her board but the last goes back to the supply.
    assert [i for i, c in enumerate(karla(after).ring) if c] == [karla(after).last] == [8]


def test_the_player_picks_karlas_cube_when_no_cube_of_the_colour_is_left(states):
    # The player took harvest's green; no green is left on the board, and harvest holds
    # several colours: the player chooses, and gives her the brown.
    at(states, 40, "harvest-green")
    decision = engine.decisions(states[41])[0]
    assert decision.kind == "karla"
    assert not any("green" in cubes for cubes in states[41].spaces.values())
    _, after = at(states, 41, "take-brown")
    assert karla(after).ring[3] == ["brown"]


def test_a_karla_death_with_its_profession_full_goes_to_the_graves(states):
    before, after = at(states, 44, "travel-brown")
    assert "" not in before.chronicle["travel"][:2]
    assert after.graves[:3] == ["k", "", ""] and karla(after).dead == 3


def test_more_karla_members_in_the_church_win_the_majority(states):
    # Karla has 2 in the church (stages 1 and 2), the player 1 (moved to stage 3): no 2.
    before, after = at(states, 46, "up-5")
    assert karla(after).church == {1: 3, 2: 3}
    assert after.players[0].prestige == before.players[0].prestige == 2


def test_the_players_market_day_karla_serves_the_frontmost_when_he_does_not(states):
    # The player triggers and serves the third customer (scroll + ox) for free; Karla
    # serves the frontmost; the player then pays 1 green and 1 time (43 -> 44) for ox +
    # plow. The stalls refill from the waiting line.
    before, after = at(states, 56, "serve-c10")
    assert before.stalls[:3] == ["c12", "c05", "c10"]
    assert after.players[0].time == before.players[0].time
    assert karla(after).customers[-1] == "c12"
    before, after = at(states, 57, "serve-c05")
    b, a = before.players[0], after.players[0]
    assert (b.time, a.time) == (43, 44) and (b.cubes["green"], a.cubes["green"]) == (1, 0)
    assert a.customers == ["c10", "c05"]
    assert after.stalls[:3] == ["c23", "c18", "c15"]


def test_karla_fills_her_church_stages_left_to_right(states):
    # The player buys his #2 out of the bag; the draw brings Karla's #4: stages 1 and 2
    # hold her #3s, so it goes to stage 3.
    before, after = at(states, 68, "buy-6")
    assert (before.players[0].coins, after.players[0].coins) == (1, 0)
    assert karla(after).church == {1: 3, 2: 3, 3: 4}


def test_karla_takes_the_last_grave_and_the_player_has_one_final_turn(states):
    before, after = at(states, 91, "move-8-north")
    assert not before.ending and after.ending and after.ender == -1
    assert after.graves[:3] == ["k", "0", "k"]
    # North was visited already: no second reward.
    assert after.players[0].prestige == before.players[0].prestige
    assert engine.decisions(after)[0].kind == "turn"
    _, after = at(states, 93, "harvest")
    assert after.phase == "mass" and after.final_mass
    # The final mass draws Karla's last #4 onto stage 4.
    assert karla(states[-1]).church == {1: 3, 2: 3, 3: 4, 4: 4}


def test_final_score_and_title_counted_by_hand(states):
    last = states[-1]
    p = last.players[0]
    assert p.cities == ["west", "north", "hill", "capital"]
    assert sorted(m.stage for m in p.members if m.place == CHURCH) == [3]
    assert sorted(m.stage for m in p.members if m.place == COUNCIL) == [3]
    assert sum(slots.count("0") for slots in last.chronicle.values()) == 5
    assert p.customers == ["c10", "c05"] and p.coins == 0
    result = engine.result(last)
    assert result is not None
    # Prestige track: the first mass's majority 2 + north's reward 3 = 5 | 4 cities = 10 |
    # church stage 3 = 4 | council stage 3 = 4 | 5 in the chronicle = 12 | customers
    # scroll + ox 5 + ox + plow 7 = 12 | no coins. 5 + 10 + 4 + 4 + 12 + 12 = 47: BB's
    # table gives "traveller" for 40-49.
    assert dict(result.breakdown[0]) == {
        "prestige track": 2 + 3,
        "travel": 10,
        "church": 4,
        "council": 4,
        "chronicle": 12,
        "customers": 5 + 7,
        "coins": 0,
        "title: traveller": 0,
    }
    assert result.scores == (47,)
    seen = engine.view(last, None)
    assert seen["title"] == "traveller" and seen["title_rank"] == 2
