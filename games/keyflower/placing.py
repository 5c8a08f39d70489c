"""Placing workers at one location: the colour rule, bids, uses and moving outbid workers.

Rulebook, "Bidding" and "Production": all workers at a tile share its colour (boats 4a and
4b excepted, their workers lie down); a bid beats the highest other bid; a use needs at
least one worker more than the previous use, at most six per tile per season; outbid
workers move on together, never back behind the screen.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from meeple_hall.games.keyflower.components import COLOURS, spec
from meeple_hall.games.keyflower.state import Group, KeyflowerState, Tile

MAX_WORKERS_PER_TILE = 6
USABLE = {
    "resources",
    "choose",
    "workers",
    "skills",
    "brewer",
    "craft",
    "green",
    "hiring",
    "tavern",
    "transport",
}


def owner(state: KeyflowerState, tile_id: str) -> int | None:
    for seat, p in enumerate(state.players):
        if tile_id in p.village:
            return seat
    return None


def abilities(state: KeyflowerState, seat: int, won: bool = False) -> set[str]:
    """The summer-boat abilities in this seat's village (1a ... 4b); with `won`, also those
    of a summer boat taken at this season's end and not yet placed."""
    out = set()
    p = state.players[seat]
    for t in [*p.village, *(p.to_place if won else [])]:
        s = spec(t)
        if s.is_summer_boat:
            side = s.front if state.tiles[t].side == "a" else s.back or {}
            out.add(side["ability"])
    return out


def effect(state: KeyflowerState, tile_id: str) -> dict:
    t = state.tiles[tile_id]
    s = spec(tile_id)
    if s.is_summer_boat:
        return {"effect": "ability"}
    return s.side(t.upgraded)


def colour_of(tile: Tile) -> str | None:
    """The tile's colour: that of the standing workers at it, if any."""
    for g in (*tile.bids, *tile.workers):
        if not g.lying:
            return g.colour
    return None


def stand_up(tile: Tile) -> None:
    """Boat 4a: when no standing workers remain, the lying ones stand and set the colour."""
    if colour_of(tile) is None:
        for g in (*tile.bids, *tile.workers):
            g.lying = False


def bid_of(tile: Tile, seat: int) -> Group | None:
    return next((g for g in tile.bids if g.seat == seat), None)


def best_other(tile: Tile, seat: int) -> int:
    return max((g.count for g in tile.bids if g.seat != seat), default=0)


def winner(tile: Tile) -> int | None:
    if not tile.bids:
        return None
    return max(tile.bids, key=lambda g: g.count).seat


def losing_groups(state: KeyflowerState, seat: int) -> dict[str, dict[str, int]]:
    """This seat's outbid bids by colour ({colour: {tile: workers}}): they may move on."""
    out: dict[str, dict[str, int]] = {}
    for tid in [*state.offer, *state.turn_order]:
        tile = state.tiles[tid]
        if not tile.bids:
            continue
        mine = bid_of(tile, seat)
        if mine and best_other(tile, seat) > mine.count:
            out.setdefault(mine.colour, {})[tid] = mine.count
    return out


def _movable(groups: dict[str, dict[str, int]], colour: str, tile_id: str = "") -> dict[str, int]:
    """Outbid groups of a colour that may move to `tile_id`: to bid there, those beside
    other tiles; to use a tile, all of them (on the tile is another place than beside it)."""
    return {t: n for t, n in groups.get(colour, {}).items() if t != tile_id}


class Need(NamedTuple):
    """What a placement of one colour at one location requires (a named tuple: made for
    every colour at every location a turn could go to)."""

    least: int  # workers in total at least
    room: int  # workers in total at most
    screen: int  # workers of the colour that may come from behind the screen
    groups: dict[str, int]  # outbid groups that may come along


def usable(state: KeyflowerState, seat: int, tile_id: str) -> bool:
    e = effect(state, tile_id)["effect"]
    if e not in USABLE:
        return False
    skills = state.players[seat].skills
    screen = state.players[seat].screen
    if e == "green":
        return screen.get(effect(state, tile_id)["pay"], 0) > 0
    if e == "tavern":
        return sum(screen.values()) > 0
    if e in ("brewer", "hiring"):
        return sum(skills.values()) > 0
    if e == "craft":
        return skills.get(effect(state, tile_id)["skill"], 0) > 0
    return True


def _screen_for(screen: dict[str, int], e: dict, colour: str) -> int:
    """Screen workers of `colour` usable at a tile of effect `e`, keeping back a worker the
    tile's cost needs."""
    have = screen.get(colour, 0)
    if e["effect"] == "green" and e["pay"] == colour:
        return have - 1
    if e["effect"] == "tavern":
        return min(have, sum(screen.values()) - 1)
    return have


def bid_needs(
    state: KeyflowerState, seat: int, tile_id: str, groups: dict[str, dict[str, int]] | None = None
) -> dict[str, Need]:
    groups = losing_groups(state, seat) if groups is None else groups
    tile = state.tiles[tile_id]
    mine = bid_of(tile, seat)
    least = max(1, best_other(tile, seat) + 1 - (mine.count if mine else 0))
    if mine:
        colours: tuple[str, ...] = (mine.colour,)
    else:
        current = colour_of(tile)
        free_counter = (
            current not in (None, "green")
            and tile_id not in state.turn_order
            and any(g.seat != seat and not g.lying for g in tile.bids)
            and "4a" in abilities(state, seat)
        )
        colours = COLOURS if current is None or free_counter else (current,)
    screen = state.players[seat].screen
    out = {}
    for c in colours:
        if not screen.get(c) and c not in groups:
            continue  # no worker of this colour to bid with
        need = Need(least, 10**6, screen.get(c, 0), _movable(groups, c, tile_id))
        if feasible(need, 0, tuple(need.groups.values())):
            out[c] = need
    return out


def use_needs(
    state: KeyflowerState, seat: int, tile_id: str, groups: dict[str, dict[str, int]] | None = None
) -> dict[str, Need]:
    groups = losing_groups(state, seat) if groups is None else groups
    tile = state.tiles[tile_id]
    if not usable(state, seat, tile_id):
        return {}
    least = (tile.uses[-1] if tile.uses else 0) + 1
    room = MAX_WORKERS_PER_TILE - sum(g.count for g in tile.workers)
    if least > room:
        return {}
    current = colour_of(tile)
    mixed = bool(tile.bids or tile.uses) and "4b" in abilities(state, seat)
    colours = COLOURS if current is None or mixed else (current,)
    screen, e = state.players[seat].screen, effect(state, tile_id)
    out = {}
    for c in colours:
        if not screen.get(c) and c not in groups:
            continue  # no worker of this colour to use it with
        need = Need(least, room, max(0, _screen_for(screen, e, c)), _movable(groups, c))
        if feasible(need, 0, tuple(need.groups.values())):
            out[c] = need
    return out


@dataclass(frozen=True)
class Mix:
    """Boat 4b: one use made of workers of several colours. They may come from behind the
    screen and from outbid bids of any colour, each moving on whole (rulebook, "Bidding" 5:
    workers come from behind the screen or from a losing bid; boat 4b: any colours at once)."""

    least: int
    room: int
    caps: dict[str, int]  # screen workers per colour, in the order they are asked for
    total: int  # screen workers at most in all (a tavern keeps one worker to discard)
    groups: dict[str, int]  # outbid groups that may come along, by tile
    colours: dict[str, str]  # each outbid group's colour

    @property
    def need(self) -> Need:
        return Need(self.least, self.room, min(self.total, sum(self.caps.values())), self.groups)


def mix_needs(
    state: KeyflowerState, seat: int, tile_id: str, groups: dict[str, dict[str, int]] | None = None
) -> Mix | None:
    tile = state.tiles[tile_id]
    if not (tile.bids or tile.uses) or "4b" not in abilities(state, seat):
        return None
    if not usable(state, seat, tile_id):
        return None
    groups = losing_groups(state, seat) if groups is None else groups
    least = (tile.uses[-1] if tile.uses else 0) + 1
    room = MAX_WORKERS_PER_TILE - sum(g.count for g in tile.workers)
    screen, e = state.players[seat].screen, effect(state, tile_id)
    caps = {c: max(0, _screen_for(screen, e, c)) for c in COLOURS}
    caps = {c: n for c, n in caps.items() if n}
    total = sum(caps.values())
    if e["effect"] == "tavern":
        total = sum(screen.values()) - 1
    colours = {t: c for c in COLOURS for t in _movable(groups, c)}
    mix = Mix(least, room, caps, total, {t: groups[c][t] for t, c in colours.items()}, colours)
    if len({*caps, *colours.values()}) < 2 or least > room:
        return None
    return mix if feasible(mix.need, 0, tuple(mix.groups.values())) else None


def mix_range(mix: Mix, gathered: int, chosen: dict[str, int], colour: str) -> list[int]:
    """Screen counts of `colour` that still let the later colours complete the use, after
    `gathered` outbid workers and the screen counts `chosen` so far."""
    screen = sum(chosen.values())
    order = list(mix.caps)
    rest = order[order.index(colour) + 1 :]
    out = []
    for k in range(min(mix.caps[colour], mix.room - gathered - screen, mix.total - screen) + 1):
        after = gathered + screen + k
        more = min(sum(mix.caps[r] for r in rest), mix.room - after, mix.total - screen - k)
        if after + more >= mix.least:
            out.append(k)
    return out


def mix_done(mix: Mix, gathered: int, chosen: dict[str, int]) -> bool:
    """No room left for more screen workers: the colours not yet asked all give none."""
    screen = sum(chosen.values())
    return min(mix.room - gathered - screen, mix.total - screen) <= 0


def feasible(need: Need, chosen: int, rest: tuple[int, ...]) -> bool:
    """Can `chosen` workers already gathered plus some of `rest` and the screen make it?"""
    for k in range(len(rest) + 1):
        for combo in combinations(rest, k):
            s = chosen + sum(combo)
            if s <= need.room and s + need.screen >= need.least:
                return True
    return False


def screen_range(need: Need, gathered: int) -> range:
    low = max(need.least - gathered, 0 if gathered else 1)
    return range(low, min(need.screen, need.room - gathered) + 1)


def lift_groups(state: KeyflowerState, seat: int, tile_ids: list[str]) -> None:
    """Take this seat's outbid groups away from their tiles (they move on together). For a
    use, lift them after placing it: a group moved onto its own tile still uses it (boat 4a
    lying bids stay down, boat 4b keeps the colour the tile had)."""
    for tid in tile_ids:
        tile = state.tiles[tid]
        tile.bids = [g for g in tile.bids if g.seat != seat]
        stand_up(tile)


def put_bid(state: KeyflowerState, seat: int, tile_id: str, colour: str, n: int) -> None:
    tile = state.tiles[tile_id]
    mine = bid_of(tile, seat)
    if mine:
        mine.count += n
    else:
        current = colour_of(tile)
        tile.bids.append(Group(seat, colour, n, lying=current is not None and current != colour))


def put_use(state: KeyflowerState, seat: int, tile_id: str, counts: dict[str, int]) -> None:
    """One use; workers not of the tile's colour lie down (boat 4b)."""
    tile = state.tiles[tile_id]
    current = colour_of(tile)
    for colour, n in counts.items():
        if n:
            lying = current is not None and current != colour
            tile.workers.append(Group(seat, colour, n, lying=lying))
    tile.uses.append(sum(counts.values()))
