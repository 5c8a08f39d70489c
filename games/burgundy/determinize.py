"""What a seat cannot see in The Castles of Burgundy, drawn again for the AI's searches.

Sold goods lie face down beside a player's board: the seat knows how many each rival sold,
not which kinds. Those kinds and the face-down goods stacks on the phase spaces come from
one lot (the goods tiles the seat has not seen face up), so they are dealt again together:
each stack keeps its size, each rival its number of sold goods. The tile piles (one per
back colour) are shuffled by the core, as fields marked HIDDEN.
"""

from __future__ import annotations

from meeple_hall.games.burgundy.state import BurgundyState
from meeple_hall.games.core import Rng


def resample(state: BurgundyState, seat: int, rng: Rng) -> None:
    # At the end the final scores (knowledge tile 24 counts the kinds sold) tell all.
    rivals = [] if state.over else [p for i, p in enumerate(state.players) if i != seat]
    pool = [g for stack in state.phase_goods for g in stack]
    pool += [kind for p in rivals for kind, n in sorted(p.sold.items()) for _ in range(n)]
    pool = rng.shuffled(sorted(pool))
    for stack in state.phase_goods:
        size = len(stack)
        stack[:], pool = pool[:size], pool[size:]
    for p in rivals:
        size = sum(p.sold.values())
        dealt, pool = pool[:size], pool[size:]
        p.sold = {kind: dealt.count(kind) for kind in sorted(set(dealt))}
