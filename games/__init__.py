"""Pure game rules behind one contract (see shared DESIGN.md, "The engine contract")."""

from meeple_hall.games.core import (
    Action,
    Decision,
    Engine,
    GameError,
    GameOption,
    IllegalAction,
    Msg,
    Option,
    Result,
    Text,
)
from meeple_hall.games.registry import get, ids, register, unregister

__all__ = [
    "Action",
    "Decision",
    "Engine",
    "GameError",
    "GameOption",
    "IllegalAction",
    "Msg",
    "Option",
    "Result",
    "Text",
    "get",
    "ids",
    "register",
    "unregister",
]
