"""The AI seats of the games in play: woken when a game changes, each move thought out with
the game's lock released (humans' moves and panels go on meanwhile) and committed through
the one commit path only if the table has not moved on from what the AI saw.

Answers are worked out away from the event loop, in worker processes (`ai.WorkerPool`) or
by the chooser given (tests give an in-process one).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from meeple_hall.bot import ai
from meeple_hall.bot.commits import CommitPath
from meeple_hall.bot.live_game import LiveGame, decision_hash
from meeple_hall.bot.loading import GameLoader
from meeple_hall.bot.refusals import Stale
from meeple_hall.bot.store import TableStatus
from meeple_hall.games import Action, Decision
from meeple_hall.games.ai import levels

log = logging.getLogger(__name__)

Thought = tuple[int, Decision, tuple[str, ...]]


class AISeats:
    def __init__(
        self,
        loader: GameLoader,
        commits: CommitPath,
        moved: Callable[[LiveGame], Awaitable[None]],
        chooser: ai.Chooser | None = None,
    ) -> None:
        self.loader = loader
        self.commits = commits
        # told after each AI move (the table's listeners)
        self._moved = moved
        self._pool: ai.WorkerPool | None = None
        if chooser is None:
            chooser = self._pool = ai.WorkerPool()
        self.chooser: ai.Chooser = chooser
        self.tasks: dict[int, asyncio.Task[None]] = {}

    @property
    def workers(self) -> ai.WorkerPool | None:
        """The worker processes the AI thinks in (None: the chooser given thinks elsewhere)."""
        return self._pool

    def wake(self, game: LiveGame) -> None:
        """Let the AI seats that must act play, without keeping anyone waiting."""
        table = game.table
        if table.status is not TableStatus.ACTIVE or game.id in self.tasks:
            return
        if not self.loader.serves(table) or table.paused_at is not None:
            # another process's table (its own process plays its AI seats), or its channel
            # is gone: nobody plays until it is reopened elsewhere
            return
        if any(table.seats[d.seat].ai for d in game.decisions()):
            self.tasks[game.id] = asyncio.create_task(self._play(game), name=f"ai-{game.id}")

    async def _play(self, game: LiveGame) -> None:
        """Play the AI seats that must act, one move at a time, until none must."""
        try:
            while self.loader.is_current(game):
                pending = [d for d in game.decisions() if game.table.seats[d.seat].ai]
                if not pending:
                    break
                seat = pending[0].seat
                level = ai.seat_level(game.table.game, game.table.seats[seat])
                thought = await self.think(game, seat, level)
                if thought is not None and await self._commit(game, seat, thought):
                    # Not the manager's `changed`: this task goes on with the AI seats left.
                    await self._moved(game)
        except Exception:
            # Not woken again at once: a failing AI would fail again in a loop.
            log.exception("AI move failed in game %s at move %s", game.id, game.seq)
        finally:
            self.tasks.pop(game.id, None)

    async def _commit(self, game: LiveGame, seat: int, thought: Thought) -> bool:
        """Commit the AI's move if the game has not moved on since it was thought out;
        whether it was (if not, it is thought again)."""
        seen_seq, decision, choices = thought
        seen = (seen_seq, decision_hash(decision))
        async with game.lock:
            if not self.loader.is_current(game) or not game.table.seats[seat].ai:
                return False
            if not game.still_holds(seat, *seen):
                return False  # the game moved on while the AI thought
            try:
                await self.commits.apply(game, [Action(seat, choices)], None, seen=seen)
            except Stale:
                return False  # another process moved first: caught up, think again
        return True

    async def think(self, game: LiveGame, seat: int, level: str) -> Thought | None:
        """The AI's answer at `level` to the seat's decision, as `(seq, decision, choices)`:
        the state is dumped under the game's lock, the answer worked out by the chooser
        with the lock released. None if the seat has nothing to decide. The caller applies
        it only if the game has not moved on since `seq`."""
        async with game.lock:
            decision = game.decision_for(seat)
            if decision is None:
                return None
            seq = game.seq
            if level == "random":
                return seq, decision, ai.choose(decision, game.table.seed, seq)
            dump = game.engine.dump(game.state)
        seed = ai.answer_seed(game.table.seed, seq, seat)
        try:
            choices = await self.chooser(game.table.game, dump, seat, level, seed)
        except Exception:
            # A worker that died must not stall the table: the game's `good` player (under
            # 50 ms) answers in this process instead.
            log.exception("the %s AI failed in game %s at move %s", level, game.id, seq)
            choices = levels.choose(game.engine, game.engine.load(dump), seat, "good", seed)
        return seq, decision, choices

    def close(self) -> None:
        for task in self.tasks.values():
            task.cancel()
        self.tasks.clear()
        if self._pool is not None:
            self._pool.shutdown()
