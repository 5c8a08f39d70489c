"""Empty supplies (rulebook, Production: "the player only receives the number that is
available"; Start of season: boats filled one worker at a time): nothing from nowhere, no
crash, and the log says what happened."""

from __future__ import annotations

from games.keyflower.seasons import load_boats, take_boat
from tests.games.keyflower.helpers import give_tile, options, play, table


def test_workshop_with_no_iron_stone_or_wood_left_is_used_for_nothing() -> None:
    s = table(offer=("S12",))
    for r in ("iron", "stone", "wood"):
        del s.supply[r]
    s = play(s, 0, "use", "S12", "blue", "1")
    assert s.current == 1 and s.move.stage == "action"  # no empty "Which resource?" menu
    assert s.tiles[s.players[0].home].resources == {}
    assert s.log[-1] == "P1 uses Workshop: nothing"


def test_workshop_offers_only_the_resources_still_in_the_supply() -> None:
    s = table(offer=("S12",))
    del s.supply["stone"]
    s = play(s, 0, "use", "S12", "blue", "1")
    assert options(s, 0) == ["iron", "wood"]


def test_skill_tiles_run_out_for_the_apprentice_hall_and_the_hiring_fair() -> None:
    s = table(offer=("S02", "U04"))
    s.skill_pile = {"pick": 1}
    s = play(s, 0, "use", "S02", "red", "1")
    assert s.players[0].skills == {"pick": 1} and s.skill_pile == {}
    # Hiring fair: the skill given up is set aside, so it cannot be drawn back.
    s.players[1].skills = {"saw": 1}
    s = play(s, 1, "use", "U04", "red", "1", "saw")
    assert s.players[1].skills == {} and s.skill_pile == {"saw": 1}


def test_brewer_and_alehouse_draw_nothing_from_an_empty_bag() -> None:
    s = table(offer=("U01", "S01"))
    s.bag = {}
    s.players[0].skills = {"anvil": 1}
    anvils = s.skill_pile.get("anvil", 0)
    s = play(s, 0, "use", "U01", "red", "1", "anvil")
    assert s.players[0].screen == {"blue": 4, "red": 3, "yellow": 4}
    assert s.skill_pile["anvil"] == anvils + 1 and s.players[0].skills == {}
    s = play(s, 1, "use", "S01", "red", "1")
    assert s.players[1].screen == {"blue": 4, "red": 3, "yellow": 4} and s.bag == {}


def test_boats_get_no_skill_tiles_beyond_the_pile() -> None:
    s = table(num_players=4)
    for b in s.boats:
        s.boat_workers[b], s.boat_skills[b] = {}, {}
    s.skill_pile = {"saw": 2}
    load_boats(s, "summer")  # summer contents ask for 1 + 1 + 2 + 0 skill tiles
    assert sum(sum(k.values()) for k in s.boat_skills.values()) == 2
    assert s.skill_pile == {}


def test_summer_boats_1a_and_1b_with_an_empty_bag_and_no_green_workers() -> None:
    for side in ("a", "b"):
        s = table(num_players=2)
        s.season = 1
        give_tile(s, 0, "U09", 5, 5)
        s.tiles["U09"].side = side
        s.pick_order, s.boats_left = [0, 1], list(s.boats)
        s.boat_workers = {b: {} for b in s.boats}
        s.boat_skills = {b: {} for b in s.boats}
        s.bag, s.green = {"red": 1}, 0
        take_boat(s, 0, s.boats[0])
        assert s.players[0].screen == {"blue": 4, "red": 4 + (side == "a"), "yellow": 4}
        assert s.green == 0 and s.bag == ({} if side == "a" else {"red": 1})
