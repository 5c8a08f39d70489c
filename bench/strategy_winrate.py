"""Win rate of the `good` level against `random` seats, and its decision times.

One `good` seat against random others (meeple_hall.bot.ai.choose, the baseline), the good
seat rotated over all seats. Prints one line per player count: wins (ties for first count
as wins), average scores, and the good player's decision time p50/p95.

Run from the repository root: `python bench/strategy_winrate.py GAME [GAMES] [PLAYERS...]`,
e.g. `python bench/strategy_winrate.py burgundy 30 2 3 4`.
"""

from __future__ import annotations

import importlib
import random
import statistics
import sys
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
    game = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    counts = [int(n) for n in sys.argv[3:]] or [2, 3, 4]
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
