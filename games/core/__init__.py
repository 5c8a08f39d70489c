"""The contract every game implements, its errors, and the shared random generator."""

from meeple_hall.games.core.contract import (
    OPTION_ID,
    Action,
    Decision,
    Engine,
    GameError,
    GameOption,
    IllegalAction,
    Option,
    Result,
    is_option_id,
    ranks_from_scores,
)
from meeple_hall.games.core.engine import GameEngine
from meeple_hall.games.core.rng import Rng

__all__ = [
    "OPTION_ID",
    "Action",
    "Decision",
    "Engine",
    "GameEngine",
    "GameError",
    "GameOption",
    "IllegalAction",
    "Option",
    "Result",
    "Rng",
    "is_option_id",
    "ranks_from_scores",
]
