"""Coffee Traders (André Spil & Rolf Sagel, Capstone Games) for 2–5 players; two players
play a 3-player game against the automaton André."""

from meeple_hall.games.coffee.engine import CoffeeEngine

engine = CoffeeEngine()

__all__ = ["CoffeeEngine", "engine"]
