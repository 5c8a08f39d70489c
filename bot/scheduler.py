"""The one scheduler: every deadline, reminder and end of time away of every table.

A heap of (due time, key) and one asyncio timer for the earliest entry, so a thousand idle
tables cost one pending timer. Times come from `discord.utils.utcnow()` and the timer from
the event loop, so SimCord's virtual time drives it in tests. Nothing lives only here: the
owner re-arms every key from the store at start, and a key due in the past fires at once.

`at(key, when)` (re)schedules a key, `at(key, None)` cancels it; an entry superseded by a
later `at` stays in the heap and is skipped when it surfaces.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
from collections.abc import Awaitable, Callable, Hashable
from datetime import datetime

import discord

log = logging.getLogger(__name__)

Fire = Callable[[list[Hashable]], Awaitable[None]]


class Scheduler:
    def __init__(self, fire: Fire) -> None:
        self._fire = fire
        self._due: dict[Hashable, datetime] = {}
        self._heap: list[tuple[datetime, int, Hashable]] = []
        self._order = itertools.count()
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at: datetime | None = None
        self._task: asyncio.Task[None] | None = None
        self._running = False

    def __len__(self) -> int:
        return len(self._due)

    def when(self, key: Hashable) -> datetime | None:
        return self._due.get(key)

    def at(self, key: Hashable, when: datetime | None) -> None:
        if when is None:
            self._due.pop(key, None)
            return
        if self._due.get(key) == when:
            return
        self._due[key] = when
        heapq.heappush(self._heap, (when, next(self._order), key))
        if self._running:
            self._arm()

    def start(self) -> None:
        """Begin firing (at start, once everything is re-armed)."""
        self._running = True
        self._arm()

    def stop(self) -> None:
        """Fire nothing more (the bot is closing); a pass under way ends with the keys it
        took (`under_way`)."""
        self._running = False
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    @property
    def under_way(self) -> asyncio.Task[None] | None:
        """The pass firing keys now, if any."""
        return self._task

    def close(self) -> None:
        self.stop()
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def _earliest(self) -> datetime | None:
        while self._heap:
            when, _, key = self._heap[0]
            if self._due.get(key) == when:
                return when
            heapq.heappop(self._heap)  # superseded or cancelled
        return None

    def _arm(self) -> None:
        if self._task is not None:
            return  # the running pass re-arms when it ends
        when = self._earliest()
        if when == self._timer_at and self._timer is not None:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timer_at = when
        if when is None:
            return
        delay = max(0.0, (when - discord.utils.utcnow()).total_seconds())
        self._timer = asyncio.get_running_loop().call_later(delay, self._wake)

    def _wake(self) -> None:
        self._timer = None
        self._timer_at = None
        if self._running and self._task is None:
            self._task = asyncio.create_task(self._run(), name="scheduler")

    def pop_due(self, now: datetime) -> list[Hashable]:
        """Take every key due by `now` off the schedule, earliest first."""
        keys: list[Hashable] = []
        while (when := self._earliest()) is not None and when <= now:
            _, _, key = heapq.heappop(self._heap)
            del self._due[key]
            keys.append(key)
        return keys

    async def _run(self) -> None:
        try:
            while self._running:
                keys = self.pop_due(discord.utils.utcnow())
                if not keys:
                    break
                try:
                    await self._fire(keys)
                except Exception:
                    log.exception("scheduled work failed for %d keys", len(keys))
        finally:
            self._task = None
            if self._running:
                self._arm()
