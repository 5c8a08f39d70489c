"""The milestones: checked after every move; a fulfiller takes the topmost empty space."""

from __future__ import annotations

from collections.abc import Callable

from meeple_hall.games.coffee.board import quality
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
    """A building and a plantation in the 2 or 3 row in 4 cooperatives (checked after every
    step of play: it stops once too few cooperatives are left to look at)."""
    missing = len(state.coops) - PRESENCE
    for coop in state.coops.values():
        present = any(seat in owners for owners in coop.buildings.values()) and any(
            p is not None and p.owner == seat for row in coop.rows[1:3] for p in row
        )
        if not present:
            missing -= 1
            if missing < 0:
                return False
    return True


PRESENCE = 4


def _contracts(state: CoffeeState, seat: int) -> bool:
    return len(state.players[seat].fulfilled) == len(CONTRACT_LETTERS)


def _plantations(state: CoffeeState, seat: int) -> bool:
    return state.players[seat].planted >= 11


def _quality(state: CoffeeState, seat: int) -> bool:
    """A Quality Value of 8 or more in 2 cooperatives."""
    found = 0
    for coffee in state.coops:
        if quality(state, coffee, seat) >= 8:
            found += 1
            if found == 2:
                return True
    return False


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
    """Every seat that fulfils a milestone with a space left takes it, if it has a scoring
    marker left (checked after every step of play: the markers are counted only for a seat
    that fulfils it)."""
    for milestone_id in state.milestones:
        marks = state.milestone_marks[milestone_id]
        points = milestone_points(state, milestone_id)
        if len(marks) >= len(points):
            continue
        condition = CONDITIONS[milestone_id]
        # several fulfilling it with one move take its spaces in turn order
        for seat in state.order:
            if len(marks) >= len(points) or seat in marks or state.is_andre(seat):
                continue
            if condition(state, seat) and scoring_markers_left(state, seat):
                state.players[seat].milestones[milestone_id] = points[len(marks)]
                marks.append(seat)
                text = m(f"milestone.{milestone_id}")
                state.say(m("log.milestone", seat=who(state, seat), milestone=text))
