"""`strong` against `good` at the target's think time: a queue of arena games over several
blocks (game, players), interleaved so that every block has games when the run is stopped.

A `strong` game takes minutes (100–150 decisions a seat at up to 2 s), so a run of the
whole target takes hours. Each game is the arena's own (`arena.play_one` with the lineup
and seed `meeple-hall arena --seed 1` gives game number g), played on a pool of worker
processes, and appended to a JSON-lines file as it ends; `--summary` prints each block's
arena lines from that file at any time, whether the run is still going or was stopped, and
a new run on the same file plays only the games it does not hold yet.

Run from the repository root, e.g.
`python bench/ai_strong.py --out /tmp/strong.jsonl --games 12 --think 2` (2p blocks for
all four games, 3p and 4p for Coffee Traders and Village) and later
`python bench/ai_strong.py --out /tmp/strong.jsonl --summary`.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor, as_completed

from meeple_hall.games.ai import arena

TWO_PLAYER = ("burgundy", "keyflower", "coffee", "village")
MORE_PLAYERS = (("coffee", 3), ("village", 3), ("coffee", 4), ("village", 4))


def seats_for(players: int) -> list[str]:
    return ["strong"] + ["good"] * (players - 1)


def queue(games: int, think: float) -> list[tuple[tuple, tuple[str, int, int]]]:
    """(arena job, (game, players, number)), game number g of every block before g + 1."""
    jobs = []
    blocks = [(g, 2) for g in TWO_PLAYER] + list(MORE_PLAYERS)
    for number in range(games):
        for game_id, players in blocks:
            seats = arena.lineup(seats_for(players), players, number)
            jobs.append(((game_id, players, seats, 1 + number, think), (game_id, players, number)))
    return jobs


def play(job: tuple) -> tuple[list[dict], float]:
    start = time.perf_counter()
    outcome = arena.play_one(*job)
    seats = [
        {"level": s.level, "score": s.score, "rank": s.rank, "win": s.win, "times": s.times}
        for s in outcome
    ]
    return seats, time.perf_counter() - start


def finished(out: str) -> set[tuple[str, int, int]]:
    """The games the file already holds (a run goes on where a stopped one left off)."""
    try:
        with open(out) as source:
            records = [json.loads(raw) for raw in source]
    except FileNotFoundError:
        return set()
    return {(r["game"], r["players"], r["g"]) for r in records}


def run(out: str, games: int, think: float, processes: int) -> None:
    done = finished(out)
    jobs = [(job, tag) for job, tag in queue(games, think) if tag not in done]
    context = multiprocessing.get_context("spawn")
    with (
        ProcessPoolExecutor(max_workers=processes, mp_context=context) as pool,
        open(out, "a") as sink,
    ):
        futures = {pool.submit(play, job): tag for job, tag in jobs}
        for future in as_completed(futures):
            game_id, players, number = futures[future]
            seats, seconds = future.result()
            record = {"game": game_id, "players": players, "g": number, "secs": seconds}
            sink.write(json.dumps({**record, "seats": seats}) + "\n")
            sink.flush()


def summary(out: str) -> None:
    blocks: dict[tuple[str, int], dict[str, arena.LevelStats]] = defaultdict(dict)
    seconds: dict[tuple[str, int], list[float]] = defaultdict(list)
    with open(out) as source:
        for raw in source:
            record = json.loads(raw)
            key = (record["game"], record["players"])
            seconds[key].append(record["secs"])
            for s in record["seats"]:
                stats = blocks[key].setdefault(s["level"], arena.LevelStats(s["level"]))
                stats.add(arena.SeatResult(s["level"], s["score"], s["rank"], s["win"], s["times"]))
    for key in sorted(blocks):
        game_id, players = key
        took = statistics.fmean(seconds[key]) / 60
        print(f"{game_id} {players}p: {len(seconds[key])} games, {took:.1f} min a game")
        for level in ("strong", "good"):
            if level in blocks[key]:
                print("  " + arena.line(blocks[key][level], solo=False))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", required=True, help="JSON-lines file of finished games")
    parser.add_argument("--games", type=int, default=12, help="games per block")
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--summary", action="store_true", help="only print the figures")
    args = parser.parse_args()
    if not args.summary:
        run(args.out, args.games, args.think, args.processes)
    summary(args.out)


if __name__ == "__main__":
    main()
