"""Arena figures for the AI levels: `good` against `random` seats at 2, 3 and 4 players,
and `strong` against `good` at 2 players, for the games named (default: every game with a
`good` player). Each block prints the arena lines (see `meeple-hall arena`).

Run from the repository root, e.g.
`python bench/ai_levels.py --good-games 40 --strong-games 20 --think 0.5 burgundy coffee`.
The issue's targets: good wins ≥ 90 % against random seats; strong wins ≥ 60 % of
two-player games against good with decisions under 2.5 s (p95) at --think 2.
"""

from __future__ import annotations

import argparse
import time

from meeple_hall import games
from meeple_hall.games.ai import arena, levels


def with_good_player() -> list[str]:
    found = []
    for game_id in games.ids():
        try:
            levels.strategy(game_id)
        except levels.NoStrategy:
            continue
        found.append(game_id)
    return found


def block(
    game_id: str, players: int, seats: list[str], count: int, think: float, processes: int
) -> None:
    start = time.perf_counter()
    figures = arena.run(game_id, players, seats, count, seed=1, think=think, processes=processes)
    took = time.perf_counter() - start
    print(f"{game_id} {players}p, seats {','.join(seats)}, {count} games ({took:.0f} s):")
    for stats in figures:
        print("  " + arena.line(stats, solo=players == 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", help="game ids (default: all with a good player)")
    parser.add_argument("--good-games", type=int, default=40)
    parser.add_argument("--strong-games", type=int, default=20)
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--processes", type=int, default=2, help="games played at once")
    parser.add_argument("--skip-good", action="store_true")
    parser.add_argument("--skip-strong", action="store_true")
    args = parser.parse_args()
    for game_id in args.games or with_good_player():
        engine = games.get(game_id)
        if not args.skip_good:
            if engine.min_players == 1:
                block(game_id, 1, ["good", "random"], args.good_games, args.think, args.processes)
            for players in (2, 3, 4):
                if engine.min_players <= players <= engine.max_players:
                    seats = ["good"] + ["random"] * (players - 1)
                    block(game_id, players, seats, args.good_games, args.think, args.processes)
        if not args.skip_strong:
            block(game_id, 2, ["strong", "good"], args.strong_games, args.think, args.processes)


if __name__ == "__main__":
    main()
