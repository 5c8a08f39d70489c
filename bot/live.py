"""Games in play: each open table's state, kept in step with the store's action log.

The store is the truth. A game is loaded by replaying its log from the latest snapshot
(or from setup); a move is applied to a copy, appended to the log in one transaction, and
only then becomes the table's state. The move that ends a game writes the result and the
finished status in that same transaction. Moves on one table are serialised by a lock
within this process; the store's sequence check refuses a move that another process got
in first, and then the table is reloaded from the log and the move taken after all if what
the player saw still holds (the rule `submit` applies to a panel built before other seats
moved).

With several processes (bot/shards.py) each loads, and plays the AI for, only the tables
of its own shards' guilds, and follows the changes other processes commit to them
(`changed_elsewhere`, from the store's `watch`: LISTEN/NOTIFY on PostgreSQL).

At start the manager only reads which games are in play (`index`: one query); a game is
loaded on first use (`fetch`: a click, a clock or reminder falling due, an AI turn,
another process's change), and first uses that come together share one load, read with
the other loads queued meanwhile in one `game_logs` call. Once the bot is ready, the games
whose stored `awaiting` names an AI seat (or is not known) are loaded in the background,
so their AI seats play and a game whose log reached its end is finished.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from meeple_hall import games
from meeple_hall.bot import ai
from meeple_hall.bot.shards import Shards
from meeple_hall.bot.snapshots import same_game, state_at
from meeple_hall.bot.store import (
    FinalResult,
    LobbyClosed,
    SeatCount,
    StaleAction,
    Store,
    Table,
    TableNotActive,
    TableStatus,
)
from meeple_hall.bot.store.base import GameLog, Snapshot
from meeple_hall.games import Action, Decision, Engine, IllegalAction, Result
from meeple_hall.games.ai import levels
from meeple_hall.games.core import undo
from meeple_hall.games.core.engine import GameEngine
from meeple_hall.games.core.hidden import hidden_parts

log = logging.getLogger(__name__)

T = TypeVar("T")

SNAPSHOT_EVERY = 25
# How often a move whose number another process took is tried again on the reloaded table
# (each retry means yet another move got in first; a player's click is not kept waiting).
STALE_RETRIES = 3


class Refusal(Exception):
    """A move or request the bot turns down; `key` names the message to show."""

    def __init__(self, key: str, **fields: Any) -> None:
        super().__init__(key)
        self.key = key
        self.fields = fields


def lobby_refusal(closed: LobbyClosed) -> Refusal:
    """What to tell someone whose lobby action came after the lobby closed."""
    started = closed.status in (TableStatus.ACTIVE, TableStatus.FINISHED, TableStatus.ABANDONED)
    return Refusal("lobby.already_started" if started else "lobby.closed")


def decision_hash(decision: Decision) -> str:
    """A short fingerprint of a decision: a panel built for it stays valid while it holds."""
    prompt = decision.prompt if isinstance(decision.prompt, str) else repr(decision.prompt)
    text = "|".join(
        [decision.kind, prompt, str(decision.min_choices), str(decision.max_choices)]
        + [o.id for o in decision.options]
    )
    return hashlib.blake2s(text.encode(), digest_size=4).hexdigest()


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


@dataclass
class LiveGame:
    table: Table
    engine: Engine
    state: Any
    seq: int
    # seat of each action by sequence number, for the actions loaded or applied here
    acted: dict[int, int] = field(default_factory=dict)
    # the moves standing and the states an undo may return to (games/core/undo.py)
    history: undo.History = field(default_factory=undo.History)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    # what has been worked out from `state` (decisions, views, panel lines), kept while it
    # is the state: a state is never changed in place, only replaced
    _worked_out: tuple[Any, dict[Hashable, Any]] = field(
        default_factory=lambda: (None, {}), init=False, repr=False, compare=False
    )
    # the views of the state before it (an undo asks whether a move changed any seat's)
    _views_before: tuple[Any, dict[Hashable, Any]] = field(
        default_factory=lambda: (None, {}), init=False, repr=False, compare=False
    )

    @property
    def id(self) -> int:
        return self.table.id

    def worked_out(self, key: Hashable, work: Callable[[], T]) -> T:
        """`work()`, done once per state: asked again while the state is the same, the
        first answer is given (treat it as read-only)."""
        state, known = self._worked_out
        if state is not self.state:
            views = {k: v for k, v in known.items() if isinstance(k, tuple) and k[0] == "view"}
            self._views_before = (state, views)
            known = {}
            self._worked_out = (self.state, known)
        if key not in known:
            known[key] = work()
        return known[key]  # type: ignore[no-any-return]

    def views(self, state: Any, seat: int | None) -> dict[str, Any]:
        """`engine.view(state, seat)`, kept for the state now and the one before it."""
        if state is self.state:
            return self.view(seat)
        for known_state, known in (self._worked_out, self._views_before):
            if known_state is state:
                if ("view", seat) not in known:
                    known[("view", seat)] = self.engine.view(state, seat)
                return known[("view", seat)]  # type: ignore[no-any-return]
        return self.engine.view(state, seat)

    def known(self, key: Hashable) -> Any:
        """What `worked_out` has for `key` in the state now, or None if nothing yet."""
        state, known = self._worked_out
        return known.get(key) if state is self.state else None

    def decisions(self) -> list[Decision]:
        return list(self.worked_out("decisions", lambda: self.engine.decisions(self.state)))

    def decision_for(self, seat: int) -> Decision | None:
        return next((d for d in self.decisions() if d.seat == seat), None)

    def result(self) -> Result | None:
        return self.engine.result(self.state)

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.worked_out(("view", seat), lambda: self.engine.view(self.state, seat))

    def seat_of(self, user_id: int) -> int | None:
        return self.table.seat_of(user_id)


Listener = Callable[[LiveGame], Awaitable[None]]


class TableManager:
    def __init__(
        self, store: Store, chooser: ai.Chooser | None = None, *, shards: Shards | None = None
    ) -> None:
        self.store = store
        self.shards = shards or Shards()
        # the games in play this process serves: loaded, and not loaded yet (their rows)
        self.games: dict[int, LiveGame] = {}
        self.tables: dict[int, Table] = {}
        self.listeners: list[Listener] = []
        # told of each game loaded, before anyone uses it (what players were last shown)
        self.on_load: list[Listener] = []
        self._loads: dict[int, asyncio.Future[LiveGame | None]] = {}
        self._queued: list[int] = []
        self._loader: asyncio.Task[None] | None = None
        self._start: asyncio.Task[None] | None = None
        # AI answers are worked out away from the event loop: in the manager's own worker
        # processes, or by the chooser given (tests give an in-process one)
        self._pool = ai.WorkerPool() if chooser is None else None
        self.chooser: ai.Chooser = chooser or self._pool  # type: ignore[assignment]
        self._ai_tasks: dict[int, asyncio.Task[None]] = {}
        self._loading: set[int] = set()
        # each table's latest snapshot checked against its log here: its move, and whether
        # it is the game
        self._checked_snapshots: dict[int, tuple[int, bool]] = {}

    def serves(self, table: Table) -> bool:
        """Whether this process plays the table (its guild is in one of our shards)."""
        return self.shards.serves(table.guild_id)

    # -- loading -----------------------------------------------------------------------
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
        """A table row changed by a command outside the manager (a seat given to another
        player): the copy kept here follows, loaded or not."""
        if (game := self.games.get(table.id)) is not None:
            game.table = table
        elif table.id in self.tables:
            self.tables[table.id] = table

    async def resume(self) -> None:
        """Once connected: the AI seats whose turn it is play, and a game whose log already
        reaches its end (the bot stopped between the last move and the end of the game,
        as older versions wrote them apart) is finished. Only the games whose stored
        `awaiting` says so are loaded for it, in the background, so the start is quick."""
        for game in list(self.games.values()):
            self.wake_ai(game)
        wanted = [table.id for table in self.tables.values() if self._wanted_at_start(table)]
        if wanted:
            self._start = asyncio.create_task(self._load_at_start(wanted), name="load-at-start")

    @staticmethod
    def _wanted_at_start(table: Table) -> bool:
        if table.awaiting is None or not table.awaiting:  # not known, or nobody: ended
            return True
        return any(table.seats[s].ai for s in table.awaiting if 0 <= s < len(table.seats))

    async def loaded_at_start(self) -> None:
        """Wait until the games loaded in the background at start are (benches, tests)."""
        if self._start is not None:
            await asyncio.shield(self._start)

    async def _load_at_start(self, table_ids: list[int]) -> None:
        try:
            await asyncio.gather(*(self.fetch(table_id) for table_id in table_ids))
        except Exception:
            log.exception("could not load the games whose AI seats were to play")
        finally:
            self._start = None

    async def load(self, table: Table) -> LiveGame | None:
        """The game at this table, loaded now (None if it is not in play after all)."""
        if table.id not in self.games:
            self.tables[table.id] = table
        return await self.fetch(table.id)

    async def fetch(self, table_id: int) -> LiveGame | None:
        """The game in play at this table, loaded from the store on its first use; None if
        it is not a game in play that this process serves. First uses that come together
        share one load, and loads queued while one is read are read together."""
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
                        self._loaded(table_id, None, exc)
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
                game = await self._replay(table, game_log)
                for hook in self.on_load:
                    await hook(game)
                self.tables.pop(table_id, None)
                self.games[table_id] = game
                awaiting = tuple(d.seat for d in game.decisions())
                if table.awaiting != awaiting:  # not known (an older version's log)
                    await self.store.note_awaiting(table_id, game.seq, awaiting)
                if (result := game.result()) is not None:
                    await self._finish_loaded(game, result)
                    game = None
                else:
                    self.wake_ai(game)
            else:
                game = self.games.get(table_id)
        except Exception:
            log.exception("could not load game %s", table_id)
            game = self.games.get(table_id)
        self._loaded(table_id, game)

    def _loaded(
        self, table_id: int, game: LiveGame | None, error: BaseException | None = None
    ) -> None:
        loading = self._loads.pop(table_id, None)
        if loading is None or loading.done():
            return
        if error is not None:
            loading.set_exception(error)
        else:
            loading.set_result(game)

    async def _finish_loaded(self, game: LiveGame, result: Result) -> None:
        try:
            game.table = await self.store.finish_table(game.id, final_result(result, game.table))
        except TableNotActive:
            log.info("game %s was finished by another process", game.id)
            game.table = await self.store.get_table(game.id) or game.table
        self.games.pop(game.id, None)
        await self._tell_listeners(game)

    async def _replay(
        self, table: Table, game_log: GameLog | None = None, *, from_setup: bool = False
    ) -> LiveGame:
        """The game's state now: the latest snapshot (or the setup) plus the log after it
        (`game_log`, else read now), undo entries honoured (from the setup when an undo
        reaches back past the snapshot)."""
        engine = games.get(table.game)
        state, seq = None, 0
        if from_setup:
            snapshot, entries = None, await self.store.actions(table.id)
        else:
            if game_log is None:
                game_log = (await self.store.game_logs([table.id])).get(table.id)
            snapshot = game_log.snapshot if game_log else None
            entries = list(game_log.actions) if game_log else []
        if snapshot is not None:
            try:
                state, seq = engine.load(snapshot.state), snapshot.seq
            except Exception:  # a cache: whatever stops it loading, the log is the game
                log.warning("snapshot %s of game %s unreadable; replaying", snapshot.seq, table.id)
                entries = await self.store.actions(table.id)
            else:
                state = await self._checked_snapshot(table, engine, snapshot, state)
                if state is None:
                    seq = 0
                    entries = await self.store.actions(table.id)
        if seq and not undo.snapshot_holds(seq, entries):
            state, seq = None, 0
            entries = await self.store.actions(table.id)
        if state is None:
            state = engine.new(len(table.seats), table.seed, table.options)
        game = LiveGame(table=table, engine=engine, state=state, seq=seq)
        if not from_setup and all(undo.undone_seq(e.choices) is None for e in entries):
            # Loading (at start, or catching up): the moves applied plainly, without the
            # undo bookkeeping (each move's draw test costs more than the move); the history
            # starts here, and the first undo that reaches further back rebuilds it from the
            # setup (`undo_plan`). A thousand games load in seconds this way.
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

    def get(self, table_id: int) -> LiveGame | None:
        """The game at this table if it is loaded (`fetch` loads it)."""
        return self.games.get(table_id)

    async def replayed(self, table: Table) -> Any:
        """The state of a stored game, in play or ended (an abandoned one as it stood when
        it ended), replayed from its log; nothing is loaded or kept."""
        return (await self._replay(table)).state

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
            if self.games.get(table_id) is not game:
                return
            table = await self.store.get_table(table_id)
            if table is None:
                return
            seq = await self.store.last_seq(table_id)
            if (seq, table.status, table.seats) == (game.seq, TableStatus.ACTIVE, game.table.seats):
                return  # nothing this process has not seen
            if seq != game.seq:
                await self._catch_up(game)
            game.table = table
            if table.status is not TableStatus.ACTIVE:
                self.games.pop(table_id, None)
        await self._changed(game)

    async def _pick_up(self, table_id: int) -> None:
        if table_id in self._loading:
            return
        self._loading.add(table_id)
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
            self._loading.discard(table_id)

    def in_channel(self, channel_id: int) -> LiveGame | None:
        """The game in play in this channel if it is loaded (`fetch_in` loads it)."""
        return next((g for g in self.games.values() if g.table.channel_id == channel_id), None)

    # -- starting and ending ----------------------------------------------------------
    async def start(self, table_id: int) -> LiveGame:
        """Start a lobby with the seats it has in the store at this moment."""
        table = await self.store.get_table(table_id)
        if table is None:
            raise Refusal("lobby.closed")
        engine = games.get(table.game)
        try:
            table = await self.store.start_table(
                table_id, min_seats=engine.min_players, max_seats=engine.max_players
            )
        except SeatCount:
            raise Refusal(
                "lobby.seat_count", min=engine.min_players, max=engine.max_players
            ) from None
        except LobbyClosed as closed:
            raise lobby_refusal(closed) from None
        state = engine.new(len(table.seats), table.seed, table.options)
        game = LiveGame(table=table, engine=engine, state=state, seq=0)
        self.tables.pop(table.id, None)
        self.games[table.id] = game
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
            self._check_open(game)
            if check is not None:
                seat, seen_seq, seen_hash = check
                decision = game.decision_for(seat)
                if decision is None or self._stale(game, seat, decision, seen_seq, seen_hash):
                    raise Refusal("move.stale")
            try:
                game.table = await command()
            except TableNotActive:
                self.games.pop(game.id, None)  # another process ended it
                raise Refusal("game.over") from None
            if game.table.status is not TableStatus.ACTIVE:
                self.games.pop(game.id, None)
        await self._changed(game)

    # -- moves ---------------------------------------------------------------------------
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
            decision = self._open_decision(game, seat, seen_seq, seen_hash)
            if seen_seq is None:  # a typed move: made against the table as it is now
                seen_seq, seen_hash = game.seq, decision_hash(decision)
            actions = [Action(seat, choices) for choices in steps]
            await self._apply(game, actions, user_id, folded=folded, seen=(seen_seq, seen_hash))
        await self._changed(game)
        return game.decision_for(seat) if game.table.status is TableStatus.ACTIVE else None

    def check_move(
        self, game: LiveGame, seat: int, choices: tuple[str, ...], seen_seq: int, seen_hash: str
    ) -> None:
        """Refuse at once, without applying anything, a move (its first step) that `submit`
        would refuse as the table stands: not the seat's turn, the panel out of date, or
        choices the decision does not offer. A click is then answered with the refusal
        itself, and only a move that can be taken is acknowledged before it is worked out."""
        decision = self._open_decision(game, seat, seen_seq, seen_hash)
        try:
            GameEngine.check_choices(decision, choices)
        except IllegalAction as exc:
            raise Refusal("move.illegal", reason=exc.message) from exc

    def _open_decision(
        self, game: LiveGame, seat: int, seen_seq: int | None, seen_hash: str | None
    ) -> Decision:
        """The seat's decision, if the game is open, it is the seat's turn and (with
        `seen_seq`) the panel seen then still holds; else the Refusal saying which not."""
        self._check_open(game)
        decision = game.decision_for(seat)
        if decision is None:
            raise Refusal("move.not_your_turn")
        if seen_seq is not None and self._stale(game, seat, decision, seen_seq, seen_hash):
            raise Refusal("move.stale")
        return decision

    @staticmethod
    def _stale(
        game: LiveGame, seat: int, decision: Decision, seen_seq: int, seen_hash: str | None
    ) -> bool:
        """Whether the table moved on from what was seen at `seen_seq`: taken only if only
        other seats moved since and this seat's decision is still the same one."""
        if seen_seq == game.seq:
            return False
        moved_since = [game.acted.get(s) for s in range(seen_seq + 1, game.seq + 1)]
        return (
            seen_seq > game.seq
            or seat in moved_since
            or None in moved_since
            or seen_hash != decision_hash(decision)
        )

    def _still_holds(self, game: LiveGame, seat: int, seen_seq: int, seen_hash: str | None) -> bool:
        """Whether a move made against the table at `seen_seq` may still be taken."""
        decision = game.decision_for(seat)
        return decision is not None and not self._stale(game, seat, decision, seen_seq, seen_hash)

    def _check_open(self, game: LiveGame) -> None:
        if self.games.get(game.id) is not game:
            raise Refusal("game.over")

    async def _apply(
        self,
        game: LiveGame,
        actions: Sequence[Action],
        user_id: int | None,
        *,
        folded: frozenset[str] = frozenset(),
        seen: tuple[int, str | None] | None = None,
    ) -> None:
        """Apply one seat's consecutive actions: every state worked out first, then the
        moves appended in one transaction (all or none), then the table's state moved on.

        If another process took the move's number first, the table is reloaded from the log
        and the move worked out again on it, as long as what the player saw (`seen`: the
        move number and decision hash the move was made against) still holds; else the
        player is told their panel is out of date."""
        for _attempt in range(STALE_RETRIES):
            try:
                await self._apply_once(game, actions, user_id, folded)
                return
            except StaleAction:
                # Another process took this move: catch up from the store.
                await self._catch_up(game)
                if self.games.get(game.id) is not game:
                    raise Refusal("game.over") from None
                if seen is None or not self._still_holds(game, actions[0].seat, *seen):
                    raise Refusal("move.stale") from None
        raise Refusal("move.stale")

    async def _apply_once(
        self,
        game: LiveGame,
        actions: Sequence[Action],
        user_id: int | None,
        folded: frozenset[str],
    ) -> None:
        states = [game.state]
        secrets = hidden_parts(game.state) if len(actions) > 1 else []
        for index, action in enumerate(actions):
            state = states[-1]
            if index:
                follows = next(
                    (d for d in game.engine.decisions(state) if d.seat == action.seat), None
                )
                if follows is None or follows.kind not in folded or hidden_parts(state) != secrets:
                    raise Refusal("move.stale")
            else:
                follows = game.decision_for(action.seat)
            states.append(self._applied(game, state, action, follows))
        seq = game.seq + 1
        last = seq + len(actions) - 1
        snapshot = next(
            (
                (n, game.engine.dump(states[n - game.seq]))
                for n in range(seq, last + 1)
                if n % SNAPSHOT_EVERY == 0
            ),
            None,
        )
        result = game.engine.result(states[-1])
        final = None if result is None else final_result(result, game.table)
        # kept with the move, so a start knows whose turn it is without replaying
        pending = game.engine.decisions(states[-1]) if final is None else []
        awaiting = [d.seat for d in pending]
        try:
            if len(actions) == 1:
                await self.store.append_action(
                    game.id,
                    seq,
                    actions[0].seat,
                    actions[0].choices,
                    user_id,
                    snapshot=snapshot[1] if snapshot else None,
                    result=final,
                    awaiting=awaiting,
                )
            else:
                await self.store.append_actions(
                    game.id,
                    seq,
                    actions[0].seat,
                    [a.choices for a in actions],
                    user_id,
                    snapshot=snapshot,
                    result=final,
                    awaiting=awaiting,
                )
        except TableNotActive:
            # Another process ended the game.
            self.games.pop(game.id, None)
            raise Refusal("game.over") from None
        for offset, action in enumerate(actions):
            n = seq + offset
            before, after = states[offset], states[offset + 1]
            game.history = game.history.moved(
                game.engine, n, action, before, after, ask=False, chained=offset > 0
            )
            game.acted[n] = action.seat
        game.state, game.seq = states[-1], last
        game.worked_out("decisions", lambda: pending)  # the next panels ask for them
        if final is not None:
            game.table = await self.store.get_table(game.id) or game.table
            self.games.pop(game.id, None)

    @staticmethod
    def _applied(
        game: LiveGame, state: Any, action: Action, decision: Decision | None = None
    ) -> Any:
        """`action` applied to `state` (`decision`: the seat's there, if known)."""
        try:
            return game.engine.apply(state, action, decision=decision)
        except IllegalAction as exc:
            raise Refusal("move.illegal", reason=exc.message) from exc
        except Exception as exc:
            log.exception(
                "engine failed in game %s (%s) at move %s on %s",
                game.id,
                game.table.game,
                game.seq + 1,
                action,
            )
            raise Refusal("error.unexpected") from exc

    async def _catch_up(self, game: LiveGame) -> None:
        """The game as the store has it now (another process moved it on, or ended it)."""
        table = await self.store.get_table(game.id)
        if table is not None:
            game.table = table
            if table.status is not TableStatus.ACTIVE:
                self.games.pop(game.id, None)
                return
        fresh = await self._replay(game.table)
        # The log never changes behind a move: who made each move stays true.
        game.acted = {**game.acted, **fresh.acted}
        game.state, game.seq, game.history = fresh.state, fresh.seq, fresh.history

    # -- undo ------------------------------------------------------------------------------
    async def undo_plan(self, game: LiveGame, seat: int) -> undo.UndoPlan:
        """What an undo by the seat would take back now, or a Refusal saying why it cannot.
        A history that starts at a snapshot is first rebuilt from the setup if the seat's
        latest move may lie before it. A move made for the seat (by a timeout, or by the AI
        while it played the seat) is not the seat's to take back."""
        own = game.history.last_own(seat)
        if own is not None:
            made = game.history.steps[own].seq
            logged = await self.store.actions(game.id, after=made - 1)
            if logged and logged[0].seq == made and logged[0].user_id is None:
                raise Refusal("undo.made_for_you")
        try:
            return game.history.plan_undo(game.engine, game.state, seat, views=game.views)
        except undo.NoUndo as refused:
            if refused.reason != "nothing" or game.history.complete:
                raise Refusal(f"undo.{refused.reason}") from None
        seq = game.seq
        fresh = await self._replay(game.table, from_setup=True)
        if game.seq == seq:
            game.history = fresh.history
        return await self.undo_plan(game, seat)

    async def undo(
        self, game: LiveGame, seat: int, *, user_id: int | None, expected: int | None = None
    ) -> list[int]:
        """Take back the seat's latest move, and with it the moves it made in the same
        submission (a folded panel line: one click, one undo) as far back as undo allows:
        undo entries appended to the log in one transaction. `expected` (an Undo button's)
        is the move the undo was offered for. Returns the numbers of the moves taken back,
        in log order."""
        async with game.lock:
            self._check_open(game)
            plan = await self.undo_plan(game, seat)
            if expected is not None and plan.target != expected:
                raise Refusal("undo.stale")
            plans = undo.with_chain(game.engine, plan, views=game.views)
            seq = game.seq + 1
            snapshot = next(
                (
                    (n, game.engine.dump(taken.state))
                    for n, taken in enumerate(plans, start=seq)
                    if n % SNAPSHOT_EVERY == 0
                ),
                None,
            )
            pending = game.engine.decisions(plans[-1].state)
            awaiting = [d.seat for d in pending]
            try:
                await self.store.append_actions(
                    game.id,
                    seq,
                    seat,
                    [undo.undo_choices(taken.target) for taken in plans],
                    user_id,
                    snapshot=snapshot,
                    awaiting=awaiting,
                )
            except StaleAction:
                await self._catch_up(game)
                raise Refusal("move.stale" if game.id in self.games else "game.over") from None
            except TableNotActive:
                self.games.pop(game.id, None)
                raise Refusal("game.over") from None
            game.state, game.history = plans[-1].state, plans[-1].history
            game.worked_out("decisions", lambda: pending)
            game.seq = seq + len(plans) - 1
            for n in range(seq, game.seq + 1):
                game.acted[n] = seat
        await self._changed(game)
        return sorted(taken.target for taken in plans)

    # -- AI seats and listeners -----------------------------------------------------------
    async def _changed(self, game: LiveGame) -> None:
        await self._tell_listeners(game)
        self.wake_ai(game)

    async def _tell_listeners(self, game: LiveGame) -> None:
        for listener in self.listeners:
            await listener(game)

    def wake_ai(self, game: LiveGame) -> None:
        """Let the AI seats that must act play, without keeping anyone waiting."""
        if game.table.status is not TableStatus.ACTIVE or game.id in self._ai_tasks:
            return
        if not self.serves(game.table):
            return  # another process's table: its own process plays its AI seats
        if game.table.paused_at is not None:
            return  # its channel is gone: nobody plays until it is reopened elsewhere
        if any(game.table.seats[d.seat].ai for d in game.decisions()):
            task = asyncio.create_task(self._play_ai(game), name=f"ai-{game.id}")
            self._ai_tasks[game.id] = task

    async def _play_ai(self, game: LiveGame) -> None:
        """Play the AI seats that must act, one move at a time: each thought out with the
        game's lock released (humans' moves and panels go on meanwhile), then applied only
        if the table has not moved on from what the AI saw, else thought again."""
        try:
            while self.games.get(game.id) is game:
                pending = [d for d in game.decisions() if game.table.seats[d.seat].ai]
                if not pending:
                    break
                seat = pending[0].seat
                thought = await self.think(
                    game, seat, ai.seat_level(game.table.game, game.table.seats[seat])
                )
                if thought is None:
                    continue
                seen_seq, decision, choices = thought
                async with game.lock:
                    if self.games.get(game.id) is not game:
                        break
                    now = game.decision_for(seat)
                    if (
                        now is None
                        or not game.table.seats[seat].ai
                        or self._stale(game, seat, now, seen_seq, decision_hash(decision))
                    ):
                        continue  # the game moved on while the AI thought
                    try:
                        await self._apply(
                            game,
                            [Action(seat, choices)],
                            None,
                            seen=(seen_seq, decision_hash(decision)),
                        )
                    except Refusal as refusal:
                        if refusal.key != "move.stale":
                            raise
                        continue  # another process moved first: caught up, think again
                # Not `_changed`: this task goes on with the AI seats still to act.
                await self._tell_listeners(game)
        except Exception:
            # Not woken again at once: a failing AI would fail again in a loop.
            log.exception("AI move failed in game %s at move %s", game.id, game.seq)
        finally:
            self._ai_tasks.pop(game.id, None)

    async def think(
        self, game: LiveGame, seat: int, level: str
    ) -> tuple[int, Decision, tuple[str, ...]] | None:
        """The AI's answer at `level` to the seat's decision, as `(seq, decision, choices)`:
        the state is dumped under the game's lock, the answer worked out by the chooser
        (worker processes) with the lock released. None if the seat has nothing to decide.
        The caller applies it only if the game has not moved on since `seq`."""
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

    async def close(self) -> None:
        for task in [*self._ai_tasks.values(), self._loader, self._start]:
            if task is not None:
                task.cancel()
        self._ai_tasks.clear()
        for loading in self._loads.values():
            loading.cancel()
        self._loads.clear()
        if self._pool is not None:
            self._pool.shutdown()
