"""Sending to Discord so that nothing is lost: a post, an edit or a DM that fails on a
server error (5xx), a rate limit (429) or a timeout is tried again after a growing pause
(as long as Discord asks after a 429, when it says). What still fails after the last try is
raised for the caller, which keeps it and tries again on its next tick (`Redelivery`):
whose turn it is always reaches the table and the player, possibly late, never lost.

Errors that another try cannot mend (a message or channel gone, no permission, a bad
request) are raised at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Hashable
from datetime import datetime, timedelta
from typing import TypeVar

import aiohttp
import discord
from discord.ext import tasks

from meeple_hall.bot.scheduler import Scheduler

log = logging.getLogger(__name__)

T = TypeVar("T")

TRIES = 4
FIRST_PAUSE = 1.0  # seconds before the second try; doubled before each next one
LONGEST_PAUSE = 60.0
LATER = (timedelta(minutes=1), timedelta(minutes=5), timedelta(minutes=15))  # then every 15


def transient(exc: BaseException) -> bool:
    """A failure that the same request may not meet again."""
    if isinstance(exc, discord.HTTPException):
        return exc.status >= 500 or exc.status == 429
    return isinstance(exc, asyncio.TimeoutError | aiohttp.ClientError | ConnectionError)


def pause_after(exc: BaseException, tries: int) -> float:
    """How long to wait before the next try: what a 429 asks, else a doubling pause."""
    asked = getattr(exc, "retry_after", None)  # discord.RateLimited
    response = getattr(exc, "response", None)
    header = getattr(response, "headers", {}).get("Retry-After") if response else None
    if asked is None and header is not None:
        try:
            asked = float(header)
        except ValueError:
            asked = None
    if asked is not None:
        return min(float(asked), LONGEST_PAUSE)
    return min(FIRST_PAUSE * 2 ** (tries - 1), LONGEST_PAUSE)


async def retried(send: Callable[[], Awaitable[T]], what: str) -> T:
    """`send()`, tried up to TRIES times while it fails transiently."""
    for tries in range(1, TRIES + 1):
        try:
            return await send()
        except Exception as exc:
            if tries == TRIES or not transient(exc):
                raise
            pause = pause_after(exc, tries)
            log.warning("%s failed (%s); try %d in %.1f s", what, exc, tries + 1, pause)
            await wait(pause)
    raise AssertionError("unreachable")


async def _no_work() -> None:
    pass


async def wait(seconds: float) -> None:
    """Wait `seconds`, on discord.py's timer: one turn of a `discord.ext.tasks` loop, which
    sleeps `seconds` after its body. In a process it is `asyncio.sleep(seconds)`; under SimCord
    (the bot tests, the simulator) only virtual time (`advance_time`) ends it, as it ends every
    wait of discord.py's own, where a bare `asyncio.sleep` of the bot's is ended by real time
    (a real second for a virtual one)."""
    if seconds > 0:
        await tasks.loop(seconds=seconds, count=1)(_no_work).start()


class Redelivery:
    """What failed to go out, tried again later: once after LATER[0], then after each next
    pause of LATER, until it goes out. `again(key)` (re)schedules a key; `done(key)` clears
    it; `resend(keys)` is the owner's, and calls `again` for what fails once more."""

    def __init__(self, resend: Callable[[list[Hashable]], Awaitable[None]]) -> None:
        self.failures: dict[Hashable, int] = {}
        self.scheduler = Scheduler(resend)

    def start(self) -> None:
        self.scheduler.start()

    def close(self) -> None:
        self.scheduler.close()

    def again(self, key: Hashable) -> None:
        count = self.failures.get(key, 0)
        self.failures[key] = count + 1
        pause = LATER[min(count, len(LATER) - 1)]
        self.scheduler.at(key, discord.utils.utcnow() + pause)

    def at(self, key: Hashable, when: datetime) -> None:
        """Send `key` at `when` (held back, not failed: a player's quiet hours)."""
        self.scheduler.at(key, when)

    def done(self, key: Hashable) -> None:
        self.failures.pop(key, None)
        self.scheduler.at(key, None)

    def pending(self) -> list[Hashable]:
        return list(self.failures)
