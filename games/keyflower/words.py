"""Keyflower's words as messages: keys into data/keyflower/i18n/<language>.toml.

Nothing here is in a language: tile names, colours, resources, skills, directions and
counts are messages that the presentation layer renders in the reader's language
(games/core/catalogues.py). A message never changes, so names and counts are made once each
(every option of every panel names tiles, colours and counts).
"""

from __future__ import annotations

from functools import cache, lru_cache

from meeple_hall.games.core import Msg
from meeple_hall.games.core.messages import Param

DIRECTIONS = ("E", "NE", "NW", "W", "SW", "SE")


def m(key: str, /, **params: Param) -> Msg:
    """A message of this game's catalogue (`keyflower.<key>`)."""
    if not params:
        return _plain(key)
    return Msg(f"keyflower.{key}", **params)


@cache
def _plain(key: str) -> Msg:
    """A message without parameters (a prompt, a button's word), made once each."""
    return Msg(f"keyflower.{key}")


@cache
def seat_name(seat: int) -> Msg:
    return Msg("core.seat", n=seat + 1)


@cache
def tile_name(tile_id: str) -> Msg:
    """A tile as the rulebook names it (`Miner`, `Home 3`, `Turn order 2`, `Sea Breeze`)."""
    return m(f"tile.{tile_id}")


@cache
def tile_label(tile_id: str) -> Msg:
    """`S07 Miner`: the code players type and the tile's name."""
    return m("tile_label", id=tile_id, name=tile_name(tile_id))


@cache
def item(kind: str) -> Msg:
    """A worker colour, resource or skill tile kind: blue, wood, anvil."""
    return m(f"item.{kind}")


@cache
def season_name(season: str) -> Msg:
    return m(f"season.{season}")


@cache
def direction(index: int) -> Msg:
    return m(f"dir.{DIRECTIONS[index]}")


@lru_cache(maxsize=1024)
def count(noun: str, n: int, **more: Param) -> Msg:
    """`1 worker`, `3 skill tiles`, `2 blue workers`: a count with its noun (`count.<noun>`)."""
    return m(f"count.{noun}", n=n, **more)


@lru_cache(maxsize=1024)
def amount(n: int, kind: str) -> Msg:
    """`2 wood`, `1 blue`: how many of one colour, resource or skill."""
    return m("amount", n=n, item=item(kind))


def amounts(counts: dict[str, int]) -> list[Msg] | Msg:
    """`1 blue, 2 wood` (sorted by kind), or `nothing`."""
    return [amount(n, k) for k, n in sorted(counts.items()) if n] or m("nothing")


def group(counts: dict[str, int], noun: str) -> Msg:
    """`no workers`, `1 worker (1 blue)`, `3 skill tiles (1 anvil, 2 pick)`."""
    total = sum(counts.values())
    if not total:
        return m(f"none.{noun}")
    return m("group", total=count(noun, total), parts=amounts(counts))


def near_words(near: list[list[int | str]]) -> list[Msg]:
    """`NE of Home 4, E of Miner`: a free cell's neighbours, each [direction, tile]."""
    return [m("cell.near", dir=direction(int(d)), tile=tile_name(str(t))) for d, t in near]


def side_words(roads: list[int], water: list[int]) -> list[Msg] | Msg:
    """`roads NE W SE, water E`, or `no roads`: a rotation's sides."""
    parts = [
        m(f"turn.{word}", sides=[direction(d) for d in sides])
        for word, sides in (("roads", roads), ("water", water))
        if sides
    ]
    return parts or m("turn.no_roads")
