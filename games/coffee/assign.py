"""Phase 2: Assign Workers. Own plantations first (simultaneously), then others' in turn
order with an Arabica step each, then penalties for every unoccupied plantation."""

from __future__ import annotations

import math

from meeple_hall.games.coffee import arabica
from meeple_hall.games.coffee.board import plantations_of
from meeple_hall.games.coffee.data import COFFEES
from meeple_hall.games.coffee.names import coop_name, who
from meeple_hall.games.coffee.state import CoffeeState, Plantation, Prompt
from meeple_hall.games.coffee.supply import may_take_bonus, take_bonus_coins
from meeple_hall.games.coffee.words import m
from meeple_hall.games.core import Option


def unoccupied(state: CoffeeState, seat: int) -> list[tuple[str, int, int, Plantation]]:
    return [t for t in plantations_of(state, seat) if not t[3].staffed]


def staffable(state: CoffeeState, seat: int) -> list[tuple[str, int, int, Plantation]]:
    """A worker must go to the 1 row before any higher row."""
    empty = unoccupied(state, seat)
    first_row = [t for t in empty if t[1] == 1]
    return first_row or empty


def space_id(coffee: str, row: int, space: int) -> str:
    return f"{coffee}.{row}.{space}"


def own_options(state: CoffeeState, seat: int) -> list[Option]:
    options = [
        Option(space_id(c, r, s), m("label.own", coffee=coop_name(c), row=r, space=s + 1))
        for c, r, s, _ in staffable(state, seat)
    ]
    return [*options, Option("done", m("label.own_done"))]


def needs_own(state: CoffeeState, seat: int) -> bool:
    return (
        not state.done[seat]
        and not state.is_andre(seat)
        and state.players[seat].pool > 0
        and bool(unoccupied(state, seat))
    )


def other_options(state: CoffeeState, seat: int) -> list[Option]:
    if state.players[seat].pool == 0:
        return []
    return [
        Option(
            space_id(c, r, s),
            m("label.other", seat=who(state, other), coffee=coop_name(c), row=r, space=s + 1),
        )
        for other in state.order
        if other != seat
        for c, r, s, _ in staffable(state, other)
    ]


def place_worker(state: CoffeeState, seat: int, token: str) -> None:
    coffee, row, space = token.split(".")
    plantation = state.coops[coffee].rows[int(row) - 1][int(space)]
    assert plantation is not None
    plantation.staffed = True
    state.players[seat].pool -= 1
    if plantation.owner != seat:
        owner = who(state, plantation.owner)
        state.say(m("log.staffs", seat=who(state, seat), owner=owner, coffee=coop_name(coffee)))
        arabica.advance(state, seat, coffee)


def andre_fills(state: CoffeeState) -> None:
    """André fills his unoccupied plantations from the town center, else the general supply."""
    if state.andre is None:
        return
    for coffee, _, _, plantation in unoccupied(state, state.andre.seat):
        coop = state.coops[coffee]
        if coop.town:
            coop.town -= 1
        elif state.general_workers:
            state.general_workers -= 1
        else:
            continue
        plantation.staffed = True


def start_penalties(state: CoffeeState) -> None:
    for seat in state.order:
        if state.is_andre(seat):
            continue
        empty = len(unoccupied(state, seat))
        if empty:
            state.owed[seat] = empty * state.period
            state.say(m("log.owes", seat=who(state, seat), owed=state.owed[seat], n=empty))


def penalty_options(state: CoffeeState, seat: int) -> list[Option]:
    player = state.players[seat]
    options = []
    if player.coins:
        options.append(Option("coin", m("label.pay_coin")))
    for coffee in COFFEES:
        if arabica.can_move_back(state, seat, coffee):
            label = m("label.back", coffee=coop_name(coffee))
            options.append(Option(f"back.{coffee}", label))
    if may_take_bonus(player, "coins"):
        if not options:
            # the bonus supply is the player's choice: unable to pay from the company supply,
            # they may lose the unpaid plantations instead
            options.append(Option("unpaid", m("label.unpaid")))
        options.append(Option("bonus-coins", m("label.bonus_coins")))
    return options


def pay_penalty(state: CoffeeState, seat: int, choice: str) -> None:
    player = state.players[seat]
    if choice == "bonus-coins":
        take_bonus_coins(player)
        return
    if choice == "unpaid":
        settle_unpaid(state, seat)
        return
    if choice == "coin":
        player.coins -= 1
    else:
        arabica.move_back(state, seat, choice.split(".")[1])
    state.owed[seat] -= 1
    if state.owed[seat] == 0:
        del state.owed[seat]


def plantations_to_remove(state: CoffeeState, seat: int) -> int:
    return math.ceil(state.owed[seat] / state.period)


def highest_unoccupied(state: CoffeeState, seat: int) -> list[tuple[str, int, int, Plantation]]:
    empty = unoccupied(state, seat)
    top = max(t[1] for t in empty)
    return [t for t in empty if t[1] == top]


def remove_plantation(state: CoffeeState, seat: int, token: str) -> None:
    coffee, row, space = token.split(".")
    state.coops[coffee].rows[int(row) - 1][int(space)] = None
    state.say(m("log.loses", seat=who(state, seat), coffee=coop_name(coffee), row=int(row)))


def settle_unpaid(state: CoffeeState, seat: int) -> None:
    """Unable to pay: remove the highest unoccupied plantations whose penalty is unpaid."""
    count = plantations_to_remove(state, seat)
    del state.owed[seat]
    prompts = [Prompt(seat, "remove") for _ in range(count)]
    state.prompts[0:0] = prompts
