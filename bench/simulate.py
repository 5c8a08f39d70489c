"""A long community season (issue 26): `python bench/simulate.py --days 7 --seed 123`
runs the season simulator (`meeple-hall simulate`) and prints its report line, then steps
per second of wall time and virtual hours per wall minute. Violations are printed first, each
with the command that replays the run to its step; the exit status is 1 if there were any.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from meeple_hall.bot.simulation import run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--days", type=float, default=7.0)
    parser.add_argument("--seed", type=int, default=123)
    parser.add_argument("--guilds", type=int, default=3)
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args()
    progress = None if args.quiet else sys.stderr
    report = asyncio.run(run.season(args.days, args.seed, args.guilds, progress=progress))
    for violation in report.violations:
        print(violation.line(args.seed, args.days, args.guilds, None))
    for stumble in report.stumbles:
        print(f"the simulator could not act at {stumble}")
    print(report.line())
    minutes = report.seconds / 60
    print(
        f"{report.steps} steps in {report.seconds:.0f} s: {report.steps / report.seconds:.2f} "
        f"steps/s, {args.days * 24 / minutes:.1f} virtual hours a minute, "
        f"{report.moves / report.seconds:.1f} moves/s; {report.tournaments_started} "
        "tournaments started"
    )
    return 1 if report.violations else 0


if __name__ == "__main__":
    raise SystemExit(main())
