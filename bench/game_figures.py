"""What every game's bench prints: a random full game's speed, and the table and private
pictures drawn and encoded as the bot does it (mid-game and at the end): the median of
five drawings, split into drawing and encoding; the first drawing of a process also loads
fonts and caches, so it is printed apart.

Used by bench/keyflower.py, burgundy.py, village.py and coffee.py.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from meeple_hall import games, renderers
from meeple_hall.bot.render import png_bytes
from meeple_hall.games.core import Action
from meeple_hall.games.testing import random_choices


def _timed_png(draw: Callable[[], Any], runs: int = 5) -> str | None:
    first = None
    drawing, encoding = [], []
    for _ in range(runs):
        start = time.perf_counter()
        image = draw()
        if image is None:
            return None
        drawn = time.perf_counter()
        data = png_bytes(image)
        encoded = time.perf_counter()
        first = first if first is not None else encoded - start
        drawing.append(drawn - start)
        encoding.append(encoded - drawn)
    draw_ms, encode_ms = (1000 * statistics.median(t) for t in (drawing, encoding))
    return (
        f"{draw_ms + encode_ms:.0f} ms ({draw_ms:.0f} drawing + {encode_ms:.0f} encoding;"
        f" first {1000 * first:.0f} ms), PNG {len(data) / 1024:.0f} KiB"
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
    moves, mid = 0, None
    start = time.perf_counter()
    while pending := engine.decisions(state):
        decision = rng.choice(pending)
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
        moves += 1
        if mid is None and is_midgame(state):
            mid = state
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
                print(f"  {kind} picture {name}: {figures}")


def seed_from_argv() -> int:
    return int(sys.argv[1]) if len(sys.argv) > 1 else 1
