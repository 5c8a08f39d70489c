"""The cooperatives' geometry: plantation rows, pathways for donkeys, building spaces."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from meeple_hall.games.coffee.data import components
from meeple_hall.games.coffee.state import CoffeeState, Cooperative, Pathway, Plantation

DONKEYS_NEEDED = {1: 1, 2: 2}  # 1→1/2 pathway: one donkey; 1/2→2/3 pathway: two


def row_sizes() -> list[int]:
    return list(components().board["layout"]["row_spaces"])


def path_key(lower_row: int, lower: int, upper: int) -> str:
    return f"{lower_row}.{lower}.{upper}"


def below(row: int, space: int) -> list[int]:
    """Spaces of row `row - 1` joined by a pathway to `space` of `row`."""
    size = row_sizes()[row - 2]
    return [i for i in (space, space + 1) if i < size]


def above(row: int, space: int) -> list[int]:
    """Spaces of row `row + 1` joined by a pathway to `space` of `row`."""
    size = row_sizes()[row]
    return [i for i in (space - 1, space) if 0 <= i < size]


def new_cooperative(rules_players: int) -> Cooperative:
    sizes = row_sizes()
    buildings: dict[str, list[int | None]] = {
        kind: [None] * len(spaces)
        for kind, spaces in components().board["buildings"].items()
        if kind != "verified"
    }
    return Cooperative(rows=[[None] * n for n in sizes], pathways={}, buildings=buildings)


def pathway(coop: Cooperative, key: str) -> Pathway:
    """The donkeys on a pathway (pathways without donkeys are not stored)."""
    return coop.pathways.get(key) or Pathway()


def claim(coop: Cooperative, key: str, seat: int, donkeys: int) -> None:
    claimed = coop.pathways.setdefault(key, Pathway())
    claimed.owner = seat
    claimed.donkeys += donkeys


def space_kinds(kind: str) -> list[str]:
    return list(components().board["buildings"][kind])


def open_building_spaces(state: CoffeeState, coffee: str, kind: str) -> list[int]:
    """Empty spaces for a building; 4-/5-player spaces only at 4-5 players."""
    spaces = state.coops[coffee].buildings[kind]
    kinds = space_kinds(kind)
    return [
        i
        for i, owner in enumerate(spaces)
        if owner is None and (kinds[i] != "p45" or state.rules_players >= 4)
    ]


def open_sites(state: CoffeeState, kind: str, coffee: str | None = None) -> list[list[Any]]:
    """[coffee, space] of every empty space a `kind` building may take, on `coffee`'s
    cooperative or on any (`open_building_spaces`)."""
    coffees = list(state.coops) if coffee is None else [coffee]
    return [[c, i] for c in coffees for i in open_building_spaces(state, c, kind)]


def own(coop: Cooperative, seat: int, row: int) -> list[int]:
    return [i for i, p in enumerate(coop.rows[row - 1]) if p is not None and p.owner == seat]


def supports(coop: Cooperative, row: int, space: int) -> bool:
    """Whether the plantation at (row, space) already supports one in the row above."""
    return any(p is not None and p.support == space and not p.truck for p in coop.rows[row])


@dataclass(frozen=True)
class Placement:
    coffee: str
    row: int
    space: int
    via: int | None = None  # the supporting plantation's space in the row below
    truck: bool = False

    @property
    def id(self) -> str:
        base = f"{self.coffee}.{self.row}.{self.space}"
        if self.truck:
            return base + ".t"
        return base if self.via is None else f"{base}.v{self.via}"

    def donkeys_needed(self, coop: Cooperative, seat: int) -> int:
        if self.row == 1 or self.truck or self.via is None:
            return 0
        claimed = pathway(coop, path_key(self.row - 1, self.via, self.space))
        have = claimed.donkeys if claimed.owner == seat else 0
        return DONKEYS_NEEDED[self.row - 1] - have


def placements(state: CoffeeState, seat: int, level: int) -> list[Placement]:
    """Every legal space for a plantation of `level` (English rulebook, Phase 1 Action A)."""
    return list(each_placement(state, seat, level))


def can_place(state: CoffeeState, seat: int, level: int) -> bool:
    """Whether a plantation of `level` has a legal space (the first found is enough)."""
    return next(each_placement(state, seat, level), None) is not None


def each_placement(state: CoffeeState, seat: int, level: int) -> Iterator[Placement]:
    """The legal spaces for a plantation of `level`, one by one (`placements`)."""
    player = state.players[seat]
    for coffee, coop in state.coops.items():
        first = not any(p is not None and p.owner == seat for row in coop.rows[:3] for p in row)
        if first and (level != 1 or player.pool == 0):
            continue
        if level == 1:
            yield from (Placement(coffee, 1, i) for i, p in enumerate(coop.rows[0]) if p is None)
        if first:
            continue
        if level in (1, 2):
            yield from _row2(coop, coffee, seat, player.donkeys)
        if level in (2, 3):
            yield from _row3(coop, coffee, seat, player.donkeys, player.trucks)


def _row2(coop: Cooperative, coffee: str, seat: int, donkeys: int) -> list[Placement]:
    out = []
    for space, plantation in enumerate(coop.rows[1]):
        if plantation is not None:
            continue
        for via in below(2, space):
            lower = coop.rows[0][via]
            if lower is None or lower.owner != seat or supports(coop, 1, via):
                continue
            option = Placement(coffee, 2, space, via)
            if pathway(coop, path_key(1, via, space)).owner not in (None, seat):
                continue
            if option.donkeys_needed(coop, seat) <= donkeys:
                out.append(option)
    return out


def claimed_by_other(coop: Cooperative, space: int, seat: int) -> bool:
    """Whether another player's donkeys are on a pathway to this 2/3 space (zh-TW: such a
    space cannot be planted, "even by truck")."""
    return any(
        pathway(coop, path_key(2, via, space)).owner not in (None, seat) for via in below(3, space)
    )


def _row3(coop: Cooperative, coffee: str, seat: int, donkeys: int, trucks: int) -> list[Placement]:
    if len(own(coop, seat, 3)) >= len(own(coop, seat, 1)):
        return []
    out = []
    for space, plantation in enumerate(coop.rows[2]):
        if plantation is not None or claimed_by_other(coop, space, seat):
            continue
        for via in below(3, space):
            lower = coop.rows[1][via]
            if lower is None or lower.owner != seat or supports(coop, 2, via):
                continue
            option = Placement(coffee, 3, space, via)
            if option.donkeys_needed(coop, seat) <= donkeys:
                out.append(option)
        if trucks:
            out.append(Placement(coffee, 3, space, truck=True))
    return out


def parse_placement(token: str) -> Placement:
    parts = token.split(".")
    coffee, row, space = parts[0], int(parts[1]), int(parts[2])
    if len(parts) == 3:
        return Placement(coffee, row, space)
    if parts[3] == "t":
        return Placement(coffee, row, space, truck=True)
    return Placement(coffee, row, space, via=int(parts[3][1:]))


def plantations_of(state: CoffeeState, seat: int) -> list[tuple[str, int, int, Plantation]]:
    return [
        (coffee, row + 1, space, p)
        for coffee, coop in state.coops.items()
        for row, plantations in enumerate(coop.rows)
        for space, p in enumerate(plantations)
        if p is not None and p.owner == seat
    ]


def quality(state: CoffeeState, coffee: str, seat: int) -> int:
    """Quality Value: plantation levels, plus buildings only if there is a plantation."""
    coop = state.coops[coffee]
    value = sum(p.level for row in coop.rows for p in row if p is not None and p.owner == seat)
    if value == 0:
        return 0
    weights = components().board["cooperative_points"]["quality"]
    for kind, owners in coop.buildings.items():
        value += weights[kind] * owners.count(seat)
    return value
