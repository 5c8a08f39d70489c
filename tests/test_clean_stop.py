"""A clean stop (issue 24), the parts under the playground: worker processes leave SIGINT
to their owner (a terminal's Ctrl+C reaches its whole foreground process group), and the
handler `meeple-hall` and `meeple-hall play` share turns Ctrl+C and SIGTERM alike into a
cancellation whose clean-up runs. The playground itself, stopped both ways as a real
subprocess, is in tests/playground/test_clean_stop.py.

Not tested here: `meeple-hall` itself (`serve_bot` inside `run_until_stopped`) needs
Discord's gateway; what it adds to the handler is `async with bot`, discord.py's own way of
closing a bot, whose `close` (the store, the AI workers) the playground runs on each stop.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from meeple_hall.games.ai.pool import QuietSpawnContext, Workers
from meeple_hall.stopping import run_until_stopped
from tests.playground.processes import descendants

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="signal masks; processes watched through /proc"
)
STARTUP_SECONDS = 120.0  # two shared cores, several test runs at once
STOP_SECONDS = 60.0


def sigint_blocked() -> bool:
    return signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())


def sigint_state() -> tuple[bool, bool]:
    """In a worker: whether SIGINT is ignored, and whether it is blocked."""
    return signal.getsignal(signal.SIGINT) == signal.SIG_IGN, sigint_blocked()


def report_sigint_blocked(queue: object) -> None:
    queue.put(sigint_blocked())  # type: ignore[attr-defined]


def test_workers_ignore_sigint():
    workers = Workers(1)
    try:
        assert workers.executor().submit(sigint_state).result(60) == (True, False)
    finally:
        workers.shutdown()


def test_a_worker_is_born_with_sigint_blocked():
    """Blocked from its first instruction, before the pool's initializer ignores it: a
    Ctrl+C while a worker is still starting up interrupts nothing. The parent's own mask
    is as it was."""
    context = QuietSpawnContext()
    queue = context.SimpleQueue()
    process = context.Process(target=report_sigint_blocked, args=(queue,))
    process.start()
    try:
        assert not sigint_blocked()
        assert queue.get() is True
    finally:
        process.join(60)
    assert process.exitcode == 0


STOPPABLE = textwrap.dedent(
    """
    import asyncio, time
    from meeple_hall.games.ai.pool import Workers
    from meeple_hall.stopping import run_until_stopped

    async def main():
        workers = Workers(1)
        try:
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(workers.executor(), time.sleep, 0)
            print("working", flush=True)
            await asyncio.Event().wait()
        finally:
            workers.shutdown()
            print("cleaned up", flush=True)

    if __name__ == "__main__":
        print("stopped" if run_until_stopped(main()) else "ended", flush=True)
    """
)


@pytest.mark.parametrize("to_group", [True, False], ids=["ctrl-c", "sigterm"])
def test_sigterm_runs_the_clean_up_of_what_it_stops(tmp_path, to_group):
    """The handler `meeple-hall` and `meeple-hall play` share, on a coroutine with a worker
    pool: Ctrl+C to the group and SIGTERM to the process alike cancel it, its `finally`
    runs, no traceback, no worker left."""
    script = tmp_path / "stoppable.py"
    script.write_text(STOPPABLE)
    out = tmp_path / "out.txt"
    with out.open("wb") as stdout:
        process = subprocess.Popen(
            [sys.executable, str(script)],
            stdout=stdout,
            stderr=subprocess.PIPE,
            start_new_session=True,
            cwd=Path(__file__).parent.parent,
        )
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while "working" not in out.read_text() and time.monotonic() < deadline:
            assert process.poll() is None, process.stderr.read()
            time.sleep(0.05)
        workers = [p for p in descendants(process.pid) if p.worker]
        assert len(workers) == 1
        if to_group:
            os.killpg(process.pid, signal.SIGINT)
        else:
            process.terminate()
        _, err = process.communicate(timeout=STOP_SECONDS)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 0 and b"Traceback" not in err, err.decode()
    assert out.read_text().split() == ["working", "cleaned", "up", "stopped"]
    assert [p for p in workers if p.running()] == []


def test_a_coroutine_that_ends_is_not_stopped():
    async def ends() -> None:
        return None

    assert run_until_stopped(ends()) is False
