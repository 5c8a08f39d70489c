"""What the phone pictures cost, by game and decision kind (issue 29 items 1 and 5): the
picture the panel that Take turn opens carries (`phone.render_decision`), a seat's own area
(`phone.render_own`: its DM, `/hand`) and each `/board focus:` part (`phone.render_focus`),
drawn and encoded as a picture worker does (`flat_png`), in processor time.

    python bench/decision_pictures.py [--before PATH] [--now PATH] [--players 3] [--seed 1]
                                      [--windows 3] [--moves 20] [--turns 1]
                                      [--games keyflower,...] [--save DIR]

Each game is played at random to its end from a seed (the tests' way: `engine.new(players,
seed)`, `random.Random(seed)`, a pending decision chosen, `random_choices`). In `--windows`
runs of `--moves` consecutive moves spread over the game, each move's decision picture (the
first pending decision's seat, from its view; narrowed to its options and marked where the
tree does so, `sides.decision_shown`) and seat 1's own area are drawn, and every
focus at each run's first move: in order, as a picture worker serving that one table meets
them, so that its caches help as much as they would. Each picture is encoded by a worker
that remembers no band ("cold": a decision picture's bands are mostly new, bench/README.md,
"The pictures a move costs").

`--before PATH` measures an older tree beside this one in one run: two worker processes,
one importing `meeple_hall` from PATH (a folder holding a `meeple_hall/` of symlinks to the
older tree's `meeple_hall/__init__.py`, `bot`, `games`, `renderers` and `data`, as
bench/move_cpu.py's docstring says; started from /tmp so that this checkout is not on its
path), the other this tree (or the one `--now PATH` names: with every part but one the
older tree's, only that part's change is measured), taking turns (before, now, now,
before; `--turns` times) on the same pictures, so that both meet the same machine. Each
line gives the number of pictures, the medians of processor time (drawing; drawing and
encoding) and PNG size, before → now, and the largest picture. The first drawings of a
process (fonts, caches) are made before and not counted. `--save DIR` keeps each side's
first picture of each line (DIR/before, DIR/now) to be looked at side by side.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from functools import cache
from pathlib import Path
from typing import Any

from sides import Side, decision_shown, serve

GAMES = ("keyflower", "burgundy", "village", "coffee")


@cache
def _moves(game: str, players: int, seed: int) -> tuple[tuple[Any, Any], ...]:
    """Every move of a seeded random game: the first pending decision, and the state it is
    decided in."""
    from meeple_hall import games
    from meeple_hall.games.core import Action
    from meeple_hall.games.testing import random_choices

    engine = games.get(game)
    players = max(engine.min_players, min(engine.max_players, players))
    state, rng = engine.new(players, seed), random.Random(seed)
    moves = []
    while pending := engine.decisions(state):
        moves.append((pending[0], state))
        decision = rng.choice(pending)
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    return tuple(moves)


def _windows(count: int, windows: int, moves: int) -> list[range]:
    """`windows` runs of `moves` consecutive moves, spread evenly over a game of `count`."""
    starts = [round(k * (count - moves) / max(1, windows - 1)) for k in range(windows)]
    return [range(max(0, s), min(count, s + moves)) for s in dict.fromkeys(starts)]


def _pictures(
    game: str, players: int, seed: int, windows: int, moves: int
) -> list[tuple[str, Any]]:
    """(line, draw) in the order a worker drawing for one table meets them: at each move of
    each window, the decision picture of the first seat to decide (line "decision KIND")
    and seat 1's own area ("own"); at each window's first move, every focus ("focus F")."""
    from meeple_hall import games
    from meeple_hall.renderers import phone

    engine = games.get(game)
    played = _moves(game, players, seed)
    out: list[tuple[str, Any]] = []
    for window in _windows(len(played), windows, moves):
        for index in window:
            decision, state = played[index]
            view = engine.view(state, decision.seat)
            parts, marks = decision_shown(phone, game, view, decision)
            if parts:
                out.append(
                    (
                        f"decision {decision.kind}",
                        lambda v=view, p=parts, m=marks: phone.render_decision(
                            game, v, p, *([m] if m else [])
                        ),
                    )
                )
            own = engine.view(state, 0)
            out.append(("own", lambda v=own: phone.render_own(game, v)))
            if index == window.start:
                spectator = engine.view(state, None)
                for focus in phone.focuses(game, spectator):
                    out.append(
                        (
                            f"focus {focus}",
                            lambda v=spectator, f=focus: phone.render_focus(game, v, f),
                        )
                    )
    return out


def _encode(image: Any) -> bytes:
    """`flat_png` on a worker that remembers no band."""
    from meeple_hall.bot import picture_bands
    from meeple_hall.bot.render import flat_png

    saved = picture_bands.cache
    picture_bands.cache = picture_bands.BandCache()
    try:
        return flat_png(image)
    finally:
        picture_bands.cache = saved


def _measure(
    game: str, players: int, seed: int, windows: int, moves: int, save: str | None = None
) -> dict[str, dict[str, list[float]]]:
    """By line: each picture's processor time (ms: drawing, encoding), bytes and size."""
    out: dict[str, dict[str, list[float]]] = {}
    for line, draw in _pictures(game, players, seed, windows, moves):
        got = out.setdefault(line, {"draw": [], "encode": [], "bytes": [], "w": [], "h": []})
        start = time.process_time()
        image = draw()
        drawn = time.process_time()
        if image is None:
            continue
        data = _encode(image)
        encoded = time.process_time()
        if save and not got["bytes"]:
            folder = Path(save)
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{game}_{line.replace(' ', '_')}.png").write_bytes(data)
        got["draw"].append(1000 * (drawn - start))
        got["encode"].append(1000 * (encoded - drawn))
        got["bytes"].append(len(data))
        got["w"].append(image.width)
        got["h"].append(image.height)
    return out


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def _row(game: str, line: str, got: dict[str, dict[str, dict[str, list[float]]]]) -> str:
    cells = []
    for name in got:
        g = got[name][line]
        total = [d + e for d, e in zip(g["draw"], g["encode"], strict=True)]
        cells.append(
            (_median(g["draw"]), _median(total), _median(g["bytes"]) / 1024, g["w"], g["h"])
        )
    (db, tb, kb, wb, hb), (dn, tn, kn, wn, hn) = cells[0], cells[-1]
    size = f"{max(wb, default=0)}×{max(hb, default=0)} → {max(wn, default=0)}×{max(hn, default=0)}"
    count = len(got[list(got)[-1]][line]["bytes"])
    return (
        f"| {game} | {line} | {count} | {db:.1f} → {dn:.1f} | {tb:.1f} → {tn:.1f}"
        f" | {kb:.1f} → {kn:.1f} | {size} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", metavar="PATH", help="an older tree's import folder")
    parser.add_argument("--now", metavar="PATH", help="the newer tree's (default: this one)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--windows", type=int, default=3, help="runs of moves a game")
    parser.add_argument("--moves", type=int, default=20, help="consecutive moves a run")
    parser.add_argument("--turns", type=int, default=1, help="(before, now, now, before)s")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--save", metavar="DIR", help="keep each line's first picture")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(_measure)
        return
    sides = {"now": Side(__file__, args.now)}
    if args.before:
        sides = {"before": Side(__file__, args.before), "now": sides["now"]}
    order = ("before", "now", "now", "before") if args.before else ("now",)
    print(
        f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores, {args.players}"
        f" players, seed {args.seed}, {args.windows} runs of {args.moves} moves,"
        f" {args.turns} turn(s)"
    )
    print(
        "| Game | picture | pictures | drawing, ms | drawing + encoding, ms | PNG, KiB | largest |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    try:
        for game in args.games.split(","):
            request = dict(
                game=game,
                players=args.players,
                seed=args.seed,
                windows=args.windows,
                moves=args.moves,
            )
            for name, side in sides.items():  # first drawings: fonts, cold caches
                side.ask(**request, save=str(Path(args.save) / name) if args.save else None)
            got: dict[str, dict[str, dict[str, list[float]]]] = {name: {} for name in sides}
            for _ in range(args.turns):
                for name in order:
                    for line, values in sides[name].ask(**request).items():
                        for key, figures in values.items():
                            got[name].setdefault(line, {}).setdefault(key, []).extend(figures)
            for line in got["now"]:
                print(_row(game, line, got))
            print(_total(game, got), flush=True)
    finally:
        for side in sides.values():
            side.close()
    print(f"load average {os.getloadavg()[0]:.2f}")


def _total(game: str, got: dict[str, dict[str, dict[str, list[float]]]]) -> str:
    """The game's decision pictures together: their summed processor time and bytes."""
    sums = []
    for name in got:
        lines = [g for line, g in got[name].items() if line.startswith("decision ")]
        time_ = sum(sum(g["draw"]) + sum(g["encode"]) for g in lines)
        count = sum(len(g["bytes"]) for g in lines)
        sums.append((time_ / max(1, count), sum(sum(g["bytes"]) for g in lines) / max(1, count)))
    (tb, kb), (tn, kn) = sums[0], sums[-1]
    return (
        f"| {game} | **every decision picture, mean** | | | **{tb:.1f} → {tn:.1f}**"
        f" | **{kb / 1024:.1f} → {kn / 1024:.1f}** | |"
    )


if __name__ == "__main__":
    main()
