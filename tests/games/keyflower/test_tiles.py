"""Tile effects, transport along roads, upgrades and the summer boats' abilities."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple_hall.games.keyflower.components import RESOURCES
from meeple_hall.games.keyflower.state import Tile
from meeple_hall.games.keyflower.transport import routes
from tests.games.keyflower.helpers import give_tile, options, play, table


def _village(s):
    """Seat 0: home at 0,0 - Miner (S07) at 1,0 - Gold mine (S03) at 2,0, roads all along."""
    give_tile(s, 0, "S07", 1, 0)
    give_tile(s, 0, "S03", 2, 0)
    give_tile(s, 0, "S10", 0, 1, rot=0)
    return s


def test_resources_stay_on_own_tile_and_go_home_from_elsewhere() -> None:
    s = _village(table(offer=("S11",)))
    s = play(s, 0, "use", "S07", "red", "1")
    assert s.tiles["S07"].resources == {"iron": 2}
    s = play(s, 1, "use", "S07", "red", "2")
    assert s.tiles[s.players[1].home].resources == {"iron": 2}
    s = play(s, 2, "use", "S11", "blue", "1")
    assert s.tiles[s.players[2].home].resources == {"wood": 2}


def test_transport_capacity_splits_between_resources_and_steps() -> None:
    s = _village(table(offer=("S11",)))
    s.tiles["S03"].resources = {"gold": 2}
    home = s.players[0].home
    # Stable: capacity 2. One gold two steps ...
    one = play(s, 0, "use", "S10", "red", "1", "move", "S03", "gold", "S07")
    one = play(one, 0, "move", "S07", "gold", home)
    assert one.tiles[home].resources == {"gold": 1} and one.current == 1
    # ... or two gold one step each.
    two = play(s, 0, "use", "S10", "red", "1", "move", "S03", "gold", "S07")
    two = play(two, 0, "move", "S03", "gold", "S07")
    assert two.tiles["S07"].resources == {"gold": 2} and two.current == 1


def test_transport_follows_roads_only_unless_boat_2a() -> None:
    s = _village(table(offer=("S11",)))
    give_tile(s, 0, "S11", 1, -1)  # its field faces the miner's field
    home = s.players[0].home
    assert set(routes(s, 0, "S07")) == {home, "S03", "S10"}
    give_tile(s, 0, "U10", 5, 5)
    s.tiles["U10"].side = "a"
    assert set(routes(s, 0, "S07")) == {home, "S03", "S10", "S11"}


def test_upgrade_pays_from_the_tile_and_behind_the_screen_and_keeps_the_rest() -> None:
    s = _village(table(offer=("S11",)))
    s.tiles["S07"].resources = {"iron": 2}
    s.players[0].skills = {"anvil": 1}
    pile = s.skill_pile["anvil"]
    s = play(s, 0, "use", "S10", "red", "1", "up", "S07")
    t = s.tiles["S07"]
    assert t.upgraded and t.resources == {"iron": 2}
    assert s.players[0].skills == {} and s.skill_pile["anvil"] == pile + 1


def test_gold_stands_in_for_any_resource_when_upgrading() -> None:
    s = _village(table(offer=("S11",)))
    s.tiles["S03"].resources = {"gold": 2, "wood": 1}
    s = play(s, 0, "use", "S10", "red", "1", "up", "S03")
    assert s.tiles["S03"].upgraded and s.tiles["S03"].resources == {"wood": 1}


def test_boat_3a_lets_any_resource_pay_for_another() -> None:
    s = _village(table(offer=("S11",)))
    s.tiles["S03"].resources = {"wood": 2}
    s = play(s, 0, "use", "S10", "red", "1")
    assert "up" not in options(s, 0)
    s = _village(table(offer=("S11",)))
    give_tile(s, 0, "U11", 5, 5)
    s.tiles["U11"].side = "a"
    s.tiles["S03"].resources = {"wood": 2}
    s = play(s, 0, "use", "S10", "red", "1", "up", "S03")
    assert s.tiles["S03"].upgraded and s.tiles["S03"].resources == {}


def test_boat_2b_doubles_transport_and_upgrades() -> None:
    s = _village(table(offer=("S11",)))
    give_tile(s, 0, "U10", 5, 5)
    s.tiles["U10"].side = "b"
    s.tiles["S07"].resources = {"iron": 1}
    s = play(s, 0, "use", s.players[0].home, "red", "1")
    assert s.move.carry == 2 and s.move.upgrades == 2


def test_peddler_sends_a_yellow_worker_to_the_bag_for_a_green_one() -> None:
    s = table(offer=("S08",))
    bag = s.bag["yellow"]
    s = play(s, 0, "use", "S08", "red", "1")
    assert s.players[0].screen["yellow"] == 3 and s.players[0].screen["green"] == 1
    assert s.bag["yellow"] == bag + 1 and s.green == 19


def test_peddler_needs_a_yellow_worker_left_after_placing() -> None:
    s = table(offer=("S08",))
    s.players[0].screen = {"yellow": 1}
    s = play(s, 0, "use")
    assert "S08" not in options(s, 0)


def test_workshop_gives_one_resource_of_choice() -> None:
    s = table(offer=("S12",))
    s = play(s, 0, "use", "S12", "blue", "1")
    assert options(s, 0) == ["iron", "stone", "wood"]
    s = play(s, 0, "stone")
    assert s.tiles[s.players[0].home].resources == {"stone": 1}


def test_tavern_discard_goes_to_the_bag_after_the_draw() -> None:
    s = table(offer=("U08",))
    s.bag = {}
    s = play(s, 0, "use", "U08", "blue", "1", "red")
    assert s.players[0].screen == {"blue": 3, "red": 3, "yellow": 4}
    assert s.bag == {"red": 1}


def test_hiring_fair_takes_a_skill_and_gives_two() -> None:
    s = table(offer=("U04",))
    s.players[0].skills = {"saw": 1}
    s.skill_pile = {}
    s = play(s, 0, "use", "U04", "blue", "1", "saw")
    assert s.players[0].skills == {} and s.skill_pile == {"saw": 1}


def test_carpenter_needs_a_saw() -> None:
    s = table(offer=("U02",))
    s = play(s, 0, "use")
    assert "U02" not in options(s, 0)
    s = table(offer=("U02",))
    s.players[0].skills = {"saw": 1}
    s = play(s, 0, "use", "U02", "blue", "1")
    assert s.tiles[s.players[0].home].resources == {"wood": 3}


def test_boat_4a_counter_bids_in_another_colour_lying_down() -> None:
    s = table(offer=("S03",))
    give_tile(s, 1, "U12", 5, 5)
    s.tiles["U12"].side = "a"
    s = play(s, 0, "bid", "S03", "red", "1")
    s = play(s, 1, "bid", "S03")
    assert options(s, 1) == ["blue", "red", "yellow"]
    s = play(s, 1, "blue", "2")
    assert [g.lying for g in s.tiles["S03"].bids] == [False, True]
    s = play(s, 2, "bid", "S03")
    assert options(s, 2) == ["red"]
    s = play(s, 2, "red", "3")
    s.offer.append("S07")
    s.tiles["S07"] = Tile("S07")
    s = play(s, 0, "bid", "S07", "red", "S03", "next", "0")
    assert [(g.colour, g.lying) for g in s.tiles["S03"].bids] == [("blue", True), ("red", False)]


def test_boat_4a_lying_workers_stand_when_the_bid_they_beat_moves_away() -> None:
    s = table(offer=("S03", "S07"))
    give_tile(s, 1, "U12", 5, 5)
    s.tiles["U12"].side = "a"
    s = play(s, 0, "bid", "S03", "red", "1")
    s = play(s, 1, "bid", "S03", "blue", "2")
    s = play(s, 2, "pass")
    s = play(s, 0, "bid", "S07", "red", "S03", "next", "0")
    assert [(g.colour, g.lying) for g in s.tiles["S03"].bids] == [("blue", False)]
    s = play(s, 1, "pass")
    s = play(s, 2, "bid", "S03")
    assert options(s, 2) == ["blue"]


def test_boat_4b_uses_a_tile_in_any_colour() -> None:
    s = table(offer=("S03",))
    give_tile(s, 1, "U12", 5, 5)
    s.tiles["U12"].side = "b"
    s = play(s, 0, "use", "S03", "red", "1")
    s = play(s, 1, "use", "S03")
    assert options(s, 1) == ["blue", "red", "yellow", "mixed"]
    s = play(s, 1, "yellow", "2")
    assert s.tiles["S03"].workers[1].lying
    s = play(s, 2, "use", "S03")
    assert options(s, 2) == ["red"]


def test_boat_4b_may_mix_colours_in_one_use_and_they_lie_down() -> None:
    s = table(offer=("S03",))
    give_tile(s, 1, "U12", 5, 5)
    s.tiles["U12"].side = "b"
    s = play(s, 0, "use", "S03", "red", "1")
    s = play(s, 1, "use", "S03")
    assert options(s, 1)[-1] == "mixed"
    s = play(s, 1, "mixed")
    assert options(s, 1) == ["0", "1", "2", "3", "4"]  # blue
    s = play(s, 1, "1", "0")  # one blue, no red
    assert options(s, 1) == ["1", "2", "3", "4"]  # yellow: at least one more is needed
    s = play(s, 1, "1")
    workers = [(g.seat, g.colour, g.count, g.lying) for g in s.tiles["S03"].workers]
    assert workers == [(0, "red", 1, False), (1, "blue", 1, True), (1, "yellow", 1, True)]
    assert s.tiles["S03"].uses == [1, 2]
    assert s.players[1].screen == {"blue": 3, "red": 4, "yellow": 3}
    s = play(s, 2, "use", "S03")
    assert options(s, 2) == ["red"]


def test_mixing_is_not_offered_without_boat_4b() -> None:
    s = table(offer=("S03",))
    s = play(s, 0, "use", "S03", "red", "1")
    s = play(s, 1, "use", "S03")
    assert options(s, 1) == ["red"]


def test_shortages_give_only_what_is_left() -> None:
    """Rulebook, Production: with too few resources, workers or green workers in the supply the
    player receives only what is there (and never searches the bag for green workers)."""
    s = table(offer=("S07", "S08", "S01"))
    s.supply["iron"] = 1
    s = play(s, 0, "use", "S07", "red", "1")
    assert s.tiles[s.players[0].home].resources == {"iron": 1} and not s.supply.get("iron")
    s.green = 0
    s = play(s, 1, "use", "S08", "red", "1")
    assert {c: n for c, n in s.players[1].screen.items() if n} == {"blue": 4, "red": 3, "yellow": 3}
    assert s.green == 0
    s.bag = {}
    s = play(s, 2, "use", "S01", "blue", "1")
    assert {c: n for c, n in s.players[2].screen.items() if n} == {"blue": 3, "red": 4, "yellow": 4}


def test_upgrade_payment_is_chosen_when_the_tile_can_pay_in_several_ways() -> None:
    """Gold stands in for any resource: the Gold mine's iron + stone can be paid three ways
    from an iron, a stone and a gold; the player picks, the rest stays on the tile."""
    s = _village(table(offer=("S11",)))
    s.tiles["S03"].resources = {"gold": 1, "iron": 1, "stone": 1}
    s = play(s, 0, "use", "S10", "red", "1", "up", "S03")
    assert s.move.stage == "pay" and not s.tiles["S03"].upgraded
    assert options(s, 0) == ["1gold+1iron", "1gold+1stone", "1iron+1stone"]
    supply = dict(s.supply)
    s = play(s, 0, "1gold+1stone")
    assert s.tiles["S03"].upgraded and s.tiles["S03"].resources == {"iron": 1}
    assert s.supply["gold"] == supply["gold"] + 1 and s.supply["stone"] == supply["stone"] + 1


def test_upgrade_payment_is_not_asked_when_there_is_one_way() -> None:
    s = _village(table(offer=("S11",)))
    s.tiles["S03"].resources = {"iron": 1, "stone": 1, "wood": 2}
    s = play(s, 0, "use", "S10", "red", "1", "up", "S03")
    assert s.tiles["S03"].upgraded and s.tiles["S03"].resources == {"wood": 2}


def test_boat_3a_payment_choice_offers_every_resource_for_every_other() -> None:
    s = _village(table(offer=("S11",)))
    give_tile(s, 0, "U11", 5, 5)
    s.tiles["U11"].side = "a"
    s.tiles["S03"].resources = {"stone": 1, "wood": 2}
    s = play(s, 0, "use", "S10", "red", "1", "up", "S03")
    assert options(s, 0) == ["1stone+1wood", "2wood"]
    s = play(s, 0, "2wood")
    assert s.tiles["S03"].upgraded and s.tiles["S03"].resources == {"stone": 1}


def test_boat_4b_mixed_use_may_bring_outbid_workers_of_any_colour_along() -> None:
    """Rulebook, Bidding 5: placed workers come from behind the screen or from a losing bid,
    which moves on whole; boat 4b: a use may be of several colours at once. So a mixed use
    may take an outbid blue pair and add a red from behind the screen."""
    s = table(offer=("S03", "S07", "S11"))
    give_tile(s, 1, "U12", 5, 5)
    s.tiles["U12"].side = "b"
    s = play(s, 0, "use", "S03", "yellow", "1")
    s = play(s, 1, "bid", "S07", "blue", "2")
    s = play(s, 2, "bid", "S07", "blue", "3")  # seat 1's two blue are outbid
    s = play(s, 0, "pass")
    s = play(s, 1, "use", "S03", "mixed")
    assert options(s, 1) == ["S07", "next"]
    s = play(s, 1, "S07", "next")
    # Two outbid blue are on their way; the use needs two, room is five: 0-2 more blue
    # (two left behind the screen), then red and yellow.
    assert options(s, 1) == ["0", "1", "2"]
    s = play(s, 1, "0", "1")
    assert options(s, 1) == ["0", "1", "2"]  # yellow: at most five on the tile after this
    s = play(s, 1, "0")
    workers = [(g.seat, g.colour, g.count, g.lying) for g in s.tiles["S03"].workers]
    assert workers == [(0, "yellow", 1, False), (1, "red", 1, True), (1, "blue", 2, True)]
    assert s.tiles["S03"].uses == [1, 3] and s.tiles["S07"].bids[0].seat == 2
    assert s.players[1].screen == {"blue": 2, "red": 3, "yellow": 4}


def _can_pay(paid: list[str], slots: list[str], any_for_any: bool) -> bool:
    """Brute force: each paid resource to its own cost slot; a named slot takes that
    resource or gold, "any" takes anything; with boat 3a every slot takes anything."""
    from itertools import permutations

    return any(
        all(
            any_for_any or s == "any" or r in (s, "gold") for r, s in zip(order, slots, strict=True)
        )
        for order in permutations(paid)
    )


@settings(max_examples=40, deadline=None)
@given(
    have=st.dictionaries(st.sampled_from(RESOURCES), st.integers(1, 3), max_size=4),
    cost=st.dictionaries(st.sampled_from((*RESOURCES, "any")), st.integers(1, 2), max_size=3),
    any_for_any=st.booleans(),
)
def test_upgrade_payments_are_exactly_the_ways_the_cost_can_be_paid(
    have: dict[str, int], cost: dict[str, int], any_for_any: bool
) -> None:
    from itertools import product

    from meeple_hall.games.keyflower.transport import payments

    slots = [k for k, n in cost.items() for _ in range(n)]
    expected = []
    for counts in product(*(range(have.get(r, 0) + 1) for r in RESOURCES)):
        paid = [r for r, n in zip(RESOURCES, counts, strict=True) for _ in range(n)]
        if len(paid) == len(slots) and _can_pay(paid, slots, any_for_any):
            expected.append({r: n for r, n in zip(RESOURCES, counts, strict=True) if n})
    got = payments(have, cost, any_for_any)
    assert sorted(map(sorted, (p.items() for p in got))) == sorted(
        map(sorted, (p.items() for p in expected))
    )


def test_boat_4a_lying_bid_stays_down_when_the_outbid_workers_move_onto_the_tile() -> None:
    """Boat 4a: lying workers stand only when no workers are left bidding or using the tile;
    outbid workers that move onto the tile to use it are still using it."""
    s = table(offer=("S03",))
    give_tile(s, 1, "U12", 5, 5)
    s.tiles["U12"].side = "a"
    s = play(s, 0, "bid", "S03", "red", "1")
    s = play(s, 1, "bid", "S03", "blue", "2")
    s = play(s, 2, "pass")
    s = play(s, 0, "use", "S03", "red", "S03", "next", "0")
    assert [(g.colour, g.lying) for g in s.tiles["S03"].bids] == [("blue", True)]
    assert [(g.colour, g.lying) for g in s.tiles["S03"].workers] == [("red", False)]
    s = play(s, 1, "pass")
    s = play(s, 2, "bid", "S03")
    assert options(s, 2) == ["red"]
