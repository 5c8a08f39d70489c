"""Whole games (four players, then three) replayed from frozen scripts and checked against the
rulebook. scripted_game.json and scripted_game_3p.json say how their choices were produced.

Along the way the tests check what a player at the table could check from the rulebook (where
resources land, who takes which workers at a season's end, how an upgrade is paid); at the end
they score every village by hand from the visible end state. Seats are 0-3; the log calls
them P1-P4.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from meeple_hall.games.core import Action
from meeple_hall.games.keyflower import engine
from meeple_hall.games.keyflower.state import KeyflowerState
from meeple_hall.games.keyflower.village import edge, neighbours

HERE = Path(__file__).parent
SCRIPT = json.loads((HERE / "scripted_game.json").read_text())
SCRIPT_3P = json.loads((HERE / "scripted_game_3p.json").read_text())
P1, P2, P3, P4 = 0, 1, 2, 3

Check = Callable[[KeyflowerState, KeyflowerState], None]


def _new(script: dict = SCRIPT) -> KeyflowerState:
    return engine.new(script["players"], script["seed"])


def _step(state: KeyflowerState, index: int, script: dict = SCRIPT) -> KeyflowerState:
    seat, choices = script["actions"][index]
    return engine.apply(state, Action(seat, tuple(choices)))


def _replay(script: dict = SCRIPT) -> KeyflowerState:
    s = _new(script)
    for i in range(len(script["actions"])):
        s = _step(s, i, script)
    return s


def _play_checking(script: dict, checks: dict[int, Check]) -> KeyflowerState:
    s = _new(script)
    for i in range(len(script["actions"])):
        after = _step(s, i, script)
        if i in checks:
            checks[i](s, after)
        s = after
    return s


def _res(s: KeyflowerState, tile: str) -> dict[str, int]:
    return dict(s.tiles[tile].resources)


def _total(counts: dict[str, int]) -> int:
    return sum(counts.values())


# -- moments along the way -------------------------------------------------------------------


def spring_gold_mine_on_offer_pays_to_the_home_tile(a: KeyflowerState, b: KeyflowerState) -> None:
    # Production 2: resources from a tile being bid for go on the user's home tile (H2).
    assert a.players[P3].home == "H2" and "S03" in a.offer
    assert _res(b, "H2") == {"gold": 1} and b.supply["gold"] == a.supply["gold"] - 1 == 47


def spring_miner_gives_two_iron_to_the_home_tile(a: KeyflowerState, b: KeyflowerState) -> None:
    assert _res(b, "H6") == {"iron": 2} and b.supply["iron"] == a.supply["iron"] - 2


def spring_workshop_gives_the_chosen_one_of_three(a: KeyflowerState, b: KeyflowerState) -> None:
    # Workshop (front): one of iron, stone, wood at the user's choice; P3 takes wood.
    assert _res(b, "H2") == {"gold": 1, "wood": 1}


def spring_outbid_workers_move_on_together(a: KeyflowerState, b: KeyflowerState) -> None:
    # Bidding 5: P2's lone yellow on the Keystone quarry, beaten by P4's two, moves on whole
    # to a bid on the Stable; P2 has nothing behind the screen to add.
    assert [(g.seat, g.count) for g in a.tiles["S05"].bids] == [(P2, 1), (P4, 2)]
    assert a.players[P2].screen == {}
    assert [(g.seat, g.colour, g.count) for g in b.tiles["S05"].bids] == [(P4, "yellow", 2)]
    assert [(g.seat, g.colour, g.count) for g in b.tiles["S10"].bids] == [(P2, "yellow", 1)]


def spring_ends_in_the_rulebook_order(a: KeyflowerState, b: KeyflowerState) -> None:
    # 2. Spring tiles nobody bid for (Keywood S06, Miner S07) leave; P1's blue on each
    #    goes to the bag.
    assert not a.tiles["S06"].bids and not a.tiles["S07"].bids
    assert "S06" not in b.tiles and "S07" not in b.tiles
    # 3. From the start player (P3) clockwise, winners take their tiles and the workers on
    #    them; winning bids go to the bag.
    assert b.players[P3].to_place == ["S04"]
    assert b.players[P4].to_place == ["S05"]
    assert b.players[P1].to_place == ["S03"]
    assert b.players[P2].to_place == ["S12", "S10", "S11"]
    # P3: P2's red on the Key mine. P4: P2's yellow 1 and its own 2 on the Keystone quarry,
    # plus (4.) P1's blue on its home. P1: P3's yellow from the Gold mine. P2: P3's 5 blue
    # from the Workshop, P4's 1 + 2 and P1's 3 red from the Woodcutter, plus (4.) P3's blue
    # on its home: 5 + 1 = 6 blue.
    assert b.players[P3].screen == {"red": 1}
    assert b.players[P4].screen == {"yellow": 3, "blue": 1}
    assert b.players[P1].screen == {"red": 1, "yellow": 1}
    assert b.players[P2].screen == {"blue": 6, "red": 6}
    # Bag: blue 23 + 2 (unbid tiles) + 4 (Workshop bid) = 29; red 27 + 1 (Key mine) + 1
    # (Woodcutter) = 29; yellow 26 + 2 (quarry) + 1 (Gold mine) + 1 (Stable) + 1 (turn-order
    # bid, 5.v) = 31.
    assert a.bag == {"blue": 23, "red": 27, "yellow": 26}
    assert b.bag == {"blue": 29, "red": 29, "yellow": 31}
    # 5. P4 won turn-order tile 1 and chooses first; nobody won the start tile (T3), so the
    #    rest follow clockwise from the current start player P3: P3, P1, P2.
    assert b.pick_order == [P4, P3, P1, P2] and b.start == P3 and not b.start_won


def spring_start_player_moves_left_when_nobody_won_the_start_tile(
    a: KeyflowerState, b: KeyflowerState
) -> None:
    # 5.a.iv: after the boats, the start player's left neighbour (P4) starts summer.
    assert b.season == 1 and b.start == P4 and b.current == P4


def summer_hiring_fair_swaps_a_skill_for_two(a: KeyflowerState, b: KeyflowerState) -> None:
    # Hiring fair: a skill tile set aside, two drawn, the set-aside one mixed back in.
    assert a.players[P2].skills == {"pick": 1}
    assert _total(b.players[P2].skills) == 2
    assert _total(b.skill_pile) == _total(a.skill_pile) - 1


def summer_tavern_discard_goes_to_the_bag_after_the_draw(
    a: KeyflowerState, b: KeyflowerState
) -> None:
    # Tavern: discard one worker, draw two, then the discarded one goes into the bag.
    assert a.players[P1].screen == {"yellow": 1}
    assert _total(b.players[P1].screen) == 2
    assert _total(b.bag) == _total(a.bag) - 2 + 1


def autumn_boat_3a_lets_p1_choose_wood_for_the_whole_home_cost(
    a: KeyflowerState, b: KeyflowerState
) -> None:
    # Home tiles cost wood + stone + iron; with summer boat 3a any resource pays for any, so
    # P1's iron 1 and wood 3 can pay 1 iron + 2 wood or 3 wood. P1 keeps the iron.
    assert a.tiles["U11"].side == "a" and "U11" in a.players[P1].village
    assert [o.id for o in engine.decisions(a)[0].options] == ["1iron+2wood", "3wood"]
    assert b.tiles["H6"].upgraded and _res(b, "H6") == {"iron": 1}
    assert b.supply["wood"] == a.supply["wood"] + 3


def autumn_fair_sends_a_red_worker_to_the_bag_for_two_green(
    a: KeyflowerState, b: KeyflowerState
) -> None:
    assert a.players[P2].screen == {"blue": 2, "red": 1}
    assert b.players[P2].screen == {"blue": 1, "green": 2}
    assert b.bag["red"] == a.bag["red"] + 1 and b.green == a.green - 2 == 18


def winter_tiles_are_revealed_together(a: KeyflowerState, b: KeyflowerState) -> None:
    # Each player chose secretly (P1 one tile, the others two); the seven are laid out
    # shuffled and nobody's view says who chose which.
    assert sorted(b.offer) == ["W02", "W03", "W04", "W06", "W07", "W10", "W12"]
    assert [p.winter_chosen for p in b.players] == [1, 2, 2, 2]
    seen = json.dumps(engine.view(b, None))
    assert "winter_pick" not in seen and "W09" not in seen  # P1's kept tile stays hidden


def winter_home_pays_with_the_resources_the_player_picks(
    a: KeyflowerState, b: KeyflowerState
) -> None:
    # Home 2 costs wood + stone + iron; on it lie 2 gold, 4 wood, 2 stone, 1 iron. Gold
    # stands in for any one of them: seven ways to pay. P3 pays the three named ones.
    assert _res(a, "H2") == {"gold": 2, "wood": 4, "stone": 2, "iron": 1}
    assert len(engine.decisions(a)[0].options) == 7
    assert b.tiles["H2"].upgraded and _res(b, "H2") == {"gold": 2, "wood": 3, "stone": 1}


def winter_ends_with_tiles_workers_and_boats(a: KeyflowerState, b: KeyflowerState) -> None:
    # 2. Unbid winter tiles leave. 3. From the start player P2: Jeweller to P2, Windmill and
    # Village hall to P4, Craftsman's guild to P1. 5.b: turn-order tiles join the villages.
    for gone in ("W04", "W06", "W07"):
        assert gone not in b.tiles
    assert b.players[P1].to_place == ["W02"]
    assert b.players[P2].to_place == ["W03", "T3"]
    assert b.players[P3].to_place == []
    assert b.players[P4].to_place == ["W12", "W10", "T2"]
    # 4. Workers on one's own village come back whoever placed them. P2: yellow 3 + 1 + 2 + 1,
    # blue 3 + 5, red 1 (from P1 on the home), green 1 (on the Woodcutter).
    assert b.players[P1].screen == {"red": 1, "yellow": 2, "blue": 1}
    assert b.players[P2].screen == {"yellow": 7, "blue": 8, "red": 1, "green": 1}
    assert b.players[P3].screen == {"red": 3, "yellow": 1, "blue": 4}
    assert b.players[P4].screen == {"blue": 5, "red": 3}
    # Winning bids to the bag: yellow 25 + 2 + 1 + 2 = 30, red 31 + 1, blue 20 + 1 + 1.
    assert b.bag == {"blue": 22, "red": 32, "yellow": 30, "green": 1}
    # Boats: T2's winner P4 first, then T3's P2 (the new start player), then clockwise from
    # P2 those without a tile: P3, P1.
    assert b.pick_order == [P4, P2, P3, P1] and b.start == P2 and b.start_won


def winter_boats_are_chosen_in_turn_order(a: KeyflowerState, b: KeyflowerState) -> None:
    # P4 Keyflower, P2 Flipper, P3 Sea Breeze; P1 is left with Sea Bastion.
    assert [p.boat for p in b.players] == ["B2", "B4", "B3", "B1"]


def flipper_upgrades_a_tile_for_free(a: KeyflowerState, b: KeyflowerState) -> None:
    assert [o.id for o in engine.decisions(a)[0].options] == ["H5", "S11", "U03", "A08", "none"]
    assert b.tiles["U03"].upgraded
    assert b.supply == a.supply and b.players[P2].skills == a.players[P2].skills


CHECKS: dict[int, Check] = {
    3: spring_gold_mine_on_offer_pays_to_the_home_tile,
    24: spring_miner_gives_two_iron_to_the_home_tile,
    33: spring_workshop_gives_the_chosen_one_of_three,
    85: spring_outbid_workers_move_on_together,
    89: spring_ends_in_the_rulebook_order,
    106: spring_start_player_moves_left_when_nobody_won_the_start_tile,
    119: summer_hiring_fair_swaps_a_skill_for_two,
    179: summer_tavern_discard_goes_to_the_bag_after_the_draw,
    359: autumn_boat_3a_lets_p1_choose_wood_for_the_whole_home_cost,
    386: autumn_fair_sends_a_red_worker_to_the_bag_for_two_green,
    448: winter_tiles_are_revealed_together,
    529: winter_home_pays_with_the_resources_the_player_picks,
    620: winter_ends_with_tiles_workers_and_boats,
    623: winter_boats_are_chosen_in_turn_order,
    649: flipper_upgrades_a_tile_for_free,
}


def test_scripted_game_events_follow_the_rulebook() -> None:
    s = _new()
    assert [p.home for p in s.players] == ["H6", "H5", "H2", "H3"]
    assert s.start == P3  # Home 2 is the lowest numbered home tile
    assert engine.result(_play_checking(SCRIPT, CHECKS)) is not None


# -- the end, scored by hand ----------------------------------------------------------------


def _village(s: KeyflowerState, seat: int) -> dict[str, tuple[bool, dict[str, int]]]:
    return {t: (s.tiles[t].upgraded, _res(s, t)) for t in s.players[seat].village}


def test_scripted_game_final_scores_by_hand() -> None:
    s = _replay()
    result = engine.result(s)
    assert result is not None
    # Every pair of neighbouring tiles meets road to road (nobody owns boat 2a).
    for p in s.players:
        for t in p.village:
            for d, o in neighbours(s, p, t):
                assert (edge(s.tiles[t], d) == "R") == (edge(s.tiles[o], (d + 3) % 6) == "R")
    # P2 won the start tile (T3) in winter: the start keyple is P2's wildcard.
    assert s.start == P2 and s.start_won

    # P1: upgraded Home 6 (5); Gold mine, Brewer front (0); summer boat 3a (0).
    # Sea Bastion: the home has two neighbours, which do not meet: no road loop, 0.
    # Craftsman's guild: red 1, yellow 2, blue 1 make one set of three colours: 3.
    # Gold: 3 on the home, no gold tile to take it: 3 x 1. Skills (2 picks) score nothing.
    assert _village(s, P1) == {
        "H6": (True, {"iron": 6, "stone": 1, "wood": 2, "gold": 3}),
        "S03": (False, {"wood": 1}),
        "U01": (False, {}),
        "U11": (False, {}),
        "B2": (False, {}),
        "W02": (False, {}),
    }
    assert s.players[P1].screen == {"red": 1, "yellow": 2, "blue": 1}
    assert {o for _, o in neighbours(s, s.players[P1], "H6")} == {"S03", "U01"}
    sets = min(s.players[P1].screen[c] for c in ("blue", "red", "yellow"))
    p1 = {"tiles": 5, "adjacency": 0, "storage": 0, "winter": 3 * sets, "boats": 0, "gold": 3}
    assert sum(p1.values()) == 5 + 3 + 3 == 11

    # P2: upgraded Workshop 3, Stable 5, Farrier (flipped by Flipper) 5; Forge 4; Home 5 and
    # Woodcutter front 0: tiles 17. Flipper 2. Turn order 3 touches the Jeweller and the
    # Woodcutter: 2. No gold at all, so the keyple is declared a gold for the Jeweller: 2.
    assert _village(s, P2) == {
        "H5": (False, {"stone": 2}),
        "S12": (True, {"stone": 1}),
        "S10": (True, {"stone": 2}),
        "S11": (False, {"wood": 2}),
        "U03": (True, {}),
        "A08": (False, {}),
        "B4": (False, {}),
        "T3": (False, {}),
        "W03": (False, {}),
    }
    assert {o for _, o in neighbours(s, s.players[P2], "T3")} == {"W03", "S11"}
    p2 = {"tiles": 3 + 5 + 5 + 4, "adjacency": 2, "storage": 0, "winter": 2, "boats": 2, "gold": 0}
    assert sum(p2.values()) == 17 + 2 + 2 + 2 == 23

    # P3: upgraded Home 2 5, Key mine 3, Smelter 7; Hiring fair 0. Sawmill: 1 per tile next
    # to it, only the Smelter: 1. Sea Breeze: the home's water side faces the Hiring fair,
    # so no boat is on the river: 0. Gold 2 on the home: 2. No winter tile.
    assert _village(s, P3) == {
        "H2": (True, {"gold": 2, "wood": 2, "stone": 1, "iron": 3}),
        "S04": (True, {"wood": 1}),
        "U04": (False, {"wood": 1}),
        "U06": (True, {}),
        "A10": (False, {}),
        "B3": (False, {}),
    }
    assert {o for _, o in neighbours(s, s.players[P3], "A10")} == {"U06"}
    p3 = {"tiles": 5 + 3 + 7, "adjacency": 1, "storage": 0, "winter": 0, "boats": 0, "gold": 2}
    assert sum(p3.values()) == 15 + 1 + 2 == 18

    # P4: upgraded Home 3 5, Keystone quarry 3; Inn 0. Turn order 2 touches the Inn: 1.
    # Keyflower: transport capacity 2 (upgraded Home 3, the only transport tile): 2.
    # Village hall on blue, the largest colour (blue 5, red 3): 5.
    # Resources: wood 2 + 1, iron 2, gold 3 + 1 = 9. Windmill takes 5 of them, the 3 wood
    # and 2 iron: 5 points; the 4 gold left score 1 each: 4.
    assert _village(s, P4) == {
        "H3": (True, {"wood": 2, "iron": 2, "gold": 3}),
        "S05": (True, {"wood": 1}),
        "A06": (False, {"gold": 1}),
        "W10": (False, {}),
        "W12": (False, {}),
        "T2": (False, {}),
        "B1": (False, {}),
    }
    assert s.players[P4].screen == {"blue": 5, "red": 3}
    p4 = {"tiles": 5 + 3, "adjacency": 1, "storage": 0, "winter": 5 + 5, "boats": 2, "gold": 4}
    assert sum(p4.values()) == 8 + 1 + 10 + 2 + 4 == 25

    assert list(result.breakdown) == [p1, p2, p3, p4]
    assert result.scores == (11, 23, 18, 25)
    assert result.ranks == (4, 2, 3, 1)


# -- the three-player game -------------------------------------------------------------------


def summer_boat_1b_won_this_summer_gives_a_green_with_the_boat(
    a: KeyflowerState, b: KeyflowerState
) -> None:
    # P2 won summer boat 1 (side b) this summer; taking Sea Breeze's 2 workers and 2 skills it
    # also takes a green worker from the supply (1b: "at the end of summer and autumn").
    assert a.players[P2].to_place == ["U09"] and a.tiles["U09"].side == "b"
    assert a.players[P2].screen == {"yellow": 5, "blue": 1}
    assert b.players[P2].screen == {"yellow": 6, "blue": 2, "green": 1}
    assert b.green == a.green - 1 == 19


def winter_boat_2b_doubles_the_wainwright(a: KeyflowerState, b: KeyflowerState) -> None:
    # Wainwright (front): carry 4, 1 upgrade; boat 2b doubles both: 8 and 2.
    assert "U10" in a.players[P3].village and a.tiles["U10"].side == "b"
    assert (b.move.carry, b.move.upgrades) == (8, 2)


def winter_eighth_step_ends_the_transport_on_the_barn(a: KeyflowerState, b: KeyflowerState) -> None:
    # One resource one step at a time: the eighth step is the last; nothing can be upgraded,
    # so the turn passes on. The four resources are all still in P3's village, two on the barn.
    assert a.move.carry == 1
    assert b.current == P1 and b.move.stage == "action"
    village = [_res(b, t) for t in b.players[P3].village]
    assert sum(_total(r) for r in village) == 4
    assert _res(b, "A01") == {"gold": 1, "iron": 1} and _res(b, "H6") == {"iron": 2}


def winter_ends_three_players(a: KeyflowerState, b: KeyflowerState) -> None:
    # 3. From the start player P3: Watermill, Village hall, Craftsman's guild to P3;
    # Keythedral and Apothecary to P1; Scholar to P2; turn-order tiles 1 and 2 to P2.
    assert b.players[P3].to_place == ["W11", "W10", "W02"]
    assert b.players[P1].to_place == ["W05", "W01"]
    assert b.players[P2].to_place == ["W08", "T1", "T2"]
    # 4. P3: blue 1 from the home, yellow 1 + 2 + 1 + 2 + 1 from the Alehouse, Inn and
    # Wainwright, green 1 from the quarry.
    assert b.players[P1].screen == {"blue": 1, "yellow": 3}
    assert b.players[P2].screen == {"red": 4, "green": 1}
    assert b.players[P3].screen == {"blue": 1, "yellow": 7, "green": 1}
    # Bag: blue 37 + 1 (T1); red 32 + 1 + 1 + 2; yellow 26 + 1 + 1 + 1 + 1 (T2).
    assert b.bag == {"blue": 38, "red": 36, "yellow": 30}
    # P2 holds tiles 1 and 2 but chooses one boat; T2 is the start tile for three players.
    assert b.pick_order == [P2, P3, P1] and b.start == P2 and b.start_won


def winter_boat_1b_gives_a_green_with_the_boat(a: KeyflowerState, b: KeyflowerState) -> None:
    assert b.players[P2].boat == "B1"
    assert b.players[P2].screen == {"red": 4, "green": 2} and b.green == a.green - 1


CHECKS_3P: dict[int, Check] = {
    178: summer_boat_1b_won_this_summer_gives_a_green_with_the_boat,
    434: winter_boat_2b_doubles_the_wainwright,
    466: winter_eighth_step_ends_the_transport_on_the_barn,
    474: winter_ends_three_players,
    475: winter_boat_1b_gives_a_green_with_the_boat,
}


def test_three_player_game_events_follow_the_rulebook() -> None:
    assert engine.result(_play_checking(SCRIPT_3P, CHECKS_3P)) is not None


def test_three_player_final_scores_by_hand() -> None:
    s = _replay(SCRIPT_3P)
    result = engine.result(s)
    assert result is not None
    assert s.start == P2 and s.start_won  # the keyple is P2's wildcard

    # P1: upgraded Home 3 5; Keythedral 12. Sculptor: 2 per upgraded neighbour, its
    # neighbours (Sea Breeze, summer boat 3b) are not upgraded: 0. Sea Breeze: the home's
    # water side faces the summer boat's field side, so no boat is on the river: 0.
    # Apothecary: 4 workers (blue 1, yellow 3), no set of 5: 0. 8 resources, no gold, no
    # resource tile to score them (3b only lets them stand in for each other): 0.
    assert _village(s, P1) == {
        "H3": (True, {"iron": 5, "stone": 3}),
        "U11": (False, {}),
        "A11": (False, {}),
        "B3": (False, {}),
        "W01": (False, {}),
        "W05": (False, {}),
    }
    assert s.players[P1].screen == {"blue": 1, "yellow": 3}
    assert {o for _, o in neighbours(s, s.players[P1], "A11")} == {"B3", "U11"}
    p1 = {"tiles": 5, "adjacency": 0, "storage": 0, "winter": 12, "boats": 0, "gold": 0}
    assert sum(p1.values()) == 17

    # P2: upgraded Gold mine 3 and Key mine 3, Goldsmith 4: 10. Stone yard: nothing on it.
    # Keyflower: Home 4 (front) is the only transport tile, capacity 1: 1. Turn order 2
    # touches T1 and the Scholar (2), turn order 1 touches T2 (1): 3. Scholar on saws:
    # 2 saws + the keyple declared a saw = 3 x 3 = 9.
    assert _village(s, P2) == {
        "H4": (False, {"stone": 6}),
        "S03": (True, {"stone": 1}),
        "S04": (True, {"stone": 1}),
        "U09": (False, {}),
        "A09": (False, {}),
        "A03": (False, {}),
        "B1": (False, {}),
        "W08": (False, {}),
        "T2": (False, {}),
        "T1": (False, {}),
    }
    assert s.players[P2].skills == {"anvil": 1, "saw": 2}
    p2 = {"tiles": 3 + 3 + 4, "adjacency": 2 + 1, "storage": 0, "winter": 3 * 3, "boats": 1}
    p2["gold"] = 0
    assert sum(p2.values()) == 23

    # P3: upgraded Home 6 5 and Keystone quarry 3: 8. Sea Bastion: home, Alehouse and
    # Blacksmith meet road to road in a triangle, a loop of 3 tiles: 3. Barn (front, any
    # resource 1 each): the gold and the iron on it: 2. Village hall on yellow (7 of blue 1,
    # yellow 7, green 1): 7. Craftsman's guild: no red, no set: 0. Watermill on iron: the
    # 2 iron on the home: 2 (the barn's iron is scored there already).
    assert _village(s, P3) == {
        "H6": (True, {"iron": 2}),
        "S01": (False, {}),
        "S05": (True, {}),
        "U10": (False, {}),
        "A06": (False, {}),
        "A02": (False, {}),
        "A07": (False, {}),
        "A01": (False, {"gold": 1, "iron": 1}),
        "W11": (False, {}),
        "B2": (False, {}),
        "W02": (False, {}),
        "W10": (False, {}),
    }
    triangle = {"H6": {"S01", "A02"}, "S01": {"H6", "A02"}, "A02": {"H6", "S01"}}
    for tile, others in triangle.items():
        for d, o in neighbours(s, s.players[P3], tile):
            if o in others:
                assert edge(s.tiles[tile], d) == "R" == edge(s.tiles[o], (d + 3) % 6)
    p3 = {"tiles": 5 + 3, "adjacency": 0, "storage": 1 + 1, "winter": 7 + 2, "boats": 3}
    p3["gold"] = 0
    assert sum(p3.values()) == 22

    assert list(result.breakdown) == [p1, p2, p3]
    assert result.scores == (17, 23, 22) and result.ranks == (3, 1, 2)


@pytest.mark.parametrize("script", [SCRIPT, SCRIPT_3P], ids=["4p", "3p"])
def test_scripted_games_replay_byte_identically(script: dict) -> None:
    def trace() -> list[str]:
        s = _new(script)
        out = []
        for i in range(len(script["actions"])):
            s = _step(s, i, script)
            out.append(hashlib.sha256(engine.dump(s).encode()).hexdigest())
        return out

    first, second = trace(), trace()
    assert first == second
    # A game saved half way and loaded again plays on to the same end, byte for byte.
    s = _new(script)
    half = len(script["actions"]) // 2
    for i in range(half):
        s = _step(s, i, script)
    s = engine.load(engine.dump(s))
    for i in range(half, len(script["actions"])):
        s = _step(s, i, script)
    assert hashlib.sha256(engine.dump(s).encode()).hexdigest() == first[-1]
