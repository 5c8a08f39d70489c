"""The table manager: what the cogs, the clocks and the display ask of the games in play.

It holds three parts and the listeners, and adds nothing to them but the order of things:

- `GameLoader` (bot/loading.py): which games this process serves, each loaded on first use
  from its snapshot and log;
- `CommitPath` (bot/commits.py): every move, folded chain, undo and timeout committed to
  the log the same way, under the game's lock;
- `AISeats` (bot/ai_seats.py): the AI seats, woken after each change.

The store is the truth: a move is applied to a copy, appended to the log in one
transaction, and only then becomes the table's state. Moves on one table are serialised by
the game's lock within this process; the store's sequence check refuses a move another
process got in first. With several processes (bot/shards.py) each serves only its own
shards' tables and follows the changes others commit (`changed_elsewhere`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from meeple_hall import games
from meeple_hall.bot import ai
from meeple_hall.bot.ai_seats import AISeats
from meeple_hall.bot.commits import SNAPSHOT_EVERY, CommitPath, final_ranks, final_result
from meeple_hall.bot.live_game import Listener, LiveGame, decision_hash
from meeple_hall.bot.loading import GameLoader
from meeple_hall.bot.refusals import (
    GameOver,
    LobbyNotOpen,
    Refusal,
    Stale,
    WrongSeatCount,
    lobby_refusal,
)
from meeple_hall.bot.shards import Shards
from meeple_hall.bot.store import (
    LobbyClosed,
    SeatCount,
    Store,
    Table,
    TableNotActive,
    TableStatus,
)
from meeple_hall.games import Action, Decision, Result
from meeple_hall.games.core import undo

__all__ = [
    "SNAPSHOT_EVERY",
    "LiveGame",
    "Refusal",
    "TableManager",
    "decision_hash",
    "final_ranks",
    "final_result",
    "lobby_refusal",
]

log = logging.getLogger(__name__)


class TableManager:
    def __init__(
        self, store: Store, chooser: ai.Chooser | None = None, *, shards: Shards | None = None
    ) -> None:
        self.store = store
        self.shards = shards or Shards()
        self.listeners: list[Listener] = []
        # told of each game loaded, before anyone uses it (what players were last shown)
        self.on_load: list[Listener] = []
        self.loader = GameLoader(store, self.shards, self._loaded)
        self.commits = CommitPath(store, self.loader)
        self.ai = AISeats(self.loader, self.commits, self._tell_listeners, chooser)
        self._following: set[int] = set()

    # -- what the loader keeps -------------------------------------------------------------
    @property
    def games(self) -> dict[int, LiveGame]:
        return self.loader.games

    @property
    def tables(self) -> dict[int, Table]:
        return self.loader.tables

    @property
    def chooser(self) -> ai.Chooser:
        return self.ai.chooser

    @chooser.setter
    def chooser(self, chooser: ai.Chooser) -> None:
        self.ai.chooser = chooser

    @property
    def _ai_tasks(self) -> dict[int, asyncio.Task[None]]:
        return self.ai.tasks

    @property
    def _start(self) -> asyncio.Task[None] | None:
        return self.loader.at_start

    def serves(self, table: Table) -> bool:
        return self.loader.serves(table)

    async def index(self) -> None:
        await self.loader.index()

    def served(self) -> list[Table]:
        return self.loader.served()

    def note_table(self, table: Table) -> None:
        self.loader.note_table(table)

    def get(self, table_id: int) -> LiveGame | None:
        return self.loader.get(table_id)

    def in_channel(self, channel_id: int) -> LiveGame | None:
        return self.loader.in_channel(channel_id)

    async def fetch(self, table_id: int) -> LiveGame | None:
        return await self.loader.fetch(table_id)

    async def fetch_in(self, channel_id: int) -> LiveGame | None:
        return await self.loader.fetch_in(channel_id)

    async def load(self, table: Table) -> LiveGame | None:
        return await self.loader.load(table)

    async def replayed(self, table: Table) -> Any:
        return await self.loader.replayed(table)

    # -- start and loading -----------------------------------------------------------------
    async def resume(self) -> None:
        """Once connected: the AI seats whose turn it is play, and a game whose log already
        reaches its end (the bot stopped between the last move and the end of the game,
        as older versions wrote them apart) is finished. Only the games whose stored
        `awaiting` says so are loaded for it, in the background, so the start is quick."""
        for game in list(self.games.values()):
            self.wake_ai(game)
        wanted = [table.id for table in self.tables.values() if _wanted_at_start(table)]
        if wanted:
            self.loader.load_in_background(wanted)

    async def loaded_at_start(self) -> None:
        """Wait until the games loaded in the background at start are (benches, tests)."""
        if self.loader.at_start is not None:
            await asyncio.shield(self.loader.at_start)

    async def _loaded(self, game: LiveGame) -> LiveGame | None:
        """A game just replayed: shown as last shown, kept, its `awaiting` noted (an older
        version's log), finished if its log reached its end, else its AI seats woken."""
        for hook in self.on_load:
            await hook(game)
        self.loader.add(game)
        awaiting = tuple(d.seat for d in game.decisions())
        if game.table.awaiting != awaiting:
            await self.store.note_awaiting(game.id, game.seq, awaiting)
        if (result := game.result()) is not None:
            await self._finish_loaded(game, result)
            return None
        self.wake_ai(game)
        return game

    async def _finish_loaded(self, game: LiveGame, result: Result) -> None:
        try:
            game.table = await self.store.finish_table(game.id, final_result(result, game.table))
        except TableNotActive:
            log.info("game %s was finished by another process", game.id)
            game.table = await self.store.get_table(game.id) or game.table
        self.loader.forget(game)
        await self._tell_listeners(game)

    # -- listeners and the AI ----------------------------------------------------------------
    async def _changed(self, game: LiveGame) -> None:
        await self._tell_listeners(game)
        self.wake_ai(game)

    async def _tell_listeners(self, game: LiveGame) -> None:
        for listener in self.listeners:
            await listener(game)

    def wake_ai(self, game: LiveGame) -> None:
        """Let the AI seats that must act play (every change here wakes them through this)."""
        self.ai.wake(game)

    async def think(
        self, game: LiveGame, seat: int, level: str
    ) -> tuple[int, Decision, tuple[str, ...]] | None:
        return await self.ai.think(game, seat, level)

    # -- other processes' changes ----------------------------------------------------------
    async def changed_elsewhere(self, table_id: int | None) -> None:
        """Another process committed a change to a table (None: to any, unheard): a game
        this process serves is brought up to date from the store and shown again; a game
        of its shards started elsewhere is picked up."""
        if table_id is not None:
            await self._follow(table_id)
            return
        for game in list(self.games.values()):
            await self._follow(game.id)
        in_play = {
            t.id: t for t in await self.store.open_tables() if t.status is TableStatus.ACTIVE
        }
        for gone in set(self.tables) - set(in_play):
            self.tables.pop(gone, None)
        for table in in_play.values():
            if table.id in self.tables:
                self.tables[table.id] = table  # loaded, up to date, on its next use
            elif table.id not in self.games:
                await self._follow(table.id)

    async def _follow(self, table_id: int) -> None:
        game = self.games.get(table_id)
        if game is None:
            await self._pick_up(table_id)
            return
        async with game.lock:
            if not self.loader.is_current(game):
                return
            table = await self.store.get_table(table_id)
            if table is None:
                return
            seq = await self.store.last_seq(table_id)
            if (seq, table.status, table.seats) == (game.seq, TableStatus.ACTIVE, game.table.seats):
                return  # nothing this process has not seen
            if seq != game.seq:
                await self.loader.catch_up(game)
            game.table = table
            if table.status is not TableStatus.ACTIVE:
                self.loader.forget(game)
        await self._changed(game)

    async def _pick_up(self, table_id: int) -> None:
        if table_id in self._following:
            return
        self._following.add(table_id)
        try:
            table = await self.store.get_table(table_id)
            if table is None or table.status is not TableStatus.ACTIVE or not self.serves(table):
                self.tables.pop(table_id, None)
                return
            if table_id not in self.games:
                game = await self.load(table)
                if game is not None:
                    await self._changed(game)
        finally:
            self._following.discard(table_id)

    # -- starting and ending ----------------------------------------------------------
    async def start(self, table_id: int) -> LiveGame:
        """Start a lobby with the seats it has in the store at this moment."""
        table = await self.store.get_table(table_id)
        if table is None:
            raise LobbyNotOpen()
        engine = games.get(table.game)
        try:
            table = await self.store.start_table(
                table_id, min_seats=engine.min_players, max_seats=engine.max_players
            )
        except SeatCount:
            raise WrongSeatCount(engine.min_players, engine.max_players) from None
        except LobbyClosed as closed:
            raise lobby_refusal(closed) from None
        state = engine.new(len(table.seats), table.seed, table.options)
        game = LiveGame(table=table, engine=engine, state=state, seq=0)
        self.loader.add(game)
        await self.store.note_awaiting(table.id, 0, [d.seat for d in game.decisions()])
        await self._changed(game)
        return game

    async def abandon(self, game: LiveGame) -> None:
        await self._end_command(game, lambda: self.store.abandon_table(game.id))

    async def resign(
        self,
        game: LiveGame,
        seat: int,
        *,
        seen_seq: int | None = None,
        seen_hash: str | None = None,
        play_out: bool = False,
    ) -> None:
        """The seat leaves; the AI plays it out and it ranks below everyone (once every seat
        is the AI's, the game is abandoned, unless `play_out`: a rated game is played to its
        end). With `seen_seq`/`seen_hash` (a timeout), only while the seat's decision is
        still the one seen, as `submit` checks a move."""
        await self._end_command(
            game,
            lambda: self.store.resign_seat(game.id, seat, play_out=play_out),
            check=None if seen_seq is None else (seat, seen_seq, seen_hash),
        )

    async def hand_to_ai(self, game: LiveGame, seat: int, ai: bool) -> None:
        """A player's seat played by the AI for now (after timeouts), or given back."""
        await self._end_command(game, lambda: self.store.set_seat_ai(game.id, seat, ai))

    async def _end_command(
        self,
        game: LiveGame,
        command: Callable[[], Awaitable[Table]],
        check: tuple[int, int, str | None] | None = None,
    ) -> None:
        async with game.lock:
            self.commits.check_open(game)
            if check is not None and not game.still_holds(*check):
                raise Stale()
            try:
                game.table = await command()
            except TableNotActive:
                self.loader.forget(game)  # another process ended it
                raise GameOver() from None
            if game.table.status is not TableStatus.ACTIVE:
                self.loader.forget(game)
        await self._changed(game)

    # -- moves and undo --------------------------------------------------------------------
    async def submit(
        self,
        game: LiveGame,
        seat: int,
        choices: tuple[str, ...],
        *,
        user_id: int | None,
        seen_seq: int | None = None,
        seen_hash: str | None = None,
    ) -> Decision | None:
        """Apply a seat's move; return the seat's next decision, if it has one.

        `seen_seq` and `seen_hash` say what the panel was built from: the move is taken
        if the table has not moved on, or if only other seats moved since and this seat's
        decision is still the same one (simultaneous decisions).
        """
        return await self.submit_chain(
            game, seat, (choices,), user_id=user_id, seen_seq=seen_seq, seen_hash=seen_hash
        )

    async def submit_chain(
        self,
        game: LiveGame,
        seat: int,
        steps: Sequence[tuple[str, ...]],
        *,
        user_id: int | None,
        seen_seq: int | None = None,
        seen_hash: str | None = None,
        folded: frozenset[str] = frozenset(),
    ) -> Decision | None:
        """Apply a seat's answers to its decision and to the decisions that follow it (a
        panel's chained option) as consecutive moves of the log, all or none, checked as
        `submit` checks one. Each answer after the first must be to the seat's next decision,
        of a `folded` kind, reached without anything hidden drawn or turned over: a chain
        shows nothing that separate clicks would have shown in between."""
        async with game.lock:
            decision = self.commits.open_decision(game, seat, seen_seq, seen_hash)
            if seen_seq is None:  # a typed move: made against the table as it is now
                seen_seq, seen_hash = game.seq, decision_hash(decision)
            actions = [Action(seat, choices) for choices in steps]
            await self.commits.apply(
                game, actions, user_id, folded=folded, seen=(seen_seq, seen_hash)
            )
        await self._changed(game)
        return game.decision_for(seat) if game.table.status is TableStatus.ACTIVE else None

    def check_move(
        self, game: LiveGame, seat: int, choices: tuple[str, ...], seen_seq: int, seen_hash: str
    ) -> None:
        """Refuse at once, without applying anything, a move that `submit` would refuse as
        the table stands (a click is then answered with the refusal itself)."""
        self.commits.check_move(game, seat, choices, seen_seq, seen_hash)

    async def undo_plan(self, game: LiveGame, seat: int) -> undo.UndoPlan:
        return await self.commits.undo_plan(game, seat)

    async def undo(
        self, game: LiveGame, seat: int, *, user_id: int | None, expected: int | None = None
    ) -> list[int]:
        """Take back the seat's latest move, and with it the moves it made in the same
        submission (a folded panel line: one click, one undo) as far back as undo allows:
        undo entries appended to the log in one transaction. `expected` (an Undo button's)
        is the move the undo was offered for. Returns the numbers of the moves taken back,
        in log order."""
        async with game.lock:
            taken = await self.commits.undo(game, seat, user_id, expected)
        await self._changed(game)
        return taken

    async def close(self) -> None:
        self.ai.close()
        self.loader.close()


def _wanted_at_start(table: Table) -> bool:
    if table.awaiting is None or not table.awaiting:  # not known, or nobody: ended
        return True
    return any(table.seats[s].ai for s in table.awaiting if 0 <= s < len(table.seats))
