"""Village figures: a random full game at 4 players (and one solo game against Karla), moves
per second, and the table picture mid-game and at the end.

Run from the repository root: `python bench/village.py [seed]`.
"""

from __future__ import annotations

import io
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.core import Action
from games.testing import random_choices
from games.village import engine
from renderers import village as picture


def _picture(view: dict) -> tuple[float, int]:
    """Render time and PNG size, encoded as the bot encodes table pictures."""
    start = time.perf_counter()
    image = picture.render(view)
    elapsed = time.perf_counter() - start
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return elapsed, len(buffer.getvalue())


def game(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = engine.new(players, seed)
    moves, mid_view = 0, None
    start = time.perf_counter()
    while pending := engine.decisions(state):
        d = rng.choice(pending)
        state = engine.apply(state, Action(d.seat, random_choices(d, rng)))
        moves += 1
        if mid_view is None and state.round == 4:
            mid_view = engine.view(state, None)
    elapsed = time.perf_counter() - start
    result = engine.result(state)
    who = "solo against Karla" if players == 1 else f"{players} players"
    print(f"Village, {who}, seed {seed}: {state.round} rounds, {moves} moves in {elapsed:.2f} s")
    print(f"  {moves / elapsed:.0f} moves/s, {1000 * elapsed / moves:.2f} ms per move")
    print(f"  final scores {list(result.scores)}")
    for name, view in (("mid-game (round 4)", mid_view), ("end", engine.view(state, None))):
        if view is not None:
            took, size = _picture(view)
            print(f"  table picture {name}: {1000 * took:.0f} ms, PNG {size / 1024:.0f} KiB")
    private = picture.render_private(engine.view(state, 0))
    if private is not None:
        buffer = io.BytesIO()
        private.save(buffer, format="PNG", compress_level=1)
        print(f"  private picture: PNG {len(buffer.getvalue()) / 1024:.0f} KiB")


if __name__ == "__main__":
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    game(4, seed)
    game(1, seed)
