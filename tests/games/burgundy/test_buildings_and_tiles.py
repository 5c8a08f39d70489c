"""What each placed tile does: castles, mines, the eight buildings and the town rule."""

import itertools

import pytest

from meeple_hall.games.burgundy.flow import end_turn
from meeple_hall.games.burgundy.follow_ups import ship_label
from meeple_hall.games.burgundy.rules import tile
from meeple_hall.games.core import IllegalAction
from meeple_hall.games.core.catalogues import LANGUAGES, render

from .helpers import decision, options, play, setup_player, table, tid


def place_on_12(state, face, **kw):
    """Put `face` on hex 12 (a building space, die 3, next to the start castle)."""
    setup_player(state, dice=(3, 3), storage=[face], **kw)
    return play(state, "3", "place", f"{face}@12")


def test_castle_gives_an_extra_action_with_any_die_value():
    state = table()
    setup_player(state, dice=(6, 6), storage=["castle", "bank"], estate={12: "market"})
    state = play(state, "6", "place", "castle@7")
    assert options(state)[:6] == ["c1", "c2", "c3", "c4", "c5", "c6"]
    state = play(state, "c3", "place", "bank@26")
    assert state.players[0].silver == 3
    assert state.players[0].used == [True, False]


def test_mine_pays_a_silverling_at_the_end_of_each_phase():
    state = table()
    setup_player(state, estate={25: "mine", 30: "mine"}, silver=0)
    state.round = 5
    state.turn = state.num_players - 1
    end_turn(state)
    assert state.phase == 1 and state.players[0].silver == 2


def test_watchtower_scores_4():
    assert place_on_12(table(), "watchtower").players[0].points == {
        "watchtowers": 4,
        "areas": 1,
        "phase bonus": 10,
    }


def test_boarding_house_gives_4_workers_and_bank_2_silverlings():
    state = place_on_12(table(), "boarding", workers=0)
    assert state.players[0].workers == 4
    state = place_on_12(table(), "bank", silver=0)
    assert state.players[0].silver == 2


def test_warehouse_sells_a_kind_without_a_die_or_may_sell_nothing():
    state = place_on_12(table(), "warehouse", goods={4: 3, 5: 1}, silver=0)
    assert decision(state).kind == "warehouse"
    assert options(state) == ["4", "5", "skip"]
    state = play(state, "4")
    assert state.players[0].goods == {5: 1} and state.players[0].sold == {4: 3}
    assert state.players[0].points["goods sold"] == 6 and state.players[0].silver == 1


@pytest.mark.parametrize(
    ("building", "types"),
    [
        ("market", {"ship", "animal"}),
        ("carpenter", {"building"}),
        ("church", {"mine", "knowledge", "castle"}),
    ],
)
def test_market_carpenter_and_church_take_a_tile_of_their_types_from_any_numbered_depot(
    building, types
):
    state = place_on_12(table(num_players=4), building)
    assert decision(state).kind == "effect_take"
    offered = [o for o in options(state) if o != "skip"]
    on_board = {tile(t).face for d in state.depots for t in d if t >= 0 and tile(t).type in types}
    assert {o.split("/")[0] for o in offered} == on_board
    state = play(state, offered[0])
    face, depot = offered[0].split("/")
    assert tile(state.players[0].storage[0]).face == face
    assert state.players[0].storage[0] not in state.depots[int(depot) - 1]


def test_town_hall_places_a_second_tile_of_any_colour_with_its_effect():
    state = table()
    setup_player(state, dice=(3, 3), storage=["townhall", "castle"], estate={7: "castle"})
    state = play(state, "3", "place", "townhall@12")
    assert decision(state).kind == "townhall"
    assert "castle@2" in options(state) and "castle@3" in options(state)
    state = play(state, "castle@2")
    assert decision(state).kind == "castle"


def test_one_building_of_each_type_per_town():
    state = table()
    setup_player(state, dice=(1, 1), storage=["bank"], estate={26: "bank", 12: "market"})
    assert "place" not in options(play(state, "1"))
    with pytest.raises(IllegalAction):
        play(state, "1", "place", "bank@27")


def test_a_building_whose_effect_cannot_be_used_is_still_placed():
    state = table()
    state.depots = [[-1] * 4 for _ in range(6)]
    state = place_on_12(state, "market")
    assert tile(state.players[0].estate[12]).face == "market"
    assert decision(state).kind == "die"


def test_full_storage_discards_a_tile_before_taking():
    state = table()
    setup_player(state, dice=(1, 1), storage=["bank", "mine", "ship"])
    taken = next(t for t in state.depots[0] if t >= 0)
    state = play(state, "1", "take", tile(taken).face)
    assert decision(state).kind == "discard"
    state = play(state, "mine")
    assert sorted(state.players[0].storage) == sorted([tid("bank"), tid("ship"), taken])


def test_black_depot_once_per_turn_for_2_silverlings():
    state = table()
    setup_player(state, dice=(1, 1), silver=5)
    state = play(state, "buy", tile(state.black[0]).face)
    assert state.players[0].silver == 3 and len(state.players[0].storage) == 1
    assert "buy" not in options(state)


def test_after_both_dice_the_player_may_still_buy_or_end():
    state = table()
    setup_player(state, dice=(1, 1), silver=2)
    state = play(state, "1", "workers", "1", "workers")
    assert options(state) == ["buy", "end"]
    state = play(state, "end")
    assert state.active == 1


def test_no_purchase_without_two_silverlings():
    state = table()
    setup_player(state, dice=(1, 1), silver=1)
    assert "buy" not in options(state)


def test_castle_action_may_come_after_a_purchase():
    state = table()
    setup_player(state, dice=(6, 6), storage=["castle"], estate={12: "market"}, silver=2)
    state = play(state, "6", "place", "castle@7")
    assert "buy" in options(state)
    state = play(state, "buy", tile(state.black[0]).face)
    assert decision(state).kind == "castle"
    state = play(state, "c1", "workers")
    assert state.players[0].silver == 0 and len(state.players[0].storage) == 1


def test_a_ship_with_no_goods_on_the_board_still_moves_up_the_bridge():
    state = table()
    state.depot_goods = [[] for _ in range(6)]
    setup_player(state, dice=(2, 2), storage=["ship"])
    state = play(state, "2", "place", "ship@18")
    assert decision(state).kind == "die"
    assert state.bridge[1] == [0]


def test_a_building_effect_with_full_storage_asks_for_a_discard():
    state = table(4)
    setup_player(state, dice=(3, 3), storage=["carpenter", "mine", "ship", "k3"])
    state = play(state, "3", "place", "carpenter@12")
    first = next(o for o in options(state) if o != "skip")
    state = play(state, first)
    assert decision(state).kind == "discard"
    state = play(state, "k3")
    assert len(state.players[0].storage) == 3


def test_a_tile_goes_only_on_its_colour_and_die_next_to_a_placed_tile():
    # Only the start castle (hex 19) is placed. Its neighbours: buildings 12 and 26 (die 3),
    # knowledge 13, ships 18 and 20, mine 25 (die 4). A bank fits 12 or 26 with a 3; with a 4
    # it has no space: building 9 (die 4) is not next to a placed tile, mine 25 the wrong colour.
    state = table()
    setup_player(state, dice=(3, 4), storage=["bank"], workers=0)
    assert options(play(state, "3", "place")) == ["bank@12", "bank@26"]
    assert "place" not in options(play(state, "4"))


def test_place_labels_say_where_the_hex_is_on_the_estate():
    """Two building spaces with die 3 (hexes 12 and 26) stand next to the start castle: the
    labels tell them apart by row (top to bottom) and space (left to right) as pictured."""
    state = table()
    setup_player(state, dice=(3, 3), storage=["bank"])
    state = play(state, "3", "place")
    labels = {o.id: str(o.label) for o in decision(state).options}
    assert labels == {
        "bank@12": "Bank on building 3 (row 3, space 3)",
        "bank@26": "Bank on building 3 (row 5, space 4)",
    }


def test_ship_labels_show_the_goods_waiting_on_each_depot():
    state = table()
    setup_player(state, dice=(2, 2), storage=["ship"])
    state.depot_goods = [[4, 1, 4], [], [6], [], [], []]
    state = play(state, "2", "place", "ship@18")
    labels = {o.id: str(o.label) for o in decision(state).options}
    # Goods by colour and number as on the tiles, each kind once with its count.
    assert labels == {
        "1": "Depot 1: red 1, turquoise 4 ×2",
        "3": "Depot 3: brown 6",
        "none": "A depot without goods: take nothing",
    }


def test_ship_labels_say_which_goods_the_three_kinds_of_storage_leave_behind():
    """ "If, due to this restriction, a player is unable to place a goods tile on one of their
    storage spaces, that tile remains in the depot" (2019 rulebook, Ship)."""
    state = table()
    setup_player(state, dice=(2, 2), storage=["ship"], goods={1: 1, 2: 1, 3: 1})
    state.depot_goods = [[1, 5], [6], [], [4, 5], [], []]
    state = play(state, "2", "place", "ship@18")
    labels = {o.id: str(o.label) for o in decision(state).options}
    assert labels["1"] == "Depot 1: red 1, orange 5 (no room for orange 5)"
    assert labels["2"] == "Depot 2: brown 6 (no room for brown 6)"
    assert labels["4"] == "Depot 4: turquoise 4, orange 5 (no room for turquoise 4, orange 5)"
    # One space left and two new kinds: the player will choose which.
    state = table()
    setup_player(state, dice=(2, 2), storage=["ship"], goods={1: 1, 2: 1})
    state.depot_goods = [[3, 4, 4], [1, 6], [], [], [], []]
    state = play(state, "2", "place", "ship@18")
    labels = {o.id: str(o.label) for o in decision(state).options}
    assert labels["1"] == "Depot 1: pink 3, turquoise 4 ×2 (room: 1 new kind)"
    assert labels["2"] == "Depot 2: red 1, brown 6"
    state = play(state, "1")
    assert str(decision(state).prompt) == (
        "Ship: your goods storage holds 3 kinds at most; choose 1 new kind"
    )
    assert {o.id: str(o.label) for o in decision(state).options} == {
        "3": "pink 3",
        "4": "turquoise 4 ×2",
    }


def test_every_ship_label_fits_a_button_in_every_language():
    """Whatever the depots hold (every set of kinds, 9 tiles of each) and whatever the storage
    holds, a ship's label over one depot or two (knowledge tile 5) is at most 80 characters:
    past a few kinds it counts them rather than naming them (an 87-character label was once
    found by random play)."""
    kinds = range(1, 7)
    state = table()  # one table: what a label reads (goods, storage, depots) is set each time
    for depots, (on_board, held) in itertools.product(
        ([3], [3, 4]),
        itertools.product(subsets(kinds, 1, 6), subsets(kinds, 0, 3)),
    ):
        setup_player(state, goods={k: 1 for k in held})
        state.depot_goods = [[] for _ in range(6)]
        for at, kind in enumerate(on_board):
            state.depot_goods[depots[at % len(depots)] - 1] += [kind] * 9
        label = ship_label(state, 0, depots)
        for lang in LANGUAGES:
            words = render(lang, label, strict=True)
            assert len(words) <= 80, words


def subsets(items, least: int, most: int):
    return [c for n in range(least, most + 1) for c in itertools.combinations(items, n)]


def test_taking_into_a_full_storage_says_a_stored_tile_goes():
    """ "If you don't have an empty slot, you must first create space by discarding a hex
    tile from your board": the take says so before it is chosen."""
    state = table()
    setup_player(state, dice=(2, 2), storage=["bank", "mine"])
    labels = {o.id: str(o.label) for o in decision(play(state, "2")).options}
    assert labels["take"] == "Take a tile from depot 2"
    setup_player(state, dice=(2, 2), storage=["bank", "mine", "ship"], silver=2)
    labels = {o.id: str(o.label) for o in decision(play(state, "2")).options}
    assert labels["take"] == "Take a tile from depot 2 (storage full: discard one)"
    # buying from the black depot too
    bought = decision(play(state, "buy"))
    assert bought.kind == "buy"
    assert all(str(o.label).endswith(" (storage full: discard one)") for o in bought.options)


def test_a_ship_may_choose_an_empty_depot_and_take_no_goods():
    """ "Choose any depot on the game board and grab all goods tiles from that depot": a depot
    with no goods is a legal choice, which keeps the goods storage free."""
    state = table()
    setup_player(state, dice=(2, 2), storage=["ship"], goods={3: 1, 5: 1})
    state.depot_goods = [[1], [2], [4], [6], [1], []]
    state = play(state, "2", "place", "ship@18")
    assert "none" in options(state)
    state = play(state, "none")
    assert state.players[0].goods == {3: 1, 5: 1} and state.bridge[1] == [0]
    assert state.depot_goods == [[1], [2], [4], [6], [1], []]


def test_with_goods_on_every_depot_a_ship_must_take_some():
    state = table()
    setup_player(state, dice=(2, 2), storage=["ship"])
    state.depot_goods = [[1], [2], [4], [6], [1], [3]]
    state = play(state, "2", "place", "ship@18")
    assert "none" not in options(state)
