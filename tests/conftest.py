"""Shared fixtures: the Pebbles test game (and its picture) are registered for every test;
tests/postgres.py brings a real PostgreSQL server (postgres_server, postgres_url);
tests/slow_marks.py marks the repetitions the default run leaves out as slow; tests/bytecode.py
keeps the bytecode where the environment would not."""

from __future__ import annotations

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
