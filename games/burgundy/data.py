"""Component facts from data/burgundy: the estate board, the hex tiles and the tables."""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Any

from meeple_hall.games.core.resources import game_data

DATA = game_data("burgundy")

TYPES = ("building", "animal", "knowledge", "castle", "mine", "ship")
PHASES = "ABCDE"
AXIAL_NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


@dataclass(frozen=True, slots=True)
class Tile:
    """One hex tile: its type, its face (`bank`, `cow3`, `k12`, `ship`), its back."""

    id: int
    type: str
    face: str
    black: bool
    building: str = ""
    animal: str = ""
    value: int = 0
    knowledge: int = 0


@dataclass(frozen=True, slots=True)
class Hex:
    id: int
    q: int
    r: int
    type: str
    die: int


@dataclass(frozen=True)
class Estate:
    """An estate board: hexes, neighbours, the areas (connected same-colour regions) and the
    hexes of each colour (in the board's order)."""

    hexes: dict[int, Hex]
    start: int
    neighbours: dict[int, tuple[int, ...]]
    area_of: dict[int, tuple[int, ...]]
    of_type: dict[str, tuple[int, ...]]


@dataclass(frozen=True)
class Components:
    tiles: tuple[Tile, ...]
    estate: Estate
    table: dict[str, Any]

    def piles(self) -> dict[str, list[int]]:
        """Tile ids by back colour: the six colours and `black`."""
        piles: dict[str, list[int]] = {t: [] for t in (*TYPES, "black")}
        for tile in self.tiles:
            piles["black" if tile.black else tile.type].append(tile.id)
        return piles


def _tiles(table: dict[str, Any]) -> tuple[Tile, ...]:
    faces: list[tuple[str, str, bool, dict[str, Any]]] = []
    spec = table["tiles"]
    for black, key in ((False, "normal"), (True, "black")):
        for btype in spec["building_types"]:
            for _ in range(spec["buildings_per_type"][key]):
                faces.append(("building", btype, black, {"building": btype}))
        for ttype in ("castle", "mine", "ship"):
            faces.extend((ttype, ttype, black, {}) for _ in range(spec[f"{ttype}s"][key]))
        for kind in table["animals"]["kinds"]:
            for value in table["animals"][f"{key}_values"]:
                faces.append(("animal", f"{kind}{value}", black, {"animal": kind, "value": value}))
    black_knowledge = set(table["knowledge"]["black"])
    for number in range(1, 27):
        faces.append(("knowledge", f"k{number}", number in black_knowledge, {"knowledge": number}))
    return tuple(
        Tile(id=i, type=t, face=f, black=b, **extra) for i, (t, f, b, extra) in enumerate(faces)
    )


def _around(h: Hex) -> list[tuple[int, int]]:
    return [(h.q + dq, h.r + dr) for dq, dr in AXIAL_NEIGHBOURS]


def _estate(raw: dict[str, Any]) -> Estate:
    hexes = {h["id"]: Hex(h["id"], h["q"], h["r"], h["type"], h["die"]) for h in raw["hexes"]}
    at = {(h.q, h.r): h.id for h in hexes.values()}
    neighbours = {h.id: tuple(sorted(at[p] for p in _around(h) if p in at)) for h in hexes.values()}
    area_of: dict[int, tuple[int, ...]] = {}
    for hid, h in hexes.items():
        if hid in area_of:
            continue
        seen, todo = {hid}, [hid]
        while todo:
            for n in neighbours[todo.pop()]:
                if n not in seen and hexes[n].type == h.type:
                    seen.add(n)
                    todo.append(n)
        area = tuple(sorted(seen))
        for member in area:
            area_of[member] = area
    of_type = {kind: tuple(h.id for h in hexes.values() if h.type == kind) for kind in TYPES}
    return Estate(hexes, raw["start_hex"], neighbours, area_of, of_type)


@cache
def components() -> Components:
    with (DATA / "components.toml").open("rb") as f:
        table = tomllib.load(f)
    with (DATA / "duchy1.json").open(encoding="utf-8") as f:
        estate = _estate(json.load(f))
    return Components(_tiles(table), estate, table)
