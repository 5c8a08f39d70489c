"""What a seat cannot see in Village, drawn again for the AI's searches.

Customers served lie face down with their player (and with Karla): the seat knows how many
each holds, not which. Those tiles and the face-down customer stack are one lot (the
customers the seat has not seen face up), dealt again in the same numbers. Once the game is
over every customer is shown, so nothing is drawn again. Karla's fate tiles are shuffled by
the core (HIDDEN, face-down places only, beside their TURNED_UP marks).
"""

from __future__ import annotations

from meeple_hall.games.core import Rng
from meeple_hall.games.village.state import VillageState


def resample(state: VillageState, seat: int, rng: Rng) -> None:
    if state.phase == "over":
        return
    holders = [p.customers for i, p in enumerate(state.players) if i != seat]
    if state.karla is not None:
        holders.append(state.karla.customers)
    holders.append(state.customer_stack)
    pool = rng.shuffled(sorted(t for held in holders for t in held))
    for held in holders:
        size = len(held)
        held[:], pool = pool[:size], pool[size:]
