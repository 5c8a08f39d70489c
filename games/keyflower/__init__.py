"""Keyflower (R&D Games, 2012) for 2 to 6 players.

The package follows the rulebook: `seasons` (setup, start of season, end of season, boats),
`placing` (bidding and the worker rules), `production` (what tiles give), `transport`
(moving resources and upgrades), `village` (hex placement, roads, rivers), `scoring` (end
scoring), `view` (what each seat sees) and `engine` (the decisions of each step).
Component tables are in data/keyflower.
"""

from meeple_hall.games.keyflower.engine import KeyflowerEngine

engine = KeyflowerEngine()

__all__ = ["KeyflowerEngine", "engine"]
