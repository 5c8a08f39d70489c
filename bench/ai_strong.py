"""`strong` against `good` at the target's think time: a queue of arena games over several
blocks (game, players), interleaved so that every block has games when the run is stopped.

A `strong` game takes minutes (100–150 decisions a seat at up to 2 s), so a run of the
whole target takes hours. Each game is the arena's own (`arena.play_one` with the lineup
and seed `meeple-hall arena --seed 1` gives game number g), played on a pool of worker
processes, and appended to a JSON-lines file as it ends; `--summary` prints each block's
arena lines from that file at any time, whether the run is still going or was stopped, and
a new run on the same file plays only the games it does not hold yet.

Run from the repository root, e.g.
`python bench/ai_strong.py --out /tmp/strong.jsonl --games 12 --think 2 --blocks 2p` (the
four games at 2 players), then the same with `--blocks more` (all four at 3 and 4 players),
and at any time `python bench/ai_strong.py --out /tmp/strong.jsonl --summary [--paired]`
(`--paired` also plays each deal with good in every seat, to set strong's result against
good's in the same seat on the same deal).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import subprocess
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor, as_completed

from meeple_hall.games.ai import arena

TWO_PLAYER = ("burgundy", "keyflower", "coffee", "village")
MORE_PLAYERS = tuple((g, n) for n in (3, 4) for g in ("coffee", "village", "keyflower", "burgundy"))
BLOCKS = {
    "2p": [(g, 2) for g in TWO_PLAYER],
    "more": list(MORE_PLAYERS),
    "all": [(g, 2) for g in TWO_PLAYER] + list(MORE_PLAYERS),
}
SLOW = 2.5  # seconds: the target's bound on a strong decision at the default budget


def seats_for(players: int) -> list[str]:
    return ["strong"] + ["good"] * (players - 1)


def queue(
    games: int, think: float, blocks: list[tuple[str, int]]
) -> list[tuple[tuple, tuple[str, int, int]]]:
    """(arena job, (game, players, number)), game number g of every block before g + 1."""
    jobs = []
    for number in range(games):
        for game_id, players in blocks:
            seats = arena.lineup(seats_for(players), players, number)
            jobs.append(((game_id, players, seats, 1 + number, think), (game_id, players, number)))
    return jobs


def play(job: tuple) -> tuple[list[dict], float, list[float]]:
    """One arena game: each seat's figures, its wall time, and the machine's 1-minute load
    average at its start and end."""
    start, load = time.perf_counter(), os.getloadavg()[0]
    outcome = arena.play_one(*job)
    seats = [
        {
            "level": s.level,
            "score": s.score,
            "rank": s.rank,
            "win": s.win,
            "times": s.times,
            "cpu": s.cpu,
        }
        for s in outcome
    ]
    return seats, time.perf_counter() - start, [load, os.getloadavg()[0]]


def finished(out: str) -> set[tuple[str, int, int]]:
    """The games the file already holds (a run goes on where a stopped one left off)."""
    try:
        with open(out) as source:
            records = [json.loads(raw) for raw in source]
    except FileNotFoundError:
        return set()
    return {(r["game"], r["players"], r["g"]) for r in records}


def run(out: str, games: int, think: float, processes: int, blocks: list[tuple[str, int]]) -> None:
    done = finished(out)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    jobs = [(job, tag) for job, tag in queue(games, think, blocks) if tag not in done]
    context = multiprocessing.get_context("spawn")
    with (
        ProcessPoolExecutor(max_workers=processes, mp_context=context) as pool,
        open(out, "a") as sink,
    ):
        futures = {pool.submit(play, job): tag for job, tag in jobs}
        for future in as_completed(futures):
            game_id, players, number = futures[future]
            seats, seconds, load = future.result()
            record = {
                "game": game_id,
                "players": players,
                "g": number,
                "secs": seconds,
                "load": load,
                "commit": commit,
            }
            sink.write(json.dumps({**record, "seats": seats}) + "\n")
            sink.flush()


def summary(out: str) -> None:
    blocks: dict[tuple[str, int], dict[str, arena.LevelStats]] = defaultdict(dict)
    seconds: dict[tuple[str, int], list[float]] = defaultdict(list)
    loads: dict[tuple[str, int], list[float]] = defaultdict(list)
    with open(out) as source:
        for raw in source:
            record = json.loads(raw)
            key = (record["game"], record["players"])
            seconds[key].append(record["secs"])
            loads[key].extend(record.get("load", []))
            for s in record["seats"]:
                stats = blocks[key].setdefault(s["level"], arena.LevelStats(s["level"]))
                stats.add(
                    arena.SeatResult(
                        s["level"], s["score"], s["rank"], s["win"], s["times"], s.get("cpu", [])
                    )
                )
    for key in sorted(blocks):
        game_id, players = key
        took = statistics.fmean(seconds[key]) / 60
        load = f", load {min(loads[key]):.1f}–{max(loads[key]):.1f}" if loads[key] else ""
        print(f"{game_id} {players}p: {len(seconds[key])} games, {took:.1f} min a game{load}")
        for level in ("strong", "good"):
            if level in blocks[key]:
                stats = blocks[key][level]
                print("  " + arena.line(stats, solo=False))
                over = sum(t > SLOW for t in stats.times)
                cpu = (
                    f"processor p50 {1000 * arena.percentile(stats.cpu, 0.5):.0f} ms "
                    f"p95 {1000 * arena.percentile(stats.cpu, 0.95):.0f} ms, "
                    if stats.cpu
                    else ""
                )
                print(
                    f"    {cpu}wall max {1000 * max(stats.times):.0f} ms, "
                    f"{over} of {len(stats.times)} decisions over {SLOW} s"
                )


def good_game(job: tuple[str, int, int]) -> dict[str, list[int]]:
    """Each seat's rank and score when good plays every seat of the deal `job` (game,
    players, seed)."""
    game_id, players, seed = job
    seats = arena.play_one(game_id, players, ["good"] * players, seed, 0.0)
    return {"ranks": [s.rank for s in seats], "scores": [s.score for s in seats]}


def paired(out: str, processes: int) -> None:
    """Strong's rank in each game against the rank good reached in the same seat on the
    same deal (good in every seat): the luck of the deal and the seat cancels, and a game
    where the search changed nothing counts as a tie. Good-only games are kept in OUT.good."""
    with open(out) as source:
        records = [json.loads(raw) for raw in source]
    cache: dict[str, dict[str, list[int]]] = {}
    try:
        with open(out + ".good") as source:
            cache = {r["key"]: r for r in map(json.loads, source)}
    except FileNotFoundError:
        pass

    def tag(r: dict) -> str:
        return f"{r['game']}:{r['players']}:{1 + r['g']}"

    missing = sorted({tag(r) for r in records} - set(cache))
    context = multiprocessing.get_context("spawn")
    jobs = [(k.split(":")[0], int(k.split(":")[1]), int(k.split(":")[2])) for k in missing]
    with (
        ProcessPoolExecutor(max_workers=processes, mp_context=context) as pool,
        open(out + ".good", "a") as sink,
    ):
        for key, found in zip(missing, pool.map(good_game, jobs), strict=True):
            cache[key] = found
            sink.write(json.dumps({"key": key, **found}) + "\n")
    # (strong's rank, good's rank in that seat, strong's score - good's score in that seat)
    by_block: dict[tuple[str, int], list[tuple[int, int, int]]] = defaultdict(list)
    for r in records:
        seat = next(i for i, s in enumerate(r["seats"]) if s["level"] == "strong")
        alone = cache[tag(r)]
        by_block[(r["game"], r["players"])].append(
            (
                r["seats"][seat]["rank"],
                alone["ranks"][seat],
                r["seats"][seat]["score"] - alone["scores"][seat],
            )
        )
    print("paired with good in strong's seat on the same deal:")
    for (game_id, players), rows in sorted(by_block.items()):
        better = sum(s < g for s, g, _ in rows)
        worse = sum(s > g for s, g, _ in rows)
        changed = sum(d != 0 for _, _, d in rows)
        print(
            f"  {game_id} {players}p: {len(rows)} games; avg rank strong "
            f"{statistics.fmean(s for s, _, _ in rows):.2f} vs good in that seat "
            f"{statistics.fmean(g for _, g, _ in rows):.2f}; first places "
            f"{sum(s == 1 for s, _, _ in rows)} vs {sum(g == 1 for _, g, _ in rows)}; "
            f"rank better in {better}, worse in {worse}; score changed in {changed}, "
            f"by {statistics.fmean(d for _, _, d in rows):+.1f} on average"
        )


def blocks(spec: str) -> list[tuple[str, int]]:
    """A named set of blocks, or GAME:PLAYERS pairs separated by commas."""
    if spec in BLOCKS:
        return BLOCKS[spec]
    pairs = [part.split(":") for part in spec.split(",")]
    return [(game_id, int(players)) for game_id, players in pairs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", required=True, help="JSON-lines file of finished games")
    parser.add_argument("--games", type=int, default=12, help="games per block")
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--summary", action="store_true", help="only print the figures")
    parser.add_argument(
        "--blocks",
        default="all",
        help="'2p' (the four games at 2 players), 'more' (3p and 4p), 'all' (both), or "
        "GAME:PLAYERS[,GAME:PLAYERS...] (e.g. burgundy:2)",
    )
    parser.add_argument(
        "--paired",
        action="store_true",
        help="also compare each game with good in every seat on the same deal (played once "
        "and kept in OUT.good)",
    )
    args = parser.parse_args()
    if not args.summary:
        run(args.out, args.games, args.think, args.processes, blocks(args.blocks))
    summary(args.out)
    if args.paired:
        paired(args.out, args.processes)


if __name__ == "__main__":
    main()
