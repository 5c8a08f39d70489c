"""The milestones: checked after every move; a fulfiller takes the topmost empty space."""

from __future__ import annotations

from collections.abc import Callable

from meeple_hall.games.coffee.board import own, quality
from meeple_hall.games.coffee.build import column_size
from meeple_hall.games.coffee.data import CONTRACT_LETTERS, components
from meeple_hall.games.coffee.names import who
from meeple_hall.games.coffee.state import CoffeeState
from meeple_hall.games.coffee.supply import scoring_markers_left
from meeple_hall.games.coffee.words import m


def _traders(state: CoffeeState, seat: int) -> bool:
    return all(seat in coop.traders for coop in state.coops.values())


def _storage(state: CoffeeState, seat: int) -> bool:
    player = state.players[seat]
    full = sum(1 for n in player.coffee.values() if n >= 10)
    return player.built["warehouse"] >= 2 and full >= 2


def _bars(state: CoffeeState, seat: int) -> bool:
    bars = components().bars
    return all(
        any(owner == seat and bars[bar][i].amount >= 2 for i, owner in enumerate(spaces))
        for bar, spaces in state.bars.items()
    )


def _warehouses(state: CoffeeState, seat: int) -> bool:
    return state.players[seat].built["warehouse"] == column_size("warehouse")


def _stations(state: CoffeeState, seat: int) -> bool:
    built = state.players[seat].built
    return all(built[c] == column_size(c) for c in ("production", "fairtrade"))


def _presence(state: CoffeeState, seat: int) -> bool:
    count = 0
    for coop in state.coops.values():
        upper = own(coop, seat, 2) or own(coop, seat, 3)
        building = any(seat in owners for owners in coop.buildings.values())
        count += bool(upper and building)
    return count >= 4


def _contracts(state: CoffeeState, seat: int) -> bool:
    return len(state.players[seat].fulfilled) == len(CONTRACT_LETTERS)


def _plantations(state: CoffeeState, seat: int) -> bool:
    return state.players[seat].planted >= 11


def _quality(state: CoffeeState, seat: int) -> bool:
    return sum(1 for c in state.coops if quality(state, c, seat) >= 8) >= 2


CONDITIONS: dict[str, Callable[[CoffeeState, int], bool]] = {
    "traders": _traders,
    "storage": _storage,
    "bars": _bars,
    "warehouses": _warehouses,
    "stations": _stations,
    "presence": _presence,
    "contracts": _contracts,
    "plantations": _plantations,
    "quality": _quality,
}


def milestone_points(state: CoffeeState, milestone_id: str) -> tuple[int, ...]:
    """The spaces of a milestone, most valuable first (only the top one when vicious)."""
    points = components().milestones[milestone_id].points
    return points[:1] if state.vicious else points


def check_milestones(state: CoffeeState) -> None:
    for milestone_id in state.milestones:
        marks = state.milestone_marks[milestone_id]
        points = milestone_points(state, milestone_id)
        # several fulfilling it with one move take its spaces in turn order
        for seat in state.order:
            if len(marks) >= len(points) or seat in marks or state.is_andre(seat):
                continue
            if not scoring_markers_left(state, seat):
                continue
            if CONDITIONS[milestone_id](state, seat):
                state.players[seat].milestones[milestone_id] = points[len(marks)]
                marks.append(seat)
                text = m(f"milestone.{milestone_id}")
                state.say(m("log.milestone", seat=who(state, seat), milestone=text))
