"""The one commit path: every change to a game's log (a move, a folded panel's chain of
moves, an undo, a timeout's move) is worked out first and then committed here, with the
same bookkeeping: the sequence check, the append in one transaction (all or none), a
snapshot every SNAPSHOT_EVERY moves, the result and finished status with the move that
ends the game, the seats awaited next, and only then the table's state, history and
decisions moved on.

The caller holds the game's lock. If another process took the move's number first
(`StaleAction`), a move is worked out again on the table reloaded from the log as long as
what the player saw still holds; else the refusal says the panel is out of date.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from meeple_hall.bot.live_game import LiveGame
from meeple_hall.bot.loading import GameLoader
from meeple_hall.bot.refusals import (
    EngineFailed,
    GameOver,
    IllegalMove,
    MadeForYou,
    NotYourTurn,
    NoUndo,
    Stale,
    UndoStale,
)
from meeple_hall.bot.store import FinalResult, StaleAction, Store, Table, TableNotActive
from meeple_hall.games import Action, Decision, IllegalAction, Result
from meeple_hall.games.core import undo
from meeple_hall.games.core.engine import GameEngine
from meeple_hall.games.core.hidden import hidden_parts

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 25
# How often a move whose number another process took is tried again on the reloaded table
# (each retry means yet another move got in first; a player's click is not kept waiting).
STALE_RETRIES = 3


def final_ranks(ranks: tuple[int, ...], resigned: list[bool]) -> list[int]:
    """The engine's ranks, with every seat the AI played out placed below everyone who
    played on (`Seat.played_out`)."""
    keys = [(gave_up, rank) for rank, gave_up in zip(ranks, resigned, strict=True)]
    order = sorted(keys)
    return [order.index(key) + 1 for key in keys]


def final_result(result: Result, table: Table) -> FinalResult:
    return FinalResult(
        scores=tuple(result.scores),
        ranks=tuple(final_ranks(result.ranks, [s.played_out for s in table.seats])),
        breakdown=tuple(dict(b) for b in result.breakdown),
    )


@dataclass(frozen=True)
class Entry:
    """One log entry to append: what the seat chose and the state it leads to."""

    choices: tuple[str, ...]
    state: Any


class CommitPath:
    def __init__(self, store: Store, loader: GameLoader) -> None:
        self.store = store
        self.loader = loader

    # -- the bookkeeping, once -------------------------------------------------------------
    async def commit(
        self,
        game: LiveGame,
        seat: int,
        entries: Sequence[Entry],
        user_id: int | None,
        history: Callable[[], undo.History],
    ) -> None:
        """Append the seat's `entries` as the game's next moves, in one transaction, and
        move the game on to the last one's state (`history()`: undo's history then).
        Raises StaleAction (another process took the number: the caller decides) or
        GameOver (the game ended elsewhere)."""
        engine = game.engine
        seq = game.seq + 1
        last = seq + len(entries) - 1
        snapshot = next(
            (
                (n, engine.dump(entry.state))
                for n, entry in enumerate(entries, start=seq)
                if n % SNAPSHOT_EVERY == 0
            ),
            None,
        )
        result = engine.result(entries[-1].state)
        final = None if result is None else final_result(result, game.table)
        # kept with the move, so a start knows whose turn it is without replaying
        pending = engine.decisions(entries[-1].state) if final is None else []
        awaiting = [d.seat for d in pending]
        moves = [entry.choices for entry in entries]
        try:
            if len(moves) == 1:
                at_once = snapshot[1] if snapshot else None
                await self.store.append_action(
                    game.id, seq, seat, moves[0], user_id, at_once, final, awaiting
                )
            else:
                await self.store.append_actions(
                    game.id, seq, seat, moves, user_id, snapshot, final, awaiting
                )
        except TableNotActive:
            self.loader.forget(game)  # another process ended the game
            raise GameOver() from None
        game.history = history()
        for n in range(seq, last + 1):
            game.acted[n] = seat
        game.state, game.seq = entries[-1].state, last
        game.worked_out("decisions", lambda: pending)  # the next panels ask for them
        if final is not None:
            game.table = await self.store.get_table(game.id) or game.table
            self.loader.forget(game)

    # -- moves -------------------------------------------------------------------------------
    def check_open(self, game: LiveGame) -> None:
        if not self.loader.is_current(game):
            raise GameOver()

    def open_decision(
        self, game: LiveGame, seat: int, seen_seq: int | None, seen_hash: str | None
    ) -> Decision:
        """The seat's decision, if the game is open, it is the seat's turn and (with
        `seen_seq`) the panel seen then still holds; else the Refusal saying which not."""
        self.check_open(game)
        decision = game.decision_for(seat)
        if decision is None:
            raise NotYourTurn()
        if seen_seq is not None and game.moved_on(seat, decision, seen_seq, seen_hash):
            raise Stale()
        return decision

    def check_move(
        self, game: LiveGame, seat: int, choices: tuple[str, ...], seen_seq: int, seen_hash: str
    ) -> None:
        """Refuse at once, without applying anything, a move (its first step) that `apply`
        would refuse as the table stands: not the seat's turn, the panel out of date, or
        choices the decision does not offer."""
        decision = self.open_decision(game, seat, seen_seq, seen_hash)
        try:
            GameEngine.check_choices(decision, choices)
        except IllegalAction as exc:
            raise IllegalMove(exc.message) from exc

    async def apply(
        self,
        game: LiveGame,
        actions: Sequence[Action],
        user_id: int | None,
        *,
        folded: frozenset[str] = frozenset(),
        seen: tuple[int, str | None] | None = None,
    ) -> None:
        """Apply one seat's consecutive actions, all or none. If another process took the
        move's number first, the table is reloaded from the log and the move worked out
        again on it, as long as what the player saw (`seen`: the move number and decision
        hash the move was made against) still holds; else Stale."""
        for _attempt in range(STALE_RETRIES):
            try:
                await self.apply_once(game, actions, user_id, folded)
                return
            except StaleAction:
                await self.loader.catch_up(game)  # another process took this move
                self.check_open(game)
                if seen is None or not game.still_holds(actions[0].seat, *seen):
                    raise Stale() from None
        raise Stale()

    async def apply_once(
        self,
        game: LiveGame,
        actions: Sequence[Action],
        user_id: int | None,
        folded: frozenset[str],
    ) -> None:
        """Every state worked out first (each action after the first must answer the seat's
        next decision, of a `folded` kind, with nothing hidden drawn or turned over), then
        committed."""
        before = game.state
        entries = [Entry(actions[0].choices, self.applied(game, before, actions[0]))]
        secrets = hidden_parts(before) if len(actions) > 1 else []
        for action in actions[1:]:
            state = entries[-1].state
            follows = next((d for d in game.engine.decisions(state) if d.seat == action.seat), None)
            if follows is None or follows.kind not in folded or hidden_parts(state) != secrets:
                raise Stale()
            entries.append(Entry(action.choices, self.applied(game, state, action, follows)))

        def history() -> undo.History:
            moved, state = game.history, before
            for offset, (action, entry) in enumerate(zip(actions, entries, strict=True)):
                moved = moved.moved(
                    game.engine,
                    game.seq + 1 + offset,
                    action,
                    state,
                    entry.state,
                    ask=False,
                    chained=offset > 0,
                )
                state = entry.state
            return moved

        await self.commit(game, actions[0].seat, entries, user_id, history)

    @staticmethod
    def applied(
        game: LiveGame, state: Any, action: Action, decision: Decision | None = None
    ) -> Any:
        """`action` applied to `state` (`decision`: the seat's there; by default the seat's
        decision in the game's state now, which `state` is for the first action)."""
        if decision is None and state is game.state:
            decision = game.decision_for(action.seat)
        try:
            return game.engine.apply(state, action, decision=decision)
        except IllegalAction as exc:
            raise IllegalMove(exc.message) from exc
        except Exception as exc:
            log.exception(
                "engine failed in game %s (%s) at move %s on %s",
                game.id,
                game.table.game,
                game.seq + 1,
                action,
            )
            raise EngineFailed() from exc

    # -- undo ------------------------------------------------------------------------------
    async def undo_plan(self, game: LiveGame, seat: int) -> undo.UndoPlan:
        """What an undo by the seat would take back now, or a NoUndo saying why it cannot.
        A history that starts at a snapshot is first rebuilt from the setup if the seat's
        latest move may lie before it. A move made for the seat (by a timeout, or by the AI
        while it played the seat) is not the seat's to take back."""
        own = game.history.last_own(seat)
        if own is not None:
            made = game.history.steps[own].seq
            logged = await self.store.actions(game.id, after=made - 1)
            if logged and logged[0].seq == made and logged[0].user_id is None:
                raise MadeForYou()
        try:
            return game.history.plan_undo(game.engine, game.state, seat, views=game.views)
        except undo.NoUndo as refused:
            if refused.reason != "nothing" or game.history.complete:
                raise NoUndo(refused.reason) from None
        seq = game.seq
        fresh = await self.loader.replay(game.table, from_setup=True)
        if game.seq == seq:
            game.history = fresh.history
        return await self.undo_plan(game, seat)

    async def undo(
        self, game: LiveGame, seat: int, user_id: int | None, expected: int | None
    ) -> list[int]:
        """Take back the seat's latest move and the moves it made in the same submission, as
        undo entries (see `TableManager.undo`). Returns the moves taken back, in log order."""
        self.check_open(game)
        plan = await self.undo_plan(game, seat)
        if expected is not None and plan.target != expected:
            raise UndoStale()
        plans = undo.with_chain(game.engine, plan, views=game.views)
        entries = [Entry(undo.undo_choices(taken.target), taken.state) for taken in plans]
        try:
            await self.commit(game, seat, entries, user_id, lambda: plans[-1].history)
        except StaleAction:
            await self.loader.catch_up(game)
            self.check_open(game)
            raise Stale() from None
        return sorted(taken.target for taken in plans)
