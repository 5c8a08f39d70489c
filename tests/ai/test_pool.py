"""The AI's and the pictures' worker processes end with the process that started them."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

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
