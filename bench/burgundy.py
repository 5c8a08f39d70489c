"""The Castles of Burgundy figures: a random full game at 4 players, moves per second, and the
table and private pictures (mid-game and at the end).

Run from the repository root: `python bench/burgundy.py [seed] [players]`.
"""

from __future__ import annotations

import io
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.burgundy import engine
from games.core import Action
from games.testing import random_choices
from renderers import burgundy as picture

PLAYERS = 4


def _picture(draw: Any, view: dict) -> tuple[float, int]:
    start = time.perf_counter()
    image = draw(view)
    elapsed = time.perf_counter() - start
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return elapsed, len(buffer.getvalue())


def main(seed: int, players: int) -> None:
    rng = random.Random(seed)
    state = engine.new(players, seed)
    moves, mid = 0, None
    start = time.perf_counter()
    while pending := engine.decisions(state):
        d = rng.choice(pending)
        state = engine.apply(state, Action(d.seat, random_choices(d, rng)))
        moves += 1
        if mid is None and state.phase == 2:
            mid = (engine.view(state, None), engine.view(state, 0))
    elapsed = time.perf_counter() - start
    scores = engine.result(state).scores
    print(
        f"The Castles of Burgundy, {players} players, seed {seed}: {moves} moves in {elapsed:.2f} s"
    )
    print(f"  {moves / elapsed:.0f} moves/s, {1000 * elapsed / moves:.2f} ms per move")
    print(f"  final scores {list(scores)}")
    end = (engine.view(state, None), engine.view(state, 0))
    for name, views in (("mid-game (phase C)", mid), ("end", end)):
        if views is None:
            continue
        took, size = _picture(picture.render, views[0])
        print(f"  table picture {name}: {1000 * took:.0f} ms, PNG {size / 1024:.0f} KiB")
        took, size = _picture(picture.render_private, views[1])
        print(f"  private picture {name}: {1000 * took:.0f} ms, PNG {size / 1024:.0f} KiB")


if __name__ == "__main__":
    main(
        int(sys.argv[1]) if len(sys.argv) > 1 else 1,
        int(sys.argv[2]) if len(sys.argv) > 2 else PLAYERS,
    )
