"""A round of Village (BB "遊戲流程"): fill the action spaces from the green bag, take a cube
and act in turn until the board is empty, then the mass; and the game's end with everyone
else's final turn."""

from __future__ import annotations

from functools import cache

from meeple_hall.games.core import Option
from meeple_hall.games.village import actions, data, karla, market, mass
from meeple_hall.games.village import words as w
from meeple_hall.games.village.economy import can_pay, pay, shortfall, spend_time
from meeple_hall.games.village.state import KARLA, Step, VillageState


def fill_spaces(state: VillageState) -> None:
    """Add the setup card's cubes (as many as the supply has) and every plague cube in the
    supply to the green bag, then draw each space's cubes at random."""
    card = data.card(state.num_players)
    for colour in data.colours():
        n = min(card["add_per_colour"], state.supply[colour])
        state.supply[colour] -= n
        state.green_bag[colour] += n
    state.green_bag["black"] += state.supply["black"]
    state.supply["black"] = 0
    for space in data.spaces():
        for _ in range(card["cubes"][space]):
            pool = [c for c, n in sorted(state.green_bag.items()) for _ in range(n)]
            if not pool:
                break
            colour = state.rng.choice(pool)
            state.green_bag[colour] -= 1
            state.spaces[space].append(colour)
        state.spaces[space].sort()


def new_round(state: VillageState) -> None:
    state.round += 1
    if state.solo:
        state.next_start = None
        state.players[0].marker_coin = False
        karla.new_round(state)
    elif state.next_start is not None:
        state.start_player = state.next_start
        state.next_start = None
    fill_spaces(state)
    state.phase = "turn"
    state.log.append(w.m("log.round", n=state.round))
    begin_turn(state, state.start_player)


def begin_turn(state: VillageState, seat: int) -> None:
    state.current = seat
    state.last_take = []
    state.karla_pending = False
    state.stack.append(Step("turn", seat))


def board_empty(state: VillageState) -> bool:
    return not any(state.spaces.values())


def turn_options(state: VillageState, step: Step) -> list[Option]:
    if state.ending and board_empty(state):
        return [Option(f"free-{a}", w.m("label.free", action=w.space(a))) for a in actions.ACTIONS]
    out = []
    for space in data.spaces():
        for colour in sorted(set(state.spaces[space])):
            out.append(take_option(space, colour))
    player = state.players[step.seat]
    for colour in data.colours():
        if player.cubes[colour] and can_pay(player, {colour: 3}):
            lacking = shortfall(player, {colour: 3})
            marker = player.marker_coin and lacking > 0
            out.extend(well_option(colour, action, lacking, marker) for action in actions.ACTIONS)
    return out


# A turn's options are the same few each time (the AI asks for them very often): made once.
@cache
def take_option(space: str, colour: str) -> Option:
    if colour == "black":
        cost = w.time(data.rules()["time"]["plague_cost"])
        text = w.m("label.take_plague", space=w.space(space), time=cost)
    else:
        text = w.m("label.take", colour=w.colour(colour), space=w.space(space))
    return Option(f"{space}-{colour}", text)


@cache
def well_option(colour: str, action: str, lacking: int, marker: bool = False) -> Option:
    """The well for 3 cubes of a colour, the cubes lacking paid in coins (in solo the
    next-start-player marker first): `Well: 2 brown + 1 coin for crafts`."""
    paid = w.cube_count(colour, 3)
    if lacking:
        kept = w.cube_count(colour, 3 - lacking) if lacking < 3 else None
        paid = w.payment(kept, lacking, marker, w.cube_count(colour, lacking))
    return Option(f"well-{colour}-{action}", w.m("label.well", paid=paid, action=w.space(action)))


def turn(state: VillageState, step: Step, choice: str) -> None:
    player = state.players[step.seat]
    parts = choice.split("-")
    if parts[0] == "free":
        begin_action(state, step.seat, parts[1])
        return
    if parts[0] == "well":
        pay(state, player, {parts[1]: 3})
        state.log.append(w.m("log.well", seat=w.seat_name(step.seat), action=w.space(parts[2])))
        begin_action(state, step.seat, parts[2], well=True)
        return
    space, colour = parts
    state.spaces[space].remove(colour)
    state.last_take = [space, colour]
    state.karla_pending = state.solo
    if colour == "black":
        state.supply["black"] += 1
        cost = data.rules()["time"]["plague_cost"]
        spend_time(player, cost)
        where = w.space(space)
        state.log.append(
            w.m("log.takes_plague", seat=w.seat_name(step.seat), space=where, time=w.time(cost))
        )
    else:
        player.cubes[colour] += 1
        what, where = w.colour(colour), w.space(space)
        state.log.append(w.m("log.takes", seat=w.seat_name(step.seat), colour=what, space=where))
    begin_action(state, step.seat, space)


def begin_action(state: VillageState, seat: int, action: str, well: bool = False) -> None:
    if action == "market":
        market.start(state, seat, karla_reacts=not well)
    else:
        state.stack.append(Step(action, seat))


def end_turn(state: VillageState) -> None:
    """After a turn (and Karla's cube): the next turn, the mass, or the final turns."""
    if state.ending:
        if not state.finals_set:
            set_final_turns(state)
        if state.final_turns:
            begin_turn(state, state.final_turns.pop(0))
        else:
            mass.begin(state, final=True)
        return
    if board_empty(state):
        mass.begin(state, final=False)
        return
    begin_turn(state, 0 if state.solo else (state.current + 1) % state.num_players)


def set_final_turns(state: VillageState) -> None:
    """Everyone but the one who filled the last space takes one more turn, clockwise; if
    that happened in someone else's market day, everyone does, the market's trigger last."""
    state.finals_set = True
    n = state.num_players
    if state.market_ender is not None:
        start = state.market_ender
        skip = None
    else:
        start, skip = state.ender, state.ender
    if start == KARLA or start is None:
        state.final_turns = list(range(n))
        return
    seats = [(start + k) % n for k in range(1, n + 1)]
    state.final_turns = [s for s in seats if s != skip]


def end_mass(state: VillageState) -> None:
    mass.award_majority(state)
    if state.final_mass:
        state.phase = "over"
        state.log.append(w.m("log.over"))
    else:
        new_round(state)
