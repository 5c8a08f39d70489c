"""A value worked out from a state, kept for the states asked about last.

An engine's state is never changed once the engine has given it (a move makes a new one), so
what is worked out from it (the spectator's view, asked for by the table's picture, every
seat's DM and the Undo plan) can be kept per state object. A state is known by its identity,
checked through a weak reference so that a new state given a freed one's id is not taken
for it."""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

from meeple_hall.games.core.engine import GameEngine

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


class SpectatorsViewKept(GameEngine[S]):
    """An engine whose seats see the spectator's view with their own part added (`you`):
    the table's picture, the DMs and the Undo plan ask for every seat's view of a state, so
    the spectator's is worked out once for the states viewed last (`VIEWS_KEPT`). The seats'
    views share its parts: views are read-only."""

    # the table's state now and the one before, a move's steps: `GameEngine.reveals`
    # compares each one's views with the state before it
    VIEWS_KEPT: ClassVar[int] = 8

    def spectators_view(self, state: S) -> dict[str, Any]:
        raise NotImplementedError

    def own_part(self, state: S, seat: int) -> Any:
        """What `seat` sees that others do not, under the view's `you`."""
        raise NotImplementedError

    @functools.cached_property
    def _spectators(self) -> KeptPerState[S, dict[str, Any]]:
        return KeptPerState(self.VIEWS_KEPT)

    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        out = dict(self._spectators.get(state, self.spectators_view))
        if seat is not None:
            out["you"] = self.own_part(state, seat)
        return out

    def restore_order(self, state: S) -> None:
        """As every game's; the view it reads the player count from is of the state before
        its order is restored, and is not kept."""
        super().restore_order(state)
        self._spectators.forget(state)
