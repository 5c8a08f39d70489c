"""AIs against each other: `meeple-hall arena --game G --players N --seats strong,good …`.

The levels in `--seats` are spread over the seats (repeated in turn when there are fewer
levels than seats) and rotated by one seat each game, so every level sits everywhere
equally often. Games run in parallel worker processes. A level's win rate is the share of
its seat-games that finished first; a first place shared by k seats counts 1/k to each
(ties broken by the game's own tie-breakers are not ties). The 95 % interval is Wilson's
score interval on that share. Solo games (one seat) have no winner: they report the
distribution of the level's scores (mean and quartiles) instead.
"""

from __future__ import annotations

import math
import multiprocessing
import statistics
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from meeple_hall import games
from meeple_hall.games.ai import levels
from meeple_hall.games.core import Action, GameError


@dataclass
class SeatResult:
    level: str
    score: int
    rank: int
    win: float  # 1/k for a first place shared by k seats, else 0
    times: list[float]  # wall-clock seconds per decision
    cpu: list[float] = field(default_factory=list)  # processor seconds per decision


@dataclass
class LevelStats:
    level: str
    games: int = 0
    wins: float = 0.0
    scores: list[int] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def add(self, seat: SeatResult) -> None:
        self.games += 1
        self.wins += seat.win
        self.scores.append(seat.score)
        self.ranks.append(seat.rank)
        self.times.extend(seat.times)
        self.cpu.extend(seat.cpu)


def lineup(seats: list[str], players: int, game: int) -> list[str]:
    """The level of each seat in game number `game` (0-based)."""
    spread = [seats[i % len(seats)] for i in range(max(players, len(seats)))]
    return [spread[(i + game) % len(spread)] for i in range(players)]


def play_one(
    game_id: str, players: int, seat_levels: list[str], seed: int, think: float
) -> list[SeatResult]:
    engine = games.get(game_id)
    state = engine.new(players, seed)
    times: list[list[float]] = [[] for _ in range(players)]
    cpu: list[list[float]] = [[] for _ in range(players)]
    move = 0
    while True:
        pending = engine.decisions(state)
        if not pending:
            break
        decision = pending[0]
        level = seat_levels[decision.seat]
        start, processor = time.perf_counter(), time.process_time()
        answer = levels.choose(engine, state, decision.seat, level, seed * 10_007 + move, think)
        times[decision.seat].append(time.perf_counter() - start)
        cpu[decision.seat].append(time.process_time() - processor)
        state = engine.apply(state, Action(decision.seat, answer))
        move += 1
    result = engine.result(state)
    assert result is not None
    firsts = len(result.winners)
    return [
        SeatResult(
            level=seat_levels[s],
            score=result.scores[s],
            rank=result.ranks[s],
            win=(1.0 / firsts) if result.ranks[s] == 1 else 0.0,
            times=times[s],
            cpu=cpu[s],
        )
        for s in range(players)
    ]


def run(
    game_id: str,
    players: int,
    seats: list[str],
    count: int,
    seed: int = 1,
    think: float = levels.DEFAULT_THINK,
    processes: int = 2,
) -> list[LevelStats]:
    """Play `count` games and gather each level's figures, in the order of `seats`."""
    engine = games.get(game_id)
    if not engine.min_players <= players <= engine.max_players:
        raise GameError(
            f"{engine.name} is for {engine.min_players}–{engine.max_players} players, not {players}"
        )
    for level in seats:
        if level not in levels.LEVELS:
            raise GameError(f"unknown AI level {level!r} (levels: {', '.join(levels.LEVELS)})")
        if level != "random":
            levels.strategy(game_id)  # no good player: say so before playing anything
    stats = {level: LevelStats(level) for level in seats}
    jobs = [(game_id, players, lineup(seats, players, g), seed + g, think) for g in range(count)]
    for outcome in _outcomes(jobs, processes):
        for seat in outcome:
            stats[seat.level].add(seat)
    return list(stats.values())


def _outcomes(jobs: list[tuple], processes: int) -> Iterator[list[SeatResult]]:
    if processes <= 1 or len(jobs) <= 1:
        yield from (play_one(*job) for job in jobs)
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=processes, mp_context=context) as pool:
        yield from pool.map(play_one, *zip(*jobs, strict=True))


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval for a proportion (95 % with z = 1.96)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    return max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[index]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def line(stats: LevelStats, solo: bool) -> str:
    timing = (
        f"decision p50 {_ms(percentile(stats.times, 0.5))} p95 {_ms(percentile(stats.times, 0.95))}"
    )
    if not stats.games:
        return f"{stats.level}: no games"
    if solo:
        q1, q2, q3 = (
            statistics.quantiles(stats.scores, n=4)
            if len(stats.scores) > 1
            else [float(stats.scores[0])] * 3
        )
        return (
            f"{stats.level}: solo score mean {statistics.fmean(stats.scores):.1f} "
            f"quartiles {q1:.1f} / {q2:.1f} / {q3:.1f} "
            f"min {min(stats.scores)} max {max(stats.scores)} over {stats.games} games "
            f"{timing}"
        )
    low, high = wilson(stats.wins, stats.games)
    return (
        f"{stats.level}: win {100 * stats.wins / stats.games:.1f} % "
        f"[{100 * low:.1f}–{100 * high:.1f}] "
        f"avg score {statistics.fmean(stats.scores):.1f} "
        f"avg rank {statistics.fmean(stats.ranks):.2f} "
        f"{timing} over {stats.games} seat-games"
    )
