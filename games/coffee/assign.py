"""Phase 2: Assign Workers. Own plantations first (simultaneously), then others' in turn
order with an Arabica step each, then penalties for every unoccupied plantation."""

from __future__ import annotations

import math

from meeple_hall.games.coffee import arabica
from meeple_hall.games.coffee.board import plantations_of
from meeple_hall.games.coffee.data import COFFEES
from meeple_hall.games.coffee.names import coop_name, who
from meeple_hall.games.coffee.prompts import CoffeeStep, ask_next, offer
from meeple_hall.games.coffee.state import CoffeeState, Plantation, Prompt
from meeple_hall.games.coffee.supply import bonus_coins_option, may_take_bonus, take_bonus_coins
from meeple_hall.games.coffee.words import m
from meeple_hall.games.core import Msg, Option
from meeple_hall.games.core.steps import Chosen, Offer


def unoccupied(state: CoffeeState, seat: int) -> list[tuple[str, int, int, Plantation]]:
    return [t for t in plantations_of(state, seat) if not t[3].staffed]


def staffable(state: CoffeeState, seat: int) -> list[tuple[str, int, int, Plantation]]:
    """A worker must go to the 1 row before any higher row."""
    empty = unoccupied(state, seat)
    first_row = [t for t in empty if t[1] == 1]
    return first_row or empty


def space_id(coffee: str, row: int, space: int) -> str:
    return f"{coffee}.{row}.{space}"


def space_fields(coffee: str, row: int, space: int) -> dict[str, str | int]:
    return {"coffee": coffee, "row": row, "space": space}


def space_option(coffee: str, row: int, space: int, label: Msg) -> Option:
    """A plantation space of a cooperative (row 1 at the bottom, spaces from 0)."""
    return Option(space_id(coffee, row, space), label, space_fields(coffee, row, space))


def own_options(state: CoffeeState, seat: int) -> list[Option]:
    options = [
        space_option(c, r, s, m("label.own", coffee=coop_name(c), row=r, space=s + 1))
        for c, r, s, _ in staffable(state, seat)
    ]
    return [*options, Option("done", m("label.own_done"), {"action": "done"})]


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
        space_option(
            c,
            r,
            s,
            m("label.other", seat=who(state, other), coffee=coop_name(c), row=r, space=s + 1),
        )
        for other in state.order
        if other != seat
        for c, r, s, _ in staffable(state, other)
    ]


def may_staff_other(state: CoffeeState, seat: int) -> bool:
    """Whether `other_options` offers anything, without naming the plantations."""
    return state.players[seat].pool > 0 and any(
        unoccupied(state, other) for other in state.order if other != seat
    )


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
        options.append(Option("coin", m("label.pay_coin"), {"action": "coin"}))
    for coffee in COFFEES:
        if arabica.can_move_back(state, seat, coffee):
            label = m("label.back", coffee=coop_name(coffee))
            options.append(Option(f"back.{coffee}", label, {"action": "back", "coffee": coffee}))
    if may_take_bonus(player, "coins"):
        if not options:
            # the bonus supply is the player's choice: unable to pay from the company supply,
            # they may lose the unpaid plantations instead
            options.append(Option("unpaid", m("label.unpaid"), {"action": "unpaid"}))
        options.append(bonus_coins_option())
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
    ask_next(state, *(Prompt(seat, "remove") for _ in range(count)))


# -- the steps of Phase 2 ------------------------------------------------------------------
class StaffOwn(CoffeeStep):
    """Step 1, all players at once: workers to their own plantations, 1 row first."""

    kind = "staff_own"

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        pool = state.players[frame.seat].pool
        return offer(m("prompt.staff_own", n=pool), own_options(state, frame.seat))

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        if chosen.id == "done":
            state.done[frame.seat] = True
        else:
            place_worker(state, frame.seat, chosen.id)


class StaffOther(CoffeeStep):
    """Step 2, in turn order: a worker to another player's plantation, for an Arabica step."""

    kind = "staff_other"

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        drop = Option("drop", m("label.drop_staff"), {"action": "drop"})
        pool = state.players[frame.seat].pool
        return offer(m("prompt.staff_other", n=pool), [*other_options(state, frame.seat), drop])

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        if chosen.id == "drop":
            state.done[frame.seat] = True
        else:
            place_worker(state, frame.seat, chosen.id)
        state.turn += 1


class Penalty(CoffeeStep):
    """Step 3: each unoccupied plantation costs a coin or an Arabica step back per period."""

    kind = "penalty"

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        owed = state.owed[frame.seat]
        return offer(m("prompt.penalty", n=owed), penalty_options(state, frame.seat))

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        pay_penalty(state, frame.seat, chosen.id)


class Remove(CoffeeStep):
    """A penalty left unpaid: the highest unoccupied plantation leaves the board."""

    kind = "remove"
    answers_alone = True

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        return offer(
            m("prompt.remove"),
            [
                space_option(c, r, s, m("label.remove", coffee=coop_name(c), row=r, space=s + 1))
                for c, r, s, _ in highest_unoccupied(state, frame.seat)
            ],
        )

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        remove_plantation(state, frame.seat, chosen.id)


STEPS = (StaffOwn(), StaffOther(), Penalty(), Remove())
