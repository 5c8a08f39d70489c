"""Villages as hex maps: where a tile may go, which tiles roads and rivers connect.

Axial coordinates; direction d (0 east, then counter-clockwise) leads to DIRS[d]. A tile's
printed edges rotate with it: the edge facing direction d is edges[(d - rot) % 6].
"""

from __future__ import annotations

from functools import cache
from typing import TypedDict

from meeple_hall.games.core import Msg
from meeple_hall.games.keyflower.components import spec
from meeple_hall.games.keyflower.state import KeyflowerState, Player, Tile
from meeple_hall.games.keyflower.words import DIRECTIONS, m, near_words, side_words, tile_name

DIR_NAMES = DIRECTIONS  # as the village is drawn, north up (edge 0 = east)

MAX_CYCLES = 12  # beyond this many independent road cycles, Sea Bastion takes simple cycles
DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def edge(tile: Tile, d: int) -> str:
    return spec(tile.id).edges[(d - tile.rot) % 6]


@cache
def edges_at(tile_id: str, rot: int) -> str:
    base = spec(tile_id).edges
    return "".join(base[(d - rot) % 6] for d in range(6))


def grid(state: KeyflowerState, player: Player) -> dict[tuple[int, int], str]:
    return {(t.q, t.r): t.id for t in (state.tiles[i] for i in player.village) if t.placed}


def neighbours(state: KeyflowerState, player: Player, tile_id: str) -> list[tuple[int, str]]:
    """(direction, tile id) of every placed tile next to `tile_id`."""
    cells = grid(state, player)
    t = state.tiles[tile_id]
    out = []
    for d, (dq, dr) in enumerate(DIRS):
        other = cells.get((t.q + dq, t.r + dr))
        if other is not None:
            out.append((d, other))
    return out


def road_between(state: KeyflowerState, a: str, d: int, b: str) -> bool:
    return edge(state.tiles[a], d) == "R" and edge(state.tiles[b], (d + 3) % 6) == "R"


def fits(edges: str, d: int, other: str) -> bool:
    """Road meets road; fields and water may face each other (see README: edge rule)."""
    return (edges[d] == "R") == (other == "R")


def placements(
    state: KeyflowerState, player: Player, tile_id: str, free: bool
) -> dict[str, list[int]]:
    """Legal cells ("q_r") and rotations for a new tile; `free` ignores edges (boat 2a).

    If no cell fits at all the edges are ignored too, so that a won tile always has a place.
    """
    cells = grid(state, player)
    frontier = sorted(
        {(q + dq, r + dr) for (q, r) in cells for dq, dr in DIRS if (q + dq, r + dr) not in cells}
    )
    rotations: dict[str, list[int]] = {}
    seen_rots: list[int] = []
    seen_edges: set[str] = set()
    for rot in range(6):
        e = edges_at(tile_id, rot)
        if e not in seen_edges:
            seen_edges.add(e)
            seen_rots.append(rot)
    for strict in (not free, False):
        for q, r in frontier:
            ok = []
            for rot in seen_rots:
                e = edges_at(tile_id, rot)
                if not strict or all(
                    fits(e, d, edge(state.tiles[cells[(q + dq, r + dr)]], (d + 3) % 6))
                    for d, (dq, dr) in enumerate(DIRS)
                    if (q + dq, r + dr) in cells
                ):
                    ok.append(rot)
            if ok:
                rotations[cell_id(q, r)] = ok
        if rotations:
            break
    return rotations


def cell_id(q: int, r: int) -> str:
    """A free cell's option id, `1_-1` (axial coordinates from the home tile)."""
    return f"{q}_{r}"


def cell_of(at: str) -> tuple[int, int]:
    """The axial coordinates of a cell's name (`-1_0`)."""
    q, r = (int(x) for x in at.split("_"))
    return q, r


NEIGHBOURS_NAMED = 3


def cell_near(state: KeyflowerState, player: Player, at: str) -> list[list[int | str]]:
    """The tiles next to a free cell that name it, as [direction, tile] from the tile."""
    cells = grid(state, player)
    q, r = cell_of(at)
    near: list[list[int | str]] = [
        [d, cells[(q - dq, r - dr)]] for d, (dq, dr) in enumerate(DIRS) if (q - dq, r - dr) in cells
    ]
    # Three neighbours place a cell and fit Discord's 80 characters; four may not.
    return near[:NEIGHBOURS_NAMED]


def describe_cell(near: list[list[int | str]], at: str) -> Msg:
    """`1_-1: NE of Home 4, E of Miner`: a free cell by (up to three of) the tiles next to it."""
    return m("cell.at", at=at, near=near_words(near))


class Sides(TypedDict):
    """A rotation's road and water sides (directions) and the tiles its roads join."""

    roads: list[int]
    water: list[int]
    joined: list[str]


def turn_sides(state: KeyflowerState, player: Player, tile_id: str, at: str, rot: int) -> Sides:
    cells = grid(state, player)
    q, r = cell_of(at)
    e = edges_at(tile_id, rot)
    joined = [
        cells[(q + dq, r + dr)]
        for d, (dq, dr) in enumerate(DIRS)
        if e[d] == "R"
        and (q + dq, r + dr) in cells
        and edge(state.tiles[cells[(q + dq, r + dr)]], (d + 3) % 6) == "R"
    ]
    roads = [d for d in range(6) if e[d] == "R"]
    water = [d for d in range(6) if e[d] == "W"]
    return {"roads": roads, "water": water, "joined": joined}


def describe_turn(rot: int, sides: Sides) -> Msg:
    """`r1: roads NE W SE, water E; road to Home 4`: a rotation by its sides and what its
    roads join."""
    words = side_words(sides["roads"], sides["water"])
    joined = [tile_name(t) for t in sides["joined"]]
    if joined:
        return m("turn.joined", rot=f"r{rot}", sides=words, tiles=joined)
    return m("turn.at", rot=f"r{rot}", sides=words)


def place(tile: Tile, at: str, rot: int) -> None:
    tile.q, tile.r = cell_of(at)
    tile.rot, tile.placed = rot, True


def connected(state: KeyflowerState, player: Player, tile_id: str, fields: bool) -> list[str]:
    """Tiles a resource can move to in one step: along a road, or any side with boat 2a."""
    return [
        other
        for d, other in neighbours(state, player, tile_id)
        if fields or road_between(state, tile_id, d, other)
    ]


def road_graph(state: KeyflowerState, player: Player) -> dict[str, list[str]]:
    return {
        t: [o for d, o in neighbours(state, player, t) if road_between(state, t, d, o)]
        for t in player.village
        if state.tiles[t].placed
    }


def longest_loop(graph: dict[str, list[str]]) -> int:
    """Tiles on the largest road loop that never travels the same road twice (Sea Bastion).

    The Japanese rulebook draws it in one stroke (一筆書き): a closed walk may pass a tile
    twice but no road twice, so a loop is a connected set of roads where every tile meets
    an even number of them. Every such set is a sum (XOR) of the road map's fundamental
    cycles; villages have few of those, so all sums are tried.
    """
    nodes = sorted(graph)
    edges = sorted({(a, b) if a < b else (b, a) for a in nodes for b in graph[a]})
    bit = {e: 1 << i for i, e in enumerate(edges)}
    parent: dict[str, str | None] = {}
    depth: dict[str, int] = {}
    for root in nodes:
        if root in parent:
            continue
        parent[root], depth[root] = None, 0
        todo = [root]
        while todo:
            at = todo.pop()
            for nxt in sorted(graph[at]):
                if nxt not in parent:
                    parent[nxt], depth[nxt] = at, depth[at] + 1
                    todo.append(nxt)
    tree = {(a, b) if a < b else (b, a) for b, a in parent.items() if a is not None}
    basis = []
    for a, b in edges:
        if (a, b) in tree:
            continue
        mask = bit[(a, b)]
        u, v = a, b
        while u != v:
            if depth[u] < depth[v]:
                u, v = v, u
            up = parent[u]
            assert up is not None
            mask ^= bit[(u, up) if u < up else (up, u)]
            u = up
        basis.append(mask)
    if len(basis) > MAX_CYCLES:
        return _longest_cycle(graph)
    best = 0
    mask = 0
    for i in range(1, 1 << len(basis)):
        mask ^= basis[(i & -i).bit_length() - 1]  # Gray code: one basis cycle per step
        best = max(best, _largest_part(mask, edges))
    return best


def _longest_cycle(graph: dict[str, list[str]]) -> int:
    """The longest simple road cycle: the fallback for unusually tangled road maps."""
    nodes = sorted(graph)
    index = {n: i for i, n in enumerate(nodes)}
    best = 0

    def walk(start: str, at: str, path: set[str]) -> None:
        nonlocal best
        for nxt in graph[at]:
            if nxt == start and len(path) >= 3:
                best = max(best, len(path))
            elif nxt not in path and index[nxt] > index[start] and best < len(nodes):
                path.add(nxt)
                walk(start, nxt, path)
                path.discard(nxt)

    for n in nodes:
        walk(n, n, {n})
    return best


def _largest_part(mask: int, edges: list[tuple[str, str]]) -> int:
    """Tiles in the largest connected piece of the roads in `mask`."""
    root: dict[str, str] = {}

    def find(x: str) -> str:
        while root.setdefault(x, x) != x:
            root[x] = root[root[x]]
            x = root[x]
        return x

    for i, (a, b) in enumerate(edges):
        if mask >> i & 1:
            root[find(a)] = find(b)
    sizes: dict[str, int] = {}
    for x in list(root):
        r = find(x)
        sizes[r] = sizes.get(r, 0) + 1
    return max(sizes.values(), default=0)


def river_boats(state: KeyflowerState, player: Player) -> list[str]:
    """Boats (summer boats included) linked to the home tile by water sides (Sea Breeze)."""
    cells = grid(state, player)
    seen = {player.home}
    todo = [player.home]
    while todo:
        t = state.tiles[todo.pop()]
        for d, (dq, dr) in enumerate(DIRS):
            other = cells.get((t.q + dq, t.r + dr))
            if (
                other is not None
                and other not in seen
                and edge(t, d) == "W"
                and edge(state.tiles[other], (d + 3) % 6) == "W"
            ):
                seen.add(other)
                todo.append(other)
    return sorted(t for t in seen if spec(t).kind == "boat" or spec(t).is_summer_boat)
