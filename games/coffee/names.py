"""How seats, cooperatives and pieces are named in prompts and the log (as messages)."""

from __future__ import annotations

from functools import cache

from meeple_hall.games.coffee.data import components
from meeple_hall.games.coffee.state import CoffeeState
from meeple_hall.games.coffee.words import coffee_name, count, m
from meeple_hall.games.core import Msg


def who(state: CoffeeState, seat: int) -> Msg:
    return m("andre") if state.is_andre(seat) else seat_name(seat)


# names never change (messages are immutable): each is made once (a panel's every line
# logs its move, naming its seat)
@cache
def seat_name(seat: int) -> Msg:
    """`Player 2` for seat 1."""
    return m("seat", n=seat + 1)


def seat_tag(state: CoffeeState, seat: int) -> str:
    """A seat as the picture's legend writes it (plain, for the view): P1, André."""
    return "André" if state.is_andre(seat) else f"P{seat + 1}"


def coop_name(coffee: str) -> Msg:
    return coffee_name(coffee)


@cache
def bar_name(bar: str) -> Msg:
    """`b3` -> "Coffee Bar 3", `seoul` -> "Coffee Bar 6 (Seoul)": numbered left to right
    as the picture draws them, and named where the rulebook names them."""
    number = list(components().bars).index(bar) + 1
    if bar == f"b{number}":
        return m("bar", n=number)
    return m("bar_named", n=number, city=m(f"city.{bar}"))


def counter_name(counter: str) -> Msg:
    """`animal:gua` -> "Guatemala Animal counter"; `wild` -> "Wild Animal counter"."""
    if ":" not in counter:
        return m("counter.wild")
    kind, coffee = counter.split(":")
    return m(f"counter.{kind}", coffee=coffee_name(coffee))


def counter_fields(counter: str) -> dict[str, str]:
    """What a counter is, for an option that gives it: `animal:gua` -> animal, Guatemala."""
    if ":" not in counter:
        return {"item": counter}
    kind, coffee = counter.split(":")
    return {"item": kind, "coffee": coffee}


BONUS_ITEMS = ("worker", "civet", "arabica", "donkey", "coin", "truck", "build", "hospital")


def bonus_item(item: str) -> Msg:
    return m(f"bonus.{item}")


def bonus_name(items: list[str]) -> Msg | list[Msg]:
    """The bonus items below a contract space: `["coin", "coin"]` -> "2 coins"."""
    if len(items) > 1 and len(set(items)) == 1:
        return count(items[0], len(items))
    if len(items) == 1:
        return bonus_item(items[0])
    return [bonus_item(item) for item in items]
