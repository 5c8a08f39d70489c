"""How the bot closes, in order: it takes on nothing new (no timer fires, an interaction is
answered that the bot is restarting, a gateway event is let go), the work under way (a
move and its clocks, its table post, its DMs, a tournament step) is given `GRACE` seconds
to end and is cancelled after that, and only once every such task has ended are the
worker processes and the store closed. A task still using the store when it closed would
fail ("the store is not open") and log it, and an interaction it answered would tell the
player their move was not applied when it was."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable

log = logging.getLogger(__name__)

# What a closing bot gives the work under way (a table post retried after a Discord error
# pauses 1, 2 and 4 s); `docker stop` waits 10 s before killing.
GRACE = 5.0
# Cancelled work can set more going as it ends (a move's listeners): cancelled again, this
# many times at most.
CANCEL_ROUNDS = 3

Tasks = Callable[[], Iterable["asyncio.Task[object] | asyncio.Future[object] | None"]]


class UnderWay:
    """The tasks handling an interaction or a gateway event, and whether the bot is
    closing (then nothing new is taken on)."""

    def __init__(self) -> None:
        self.closing = False
        self._tasks: set[asyncio.Task[object]] = set()

    def join(self) -> bool:
        """Count the running task as work under way until it ends; False if the bot is
        closing (the caller takes nothing on)."""
        if self.closing:
            return False
        task = asyncio.current_task()
        if task is not None and task not in self._tasks:
            self.track(task)
        return True

    def track(self, task: asyncio.Task[object]) -> asyncio.Task[object]:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def tasks(self) -> list[asyncio.Task[object]]:
        return list(self._tasks)


def pending(tasks: Tasks) -> set[asyncio.Future[object]]:
    """The tasks `tasks` names now that have not ended, other than the caller's own."""
    current = asyncio.current_task()
    return {
        task for task in tasks() if task is not None and not task.done() and task is not current
    }


async def wind_down(tasks: Tasks, grace: float = GRACE) -> None:
    """Wait up to `grace` seconds for the work `tasks` names (asked again as it ends: work
    sets more going) to end, then cancel what is left and wait for it to end."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + grace
    while (left := pending(tasks)) and (remaining := deadline - loop.time()) > 0:
        await asyncio.wait(left, timeout=remaining)
    await cancel(tasks)


async def cancel(tasks: Tasks) -> None:
    """Cancel the work `tasks` names and wait for it to end (it is not retried)."""
    for _ in range(CANCEL_ROUNDS):
        left = pending(tasks)
        if not left:
            return
        for task in left:
            task.cancel()
        await asyncio.gather(*left, return_exceptions=True)
    if left := pending(tasks):
        log.warning("%d tasks were still under way when the bot closed", len(left))
