"""The AI's and the pictures' worker processes end with the process that started them."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from meeple_hall.games.ai.pool import spawn_pool

OWNER = """
import os, signal, sys
from meeple_hall.games.ai.pool import spawn_pool

pool = spawn_pool(2)
pids = {pool.submit(os.getpid).result() for _ in range(8)}
print(" ".join(map(str, sorted(pids))), flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # no clean-up of any kind runs
"""


def alive(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status")
    try:
        state = next(line for line in status.read_text().splitlines() if line.startswith("State"))
    except (FileNotFoundError, ProcessLookupError):
        return False
    return "zombie" not in state and "(Z)" not in state


def test_workers_end_when_their_owner_is_killed() -> None:
    owner = subprocess.run(
        [sys.executable, "-c", OWNER], capture_output=True, text=True, timeout=60
    )
    assert owner.returncode == -9
    workers = [int(pid) for pid in owner.stdout.split()]
    assert workers and all(pid != os.getpid() for pid in workers)
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in workers)


def faults_of_allocating_again(megabytes: int, times: int) -> int:
    """A worker's minor page faults while it allocates, touches and frees `megabytes` of
    memory `times` over, after doing it once."""
    import resource

    block = bytearray(megabytes << 20)  # zero-filled: every page touched
    del block
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(times):
        block = bytearray(megabytes << 20)
        del block
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_a_worker_keeps_the_memory_it_frees_for_its_next_pictures() -> None:
    """40 MB (more than glibc's largest dynamic mmap threshold) freed and asked for again:
    mapped afresh each time (every page a fault, 10,240 a time) unless the worker keeps what
    it frees (`pool.keep_freed_memory`)."""
    pool = spawn_pool(1)
    try:
        faults = pool.submit(faults_of_allocating_again, 40, 5).result(timeout=60)
    finally:
        pool.shutdown()
    assert faults < 5 * (40 << 20) // resource.getpagesize() // 10
