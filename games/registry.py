"""The games the table can run. Each game package joins by exposing `engine`."""

from __future__ import annotations

import importlib
import pkgutil

from meeple_hall.games.core.contract import Engine, GameError

_ENGINES: dict[str, Engine] = {}
_NOT_GAMES = {"ai", "core", "testing", "registry"}
_discovered = False


def register(engine: Engine) -> Engine:
    """Add an engine (the four games join through discovery; tests add their own)."""
    _ENGINES[engine.id] = engine
    return engine


def unregister(game_id: str) -> None:
    _ENGINES.pop(game_id, None)


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    from meeple_hall import games

    for module in pkgutil.iter_modules(games.__path__):
        if module.ispkg and module.name not in _NOT_GAMES:
            package = importlib.import_module(f"{games.__name__}.{module.name}")
            register(package.engine)


def ids() -> list[str]:
    _discover()
    return sorted(_ENGINES)


def get(game_id: str) -> Engine:
    _discover()
    try:
        return _ENGINES[game_id]
    except KeyError:
        known = ", ".join(sorted(_ENGINES)) or "none"
        raise GameError(f"unknown game {game_id!r} (known: {known})") from None
