"""The end of a season in the rulebook's order, boats, the start player, new tiles placed."""

from __future__ import annotations

import pytest

from meeple_hall.games.keyflower import engine
from meeple_hall.games.keyflower.village import DIR_NAMES, edges_at, placements
from tests.games.keyflower.helpers import options, play, table


def _all_pass(s, first: int):
    n = s.num_players
    for i in range(n):
        s = play(s, (first + i) % n, "pass")
    return s


def test_season_end_returns_failed_bids_and_hands_over_tiles_with_their_workers() -> None:
    s = table(offer=("S03", "S07"))
    s = play(s, 0, "bid", "S03", "red", "2")
    s = play(s, 1, "bid", "S03", "red", "3")
    s = play(s, 2, "use", "S03", "red", "1")
    s = play(s, 0, "use", "S07", "blue", "1")
    bag_before = dict(s.bag)
    s = _all_pass(s, 1)
    assert s.phase == "boats"
    # 1. the failed bid comes back; 2. S07 (no bid) leaves, its worker to the bag;
    # 3. seat 1 takes S03 with seat 2's worker on it, the winning bid goes to the bag.
    assert s.players[0].screen["red"] == 4
    assert s.players[1].screen["red"] == 1 + 1
    assert s.bag["blue"] == bag_before["blue"] + 1
    assert s.bag["red"] == bag_before["red"] + 3
    assert "S07" not in s.tiles
    assert s.players[1].to_place == ["S03"]
    # Nobody won a turn-order tile: boats go clockwise from the start player.
    assert s.pick_order == [0, 1, 2]


def test_turn_order_tiles_set_the_boat_order_and_the_new_start_player() -> None:
    s = table(num_players=4, offer=("S03",))
    assert s.turn_order == ["T1", "T2", "T3"] and s.start_tile == "T3"
    s = play(s, 0, "bid", "T1", "yellow", "1")
    s = play(s, 1, "bid", "T3", "blue", "1")
    s = play(s, 2, "bid", "T2", "red", "1")
    s = play(s, 3, "bid", "S03", "red", "1")
    s = _all_pass(s, 0)
    assert s.pick_order == [0, 2, 1, 3]
    assert s.start == 1
    assert s.players[3].to_place == ["S03"]


def test_without_a_start_tile_winner_the_start_player_moves_left_after_the_boats() -> None:
    s = table(num_players=3, offer=("S03",))
    s = play(s, 0, "bid", "T1", "yellow", "1")
    s = _all_pass(s, 1)
    assert s.start_tile == "T2" and s.pick_order == [0, 1, 2]
    boats = options(s)
    s = play(s, 0, boats[0])
    s = play(s, 1, options(s)[0])
    assert s.start == 1  # seat 0 kept it for the boats, then it passed to the left


def test_boat_contents_go_behind_the_screen() -> None:
    s = table(num_players=2, offer=("S03",))
    s = _all_pass(s, 0)
    boat = s.boats[0]
    workers = dict(s.boat_workers[boat])
    before = dict(s.players[0].screen)
    s = play(s, 0, boat)
    for colour, n in workers.items():
        assert s.players[0].screen.get(colour, 0) == before.get(colour, 0) + n


def test_won_tiles_are_placed_with_matching_roads_then_summer_begins() -> None:
    s = table(num_players=2, offer=("S03",))
    s = play(s, 0, "bid", "S03", "red", "1")
    s = _all_pass(s, 1)
    s = play(s, 0, options(s)[0])
    assert s.phase == "place"
    spots = placements(s, s.players[0], "S03", free=False)
    # Homes have water on the west side: only a field of the new tile may face it.
    assert all(edges_at("S03", r)[0] != "R" for r in spots["-1_0"])
    assert all(edges_at("S03", r)[3] == "R" for r in spots["1_0"])
    s = play(s, 0, "1_0")
    rots = options(s, 0)
    s = play(s, 0, rots[0])
    assert s.season == 1 and s.phase == "play"
    assert "S03" in s.players[0].village


def test_boats_fill_one_worker_at_a_time_when_the_bag_runs_short() -> None:
    from meeple_hall.games.keyflower.seasons import load_boats

    s = table(num_players=3)
    for b in s.boats:
        s.boat_workers[b], s.boat_skills[b] = {}, {}
    s.bag = {"red": 4}
    load_boats(s, "summer")
    assert [sum(s.boat_workers[b].values()) for b in s.boats] == [2, 1, 1]
    assert s.bag == {}


@pytest.mark.parametrize(("side", "from_bag", "green"), [("a", 2, 0), ("b", 0, 1)])
def test_summer_boat_1a_and_1b_add_workers_when_taking_a_boat(
    side: str, from_bag: int, green: int
) -> None:
    from meeple_hall.games.keyflower.seasons import take_boat
    from tests.games.keyflower.helpers import boat_picking

    s = boat_picking(side)
    bag, supply = sum(s.bag.values()), s.green
    take_boat(s, 0, s.boats[0])
    assert sum(s.bag.values()) == bag - from_bag
    assert s.players[0].screen.get("green", 0) == green and s.green == supply - green
    take_boat(s, 1, s.boats[1])
    assert sum(s.players[1].screen.values()) == 12  # no summer boat, an empty boat


def test_winter_ends_with_turn_order_tiles_and_a_boat_in_each_village() -> None:
    s = table(num_players=3, offer=("S03",))
    s.season = 3
    s.offer = []
    s = play(s, 0, "bid", "T1", "red", "1")
    s = play(s, 1, "bid", "T2", "red", "1")
    s = play(s, 2, "pass")
    s = play(s, 0, "bid", "T2", "red", "2")
    s = play(s, 1, "pass")
    s = play(s, 2, "pass")
    s = play(s, 0, "pass")
    assert s.pick_order == [0, 1, 2] and s.start == 0
    assert s.players[0].to_place == ["T1", "T2"]
    labels = [str(o.label) for o in engine.decisions(s)[0].options]
    assert labels == [  # the boats' end scoring, as the rulebook's "Boats" describes them
        "B1 Keyflower: 1 point per transport capacity",
        "B2 Sea Bastion: 1 point per tile on a road loop",
        "B3 Sea Breeze: 3 points per boat joined to your home by water",
    ]
    s = play(s, 0, "B3")
    s = play(s, 1, "B1")
    assert s.players[2].boat == "B2"
    assert s.players[0].to_place == ["T1", "T2", "B3"]
    assert s.players[1].to_place == ["B1"]


def test_workers_used_in_a_village_go_behind_its_owner_s_screen_whoever_placed_them() -> None:
    """Rulebook, End of season step 4: workers used on tiles in a player's village are kept
    by that player, including the workers other players placed there."""
    s = table(offer=("S03",))
    home = s.players[0].home
    s = play(s, 0, "use", home, "red", "1")
    s = play(s, 1, "use", home, "red", "2")
    s = play(s, 2, "use", home, "red", "3")
    assert sum(g.count for g in s.tiles[home].workers) == 6
    s = _all_pass(s, 0)
    assert s.players[0].screen["red"] == 4 - 1 + 6
    assert s.players[1].screen["red"] == 4 - 2
    assert s.players[2].screen["red"] == 4 - 3
    assert s.tiles[home].workers == []


def test_summer_boat_1a_won_this_summer_already_draws_at_the_end_of_summer() -> None:
    """Boat 1a: two extra workers "when taking workers from the boats at the end of summer
    and autumn"; the summer boat is taken in step 3, before the boats are emptied in step 5."""
    s = table(num_players=2, offer=("U09",))
    s.season = 1
    s.tiles["U09"].side = "a"
    s = play(s, 0, "bid", "U09", "red", "1")
    s = play(s, 1, "pass")
    s = play(s, 0, "pass")
    assert s.players[0].to_place == ["U09"] and s.pick_order == [0, 1]
    workers = sum(s.players[0].screen.values())
    boat = s.boats[0]
    aboard = sum(s.boat_workers[boat].values())
    s = play(s, 0, boat)
    assert sum(s.players[0].screen.values()) == workers + aboard + 2


def test_placement_options_name_the_neighbours_and_what_the_roads_join() -> None:
    s = table(num_players=2, offer=("S03",))
    home = s.players[0].home
    s = play(s, 0, "bid", "S03", "red", "1")
    s = _all_pass(s, 1)
    s = play(s, 0, options(s)[0])
    d = next(d for d in engine.decisions(s) if d.seat == 0)
    labels = {o.id: str(o.label) for o in d.options}
    assert labels["1_0"] == f"1_0: E of Home {home[1:]}"
    assert labels["0_-1"] == f"0_-1: NW of Home {home[1:]}"
    s = play(s, 0, "1_0")
    d = next(d for d in engine.decisions(s) if d.seat == 0)
    for o in d.options[:-1]:
        rot = int(o.id[1:])
        roads = ", ".join(
            n for n, e in zip(DIR_NAMES, edges_at("S03", rot), strict=True) if e == "R"
        )
        # Every offered turn puts a road on the west side, facing the home tile's east road.
        assert str(o.label) == f"r{rot}: roads {roads}; road to Home {home[1:]}"
        assert "W" in roads.split(", ")


def test_location_labels_say_whose_village_and_which_tile_shows_the_start_player() -> None:
    s = table(num_players=3, offer=("S03",))
    s = play(s, 0, "use")
    labels = {o.id: str(o.label) for o in engine.decisions(s)[0].options}
    assert (
        labels[s.players[0].home]
        == f"{s.players[0].home} Home {s.players[0].home[1:]} (your village)"
    )
    assert labels[s.players[2].home].endswith("(Seat 3's village)")
    assert labels["S03"] == "S03 Gold mine"
    s = play(s, 0, "back", "bid")
    labels = {o.id: str(o.label) for o in engine.decisions(s)[0].options}
    assert labels[s.start_tile] == f"{s.start_tile} Turn order {s.start_tile[1:]} (start player)"


def test_back_from_the_turn_of_a_tile_lets_its_owner_pick_another_cell() -> None:
    s = table(num_players=2, offer=("S03",))
    s = play(s, 0, "bid", "S03", "red", "1")
    s = _all_pass(s, 1)
    s = play(s, 0, options(s)[0])
    cells = options(s, 0)
    s = play(s, 0, "1_0")
    assert engine.decisions(s)[0].options[-1].id == "back"
    s = play(s, 0, "back")
    assert options(s, 0) == cells and "S03" in s.players[0].to_place
