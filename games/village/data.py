"""Village's component tables, read once from data/village/*.toml."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Any

from meeple_hall.games.core.resources import game_data

DATA = game_data("village")


def _read(name: str) -> dict[str, Any]:
    with (DATA / name).open("rb") as fh:
        return tomllib.load(fh)


@dataclass(frozen=True)
class Customer:
    id: str
    wants: dict[str, int]
    points: int


@dataclass(frozen=True)
class Route:
    a: str
    b: str
    cubes: dict[str, int]


@cache
def rules() -> dict[str, Any]:
    return _read("rules.toml")


@cache
def setup() -> dict[str, Any]:
    return _read("setup.toml")


@cache
def karla() -> dict[str, Any]:
    return _read("karla.toml")


@cache
def customers() -> dict[str, Customer]:
    tiles = _read("customers.toml")["tiles"]
    return {t["id"]: Customer(t["id"], dict(t["wants"]), t["points"]) for t in tiles}


@cache
def travel() -> dict[str, Any]:
    return _read("travel.toml")


@cache
def routes() -> tuple[Route, ...]:
    return tuple(Route(r["ends"][0], r["ends"][1], dict(r["cubes"])) for r in travel()["routes"])


def route(a: str, b: str) -> Route | None:
    return next((r for r in routes() if {r.a, r.b} == {a, b}), None)


def neighbours(city: str) -> list[str]:
    out = [r.b if r.a == city else r.a for r in routes() if city in (r.a, r.b)]
    return [c for c in out if c != travel()["start"]]


def cities() -> dict[str, str]:
    return dict(travel()["cities"])


def colours() -> list[str]:
    return list(rules()["colours"])


def goods() -> list[str]:
    return list(rules()["goods"])


def spaces() -> list[str]:
    return list(setup()["spaces"])


def card(num_players: int) -> dict[str, Any]:
    """The setup card: a solo game uses the 2-player card."""
    return setup()["players"][str(max(2, num_players))]


def track_length() -> int:
    return int(rules()["time"]["track_length"])
