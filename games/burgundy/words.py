"""The Castles of Burgundy's words as messages: keys into data/burgundy/i18n/<language>.toml.

Nothing here is in a language: tile, hex and count names are messages that the presentation
layer renders in the reader's language (games/core/catalogues.py). A message never changes,
so the names are made once each (every option of every panel names tiles, hexes and counts).
"""

from __future__ import annotations

from functools import cache, lru_cache

from meeple_hall.games.burgundy.data import components
from meeple_hall.games.core import Msg

BUILDINGS = (
    "warehouse",
    "watchtower",
    "carpenter",
    "church",
    "market",
    "boarding",
    "bank",
    "townhall",
)
ANIMALS = ("cow", "sheep", "pig", "hen")
# Log events no longer written, still in the catalogues: a stored snapshot of a game in
# progress keeps its last events, and they must go on reading as they did.
RETIRED_EVENTS = ("log.ships", "log.completes")


def m(key: str, /, **params: object) -> Msg:
    """A message of this game's catalogue (`burgundy.<key>`)."""
    # Ignored (arg-type): callers pass list[Msg] and the like, which mypy will not take for
    # list[Param] (lists are invariant); Msg checks and freezes every parameter itself.
    return Msg(f"burgundy.{key}", **params)  # type: ignore[arg-type]


@cache
def seat_name(index: int) -> Msg:
    return Msg("core.seat", n=index + 1)


@lru_cache(maxsize=1024)
def count(noun: str, n: int) -> Msg:
    """`3 workers`, `1 silverling`: the count with its noun (`count.<noun>`)."""
    return m(f"count.{noun}", n=n)


def qualified(label: Msg, *, workers: int | None = None, storage_full: bool = False) -> Msg:
    """A take's or a sale's label with what it adds: the workers it costs, where not what the
    die's label said, and that a full storage must first discard a tile."""
    if workers is not None:
        label = m("label.paying", label=label, workers=count("workers", workers))
    return m("label.storage_full", label=label) if storage_full else label


@cache
def tile_name(face: str) -> Msg:
    """A tile as the rulebook names it: Bank, 3 pigs, Knowledge tile 12, Castle."""
    if face.startswith("k") and face[1:].isdigit():
        return m("tile.knowledge", n=int(face[1:]))
    if face[:-1] in ANIMALS:
        return m(f"tile.{face[:-1]}", n=int(face[-1]))
    return m(f"tile.{face}")


@cache
def type_name(tile_type: str) -> Msg:
    """A tile colour (`building`, `animal`, ...) as a noun: building, animal, castle."""
    return m(f"type.{tile_type}")


@cache
def space_name(tile_type: str) -> Msg:
    """The kind of estate space of a colour: building, pasture, knowledge, castle, ..."""
    return m(f"space.{tile_type}")


@cache
def hex_name(hex_id: int) -> Msg:
    """A hex as a player finds it in the picture: its colour and die, row and space."""
    hexes = components().estate.hexes
    h = hexes[hex_id]
    top = min(x.r for x in hexes.values())
    column = 1 + sum(1 for x in hexes.values() if x.r == h.r and x.q < h.q)
    return m("hex", space=space_name(h.type), die=h.die, row=h.r - top + 1, column=column)


@cache
def goods(kind: int) -> Msg:
    """A kind of goods as its tiles show it: colour and die number (`turquoise 4`)."""
    return m(f"goods_kind.{kind}")


def goods_stacks(kinds: list[int]) -> list[Msg]:
    """Goods tiles by kind in die order, each kind once with its count (`turquoise 4 ×2`)."""
    return [m("label.goods", goods=goods(k), n=kinds.count(k)) for k in sorted(set(kinds))]
