"""What undo costs: the bookkeeping on every move, a game's replay at load, and an undo.

    python bench/undo.py [--players 4] [--seed 1] [GAME ...]

For one random full game of each game (all four by default) it prints:

- move: p50/p95 of `engine.apply` alone, and of the bookkeeping the bot adds to each move
  (`History.moved` with ask=False, as `TableManager._apply` does: the draw test on marked
  fields and generators, the state kept for an undo);
- reveals: p50/p95 of the full `engine.reveals` (views of every seat before and after),
  which an undo or an Undo button asks for only about the moves it would cross;
- replay: the whole log replayed with plain `engine.apply` and through `undo.replay` (what
  the bot does at load), and the largest number of states held for undo at once;
- undo: p50/p95 of `History.plan_undo` at the points where the mover could undo.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass

from meeple_hall import games
from meeple_hall.games import Action
from meeple_hall.games.core.undo import History, NoUndo, replay
from meeple_hall.games.testing import random_choices


@dataclass(frozen=True)
class Line:
    seq: int
    seat: int
    choices: tuple[str, ...]


def ms(values: list[float]) -> str:
    if not values:
        return "—"
    cut = statistics.quantiles(values, n=20)[18] if len(values) > 1 else values[0]
    return f"p50 {statistics.median(values) * 1000:.2f} ms, p95 {cut * 1000:.2f} ms"


def bench(game_id: str, players: int, seed: int) -> None:
    engine = games.get(game_id)
    players = max(engine.min_players, min(players, engine.max_players))
    rng = random.Random(seed)
    state = engine.new(players, seed)
    history = History()
    applies, moved, reveals, undos = [], [], [], []
    log: list[Line] = []
    held = 0
    while pending := engine.decisions(state):
        decision = rng.choice(pending)
        action = Action(decision.seat, random_choices(decision, rng))
        t0 = time.perf_counter()
        after = engine.apply(state, action)
        t1 = time.perf_counter()
        history = history.moved(engine, len(log) + 1, action, state, after, ask=False)
        t2 = time.perf_counter()
        engine.reveals(state, action, after)
        t3 = time.perf_counter()
        applies.append(t1 - t0)
        moved.append(t2 - t1)
        reveals.append(t3 - t2)
        log.append(Line(len(log) + 1, action.seat, action.choices))
        held = max(held, len(history.befores))
        state = after
        if len(log) % 5 == 0 and engine.decisions(state):
            t4 = time.perf_counter()
            try:
                history.plan_undo(engine, state, action.seat)
                undos.append(time.perf_counter() - t4)
            except NoUndo:
                pass
    start = engine.new(players, seed)
    t0 = time.perf_counter()
    plain = start
    for line in log:
        plain = engine.apply(plain, Action(line.seat, line.choices))
    t1 = time.perf_counter()
    honoured, _ = replay(engine, log, start)
    t2 = time.perf_counter()
    assert engine.dump(plain) == engine.dump(honoured) == engine.dump(state)
    print(f"{engine.name}, {players} players, {len(log)} moves")
    print(f"  move: apply {ms(applies)}; undo bookkeeping {ms(moved)}")
    print(f"  reveals (full): {ms(reveals)}")
    print(
        f"  replay: plain {t1 - t0:.2f} s, with undo history {t2 - t1:.2f} s; "
        f"at most {held} states held for undo"
    )
    print(f"  undo: {ms(undos)} over {len(undos)} undos offered")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=games.ids())
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for game_id in args.games:
        bench(game_id, args.players, args.seed)


if __name__ == "__main__":
    main()
