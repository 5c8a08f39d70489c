"""A whole two-player game played from a script, and the Flipper at the very end."""

from __future__ import annotations

from meeple_hall.games.keyflower import engine, seasons
from tests.games.keyflower.helpers import give_tile, options, play, table


def _place_all(s, seat: int):
    """Place every waiting tile at the first offered cell and turn."""
    while any(d.seat == seat and d.kind.startswith("place") for d in engine.decisions(s)):
        s = play(s, seat, options(s, seat)[0])
    return s


def test_scripted_two_player_game_reaches_the_expected_scores() -> None:
    s = table(num_players=2, offer=("S10", "S03"))
    s.summer_stack = ["U03", "U07", "U01", "U02", "U04", "U05", "U06", "U08"]
    s.autumn_stack = ["A05", "A06", "A07", "A08", "A09", "A10", "A11"]
    s.players[0].winter_hand = ["W01", "W03", "W05"]
    s.players[1].winter_hand = ["W02", "W10", "W12"]
    # Spring: seat 0 starts.
    s = play(s, 0, "bid", "S10", "red", "1")
    s = play(s, 1, "bid", "S03", "blue", "1")
    s = play(s, 0, "use", "S03", "blue", "1")  # a gold on seat 0's home tile
    s = play(s, 1, "bid", "T1", "yellow", "1")  # the start tile for two players
    s = play(s, 0, "pass")
    s = play(s, 1, "pass")
    assert s.pick_order == [1, 0] and s.start == 1
    s = play(s, 1, options(s)[0])
    assert s.players[1].screen["blue"] >= 4  # seat 0's worker came with the gold mine
    s = _place_all(_place_all(s, 0), 1)
    # Summer and autumn: nobody bids; the start player moves left after each.
    assert s.season == 1 and s.offer == ["U03", "U07", "U01", "U02", "U04", "U05"]
    s = play(s, 1, "pass")
    s = play(s, 0, "pass")
    s = play(s, 1, options(s)[0])
    assert s.season == 2 and s.start == 0 and "U03" not in s.tiles
    s = play(s, 0, "pass")
    s = play(s, 1, "pass")
    s = play(s, 0, options(s)[0])
    # Winter: secret choices, then the auction.
    assert s.phase == "winter" and s.start == 1
    s = play(s, 1, "W10")
    s = play(s, 0, "W05")
    assert sorted(s.offer) == ["W05", "W10"]
    s = play(s, 1, "bid", "W10", "red", "1")
    s = play(s, 0, "bid", "W05", "red", "1")
    s = play(s, 1, "pass")
    s = play(s, 0, "pass")
    s = play(s, 1, "B1")  # Keyflower to seat 1; Sea Bastion is left for seat 0
    assert s.players[0].boat == "B2" and s.start == 0
    s = _place_all(_place_all(s, 0), 1)
    result = engine.result(s)
    assert result is not None
    # Seat 0: Keythedral 12 and the gold 1; Sea Bastion finds no loop (the Keythedral has
    # one road). Nobody bid for the start tile in winter, so the keyple scores for no one.
    assert result.breakdown[0] == {
        "tiles": 0,
        "adjacency": 0,
        "storage": 0,
        "winter": 12,
        "boats": 0,
        "gold": 1,
    }
    # Seat 1: Village hall on its most numerous colour; Keyflower: the home's capacity 1.
    most = max(s.players[1].screen.values())
    assert result.breakdown[1] == {
        "tiles": 0,
        "adjacency": 0,
        "storage": 0,
        "winter": most,
        "boats": 1,
        "gold": 0,
    }
    assert result.scores == (13, most + 1)


def test_flipper_upgrades_one_tile_free_before_scoring() -> None:
    s = table(num_players=4)
    s.season = 3
    s.phase = "place"
    give_tile(s, 0, "S07", 1, 0)
    give_tile(s, 0, "B4", -1, 0)
    s.players[0].boat = "B4"
    for p in s.players:
        p.to_place = []
    seasons.after_placing(s)
    assert s.phase == "flip" and "S07" in options(s, 0) and "none" in options(s, 0)
    s = play(s, 0, "S07")
    assert s.tiles["S07"].upgraded and s.phase == "over"
    assert engine.result(s).breakdown[0]["tiles"] == 3
