"""The rulebooks' worked examples as exact test vectors."""

from __future__ import annotations

from meeple_hall.games.coffee import assign, harvest, refresh
from meeple_hall.games.coffee.arabica import WILD, counter_track_height
from tests.games.coffee.helpers import clear_board, fresh, no_coffee, plant

A, B, C = 0, 1, 2


def test_harvest_example_green_cooperative_a1_b7_c5_three_lost() -> None:
    """zh-TW "4.收穫階段": 8 staffed plantations make 16 coffee; A and B have fair trade
    posts; B bought (1st trader), C piggybacked: A 1, B 1+1+5 = 7, C 5, 3 go to waste."""
    shares = harvest.distribute(16, fair_trade_posts=[A, B], traders=[B, C])
    assert shares == {A: 1, B: 7, C: 5}
    assert 16 - sum(shares.values()) == 3


def test_harvest_example_on_the_board() -> None:
    state = fresh(4)
    clear_board(state)
    no_coffee(state)
    for space in range(5):
        plant(state, "col", 1, space, owner=3, staffed=True)
    for space in range(3):
        plant(state, "col", 2, space, owner=3, staffed=True)
    plant(state, "col", 2, 3, owner=3, staffed=False)
    coop = state.coops["col"]
    coop.buildings["fairtrade"][0] = A
    coop.buildings["fairtrade"][1] = B
    coop.traders = [B, C]
    assert harvest.production(state, "col") == 16
    state.players[3].sumatra = 0
    harvest.harvest(state)
    assert [state.players[s].coffee["col"] for s in (A, B, C, 3)] == [1, 7, 5, 0]


def test_harvest_makes_three_per_plantation_at_three_players() -> None:
    state = fresh(3)
    clear_board(state)
    plant(state, "gua", 1, 0, owner=0, staffed=True)
    plant(state, "gua", 1, 1, owner=1, staffed=False)
    assert harvest.production(state, "gua") == 3


def test_penalty_in_1975_is_two_per_empty_plantation() -> None:
    """zh-TW "2.工人階段": 3 empty plantations in the 2nd period cost 6 penalties."""
    state = fresh(4)
    clear_board(state)
    state.period = 2
    for space in range(3):
        plant(state, "bra", 1, space, owner=A)
    plant(state, "bra", 1, 3, owner=B, staffed=True)
    assign.start_penalties(state)
    assert state.owed == {A: 6}


def test_unpaid_penalty_removes_the_highest_unoccupied_plantations() -> None:
    """Unpaid 3 of 6 in 1975: two plantations were not paid in full; the highest rows go."""
    state = fresh(4)
    clear_board(state)
    state.period = 2
    plant(state, "eth", 1, 0, owner=A)
    plant(state, "eth", 2, 0, owner=A, support=0)
    plant(state, "eth", 3, 0, owner=A, support=0)
    state.owed = {A: 3}
    assert assign.plantations_to_remove(state, A) == 2
    assert [t[1] for t in assign.highest_unoccupied(state, A)] == [3]


def test_two_warehouses_in_rows_keep_two_of_each() -> None:
    """zh-TW "6.準備下個時期": two warehouses on the right keep 2 of every coffee."""
    assert set(refresh.storage_limits(2, ()).values()) == {2}


def test_one_warehouse_on_a_column_and_one_in_a_row() -> None:
    """One warehouse above the pink track and one on the right: 10 pink, 1 of each other."""
    limits = refresh.storage_limits(2, ("bra",))
    assert limits["bra"] == 10
    assert {c: n for c, n in limits.items() if c != "bra"} == dict.fromkeys(
        ("gua", "col", "eth", "ind", "kopi"), 1
    )


def test_store_discards_what_does_not_fit() -> None:
    state = fresh(4)
    player = state.players[0]
    player.built["warehouse"] = 2
    player.coffee.update(gua=12, col=3, bra=0, eth=1, ind=2, kopi=4)
    refresh.store(state, 0, ("gua",))
    assert player.coffee == {"gua": 10, "col": 1, "bra": 0, "eth": 1, "ind": 1, "kopi": 1}


def test_counter_track_distinct_counters_then_same_colour_pairs() -> None:
    """zh-TW "計分方式": different counters one space each; leftovers pair by colour."""
    counters = ["arabica:gua", "animal:gua", "arabica:col", "arabica:gua", "arabica:gua"]
    # three distinct (arabica gua, animal gua, arabica col) + one pair of gua leftovers
    assert counter_track_height(counters) == 4


def test_two_wild_animal_counters_are_identical() -> None:
    """Two Wild Animal counters count as one kind; the second pairs with any colour."""
    assert counter_track_height([WILD, WILD]) == 1
    assert counter_track_height([WILD, WILD, "arabica:eth", "arabica:eth"]) == 3


def test_wild_leftover_completes_an_odd_colour() -> None:
    counters = ["arabica:ind", "arabica:ind", WILD, WILD, "animal:bra"]
    # distinct: arabica ind, wild, animal bra = 3; leftovers ind + wild = 1 pair
    assert counter_track_height(counters) == 4


def test_counter_track_duos_may_repeat_even_of_identical_counters() -> None:
    """EN "Counter Track": "You can fill a space with two same-color counters, even if there
    is a previous space filled with an identical duo. The duo could even be a pair of two
    identical counters." Five Guatemala Arabica counters: one single, then two duos."""
    assert counter_track_height(["arabica:gua"] * 5) == 3
    # a duo of one colour mixes Arabica and Animal counters ("type doesn't matter")
    assert counter_track_height(["arabica:col", "animal:col", "arabica:col", "animal:col"]) == 3
