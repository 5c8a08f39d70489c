"""Keyflower's words as a player reads them (issue 14): bids say what they beat and become,
4a counter-bids that the workers lie down, boats the kinds of their skill tiles, upgrade
costs where a tile is bid on, and a log with singular counts, boat 1a/1b extras and what a
transport moved."""

from __future__ import annotations

from meeple_hall.bot import presenters
from meeple_hall.games.keyflower import engine
from meeple_hall.games.keyflower.seasons import take_boat
from meeple_hall.games.keyflower.state import Tile
from tests.games.keyflower.helpers import boat_picking, give_tile, play, table


def _labels(state, seat: int) -> dict[str, str]:
    decision = next(d for d in engine.decisions(state) if d.seat == seat)
    return {o.id: str(o.label) for o in decision.options}


def test_a_bid_says_what_it_beats_and_a_raised_bid_what_it_becomes() -> None:
    s = table(offer=("S03",))
    s.players[0].screen = {"red": 5}
    s.players[1].screen = {"red": 5}
    s = play(s, 0, "bid", "S03", "red")
    assert _labels(s, 0)["1"] == "1 red"
    s = play(s, 0, "1")
    s = play(s, 1, "bid", "S03", "red")
    assert _labels(s, 1)["2"] == "2 red, beats 1"
    s = play(
        s,
        1,
        "2",
    )
    s = play(s, 2, "pass")
    s = play(s, 0, "bid", "S03", "red")
    decision = next(d for d in engine.decisions(s) if d.seat == 0)
    assert "Raise your bid of 1 red on" in str(decision.prompt)
    assert _labels(s, 0)["2"] == "2 more → 3 red, beats 2"


def test_a_4a_counter_bid_says_the_workers_lie_down() -> None:
    s = table(offer=("S03",))
    give_tile(s, 1, "U12", 5, 5)
    s.tiles["U12"].side = "a"
    s = play(s, 0, "bid", "S03", "red", "1")
    s = play(s, 1, "bid", "S03")
    labels = _labels(s, 1)
    assert labels["red"] == "red"
    assert labels["blue"] == labels["blue"].split(" ")[0] + " (boat 4a: your workers lie down)"
    decision = next(d for d in engine.decisions(s) if d.seat == 1)
    shown = [str(presenters.option_style("keyflower", decision, o).label) for o in decision.options]
    assert len(set(shown)) == len(shown) and all(len(label) <= 80 for label in shown)


def test_boat_labels_name_the_skill_tiles_and_the_log_counts_in_the_singular() -> None:
    s = boat_picking("b")
    s.phase = "boats"
    boat = s.boats[0]
    s.boat_workers[boat] = {"blue": 1}
    s.boat_skills[boat] = {"saw": 1}
    other = s.boats[1]
    s.boat_skills[other] = {"pick": 2, "anvil": 1}
    labels = _labels(s, 0)
    assert labels[boat].endswith(": 1 blue; skill tile saw")
    assert labels[other].endswith("skill tiles 1 anvil + 2 pick") or "2 pick" in labels[other]
    take_boat(s, 0, boat)
    log = [str(line) for line in s.log]
    taken = next(line for line in log if "takes" in line and "from" in line)
    assert "1 worker (1 blue) and 1 skill tile (1 saw)" in taken


def test_summer_boats_1a_and_1b_put_their_extra_workers_in_the_log() -> None:
    for side, words in (("a", "draws 2 workers from the bag (boat 1a)"), ("b", "(boat 1b)")):
        s = boat_picking(side)
        take_boat(s, 0, s.boats[0])
        log = [str(line) for line in s.log]
        assert any(words in line for line in log), (side, log[-3:])


def test_a_transport_logs_what_it_moved() -> None:
    s = table(offer=())
    home = s.players[0].home
    give_tile(s, 0, "S07", 1, 0)
    s.tiles[home].resources = {"wood": 1}
    state = s
    decision = next(d for d in engine.decisions(state) if d.seat == 0)
    assert decision.kind == "action"
    # Use the home tile (it transports) and move the wood to the new tile.
    state = play(state, 0, "use", home)
    colour = next(d for d in engine.decisions(state) if d.seat == 0).options[0].id
    state = play(state, 0, colour, "1", "move", home, "wood")
    state = play(state, 0, "S07")
    assert any("moves 1 wood from" in str(line) and "to" in str(line) for line in state.log)


def test_a_tile_bid_on_shows_its_upgrade_cost() -> None:
    s = table(offer=("S07",))
    s.tiles["S07"] = Tile("S07")
    s = play(s, 0, "bid")
    decision = next(d for d in engine.decisions(s) if d.seat == 0)
    style = presenters.option_style("keyflower", decision, decision.option("S07"))
    description = str(style.description)
    assert "upgrade for 1 anvil" in description and len(description) <= 100


def test_a_summer_boat_up_for_auction_names_the_side_face_up() -> None:
    """EN "Summer boats": the face-up side is chosen at random and gives one ability; the
    bid line said both sides "(the side shown)" without saying which is shown."""
    s = table(offer=("U10", "S03"))
    s.tiles["U10"].side = "b"
    s = play(s, 0, "bid")
    decision = engine.decisions(s)[0]
    boat = decision.option("U10")
    assert str(boat.label) == "U10 Summer boat 2 (side 2b)"
    style = presenters.option_style("keyflower", decision, boat)
    assert str(style.description) == "transport and upgrades doubled"
    assert str(decision.option("S03").label) == "S03 Gold mine"


def test_a_colour_whose_outbid_workers_may_come_along_says_so() -> None:
    """EN "Bidding" 5: outbid workers may be moved together, with more from behind the
    screen; that colour's line leads to that question instead of a count."""
    s = table(num_players=2, offer=("S03", "S05"))
    s = play(s, 0, "bid", "S03", "red", "1")
    s = play(s, 1, "bid", "S03", "red", "2")
    s = play(s, 0, "bid", "S05")
    labels = _labels(s, 0)
    assert labels["red"] == "red (your outbid workers may come along)"
    assert labels["blue"] == "blue"
