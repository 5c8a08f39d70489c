"""Round 2 of the rules audit: player counts, empty supplies, effects that combine, and timing."""

import random
from collections import Counter

import pytest

from meeple_hall.games.burgundy import engine
from meeple_hall.games.burgundy.data import PHASES, components
from meeple_hall.games.burgundy.effects import score_completion
from meeple_hall.games.burgundy.flow import end_turn
from meeple_hall.games.burgundy.rules import area_of, knows, tile
from meeple_hall.games.burgundy.scoring import final_points
from meeple_hall.games.core import Action
from meeple_hall.games.testing import random_choices

from .helpers import decision, options, play, setup_player, table
from .test_invariants import goods, hex_tiles


def end_phase(state):
    """Finish the current phase as if every player had just played round 5."""
    state.round, state.turn = 5, state.num_players - 1
    end_turn(state)


# -- player counts ------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_each_sold_goods_tile_scores_2_3_or_4_by_player_count(n):
    state = table(n)
    setup_player(state, dice=(5, 5), goods={5: 3}, silver=0)
    state = play(state, "5", "sell")
    assert state.players[0].points == {"goods sold": 3 * n}
    assert state.players[0].silver == 1


@pytest.mark.parametrize(("n", "large", "small"), [(2, 5, 2), (3, 6, 3), (4, 7, 4)])
def test_bonus_tiles_score_by_player_count(n, large, small):
    state = table(n)
    for seat in (0, 1):
        setup_player(state, seat=seat, estate={25: "mine", 30: "mine", 34: "mine"})
        score_completion(state, seat, 34)
    assert [p.points.get("bonus tiles") for p in state.players[:2]] == [large, small]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_start_player_takes_1_worker_and_the_others_2_to_n_clockwise(n):
    for seed in range(6):
        state = engine.new(n, seed=seed, options={"start": "random"})
        first = state.order[0]
        assert state.order == [(first + k) % n for k in range(n)]
        assert [state.players[s].workers for s in state.order] == list(range(1, n + 1))


@pytest.mark.parametrize(("n", "depot_6"), [(2, [None] * 5), (4, ["castle"] * 5)])
def test_depot_6_third_space_is_unused_at_2_players_and_a_castle_every_phase_at_4(n, depot_6):
    state = table(n)
    seen = []
    for phase in range(5):
        assert state.phase == phase
        space = state.depots[5][2]
        seen.append(tile(space).type if space >= 0 else None)
        if phase < 4:
            end_phase(state)
    assert seen == depot_6


@pytest.mark.parametrize(("n", "spaces", "black"), [(2, 12, 4), (3, 18, 6), (4, 24, 8)])
def test_every_phase_refills_every_depot_space_of_the_player_count(n, spaces, black):
    state = table(n)
    for phase in range(5):
        assert sum(t >= 0 for d in state.depots for t in d) == spaces, PHASES[phase]
        assert sum(t >= 0 for t in state.black) == black
        if phase < 4:
            end_phase(state)


# -- empty supplies ------------------------------------------------------------------------------
def test_at_4_players_the_face_down_piles_last_exactly_five_phases():
    state = table(4)
    for _ in range(4):
        end_phase(state)
    assert all(t >= 0 for d in state.depots for t in d) and all(t >= 0 for t in state.black)
    assert {back: len(pile) for back, pile in state.supply.items() if pile} == {}


def test_an_empty_pile_leaves_its_depot_spaces_empty_and_creates_nothing():
    state = table(2)
    state.supply["castle"] = []
    state.supply["black"] = state.supply["black"][:1]
    before = len(state.box)
    end_phase(state)
    assert state.depots[1][1] == -1
    assert sum(t >= 0 for t in state.black) == 1 and state.supply["black"] == []
    assert len(state.box) == before + 12 + 4  # phase A's 12 depot tiles and 4 black ones
    assert decision(state).kind == "die"


def test_the_last_goods_tile_is_placed_in_the_last_round_of_phase_e():
    state = table(2)
    for _ in range(4):
        end_phase(state)
    for _ in range(4):
        state.turn = 1
        end_turn(state)
    assert state.round == 5 and state.round_goods == [] and state.phase_goods == [[]] * 5


def test_a_ship_with_three_kinds_held_takes_only_those_kinds_from_the_depot():
    state = table()
    setup_player(state, dice=(2, 2), storage=["ship"], goods={1: 1, 2: 1, 3: 1})
    state.depot_goods = [[1, 4, 5], [], [], [], [], []]
    state = play(state, "2", "place", "ship@18", "1")
    assert state.players[0].goods == {1: 2, 2: 1, 3: 1}
    assert state.depot_goods[0] == [4, 5]


# -- effects that combine ------------------------------------------------------------------------
def test_warehouse_with_knowledge_3_and_4_gives_2_silverlings_and_a_worker():
    state = table(3)
    setup_player(
        state,
        dice=(3, 3),
        storage=["warehouse"],
        estate={13: "k3", 14: "k4"},
        goods={6: 2},
        silver=0,
        workers=0,
    )
    state = play(state, "3", "place", "warehouse@12", "6")
    player = state.players[0]
    assert (player.silver, player.workers, player.points["goods sold"]) == (2, 1, 6)


def test_knowledge_8_and_12_together_turn_a_1_into_a_4_for_one_worker():
    # 1 -> 4 is 3 steps: one free (tile 12), the other two for a single worker (tile 8).
    state = table()
    setup_player(state, dice=(1, 1), estate={13: "k8", 14: "k12"}, workers=1)
    assert "1+3" in options(state)
    taken = next(t for t in state.depots[3] if t >= 0)
    state = play(state, "1+3", "take", tile(taken).face)
    assert state.players[0].workers == 0 and taken in state.players[0].storage


def test_knowledge_12_alone_needs_two_workers_for_three_steps():
    state = table()
    setup_player(state, dice=(1, 1), estate={13: "k12"}, workers=1)
    assert "1+3" not in options(state)


def test_knowledge_13_and_14_together_give_4_workers_and_a_silverling():
    state = table()
    setup_player(state, dice=(2, 2), estate={13: "k13", 14: "k14"}, workers=0, silver=0)
    state = play(state, "2", "workers")
    assert (state.players[0].workers, state.players[0].silver) == (4, 1)


def test_a_castle_action_may_place_a_town_hall_which_places_another_tile():
    state = table()
    setup_player(state, dice=(4, 4), storage=["castle", "townhall", "bank"], estate={7: "castle"})
    state = play(state, "4", "place", "castle@3")
    state = play(state, "c3", "place", "townhall@26")
    assert decision(state).kind == "townhall"
    state = play(state, "bank@27")
    assert state.players[0].silver == 1 + 2
    assert decision(state).kind == "die" and state.players[0].used == [True, False]


def test_a_castle_placed_by_a_castle_action_gives_another_extra_action():
    # Castles 3 and 2 complete the castle area {2, 3, 7}: 6 + 10 in phase A, and with the
    # start castle every castle space is filled: the large bonus tile, 5 at 2 players.
    state = table()
    setup_player(state, dice=(4, 4), storage=["castle", "castle"], estate={7: "castle"}, workers=0)
    state = play(state, "4", "place", "castle@3", "c5", "place", "castle@2")
    assert decision(state).kind == "castle"
    assert state.players[0].points == {"areas": 6, "phase bonus": 10, "bonus tiles": 5}
    state = play(state, "c1", "workers")
    assert state.players[0].workers == 2 and state.players[0].used == [True, False]
    assert decision(state).kind == "die"


def test_knowledge_8_and_9_together_turn_a_6_into_a_3_for_a_building_with_one_worker():
    # 6 -> 3 is 3 steps: one free (tile 9), two for one worker (tile 8); taking needs 2.
    state = table()
    setup_player(state, dice=(6, 6), storage=["bank"], estate={13: "k8", 8: "k9"}, workers=1)
    state = play(state, "6+3")
    assert options(state) == ["place", "workers"]
    state = play(state, "place", "bank@12")
    assert state.players[0].workers == 0 and state.players[0].silver == 3


def test_a_town_hall_may_place_a_ship_which_ships_goods_and_moves_up_the_bridge():
    state = table()
    setup_player(state, dice=(3, 3), storage=["townhall", "ship"], goods={})
    state.depot_goods = [[], [], [], [], [], [2, 2]]
    state = play(state, "3", "place", "townhall@12", "ship@18", "6")
    assert state.players[0].goods == {2: 2}
    assert state.bridge[1] == [0]


def test_knowledge_5_over_the_three_kinds_limit_asks_which_new_kinds():
    state = table()
    setup_player(state, dice=(2, 2), storage=["ship"], estate={13: "k5"}, goods={1: 1, 2: 1})
    state.depot_goods = [[1, 3], [4], [], [], [], []]
    state = play(state, "2", "place", "ship@18", "1+2")
    assert decision(state).kind == "shipgoods" and options(state) == ["3", "4"]
    state = play(state, ("4",))
    assert state.players[0].goods == {1: 2, 2: 1, 4: 1}
    assert state.depot_goods[:2] == [[3], []]


def test_knowledge_1_and_22_score_every_bank_of_a_town():
    state = table()
    setup_player(state, estate={13: "k1", 8: "k22", 26: "bank", 27: "bank", 32: "bank"})
    assert final_points(state.players[0])["knowledge"] == 3 * 4


# -- timing and the end of the game --------------------------------------------------------------
def test_mines_pay_at_the_end_of_phase_e_before_the_final_count():
    state = table()
    for _ in range(4):
        end_phase(state)
    setup_player(state, estate={25: "mine", 30: "mine", 13: "k2"}, silver=0, workers=0)
    end_phase(state)
    assert state.over
    player = state.players[0]
    assert (player.silver, player.workers) == (2, 2)
    assert final_points(player)["silverlings"] == 2 and final_points(player)["workers"] == 1


def test_an_area_completed_in_phase_e_scores_2_more():
    state = table()
    for _ in range(4):
        end_phase(state)
    setup_player(state, dice=(2, 2), storage=["ship"], estate={17: "ship", 16: "ship"})
    state = play(state, "2", "place", "ship@18")
    assert state.players[0].points["phase bonus"] == 2 and state.players[0].points["areas"] == 6


def test_the_last_player_may_still_buy_after_both_dice_in_the_last_turn_of_the_game():
    state = table()
    for _ in range(4):
        end_phase(state)
    state.round, state.turn = 5, 1
    setup_player(state, seat=1, dice=(1, 1), silver=2)
    state = play(state, "1", "workers", "1", "workers")
    assert "buy" in options(state) and "end" in options(state)
    state = play(state, "buy", tile(next(t for t in state.black if t >= 0)).face)
    assert state.over and state.players[1].silver == 0


def test_the_buy_option_says_where_and_for_how_much():
    state = table()
    setup_player(state, dice=(1, 1), silver=2)
    label = next(str(o.label) for o in decision(state).options if o.id == "buy")
    assert label == "Buy a tile from the black depot for 2 silverlings"
    setup_player(state, dice=(1, 1), silver=2, estate={13: "k6"})
    label = next(str(o.label) for o in decision(state).options if o.id == "buy")
    assert label == "Buy a tile from any depot (knowledge tile 6) for 2 silverlings"


# -- stress --------------------------------------------------------------------------------------
def eager(decision, rng):
    """A random player that prefers placing, taking, selling and buying over taking workers."""
    ids = [o.id for o in decision.options]
    if decision.max_choices == 1:
        for wanted in ("place", "take", "sell", "buy"):
            if wanted in ids and rng.random() < 0.7:
                return (wanted,)
        busy = [i for i in ids if i not in ("skip", "end", "workers", "none")]
        if busy and rng.random() < 0.8:
            return (rng.choice(busy),)
    return random_choices(decision, rng)


def assert_invariants(state, scores):
    n = state.num_players
    assert sorted(hex_tiles(state)) == list(range(len(components().tiles)))
    assert goods(state) == Counter({k: 7 for k in range(1, 7)})
    assert sorted(seat for stack in state.bridge for seat in stack) == list(range(n))
    hexes = components().estate.hexes
    for seat, p in enumerate(state.players):
        assert p.silver >= 0 and p.workers >= 0
        assert len(p.storage) <= 3
        assert len(p.goods) <= 3 and all(count > 0 for count in p.goods.values())
        assert p.score >= scores[seat]
        scores[seat] = p.score
        assert all(hexes[h].type == tile(t).type for h, t in p.estate.items())
        if not knows(p, 1):
            for h, t in p.estate.items():
                town = [p.estate[x] for x in area_of(h) if x in p.estate and x != h]
                assert tile(t).building == "" or all(
                    tile(x).building != tile(t).building for x in town
                )
    for colour, left in state.bonus_left.items():
        taken = sum(b.startswith(f"{colour}:") for p in state.players for b in p.bonus)
        assert taken + len(left) == 2


@pytest.mark.parametrize(
    ("n", "start", "tiebreak"),
    [(2, "random", "other"), (3, "seat1", "written"), (4, "random", "written")],
)
def test_eager_random_games_keep_every_invariant(n, start, tiebreak):
    rng = random.Random(n)
    state = engine.new(n, seed=n, options={"start": start, "tiebreak": tiebreak})
    scores = [0] * n
    while decisions := engine.decisions(state):
        assert len(decisions) == 1 and decisions[0].seat == state.active and decisions[0].options
        state = engine.apply(state, Action(decisions[0].seat, eager(decisions[0], rng)))
        assert_invariants(state, scores)
    assert state.round == 5 and state.phase == 4 and state.round_goods == []
    assert sum(len(p.estate) for p in state.players) > 10 * n
