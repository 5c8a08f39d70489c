"""Coffee Traders figures: a random full game at 4 players (and a 2-player game against André),
moves per second, and the table picture mid-game (1975) and at the end.

Run from the repository root: `python bench/coffee.py [seed]`.
"""

from __future__ import annotations

import io
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.coffee import engine
from games.core import Action
from games.testing import random_choices
from renderers import coffee as picture


def _png(image) -> int:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return len(buffer.getvalue())


def _picture(view: dict) -> tuple[float, int]:
    """Render time and PNG size, encoded as the bot encodes table pictures."""
    start = time.perf_counter()
    image = picture.render(view)
    return time.perf_counter() - start, _png(image)


def game(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = engine.new(players, seed)
    moves, mid_view = 0, None
    start = time.perf_counter()
    while pending := engine.decisions(state):
        d = rng.choice(pending)
        state = engine.apply(state, Action(d.seat, random_choices(d, rng)))
        moves += 1
        if mid_view is None and state.period == 2:
            mid_view = engine.view(state, None)
    elapsed = time.perf_counter() - start
    result = engine.result(state)
    who = "2 players against André" if players == 2 else f"{players} players"
    print(f"Coffee Traders, {who}, seed {seed}: {moves} moves in {elapsed:.2f} s")
    print(f"  {moves / elapsed:.0f} moves/s, {1000 * elapsed / moves:.2f} ms per move")
    print(f"  final scores {list(result.scores)}")
    for name, view in (("mid-game (1975)", mid_view), ("end", engine.view(state, None))):
        if view is not None:
            took, size = _picture(view)
            print(f"  table picture {name}: {1000 * took:.0f} ms, PNG {size / 1024:.0f} KiB")
    private = picture.render_private(engine.view(state, 0))
    if private is not None:
        print(f"  private picture: PNG {_png(private) / 1024:.0f} KiB")


if __name__ == "__main__":
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    game(4, seed)
    game(2, seed)
