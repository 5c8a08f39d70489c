"""Round-2 edge cases: player-count differences, empty supplies, effects that meet, and the
timing of the game's end."""

from __future__ import annotations

from games.village import data, engine
from games.village.state import COUNCIL
from tests.games.village.test_rulebook_examples import at_turn, choose


def fresh(num_players: int = 2, seed: int = 1):
    return engine.new(num_players, seed, {"compensation": "off", "start": "seat1"})


def ids(state) -> list[str]:
    return [o.id for o in engine.decisions(state)[0].options]


def empty_supply(state, **left: int) -> None:
    """Move every cube of the supply but `left` into the green bag (conserving them)."""
    for colour in data.colours():
        keep = left.get(colour, 0)
        state.green_bag[colour] += state.supply[colour] - keep
        state.supply[colour] = keep


# -- shortages -------------------------------------------------------------------------


def test_a_city_reward_with_one_cube_left_in_the_supply_takes_that_cube() -> None:
    state = at_turn(fresh(), 0, travel=["green", "green"])
    player = state.players[0]
    player.goods["wagon"], player.coins = 1, 2  # the coins pay the route's 2 orange
    player.members[0].place, player.members[0].where = "travel", "north"
    player.cities = ["north"]
    empty_supply(state, pink=1)
    state = choose(choose(state, 0, "travel-green"), 0, "move-0-hill")
    assert ids(state) == ["pink"]
    state = choose(state, 0, "pink")
    assert state.players[0].cubes["pink"] == 1 and state.supply["pink"] == 0


def test_a_city_reward_with_an_empty_supply_gives_no_cube_and_goes_on() -> None:
    state = at_turn(fresh(), 0, travel=["green", "green"])
    player = state.players[0]
    player.goods["wagon"], player.coins = 1, 2
    player.members[0].place, player.members[0].where = "travel", "north"
    player.cities = ["north"]
    empty_supply(state)
    state = choose(choose(state, 0, "travel-green"), 0, "move-0-hill")
    assert state.players[0].cities == ["north", "hill"]
    assert engine.decisions(state)[0].kind == "turn"


def test_the_stage_2_privilege_with_one_colour_left_takes_one_cube_of_it() -> None:
    state = at_turn(fresh(), 0, council=["green", "green"])
    player = state.players[0]
    player.members[0].place, player.members[0].stage = COUNCIL, 2
    player.cubes["green"] = 1
    empty_supply(state, brown=3)
    state = choose(choose(state, 0, "council-green"), 0, "privilege")
    assert "p2-brown" in ids(state)
    state = choose(state, 0, "p2-brown")
    assert state.players[0].cubes["brown"] == 1 and state.supply["brown"] == 2
