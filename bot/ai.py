"""The baseline AI: a legal choice at random, the same each time for the same game and move.

It needs no knowledge of the game because every offered combination of options is legal.
"""

from __future__ import annotations

import random

from meeple_hall.games import Decision


def choose(decision: Decision, seed: int, seq: int) -> tuple[str, ...]:
    rng = random.Random(f"{seed}:{seq}:{decision.seat}")
    count = rng.randint(
        max(decision.min_choices, 1 if decision.max_choices else 0), decision.max_choices
    )
    return tuple(o.id for o in rng.sample(list(decision.options), count))
