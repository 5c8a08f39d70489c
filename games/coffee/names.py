"""How seats, cooperatives and pieces are written in prompts and the log."""

from __future__ import annotations

from games.coffee.data import COFFEE_NAMES
from games.coffee.state import CoffeeState


def who(state: CoffeeState, seat: int) -> str:
    return "André" if state.is_andre(seat) else f"P{seat + 1}"


def coop_name(coffee: str) -> str:
    return COFFEE_NAMES[coffee]
