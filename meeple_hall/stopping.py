"""How `meeple-hall` and `meeple-hall play` stop: on Ctrl+C (SIGINT) and on SIGTERM (what
`kill`, systemd or Docker send) alike, the running coroutine is cancelled, so its own
clean-up runs (the store closed, the worker processes stopped), and nothing prints a
traceback. The worker processes ignore SIGINT themselves (games/ai/pool.py).

asyncio is imported where it runs: a worker process of the `meeple-hall` command runs that
script's imports again (`multiprocessing`'s spawn), this module's among them, and a picture
worker has no other use for asyncio (about 65 ms of processor time at its start)."""

from __future__ import annotations

import signal
from collections.abc import Coroutine
from typing import Any


def run_until_stopped(main: Coroutine[Any, Any, None]) -> bool:
    """Run `main` to its end; True if Ctrl+C or SIGTERM stopped it first."""
    import asyncio

    try:
        asyncio.run(cancelled_on_sigterm(main))
    except (KeyboardInterrupt, asyncio.CancelledError):
        return True
    return False


async def cancelled_on_sigterm(main: Coroutine[Any, Any, None]) -> None:
    """`main`, cancelled by SIGTERM as asyncio.run cancels it on Ctrl+C."""
    import asyncio

    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    try:
        loop.add_signal_handler(signal.SIGTERM, task.cancel)
    except NotImplementedError:  # Windows' event loops take no signal handlers
        await main
        return
    try:
        await main
    finally:
        loop.remove_signal_handler(signal.SIGTERM)
