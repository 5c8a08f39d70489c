"""A game as a JSON document: its setup, seed, seats and the whole action log.

Anyone can rebuild every state of the game from it with the engine contract alone (the
document says how, in `rebuild`). Undo entries are kept: the log is exported as it was
written, each move marked `undone` when a later undo took it back.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from meeple_hall import games
from meeple_hall.bot.store import LoggedAction, Table
from meeple_hall.games.core.undo import undone, undone_seq

FORMAT = "meeple-hall/game-export"
VERSION = 1
HOW_TO_REBUILD = (
    "engine = meeple_hall.games.get(game); state = engine.new(len(seats), seed, options); "
    "then, in log order, for every entry of kind 'move' that is not 'undone': "
    "state = engine.apply(state, Action(seat, choices)). The state after move n is the state "
    "after the moves not undone up to n. An entry of kind 'undo' took back the move numbered "
    "'takes_back' (its choices are ['!undo', n], outside the option-id grammar)."
)


def _when(at: datetime | None) -> str | None:
    return at.isoformat() if at is not None else None


def export_document(table: Table, log: list[LoggedAction]) -> dict[str, Any]:
    engine = games.get(table.game)
    gone = undone(log)
    entries: list[dict[str, Any]] = []
    for entry in log:
        line: dict[str, Any] = {
            "seq": entry.seq,
            "seat": entry.seat,
            "choices": list(entry.choices),
            "user_id": entry.user_id,
            "at": _when(entry.at),
        }
        if (target := undone_seq(entry.choices)) is not None:
            line.update(kind="undo", takes_back=target)
        else:
            line.update(kind="move", undone=entry.seq in gone)
        entries.append(line)
    return {
        "format": FORMAT,
        "version": VERSION,
        "rebuild": HOW_TO_REBUILD,
        "table": table.id,
        "game": table.game,
        "game_name": engine.name,
        "options": dict(table.options),
        "settings": dict(table.settings),
        "seed": table.seed,
        "status": table.status.value,
        "created_at": _when(table.created_at),
        "started_at": _when(table.started_at),
        "ended_at": _when(table.ended_at),
        "seats": [
            {
                "seat": i,
                "name": s.name,
                "user_id": s.user_id,
                "ai": s.ai,
                "resigned": s.resigned,
            }
            for i, s in enumerate(table.seats)
        ],
        "result": table.result,
        "log": entries,
    }


def export_bytes(table: Table, log: list[LoggedAction]) -> bytes:
    return json.dumps(export_document(table, log), ensure_ascii=False, indent=1).encode()


def file_name(table: Table) -> str:
    return f"meeple-hall-table-{table.id}-{table.game}.json"
