"""Where a game's component tables are: `data/<game>/` in the repository, installed as the
`meeple_hall.data` package and read through importlib.resources, so they are found wherever
the package is installed."""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable


def game_data(game_id: str) -> Traversable:
    """The folder of `game_id`'s data files."""
    return files("meeple_hall.data") / game_id
