"""All 26 knowledge (yellow) tiles."""

import pytest

from meeple_hall.games.burgundy.flow import end_turn
from meeple_hall.games.burgundy.rules import tile
from meeple_hall.games.burgundy.scoring import final_points
from meeple_hall.games.core.catalogues import LANGUAGES, render

from .helpers import decision, options, play, setup_player, table


def with_knowledge(number, num_players=2, **kw):
    state = table(num_players)
    setup_player(state, estate={13: f"k{number}"}, **kw)
    return state


def test_1_allows_a_second_building_of_a_type_in_a_town():
    state = with_knowledge(1, dice=(1, 1), storage=["bank"])
    setup_player(state, storage=["bank"], estate={26: "bank"})
    state = play(state, "1", "place", "bank@27")
    assert tile(state.players[0].estate[27]).face == "bank"


def test_2_adds_a_worker_per_mine_at_the_end_of_a_phase():
    state = with_knowledge(2, workers=0, silver=0)
    setup_player(state, estate={25: "mine"})
    state.round, state.turn = 5, 1
    end_turn(state)
    assert (state.players[0].silver, state.players[0].workers) == (1, 1)


@pytest.mark.parametrize(("number", "silver", "workers"), [(3, 2, 0), (4, 1, 1)])
def test_3_and_4_improve_every_sale(number, silver, workers):
    state = with_knowledge(number, dice=(5, 5), goods={5: 2}, silver=0, workers=0)
    state = play(state, "5", "sell")
    assert (state.players[0].silver, state.players[0].workers) == (silver, workers)
    assert state.players[0].points["goods sold"] == 4


def test_5_ships_the_goods_of_two_neighbouring_depots():
    state = with_knowledge(5, dice=(2, 2), storage=["ship"], goods={})
    state.depot_goods = [[1], [], [], [], [], [6]]
    state = play(state, "2", "place", "ship@18")
    assert "6+1" in options(state) and "1" in options(state)
    state = play(state, "6+1")
    assert state.players[0].goods == {1: 1, 6: 1}
    assert state.depot_goods == [[], [], [], [], [], []]


def test_5_a_ship_over_two_depots_of_many_kinds_counts_them_within_a_button():
    """Named kind by kind, 5 kinds on depots 3 and 4 made an 87-character label (found by the
    conformance test's random play); past 3 kinds the label counts the goods, and the step
    after it names the kinds to choose."""
    state = with_knowledge(5, dice=(2, 2), storage=["ship"], goods={})
    state.depot_goods = [[], [], [1, 1, 1, 2], [3, 4, 6, 6], [], []]
    state = play(state, "2", "place", "ship@18")
    two = next(o for o in decision(state).options if o.id == "3+4")
    assert str(two.label) == "Depots 3 and 4: 8 tiles of 5 kinds (room: 3 new kinds)"
    assert all(len(render(lang, two.label, strict=True)) <= 80 for lang in LANGUAGES)
    one = next(o for o in decision(state).options if o.id == "4")
    assert str(one.label) == "Depot 4: pink 3, turquoise 4, brown 6 ×2"


def test_6_buys_from_any_of_the_seven_depots_for_two_silverlings():
    state = with_knowledge(6, dice=(1, 1), workers=2, silver=2)
    target = next(t for t in state.depots[2] if t >= 0)
    choice = f"{tile(target).face}/3"
    state = play(state, "buy")
    assert choice in options(state) and tile(state.black[0]).face in options(state)
    state = play(state, choice)
    assert (state.players[0].workers, state.players[0].silver) == (2, 0)
    assert state.players[0].storage == [target]


def test_7_adds_a_point_per_scoring_animal_tile():
    # Rulebook: a 3 sheep beside a 4 sheep scores (3+1) + (4+1) = 9; then a 2 pig scores 3.
    state = with_knowledge(7, dice=(1, 2), storage=["sheep3", "pig2"])
    setup_player(state, storage=["sheep3", "pig2"], estate={12: "bank", 11: "sheep4"})
    state = play(state, "1", "place", "sheep3@6")
    assert state.players[0].points == {"animals": 9}
    state = play(state, "2", "place", "pig2@5")
    assert state.players[0].points == {"animals": 12}


def test_8_workers_change_a_die_by_two():
    # Rulebook: to make a 3 out of a 6, Carla needs only 2 workers.
    state = with_knowledge(8, dice=(6, 6), workers=2)
    assert "6+3" in options(state)
    state = play(state, "6+3", "take", options(play(state, "6+3", "take"))[0])
    assert state.players[0].workers == 0


@pytest.mark.parametrize(
    ("number", "face", "hex_id", "die"),
    [(9, "bank", 26, 4), (10, "ship", 18, 3), (11, "mine", 25, 5)],
)
def test_9_10_11_give_a_free_step_when_placing_their_colours(number, face, hex_id, die):
    state = with_knowledge(number, dice=(die, die), storage=[face], workers=0)
    value = tile_die(hex_id)
    step = "+1" if (value - die) % 6 == 1 else "-1"
    state = play(state, f"{die}{step}", "place", f"{face}@{hex_id}")
    assert state.players[0].estate[hex_id] >= 0 and state.players[0].workers == 0


def test_the_free_step_does_not_apply_to_other_colours():
    state = with_knowledge(9, dice=(3, 3), storage=["ship"], workers=0)
    assert "3-1" not in options(state)  # hex 18 is a ship space with die 2


def tile_die(hex_id):
    from meeple_hall.games.burgundy.data import components

    return components().estate.hexes[hex_id].die


def test_12_gives_a_free_step_when_taking_from_a_depot():
    state = with_knowledge(12, dice=(2, 2), workers=0)
    state = play(state, "2+1", "take")
    assert state.stack[-1].value == 3
    state = play(state, options(state)[0])
    assert state.players[0].workers == 0


@pytest.mark.parametrize(("number", "workers", "silver"), [(13, 2, 1), (14, 4, 0)])
def test_13_and_14_improve_taking_workers(number, workers, silver):
    state = with_knowledge(number, dice=(1, 1), workers=0, silver=0)
    state = play(state, "1", "workers")
    assert (state.players[0].workers, state.players[0].silver) == (workers, silver)


def test_13_and_14_do_not_change_the_boarding_house():
    state = with_knowledge(14, dice=(3, 3), storage=["boarding"], workers=0)
    state = play(state, "3", "place", "boarding@12")
    assert state.players[0].workers == 4


def test_15_scores_each_kind_sold_and_25_each_tile_sold():
    # Rulebook: Dario sold 4x red, 3x purple, 3x pink, 1x orange: 4 kinds, 11 tiles.
    # Tile 15 scores 3 per kind in the 2011 edition (the 2019 example says 4 x 2 = 8).
    state = with_knowledge(15)
    player = state.players[0]
    player.sold = {1: 4, 2: 3, 3: 3, 4: 1}
    assert final_points(player)["knowledge"] == 4 * 3
    setup_player(state, estate={4: "k25"})
    assert final_points(player)["knowledge"] == 4 * 3 + 11


@pytest.mark.parametrize(
    ("number", "building"),
    [
        (16, "warehouse"),
        (17, "watchtower"),
        (18, "carpenter"),
        (19, "church"),
        (20, "market"),
        (21, "boarding"),
        (22, "bank"),
        (23, "townhall"),
    ],
)
def test_16_to_23_score_4_per_building_of_their_type(number, building):
    state = with_knowledge(number)
    setup_player(
        state, estate={12: building, 26: building, 9: "bank" if building != "bank" else "market"}
    )
    assert final_points(state.players[0])["knowledge"] == 8


def test_17_and_22_example_watchtowers_and_banks():
    state = with_knowledge(17)
    setup_player(
        state,
        estate={
            8: "k22",
            12: "watchtower",
            26: "watchtower",
            9: "bank",
            27: "bank",
            23: "bank",
            15: "bank",
        },
    )
    assert final_points(state.players[0])["knowledge"] == 2 * 4 + 4 * 4


def test_24_scores_each_kind_of_animal_placed():
    # Rulebook: 3 sheep, 1 cow and 1 pig tile: 3 kinds x 4 = 12.
    state = with_knowledge(24)
    setup_player(state, estate={1: "sheep2", 5: "sheep3", 6: "sheep4", 10: "cow2", 11: "pig3"})
    assert final_points(state.players[0])["knowledge"] == 12


def test_26_scores_3_per_bonus_tile():
    state = with_knowledge(26)
    state.players[0].bonus = ["mine:large", "ship:small"]
    assert final_points(state.players[0])["knowledge"] == 6


def test_knowledge_in_storage_scores_nothing():
    state = table()
    setup_player(state, storage=["k26"])
    state.players[0].bonus = ["mine:large"]
    assert final_points(state.players[0])["knowledge"] == 0
    assert decision(state).kind == "die"


def test_6_does_not_let_workers_pay_for_a_tile():
    # 2011 rules: tile 6 only widens where one may buy; the price stays 2 silverlings.
    state = with_knowledge(6, dice=(1, 1), workers=3, silver=1)
    assert "buy" not in options(state)


def test_a_free_step_is_labelled_as_the_knowledge_tiles_not_as_0_workers():
    state = with_knowledge(9, dice=(4, 4), storage=["bank"], workers=0)
    labels = {o.id: str(o.label) for o in decision(state).options}
    assert labels["4-1"] == "Die 4 as 3 (free: knowledge tile)"


def test_a_use_of_a_turned_die_that_costs_what_the_die_did_not_say_says_so():
    """With tile 9 a 4 turned to 3 is free for a building ("free: knowledge tile"), but
    taking from depot 3 or selling goods 3 still costs the worker: those labels say it."""
    state = with_knowledge(9, dice=(4, 4), storage=["bank"], workers=1, goods={3: 1})
    state = play(state, "4-1")
    labels = {o.id: str(o.label) for o in decision(state).options}
    assert labels["take"] == "Take a tile from depot 3, paying 1 worker"
    assert labels["sell"] == "Sell pink 3 goods (1 tile: 2 points, 1 silverling), paying 1 worker"
    assert labels["workers"] == "Take 2 workers"
    state = play(state, "take")
    state = play(state, options(state)[0])
    assert state.players[0].workers == 0
    # Where the die's label already gave the cost, the uses do not repeat it.
    state = with_knowledge(9, dice=(4, 4), storage=["ship"], workers=1, goods={3: 1})
    state = play(state, "4-1")
    labels = {o.id: str(o.label) for o in decision(state).options}
    assert labels["take"] == "Take a tile from depot 3"
    assert labels["sell"] == "Sell pink 3 goods (1 tile: 2 points, 1 silverling)"


def test_with_8_the_die_prompt_says_a_worker_turns_it_by_up_to_2():
    state = with_knowledge(8, dice=(1, 1), workers=1)
    assert "by 1 or 2" in str(decision(state).prompt)
    assert "by 1," in str(decision(with_knowledge(9, dice=(1, 1))).prompt)
