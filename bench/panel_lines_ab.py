"""A panel's lines worked out by an older tree's `bot/panels.py` and by this one's, taking
turns in one process on the same states: the states `move_cpu.py`'s seeded games pass
through (the mover's decision at each), each tree's `panel_lines` timed on each in rounds,
the order swapped every round. Both use this tree's engines and presenters: what is
compared is the unfolding alone. One process and alternating rounds keep the two sides'
figures comparable on a busy machine, where separate runs differ by a fifth.

    python bench/panel_lines_ab.py --before TREE [--games burgundy,coffee] [--players 3]
                                   [--seeds 1,2,3] [--rounds 6]

TREE: an older checkout's root (a `git worktree add --detach /tmp/base HEAD` made before a
change), whose `bot/panels.py` is loaded beside this one. Each line gives a game's panels:
median, mean, p90 and max of a panel's lines in milliseconds of processor time, before →
now, and the moves each side applied (`engine.apply` calls, the same every round).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import move_cpu  # bench/, the script's folder

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests/
from meeple_hall.bot import panels, presenters
from tests.bot.test_panel_unfold_depth import Counted


def older_panels(tree: str) -> ModuleType:
    """`bot/panels.py` of the checkout at `tree`, as a module of its own."""
    spec = importlib.util.spec_from_file_location("panels_before", Path(tree) / "bot/panels.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["panels_before"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def panel_states(game: str, players: int, seeds: list[int]) -> list[tuple[Any, ...]]:
    """(engine, state, seat, decision) of each panel Take turn builds in move_cpu's games."""
    found: list[tuple[Any, ...]] = []
    build = move_cpu.build_panel

    def kept(game_: Any, seat: int, decision: Any, locale: Any, **kwargs: Any) -> Any:
        found.append((game_.engine, game_.state, seat, decision))
        return build(game_, seat, decision, locale, **kwargs)

    move_cpu.build_panel = kept
    try:
        for seed in seeds:
            move_cpu.one_game(game, players, seed, 60)
    finally:
        move_cpu.build_panel = build
    return found


def compare(
    game: str, sides: dict[str, ModuleType], cases: list[tuple[Any, ...]], rounds: int
) -> tuple[dict[str, list[float]], dict[str, int]]:
    """Each side's processor time (ms, a round's mean) for each case, and its moves applied."""
    folded = presenters.folded_kinds(game)
    spent = {name: [0.0] * len(cases) for name in sides}
    applied = {name: 0 for name in sides}
    for round_ in range(rounds):
        order = list(sides) if round_ % 2 == 0 else list(reversed(sides))
        for name in order:
            unfold = sides[name].panel_lines
            for index, (engine, state, seat, decision) in enumerate(cases):
                counted = Counted(engine) if round_ == 0 else engine
                began = time.process_time()
                unfold(counted, state, seat, decision, folded)
                spent[name][index] += time.process_time() - began
                if round_ == 0:
                    applied[name] += counted.applied
    return {name: [t / rounds * 1000 for t in times] for name, times in spent.items()}, applied


def figures(xs: list[float]) -> str:
    """Median / mean / p90 / max."""
    p90 = statistics.quantiles(xs, n=10)[-1]
    middle, mean = statistics.median(xs), statistics.fmean(xs)
    return f"{middle:.2f} / {mean:.2f} / {p90:.2f} / {max(xs):.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, metavar="TREE")
    parser.add_argument("--games", default="burgundy,coffee")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    sides = {"before": older_panels(args.before), "now": panels}
    seeds = [int(s) for s in args.seeds.split(",")]
    print(
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {args.players} players,"
        f" seeds {args.seeds}, {args.rounds} rounds; a panel's lines, ms (before → now)"
    )
    for game in args.games.split(","):
        cases = panel_states(game, args.players, seeds)
        ms, applied = compare(game, sides, cases, args.rounds)
        print(
            f"  {game:<10} {len(cases)} panels, median / mean / p90 / max "
            f"{figures(ms['before'])} → {figures(ms['now'])}; "
            f"moves applied {applied['before']} → {applied['now']}"
        )
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
