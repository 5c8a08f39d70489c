"""Loading the games in play: which tables this process serves, each game read from the
store on its first use, replayed from its latest snapshot (checked once against its log)
or from the setup, and kept here while it is in play.

At start only the rows are read (`index`: one query). A game is loaded on first use
(`fetch`: a click, a clock or reminder falling due, an AI turn, another process's change);
first uses that come together share one load, and the loads queued meanwhile are read
together in one `game_logs` call. `loaded` (given by the table manager) is told of each game
loaded before anyone uses it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from meeple_hall import games
from meeple_hall.bot.live_game import LiveGame
from meeple_hall.bot.shards import Shards
from meeple_hall.bot.snapshots import same_game, state_at
from meeple_hall.bot.store import Store, Table, TableStatus
from meeple_hall.bot.store.base import GameLog, LoggedAction, Snapshot
from meeple_hall.games import Action, Engine
from meeple_hall.games.core import undo

log = logging.getLogger(__name__)

Loaded = Callable[[LiveGame], Awaitable[LiveGame | None]]


class GameLoader:
    def __init__(self, store: Store, shards: Shards, loaded: Loaded) -> None:
        self.store = store
        self.shards = shards
        # the games in play this process serves: loaded, and not loaded yet (their rows)
        self.games: dict[int, LiveGame] = {}
        self.tables: dict[int, Table] = {}
        # a game just loaded, before it is used: what becomes of it (None: it ended)
        self._after_load = loaded
        self._loads: dict[int, asyncio.Future[LiveGame | None]] = {}
        self._queued: list[int] = []
        self._loader: asyncio.Task[None] | None = None
        self.at_start: asyncio.Task[None] | None = None
        # each table's latest snapshot checked against its log here: its move, and whether
        # it is the game
        self._checked_snapshots: dict[int, tuple[int, bool]] = {}

    def serves(self, table: Table) -> bool:
        """Whether this process plays the table (its guild is in one of our shards)."""
        return self.shards.serves(table.guild_id)

    async def index(self) -> None:
        """Note every game in play this process serves (at start): one query, nothing
        replayed. Each is loaded on first use (`fetch`)."""
        for table in await self.store.open_tables():
            active = table.status is TableStatus.ACTIVE
            if active and self.serves(table) and table.id not in self.games:
                self.tables[table.id] = table

    def served(self) -> list[Table]:
        """The tables of every game in play this process serves, loaded or not."""
        return [game.table for game in self.games.values()] + list(self.tables.values())

    def note_table(self, table: Table) -> None:
        """A table row changed by a command outside the manager: the copy kept here follows."""
        if (game := self.games.get(table.id)) is not None:
            game.table = table
        elif table.id in self.tables:
            self.tables[table.id] = table

    def get(self, table_id: int) -> LiveGame | None:
        """The game at this table if it is loaded (`fetch` loads it)."""
        return self.games.get(table_id)

    def in_channel(self, channel_id: int) -> LiveGame | None:
        """The game in play in this channel if it is loaded (`fetch_in` loads it)."""
        return next((g for g in self.games.values() if g.table.channel_id == channel_id), None)

    def forget(self, game: LiveGame) -> None:
        """The game is no longer in play here (ended, here or in another process)."""
        self.games.pop(game.id, None)

    def is_current(self, game: LiveGame) -> bool:
        """Whether `game` is still the game in play at its table."""
        return self.games.get(game.id) is game

    def add(self, game: LiveGame) -> None:
        self.tables.pop(game.id, None)
        self.games[game.id] = game

    # -- loading -------------------------------------------------------------------------
    def load_in_background(self, table_ids: list[int]) -> None:
        """Load these games now, without keeping the caller waiting (at start)."""
        self.at_start = asyncio.create_task(self._load_at_start(table_ids), name="load-at-start")

    async def _load_at_start(self, table_ids: list[int]) -> None:
        try:
            await asyncio.gather(*(self.fetch(table_id) for table_id in table_ids))
        except Exception:
            log.exception("could not load the games whose AI seats were to play")
        finally:
            self.at_start = None

    async def load(self, table: Table) -> LiveGame | None:
        """The game at this table, loaded now (None if it is not in play after all)."""
        if table.id not in self.games:
            self.tables[table.id] = table
        return await self.fetch(table.id)

    async def fetch(self, table_id: int) -> LiveGame | None:
        """The game in play at this table, loaded from the store on its first use; None if
        it is not a game in play that this process serves."""
        game = self.games.get(table_id)
        if game is not None or table_id not in self.tables:
            return game
        loading = self._loads.get(table_id)
        if loading is None:
            loading = self._loads[table_id] = asyncio.get_running_loop().create_future()
            self._queued.append(table_id)
            if self._loader is None:
                self._loader = asyncio.create_task(self._load_queued(), name="load-games")
        return await asyncio.shield(loading)

    async def fetch_in(self, channel_id: int) -> LiveGame | None:
        """The game in play in this channel, loaded on first use (see `fetch`)."""
        game = self.in_channel(channel_id)
        if game is not None:
            return game
        table = next((t for t in self.tables.values() if t.channel_id == channel_id), None)
        return None if table is None else await self.fetch(table.id)

    async def _load_queued(self) -> None:
        try:
            while self._queued:
                batch, self._queued = self._queued, []
                try:
                    logs = await self.store.game_logs(batch)
                except Exception as exc:
                    log.exception("could not read the logs of %d games", len(batch))
                    for table_id in batch:
                        self._settle(table_id, None, exc)
                    continue
                for table_id in batch:
                    await self._load_one(table_id, logs.get(table_id))
                    await asyncio.sleep(0)  # clicks go on between two games replayed
        finally:
            self._loader = None

    async def _load_one(self, table_id: int, game_log: GameLog | None) -> None:
        table = self.tables.get(table_id)
        game = None
        try:
            if table is not None and game_log is not None and table_id not in self.games:
                game = await self._after_load(await self.replay(table, game_log))
            else:
                game = self.games.get(table_id)
        except Exception:
            log.exception("could not load game %s", table_id)
            game = self.games.get(table_id)
        self._settle(table_id, game)

    def _settle(
        self, table_id: int, game: LiveGame | None, error: BaseException | None = None
    ) -> None:
        loading = self._loads.pop(table_id, None)
        if loading is None or loading.done():
            return
        if error is not None:
            loading.set_exception(error)
        else:
            loading.set_result(game)

    # -- replaying -----------------------------------------------------------------------
    async def replay(
        self, table: Table, game_log: GameLog | None = None, *, from_setup: bool = False
    ) -> LiveGame:
        """The game's state now: the latest snapshot (or the setup) plus the log after it
        (`game_log`, else read now), undo entries honoured (from the setup when an undo
        reaches back past the snapshot)."""
        engine = games.get(table.game)
        if from_setup:
            state, seq, entries = None, 0, await self.store.actions(table.id)
        else:
            if game_log is None:
                game_log = (await self.store.game_logs([table.id])).get(table.id)
            state, seq, entries = await self._start_point(table, engine, game_log)
        if state is None:
            state = engine.new(len(table.seats), table.seed, table.options)
        game = LiveGame(table=table, engine=engine, state=state, seq=seq)
        if not from_setup and all(undo.undone_seq(e.choices) is None for e in entries):
            # Loading (at start, or catching up): the moves applied plainly, without the
            # undo bookkeeping (each move's draw test costs more than the move); the history
            # starts here, and the first undo that reaches further back rebuilds it from the
            # setup (`CommitPath.undo_plan`). A thousand games load in seconds this way.
            for entry in entries:
                game.state = engine.apply(game.state, Action(entry.seat, tuple(entry.choices)))
                game.seq = entry.seq
                game.acted[entry.seq] = entry.seat
            game.history = undo.History(complete=not entries and seq == 0)
            return game
        game.history = undo.History(complete=seq == 0)
        for entry in entries:
            game.state, game.history = undo.replay_entry(engine, game.state, game.history, entry)
            game.seq = entry.seq
            game.acted[entry.seq] = entry.seat
        return game

    async def _start_point(
        self, table: Table, engine: Engine, game_log: GameLog | None
    ) -> tuple[Any, int, list[LoggedAction]]:
        """Where a replay starts: the snapshot's state and move (None, 0: the setup), and
        the log entries after it."""
        snapshot = game_log.snapshot if game_log else None
        entries = list(game_log.actions) if game_log else []
        if snapshot is None:
            return None, 0, entries
        try:
            loaded = engine.load(snapshot.state)
        except Exception:  # a cache: whatever stops it loading, the log is the game
            log.warning("snapshot %s of game %s unreadable; replaying", snapshot.seq, table.id)
            return None, 0, await self.store.actions(table.id)
        state = await self._checked_snapshot(table, engine, snapshot, loaded)
        if state is None or (snapshot.seq and not undo.snapshot_holds(snapshot.seq, entries)):
            return None, 0, await self.store.actions(table.id)
        return state, snapshot.seq, entries

    async def _checked_snapshot(
        self, table: Table, engine: Engine, snapshot: Snapshot, loaded: Any
    ) -> Any:
        """The state to load the game from at the snapshot's move: `loaded` (the state the
        snapshot loads to) if it is the game its log replays to (bot/snapshots.py), else the
        log's own; None to replay from the setup (a snapshot found wrong before, a log that
        does not reach it). Each snapshot is checked once in this process, when a game is
        first loaded from it: the check replays the log up to it, as loading without it
        would (bench/snapshot_check.py); later loads of it (catching up) only load it."""
        seq, agrees = self._checked_snapshots.get(table.id, (None, False))
        if seq == snapshot.seq:
            return loaded if agrees else None
        try:
            truth = state_at(engine, table, await self.store.actions(table.id), snapshot.seq)
            agrees = truth is not None and same_game(engine, loaded, truth)
        except Exception:
            log.exception("game %s does not replay to its snapshot %s", table.id, snapshot.seq)
            truth, agrees = None, False
        if not agrees:
            log.warning(
                "snapshot %s of game %s is not what its log replays to; replaying",
                snapshot.seq,
                table.id,
            )
        self._checked_snapshots[table.id] = (snapshot.seq, agrees)
        return loaded if agrees else truth

    async def replayed(self, table: Table) -> Any:
        """The state of a stored game, in play or ended (an abandoned one as it stood when
        it ended), replayed from its log; nothing is loaded or kept."""
        return (await self.replay(table)).state

    async def catch_up(self, game: LiveGame) -> None:
        """The game as the store has it now (another process moved it on, or ended it)."""
        table = await self.store.get_table(game.id)
        if table is not None:
            game.table = table
            if table.status is not TableStatus.ACTIVE:
                self.forget(game)
                return
        fresh = await self.replay(game.table)
        # The log never changes behind a move: who made each move stays true.
        game.acted = {**game.acted, **fresh.acted}
        game.state, game.seq, game.history = fresh.state, fresh.seq, fresh.history

    def close(self) -> None:
        for task in (self._loader, self.at_start):
            if task is not None:
                task.cancel()
        for loading in self._loads.values():
            loading.cancel()
        self._loads.clear()
