"""What checking a snapshot against its log costs when the bot loads a game from it.

    python bench/snapshot_check.py [--players 3] [--seed 1] [--repeat 5] [GAME ...]

For one random full game of each game (all four by default), at every 50th move where the
bot would have a snapshot, it prints the median processor time over --repeat runs of:

- load: what loading the game from that snapshot costs without the check (`engine.load`
  and the 24 moves logged after it, the most a load replays after a snapshot);
- check: `bot/snapshots.py: snapshot_agrees` on the loaded state (the log replayed from
  the setup up to the snapshot, its dump, repr and decisions compared), which the bot adds once
  a snapshot and process (`TableManager._checked_snapshot`; a snapshot found wrong is
  replaced by the state that replay gave);
- replay: loading without any snapshot (the whole log up to there replayed).

The check costs about what a replay from the setup does: once for each game a process
loads, after which every reload of the same snapshot (another process's move, a catch-up)
costs only `load`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from typing import Any

from meeple_hall import games
from meeple_hall.bot.snapshots import replayed, snapshot_agrees
from meeple_hall.bot.store import LoggedAction, Seat, Snapshot, Table, TableStatus
from meeple_hall.games import Action
from meeple_hall.games.testing import random_choices

AFTER = 24  # the most moves a load replays after a snapshot taken every 25


def played(game: str, players: int, seed: int) -> tuple[Table, list[LoggedAction]]:
    """A random full game as the store would hold it: its table and its log."""
    table = Table(
        id=1,
        guild_id=1,
        channel_id=1,
        host_id=1,
        game=game,
        options={},
        seed=seed,
        status=TableStatus.ACTIVE,
        seats=[Seat(n, f"P{n}") for n in range(players)],
    )
    engine, rng = games.get(game), random.Random(seed)
    state, log = engine.new(players, seed, {}), []
    now = datetime.now(UTC)
    while pending := engine.decisions(state):
        decision = rng.choice(pending)
        choices = random_choices(decision, rng)
        state = engine.apply(state, Action(decision.seat, choices))
        log.append(LoggedAction(len(log) + 1, decision.seat, choices, None, now))
    return table, log


def load_from(engine: Any, snapshot: Snapshot, after: list[LoggedAction]) -> Any:
    """The game from its snapshot and the moves logged after it, as a load without the
    check does."""
    state = engine.load(snapshot.state)
    for entry in after:
        state = engine.apply(state, Action(entry.seat, entry.choices))
    return state


def median_ms(work: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()  # processor time: a busy machine's waits left out
        work()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def measure(game: str, players: int, seed: int, repeat: int) -> None:
    table, log = played(game, players, seed)
    engine = games.get(game)
    print(f"{game}: {players} players, {len(log)} moves")
    print(f"  {'move':>5} {'load':>9} {'check':>9} {'replay':>9}")
    for seq in range(50, len(log) - AFTER, 50):
        snapshot = Snapshot(seq, engine.dump(replayed(engine, table, log[:seq])))
        loaded = engine.load(snapshot.state)
        assert snapshot_agrees(engine, table, snapshot, log, loaded)
        load = median_ms(partial(load_from, engine, snapshot, log[seq : seq + AFTER]), repeat)
        check = median_ms(partial(snapshot_agrees, engine, table, snapshot, log, loaded), repeat)
        replay = median_ms(partial(replayed, engine, table, log[: seq + AFTER]), repeat)
        print(f"  {seq:>5} {load:>7.1f}ms {check:>7.1f}ms {replay:>7.1f}ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=games.ids())
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for game in args.games:
        measure(game, args.players, args.seed, args.repeat)


if __name__ == "__main__":
    main()
