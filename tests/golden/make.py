"""Remakes a golden database: games written by the bot itself, its store and TableManager.

The same script runs on today's version and on an earlier one (the import names changed
from `bot`, `games` to `meeple_hall.…`; the two call shapes that differ are chosen below).
Each database holds, written through the bot's own move path (`TableManager.submit`):

- a game of each of the four titles in play, past its first decisions, with its latest
  snapshot (the bot takes one every 25 moves) and a log after it;
- Keyflower past its first placements, its latest snapshot taken mid-placement: a seat has
  chosen the cell for a tile and is turning it (the state holds the cell's id, `q,r` before
  the rename to `q_r`);
- a finished Village solo game (against Karla), with its result;
- a lobby not started, and two players' preferences.

A fixture is written by a clean export of a commit, installed in a virtual environment of
its own, and run from outside the work tree (so that the installed version is the one that
writes). The version at commit 2230930, whose packages were named `bot` and `games`:

    git archive 2230930 | tar -x -C /tmp/old
    python -m venv /tmp/oldvenv && /tmp/oldvenv/bin/pip install "/tmp/old[test]"
    cd /tmp && /tmp/oldvenv/bin/python /path/to/work-tree/tests/golden/make.py \
        /path/to/work-tree/tests/golden/v2230930.db

and the same with another commit for a newer one (`vb3fe618.db`, `v5a34301.db`).

A fixture is never remade to make a test pass: see README.md beside this script.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
from pathlib import Path
from typing import Any

try:
    from meeple_hall import games
    from meeple_hall.bot.live import TableManager
    from meeple_hall.bot.store import Seat, open_store

    OLD_API = False
except ImportError:  # an earlier version, installed under its old top-level names
    import games  # type: ignore[no-redef]
    from bot.live import TableManager  # type: ignore[no-redef]
    from bot.store import Seat, open_store  # type: ignore[no-redef]

    OLD_API = True


GUILD = 42
ADA, BO, CY = 1001, 1002, 1003
SNAPSHOT_EVERY = 25
PLACING = ("place_tile", "place_at", "place_rot")


def random_answer(decision: Any, rng: random.Random) -> tuple[str, ...]:
    """Any legal answer: every offered combination of options is legal."""
    low = max(decision.min_choices, 1 if decision.max_choices else 0)
    count = rng.randint(low, decision.max_choices)
    return tuple(option.id for option in rng.sample(list(decision.options), count))


def placing(decisions: list[Any]) -> bool:
    return any(d.kind in PLACING for d in decisions)


def keyflower_plan(players: int) -> tuple[int, int]:
    """A seed and a move count for Keyflower: the snapshot at the last multiple of 25 is
    taken while a tile is being turned on the cell chosen for it, and the game stops once
    every placement is done, before the next snapshot. Found by playing the engine alone,
    as the bot will."""
    engine = games.get("keyflower")
    for seed in range(1, 500):
        rng, state, seq, snapshot_placing = random.Random(seed), engine.new(players, seed), 0, 0
        while seq < 8 * SNAPSHOT_EVERY and (pending := engine.decisions(state)):
            if seq and seq % SNAPSHOT_EVERY == 0:
                if snapshot_placing:
                    break  # the placements ran past the next snapshot
                snapshot_placing = seq if any(d.kind == "place_rot" for d in pending) else 0
            elif snapshot_placing and not placing(pending) and seq >= snapshot_placing + 5:
                return seed, seq
            decision = rng.choice(pending)
            state = engine.apply(state, games.Action(decision.seat, random_answer(decision, rng)))
            seq += 1
    raise SystemExit("make.py: no Keyflower seed gives a snapshot taken mid-placement")


async def start(manager: TableManager, table: Any) -> Any:
    if OLD_API:
        return await manager.start(table)
    return await manager.start(table.id)


async def play(manager: TableManager, game: Any, moves: int | None, seed: int) -> None:
    """`moves` moves (None: to the end), each a seat's random answer through the bot."""
    rng, made = random.Random(seed), 0
    while (moves is None or made < moves) and manager.get(game.id) is game:
        pending = game.decisions()
        if not pending:
            break
        decision = rng.choice(pending)
        user_id = game.table.seats[decision.seat].user_id
        await manager.submit(game, decision.seat, random_answer(decision, rng), user_id=user_id)
        made += 1


async def new_game(
    manager: TableManager, channel_id: int, game: str, names: list[tuple[int, str]], seed: int
) -> Any:
    table = await manager.store.create_table(
        guild_id=GUILD,
        channel_id=channel_id,
        host_id=names[0][0],
        game=game,
        options={},
        seed=seed,
        seats=[Seat(user_id, name) for user_id, name in names],
    )
    return await start(manager, table)


async def fill(url: str) -> None:
    store = open_store(url)
    await store.open()
    manager = TableManager(store)
    try:
        trio = [(ADA, "Ada"), (BO, "Bo"), (CY, "Cy")]
        burgundy = await new_game(manager, 1, "burgundy", trio, seed=101)
        await play(manager, burgundy, 40, seed=1)
        coffee = await new_game(manager, 2, "coffee", trio[:2], seed=202)
        await play(manager, coffee, 40, seed=2)
        seed, moves = keyflower_plan(2)
        keyflower = await new_game(manager, 3, "keyflower", trio[:2], seed=seed)
        await play(manager, keyflower, moves, seed=seed)
        village = await new_game(manager, 4, "village", trio, seed=404)
        await play(manager, village, 40, seed=4)
        solo = await new_game(manager, 5, "village", trio[:1], seed=505)
        await play(manager, solo, None, seed=5)
        if manager.get(solo.id) is not None:
            raise SystemExit("make.py: the Village solo game did not finish")
        await store.create_table(
            guild_id=GUILD,
            channel_id=6,
            host_id=BO,
            game="coffee",
            options={},
            seed=606,
            seats=[Seat(BO, "Bo")],
        )
        await store.set_locale(BO, "ja")
        await store.set_locale(CY, "zh-TW")
    finally:
        await manager.close()
        await store.close()


def compact(path: Path) -> None:
    """One file, no -wal or -shm beside it, as small as SQLite makes it."""
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("PRAGMA journal_mode = DELETE")
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("VACUUM")
    db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the database to write (must not exist)")
    out = parser.parse_args().out.resolve()
    if out.exists():
        raise SystemExit(f"make.py: {out} exists; a golden database is never remade in place")
    asyncio.run(fill(f"sqlite:///{out}"))
    compact(out)
    print(f"{out}: {out.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
