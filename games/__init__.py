"""Pure game rules behind one contract (see shared DESIGN.md, "The engine contract")."""

from meeple_hall.games.core import (
    Action,
    Decision,
    Engine,
    GameError,
    GameOption,
    IllegalAction,
    Option,
    Result,
)
from meeple_hall.games.registry import get, ids, register, unregister

__all__ = [
    "Action",
    "Decision",
    "Engine",
    "GameError",
    "GameOption",
    "IllegalAction",
    "Option",
    "Result",
    "get",
    "ids",
    "register",
    "unregister",
]
