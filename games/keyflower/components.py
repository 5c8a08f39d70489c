"""Keyflower's component tables, loaded once from data/keyflower (see its README)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Any

from meeple_hall.games.core.resources import game_data

DATA = game_data("keyflower")

COLOURS = ("blue", "red", "yellow", "green")
BAG_COLOURS = ("blue", "red", "yellow")
SKILLS = ("anvil", "pick", "saw")
RESOURCES = ("gold", "iron", "stone", "wood")
SEASONS = ("spring", "summer", "autumn", "winter")


@dataclass(frozen=True)
class TileSpec:
    """One hexagonal tile: village, home, winter, boat or turn-order tile."""

    id: str
    name: str
    kind: str  # home, spring, summer, autumn, winter, boat, turn_order
    edges: str
    front: dict[str, Any]
    back: dict[str, Any] | None = None
    upgrade: dict[str, int] | None = None
    min_players: int = 2
    contents: dict[str, list[int]] | None = None
    number: int = 0
    sides: dict[str, str] | None = None
    verified: bool = False
    note: str = ""

    def side(self, upgraded: bool) -> dict[str, Any]:
        return self.back if upgraded and self.back is not None else self.front

    @property
    def is_summer_boat(self) -> bool:
        return self.front.get("effect") == "ability"


@dataclass(frozen=True)
class Setup:
    workers: dict[str, int]
    green: int
    skills: dict[str, int]
    resources: dict[str, int]
    start_workers: int
    by_players: dict[int, dict[str, int]]


@cache
def tiles() -> dict[str, TileSpec]:
    out: dict[str, TileSpec] = {}
    with (DATA / "tiles.toml").open("rb") as f:
        for t in tomllib.load(f)["tile"]:
            out[t["id"]] = TileSpec(
                id=t["id"],
                name=t["name"],
                kind=t["season"],
                edges=t["edges"],
                front=t["front"],
                back=t.get("back"),
                upgrade=t.get("upgrade"),
                verified=t.get("verified", False),
                note=t.get("note", ""),
            )
    with (DATA / "boats.toml").open("rb") as f:
        data = tomllib.load(f)
    for b in data["boat"]:
        out[b["id"]] = TileSpec(
            id=b["id"],
            name=b["name"],
            kind="boat",
            edges=b["edges"],
            front=b["scoring"],
            min_players=b["min_players"],
            contents=b["contents"],
            verified=b.get("verified", False),
            note="contents per season and edges reconstructed",
        )
    for t in data["turn_order"]:
        out[t["id"]] = TileSpec(
            id=t["id"],
            name=f"Turn order {t['number']}",
            kind="turn_order",
            edges=t["edges"],
            front={"effect": "turn_order"},
            number=t["number"],
            sides=t["sides"],
            verified=t.get("verified", False),
            note="sides by player count, start keyple and edges reconstructed",
        )
    return out


@cache
def setup_table() -> Setup:
    with (DATA / "setup.toml").open("rb") as f:
        d = tomllib.load(f)
    c = d["components"]
    return Setup(
        workers=c["workers"],
        green=c["green_workers"],
        skills=c["skills"],
        resources=c["resources"],
        start_workers=c["start_workers"],
        by_players={int(k): v for k, v in d["players"].items()},
    )


def spec(tile_id: str) -> TileSpec:
    return tiles()[tile_id]


def season_tiles(season: str) -> list[str]:
    return sorted(t.id for t in tiles().values() if t.kind == season)


def reconstructed() -> list[str]:
    """Lines for /rules: the tiles whose printed values are reconstructed, and how."""
    return [f"{t.id} {t.name}: {t.note}" for t in tiles().values() if not t.verified]
