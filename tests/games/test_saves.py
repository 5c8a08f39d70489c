"""A save is the game (issue 24): at every state of random games of the four titles, at each
player count, a state loaded from its dump (and, every few states, from a dump written as
before dumps kept dict order) decides, shows and moves on as the live one does, and `apply`
refuses a decision that is not the state's own (games/testing.py: check_saves). The 17 games
take about 3 minutes (2 min 18 s of CPU); MEEPLE_SAVE_GAMES=N plays N games a player count."""

from __future__ import annotations

import os

import pytest

from meeple_hall import games
from meeple_hall.games.testing import check_saves

REAL_GAMES = ("burgundy", "coffee", "keyflower", "village")
# One game a player count by default; MEEPLE_SAVE_GAMES=N plays N (seeds 1..N).
GAMES = int(os.environ.get("MEEPLE_SAVE_GAMES", "1"))
COUNTS = [
    (game_id, players)
    for game_id in REAL_GAMES
    for players in range(games.get(game_id).min_players, games.get(game_id).max_players + 1)
]


@pytest.mark.parametrize(("game_id", "players"), COUNTS)
@pytest.mark.parametrize("seed", range(1, GAMES + 1))
def test_a_loaded_state_is_the_live_state_at_every_step(
    game_id: str, players: int, seed: int
) -> None:
    assert check_saves(games.get(game_id), players, seed) > 10
