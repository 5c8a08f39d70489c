"""The contract every game implements, its errors, its messages, and the shared random
generator."""

from meeple_hall.games.core.contract import (
    OPTION_ID,
    Action,
    Decision,
    Engine,
    GameError,
    GameOption,
    GameOver,
    IllegalAction,
    NotAChoice,
    NotYourTurn,
    Option,
    RepeatedChoice,
    Result,
    StaleDecision,
    WrongCount,
    is_option_id,
    ranks_from_scores,
)
from meeple_hall.games.core.engine import GameEngine
from meeple_hall.games.core.messages import Msg, Text
from meeple_hall.games.core.rng import Rng

__all__ = [
    "OPTION_ID",
    "Action",
    "Decision",
    "Engine",
    "GameEngine",
    "GameError",
    "GameOption",
    "GameOver",
    "IllegalAction",
    "Msg",
    "NotAChoice",
    "NotYourTurn",
    "Option",
    "RepeatedChoice",
    "Result",
    "Rng",
    "StaleDecision",
    "Text",
    "WrongCount",
    "is_option_id",
    "ranks_from_scores",
]
