"""The rulebook's worked examples as exact test vectors (2011 rules, 2019 rulebook wording)."""

from meeple_hall.games.burgundy.rules import tile

from .helpers import decision, options, play, setup_player, table, tid


def test_animal_example_cows_score_4_plus_3_then_4_plus_4_plus_3():
    # "加入了4隻母牛的板塊, 因原本已有3隻母牛板塊, 可得4+3=7勝分; 再擺一個: 4+4+3=11"
    state = table()
    setup_player(
        state, dice=(1, 2), storage=["cow4", tid("cow4", 1)], estate={12: "bank", 11: "cow3"}
    )
    state = play(state, "1", "place", "cow4@6")
    assert state.players[0].points == {"animals": 7}
    state = play(state, "2", "place", "cow4@5")
    assert state.players[0].points == {"animals": 18}


def test_animals_on_another_pasture_or_of_another_kind_do_not_score_again():
    state = table()
    setup_player(
        state,
        dice=(2, 1),
        storage=["cow2", "pig4"],
        estate={20: "ship", 21: "ship", 11: "cow3", 12: "bank"},
    )
    state = play(state, "2", "place", "cow2@28")  # the one-space pasture: also completes it
    assert state.players[0].points == {"animals": 2, "areas": 1, "phase bonus": 10}
    state = play(state, "1", "place", "pig4@6")
    assert state.players[0].points["animals"] == 6


def test_area_scores_by_size_plus_phase_bonus_and_first_colour_takes_large_bonus():
    # A size-3 castle area completed in phase A: 6 + 10; all 4 castle spaces filled: large
    # bonus tile, 5 points at 2 players.
    state = table()
    setup_player(
        state, dice=(4, 4), storage=["castle"], estate={12: "bank", 7: "castle", 2: "castle"}
    )
    state = play(state, "4", "place", "castle@3")
    assert state.players[0].points == {"areas": 6, "phase bonus": 10, "bonus tiles": 5}
    assert state.players[0].bonus == ["castle:large"]
    assert decision(state).kind == "castle"


def test_area_sizes_and_phase_bonuses_follow_the_tables():
    from meeple_hall.games.burgundy.effects import score_completion

    for phase, bonus in enumerate((10, 8, 6, 4, 2)):
        state = table()
        state.phase = phase
        setup_player(
            state, estate={26: "bank", 27: "market", 32: "church", 33: "bank", 37: "warehouse"}
        )
        score_completion(state, 0, 37)
        assert state.players[0].points == {"areas": 15, "phase bonus": bonus}


def test_second_to_fill_a_colour_takes_the_small_bonus_and_third_nothing():
    from meeple_hall.games.burgundy.effects import score_completion

    state = table(num_players=4)
    for seat in range(3):
        setup_player(state, seat=seat, estate={25: "mine", 30: "mine", 34: "mine"})
        score_completion(state, seat, 34)
    assert [p.bonus for p in state.players[:3]] == [["mine:large"], ["mine:small"], []]
    assert [p.points.get("bonus tiles", 0) for p in state.players[:3]] == [7, 4, 0]


def test_ship_example_goods_over_the_three_kinds_limit_stay_in_the_depot():
    # Carla takes the turquoise tile onto her turquoise stack and one of pink or brown.
    state = table()
    setup_player(state, dice=(2, 3), storage=["ship"], goods={1: 1, 2: 1})
    state.depot_goods = [[], [], [1, 4, 5], [], [], []]
    state = play(state, "2", "place", "ship@18", "3")
    d = decision(state)
    assert d.kind == "shipgoods" and (d.min_choices, d.max_choices) == (1, 1)
    assert options(state) == ["4", "5"]
    state = play(state, "5")
    assert state.players[0].goods == {1: 2, 2: 1, 5: 1}
    assert state.depot_goods[2] == [4]


def test_ship_moves_up_the_bridge_on_top_of_a_stack_and_leads_next_round():
    state = table(num_players=3)
    setup_player(state, seat=0, dice=(2, 2), storage=["ship"])
    state.depot_goods = [[] for _ in range(6)]
    state = play(state, "2", "place", "ship@18")
    assert state.bridge[1] == [0]
    for seat in (1, 2):
        setup_player(state, seat=seat, dice=(2, 2), storage=[] if seat == 2 else ["ship"])
    state = play(state, "2", "workers")  # seat 0's second die
    assert state.active == 1
    state = play(state, "2", "place", "ship@18", "2", "workers")
    assert state.bridge[1] == [1, 0]
    state = play(state, "2", "workers", "2", "workers")
    assert state.round == 2 and state.order == [1, 0, 2]


def test_workers_wrap_six_to_one_and_one_to_six():
    state = table()
    setup_player(state, dice=(6, 1), workers=2)
    ids = options(state)
    assert "6+1" in ids and "1-1" in ids
    state = play(state, "6+1", "take")
    assert state.stack[-1].value == 1
    state = play(state, options(state)[0])
    assert state.players[0].workers == 1


def test_anna_turns_a_2_into_a_6_with_two_workers_and_takes_from_depot_6():
    state = table()
    setup_player(state, dice=(2, 2), workers=2)
    depot6 = [t for t in state.depots[5] if t >= 0]
    state = play(state, "2-2", "take", tile(depot6[0]).face)
    assert state.players[0].workers == 0
    assert state.players[0].storage == [depot6[0]]
    assert state.players[0].used == [True, False]


def test_workers_cannot_reach_a_value_they_cannot_pay_for():
    state = table()
    setup_player(state, dice=(3, 3), workers=1)
    assert not any(o.startswith(("3+2", "3-2", "3+3")) for o in options(state))


def test_the_log_says_which_goods_a_ship_took_and_which_stayed():
    """Carla's ship again, as the table reads it: the goods she took by colour and number,
    and a ship with no room for any new kind says so instead of naming goods it left."""
    state = table()
    setup_player(state, dice=(2, 3), storage=["ship"], goods={1: 1, 2: 1})
    state.depot_goods = [[], [], [1, 4, 5], [], [], []]
    state = play(state, "2", "place", "ship@18", "3", "5")
    assert str(state.log[-1]) == "Seat 1 ships red 1, orange 5 from depot 3"
    state = table()
    setup_player(state, dice=(2, 3), storage=["ship"], goods={1: 1, 2: 1, 3: 1})
    state.depot_goods = [[], [], [4, 5], [], [], []]
    state = play(state, "2", "place", "ship@18", "3")
    assert str(state.log[-1]) == "Seat 1 ships from depot 3: no room for its goods"
    assert state.depot_goods[2] == [4, 5]


def test_the_log_gives_the_points_an_area_scores():
    # The size-3 castle area in phase A: 6 points and the phase bonus of 10.
    state = table()
    setup_player(
        state, dice=(4, 4), storage=["castle"], estate={12: "bank", 7: "castle", 2: "castle"}
    )
    state = play(state, "4", "place", "castle@3")
    said = [str(event) for event in state.log]
    assert "Seat 1 completes a castle area of 3 spaces (6 points + 10 phase bonus)" in said
