"""What a move shows to everyone: one rule for the table's Log, `/replay` and anything later.

A game that keeps an event log tells each move in it, for everyone at the table, as far as
the rules show it. A move's own option ids may say more: a Keyflower seat's winter tiles,
chosen while the others still choose (`W02`), who offered which tile after the reveal (the
engine shuffles the offer to hide exactly that), which skill tile was paid face down. So
while a game is in play a move is shown by the events it added, never by its choices; once
the game has ended every choice may be shown. A game that keeps no event log (the test
games) is shown by its moves as typed: it has nothing else to show.
"""

from __future__ import annotations

from typing import Any

from meeple_hall.bot.store import LoggedAction


def keeps_events(public_view: dict[str, Any]) -> bool:
    """Whether a game tells its moves in an event log (`view(state, None)["log"]`)."""
    return isinstance(public_view.get("log"), list)


def shows_choices(keeps_log: bool, ended: bool) -> bool:
    """Whether a move's option ids may be shown to everyone."""
    return ended or not keeps_log


def typed(move: LoggedAction) -> str:
    """A move as `/move` would take it: `W02 W05`."""
    return f"`{' '.join(move.choices) or '—'}`"


def new_events(before: list[Any], after: list[Any]) -> list[Any]:
    """The events a move added, from the public event logs before and after it. Views give
    only the latest events (LOG_SHOWN), so after a long log the two windows are matched by
    their longest overlap."""
    for start in range(len(before) + 1):
        overlap = before[start:]
        if after[: len(overlap)] == overlap:
            return after[len(overlap) :]
    return after
