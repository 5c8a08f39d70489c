"""Keyflower (R&D Games, 2012) for 2 to 6 players.

The package follows the rulebook, each decision a step (games/core/steps.py) beside the
rules it carries out: `seasons` (setup, start and end of season: winter tiles, boats,
Flipper), `turn` (a turn: bid, use or pass) over `placing` (the worker rules),
`production` (what tiles give), `transport` (moving resources and upgrades), `building`
(won tiles into the village) over `village` (hex placement, roads, rivers), `scoring` (end
scoring), `view` (what each seat sees); `offers` (how a step asks) and `engine` (the steps
asked now, phase by phase). Component tables are in data/keyflower.
"""

from meeple_hall.games.keyflower.engine import KeyflowerEngine

engine = KeyflowerEngine()

__all__ = ["KeyflowerEngine", "engine"]
