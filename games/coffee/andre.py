"""André, the automaton of the 2-player game (English rulebook, "André's Play Guide")."""

from __future__ import annotations

from meeple_hall.games.coffee.board import below, path_key, pathway
from meeple_hall.games.coffee.data import components
from meeple_hall.games.coffee.names import coop_name
from meeple_hall.games.coffee.state import CoffeeState, Cooperative, Plantation
from meeple_hall.games.coffee.words import m
from meeple_hall.games.coffee.work import send_candidates, send_workers

# his sequence: level 1 on the 1 row, level 2 on the 1/2 row, level 3 on the 2/3 row
ROW_FOR_LEVEL = {1: 1, 2: 2, 3: 3}


def visible_contract(state: CoffeeState) -> tuple[str, str, str]:
    assert state.andre is not None
    return components().contracts[state.andre.contracts[0]].coffees


def work_turn(state: CoffeeState) -> None:
    """Turns 1–2: a plantation in his top/middle cooperative; turns 3–4: workers there."""
    andre = state.andre
    assert andre is not None
    coffee = visible_contract(state)[andre.work_turn % 2]
    if andre.work_turn < 2:
        add_plantation(state, coffee)
    elif send_candidates(state, coffee) and state.coops[coffee].town:
        send_workers(state, andre.seat, coffee)
    else:
        state.say(m("log.andre_no_worker", coffee=coop_name(coffee)))
    andre.work_turn += 1
    if andre.work_turn == 4:
        state.done[andre.seat] = True


def wanted_levels(coop: Cooperative, seat: int) -> list[int]:
    """He improves his plantations there; failing that he starts a new level-1."""
    levels = [p.level for row in coop.rows for p in row if p is not None and p.owner == seat]
    ones, twos, threes = (levels.count(n) for n in (1, 2, 3))
    if not levels:
        return [1]
    if twos < ones:
        return [2, 1]
    if threes < twos:
        return [3, 1]
    return [1]


def add_plantation(state: CoffeeState, coffee: str) -> None:
    andre = state.andre
    assert andre is not None
    coop = state.coops[coffee]
    for level in wanted_levels(coop, andre.seat):
        if level not in andre.stack:
            continue
        space = _space_for(coop, andre.seat, ROW_FOR_LEVEL[level])
        if space is None:
            continue
        andre.stack.remove(level)
        coop.rows[ROW_FOR_LEVEL[level] - 1][space] = Plantation(owner=andre.seat, level=level)
        state.say(m("log.andre_plants", level=level, coffee=coop_name(coffee)))
        return
    state.say(m("log.andre_no_plantation", coffee=coop_name(coffee)))


def _space_for(coop: Cooperative, seat: int, row: int) -> int | None:
    """Ignoring transport. "If possible, he places the new plantation so as not to cut off
    another player's plantation path" (a space joined to another player's plantation in the
    row below, or claimed by their donkeys); among those, next to his own plantation if he
    can, then the leftmost."""
    empty = [i for i, p in enumerate(coop.rows[row - 1]) if p is None]
    if not empty:
        return None

    def joined_to(space: int, owner_is_me: bool) -> bool:
        if row == 1:
            return False
        return any(
            (p := coop.rows[row - 2][i]) is not None and (p.owner == seat) == owner_is_me
            for i in below(row, space)
        )

    def cuts_off(space: int) -> bool:
        if row == 1:
            return False
        claimed = (pathway(coop, path_key(row - 1, i, space)).owner for i in below(row, space))
        return joined_to(space, owner_is_me=False) or any(
            owner not in (None, seat) for owner in claimed
        )

    return min(empty, key=lambda i: (cuts_off(i), not joined_to(i, True), i))
