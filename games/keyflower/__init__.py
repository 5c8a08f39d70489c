"""Keyflower (R&D Games, 2012) for 2 to 6 players."""

from games.keyflower.engine import KeyflowerEngine

engine = KeyflowerEngine()

__all__ = ["KeyflowerEngine", "engine"]
