"""What a seat cannot see in Coffee Traders, drawn again for the AI's searches.

Players hold nothing in secret. André's contract stack (one A, one B, one C contract, in
that order) shows its top contract; each one under it is drawn again from the contracts of
its letter the seat cannot see on the table. His Arabica counters (face down, HIDDEN) are
shuffled by the core, and André shuffles the unflipped ones each time he flips anyway.
"""

from __future__ import annotations

from meeple_hall.games.coffee.data import components
from meeple_hall.games.coffee.state import CoffeeState
from meeple_hall.games.core import Rng


def resample(state: CoffeeState, seat: int, rng: Rng) -> None:
    andre = state.andre
    if andre is None or len(andre.contracts) < 2:
        return
    table = components().contracts
    seen = {cid for p in state.players for cid in p.contracts.values()} | {andre.contracts[0]}
    for i in range(1, len(andre.contracts)):
        letter = table[andre.contracts[i]].letter
        unseen = sorted(c for c in table if table[c].letter == letter and c not in seen)
        andre.contracts[i] = rng.choice(unseen)
        seen.add(andre.contracts[i])
