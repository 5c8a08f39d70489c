"""A whole 3-player game from setup to the final scores, played from scripted_game.json.

The script was recorded with record_script.py (seed 0, 3 players, seat 1 starting): a seeded
chooser that prefers purposeful moves. The game has all eight building types, ships, animals,
castles (with their extra actions), mines, knowledge tiles, black-depot purchases, discards, the
ship goods limit, warehouse sales, a town hall placement, areas completed in all five phases,
large and small colour bonus tiles, and the 3-player depot 6 that alternates castle and mine.

The moments below check what a player at the table could check from the rulebook; the final
breakdowns are counted by hand from the rules and the visible end state, with the sums written
out (3 players: 3 points per goods tile sold, bonus tiles 6 large / 3 small).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meeple_hall.games.burgundy import engine
from meeple_hall.games.burgundy.rules import tile
from meeple_hall.games.burgundy.state import BurgundyState
from meeple_hall.games.core import Action

SCRIPT = json.loads(Path(__file__).with_name("scripted_game.json").read_text())
ACTIONS: list[list] = SCRIPT["actions"]


def replay() -> list[BurgundyState]:
    """The state before every action, and the end state last."""
    state = engine.new(SCRIPT["players"], seed=SCRIPT["seed"], options=SCRIPT["options"])
    states = [state]
    for seat, *picked in ACTIONS:
        state = engine.apply(state, Action(seat, tuple(picked)))
        states.append(state)
    return states


@pytest.fixture(scope="module")
def states() -> list[BurgundyState]:
    return replay()


def at(states: list[BurgundyState], i: int, seat: int, *picked: str):
    """The states around action i, after checking the script there is the move described."""
    assert ACTIONS[i] == [seat, *picked], f"the script changed at action {i}"
    return states[i], states[i + 1]


def faces(player) -> dict[int, str]:
    return {h: tile(t).face for h, t in player.estate.items()}


def test_the_script_is_a_whole_game_to_the_end(states):
    assert SCRIPT["players"] == 3 and len(ACTIONS) == 514
    assert states[-1].over and engine.decisions(states[-1]) == []
    assert not states[-2].over


def test_replays_from_setup_byte_identically_twice(states):
    first, second = replay(), replay()
    for i in [*range(0, len(states), 40), len(states) - 1]:
        assert engine.dump(states[i]) == engine.dump(first[i]) == engine.dump(second[i])


def test_selling_with_a_worker_and_buying_from_the_black_depot(states):
    # Seat 1 turns a 4 into a 5 with one worker and sells its one goods tile 5: 1 tile x 3
    # points (3 players), 1 silverling.
    before, after = at(states, 0, 0, "4+1")
    assert before.players[0].dice == [4, 4] and before.players[0].workers == 1
    before, after = at(states, 1, 0, "sell")
    b, a = before.players[0], after.players[0]
    assert (b.goods[5], a.goods.get(5)) == (1, None) and a.sold == {5: 1}
    assert a.points == {"goods sold": 3}
    assert (a.silver, a.workers) == (b.silver + 1, b.workers - 1) == (2, 0)
    # Then it buys the black depot's church for 2 silverlings, into storage.
    before, after = at(states, 6, 0, "church")
    assert before.stack[-1].kind == "buy"
    assert after.players[0].silver == 0
    assert [tile(t).face for t in after.players[0].storage] == ["carpenter", "church"]
    bought = after.players[0].storage[-1]
    assert bought in before.black and bought not in after.black


def test_workers_wrap_between_6_and_1(states):
    # Seat 2 turns a 6 into a 1 with one worker (6 -> 1) to put its pig3 on hex 6 (die 1).
    before, after = at(states, 433, 1, "6+1")
    assert before.players[1].dice[before.players[1].used.index(False)] == 6
    before, after = at(states, 435, 1, "pig3@6")
    assert (before.players[1].workers, after.players[1].workers) == (3, 2)
    # Later it turns a 1 into a 5 with two workers (1 -> 6 -> 5) for a ship on hex 20 (die 5).
    before, after = at(states, 461, 1, "1-2")
    before, after = at(states, 463, 1, "ship@20")
    assert (before.players[1].workers, after.players[1].workers) == (2, 0)


def test_a_full_storage_makes_room_by_discarding(states):
    before, after = at(states, 37, 0, "church")
    assert [tile(t).face for t in before.players[0].storage] == ["carpenter", "church", "townhall"]
    assert before.stack[-1].kind == "discard" and tile(before.stack[-1].tile).face == "ship"
    assert [tile(t).face for t in after.players[0].storage] == ["carpenter", "townhall", "ship"]
    assert tile(after.box[-1]).face == "church"


def test_a_ship_takes_a_depots_goods_and_moves_up_the_bridge(states):
    before, after = at(states, 55, 0, "ship@20")
    # Seat 1 leaves the start space and goes one space ahead of seats 2 and 3.
    assert before.bridge[:2] == [[0, 1, 2], []]
    assert after.bridge[:2] == [[1, 2], [0]]
    before, after = at(states, 56, 0, "3")
    assert before.depot_goods[2] == [4] and after.depot_goods[2] == []
    assert after.players[0].goods == {6: 1, 1: 1, 4: 1}
    # Order is set when a round begins: in round A5 seat 1 plays first from the space ahead,
    # then seats 2 and 3 from their stack, top first.
    a5 = next(s for s in states if (s.phase, s.round) == (0, 5))
    assert a5.bridge[:2] == [[1, 2], [0]] and a5.order == [0, 1, 2]


def test_town_hall_completes_a_one_space_town_and_places_a_second_tile(states):
    _, after = at(states, 73, 0, "townhall@12")
    # A completed area of 1 in phase A: 1 + 10.
    assert after.players[0].points["areas"] == 1
    assert after.players[0].points["phase bonus"] == 10
    assert after.stack[-1].kind == "townhall"
    # The town hall places the carpenter on a die-3 hex without a die; the carpenter then takes
    # a building from a numbered depot (here the market of depot 1).
    _, after = at(states, 74, 0, "carpenter@26")
    assert faces(after.players[0])[26] == "carpenter" and after.stack[-1].kind == "effect_take"
    _, after = at(states, 75, 0, "market/1")
    assert [tile(t).face for t in after.players[0].storage] == ["market"]
    # The market takes a ship or an animal: the 4-sheep of depot 4.
    _, after = at(states, 79, 0, "sheep4/4")
    assert [tile(t).face for t in after.players[0].storage] == ["sheep4"]


def test_animals_score_with_the_same_animals_of_their_pasture(states):
    _, after = at(states, 93, 0, "sheep4@11")
    assert after.players[0].points["animals"] == 4  # 4 sheep, alone
    _, after = at(states, 132, 0, "hen2@5")
    assert after.players[0].points["animals"] == 4 + 2  # hens: 2, the sheep do not count
    _, after = at(states, 229, 0, "hen4@10")
    assert after.players[0].points["animals"] == 4 + 2 + (4 + 2)  # the new hens, the old hens
    _, after = at(states, 496, 0, "sheep2@6")
    assert after.players[0].points["animals"] == 4 + 2 + 6 + (2 + 4) + 4  # + cow4 on hex 28


def test_knowledge_7_adds_a_point_per_scoring_animal_tile(states):
    # Seat 2 owns knowledge tile 7: its 3 hens on the one-space pasture score 3 + 1, and
    # complete that area in phase B: 1 + 8.
    before, after = at(states, 171, 1, "hen3@28")
    assert faces(before.players[1])[8] == "k7"
    gained = {k: v - before.players[1].points.get(k, 0) for k, v in after.players[1].points.items()}
    assert {k: v for k, v in gained.items() if v} == {"animals": 4, "areas": 1, "phase bonus": 8}


def test_ship_goods_beyond_three_kinds_stay_on_the_depot(states):
    # Seat 1 holds goods 6 and 1 and ships depot 6: the 1 joins its stack, and of the new
    # kinds 5, 2, 3 only one fits.
    before, after = at(states, 175, 0, "6")
    assert before.players[0].goods == {6: 1, 1: 1}
    assert sorted(before.depot_goods[5]) == [1, 2, 3, 5]
    assert after.stack[-1].kind == "shipgoods"
    assert [o.id for o in engine.decisions(after)[0].options] == ["2", "3", "5"]
    before, after = at(states, 176, 0, "3")
    assert after.players[0].goods == {6: 1, 1: 2, 3: 1}
    assert sorted(after.depot_goods[5]) == [2, 5]


def test_castle_then_mine_complete_two_colours_in_phase_c(states):
    # Seat 3's third castle space (of 3) completes the area: 6 + 6 in phase C; all four castle
    # spaces are full first: the large bonus tile, 6 points at 3 players.
    before, after = at(states, 264, 2, "castle@3")
    assert before.phase == 2
    gained = after.players[2].score - before.players[2].score
    assert gained == 6 + 6 + 6 and after.players[2].bonus == ["castle:large"]
    # The castle's extra action, any value: 3, to place a mine; three mines fill all grey
    # spaces: 6 + 6 and the large mine bonus.
    before, after = at(states, 265, 2, "c3")
    before, after = at(states, 267, 2, "mine@34")
    assert after.players[2].score - before.players[2].score == 6 + 6 + 6
    assert after.players[2].bonus == ["castle:large", "mine:large"]


def test_mines_pay_at_the_end_of_each_phase(states):
    # End of phase C: only seat 3 has mines (3): 0 + 3 silverlings.
    before, after = at(states, 287, 2, "cow4")
    assert (before.phase, after.phase) == (2, 3)
    assert [p.silver for p in after.players] == [
        before.players[0].silver,
        before.players[1].silver,
        before.players[2].silver + 3,
    ]
    # End of the game: 2, 2 and 3 mines.
    before, after = states[-2], states[-1]
    assert [a.silver - b.silver for a, b in zip(after.players, before.players, strict=True)] == [
        2,
        2,
        3,
    ]


def test_warehouse_sells_without_a_die(states):
    before, after = at(states, 291, 0, "6")
    assert before.stack[-1].kind == "warehouse" and before.players[0].used == [True, False]
    assert after.players[0].points["goods sold"] - before.players[0].points["goods sold"] == 3
    assert after.players[0].silver == before.players[0].silver + 1
    assert after.players[0].used == [True, False]


def test_knowledge_11_saves_a_worker_placing_a_knowledge_tile(states):
    # 4 -> 1 is three steps (4, 5, 6, 1); tile 11 gives one for free: 2 workers.
    before, after = at(states, 355, 1, "4+3")
    before, after = at(states, 357, 1, "k26@36")
    assert (before.players[1].workers, after.players[1].workers) == (2, 0)
    # The third knowledge space of that area, in phase D: 6 + 4; all six knowledge spaces:
    # the large bonus tile, 6.
    assert after.players[1].score - before.players[1].score == 6 + 4 + 6
    # Turn order for the next round: seat 1 furthest on the bridge, then the stack of 3 over 2.
    assert states[360].bridge == [[], [2, 1], [], [], [], [0], []]
    assert states[360].order == [0, 2, 1]


def test_second_to_fill_the_castles_takes_the_small_bonus(states):
    before, after = at(states, 505, 1, "castle@3")
    assert after.players[1].score - before.players[1].score == 6 + 2 + 3  # phase E, small: 3


def test_boarding_house_bank_and_watchtower(states):
    before, after = at(states, 193, 0, "boarding@27")
    assert after.players[0].workers == before.players[0].workers + 4
    before, after = at(states, 212, 0, "watchtower@33")
    assert after.players[0].score == before.players[0].score + 4
    before, after = at(states, 251, 0, "bank@15")
    assert after.players[0].silver == before.players[0].silver + 2


def test_final_breakdowns_counted_by_hand(states):
    end = states[-1]
    p0, p1, p2 = end.players
    # Seat 1: 24 tiles placed.
    assert sorted(faces(p0).values()) == sorted(
        [
            "hen2",
            "sheep2",
            "carpenter",
            "hen4",
            "sheep4",
            "townhall",
            "market",
            "bank",
            "ship",
            "ship",
            "ship",
            "castle",
            "ship",
            "ship",
            "ship",
            "boarding",
            "warehouse",
            "carpenter",
            "boarding",
            "cow4",
            "mine",
            "watchtower",
            "mine",
            "market",
        ]
    )
    assert p0.sold == {1: 3, 2: 1, 3: 2, 4: 1, 5: 1, 6: 1} and p0.goods == {5: 1, 6: 1}
    assert (p0.silver, p0.workers, p0.bonus) == (3, 0, ["ship:large"])
    seat1 = {
        "goods sold": 3 * (3 + 1 + 2 + 1 + 1 + 1),  # 9 tiles sold
        # town of 1 (A), ships 16-17-18 (D), town 9-14-15 (E), pasture of 1 (E), ships
        # 20-21-22 (E)
        "areas": 1 + 6 + 6 + 1 + 6,
        "phase bonus": 10 + 4 + 2 + 2 + 2,
        # sheep4; hen2; hen4 + hen2; cow4 alone on hex 28; sheep2 + sheep4
        "animals": 4 + 2 + (4 + 2) + 4 + (2 + 4),
        "watchtowers": 4,
        "bonus tiles": 6,  # first to fill the six ship spaces
        "goods": 2,
        "silverlings": 3,
        "workers": 0,
        "knowledge": 0,
    }
    # Seat 2: knowledge tiles 7, 11, 13, 16 (warehouses), 22 (banks), 26 (bonus tiles).
    assert {tile(t).knowledge for t in p1.estate.values()} - {0} == {7, 11, 13, 16, 22, 26}
    assert list(faces(p1).values()).count("warehouse") == 1
    assert list(faces(p1).values()).count("bank") == 1
    assert p1.sold == {2: 1, 3: 1, 4: 1} and sum(p1.goods.values()) == 3
    assert (p1.silver, p1.workers, p1.bonus) == (2, 0, ["knowledge:large", "castle:small"])
    seat2 = {
        "goods sold": 3 * 3,
        # knowledge 4-8-13 (B), pasture of 1 (B), town 9-14-15 (D), knowledge 31-35-36 (D),
        # town 23-24-29 (E), castles 2-3-7 (E)
        "areas": 6 + 1 + 6 + 6 + 6 + 6,
        "phase bonus": 8 + 8 + 4 + 4 + 2 + 2,
        "animals": (3 + 1) + (3 + 1) + (3 + 1),  # hen3, pig3, hen3 on other pastures; tile 7
        "bonus tiles": 6 + 3,
        "goods": 3,
        "silverlings": 2,
        "workers": 0,
        "knowledge": 4 * 1 + 4 * 1 + 3 * 2,  # 1 warehouse, 1 bank, 2 bonus tiles
    }
    # Seat 3: knowledge 18 (carpenters), 20 (markets), 23 (town halls), 24 (animal kinds).
    assert {tile(t).knowledge for t in p2.estate.values()} - {0} == {18, 20, 23, 24}
    names = list(faces(p2).values())
    assert [names.count(b) for b in ("carpenter", "market", "townhall")] == [1, 1, 1]
    assert {tile(t).animal for t in p2.estate.values()} - {""} == {"pig", "cow", "hen"}
    assert p2.sold == {1: 1, 2: 1, 3: 1, 5: 3} and p2.goods == {2: 1, 3: 1}
    assert (p2.silver, p2.workers, p2.bonus) == (3, 3, ["castle:large", "mine:large"])
    seat3 = {
        "goods sold": 3 * 6,
        # castles 2-3-7 (C), mines 25-30-34 (C), town of 1 (D), town 23-24-29 (E),
        # knowledge 4-8-13 (E)
        "areas": 6 + 6 + 1 + 6 + 6,
        "phase bonus": 6 + 6 + 4 + 2 + 2,
        "animals": 3 + 4 + 4,  # pig3, cow4, hen4: three kinds, nothing to repeat
        "bonus tiles": 6 + 6,
        "goods": 2,
        "silverlings": 3,
        "workers": 3 // 2,
        "knowledge": 4 + 4 + 4 + 4 * 3,
    }
    final = engine.result(end)
    assert final.breakdown == (seat1, seat2, seat3)
    assert final.scores == (104, 108, 116)
    assert final.ranks == (3, 2, 1)


def test_each_phase_clears_and_refills_the_depots_and_alternates_depot_6_at_3_players(states):
    starts = [next(s for s in states if (s.phase, s.round) == (p, 1)) for p in range(5)]
    # 3 players: 3 spaces on each depot, 6 in the black depot, all filled at a phase's start.
    for s in starts:
        assert sum(t >= 0 for d in s.depots for t in d) == 18
        assert sum(t >= 0 for t in s.black) == 6
    # Depot 6's third space: a castle in phases A, C and E, a mine in B and D.
    assert [tile(s.depots[5][2]).type for s in starts] == ["castle", "mine"] * 2 + ["castle"]
    # Phase A ends when seat 3 takes workers; the tiles left over leave the game, the goods
    # stay on their depots and round B1's goods tile joins them.
    i = states.index(starts[1])
    end_a, start_b = at(states, i - 1, 2, "workers")
    left = [t for d in end_a.depots for t in d if t >= 0] + [t for t in end_a.black if t >= 0]
    assert left and set(left) <= set(start_b.box)
    assert sum(map(len, start_b.depot_goods)) == sum(map(len, end_a.depot_goods)) + 1
