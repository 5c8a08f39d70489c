"""How tall the panel's decision picture is on a phone (issue 29 item 1), by game and decision
kind: the height at 400 px wide (Discord's widest attachment there; never enlarged) of every
decision picture of seeded random games, drawn as the bot draws it (the first pending
decision's seat, from its view, narrowed and marked: `sides.decision_shown`). A phone's
screen shows about 700 px of it.

    python bench/decision_heights.py [--before PATH] [--now PATH] [--games keyflower,...]
                                     [--players 2,3,4] [--seeds 1,2]

`--before PATH` measures an older tree beside this one (a folder holding a `meeple_hall/` of
symlinks, as bench/move_cpu.py's docstring says), on the same games: heights do not depend on
the machine's load, so the two sides need not take turns. `--now PATH` measures another tree
in this one's place (a tree being edited, kept still in a worktree). Each line: the kind, the
number of pictures, the median / p90 / largest height at 400 px, before → now.
"""

from __future__ import annotations

import argparse
import random
import statistics
from typing import Any

from sides import Side, decision_shown, serve

GAMES = ("keyflower", "burgundy", "village", "coffee")
PHONE_WIDTH = 400


def heights(game: str, players: int, seed: int) -> dict[str, list[int]]:
    """Every decision picture's height at phone width in one seeded random game, by kind."""
    from meeple_hall import games
    from meeple_hall.games.core import Action
    from meeple_hall.games.testing import random_choices
    from meeple_hall.renderers import phone

    engine = games.get(game)
    state, rng = engine.new(players, seed), random.Random(seed)
    found: dict[str, list[int]] = {}
    while pending := engine.decisions(state):
        decision = pending[0]
        view = engine.view(state, decision.seat)
        parts, marks = decision_shown(phone, game, view, decision)
        if parts:
            image = phone.render_decision(game, view, parts, *([marks] if marks else []))
            if image is not None:
                shown = image.height * min(1.0, PHONE_WIDTH / image.width)
                found.setdefault(decision.kind, []).append(round(shown))
        decision = rng.choice(pending)
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    return found


def _figures(values: list[int]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"{statistics.median(ordered):.0f} / {p90} / {ordered[-1]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="an older tree's import folder")
    parser.add_argument("--now", help="another tree's import folder in this one's place")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--seeds", default="1,2")
    args = parser.parse_args()
    sides = {"now": Side(__file__, args.now)}
    if args.before:
        sides["before"] = Side(__file__, args.before)
    for game in args.games.split(","):
        counts = [int(n) for n in args.players.split(",")]
        counts = [n for n in counts if n > 1 or game == "village"]
        by_side: dict[str, dict[str, list[int]]] = {name: {} for name in sides}
        for name, side in sides.items():
            for players in counts:
                for seed in map(int, args.seeds.split(",")):
                    for kind, values in side.ask(game=game, players=players, seed=seed).items():
                        by_side[name].setdefault(kind, []).extend(values)
        print(f"\n{game}, {args.players} players, seeds {args.seeds}: height at 400 px")
        print(
            "| kind | pictures | median / p90 / max" + (": before → now |" if args.before else " |")
        )
        print("| --- | --- | --- |")
        now = by_side["now"]
        for kind in sorted(now, key=lambda k: -len(now[k])):
            shown = _figures(now[kind])
            if "before" in by_side and kind in by_side["before"]:
                shown = f"{_figures(by_side['before'][kind])} → {shown}"
            print(f"| {kind} | {len(now[kind])} | {shown} |")
    for side in sides.values():
        side.close()


def measure(**request: Any) -> dict[str, list[int]]:
    return heights(**request)


if __name__ == "__main__":
    import sys

    if "--serve" in sys.argv:
        serve(measure)
    else:
        main()
