"""Shared fixtures: the Pebbles test game (and its picture) are registered for every test;
tests/postgres.py brings a real PostgreSQL server (postgres_server, postgres_url);
tests/slow_marks.py marks the repetitions the default run leaves out as slow."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path


def cache_bytecode() -> None:
    """Where the environment tells Python to write no bytecode (PYTHONDONTWRITEBYTECODE), the
    tests still keep it, outside the tree (PYTHONPYCACHEPREFIX, a folder under the system's
    temp dir): otherwise every xdist worker compiles the project and the tests (with their
    rewritten asserts) again at each run, about 15 s of CPU a worker, and every playground
    process the bot's modules. Set before anything of the project is imported; the workers
    and every process the tests start inherit it."""
    if not sys.dont_write_bytecode or sys.pycache_prefix:
        return
    prefix = str(Path(tempfile.gettempdir()) / "meeple-hall-pycache")
    sys.dont_write_bytecode = False
    sys.pycache_prefix = prefix
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = prefix


cache_bytecode()

from meeple_hall import games, renderers  # noqa: E402
from meeple_hall.bot import presenters  # noqa: E402
from tests import testgame_picture  # noqa: E402
from tests.testgame import draft  # noqa: E402
from tests.testgame import engine as pebbles  # noqa: E402

pytest_plugins = ["tests.postgres", "tests.slow_marks"]

games.register(pebbles)
games.register(draft)
renderers.register("pebbles", testgame_picture)
presenters.register("pebbles", testgame_picture)
