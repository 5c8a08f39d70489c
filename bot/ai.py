"""The bot's door to the AI players (the pure code is in meeple_hall.games.ai): the levels,
the process pool that keeps AI work off the event loop, and the random baseline.

`choose(decision, seed, seq)` is the baseline: a legal choice at random, the same each time
for the same game and move. It needs no knowledge of the game because every offered
combination of options is legal.
"""

from __future__ import annotations

import random

from meeple_hall.games import Decision
from meeple_hall.games.ai.levels import LEVELS, random_answer
from meeple_hall.games.ai.pool import choose_in_pool, shutdown

__all__ = ["LEVELS", "choose", "choose_in_pool", "shutdown"]


def choose(decision: Decision, seed: int, seq: int) -> tuple[str, ...]:
    return random_answer(decision, random.Random(f"{seed}:{seq}:{decision.seat}"))
