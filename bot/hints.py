"""`/hint`: the `good` AI level's answer to a player's current decision, with its reason, in
casual games only; and the record everyone at the table sees that a hint was taken.

A hint is asked of the same good player an AI seat plays with, with the same seed it would
play this move with (bot/ai.py: answer_seed), worked out in the AI's worker processes
(games/ai/reasons.py: `advise_from_dump`, there so that a worker imports nothing of the
bot's Discord side; `advise` also says which feature decided). Rated games and
tournament games give none. Each hint taken is kept with the table (Store.note_hint, in its
settings under HINTS_TAKEN) and shown in its Log, in `/replay` and in its `/export`.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from meeple_hall.bot import ai
from meeple_hall.bot.i18n import t
from meeple_hall.bot.live_game import LiveGame, decision_hash
from meeple_hall.bot.ratings import table_is_rated
from meeple_hall.bot.refusals import NotYourTurn, Refusal
from meeple_hall.bot.store import Store, Table
from meeple_hall.bot.store.base import HINTS_TAKEN
from meeple_hall.games import Decision
from meeple_hall.games.ai.pool import Workers
from meeple_hall.games.ai.reasons import Advice, Reason, advise_from_dump


@dataclass(frozen=True)
class Hint:
    seq: int  # the move the hint is for (the game's next)
    decision: Decision
    advice: Advice


def hints_taken(table: Table) -> list[tuple[int, int]]:
    """The hints taken at the table, as (move, seat), in the order they were taken."""
    taken = []
    for entry in table.settings.get(HINTS_TAKEN, "").split():
        seq, _, seat = entry.partition(":")
        if seq.isdigit() and seat.isdigit():
            taken.append((int(seq), int(seat)))
    return taken


def hint_line(table: Table, seq: int, seat: int, locale: str) -> str:
    """A hint taken, as the Log and /replay tell it ("💡 Alice took a hint at move 12")."""
    return t(locale, "log.hint", name=table.seats[seat].name, seq=seq)


def hint_lines(table: Table, locale: str, *, since: int = 0, at: int | None = None) -> list[str]:
    """The hints taken at the table for moves after `since` (or for move `at` alone)."""
    return [
        hint_line(table, seq, seat, locale)
        for seq, seat in hints_taken(table)
        if seq > since and (at is None or seq == at)
    ]


def reason_text(locale: str, reason: Reason) -> str:
    """Why the good player answers so, in the reader's language."""
    fields: dict[str, object] = dict(reason.numbers)
    if reason.category is not None:
        fields["category"] = reason.category
    return t(locale, f"hint.reason.{reason.kind}", **fields)


async def check_casual(store: Store, table: Table) -> None:
    """Refuse a hint in a game that counts (a rated one, or a tournament's), and in a game
    with no good AI player to ask."""
    if "good" not in ai.levels_for(table.game):
        raise Refusal("hint.unavailable")
    if await store.tournament_table_of(table.id) is not None:
        raise Refusal("hint.tournament")
    if table_is_rated(table):
        raise Refusal("hint.rated")


class Hints:
    """Hints worked out in the AI's worker processes (or, where the AI thinks elsewhere, in
    one worker process of their own, started on first use)."""

    def __init__(self, workers: Workers | None) -> None:
        self._own = None if workers is not None else Workers(max_workers=1)
        self.workers = workers or self._own

    async def hint(self, game: LiveGame, seat: int) -> Hint:
        """The good player's answer to the seat's decision as the game stands: refused if
        the seat has none, or if its decision changed while the answer was worked out."""
        async with game.lock:
            decision = game.decision_for(seat)
            if decision is None:
                raise NotYourTurn()
            seq = game.seq
            dump = game.engine.dump(game.state)
        seed = ai.answer_seed(game.table.seed, seq, seat)
        assert self.workers is not None
        loop = asyncio.get_running_loop()
        advice = await loop.run_in_executor(
            self.workers.executor(), advise_from_dump, game.table.game, dump, seat, seed
        )
        if not game.still_holds(seat, seq, decision_hash(decision)):
            raise Refusal("hint.moved_on")
        return Hint(game.seq + 1, decision, advice)

    def close(self) -> None:
        if self._own is not None:
            self._own.shutdown()
