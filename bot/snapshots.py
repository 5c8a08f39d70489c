"""Whether a stored snapshot is the game its log replays to.

A snapshot is a cache of the state after one move of the log, kept so that a game loads
without replaying its whole log. One written by an earlier version can load and still not be
the game: its log events in an older form, an option id renamed since (Keyflower's cells,
`q,r` before `q_r`), a rule fixed. Such a snapshot is caught by comparing it with the state
the log replays to from the game's setup, the store's truth: the bot does it when it loads a
game (bot/live.py), `meeple-hall migrate-db` for every game it copies (bot/store/transfer.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple_hall.bot.store.base import LoggedAction, Snapshot, Table
from meeple_hall.games import Action, Engine
from meeple_hall.games.core import undo


def replayed(engine: Engine, table: Table, entries: Sequence[LoggedAction]) -> Any:
    """The state after `entries` (the log from its first move on), replayed from the game's
    setup. Undo entries are honoured; a log without any is applied move by move, which
    costs a fraction of the undo bookkeeping."""
    state = engine.new(len(table.seats), table.seed, table.options)
    if any(undo.undone_seq(entry.choices) is not None for entry in entries):
        return undo.replay(engine, entries, state)[0]
    for entry in entries:
        state = engine.apply(state, Action(entry.seat, tuple(entry.choices)))
    return state


def same_game(engine: Engine, state: Any, other: Any) -> bool:
    """Whether two states are the same game: the same `dump()`, the same `repr()` and the
    same decisions (options in the same order). A dump may not show the order a state's
    dictionaries hold their keys in, on which the moves after it may depend (a Coffee
    Traders game loaded from a snapshot that sorted them logged its harvests in another
    order than the live game, at commit b3fe618); a state's repr does. A state that fails
    when asked (a stale option id in it) is not the game."""
    try:
        return (
            engine.dump(state) == engine.dump(other)
            and repr(state) == repr(other)
            and engine.decisions(state) == engine.decisions(other)
        )
    except Exception:
        return False


def state_at(engine: Engine, table: Table, entries: Sequence[LoggedAction], seq: int) -> Any:
    """The state after move `seq` of the log (`entries`, from its first move), replayed
    from the setup; None if the log does not reach that move."""
    upto = [entry for entry in entries if entry.seq <= seq]
    return replayed(engine, table, upto) if len(upto) == seq else None


def snapshot_agrees(
    engine: Engine,
    table: Table,
    snapshot: Snapshot,
    entries: Sequence[LoggedAction],
    loaded: Any = None,
) -> bool:
    """Whether `snapshot` (`loaded`: the state it loads to, if loaded already) is the game
    its log (`entries`, from its first move) replays to at the snapshot's move."""
    truth = state_at(engine, table, entries, snapshot.seq)
    state = engine.load(snapshot.state) if loaded is None else loaded
    return truth is not None and same_game(engine, state, truth)
