"""What every game's bench prints: a random full game's speed, and the table and private
pictures drawn and encoded as the bot does it (mid-game and at the end): the median of
five drawings, split into drawing and encoding; the first drawing of a process also loads
fonts and caches, so it is printed apart. Times are processor time (`time.process_time`):
on a machine shared with other work they count this process's work, not its waiting.

Encoding is measured twice on the same drawing, one after the other: the bot's encoder
(`flat_png`: a 256-colour palette) and the one before it (`png_bytes`: every pixel's RGB),
so both meet the same machine.

Used by bench/keyflower.py, burgundy.py, village.py and coffee.py; run alone
(`python bench/game_figures.py [seed]`) it prints that comparison for the four games' table
pictures at 4 players, mid-game and at the end, as a Markdown table.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from meeple_hall import games, renderers
from meeple_hall.bot.render import flat_png, png_bytes
from meeple_hall.games.core import Action
from meeple_hall.games.testing import random_choices


def _timed_png(draw: Callable[[], Any], runs: int = 5) -> dict[str, float] | None:
    """Median processor times (ms) of drawing and of both encoders, their sizes (KiB), and
    the first drawing and encoding of the run."""
    first = None
    times: dict[str, list[float]] = {"draw": [], "flat": [], "rgb": []}
    sizes: dict[str, int] = {}
    for _ in range(runs):
        start = time.process_time()
        image = draw()
        if image is None:
            return None
        drawn = time.process_time()
        times["draw"].append(drawn - start)
        for name, encode in (("flat", flat_png), ("rgb", png_bytes)):
            before = time.process_time()
            sizes[name] = len(encode(image))
            times[name].append(time.process_time() - before)
        first = first if first is not None else drawn - start + times["flat"][0]
    figures = {name: 1000 * statistics.median(values) for name, values in times.items()}
    figures |= {f"{name} KiB": size / 1024 for name, size in sizes.items()}
    return figures | {"first": 1000 * (first or 0.0)}


def _describe(figures: dict[str, float]) -> str:
    return (
        f"{figures['draw'] + figures['flat']:.0f} ms ({figures['draw']:.0f} drawing +"
        f" {figures['flat']:.0f} encoding; first {figures['first']:.0f} ms),"
        f" PNG {figures['flat KiB']:.0f} KiB; before: {figures['rgb']:.0f} ms encoding,"
        f" {figures['rgb KiB']:.0f} KiB"
    )


def report(
    game_id: str,
    players: int,
    seed: int,
    *,
    who: str,
    midgame: str,
    is_midgame: Callable[[Any], bool],
) -> None:
    """Play one random game with `players` seats and print its figures. `is_midgame` tells
    from the state when to take the mid-game pictures (`midgame` names that moment)."""
    engine = games.get(game_id)
    rng = random.Random(seed)
    state = engine.new(players, seed)
    start = time.perf_counter()
    moves, mid, state = play(engine, state, rng, is_midgame)
    elapsed = time.perf_counter() - start
    result = engine.result(state)
    assert result is not None
    print(f"{engine.name}, {who}, seed {seed}: {moves} moves in {elapsed:.2f} s")
    print(f"  {moves / elapsed:.0f} moves/s, {1000 * elapsed / moves:.2f} ms per move")
    print(f"  final scores {list(result.scores)}")
    for name, moment in ((midgame, mid), ("end", state)):
        if moment is None:
            continue
        for kind, draw in (
            ("table", lambda m=moment: renderers.render(game_id, engine.view(m, None))),
            ("private", lambda m=moment: renderers.render_private(game_id, engine.view(m, 0))),
        ):
            figures = _timed_png(draw)
            if figures is not None:
                print(f"  {kind} picture {name}: {_describe(figures)}")


def play(engine: Any, state: Any, rng: random.Random, is_midgame: Callable[[Any], bool]) -> Any:
    """A random game to its end: the moves made, the first mid-game state, the last state."""
    moves, mid = 0, None
    while pending := engine.decisions(state):
        decision = rng.choice(pending)
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
        moves += 1
        if mid is None and is_midgame(state):
            mid = state
    return moves, mid, state


MIDGAME: dict[str, Callable[[Any], bool]] = {
    "keyflower": lambda state: state.season == 2,
    "burgundy": lambda state: state.phase == 2,
    "village": lambda state: state.round == 4,
    "coffee": lambda state: state.period == 2,
}


def compare_encoders(seed: int) -> None:
    """The four games' table pictures at 4 players, both encoders on the same drawings."""
    print("| Picture | drawing | encoding before → now | PNG before → now |")
    print("| --- | --- | --- | --- |")
    for game_id, is_midgame in MIDGAME.items():
        engine = games.get(game_id)
        _, mid, end = play(engine, engine.new(4, seed), random.Random(seed), is_midgame)
        for name, moment in (("mid-game", mid), ("end", end)):
            if moment is None:
                continue
            view = engine.view(moment, None)
            figures = _timed_png(lambda g=game_id, v=view: renderers.render(g, v))
            assert figures is not None
            print(
                f"| {engine.name}, {name} | {figures['draw']:.1f} ms"
                f" | {figures['rgb']:.1f} → {figures['flat']:.1f} ms"
                f" | {figures['rgb KiB']:.0f} → {figures['flat KiB']:.0f} KiB |"
            )


def seed_from_argv() -> int:
    return int(sys.argv[1]) if len(sys.argv) > 1 else 1


if __name__ == "__main__":
    compare_encoders(seed_from_argv())
