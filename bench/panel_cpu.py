"""A panel's processor time apart from the move (issue 29 item 5): the panel Take turn builds
(`build_panel`), split into its lines (`offered_lines`: the options unfolded through the
engine) and the panel's own work on them (styles, words, components, text), game by game.

    python bench/panel_cpu.py [--before PATH] [--now PATH] [--moves 60] [--players 3]
                              [--seeds 1,2] [--turns 2] [--games keyflower,...] [--profile F]

The moves are `move_cpu.py`'s (the same seeded random games, each move's line applied as
`CommitPath` applies it). `--before PATH` measures an older tree beside this one in one run
(PATH: a folder holding a `meeple_hall/` of symlinks to that tree's parts, see `move_cpu.py`'s
docstring): two worker processes taking turns (before, now, now, before; `--turns` times),
each game played by a fresh process so that no words rendered are left from an earlier
turn (the catalogues are read before the first panel: once a process, not a move's work).
Each line gives a game's panels (every move of every seed and turn): the median and
mean of the panel, of its lines and of its own work, in milliseconds, before → now.
`--profile F` writes a `cProfile` of the panels' own work only (this tree) to F.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from sides import Side, serve

GAMES = ("keyflower", "burgundy", "village", "coffee")
PARTS = ("panel", "lines", "own")


def _measure(
    game: str, players: int, seed: int, moves: int, profile: str | None = None
) -> dict[str, list[float]]:
    """Each move's panel, its lines and its own work (ms), over `moves` moves."""
    sys.path.insert(0, str(Path(__file__).parent))
    import move_cpu

    from meeple_hall import games
    from meeple_hall.bot import i18n, panels
    from meeple_hall.bot.panel_clicks import model_game
    from meeple_hall.games.core import catalogues

    engine = games.get(game)
    for lang in catalogues.LANGUAGES:  # the catalogues, read once a process: not a move's
        i18n.catalogue(lang)
        for namespace in ("core", game):
            catalogues.catalogue(namespace, lang)
    players = max(engine.min_players, min(engine.max_players, players))
    live = model_game(engine, engine.new(players, seed), players)
    got: dict[str, list[float]] = {part: [] for part in PARTS}
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
    rng = move_cpu.random.Random(seed)
    while len(got["panel"]) < moves and engine.result(live.state) is None:
        decision = live.decisions()[0]
        seat = decision.seat
        began = time.process_time()
        panels.offered_lines(live, seat, decision)
        lined = time.process_time()
        if profiler is not None:
            profiler.enable()
        panels.build_panel(live, seat, decision, "en-US")
        if profiler is not None:
            profiler.disable()
        ended = time.process_time()
        got["panel"].append((ended - began) * 1000)
        got["lines"].append((lined - began) * 1000)
        got["own"].append((ended - lined) * 1000)
        _move(engine, live, seat, decision, move_cpu._choice(live, seat, decision, rng))
    if profiler is not None and profile:
        profiler.dump_stats(profile)
    return got


def _move(engine: Any, live: Any, seat: int, decision: Any, steps: list[Any]) -> None:
    """The line applied as `move_cpu.py` applies it (the history moved too), and the views it
    asks for after it (the panel's secrets read the seat's)."""
    from meeple_hall.games import Action

    state, history = live.state, live.history
    for index, choices in enumerate(steps):
        follows = decision if index == 0 else _decision_of(engine, state, seat)
        after = engine.apply(state, Action(seat, choices), decision=follows)
        history = history.moved(
            engine, live.seq + 1, Action(seat, choices), state, after, ask=False, chained=index > 0
        )
        live.acted[live.seq + 1] = seat
        state, live.seq = after, live.seq + 1
    pending = engine.decisions(state)
    live.history, live.state = history, state
    live.worked_out("decisions", lambda: pending)
    for viewer in (None, *range(len(live.table.seats))):
        live.view(viewer)  # the table picture and the DMs ask for them (untimed here)


def _decision_of(engine: Any, state: Any, seat: int) -> Any:
    return next((d for d in engine.decisions(state) if d.seat == seat), None)


def _figures(times: list[float]) -> str:
    return f"{statistics.median(times):.2f} / {statistics.fmean(times):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", metavar="PATH", help="an older tree's import folder")
    parser.add_argument("--now", metavar="PATH", help="the newer tree's (default: this one)")
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seeds", default="1,2")
    parser.add_argument("--turns", type=int, default=2, help="(before, now, now, before)s")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--profile", metavar="FILE", help="cProfile the panels' own work")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(_measure)
        return
    if args.profile:
        for game in args.games.split(","):
            _measure(game, args.players, 1, args.moves, f"{args.profile}.{game}")
        print(f"profiles written to {args.profile}.<game>")
        return
    names = ("before", "now") if args.before else ("now",)
    paths = {"before": args.before, "now": args.now}
    order = ("before", "now", "now", "before") if args.before else ("now",)
    print(
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}, {args.players} players,"
        f" seeds {args.seeds}, {args.moves} moves, {args.turns} turn(s); median / mean, ms"
    )
    print("| Game | panels | panel | its lines | its own work |")
    print("| --- | --- | --- | --- | --- |")
    for game in args.games.split(","):
        got: dict[str, dict[str, list[float]]] = {n: {p: [] for p in PARTS} for n in names}
        for _ in range(args.turns):
            for name in order:
                for seed in args.seeds.split(","):
                    side = Side(__file__, paths[name])
                    try:
                        answer = side.ask(
                            game=game, players=args.players, seed=int(seed), moves=args.moves
                        )
                    finally:
                        side.close()
                    for part in PARTS:
                        got[name][part] += answer[part]
        cells = [" → ".join(_figures(got[name][part]) for name in names) for part in PARTS]
        print(f"| {game} | {len(got['now']['panel'])} | " + " | ".join(cells) + " |", flush=True)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
