"""Chance and face-down components: what a move could reveal before it is made.

The bot tries typed moves on a copy of the state to suggest what comes next. It must not
show a player what a move would draw or turn over before the move is made. A game marks
the state fields holding face-down stacks with `field(metadata=HIDDEN)`, and the public
fields saying which face-down tiles are turned up with `field(metadata=TURNED_UP)`; every
`Rng` in the state counts without a mark. A move that changes any of them touches hidden
information. Fields marked HIDDEN never appear in a view (games.testing checks it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from types import MappingProxyType
from typing import Any

from meeple_hall.games.core import serial
from meeple_hall.games.core.rng import Rng

HIDDEN = MappingProxyType({"hidden": "face-down"})
TURNED_UP = MappingProxyType({"hidden": "turned-up"})


def hidden_parts(state: Any) -> list[str]:
    """Every generator's state and every marked field, to compare before and after a move."""
    return [serial.dumps(value) for _, value in _marked(state)]


def secrets(state: Any) -> list[Any]:
    """What no view may show: the generators' states and the fields marked HIDDEN."""
    return [serial.encode(value) for mark, value in _marked(state) if mark != "turned-up"]


def _marked(state: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(state, Rng):
        yield "rng", state.state
    elif dataclasses.is_dataclass(state) and not isinstance(state, type):
        for f in dataclasses.fields(state):
            item = getattr(state, f.name)
            mark = f.metadata.get("hidden")
            if mark:
                yield mark, item
            else:
                yield from _marked(item)
    elif isinstance(state, list | tuple):
        for item in state:
            yield from _marked(item)
    elif isinstance(state, dict):
        for item in state.values():
            yield from _marked(item)
