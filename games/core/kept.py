"""A value worked out from a state, kept for the states asked about last.

An engine's state is never changed once the engine has given it (a move makes a new one), so
what is worked out from it (the spectator's view, asked for by the table's picture, every
seat's DM and the Undo plan) can be kept per state object. A state is known by its identity,
checked through a weak reference so that a new state given a freed one's id is not taken
for it."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

S = TypeVar("S")
V = TypeVar("V")


class KeptPerState(Generic[S, V]):
    def __init__(self, most: int) -> None:
        self.most = most
        self._kept: dict[int, tuple[weakref.ref[S], V]] = {}

    def get(self, state: S, make: Callable[[S], V]) -> V:
        """`make(state)`, worked out once for this state while it is among the last `most`."""
        known = self._kept.get(id(state))
        if known is not None and known[0]() is state:
            return known[1]
        value = make(state)
        # single dict operations (no iteration over the dict itself): values may be asked
        # for from other threads (a review's replay)
        self._kept[id(state)] = (weakref.ref(state), value)
        for key in list(self._kept)[: -self.most]:
            self._kept.pop(key, None)
        return value

    def forget(self, state: S) -> None:
        """The state is about to change in place (a save's seat order restored)."""
        self._kept.pop(id(state), None)
