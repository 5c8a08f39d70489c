"""Loads the component tables in data/coffee/ once, as plain typed records."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Any

from meeple_hall.games.core.resources import game_data

DATA_DIR = game_data("coffee")

COFFEES = ("gua", "col", "bra", "eth", "ind")
KOPI = "kopi"
COFFEE_NAMES = {
    "gua": "Guatemala",
    "col": "Colombia",
    "bra": "Brazil",
    "eth": "Ethiopia",
    "ind": "Indonesia",
    KOPI: "kopi luwak",
}
CONTRACT_LETTERS = "ABCDEF"
CONTRACT_ROWS = {"A": "AB", "B": "AB", "C": "CD", "D": "CD", "E": "EF", "F": "EF"}
BOARD_COLUMNS = ("production", "fairtrade", "hospital")
COLUMNS = ("warehouse", *BOARD_COLUMNS)


@dataclass(frozen=True)
class Contract:
    id: str
    letter: str
    superscript: int
    coffees: tuple[str, str, str]
    side3: tuple[int, int, int]
    side45: tuple[int, int, int]

    def wants(self, rules_players: int) -> dict[str, int]:
        amounts = self.side3 if rules_players == 3 else self.side45
        return dict(zip(self.coffees, amounts, strict=True))


@dataclass(frozen=True)
class BarSpace:
    need: str
    amount: int
    coins: int
    points: int
    animal: bool = False
    wild_animal: bool = False


@dataclass(frozen=True)
class Milestone:
    id: str
    letter: str
    text: str
    points: tuple[int, ...]


@dataclass(frozen=True)
class Components:
    board: dict[str, Any]
    player_board: dict[str, Any]
    setup: dict[str, Any]
    contracts: dict[str, Contract]
    bars: dict[str, tuple[BarSpace, ...]]
    bar_majority: tuple[int, ...]
    milestones: dict[str, Milestone]


def _toml(name: str) -> dict[str, Any]:
    return tomllib.loads((DATA_DIR / name).read_text(encoding="utf-8"))


@cache
def components() -> Components:
    contracts = {
        c["id"]: Contract(
            id=c["id"],
            letter=c["letter"],
            superscript=c["superscript"],
            coffees=tuple(c["coffees"]),
            side3=tuple(c["side3"]),
            side45=tuple(c["side45"]),
        )
        for c in _toml("contracts.toml")["contract"]
    }
    bar_data = _toml("coffee_bars.toml")
    bars = {b["id"]: tuple(BarSpace(**s) for s in b["spaces"]) for b in bar_data["bar"]}
    milestones = {
        m["id"]: Milestone(m["id"], m["letter"], m["text"], tuple(m["points"]))
        for m in _toml("milestones.toml")["milestone"]
    }
    return Components(
        board=_toml("board.toml"),
        player_board=_toml("player_board.toml"),
        setup=_toml("setup.toml"),
        contracts=contracts,
        bars=bars,
        bar_majority=tuple(bar_data["majority"]),
        milestones=milestones,
    )
