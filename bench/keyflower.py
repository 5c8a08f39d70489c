"""Keyflower figures: a random full game at 4 players, moves per second, and the table and
private pictures in autumn and at the end.

Run from the repository root: `python bench/keyflower.py [seed]`.
"""

from game_figures import report, seed_from_argv

if __name__ == "__main__":
    report(
        "keyflower",
        4,
        seed_from_argv(),
        who="4 players",
        midgame="mid-game (autumn)",
        is_midgame=lambda state: state.season == 2,
    )
