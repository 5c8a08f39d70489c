"""Shared fixtures: the Pebbles test game (and its picture) are registered for every test."""

from __future__ import annotations

from meeple_hall import games, renderers
from tests import testgame_picture
from tests.testgame import draft
from tests.testgame import engine as pebbles

games.register(pebbles)
games.register(draft)
renderers.register("pebbles", testgame_picture)
