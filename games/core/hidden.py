"""Chance and face-down components: what a move could reveal before it is made.

The bot tries typed moves on a copy of the state to suggest what comes next. It must not
show a player what a move would draw or turn over before the move is made. A game marks
the state fields holding face-down stacks, or saying which face-down tiles are turned up,
with `field(metadata=HIDDEN)`; every `Rng` in the state counts without a mark. A move
that changes any of them touches hidden information.
"""

from __future__ import annotations

import dataclasses
from types import MappingProxyType
from typing import Any

from games.core import serial
from games.core.rng import Rng

HIDDEN = MappingProxyType({"hidden": True})


def hidden_parts(state: Any) -> list[Any]:
    """The state's random generators and marked fields, in a stable order."""
    parts: list[Any] = []

    def walk(value: Any) -> None:
        if isinstance(value, Rng):
            parts.append(value.state)
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            for f in dataclasses.fields(value):
                item = getattr(value, f.name)
                if f.metadata.get("hidden"):
                    parts.append(serial.dumps(item))
                else:
                    walk(item)
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)

    walk(state)
    return parts
