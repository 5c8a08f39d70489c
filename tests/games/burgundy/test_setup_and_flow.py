"""Setup by player count, phases and rounds, turn order, end scoring and the tie-break."""

import pytest

from meeple_hall.games.burgundy import engine
from meeple_hall.games.burgundy.data import components
from meeple_hall.games.burgundy.flow import end_turn
from meeple_hall.games.burgundy.rules import tile
from meeple_hall.games.burgundy.scoring import result

from .helpers import options, play, setup_player, table


@pytest.mark.parametrize(("n", "depot_tiles", "black"), [(2, 12, 4), (3, 18, 6), (4, 24, 8)])
def test_depots_are_filled_by_player_count(n, depot_tiles, black):
    state = table(n)
    assert sum(t >= 0 for d in state.depots for t in d) == depot_tiles
    assert sum(t >= 0 for t in state.black) == black
    for d, depot in enumerate(state.depots):
        spaces = components().table["depots"][str(d + 1)]
        for t, (kind, _) in zip(depot, spaces, strict=True):
            if t >= 0 and kind != "castle_or_mine":
                assert tile(t).type == kind


def test_three_players_alternate_castle_and_mine_on_depot_6_by_phase():
    state = table(3)
    seen, shown = [], []
    for _ in range(5):
        seen.append(tile(state.depots[5][2]).type)
        shown.append(engine.view(state, None)["depots"][5]["spaces"][2]["type"])
        if state.phase < 4:
            state.round, state.turn = 5, 2
            end_turn(state)
    assert seen == shown == ["castle", "mine", "castle", "mine", "castle"]


def test_each_player_starts_with_castle_goods_silverling_and_workers_by_seat():
    state = table(4)
    for seat, player in enumerate(state.players):
        assert tile(player.estate[components().estate.start]).type == "castle"
        assert list(player.estate) == [19]
        assert sum(player.goods.values()) == 3
        assert (player.silver, player.workers) == (1, seat + 1)
    assert state.bridge[0] == [0, 1, 2, 3] and state.order == [0, 1, 2, 3]


def test_five_phases_of_five_rounds_with_goods_placed_by_the_white_die():
    state = table(2)
    rounds = 0
    while not state.over:
        placed = sum(len(g) for g in state.depot_goods)
        before = (state.phase, state.round)
        for _ in range(2 * state.num_players):
            first = options(state)[0]
            state = play(state, first) if first == "end" else play(state, first, "workers")
        rounds += 1
        if not state.over:
            assert (state.phase, state.round) != before
            assert sum(len(g) for g in state.depot_goods) == placed + 1
    assert rounds == 25
    assert engine.decisions(state) == []


def test_old_hex_tiles_leave_but_goods_stay_when_a_phase_begins():
    state = table(2)
    old = [t for d in state.depots for t in d if t >= 0]
    goods = [list(g) for g in state.depot_goods]
    state.round, state.turn = 5, 1
    end_turn(state)
    assert set(old) <= set(state.box)
    assert sum(len(g) for g in state.depot_goods) == sum(len(g) for g in goods) + 1


def test_end_scoring_goods_silverlings_pairs_of_workers():
    state = table(2)
    setup_player(state, goods={1: 2, 3: 1}, silver=4, workers=5)
    parts = result(state).breakdown[0]
    assert (parts["goods"], parts["silverlings"], parts["workers"]) == (3, 4, 2)


def tie(tiebreak):
    state = table(2, tiebreak=tiebreak)
    for seat in (0, 1):
        setup_player(state, seat=seat, goods={}, silver=0, workers=0)
    setup_player(state, seat=1, estate={12: "bank"})
    return state


def test_tie_written_fewer_empty_spaces_wins():
    assert result(tie("written")).ranks == (2, 1)


def test_tie_other_reading_more_empty_spaces_wins():
    assert result(tie("other")).ranks == (1, 2)


def test_tie_with_equal_estates_goes_to_the_player_further_back_in_turn_order():
    state = table(2)
    for seat in (0, 1):
        setup_player(state, seat=seat, goods={}, silver=0, workers=0)
    assert result(state).ranks == (2, 1)
    state.bridge = [[0], [1], [], [], [], [], []]
    assert result(state).ranks == (1, 2)


def test_scripted_game_of_only_taking_workers_ends_as_counted_by_hand():
    # Every die takes 2 workers: 50 dice x 2 = 100 workers over the game, plus the starting
    # 1/2/3; nobody ever sells or buys. Score = 3 goods + 1 silverling + workers // 2.
    state = table(3)
    while not state.over:
        state = play(state, options(state)[0], "workers")
    final = result(state)
    assert final.scores == (3 + 1 + 101 // 2, 3 + 1 + 102 // 2, 3 + 1 + 103 // 2)
    assert final.ranks == (3, 2, 1)
    assert final.breakdown[2] == {"goods": 3, "silverlings": 1, "workers": 51, "knowledge": 0}


def test_the_log_still_holds_the_start_of_a_four_player_round_when_it_ends():
    """The table's Log shows the latest events: after a round of four players taking
    workers, its first line (the white die and its goods) must still be there."""
    state = table(4)
    while state.round == 1:
        state = play(state, options(state)[0], "workers")
    said = [str(event) for event in state.log]
    assert said[-2].startswith("Round 2:")
    assert any(event.startswith("Round 1: white die") for event in said)


def test_passing_100_points_is_tracked():
    state = table(2)
    setup_player(state, dice=(5, 5), goods={5: 1})
    state.players[0].points = {"animals": 98}
    state = play(state, "5", "sell")
    assert engine.view(state, None)["players"][0]["lap"] == 1
    assert "Seat 1 passes 100 points" in map(str, state.log)


def test_tiebreak_option_offers_both_readings_and_defaults_to_the_written_one():
    option = engine.options[0]
    assert option.id == "tiebreak" and option.default == "written"
    assert [c.id for c in option.choices] == ["written", "other"]
    assert engine.new(2, seed=1).tiebreak == "written"
    assert engine.new(2, seed=1, options={"tiebreak": "other"}).tiebreak == "other"


def test_a_die_decides_the_start_player_who_gets_1_worker_then_2_3_4_clockwise():
    """Setup: "Roll a die to determine the starting player"; the start player takes 1 worker,
    the next clockwise 2, then 3 and 4, and tops the stack on space 1 of the bridge."""
    starters = set()
    for seed in range(40):
        state = engine.new(4, seed=seed)
        start = state.order[0]
        starters.add(start)
        clockwise = [(start + k) % 4 for k in range(4)]
        assert state.bridge[0] == clockwise and state.order == clockwise
        assert [state.players[s].workers for s in clockwise] == [1, 2, 3, 4]
        assert f"Seat {start + 1} starts" in " ".join(map(str, state.log))
    assert starters == {0, 1, 2, 3}


def test_the_table_may_seat_the_start_player_first_instead():
    state = engine.new(3, seed=5, options={"start": "seat1"})
    assert state.order == [0, 1, 2]
    assert [p.workers for p in state.players] == [1, 2, 3]
