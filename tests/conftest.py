"""Shared fixtures: the Pebbles test game (and its picture) are registered for every test;
tests/postgres.py brings a real PostgreSQL server (postgres_server, postgres_url);
tests/slow_marks.py marks the repetitions the default run leaves out as slow; tests/bytecode.py
keeps the bytecode where the environment would not; `-n auto` starts a test process more than
the cores."""

from __future__ import annotations

import os

import pytest

import tests.bytecode  # noqa: F401  (first: where `-p tests.bytecode` was not given)
from meeple_hall import games, renderers
from meeple_hall.bot import presenters
from tests import testgame_picture
from tests.testgame import draft
from tests.testgame import engine as pebbles

pytest_plugins = ["tests.postgres", "tests.slow_marks"]

games.register(pebbles)
games.register(draft)
renderers.register("pebbles", testgame_picture)
presenters.register("pebbles", testgame_picture)


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto` (pyproject.toml's addopts): one test process more than the cores this
    process may run on. A test spends about a fifth of its time waiting on other processes
    (picture and AI workers, the bot's processes, Chromium, PostgreSQL), when a process per
    core would leave its core idle: the default run on this 2-core machine took 290 s with
    two test processes and 274 s with three (session 15). PYTEST_XDIST_AUTO_NUM_WORKERS
    still decides where it is set (xdist's own hook reads it)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1
