"""Pictures for each game, drawn only from an engine's `view()` (their words are in
bot/presenters).

A game's module `renderers/<game_id>.py` provides:

- `render(view: dict) -> PIL.Image.Image`: the table as a spectator sees it (no words:
  icons, colours and numbers; words belong to messages, which are localised);
- optionally `render_private(view: dict) -> PIL.Image.Image | None`: a picture of a seat's
  secrets (a screen, a hand of tiles) sent with `/hand` and the DMs.

Games without a module fall back to `renderers.generic`.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, Protocol

from PIL import Image


class Renderer(Protocol):
    def render(self, view: dict[str, Any]) -> Image.Image: ...


_OVERRIDES: dict[str, Any] = {}
_REGISTERED: dict[str, Any] = {}


def register(game_id: str, renderer: Any) -> None:
    """Use `renderer` (any object with the module functions above) for `game_id`."""
    _OVERRIDES[game_id] = renderer
    _REGISTERED[game_id] = renderer


def registered_at_run_time(game_id: str) -> bool:
    """Whether `game_id`'s renderer was given by `register` rather than found by its module
    name: another process (bot/render.py's picture workers) would not find it."""
    given = _REGISTERED.get(game_id)
    return given is not None and _OVERRIDES.get(game_id) is given


def for_game(game_id: str) -> Any:
    if game_id in _OVERRIDES:
        return _OVERRIDES[game_id]
    try:
        module: ModuleType = importlib.import_module(f"{__name__}.{game_id}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{game_id}":
            raise
        from meeple_hall.renderers import generic as module
    _OVERRIDES[game_id] = module
    return module


def render(game_id: str, view: dict[str, Any]) -> Image.Image:
    return for_game(game_id).render(view)


def render_private(game_id: str, view: dict[str, Any]) -> Image.Image | None:
    draw = getattr(for_game(game_id), "render_private", None)
    return draw(view) if draw is not None else None
