"""AI moves in worker processes, so the bot's event loop answers clicks while AIs think.

`await choose_in_pool(game_id, state_dump, seat, level, seed, think)` sends the dumped
state to a worker process, which loads it and asks `levels.choose`. The pool starts on first
use with the `spawn` method (a fork of a process running asyncio and database threads is
unsafe) and is shut down with `shutdown()`.

Workers leave Ctrl+C to their owner: a terminal sends SIGINT to its whole foreground
process group, workers included, and each would print a KeyboardInterrupt traceback. They
are born with SIGINT blocked and ignore it from their first step on; the owner stops them.

`WorkerPool` is the same thing as an object of its own, for an owner that starts and stops
its pool with itself (the bot's TableManager): stopping one owner's pool never cancels
another's work.
"""

from __future__ import annotations

import ctypes
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import process as process_futures
from multiprocessing import resource_tracker
from multiprocessing.context import SpawnContext, SpawnProcess

from meeple_hall import games
from meeple_hall.games.ai import levels


def workers() -> int:
    """One process per core but one, at least one: the bot keeps a core for itself."""
    return max(1, (os.cpu_count() or 2) - 1)


class QuietSpawnProcess(SpawnProcess):
    """A spawned process born with SIGINT blocked (a signal mask survives fork and exec): a
    Ctrl+C while it is still importing, before `start_worker` runs, waits blocked and is
    then discarded by `ignore_interrupts`. The owner's SIGINT is not lost: another of its
    threads takes it, or it is delivered once the mask is restored."""

    def start(self) -> None:
        if not hasattr(signal, "pthread_sigmask"):  # Windows: no signal masks
            super().start()
            return
        # Started first: starting it unblocks SIGINT (multiprocessing.resource_tracker).
        resource_tracker.ensure_running()
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            super().start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)


class QuietSpawnContext(SpawnContext):
    Process = QuietSpawnProcess


def spawn_pool(max_workers: int, niceness: int = 0) -> ProcessPoolExecutor:
    """A pool of `spawn`ed workers that leave Ctrl+C to the process that started them and
    end when it is gone; `niceness` lowers their priority below their owner's."""
    return ProcessPoolExecutor(
        max_workers=max_workers,
        mp_context=QuietSpawnContext(),
        initializer=start_worker,
        initargs=(os.getpid(), niceness),
    )


def start_worker(parent: int, niceness: int = 0) -> None:
    """A worker's first step; `niceness` lowers its priority (the review worker's). A
    spawned worker imports the module of every function it runs, this one's too: pool.py
    imports nothing of the bot's Discord side (issues 27 and 29)."""
    ignore_interrupts()
    follow_parent(parent)
    keep_freed_memory()
    if niceness:
        os.nice(niceness)


# glibc's mallopt parameters, and what a worker asks of them (`keep_freed_memory`)
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
MMAP_THRESHOLD = 256 << 20
TRIM_THRESHOLD = 512 << 20


def keep_freed_memory() -> None:
    """Memory a worker frees is kept for its next pictures, not given back to the system:
    glibc maps every allocation of more than 32 MiB afresh (and any over its dynamic threshold)
    and returns freed memory at the top of its heap, so each picture's 1-5 MB images and
    buffers cost page faults again (about 40 % of a picture worker's minor faults;
    bench/README.md, "The pictures' memory kept in the worker"). A worker's memory then
    stays near its peak (tens of MiB). Not glibc (musl, macOS): nothing to do."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (AttributeError, OSError):
        return
    mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)


def ignore_interrupts() -> None:
    """SIGINT is the owner's to handle: it stops its workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def follow_parent(parent: int) -> None:
    """End this worker once `parent` is gone. A pool shuts its workers down when its owner
    stops, but an owner killed outright (SIGKILL, the OOM killer) runs no clean-up: its
    workers would live on, holding its output pipes and memory."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="follow-parent", daemon=True).start()


class Workers:
    """Worker processes started on first use (`spawn_pool`), `max_workers` of them (else
    `workers()`), `niceness` below their owner's priority, until `shutdown`."""

    def __init__(self, max_workers: int | None = None, niceness: int = 0) -> None:
        self.max_workers = max_workers
        self.niceness = niceness
        self._executor: ProcessPoolExecutor | None = None

    def size(self) -> int:
        return self.max_workers or workers()

    def executor(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = spawn_pool(self.size(), self.niceness)
        return self._executor

    def shutdown(self) -> None:
        """Stop the workers; work not yet started is cancelled, work running is dropped."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            # The shutdown has woken the executor's manager thread, which closes its wakeup
            # pipe as it ends; at interpreter exit concurrent.futures would write to that
            # pipe again, racing the close (CPython 3.11: "Exception ignored ... Bad file
            # descriptor"). Threading still joins the thread at exit.
            manager = getattr(self._executor, "_executor_manager_thread", None)
            if manager is not None:
                process_futures._threads_wakeups.pop(manager, None)
            self._executor = None


class WorkerPool(Workers):
    """Worker processes that answer AI decisions; started on first use."""

    async def __call__(
        self,
        game_id: str,
        state_dump: str,
        seat: int,
        level: str,
        seed: int,
        think: float = levels.DEFAULT_THINK,
    ) -> tuple[str, ...]:
        """The level's answer for `seat`, worked out in a worker process."""
        if level not in levels.LEVELS:
            raise games.GameError(
                f"unknown AI level {level!r} (levels: {', '.join(levels.LEVELS)})"
            )
        # imported here: every worker process imports this module (`start_worker`), and
        # a picture worker has no other use for asyncio (65 ms of processor time at start)
        import asyncio

        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self.executor(), choose_from_dump, game_id, state_dump, seat, level, seed, think
        )


_pool = WorkerPool()


def choose_from_dump(
    game_id: str, state_dump: str, seat: int, level: str, seed: int, think: float
) -> tuple[str, ...]:
    """What runs in the worker: load the state and ask the level."""
    engine = games.get(game_id)
    return levels.choose(engine, engine.load(state_dump), seat, level, seed, think)


async def choose_in_pool(
    game_id: str,
    state_dump: str,
    seat: int,
    level: str,
    seed: int,
    think: float = levels.DEFAULT_THINK,
) -> tuple[str, ...]:
    """The level's answer for `seat`, worked out in a worker process of the shared pool."""
    return await _pool(game_id, state_dump, seat, level, seed, think)


def shutdown() -> None:
    _pool.shutdown()
