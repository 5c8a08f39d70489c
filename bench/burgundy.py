"""The Castles of Burgundy figures: a random full game (4 players, or as given), moves per
second, and the table and private pictures in phase C and at the end.

Run from the repository root: `python bench/burgundy.py [seed] [players]`.
"""

import sys

from game_figures import report, seed_from_argv

if __name__ == "__main__":
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    report(
        "burgundy",
        players,
        seed_from_argv(),
        who=f"{players} players",
        midgame="mid-game (phase C)",
        is_midgame=lambda state: state.phase == 2,
    )
