"""The Castles of Burgundy (alea 2011) for 2 to 4 players."""

from meeple_hall.games.burgundy.engine import BurgundyEngine

engine = BurgundyEngine()

__all__ = ["engine"]
