"""Empty supplies (rulebook, Production: "the player only receives the number that is
available"; Start of season: boats filled one worker at a time): nothing from nowhere, no
crash, and the log says what happened."""

from __future__ import annotations

import random

import pytest

from meeple_hall.games.core import Action
from meeple_hall.games.keyflower import engine
from meeple_hall.games.keyflower.seasons import load_boats, take_boat
from meeple_hall.games.testing import random_choices
from tests.games.keyflower.helpers import boat_picking, give_tile, options, play, table


def test_workshop_with_no_iron_stone_or_wood_left_is_used_for_nothing() -> None:
    s = table(offer=("S12",))
    for r in ("iron", "stone", "wood"):
        del s.supply[r]
    s = play(s, 0, "use", "S12", "blue", "1")
    assert s.current == 1 and s.move.stage == "action"  # no empty "Which resource?" menu
    assert s.tiles[s.players[0].home].resources == {}
    assert str(s.log[-1]) == "Seat 1 uses Workshop: nothing"


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
        s = boat_picking(side)
        s.bag, s.green = {"red": 1}, 0
        take_boat(s, 0, s.boats[0])
        assert s.players[0].screen == {"blue": 4, "red": 4 + (side == "a"), "yellow": 4}
        assert s.green == 0 and s.bag == ({} if side == "a" else {"red": 1})


def _sound(s) -> None:
    """No negative or empty counts, bids and uses within the rules, each tile in one place."""
    counts = [s.bag, s.supply, s.skill_pile, *(p.screen for p in s.players)]
    counts += [p.skills for p in s.players] + [t.resources for t in s.tiles.values()]
    assert all(n > 0 for c in counts for n in c.values()) and s.green >= 0
    for t in s.tiles.values():
        assert all(g.count > 0 for g in [*t.workers, *t.bids])
        assert sum(g.count for g in t.workers) <= 6
        assert len({g.seat for g in t.bids}) == len(t.bids)
        bids = sorted(g.count for g in t.bids)
        assert len(bids) < 2 or bids[-1] > bids[-2]  # a bid must beat the others
    villages = [t for p in s.players for t in p.village]
    assert len(villages) == len(set(villages))
    for p in s.players:
        cells = [(s.tiles[t].q, s.tiles[t].r) for t in p.village if s.tiles[t].placed]
        assert len(cells) == len(set(cells))


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_long_random_games_with_every_summer_boat_keep_the_table_sound(num_players: int) -> None:
    """Random play that prefers acting to passing, the four summer boats handed out at the
    start, so supplies run low and every ability meets the others."""
    rng = random.Random(num_players)
    s = engine.new(num_players, num_players)
    for i in range(4):
        boat = f"U{9 + i:02d}"
        give_tile(s, rng.randrange(num_players), boat, 9, i)
        s.tiles[boat].side = rng.choice("ab")
        s.summer_stack.remove(boat)
    while pending := engine.decisions(s):
        d = rng.choice(pending)
        choice = random_choices(d, rng)
        acts = [o.id for o in d.options if o.id != "pass"]
        if d.kind == "action" and acts and rng.random() < 0.6:
            choice = (rng.choice(acts),)
        s = engine.apply(s, Action(d.seat, choice))
        _sound(s)
    assert engine.result(s) is not None
