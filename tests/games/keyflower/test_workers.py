"""Placing workers: the colour rule, bids, the 1-2-3 use rule, outbid workers moving on."""

from __future__ import annotations

import pytest

from meeple_hall.games.core import IllegalAction
from meeple_hall.games.keyflower import engine
from meeple_hall.games.keyflower.placing import bid_of
from tests.games.keyflower.helpers import options, play, table


def test_first_use_one_then_two_then_three_and_no_more() -> None:
    s = table(offer=("S03", "S07"))
    s = play(s, 0, "use", "S03", "red", "1")
    assert options(s, 1)[:2] == ["bid", "use"]
    s = play(s, 1, "use", "S03", "red")
    assert options(s, 1) == ["2", "3", "4"]  # at least one more than before, six at most
    s = play(s, 1, "2")
    s = play(s, 2, "use", "S03", "red")
    assert options(s, 2) == ["3"]
    s = play(s, 2, "3")
    assert s.tiles["S03"].uses == [1, 2, 3]
    s = play(s, 0, "use")
    assert "S03" not in options(s, 0)


def test_two_then_three_makes_five_and_no_third_use() -> None:
    """Rulebook: a first use with 2 workers makes the next cost 3, five in all, no third."""
    s = table(offer=("S03",))
    s = play(s, 0, "use", "S03", "blue", "2")
    s = play(s, 1, "use", "S03", "blue")
    assert options(s, 1) == ["3", "4"]
    s = play(s, 1, "3")
    s = play(s, 2, "use")
    assert "S03" not in options(s, 2)


def test_first_use_of_three_closes_the_tile() -> None:
    s = table(offer=("S03",))
    s = play(s, 0, "use", "S03", "yellow", "3")
    s = play(s, 1, "use")
    assert "S03" not in options(s, 1)


def test_workers_at_a_tile_share_its_colour() -> None:
    s = table(offer=("S03", "S07"))
    s = play(s, 0, "bid", "S03", "yellow", "1")
    s = play(s, 1, "use", "S03")
    assert options(s, 1) == ["yellow"]
    s = play(s, 1, "yellow", "2")
    s = play(s, 2, "bid", "S03")
    assert options(s, 2) == ["yellow"]


def test_bid_must_beat_the_highest_other_bid() -> None:
    s = table(offer=("S03",))
    s = play(s, 0, "bid", "S03", "red", "2")
    s = play(s, 1, "bid", "S03", "red")
    assert options(s, 1) == ["3", "4"]


def test_winning_bid_may_grow_but_never_move() -> None:
    s = table(offer=("S03", "S07"))
    s = play(s, 0, "bid", "S03", "red", "2")
    s = play(s, 1, "pass")
    s = play(s, 2, "pass")
    s = play(s, 0, "bid", "S07", "red")
    assert options(s, 0) == ["1", "2"]  # no gathering: the S03 bid is winning
    s = play(s, 0, "1")
    s = play(s, 1, "pass")
    s = play(s, 2, "pass")
    s = play(s, 0, "bid", "S03", "red")
    assert options(s, 0) == ["1"]  # adding to one's own winning bid


def test_outbid_workers_move_on_together_and_may_be_joined() -> None:
    s = table(offer=("S03", "S07"))
    s = play(s, 0, "bid", "S03", "red", "2")
    s = play(s, 1, "bid", "S03", "red", "3")
    s = play(s, 2, "pass")
    s = play(s, 0, "bid", "S07", "red")
    assert options(s, 0) == ["S03", "next"]
    s = play(s, 0, "S03")
    assert options(s, 0) == ["next"]
    s = play(s, 0, "next")
    assert options(s, 0) == ["0", "1", "2"]  # the two come as one; more may join
    s = play(s, 0, "1")
    assert bid_of(s.tiles["S07"], 0).count == 3
    assert bid_of(s.tiles["S03"], 0) is None
    assert s.players[0].screen["red"] == 1


def test_outbid_workers_may_go_to_production() -> None:
    s = table(offer=("S03", "S07"))
    s = play(s, 0, "bid", "S03", "blue", "2")
    s = play(s, 1, "bid", "S03", "blue", "3")
    s = play(s, 2, "pass")
    s = play(s, 0, "use", "S07", "blue", "S03", "next", "0")
    assert [(g.seat, g.count) for g in s.tiles["S07"].workers] == [(0, 2)]
    assert s.tiles["S07"].uses == [2]
    assert s.tiles[s.players[0].home].resources == {"iron": 2}


def test_six_workers_per_tile_limit_holds_for_moved_groups() -> None:
    s = table(offer=("S03", "S07"))
    s.players[2].screen["red"] = 6
    s = play(s, 0, "use", "S07", "red", "1")
    s = play(s, 1, "bid", "S03", "red", "4")
    s = play(s, 2, "bid", "S03", "red", "5")
    s = play(s, 0, "use", "S07", "red", "2")
    s = play(s, 1, "use")
    # Seat 2's four outbid red workers would make seven at S07, and cannot be split.
    assert "S07" not in options(s, 1)


def test_refused_token_changes_nothing() -> None:
    s = table(offer=("S03",))
    with pytest.raises(IllegalAction):
        play(s, 0, "bid", "S03", "red", "9")


def test_a_passed_player_may_act_again_until_all_pass_in_succession() -> None:
    s = table(offer=("S03",))
    s = play(s, 0, "pass")
    s = play(s, 1, "pass")
    s = play(s, 2, "use", "S03", "red", "1")
    s = play(s, 0, "use", "S03", "red", "2")
    assert s.season == 0
    s = play(s, 1, "pass")
    s = play(s, 2, "pass")
    s = play(s, 0, "pass")
    assert s.phase != "play" or s.season == 1


def test_back_cancels_a_half_made_placement_and_changes_nothing() -> None:
    s = table(offer=("S03",))
    before = engine.dump(s)
    for tokens in (("bid",), ("bid", "S03"), ("use", "S03", "red")):
        t = play(s, 0, *tokens, "back")
        assert engine.dump(t) == before


def test_outbid_workers_may_move_onto_the_tile_they_lost_to_use_it() -> None:
    """Bidding 5: outbid workers "can be moved elsewhere" together; on the tile is another
    location than beside it, so they may use the tile they were outbid on."""
    s = table(offer=("S03",))
    s = play(s, 0, "bid", "S03", "red", "2")
    s = play(s, 1, "bid", "S03", "red", "3")
    s = play(s, 2, "pass")
    s = play(s, 0, "use", "S03", "red")
    assert options(s, 0) == ["S03", "next"]
    s = play(s, 0, "S03", "next", "0")
    assert bid_of(s.tiles["S03"], 0) is None
    assert [(g.seat, g.colour, g.count) for g in s.tiles["S03"].workers] == [(0, "red", 2)]
    assert s.tiles["S03"].uses == [2]
    assert s.tiles[s.players[0].home].resources == {"gold": 1}
    assert s.players[0].screen["red"] == 2
