"""The game review (games/ai/review.py) on seeded games the `good` AI plays in every seat:
how long a whole game's review takes, and how often the seat the review rated ahead at the
end of the first round / season (Keyflower) / phase (Burgundy) / period (Coffee Traders)
went on to win.

The agreement needs only the first period's decisions reviewed, each at the budget the
whole game's review gives it (`think_for` of the game's decision count), so it is measured
on more games than the timing. Run from the repository root, e.g.

    python bench/review.py --timing 1 --agreement 10 --players 2 3

and it prints one line per game and players, and the figures at the end.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from meeple_hall import games
from meeple_hall.games.ai import levels, mcts, review
from meeple_hall.games.core import Action

GAMES = ("burgundy", "coffee", "keyflower", "village")


def played(game_id: str, players: int, seed: int) -> tuple[list[review.Move], tuple[int, ...]]:
    """A seeded game of good players: its moves and its winners."""
    engine = games.get(game_id)
    state = engine.new(players, seed, {})
    policy, rng = levels.good_policy(game_id), random.Random(seed)
    moves: list[review.Move] = []
    while (result := engine.result(state)) is None:
        decision = engine.decisions(state)[0]
        answer = tuple(policy(state, decision, rng))
        moves.append((decision.seat, answer))
        state = mcts.step(engine, state, decision, answer)
    return moves, result.winners


def first_period_moves(game_id: str, players: int, seed: int, moves: list[review.Move]) -> int:
    """How many moves the game's first period lasts."""
    engine = games.get(game_id)
    state = engine.new(players, seed, {})
    first = review.period(game_id, state)
    for index, (seat, choices) in enumerate(moves):
        if review.period(game_id, state) != first:
            return index
        state = engine.apply(state, Action(seat, choices))
    return len(moves)


def timing(game_id: str, players: int, seed: int) -> tuple[float, int, float]:
    """A whole game's review: seconds, decisions reviewed, seconds per decision."""
    moves, _ = played(game_id, players, seed)
    start = time.perf_counter()
    done = review.review_game(game_id, players, seed, {}, moves)
    return time.perf_counter() - start, len(done.moves), done.think


def agreement(game_id: str, players: int, seed: int) -> bool | None:
    """Whether the seat rated ahead after the first period won (None: no verdict)."""
    moves, winners = played(game_id, players, seed)
    engine = games.get(game_id)
    setup = engine.new(players, seed, {})
    seats = frozenset(range(players))
    total = review.reviewed_decisions(engine, setup, moves, seats)
    cut = first_period_moves(game_id, players, seed, moves)
    budget = review.Budget(review.think_for(total))
    reviews, _, _ = review.review_moves(engine, setup, moves[:cut], 0, seats, budget, seed)
    summary = review.summarize(game_id, players, reviews, seats, None, budget.think)
    leader = review.leader_after(summary)
    return None if leader is None else leader in winners


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timing", type=int, default=1, help="whole reviews per game")
    parser.add_argument("--agreement", type=int, default=10, help="games per game and count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3])
    parser.add_argument("--games", nargs="+", default=list(GAMES))
    args = parser.parse_args()
    for game_id in args.games:
        for players in args.players:
            times = [timing(game_id, players, 1000 + n) for n in range(args.timing)]
            for seconds, decisions, think in times:
                print(
                    f"{game_id} {players}p: review {seconds:.0f} s, {decisions} decisions "
                    f"at {think:.2f} s",
                    flush=True,
                )
            verdicts = [agreement(game_id, players, 2000 + n) for n in range(args.agreement)]
            counted = [v for v in verdicts if v is not None]
            share = statistics.fmean(counted) if counted else float("nan")
            print(
                f"{game_id} {players}p: leader after the first period won "
                f"{sum(counted)}/{len(counted)} ({share:.0%}; chance {1 / players:.0%})",
                flush=True,
            )


if __name__ == "__main__":
    main()
