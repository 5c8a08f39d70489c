"""Win rate of the `good` level against `random` seats, and its decision times.

One `good` seat against random others (meeple_hall.bot.ai.choose, the baseline), the good
seat rotated over all seats. Prints one line per player count: wins (ties for first count
as wins), average scores, and the good player's decision time p50/p95.

Run from the repository root: `python bench/strategy_winrate.py GAME [--games N]
[--players 2 3 4]`. `meeple-hall arena` measures the same through the AI framework (with
determinized states); this script calls the strategy on the real state, which is quicker.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import time

from meeple_hall import games
from meeple_hall.bot import ai
from meeple_hall.games import Action


def play(game: str, players: int, seed: int, good_seat: int, times: list[float]) -> tuple:
    engine = games.get(game)
    strategy = importlib.import_module(f"meeple_hall.games.{game}.strategy")
    state = engine.new(players, seed)
    rng = random.Random(seed)
    seq = 0
    while True:
        pending = engine.decisions(state)
        if not pending:
            break
        for decision in pending:
            if decision.seat == good_seat:
                start = time.perf_counter()
                picked = strategy.choose(state, decision, rng)
                times.append(time.perf_counter() - start)
            else:
                picked = ai.choose(decision, seed, seq)
            state = engine.apply(state, Action(decision.seat, picked))
            seq += 1
    return engine.result(state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=["keyflower", "burgundy"])
    parser.add_argument("--games", type=int, default=30, help="games per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    args = parser.parse_args()
    game, count, counts = args.game, args.games, args.players
    for players in counts:
        times: list[float] = []
        wins = 0
        good_scores, other_scores = [], []
        for g in range(count):
            seat = g % players
            result = play(game, players, 1000 + g, seat, times)
            wins += result.ranks[seat] == 1
            good_scores.append(result.scores[seat])
            other_scores += [s for i, s in enumerate(result.scores) if i != seat]
        q = statistics.quantiles(times, n=20)
        print(
            f"{game} {players}p: good wins {wins}/{count} ({100 * wins / count:.0f} %); "
            f"average score good {statistics.mean(good_scores):.1f}, "
            f"random {statistics.mean(other_scores):.1f}; decision time "
            f"p50 {1000 * statistics.median(times):.1f} ms, p95 {1000 * q[18]:.1f} ms, "
            f"max {1000 * max(times):.1f} ms ({len(times)} decisions)"
        )


if __name__ == "__main__":
    main()
