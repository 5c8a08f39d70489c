"""Keyflower figures: a random full game at 4 players, moves per second, and the table picture.

Run from the repository root: `python bench/keyflower.py [seed]`.
"""

from __future__ import annotations

import io
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.core import Action
from games.keyflower import engine
from games.testing import random_choices
from renderers import keyflower as picture

PLAYERS = 4


def _picture(view: dict) -> tuple[float, int]:
    start = time.perf_counter()
    image = picture.render(view)
    elapsed = time.perf_counter() - start
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return elapsed, len(buffer.getvalue())


def main(seed: int) -> None:
    rng = random.Random(seed)
    state = engine.new(PLAYERS, seed)
    moves, mid_view = 0, None
    start = time.perf_counter()
    while pending := engine.decisions(state):
        d = rng.choice(pending)
        state = engine.apply(state, Action(d.seat, random_choices(d, rng)))
        moves += 1
        if mid_view is None and state.season == 2:
            mid_view = engine.view(state, None)
    elapsed = time.perf_counter() - start
    scores = engine.result(state).scores
    print(f"Keyflower, {PLAYERS} players, seed {seed}: {moves} moves in {elapsed:.2f} s")
    print(f"  {moves / elapsed:.0f} moves/s, {1000 * elapsed / moves:.2f} ms per move")
    print(f"  final scores {list(scores)}")
    for name, view in (("mid-game (autumn)", mid_view), ("end", engine.view(state, None))):
        if view is not None:
            took, size = _picture(view)
            print(f"  table picture {name}: {1000 * took:.0f} ms, PNG {size / 1024:.0f} KiB")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
