"""How seats, cooperatives and pieces are written in prompts and the log."""

from __future__ import annotations

from meeple_hall.games.coffee.data import COFFEE_NAMES, components
from meeple_hall.games.coffee.state import CoffeeState


def who(state: CoffeeState, seat: int) -> str:
    return "André" if state.is_andre(seat) else f"P{seat + 1}"


def coop_name(coffee: str) -> str:
    return COFFEE_NAMES[coffee]


def bar_name(bar: str) -> str:
    """`b3` -> "Coffee Bar 3", `seoul` -> "Coffee Bar 6 (Seoul)": numbered left to right
    as the picture draws them, and named where the rulebook names them."""
    number = list(components().bars).index(bar) + 1
    return f"Coffee Bar {number}" + ("" if bar == f"b{number}" else f" ({bar.capitalize()})")


def counter_name(counter: str) -> str:
    """`animal:gua` -> "Guatemala Animal counter"; `wild` -> "Wild Animal counter"."""
    if ":" not in counter:
        return "Wild Animal counter"
    kind, coffee = counter.split(":")
    return f"{COFFEE_NAMES[coffee]} {kind.capitalize()} counter"


BONUS_NAMES = {
    "worker": "a worker",
    "civet": "a civet to Sumatra",
    "arabica": "an Arabica step",
    "donkey": "a donkey",
    "coin": "a coin",
    "truck": "a truck",
    "build": "a free building",
    "hospital": "a free hospital",
}


def bonus_name(items: list[str]) -> str:
    """The bonus items below a contract space: `["coin", "coin"]` -> "2 coins"."""
    if len(items) > 1 and len(set(items)) == 1:
        plural = {"coin": "coins", "arabica": "Arabica steps"}.get(items[0], items[0] + "s")
        return f"{len(items)} {plural}"
    return " + ".join(BONUS_NAMES.get(item, item) for item in items)


def upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]
