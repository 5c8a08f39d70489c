"""What starting a picture worker costs (issues 27 and 29): from spawning a worker
(`bot/render.py: PicturePool`, one worker) to its first Keyflower table picture
(`encode_table`, as `TablePictures.png` sends it), two trees side by side in one run.

    python bench/worker_start.py [--before PATH] [--now PATH] [--rounds 5] [--moves 20]

Each side is a process of its own (`bench/sides.py`; PATH: a folder holding a `meeple_hall/`
of symlinks to that tree's parts, see `move_cpu.py`'s docstring) that starts a fresh
`PicturePool` for each measure, taking turns (before, now, now, before; `--rounds` times),
after a first measure each that is not counted (the owner's own imports, the resource
tracker). For each: the wall time from asking for the picture to having it (the worker's
start included), the worker's processor time until then (its /proc record: 10 ms steps),
the owner's processor time meanwhile, the worker's resident memory and its modules after the
picture, and whether it has imported discord.py. Also a fresh interpreter's processor time
to import `meeple_hall.cli`: a worker of the `meeple-hall` command runs that script's
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


def _measure(moves: int) -> dict[str, Any]:
    """One fresh picture worker's first Keyflower table picture (a game `moves` random moves
    in)."""
    import asyncio
    import random

    from meeple_hall import games
    from meeple_hall.bot.render import PicturePool, encode_table
    from meeple_hall.games.core import Action
    from meeple_hall.games.testing import random_choices

    engine = games.get("keyflower")
    rng = random.Random(1)
    state = engine.new(3, 1)
    for _ in range(moves):
        decision = rng.choice(engine.decisions(state))
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    view = engine.view(state, None)

    async def first_picture() -> dict[str, Any]:
        pool = PicturePool(max_workers=1)
        try:
            started, cpu = time.monotonic(), time.process_time()
            data, _ = await pool.run("keyflower", encode_table, view, None, table=1)
            wall, owner = time.monotonic() - started, time.process_time() - cpu
            (pid,) = pool.executor()._processes
            worker_cpu, rss = _worker_cpu_ms(pid), _worker_rss_mib(pid)
            modules, discord = await pool.run("keyflower", loaded, table=1)
        finally:
            pool.shutdown()
        assert data.startswith(b"\x89PNG")
        return {
            "wall_ms": wall * 1000,
            "worker_cpu_ms": worker_cpu,
            "owner_cpu_ms": owner * 1000,
            "worker_rss_mib": rss,
            "modules": modules,
            "discord": discord,
        }

    return asyncio.run(first_picture())


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
    parser.add_argument("--moves", type=int, default=20, help="random moves before the picture")
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
        f"load average {load}; {args.rounds} round(s), Keyflower at 3 players, {args.moves} moves"
    )
    sides = {name: Side(__file__, paths[name]) for name in names}
    got: dict[str, dict[str, list[float]]] = {n: {f: [] for f in FIGURES} for n in names}
    discord: dict[str, set[bool]] = {n: set() for n in names}
    cli: dict[str, list[float]] = {n: [] for n in names}
    try:
        for side in sides.values():
            side.ask(moves=args.moves)  # not counted: the owner's imports, the tracker
        for _ in range(args.rounds):
            for name in order:
                answer = sides[name].ask(moves=args.moves)
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
