"""What starting a worker costs (issues 27 and 29), two trees side by side in one run;
`--worker` says which, from spawning it to its first job's answer:

- `picture` (the default): a picture worker (`bot/render.py: PicturePool`, one worker) to its
  first Keyflower table picture (`encode_table`, as `TablePictures.png` sends it);
- `review`: the review worker (`bot/review.py: ReviewWorker`, its start-up step lowering its
  priority) to its first job, `games/ai/review.py: prepare` on the Keyflower game's moves;
- `hint`: a hint's worker (`Hints`' own, a `games/ai/pool.py: Workers` of one) to the good
  player's answer and reason for the game's next decision (`advise_from_dump`, as
  `bot/hints.py` gives it).

    python bench/worker_start.py [--worker picture] [--before PATH] [--now PATH]
                                 [--rounds 5] [--moves 20]

Each side is a process of its own (`bench/sides.py`; PATH: a folder holding a `meeple_hall/`
of symlinks to that tree's parts, see `move_cpu.py`'s docstring) that starts a fresh
worker for each measure, taking turns (before, now, now, before; `--rounds` times),
after a first measure each that is not counted (the owner's own imports, the resource
tracker). For each: the wall time from asking for the job to having its answer (the
worker's start included), the worker's processor time until then (its /proc record: 10 ms
steps), the owner's processor time meanwhile, the worker's resident memory and its modules
after the job, and whether it has imported discord.py. Also a fresh interpreter's processor
time to import `meeple_hall.cli`: a worker of the `meeple-hall` command runs that script's
imports again (`multiprocessing`'s spawn). This script imports nothing heavy at its top for
the same reason: each worker runs it again.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from sides import Side, serve

FIGURES = ("wall_ms", "worker_cpu_ms", "owner_cpu_ms", "worker_rss_mib", "modules")
WORKERS = ("picture", "review", "hint")


def loaded(game_id: str) -> tuple[int, bool]:
    """Runs in the worker: how many modules it has, and whether discord.py is one."""
    return len(sys.modules), "discord" in sys.modules


def _worker_cpu_ms(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def _worker_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _measure(moves: int, worker: str = "picture") -> dict[str, Any]:
    """One fresh worker's first job (a Keyflower game at 3 players, `moves` random moves
    in)."""
    import asyncio
    import random

    from meeple_hall import games
    from meeple_hall.games.core import Action
    from meeple_hall.games.testing import random_choices

    engine = games.get("keyflower")
    rng = random.Random(1)
    state = engine.new(3, 1)
    played: list[tuple[int, tuple[str, ...]]] = []
    for _ in range(moves):
        decision = rng.choice(engine.decisions(state))
        action = Action(decision.seat, random_choices(decision, rng))
        state = engine.apply(state, action)
        played.append((action.seat, tuple(action.choices)))

    async def first_answer() -> dict[str, Any]:
        pool, job = _first_job(worker, engine, state, played)
        try:
            started, cpu = time.monotonic(), time.process_time()
            answer = await _ask(pool, *job)
            wall, owner = time.monotonic() - started, time.process_time() - cpu
            (pid,) = pool.executor()._processes
            worker_cpu, rss = _worker_cpu_ms(pid), _worker_rss_mib(pid)
            modules, discord = await _ask(pool, loaded)
        finally:
            pool.shutdown()
        assert answer
        return {
            "wall_ms": wall * 1000,
            "worker_cpu_ms": worker_cpu,
            "owner_cpu_ms": owner * 1000,
            "worker_rss_mib": rss,
            "modules": modules,
            "discord": discord,
        }

    return asyncio.run(first_answer())


def _first_job(worker: str, engine: Any, state: Any, played: list[Any]) -> tuple[Any, tuple]:
    """The worker asked for, not started yet (a `PicturePool`, or a `games/ai/pool.py:
    Workers` for the others), and its first job: the function and its arguments but the
    game's id."""
    if worker == "review":
        from meeple_hall.bot.review import ReviewWorker
        from meeple_hall.games.ai import review as reviewing

        seats = frozenset({0, 1, 2})
        return ReviewWorker(), (reviewing.prepare, 3, 1, {}, played, seats)
    if worker == "hint":
        from meeple_hall.bot.hints import advise_from_dump
        from meeple_hall.games.ai.pool import Workers

        seat = engine.decisions(state)[0].seat
        return Workers(max_workers=1), (advise_from_dump, engine.dump(state), seat, 1)
    from meeple_hall.bot.render import PicturePool, encode_table

    return PicturePool(max_workers=1), (encode_table, engine.view(state, None), None)


async def _ask(pool: Any, job: Any, *args: Any) -> Any:
    """`job("keyflower", *args)` in the worker, as the bot sends it there."""
    if hasattr(pool, "run"):  # a PicturePool: Keyflower's table 1
        return await pool.run("keyflower", job, *args, table=1)
    import asyncio

    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(pool.executor(), job, "keyflower", *args)


def _cli_import_ms(path: str | None) -> float:
    """A fresh interpreter's processor time to import `meeple_hall.cli` from `path`."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if path is not None:
        env["PYTHONPATH"] = path
    code = (
        "import time; t = time.process_time(); import meeple_hall.cli; "
        "print((time.process_time() - t) * 1000)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd="/tmp", env=env, capture_output=True, text=True
    )
    return float(out.stdout)


def _range(values: list[float]) -> str:
    return f"{statistics.median(values):.0f} ({min(values):.0f}-{max(values):.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", metavar="PATH", help="an older tree's import folder")
    parser.add_argument("--now", metavar="PATH", help="the newer tree's (default: this one)")
    parser.add_argument("--rounds", type=int, default=5, help="(before, now, now, before)s")
    parser.add_argument("--moves", type=int, default=20, help="random moves before the job")
    parser.add_argument("--worker", choices=WORKERS, default="picture", help="which worker")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(_measure)
        return
    names = ("before", "now") if args.before else ("now",)
    paths = {"before": args.before, "now": args.now}
    order = ("before", "now", "now", "before") if args.before else ("now",)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"load average {load}; a {args.worker} worker; {args.rounds} round(s), Keyflower at 3"
        f" players, {args.moves} moves"
    )
    sides = {name: Side(__file__, paths[name]) for name in names}
    got: dict[str, dict[str, list[float]]] = {n: {f: [] for f in FIGURES} for n in names}
    discord: dict[str, set[bool]] = {n: set() for n in names}
    cli: dict[str, list[float]] = {n: [] for n in names}
    try:
        for side in sides.values():
            # not counted: the owner's imports, the resource tracker
            side.ask(moves=args.moves, worker=args.worker)
        for _ in range(args.rounds):
            for name in order:
                answer = sides[name].ask(moves=args.moves, worker=args.worker)
                for figure in FIGURES:
                    got[name][figure].append(answer[figure])
                discord[name].add(answer["discord"])
                cli[name].append(_cli_import_ms(paths[name]))
    finally:
        for side in sides.values():
            side.close()
    print("| median (min-max) | " + " | ".join(names) + " |")
    print("| --- | " + " | ".join("---" for _ in names) + " |")
    for figure in FIGURES:
        print(f"| {figure} | " + " | ".join(_range(got[n][figure]) for n in names) + " |")
    yes_no = {n: "/".join("yes" if d else "no" for d in sorted(discord[n])) for n in names}
    print("| discord.py in the worker | " + " | ".join(yes_no[n] for n in names) + " |")
    print("| import meeple_hall.cli, ms | " + " | ".join(_range(cli[n]) for n in names) + " |")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
