"""The bot's door to the AI players (the pure code is in meeple_hall.games.ai): the levels a
game offers, the level a seat plays at, the process pool that keeps AI work off the event
loop, and the random baseline.

`choose(decision, seed, seq)` is the baseline: a legal choice at random, the same each time
for the same game and move. It needs no knowledge of the game because every offered
combination of options is legal, and it is answered in the bot's own process (it is
instant, and it plays games that have no `good` player, like the tests' own game).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Awaitable, Callable

from meeple_hall.bot.i18n import t
from meeple_hall.bot.store import Seat
from meeple_hall.games import Decision
from meeple_hall.games.ai.levels import LEVELS, NoStrategy, random_answer, strategy
from meeple_hall.games.ai.pool import WorkerPool

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "Chooser",
    "WorkerPool",
    "answer_seed",
    "choose",
    "default_level",
    "levels_for",
    "seat_level",
    "seat_name",
]

DEFAULT_LEVEL = "good"

Chooser = Callable[[str, str, int, str, int], Awaitable[tuple[str, ...]]]
"""`(game_id, state_dump, seat, level, seed) -> choices`: a level's answer worked out away
from the event loop (a `WorkerPool` in the bot; tests may give an in-process one)."""


def choose(decision: Decision, seed: int, seq: int) -> tuple[str, ...]:
    return random_answer(decision, random.Random(f"{seed}:{seq}:{decision.seat}"))


@functools.cache
def levels_for(game_id: str) -> tuple[str, ...]:
    """The levels a game can be played at: all of them where it has a `good` player
    (`games/<game>/strategy.py`, which `strong` searches with), else `random` alone."""
    try:
        strategy(game_id)
    except NoStrategy:
        return ("random",)
    return LEVELS


def default_level(game_id: str) -> str:
    offered = levels_for(game_id)
    return DEFAULT_LEVEL if DEFAULT_LEVEL in offered else offered[0]


def seat_level(game_id: str, seat: Seat) -> str:
    """The level an AI seat plays at: the one chosen when it was added (None: the default).
    A player's seat handed to the AI (resigned, or timed out) plays `good` or better,
    never `random`, where the game has a `good` player."""
    level = seat.ai_level if seat.ai_level in LEVELS else DEFAULT_LEVEL
    if seat.user_id is not None and level == "random":
        level = DEFAULT_LEVEL
    return level if level in levels_for(game_id) else default_level(game_id)


def answer_seed(table_seed: int, seq: int, seat: int) -> int:
    """The seed of an AI's answer at a move: the same move thought again answers the same
    (for `random` and `good`; `strong` stops on the clock)."""
    return random.Random(f"{table_seed}:{seq}:{seat}:ai").getrandbits(63)


def seat_name(locale: str, game_id: str, seat: Seat) -> str:
    """An AI seat as players read it: its name and level ("AI 1 (good)")."""
    level = t(locale, f"ai.level.{seat_level(game_id, seat)}")
    return t(locale, "ai.seat", name=seat.name, level=level)
