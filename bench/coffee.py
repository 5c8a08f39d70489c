"""Coffee Traders figures: a random full game at 4 players and a 2-player game against André,
moves per second, and the table and private pictures in 1975 and at the end.

Run from the repository root: `python bench/coffee.py [seed]`.
"""

from game_figures import report, seed_from_argv

if __name__ == "__main__":
    for players, who in ((4, "4 players"), (2, "2 players against André")):
        report(
            "coffee",
            players,
            seed_from_argv(),
            who=who,
            midgame="mid-game (1975)",
            is_midgame=lambda state: state.period == 2,
        )
