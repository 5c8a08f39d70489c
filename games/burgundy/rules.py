"""What a die can do: worker costs, where a tile may go, and every legal use of a die value."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from meeple_hall.games.burgundy.data import Tile, components
from meeple_hall.games.burgundy.state import CASTLE_DIE, BurgundyState, Player

# Knowledge tiles 9-12: a free ±1 on the die for these uses (2019 rulebook p.10).
FREE_STEP = {
    9: ("place", frozenset({"building"})),
    10: ("place", frozenset({"ship", "animal"})),
    11: ("place", frozenset({"castle", "mine", "knowledge"})),
    12: ("take", frozenset()),
}


@dataclass(frozen=True, slots=True)
class Play:
    """One use of a die: `take` a depot tile, `place` a stored tile on a hex, `sell`, `workers`."""

    action: str
    cost: int
    tile: int = -1
    hex: int = -1


def tile(tile_id: int) -> Tile:
    return components().tiles[tile_id]


def details(t: Tile) -> dict[str, Any]:
    """What a tile is beyond its colour, for views and option fields: its building, its
    animals and how many, or its knowledge tile's number."""
    if t.building:
        return {"building": t.building}
    if t.animal:
        return {"animal": t.animal, "value": t.value}
    if t.knowledge:
        return {"knowledge": t.knowledge}
    return {}


def table() -> dict:
    return components().table


@cache
def knowledge_numbers() -> dict[int, int]:
    """Tile id -> its knowledge tile's number, for the knowledge tiles."""
    return {t.id: t.knowledge for t in components().tiles if t.knowledge}


@cache
def knowledge_tiles() -> dict[int, int]:
    """Knowledge tile number -> the id of its tile (the game has one of each)."""
    out = {number: tile_id for tile_id, number in knowledge_numbers().items()}
    if len(out) != len(knowledge_numbers()):
        raise ValueError("two knowledge tiles of one number")
    return out


def knowledge(player: Player) -> frozenset[int]:
    """The numbers of the knowledge tiles in the player's estate."""
    numbers = knowledge_numbers()
    return frozenset([numbers[t] for t in player.estate.values() if t in numbers])


def knows(player: Player, number: int) -> bool:
    """Whether the player's estate holds knowledge tile `number` (asked on every offer: a
    look for its tile among the placed ones)."""
    return knowledge_tiles().get(number, -1) in player.estate.values()


def wrap_distance(rolled: int, value: int) -> int:
    step = (value - rolled) % 6
    return min(step, 6 - step)


def signed_step(rolled: int, value: int) -> int:
    """The shortest change from rolled to value, wrapping 6↔1 (+3 rather than -3)."""
    step = (value - rolled) % 6
    return step if step <= 3 else step - 6


def worker_cost(
    player: Player,
    slot: int,
    value: int,
    action: str,
    tile_type: str = "",
    known: frozenset[int] | None = None,
) -> int:
    """Workers needed to turn die `slot` into `value` for this use (a castle die costs none);
    `known`: the player's `knowledge`, where the caller has it."""
    if slot == CASTLE_DIE:
        return 0
    known = knowledge(player) if known is None else known
    return turning_cost(player.dice[slot], value, free_step(action, tile_type, known), known)


def free_step(action: str, tile_type: str, known: frozenset[int]) -> bool:
    """Whether a knowledge tile in `known` turns the die by one for free for this use."""
    return any(
        FREE_STEP[n][0] == action and (not FREE_STEP[n][1] or tile_type in FREE_STEP[n][1])
        for n in known & FREE_STEP.keys()
    )


def turning_cost(rolled: int, value: int, free: bool, known: frozenset[int]) -> int:
    """Workers turning a die from `rolled` to `value`, one step of it free or not (knowledge
    tile 8: two steps a worker)."""
    distance = max(0, wrap_distance(rolled, value) - free)
    per_worker = 2 if 8 in known else 1
    return -(-distance // per_worker)


@cache
def hex_dice() -> dict[int, int]:
    """Hex id -> the die number printed on it."""
    return {h.id: h.die for h in components().estate.hexes.values()}


def area_of(hex_id: int) -> tuple[int, ...]:
    return components().estate.area_of[hex_id]


def open_hexes(player: Player, tile_id: int) -> list[int]:
    """Empty hexes of the tile's colour next to a placed tile, keeping the town rule."""
    estate = components().estate
    t = tile(tile_id)
    one_kind_a_town = t.type == "building" and not knows(player, 1)
    out = []
    for hid in estate.of_type[t.type]:
        if hid in player.estate:
            continue
        if player.estate.keys().isdisjoint(estate.neighbours[hid]):
            continue
        if one_kind_a_town:
            town = [player.estate[x] for x in area_of(hid) if x in player.estate]
            if any(tile(x).building == t.building for x in town):
                continue
        out.append(hid)
    return out


Targets = Mapping[int, Sequence[int]]  # stored tile -> the hexes it may go on


# A die value's placings: the hexes stored tiles may go on, by whether placing is a free step.
Placing = tuple[tuple[bool, tuple[int, ...]], ...]


@dataclass(frozen=True, slots=True)
class Reach:
    """What a player's estate and storage allow, whatever the dice and the board: where each
    stored tile may go (`placements`), the knowledge tiles (`knowledge`), and by die value
    the placings there are, each as whether a knowledge tile makes it a free step
    (`free_step`) for one of them, and the hexes they go on (`hexes`: a die's picture rings
    them). Read-only: `reach` keeps it for other states with the same estate and storage."""

    targets: Mapping[int, tuple[int, ...]]
    known: frozenset[int]
    placing: Mapping[int, bool]
    hexes: Mapping[int, Placing]


def reach(player: Player) -> Reach:
    """The player's `Reach`, worked out once for an estate and storage (a die's panel asks
    for it in some thirty states, most with the same estate and storage)."""
    key = (tuple(player.storage), tuple(player.estate), tuple(player.estate.values()))
    found = _REACHES.get(key)
    if found is None:
        if len(_REACHES) >= REACHES_KEPT:
            _REACHES.clear()
        found = _REACHES[key] = _reach(player)
    return found


REACHES_KEPT = 1024
_REACHES: dict[tuple[tuple[int, ...], ...], Reach] = {}


def _reach(player: Player) -> Reach:
    targets = {t: tuple(open_hexes(player, t)) for t in player.storage}
    known = knowledge(player)
    dice = hex_dice()
    placing: dict[int, bool] = {}
    found: dict[int, dict[bool, set[int]]] = {}
    for stored, open_ in targets.items():
        free = free_step("place", tile(stored).type, known)
        for h in open_:
            placing[dice[h]] = placing.get(dice[h], False) or free
            found.setdefault(dice[h], {}).setdefault(free, set()).add(h)
    hexes = {
        value: tuple((free, tuple(sorted(on))) for free, on in sorted(frees.items()))
        for value, frees in found.items()
    }
    return Reach(targets, known, placing, hexes)


def placements(player: Player) -> Targets:
    """Stored tile -> the hexes it may go on (whatever the die); read-only (`reach`)."""
    return reach(player).targets


@dataclass(frozen=True, slots=True)
class Use:
    """A use of a die value whatever the die turned to it: `take` one of `tiles` from the
    depot, `place` one stored tile of `tile_type` on one of its hexes (`tiles` as (tile, hex)
    pairs), or `sell`."""

    action: str
    tile_type: str = ""
    tiles: tuple[tuple[int, int], ...] = ()


def uses(state: BurgundyState, seat: int, value: int, targets: Targets) -> list[Use]:
    """The uses of die value `value` (`targets`: the player's `placements`)."""
    player = state.players[seat]
    out: list[Use] = []
    depot = [(t, -1) for t in state.depots[value - 1] if t >= 0]
    if depot:
        out.append(Use("take", tiles=tuple(depot)))
    dice = hex_dice()
    for stored, open_ in targets.items():
        fitting = tuple((stored, h) for h in open_ if dice[h] == value)
        if fitting:
            out.append(Use("place", tile(stored).type, fitting))
    if player.goods.get(value, 0):
        out.append(Use("sell"))
    return out


def freest_uses(state: BurgundyState, seat: int, reached: Reach) -> tuple[bool | None, ...]:
    """For die values 1-6, what `uses` would say of each: None where it has no use, else
    whether one of its uses turns the die a step for free (`free_step`). `reached`: the
    player's `reach`."""
    player = state.players[seat]
    take_free = free_step("take", "", reached.known)
    sell_free = free_step("sell", "", reached.known)
    out: list[bool | None] = []
    for value in range(1, 7):
        free: bool | None = None
        if any(t >= 0 for t in state.depots[value - 1]):
            free = take_free
        placing = reached.placing.get(value)
        if placing is not None:
            free = bool(free) or placing
        if player.goods.get(value, 0):
            free = bool(free) or sell_free
        out.append(free)
    return tuple(out)


def affordable(
    player: Player, slot: int, value: int, value_uses: list[Use], known: frozenset[int]
) -> list[tuple[Use, int]]:
    """The uses of die `slot` turned into `value` that the player can afford, with their
    worker costs."""
    costs = [
        (use, worker_cost(player, slot, value, use.action, use.tile_type, known))
        for use in value_uses
    ]
    return [(use, cost) for use, cost in costs if cost <= player.workers]


def plays(
    state: BurgundyState,
    seat: int,
    slot: int,
    value: int,
    targets: Targets | None = None,
    known: frozenset[int] | None = None,
    value_uses: list[Use] | None = None,
) -> list[Play]:
    """Every use of die `slot` turned into `value` that the player can afford. Where the
    caller has them: `targets`, the player's `placements`; `known`, its `knowledge`;
    `value_uses`, the value's `uses`."""
    player = state.players[seat]
    if targets is None or known is None:
        reached = reach(player)
        targets = reached.targets if targets is None else targets
        known = reached.known if known is None else known
    if value_uses is None:
        value_uses = uses(state, seat, value, targets)
    out: list[Play] = []
    for use, cost in affordable(player, slot, value, value_uses, known):
        if use.tiles:
            out.extend(Play(use.action, cost, tile=t, hex=h) for t, h in use.tiles)
        else:
            out.append(Play(use.action, cost))
    out.append(Play("workers", 0))
    return out


def board_tiles(state: BurgundyState, types: list[str]) -> list[tuple[int, int]]:
    """(depot, tile) for the tiles of these types on the numbered depots."""
    return [
        (d + 1, t) for d in range(6) for t in state.depots[d] if t >= 0 and tile(t).type in types
    ]


def free_dice(player: Player) -> list[int]:
    return [slot for slot in (0, 1) if not player.used[slot]]


def can_buy(state: BurgundyState, seat: int) -> bool:
    """Once per turn, for 2 silverlings (knowledge tile 6 widens where, never how to pay)."""
    player = state.players[seat]
    if player.bought or player.silver < table()["scoring"]["black_depot_price"]:
        return False
    return bool(buyable(state, seat))


def buyable(state: BurgundyState, seat: int) -> list[tuple[int, int]]:
    """(depot, tile) pairs on sale: the black depot (depot 0); with knowledge tile 6 also the
    six numbered depots ("from all seven", 2011 rules)."""
    out = [(0, t) for t in state.black if t >= 0]
    if knows(state.players[seat], 6):
        out += [(d + 1, t) for d in range(6) for t in state.depots[d] if t >= 0]
    return out
