"""Everything that depends on the number of players (rulebook, Setup table and "Turn order
tiles"), checked at every count from 2 to 6."""

from __future__ import annotations

import pytest

from meeple_hall.games.keyflower import engine
from meeple_hall.games.keyflower.components import spec
from meeple_hall.games.keyflower.state import KeyflowerState
from tests.games.keyflower.helpers import options, play, table

# Rulebook setup table: boats, turn-order tiles, tiles per season, winter tiles each.
TABLE = {2: (2, 1, 6, 3), 3: (3, 2, 7, 3), 4: (4, 3, 8, 3), 5: (5, 4, 9, 2), 6: (6, 4, 10, 2)}
BOAT_NAMES = ["Keyflower", "Sea Bastion", "Sea Breeze", "Flipper", "Invincible", "White Wind"]


def _through_the_season(s: KeyflowerState) -> KeyflowerState:
    """Everyone passes; boats are taken first choice first, until the next season begins."""
    season = s.season
    while s.season == season and s.phase != "over":
        d = engine.decisions(s)[0]
        s = play(s, d.seat, "pass" if d.kind == "action" else options(s, d.seat)[0])
    return s


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_setup_follows_the_table_at_every_player_count(n: int) -> None:
    boats, turn_order, season_tiles, winter_each = TABLE[n]
    s = engine.new(n, seed=n)
    assert [spec(b).name for b in s.boats] == BOAT_NAMES[:boats]
    assert [spec(t).number for t in s.turn_order] == list(range(1, turn_order + 1))
    assert s.start_tile == s.turn_order[-1]  # the highest number in use shows the keyple
    assert len(s.offer) == season_tiles and all(spec(t).kind == "spring" for t in s.offer)
    assert [len(p.winter_hand) for p in s.players] == [winter_each] * n
    hands = [t for p in s.players for t in p.winter_hand]
    assert len(set(hands)) == n * winter_each
    assert len({p.home for p in s.players}) == n
    assert [sum(p.screen.values()) for p in s.players] == [8] * n
    lowest = min(range(n), key=lambda i: int(s.players[i].home[1:]))
    assert s.start == s.current == lowest
    on_boats = sum(sum(w.values()) for w in s.boat_workers.values())
    assert on_boats == sum((spec(b).contents or {})["spring"][0] for b in s.boats)
    assert sum(s.bag.values()) == 120 - 8 * n - on_boats


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_summer_and_autumn_lay_out_the_table_count_and_winter_takes_what_was_chosen(
    n: int,
) -> None:
    s = _through_the_season(engine.new(n, seed=10 + n))
    assert s.season == 1 and len(s.offer) == TABLE[n][2]
    assert all(spec(t).kind == "summer" for t in s.offer) and s.summer_stack == []
    assert all(s.boat_workers[b] for b in s.boats)  # reloaded for summer
    s = _through_the_season(s)
    assert s.season == 2 and len(s.offer) == TABLE[n][2]
    assert all(spec(t).kind == "autumn" for t in s.offer) and s.autumn_stack == []
    s = _through_the_season(s)
    assert s.phase == "winter" and s.offer == []
    pending = engine.decisions(s)
    assert sorted(d.seat for d in pending) == list(range(n))
    assert all((d.min_choices, d.max_choices) == (1, TABLE[n][3]) for d in pending)
    for d in pending:  # the smallest introduction: one tile each ("Winter introduced": n)
        s = play(s, d.seat, d.options[0].id)
    assert len(s.offer) == n and s.phase == "play"


def test_six_players_without_a_turn_order_tile_take_boats_clockwise_from_the_new_start() -> None:
    """Four turn-order tiles for six players: 1, 2 and the start tile (4) choose in number
    order, then the two players who won none, clockwise from the new start player."""
    s = table(num_players=6, offer=("S03",))
    assert s.turn_order == ["T1", "T2", "T3", "T4"] and s.start_tile == "T4"
    s = play(s, 0, "pass")
    s = play(s, 1, "bid", "T2", "red", "1")
    s = play(s, 2, "pass")
    s = play(s, 3, "bid", "T1", "red", "1")
    s = play(s, 4, "pass")
    s = play(s, 5, "bid", "T4", "red", "1")
    for seat in range(6):
        s = play(s, seat, "pass")
    assert s.pick_order == [3, 1, 5, 0, 2, 4]
    assert s.start == 5


def test_two_players_share_one_turn_order_tile_that_also_names_the_start_player() -> None:
    s = table(num_players=2, offer=("S03",))
    assert s.turn_order == ["T1"] and s.start_tile == "T1"
    s = play(s, 0, "pass")
    s = play(s, 1, "bid", "T1", "blue", "1")
    s = play(s, 0, "pass")
    s = play(s, 1, "pass")
    assert s.pick_order == [1, 0] and s.start == 1
    first = options(s, 1)
    s = play(s, 1, first[-1])
    # the last boat goes to the last player without a question; summer begins with seat 1
    assert s.season == 1 and s.current == 1


def test_a_player_winning_two_turn_order_tiles_takes_one_boat_only() -> None:
    s = table(num_players=4, offer=("S03",))
    s = play(s, 0, "bid", "T1", "red", "1")
    s = play(s, 1, "bid", "T2", "red", "1")
    s = play(s, 2, "pass")
    s = play(s, 3, "pass")
    s = play(s, 0, "bid", "T3", "red", "1")
    for seat in (1, 2, 3, 0):
        s = play(s, seat, "pass")
    assert s.pick_order == [0, 1, 2, 3] and s.start == 0
    s = play(s, 0, s.boats[0])
    assert s.pick_order == [1, 2, 3] and engine.decisions(s)[0].seat == 1
