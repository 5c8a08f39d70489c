"""A game in play as this process holds it: the table row, the engine's state, the move
number, who made each move, undo's history, the table's lock, and what was worked out from
the state while it is the state (decisions, views, panel lines).

A state is never changed in place, only replaced: the commit path (bot/commits.py) moves
`state` and `seq` on, the loader (bot/loading.py) builds a `LiveGame` from the log.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from meeple_hall.bot import presenters
from meeple_hall.bot.store import FinalResult, Table
from meeple_hall.games import Decision, Engine, Result
from meeple_hall.games.core import Text, undo

T = TypeVar("T")


def decision_hash(decision: Decision) -> str:
    """A short fingerprint of a decision: a panel built for it stays valid while it holds."""
    prompt = decision.prompt if isinstance(decision.prompt, str) else repr(decision.prompt)
    text = "|".join(
        [decision.kind, prompt, str(decision.min_choices), str(decision.max_choices)]
        + [o.id for o in decision.options]
    )
    return hashlib.blake2s(text.encode(), digest_size=4).hexdigest()


def final_ranks(ranks: tuple[int, ...], resigned: list[bool]) -> list[int]:
    """The engine's ranks, with every seat the AI played out placed below everyone who
    played on (`Seat.played_out`)."""
    keys = [(gave_up, rank) for rank, gave_up in zip(ranks, resigned, strict=True)]
    order = sorted(keys)
    return [order.index(key) + 1 for key in keys]


def final_result(result: Result, table: Table) -> FinalResult:
    return FinalResult(
        scores=tuple(result.scores),
        ranks=tuple(final_ranks(result.ranks, [s.played_out for s in table.seats])),
        breakdown=tuple(dict(b) for b in result.breakdown),
    )


@dataclass
class LiveGame:
    table: Table
    engine: Engine
    state: Any
    seq: int
    # seat of each action by sequence number, for the actions loaded or applied here
    acted: dict[int, int] = field(default_factory=dict)
    # the moves standing and the states an undo may return to (games/core/undo.py)
    history: undo.History = field(default_factory=undo.History)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    # what has been worked out from `state` (decisions, views, panel lines), kept while it
    # is the state: a state is never changed in place, only replaced
    _worked_out: tuple[Any, dict[Hashable, Any]] = field(
        default_factory=lambda: (None, {}), init=False, repr=False, compare=False
    )
    # the views of the state before it (an undo asks whether a move changed any seat's)
    _views_before: tuple[Any, dict[Hashable, Any]] = field(
        default_factory=lambda: (None, {}), init=False, repr=False, compare=False
    )

    @property
    def id(self) -> int:
        return self.table.id

    def worked_out(self, key: Hashable, work: Callable[[], T]) -> T:
        """`work()`, done once per state: asked again while the state is the same, the
        first answer is given (treat it as read-only)."""
        state, known = self._worked_out
        if state is not self.state:
            views: dict[Hashable, Any] = {
                k: v for k, v in known.items() if isinstance(k, tuple) and k[0] == "view"
            }
            self._views_before = (state, views)
            known = {}
            self._worked_out = (self.state, known)
        if key not in known:
            known[key] = work()
        answer: T = known[key]
        return answer

    def views(self, state: Any, seat: int | None) -> dict[str, Any]:
        """`engine.view(state, seat)`, kept for the state now and the one before it."""
        if state is self.state:
            return self.view(seat)
        for known_state, known in (self._worked_out, self._views_before):
            if known_state is state:
                if ("view", seat) not in known:
                    known[("view", seat)] = self.engine.view(state, seat)
                view: dict[str, Any] = known[("view", seat)]
                return view
        return self.engine.view(state, seat)

    def known(self, key: Hashable) -> Any:
        """What `worked_out` has for `key` in the state now, or None if nothing yet."""
        state, known = self._worked_out
        return known.get(key) if state is self.state else None

    def decisions(self) -> list[Decision]:
        return list(self.worked_out("decisions", lambda: self.engine.decisions(self.state)))

    def decision_for(self, seat: int) -> Decision | None:
        return next((d for d in self.decisions() if d.seat == seat), None)

    def result(self) -> Result | None:
        return self.engine.result(self.state)

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.worked_out(("view", seat), lambda: self.engine.view(self.state, seat))

    def private_text(self, seat: int) -> Text:
        """The seat's secrets in no language yet (`presenters.private_text` of its view),
        worked out once per state: its panel and its DM both show them."""
        return self.worked_out(
            ("private_text", seat),
            lambda: presenters.private_text(self.table.game, self.view(seat)),
        )

    def seat_of(self, user_id: int) -> int | None:
        return self.table.seat_of(user_id)

    def moved_on(self, seat: int, decision: Decision, seen_seq: int, seen_hash: str | None) -> bool:
        """Whether the table moved on from what the seat saw at `seen_seq`: a move made
        then is still taken only if only other seats moved since and `decision`, the seat's
        decision now, is still the one seen (simultaneous decisions)."""
        if seen_seq == self.seq:
            return False
        moved_since = [self.acted.get(s) for s in range(seen_seq + 1, self.seq + 1)]
        return (
            seen_seq > self.seq
            or seat in moved_since
            or None in moved_since
            or seen_hash != decision_hash(decision)
        )

    def still_holds(self, seat: int, seen_seq: int, seen_hash: str | None) -> bool:
        """Whether a move the seat made against the table at `seen_seq` may still be taken."""
        decision = self.decision_for(seat)
        return decision is not None and not self.moved_on(seat, decision, seen_seq, seen_hash)


Listener = Callable[[LiveGame], Awaitable[None]]
