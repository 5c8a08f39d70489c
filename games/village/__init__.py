"""Village (Big Box): the base game for 2 to 5 players and the solo game against Karla."""

from meeple_hall.games.village.engine import VillageEngine

engine = VillageEngine()

__all__ = ["VillageEngine", "engine"]
