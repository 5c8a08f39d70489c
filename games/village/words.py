"""Village's words as messages: keys into data/village/i18n/<language>.toml.

Nothing here is in a language: colours, goods, workshops, cities and counts are messages
that the presentation layer renders in the reader's language (games/core/catalogues.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from meeple_hall.games.core import Msg


def m(key: str, /, **params: Any) -> Msg:
    """A message of this game's catalogue (`village.<key>`)."""
    if not params:
        return plain(key)
    return Msg(f"village.{key}", **params)


@cache
def plain(key: str) -> Msg:
    """A message without parameters (a prompt, a button's words), made once."""
    return Msg(f"village.{key}")


@cache
def seat_name(index: int) -> Msg:
    return Msg("core.seat", n=index + 1)


@cache
def who(index: int) -> Msg:
    """A seat, or Karla (the solo automaton, owner mark -1)."""
    return m("karla") if index < 0 else seat_name(index)


@cache
def colour(name: str) -> Msg:
    """An influence cube's colour as a noun (`green`); black is the plague."""
    return m(f"colour.{name}")


@cache
def a_colour(name: str) -> Msg:
    """One cube of a colour: `an orange`, `a green`."""
    return m(f"a_colour.{name}")


@cache
def cube_count(name: str, n: int) -> Msg:
    """`2 green`: a number of cubes of one colour."""
    return m("cubes", n=n, colour=colour(name))


def cubes(cost: dict[str, int]) -> Msg:
    """`1 pink + 1 orange`: cubes of several colours (the colours with none left out)."""
    return plus([cube_count(c, n) for c, n in cost.items() if n])


def plus(parts: Sequence[Msg | str]) -> Msg:
    """Parts added up: `a + b + c`."""
    if len(parts) == 1:
        return m("one", item=parts[0])
    return m("plus", a=parts[0], b=plus(parts[1:]))


def replaced_in(message: Msg, old: Msg, new: Msg) -> Msg:
    """`message` with `old` put as `new` wherever it stands among its parameters (at any
    depth): how a label's cubes become the cubes and coins that will be paid."""
    if message == old:
        return new
    params = {
        k: replaced_in(v, old, new) if isinstance(v, Msg) else v for k, v in message.args.items()
    }
    return Msg(message.key, **params)


def coin_words(coins: int, marker: bool, short: bool = False) -> Msg:
    """`2 coins`; in solo with the next-start-player marker held, the marker is the first
    coin spent (economy.pay_coins), named as such."""
    if not marker:
        return m("coins.n", n=coins)
    if coins == 1:
        return m("coins.marker_alone" if short else "coins.marker")
    return m("coins.marker_short" if short else "coins.marker_and", n=coins - 1)


def payment(kept: Msg | None, coins: int, marker: bool, instead: Msg, short: bool = False) -> Msg:
    """Cubes paid partly or wholly in coins: `1 green + 1 coin`, `2 coins`. It also carries
    what the coins stand in for (`instead`) and the coins in full and in short words
    (`spent`, `brief`), for the renderer's description ("1 coin instead of 1 green")."""
    words = {
        "coins": coin_words(coins, marker, short),
        "instead": instead,
        "spent": coin_words(coins, marker),
        "brief": coin_words(coins, marker, short=True),
    }
    if kept is None:
        return m("coins.all", **words)
    return m("coins.with", cubes=kept, **words)


def well_payment(colour: str, lacking: int, marker: bool) -> Msg:
    """3 cubes of a colour at the well, those lacking paid in coins (in solo the
    next-start-player marker first): `3 brown`, `2 brown + 1 coin`."""
    if not lacking:
        return cube_count(colour, 3)
    kept = cube_count(colour, 3 - lacking) if lacking < 3 else None
    return payment(kept, lacking, marker, cube_count(colour, lacking))


def both(parts: Sequence[Msg | str]) -> Msg:
    """Parts listed: `a and b`."""
    if len(parts) == 1:
        return m("one", item=parts[0])
    return m("and", a=parts[0], b=both(parts[1:]))


@cache
def good(name: str) -> Msg:
    return m(f"good.{name}")


@cache
def a_good(name: str) -> Msg:
    """One good: `a plow`, `an ox`."""
    return m(f"a_good.{name}")


@cache
def space(name: str) -> Msg:
    """An action space: harvest, family, crafts, market, travel, council, church."""
    return m(f"space.{name}")


@cache
def heading(name: str) -> Msg:
    """An action space as a button names it: Harvest, Family, ..."""
    return m(f"heading.{name}")


@cache
def workshop(name: str) -> Msg:
    return m(f"workshop.{name}")


@cache
def city(name: str) -> Msg:
    return m(f"city.{name}")


@cache
def time(n: int) -> Msg:
    return m("time", n=n)


@cache
def score_title(name: str) -> Msg:
    """A solo title as the final scores name its breakdown category `title: <name>`."""
    return m(f"score.title:_{name}")
