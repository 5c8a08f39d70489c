"""A round of Village (BB "遊戲流程"): fill the action spaces from the green bag, take a cube
and act in turn until the board is empty, then the mass; and the game's end with everyone
else's final turn."""

from __future__ import annotations

from functools import cache

from meeple_hall.games.core import Msg, Option
from meeple_hall.games.village import actions, data, karla, market, mass
from meeple_hall.games.village import words as w
from meeple_hall.games.village.economy import can_pay, coins_available, pay, spend_time
from meeple_hall.games.village.state import KARLA, Frame, VillageState
from meeple_hall.games.village.steps import Fields, VillageStep, option


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
    state.stack.append(Frame("turn", seat))


def board_empty(state: VillageState) -> bool:
    return not any(state.spaces.values())


class Turn(VillageStep):
    """A turn: take a cube from an action space and carry out its action, or pay 3 cubes
    of a colour at the well for any action; in the final turns with the board empty, any
    action for free."""

    kind = "turn"

    def prompt(self, state: VillageState, frame: Frame) -> Msg:
        if not state.ending:
            return w.m("prompt.turn")
        return w.m("prompt.final_free" if board_empty(state) else "prompt.final_turn")

    def has_choices(self, state: VillageState, frame: Frame) -> bool:
        """As `choices`, without making them: a cube on the board, the final turns' free
        action, or the well."""
        if any(state.spaces.values()) or state.ending:
            return True
        player = state.players[frame.seat]
        return any(
            player.cubes[colour] and can_pay(player, {colour: 3}) for colour in data.colours()
        )

    def choices(self, state: VillageState, frame: Frame) -> list[Option]:
        if state.ending and board_empty(state):
            return [free_option(action) for action in actions.ACTIONS]
        out = []
        for space in data.spaces():
            for colour in sorted(set(state.spaces[space])):
                out.append(take_option(space, colour))
        player = state.players[frame.seat]
        coins = coins_available(player)
        for colour in data.rules()["colours"]:
            held = player.cubes[colour]
            # 3 cubes of the colour, those lacking paid in coins (economy.can_pay)
            lacking = 3 - held if held < 3 else 0
            if held and lacking <= coins:
                marker = player.marker_coin and lacking > 0
                out.extend(
                    well_option(colour, action, lacking, marker) for action in actions.ACTIONS
                )
        return out

    def act(self, state: VillageState, frame: Frame, chosen: Fields) -> None:
        if chosen["how"] == "free":
            begin_action(state, frame.seat, chosen["action"])
        elif chosen["how"] == "well":
            well(state, frame.seat, chosen["colour"], chosen["action"])
        else:
            take(state, frame.seat, chosen["space"], chosen["colour"])


# A turn's options are the same few each time (the AI asks for them very often): made once.
@cache
def free_option(action: str) -> Option:
    return option(
        f"free-{action}", w.m("label.free", action=w.space(action)), how="free", action=action
    )


@cache
def take_option(space: str, colour: str) -> Option:
    what = {"how": "take", "space": space, "colour": colour}
    if colour == "black":
        time = data.rules()["time"]["plague_cost"]
        text = w.m("label.take_plague", space=w.space(space), time=w.time(time))
        return option(f"{space}-{colour}", text, **what, time=time)
    text = w.m("label.take", colour=w.colour(colour), space=w.space(space))
    return option(f"{space}-{colour}", text, **what)


@cache
def well_option(colour: str, action: str, lacking: int, marker: bool = False) -> Option:
    """The well for 3 cubes of a colour, the cubes lacking paid in coins (in solo the
    next-start-player marker first): `Well: 2 brown + 1 coin for crafts`."""
    paid = w.well_payment(colour, lacking, marker)
    return option(
        f"well-{colour}-{action}",
        w.m("label.well", paid=paid, action=w.space(action)),
        how="well",
        colour=colour,
        action=action,
        lacking=lacking,
        marker=marker,
    )


def well(state: VillageState, seat: int, colour: str, action: str) -> None:
    pay(state, state.players[seat], {colour: 3})
    state.log.append(w.m("log.well", seat=w.seat_name(seat), action=w.space(action)))
    begin_action(state, seat, action, well=True)


def take(state: VillageState, seat: int, space: str, colour: str) -> None:
    player = state.players[seat]
    state.spaces[space].remove(colour)
    state.last_take = [space, colour]
    state.karla_pending = state.solo
    if colour == "black":
        state.supply["black"] += 1
        cost = data.rules()["time"]["plague_cost"]
        spend_time(player, cost)
        where = w.space(space)
        state.log.append(
            w.m("log.takes_plague", seat=w.seat_name(seat), space=where, time=w.time(cost))
        )
    else:
        player.cubes[colour] += 1
        state.log.append(takes(seat, colour, space))
    begin_action(state, seat, space)


@cache
def takes(seat: int, colour: str, space: str) -> Msg:
    """`Seat 2 takes green from harvest.`, made once (a turn panel's every line logs one)."""
    return w.m("log.takes", seat=w.seat_name(seat), colour=w.colour(colour), space=w.space(space))


def begin_action(state: VillageState, seat: int, action: str, well: bool = False) -> None:
    if action == "market":
        market.start(state, seat, karla_reacts=not well)
    else:
        state.stack.append(Frame(action, seat))


def go_on(state: VillageState) -> None:
    """Nothing is asked: the game moves on by one part (the mass, the market day, a death
    due at the end of a turn, Karla's cube, the next turn)."""
    if state.phase == "mass":
        if mass.done(state):
            end_mass(state)
        else:
            mass.advance(state)
    elif state.market is not None:
        market.advance(state)
    elif state.players[state.current].deaths_due:
        state.stack.append(Frame("die", state.current))
    elif state.karla_pending:
        karla.after_turn(state)
    else:
        end_turn(state)


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
    start: int | None
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
