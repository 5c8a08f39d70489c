"""Round-2 edge cases: player-count differences, empty supplies, effects that meet, and the
timing of the game's end."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple_hall.games.core import Action
from meeple_hall.games.village import data, engine
from meeple_hall.games.village.state import CHRONICLE, COUNCIL, GRAVE, REMOVED, VISIBLE
from tests.games.village.helpers import check_conservation
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


# -- player counts ---------------------------------------------------------------------

# Hand-derived from BB setup 6, 7 and 12: open chronicle spaces per profession (2 always,
# "3-5", "4-5", "5" as the count allows), open graves (3 always, then the same labels),
# customers in the stalls, cubes on the board per round (18/21/24, 5 players 25); a solo
# game is set up as for 2 players.
PER_COUNT = {
    1: (2, 3, 3, 18),
    2: (2, 3, 3, 18),
    3: (3, 4, 4, 21),
    4: (4, 5, 5, 24),
    5: (5, 6, 5, 25),
}


def test_chronicle_graves_stalls_and_cubes_follow_the_player_count() -> None:
    for n, (chronicle, graves, stalls, cubes) in PER_COUNT.items():
        state = fresh(n)
        for slots in state.chronicle.values():
            assert slots.count("") == chronicle, n
        assert state.graves.count("") == graves, n
        assert [bool(t) for t in state.stalls] == [True] * stalls + [False] * (5 - stalls), n
        assert sum(map(len, state.spaces.values())) == cubes, n
        assert len(state.spaces["market"]) == 1, n


def test_seat_compensation_grows_with_the_player_count() -> None:
    # BB setup 14: second player 1 grain, third a random cube, fourth a chosen cube, fifth
    # one more coin; nobody else gets anything, and a solo game has none.
    solo = engine.new(1, 2, {"start": "seat1"})
    assert (solo.players[0].grain, sum(solo.players[0].cubes.values())) == (0, 0)
    assert solo.players[0].coins == 1
    for n in range(2, 6):
        state = engine.new(n, 2, {"start": "seat1"})
        grain = [p.grain for p in state.players]
        cubes = [sum(p.cubes.values()) for p in state.players]
        coins = [p.coins for p in state.players]
        assert grain == [0, 1, 0, 0, 0][:n], n
        assert cubes == [0, 0, 1, 0, 0][:n], n
        assert coins == [1, 1, 1, 1, 2][:n], n
        decision = engine.decisions(state)[0]
        assert (decision.kind, decision.seat) == (("gift", 3) if n >= 4 else ("turn", 0)), n


def test_after_a_market_day_only_the_open_stalls_refill() -> None:
    for n, stalls in ((2, 3), (3, 4), (4, 5)):
        state = at_turn(fresh(n), 0, market=["pink"], harvest=["green"] * n)
        first = state.stalls[0]
        for good, k in data.customers()[first].wants.items():
            if good == "grain":
                state.players[0].grain = k
            else:
                state.players[0].goods[good] = k
        queue = list(state.queue)
        state = choose(choose(state, 0, "market-pink"), 0, f"serve-{first}")
        while state.market is not None:
            (decision,) = engine.decisions(state)
            state = choose(state, decision.seat, "pass")
        assert state.stalls[0] == queue[0], n
        assert [bool(t) for t in state.stalls] == [True] * stalls + [False] * (5 - stalls), n
        assert state.queue[:4] == queue[1:], n


# -- timing ----------------------------------------------------------------------------


def serve_first_stall(state, seat: int) -> str:
    """Give `seat` exactly what the frontmost customer wants; return the tile."""
    tile = state.stalls[0]
    for good, k in data.customers()[tile].wants.items():
        if good == "grain":
            state.players[seat].grain = k
        else:
            state.players[seat].goods[good] = k
    return tile


def test_plague_from_the_market_kills_at_the_end_of_the_turn_not_inside_the_market_day() -> None:
    # BB: time passing the quill kills at the end of one's turn; only time spent during a
    # market day kills at once. The plague cube is taken before the day begins.
    state = at_turn(fresh(), 0, market=["black"], harvest=["green", "green"])
    state.players[0].time = 9
    state.players[0].members[3].place, state.players[0].members[3].stage = COUNCIL, 1
    tile = serve_first_stall(state, 0)
    state = choose(state, 0, "market-black")
    assert state.players[0].time == 11 and state.market is not None
    (decision,) = engine.decisions(state)
    assert decision.kind == "market" and decision.seat == 0
    state = choose(state, 0, f"serve-{tile}")
    # Seat 2 has nothing to sell and seat 1 no green: both pass without being asked.
    assert state.market is None
    (decision,) = engine.decisions(state)
    assert (decision.kind, decision.seat) == ("die", 0)
    assert state.players[0].customers == [tile]
    assert len(decision.options) == 2  # a #1 on the farm or the #1 in the council
    state = choose(state, 0, "die-3")
    assert state.chronicle["council"][0] == "0"
    assert engine.decisions(state)[0].kind == "turn"
    assert engine.decisions(state)[0].seat == 1


# -- stress ----------------------------------------------------------------------------


def lowest_stayed_visible(before, after, seat: int) -> int:
    """The lowest number among members that stood in one visible place all along (an action
    may send the oldest into the black bag first, and a mass may draw it out after)."""
    pairs = zip(before.players[seat].members, after.players[seat].members, strict=True)
    return min((m.number for o, m in pairs if o.place == m.place in VISIBLE), default=9)


def check_step(before, action: Action, after) -> None:
    """What no single action may do, whatever the rules of the moment."""
    for seat, (old, new) in enumerate(zip(before.players, after.players, strict=True)):
        assert new.time >= old.time
        assert new.deaths_due >= 0
        assert new.prestige >= old.prestige
        died = [
            o.number
            for o, m in zip(old.members, new.members, strict=True)
            if o.place in VISIBLE and m.place in (CHRONICLE, GRAVE, REMOVED)
        ]
        for number in died:
            assert number <= lowest_stayed_visible(before, after, seat), (seat, number)
        assert len(died) <= 1
        assert len(new.cities) == len(set(new.cities)) <= 6
    if not before.ending and after.ending:
        full = all("" not in s for s in after.chronicle.values()) or "" not in after.graves
        assert full
    if before.ending:
        assert after.ending


@settings(max_examples=10, deadline=None)
@given(
    num_players=st.integers(1, 5),
    seed=st.integers(0, 2**32),
    variant=st.sampled_from(["default", "plain", "die"]),
)
def test_random_games_at_every_count_and_option_keep_their_invariants(
    num_players: int, seed: int, variant: str
) -> None:
    options = {
        "default": {},
        "plain": {"compensation": "off", "start": "seat1"},
        "die": {"karla": "die"},
    }[variant]
    rng = random.Random(seed)
    state = engine.new(num_players, seed, options)
    while pending := engine.decisions(state):
        (decision,) = pending
        option_ids = [o.id for o in decision.options]
        assert option_ids and len(option_ids) == len(set(option_ids))
        assert decision.kind != "die" or len(option_ids) > 1
        action = Action(decision.seat, (rng.choice(option_ids),))
        after = engine.apply(state, action)
        check_conservation(after)
        check_step(state, action, after)
        state = after
    result = engine.result(state)
    assert result is not None and state.ending
    assert all(v >= 0 for v in state.supply.values())


# -- effects that meet -----------------------------------------------------------------


def test_solo_marker_and_a_coin_together_pay_a_two_cube_cost_marker_first() -> None:
    # BB solo: the next-start-player marker is a coin until the round ends; BB coins: any
    # coin stands in for any cube. A plow (1 pink + 1 orange) with no cubes: marker + coin.
    state = at_turn(engine.new(1, 3), 0, crafts=["green"], harvest=["green"])
    player = state.players[0]
    player.marker_coin, player.coins = True, 1
    state.next_start = 0
    state = choose(state, 0, "crafts-green")
    assert "smithy-cubes" in ids(state)
    state = choose(state, 0, "smithy-cubes")
    player = state.players[0]
    assert (player.goods["plow"], player.coins, player.marker_coin) == (1, 0, False)
    assert player.cubes["green"] == 1  # the cube taken stays: coins paid for both


def test_a_promotion_paid_in_coins_leaves_the_coin_for_the_stage_4_privilege() -> None:
    # Council b): 2 green (coins may stand in) + 3 time to enter stage 4, then privilege 4:
    # exactly 1 coin for 3 prestige. With 1 green taken, 1 held and 1 coin: green pays the
    # promotion and the coin buys the prestige.
    state = at_turn(fresh(), 0, council=["green"], harvest=["green"])
    player = state.players[0]
    player.members[0].place, player.members[0].stage = COUNCIL, 3
    player.cubes["green"], player.coins = 1, 1
    state = choose(state, 0, "council-green")
    state = choose(state, 0, "promote-0-green")
    assert "p4" in ids(state)
    state = choose(state, 0, "p4")
    player = state.players[0]
    assert (player.prestige, player.coins, player.cubes["green"], player.time) == (3, 0, 0, 3)
