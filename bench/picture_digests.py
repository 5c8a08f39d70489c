"""Every picture of seeded random games, drawn in turn as a table's worker meets them, a
digest per game, player count, seed and kind of picture: to show that a change to how the
pictures are drawn did not change what they show. Run it with each tree and compare the
lines (`diff`); a kind whose digest differs is listed with the moves where it first did
by `--moves`.

    python bench/picture_digests.py [--games keyflower,...] [--players 2,3,4] [--seeds 1,2]
                                    [--every 1] [--moves]

An older tree: run it from /tmp with PYTHONPATH set to a folder holding a `meeple_hall/` of
symlinks to that tree's parts (as `move_cpu.py`'s docstring says). Kinds: the table, the
private picture, the mover's decision picture (narrowed and marked where the tree does so,
`sides.decision_shown`), a seat's own area (seats in turn), a focus (focuses in turn).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from collections import Counter, defaultdict
from typing import Any

from sides import decision_shown

import meeple_hall
from meeple_hall import games, renderers
from meeple_hall.games.core import Action
from meeple_hall.games.testing import random_choices
from meeple_hall.renderers import phone

REAL_GAMES = ("keyflower", "burgundy", "village", "coffee")


def digests(game_id: str, players: int, seed: int, every: int) -> dict[str, tuple[str, int]]:
    """Each kind's digest (its pictures' modes, sizes and pixels, in order) and count; with
    the moves' digests so far under "KIND@MOVE" for the moves drawn."""
    engine = games.get(game_id)
    state, rng = engine.new(players, seed), random.Random(seed)
    hashes: dict[str, Any] = defaultdict(hashlib.sha1)
    counts: Counter[str] = Counter()
    out: dict[str, tuple[str, int]] = {}

    def add(kind: str, move: int, image: Any) -> None:
        if image is None:
            return
        hashes[kind].update(repr((image.mode, image.size)).encode())
        hashes[kind].update(image.tobytes())
        counts[kind] += 1
        out[f"{kind}@{move}"] = (hashes[kind].hexdigest()[:16], counts[kind])

    move = 0
    while True:
        pending = engine.decisions(state)
        if move % every == 0 or not pending:
            spectator = engine.view(state, None)
            add("table", move, renderers.render(game_id, spectator))
            own = engine.view(state, move % players)
            add("private", move, renderers.render_private(game_id, own))
            add("own", move, phone.render_own(game_id, own))
            shown = phone.focuses(game_id, spectator)
            if shown:
                focus = shown[move % len(shown)]
                add("focus", move, phone.render_focus(game_id, spectator, focus))
            if pending:
                view = engine.view(state, pending[0].seat)
                parts, marks = decision_shown(phone, game_id, view, pending[0])
                if parts:
                    picture = phone.render_decision(
                        game_id, view, parts, *([marks] if marks else [])
                    )
                    add("decision", move, picture)
        if not pending:
            break
        decision = rng.choice(pending)
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
        move += 1
    for kind, digest in hashes.items():
        out[kind] = (digest.hexdigest()[:16], counts[kind])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(REAL_GAMES))
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--seeds", default="1,2")
    parser.add_argument("--every", type=int, default=1, help="draw every N-th move")
    parser.add_argument("--moves", action="store_true", help="also each move's running digest")
    args = parser.parse_args()
    print(f"meeple_hall from {meeple_hall.__path__[0]}", file=sys.stderr)
    for game_id in args.games.split(","):
        engine = games.get(game_id)
        for players in (int(n) for n in args.players.split(",")):
            if not engine.min_players <= players <= engine.max_players:
                continue
            for seed in (int(s) for s in args.seeds.split(",")):
                found = digests(game_id, players, seed, args.every)
                for kind, (digest, count) in sorted(found.items()):
                    if "@" not in kind or args.moves:
                        print(f"{game_id} {players}p seed {seed} {kind}: {digest} ({count})")


if __name__ == "__main__":
    main()
