"""A season that stops making progress can wait forever on an idle event loop (finding 7 in
SIMULATION_FINDINGS.md, fixed: a task waiting on a lock held by a task that sleeps between
retries, which SimCord's settle could not see past). So that such a hang cannot hold the
whole run until CI's limit, each season test has a limit in real seconds; past it the test
fails, saying so, and the run goes on."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from types import FrameType

import pytest

REAL_SECONDS = 420
SLOW_REAL_SECONDS = 2400  # a season whose games are played out and reviewed (marked slow)


@pytest.fixture(autouse=True)
def hang_limit(request: pytest.FixtureRequest) -> Iterator[None]:
    limit = SLOW_REAL_SECONDS if request.node.get_closest_marker("slow") else REAL_SECONDS

    def hung(signum: int, frame: FrameType | None) -> None:
        pytest.fail(
            f"{request.node.name} ran {limit} s of real time: a hang on an idle event "
            "loop, as finding 7 in SIMULATION_FINDINGS.md was?",
            pytrace=False,
        )

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(limit)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
