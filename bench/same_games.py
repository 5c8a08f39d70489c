"""Whether two trees play the same games: random whole games of one title, every state's
decisions (ids, labels, fields, order, counts), dump, every seat's and the spectator's view,
result, and whether each move reveals, as one digest line a state (with `--near`, also every
state one option away from each state of the path). Run it once in each tree (PYTHONPATH: a
folder holding a `meeple_hall/` of symlinks to that tree's parts, see `move_cpu.py`) and
compare the files: an engine made faster must write the same file.

    python bench/same_games.py GAME OUT [--players 2,3,4,5] [--seeds 0:6] [--near]
                               [--option key=value ...]

Each state is asked again for its decisions and spectator's view after they were given
once, so that a value kept per state is compared too. The last line counts the states.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from typing import Any

from meeple_hall import games
from meeple_hall.games import Action
from meeple_hall.games.core.messages import jsonable


def _decision(d: Any) -> dict[str, Any]:
    return {
        "seat": d.seat,
        "kind": d.kind,
        "prompt": jsonable(d.prompt),
        "options": [[o.id, jsonable(o.label), o.fields] for o in d.options],
        "min": d.min_choices,
        "max": d.max_choices,
    }


def fingerprint(engine: Any, state: Any, players: int) -> str:
    """One state's digest: what a player, the table or a stored game can see of it."""
    pending = [_decision(d) for d in engine.decisions(state)]
    views = [engine.view(state, seat) for seat in (None, *range(players))]
    again = [_decision(d) for d in engine.decisions(state)] == pending and (
        engine.view(state, None) == views[0]
    )
    text = json.dumps(
        {
            "decisions": pending,
            "dump": engine.dump(state),
            "views": views,
            "result": repr(engine.result(state)),
            "asked again": again,
        },
        sort_keys=True,
        default=repr,
    )
    return hashlib.sha256(text.encode()).hexdigest()


def play(engine: Any, players: int, seed: int, near: bool, options: dict[str, str]) -> list[str]:
    """One random whole game's lines (the path's states, then `end`)."""
    rng = random.Random(seed * 10 + players)
    state = engine.new(players, seed, options)
    lines, moves = [], 0
    while True:
        lines.append(fingerprint(engine, state, players))
        pending = engine.decisions(state)
        if not pending or engine.result(state) is not None:
            break
        decision = rng.choice(pending)
        if near and decision.max_choices == 1:
            for option in decision.options:
                after = engine.apply(state, Action(decision.seat, (option.id,)), decision=decision)
                lines.append(fingerprint(engine, after, players) + " near")
        ids = [o.id for o in decision.options]
        count = rng.randint(decision.min_choices, min(decision.max_choices, len(ids)))
        action = Action(decision.seat, tuple(rng.sample(ids, count)))
        after = engine.apply(state, action, decision=decision)
        lines.append(f"reveals {engine.reveals(state, action, after)}")
        state, moves = after, moves + 1
    lines.append(f"end {players} players, seed {seed}: {moves} moves")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("out", help="the file the lines are written to")
    parser.add_argument("--players", default="2,3,4,5")
    parser.add_argument("--seeds", default="0:6", help="first:last+1")
    parser.add_argument("--near", action="store_true", help="also each state one option away")
    parser.add_argument("--option", action="append", default=[], help="a lobby option k=v")
    args = parser.parse_args()
    engine = games.get(args.game)
    options = dict(o.split("=", 1) for o in args.option)
    first, last = (int(x) for x in args.seeds.split(":"))
    states = moves = 0
    with open(args.out, "w", encoding="utf-8") as out:
        for players in (int(p) for p in args.players.split(",")):
            for seed in range(first, last):
                lines = play(engine, players, seed, args.near, options)
                states += sum(1 for line in lines if len(line.split()[0]) == 64)
                moves += int(lines[-1].rsplit(":", 1)[1].split()[0])
                out.write("\n".join(lines) + "\n")
        out.write(f"{states} states, {moves} moves\n")
    print(f"{args.game}: {states} states, {moves} moves -> {args.out}")


if __name__ == "__main__":
    main()
