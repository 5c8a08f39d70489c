"""Coffee Traders' words as messages: keys into data/coffee/i18n/<language>.toml.

Nothing here is in a language: seats, coffees, Coffee Bars, counters, buildings and bonus
items are messages that the presentation layer renders in the reader's language
(games/core/catalogues.py).
"""

from __future__ import annotations

from functools import cache, lru_cache

from meeple_hall.games.core import Msg
from meeple_hall.games.core.messages import Param


def m(key: str, /, **params: Param) -> Msg:
    """A message of this game's catalogue (`coffee.<key>`)."""
    return Msg(f"coffee.{key}", **params)


# a count or a name never changes (messages are immutable): each is made once
@lru_cache(maxsize=1024)
def count(noun: str, n: int) -> Msg:
    """`3 coins`, `1 donkey`: the count with its noun (`count.<noun>`)."""
    return m(f"count.{noun}", n=n)


@cache
def coffee_name(coffee: str) -> Msg:
    """A coffee (and its cooperative) by its kind: `gua` -> Guatemala, `kopi` -> kopi luwak."""
    return m(f"coffee.{coffee}")


@cache
def column_name(column: str) -> Msg:
    """A building column as a noun: warehouse, production station, fair trade post, hospital."""
    return m(f"building.{column}")


def phase_name(phase: str) -> Msg:
    return m(f"phase.{phase}")
