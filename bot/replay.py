"""Positions of a game for the `/replay` viewer: the spectator's picture after each move.

Position 0 is the setup, position n the state after the n-th move still standing (undone
moves and undo entries are left out: the replay shows the game as it was played out). States
are rebuilt from the log with the engine contract, off the event loop, from the nearest of
the checkpoints kept every `CHECKPOINT_EVERY` positions, so stepping costs a few moves.
Only the spectator view (`view(state, None)`) is ever drawn: no secrets. A frame carries
the events its move added to the public log; what of the move itself may be shown is
bot/move_shown.py's rule.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from meeple_hall import games
from meeple_hall.bot import render
from meeple_hall.bot.move_shown import keeps_events, new_events
from meeple_hall.bot.store import LoggedAction, Table
from meeple_hall.games import Action, Engine
from meeple_hall.games.core.undo import standing

CHECKPOINT_EVERY = 20


@dataclass
class GameLine:
    """One game's standing moves and the states rebuilt so far, by position."""

    engine: Engine
    moves: list[LoggedAction]
    checkpoints: dict[int, Any] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def total(self) -> int:
        return len(self.moves)

    def state_at(self, pos: int) -> Any:
        with self.lock:
            start = max(p for p in self.checkpoints if p <= pos)
            state = self.checkpoints[start]
            for index in range(start, pos):
                move = self.moves[index]
                state = self.engine.apply(state, Action(move.seat, move.choices))
                if (index + 1) % CHECKPOINT_EVERY == 0:
                    self.checkpoints.setdefault(index + 1, state)
            return state


@dataclass(frozen=True)
class Frame:
    pos: int
    total: int
    move: LoggedAction | None  # the move that led here (None at the setup)
    png: bytes
    keeps_log: bool = False  # the game tells its moves in a public event log
    events: tuple[Any, ...] = ()  # the events the move added to that log


class ReplayBook:
    """The games being replayed, kept for a while (a few games, least recently used out)."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self._lines: OrderedDict[tuple[int, int], GameLine] = OrderedDict()

    def line(self, table: Table, log: list[LoggedAction]) -> GameLine:
        key = (table.id, log[-1].seq if log else 0)
        found = self._lines.get(key)
        if found is None:
            engine = games.get(table.game)
            found = GameLine(engine, standing(log))
            found.checkpoints[0] = engine.new(len(table.seats), table.seed, table.options)
            self._lines[key] = found
            while len(self._lines) > self.size:
                self._lines.popitem(last=False)
        self._lines.move_to_end(key)
        return found

    async def frame(self, table: Table, log: list[LoggedAction], pos: int) -> Frame:
        """The picture at `pos` (0 ≤ pos ≤ the number of standing moves)."""
        line = self.line(table, log)

        def draw() -> Frame:
            public = line.engine.view(line.state_at(pos), None)
            png = render.encode_png(table.game, public)
            if not pos:
                return Frame(pos, line.total, None, png, keeps_events(public))
            before = line.engine.view(line.state_at(pos - 1), None).get("log") or []
            added = new_events(before, public.get("log") or [])
            return Frame(
                pos, line.total, line.moves[pos - 1], png, keeps_events(public), tuple(added)
            )

        return await asyncio.to_thread(draw)
