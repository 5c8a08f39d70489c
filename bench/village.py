"""Village figures: a random full game at 4 players and a solo game against Karla, moves per
second, and the table and private pictures in round 4 and at the end.

Run from the repository root: `python bench/village.py [seed]`.
"""

from game_figures import report, seed_from_argv

if __name__ == "__main__":
    for players, who in ((4, "4 players"), (1, "solo against Karla")):
        report(
            "village",
            players,
            seed_from_argv(),
            who=who,
            midgame="mid-game (round 4)",
            is_midgame=lambda state: state.round == 4,
        )
