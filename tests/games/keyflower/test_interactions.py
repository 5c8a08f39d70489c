"""Two effects on the same thing at once, each result counted by hand from the tile texts."""

from __future__ import annotations

from meeple_hall.games.keyflower import engine, seasons
from meeple_hall.games.keyflower.scoring import score
from tests.games.keyflower.helpers import give_tile, options, play, table


def test_boat_4b_mixed_use_of_a_peddler_keeps_back_the_yellow_worker_it_pays() -> None:
    """4b mixes colours; the Peddler then sends a yellow worker to the bag for a green one,
    so one yellow must stay behind the screen."""
    s = table(offer=("S08",))
    give_tile(s, 1, "U12", 5, 5)
    s.tiles["U12"].side = "b"
    s = play(s, 0, "use", "S08", "red", "1")
    s.players[1].screen = {"blue": 1, "yellow": 2}
    bag_yellow, green = s.bag.get("yellow", 0), s.green
    s = play(s, 1, "use", "S08", "mixed")
    assert options(s, 1) == ["1"]  # blue: the one blue is needed, two workers in all
    s = play(s, 1, "1")
    assert options(s, 1) == ["1"]  # yellow: one of the two, the other pays the Peddler
    s = play(s, 1, "1")
    assert s.players[1].screen == {"green": 1}
    assert s.bag["yellow"] == bag_yellow + 1 and s.green == green - 1
    lying = [(g.colour, g.lying) for g in s.tiles["S08"].workers if g.seat == 1]
    assert lying == [("blue", True), ("yellow", True)]


def test_boat_4b_mixed_use_of_a_tavern_keeps_back_a_worker_to_discard() -> None:
    s = table(offer=("U08",))
    give_tile(s, 1, "U12", 5, 5)
    s.tiles["U12"].side = "b"
    s = play(s, 0, "use", "U08", "red", "1", "red")
    s.players[1].screen = {"blue": 1, "yellow": 2}
    s = play(s, 1, "use", "U08", "mixed", "1", "1")  # blue 1 + yellow 1: the last discarded
    assert options(s, 1) == ["yellow"]
    s = play(s, 1, "yellow")
    assert sum(s.players[1].screen.values()) == 2  # the Tavern's two workers from the bag


def test_boat_2b_doubles_an_upgraded_stable_and_the_keyflower_boat_counts_it_doubled() -> None:
    """Upgraded home carries 2, upgraded Stable 4: capacity 6; 2b doubles the Keyflower score
    (6 x 1 x 2 = 12) and a use of the Stable moves 8 and upgrades 4 times."""
    s = table(num_players=2)
    home = s.players[0].home
    s.tiles[home].upgraded = True
    give_tile(s, 0, "S10", 1, 0)
    s.tiles["S10"].upgraded = True
    give_tile(s, 0, "U10", 0, -1)
    s.tiles["U10"].side = "b"
    give_tile(s, 0, "B1", -1, 0)
    s.players[0].boat = "B1"
    breakdown, _ = score(s, 0)
    assert breakdown["boats"] == 12
    s.tiles[home].resources = {"iron": 1}  # something to move, so the turn asks
    s = play(s, 0, "use", "S10", "red", "1")
    assert (s.move.carry, s.move.upgrades) == (8, 4)


def test_flipper_free_flip_counts_for_the_sculptor_next_to_it() -> None:
    """Flipper flips the Miner (3 points upgraded) beside the Sculptor (2 per upgraded
    neighbour) and scores its own 2: 3 + 2 + 2."""
    s = table(num_players=4)
    s.season = 3
    s.phase = "place"
    for p in s.players:
        p.screen, p.to_place = {}, []
    give_tile(s, 0, "S07", 1, 0)
    give_tile(s, 0, "A11", 2, 0)
    give_tile(s, 0, "B4", -1, 0)
    s.players[0].boat = "B4"
    seasons.after_placing(s)
    s = play(s, 0, "S07")
    breakdown = engine.result(s).breakdown[0]
    assert (breakdown["tiles"], breakdown["adjacency"], breakdown["boats"]) == (3, 2, 2)
    assert sum(breakdown.values()) == 7


def test_white_wind_and_the_village_hall_do_not_both_score_a_worker() -> None:
    """Village hall 1 per worker of one colour, White Wind 1 per worker: 3 blue workers score
    3 in all, wherever they go."""
    s = table(num_players=6)
    s.players[0].screen = {"blue": 3}
    give_tile(s, 0, "W10", 1, 0)
    give_tile(s, 0, "B6", -1, 0)
    s.players[0].boat = "B6"
    s.start = 1
    breakdown, _ = score(s, 0)
    assert breakdown["winter"] + breakdown["boats"] == 3


def test_boat_3b_makes_a_mercer_set_of_three_wood() -> None:
    """Mercer's guild scores 5 per iron + stone + wood; with 3b any resource stands in."""
    s = table(num_players=2)
    s.players[0].screen = {}
    s.tiles[s.players[0].home].resources = {"wood": 3}
    give_tile(s, 0, "W07", 1, 0)
    assert score(s, 0)[0]["winter"] == 0
    give_tile(s, 0, "U11", 0, -1)
    s.tiles["U11"].side = "b"
    assert score(s, 0)[0]["winter"] == 5
