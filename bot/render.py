"""Table pictures: drawn and encoded off the event loop, cached by table and move.

Drawing is Python work that holds the interpreter lock, so pictures are drawn in worker
processes (`PicturePool`), where they take no time from the event loop that answers clicks.
A game whose renderer was registered at run time (`renderers.register`, as the tests' own
game is) is not known to a worker: its pictures are drawn in a thread instead.

What a worker runs (`encode_table`, `encode_own` …) is in bot/picture_encoding.py, which
imports nothing of the bot's: a worker imports that module, not this one, which imports
discord.py. Its names are given here too.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import io
import logging
import os
import threading
import weakref
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from meeple_hall import renderers
from meeple_hall.bot.picture_encoding import (
    LARGE_PICTURE,
    MAX_PICTURE_BYTES,
    SMALLER_LEVEL,
    ZLIB_LEVEL,
    Palette,
    encode_decision,
    encode_focus,
    encode_own,
    encode_png,
    encode_table,
    flat_png,
    palette_png,
    png_bytes,
    to_palette,
)
from meeple_hall.games.ai.pool import Workers, workers
from meeple_hall.renderers import phone

if TYPE_CHECKING:
    from meeple_hall.bot.live import LiveGame

log = logging.getLogger(__name__)

T = TypeVar("T")

FILENAME = "table.png"
PRIVATE_FILENAME = "private.png"
DECISION_FILENAME = "decision.png"

# bot/picture_encoding.py's names that the bot's other parts, the tests and bench scripts
# take from here (`render.encode_table` is also the one `TablePictures` draws through).
__all__ = [
    "LARGE_PICTURE",
    "MAX_PICTURE_BYTES",
    "SMALLER_LEVEL",
    "ZLIB_LEVEL",
    "Palette",
    "encode_decision",
    "encode_focus",
    "encode_own",
    "encode_png",
    "encode_table",
    "flat_png",
    "palette_png",
    "png_bytes",
    "to_palette",
]


class WorkerProcesses(Executor):
    """`count` worker processes, each its own single-process pool (`Workers`), so that a
    table's pictures can go to the worker that drew its last one: its caches (the bands of
    `bot/picture_bands.py`, the renderers' faces and parts) are that table's.

    `submit_for(table, ...)` takes the table's worker if it is free, else the least busy
    (so no table waits behind another while a worker is idle). A worker that died is started
    again on its next picture; the others keep theirs."""

    def __init__(self, count: int) -> None:
        self._workers = [Workers(max_workers=1) for _ in range(count)]
        self._busy = [0] * count
        self._last: dict[int, int] = {}  # by table, the worker that drew its last picture
        self._lock = threading.Lock()

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        return self.submit_for(None, fn, *args, **kwargs)

    def submit_for(
        self, table: int | None, fn: Callable[..., T], /, *args: Any, **kwargs: Any
    ) -> Future[T]:
        with self._lock:
            index = self._choose(table)
            self._busy[index] += 1
            if table is not None:
                self._last[table] = index
        try:
            future = self._running(index).submit(fn, *args, **kwargs)
        except BaseException:
            self._done(index)
            raise
        future.add_done_callback(lambda _: self._done(index))
        return future

    def _choose(self, table: int | None) -> int:
        own = self._last.get(table) if table is not None else None
        if own is not None and self._busy[own] == 0:
            return own
        return min(range(len(self._workers)), key=lambda index: (self._busy[index], index))

    def _running(self, index: int) -> ProcessPoolExecutor:
        worker = self._workers[index]
        if getattr(worker.executor(), "_broken", False):
            worker.shutdown()  # it died (killed, out of memory): a new one
        return worker.executor()

    def _done(self, index: int) -> None:
        with self._lock:
            self._busy[index] -= 1

    @property
    def _processes(self) -> dict[int, Any]:
        """Every worker's processes by pid (concurrent.futures' own record, for tests)."""
        processes: dict[int, Any] = {}
        for worker in self._workers:
            if worker._executor is not None:
                processes |= worker._executor._processes or {}
        return processes

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop every worker (`Workers.shutdown`: work not yet started is cancelled)."""
        for worker in self._workers:
            worker.shutdown()


class PicturePool:
    """Worker processes that draw pictures (`WorkerProcesses`), started on the first picture
    (`spawn`, as the AI's pool: forking a process that runs asyncio and database threads is
    unsafe) and shared by every bot in the process.

    Pictures wait for a free worker in the order they were asked for, and what a picture
    shows is read only once a worker is free (`run_latest`): a table that moved again while
    its picture waited is drawn once, as it is then. A table's pictures go to the worker
    that drew its last one when that worker is free."""

    def __init__(self, max_workers: int | None = None) -> None:
        self.max_workers = max_workers
        self._executor: WorkerProcesses | None = None
        self._free: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
            weakref.WeakKeyDictionary()
        )

    def size(self) -> int:
        return self.max_workers or workers()

    def executor(self) -> WorkerProcesses:
        if self._executor is None:
            self._executor = WorkerProcesses(self.size())
        return self._executor

    def shutdown(self) -> None:
        """Stop the workers; work not yet started is cancelled, work running is dropped."""
        if self._executor is not None:
            self._executor.shutdown()
            self._executor = None

    async def run(
        self, game_id: str, draw: Callable[..., T], *args: Any, table: int | None = None
    ) -> T:
        """`draw(game_id, *args)` in a worker (`table`'s, if it is free), or in a thread for
        a game registered at run time (a worker could not find its renderer)."""
        return await self.run_latest(game_id, draw, lambda: args, table=table)

    async def run_latest(
        self,
        game_id: str,
        draw: Callable[..., T],
        args: Callable[[], tuple[Any, ...]],
        table: int | None = None,
    ) -> T:
        """`draw(game_id, *args())`, with `args` read once a worker is free for it."""
        loop = asyncio.get_running_loop()
        free = self._free.get(loop)
        if free is None:
            free = self._free[loop] = asyncio.Semaphore(self.size())
        async with free:
            call = functools.partial(draw, game_id, *args())
            if renderers.registered_at_run_time(game_id):
                return await asyncio.to_thread(call)
            try:
                return await asyncio.wrap_future(self.executor().submit_for(table, call))
            except BrokenProcessPool:
                # A worker died (killed, out of memory): it is started again for its next
                # picture, this one drawn here.
                log.exception("a picture worker died; starting a new one")
                return await asyncio.to_thread(call)


def picture_workers() -> int:
    """A worker per core: pictures are most of a move's processor time, and one worker (a
    core left to the event loop) could not keep up with 1,000 busy tables; the loop shares
    the cores with them (bench/README.md, "Pictures at half the cost"). The cores this
    process may run on, where the system says (a container or `taskset` may allow fewer
    than the machine has)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


pool = PicturePool(picture_workers())
atexit.register(pool.shutdown)


@dataclass(frozen=True)
class _Shown:
    """A picture other than the table's (`TablePictures.own`, `decision`, `focus`) being
    drawn or drawn, and the view it was drawn from: the same view given again is the same
    picture (a renderer draws from the view alone), whether the very object (a `LiveGame`
    works a state's views out once) or an equal one (a move that changed nothing the seat
    sees: a Keyflower bid's steps, bench/README.md "The pictures a move costs")."""

    view: dict[str, Any]
    png: asyncio.Future[bytes | None]


class TablePictures:
    """The latest pictures of one bot's tables: the table's, by table and move (`/board`
    and the table message share one drawing), and a seat's own area, a decision's parts and
    a part of the table (`/board focus:`), each by table, what it shows and the view it is
    drawn from (`_Shown`): asked again for the same view, whether drawn or still being
    drawn, a picture is drawn once. Every picture of a table goes to the picture worker
    that drew its last one when that worker is free (`WorkerProcesses`): its bands are
    that table's (bench/README.md, "The pictures a move costs"). Only a table's picture
    keeps a palette: the others' fresh palettes measured as fast (they are mostly the same
    colours from one picture to the next), so their bytes are those drawn anywhere."""

    def __init__(self, size: int = 64, palettes: int = 4096, others: int = 256) -> None:
        self.size = size
        self.palettes = palettes  # tables whose palette is kept (a forgotten one starts afresh)
        # Pictures other than the table's kept: at most `others` PNGs (about 10-60 KiB each)
        # and the views they show (mostly the views `LiveGame` keeps for the state anyway).
        self.others = others
        # by table and move, the picture and the spectator view it shows (if known)
        self._cache: OrderedDict[tuple[int, int], tuple[bytes, dict[str, Any] | None]] = (
            OrderedDict()
        )
        self._newest: dict[int, int] = {}  # by table, the latest move drawn
        self._drawn: dict[int, asyncio.Event] = {}  # by table, set as each drawing ends
        self._drawing: Counter[int] = Counter()  # by table, the drawings under way
        self._palettes: OrderedDict[int, Palette] = OrderedDict()  # by table, its latest
        self._shown: OrderedDict[tuple[Any, ...], _Shown] = OrderedDict()
        # Pictures asked for and pictures drawn, by kind ("table", "own", "decision",
        # "focus"): bench/load.py prints them a move.
        self.asked: Counter[str] = Counter()
        self.drawings: Counter[str] = Counter()

    async def drawn(self, table_id: int, seq: int) -> None:
        """Once no drawing of the table's picture is under way that may show move `seq`: a
        panel's picture waits so, the table's update first (both share the picture workers).
        No timer: one armed in a click's handler held SimCord's virtual time still (the
        simulator's finding 12), and a drawing under way always ends."""
        while self._newest.get(table_id, -1) < seq and self._drawing[table_id]:
            await self._drawn.setdefault(table_id, asyncio.Event()).wait()

    @contextmanager
    def _under_way(self, table_id: int) -> Iterator[None]:
        self._drawing[table_id] += 1
        try:
            yield
        finally:
            self._drawing[table_id] -= 1
            if (event := self._drawn.pop(table_id, None)) is not None:
                event.set()

    async def png(self, table_id: int, seq: int, game_id: str, view: dict[str, Any]) -> bytes:
        """The table's picture at move `seq`, whose spectator view is `view`."""
        self.asked["table"] += 1
        if (known := self._known(table_id, seq, view)) is not None:
            return known
        self.drawings["table"] += 1
        with self._under_way(table_id):
            data, palette = await pool.run(
                game_id, encode_table, view, self._palettes.get(table_id), table=table_id
            )
        return self._keep(table_id, seq, data, view, palette)

    async def latest(self, game: LiveGame) -> tuple[int, bytes]:
        """The game's picture as it stands once a worker is free to draw it, and the move
        it shows."""
        self.asked["table"] += 1
        if (known := self._known(game.id, game.seq, game.view(None))) is not None:
            return game.seq, known
        self.drawings["table"] += 1
        drawn: list[tuple[int, dict[str, Any]]] = []

        def now() -> tuple[dict[str, Any], Palette | None]:
            drawn.append((game.seq, game.view(None)))
            return drawn[0][1], self._palettes.get(game.id)

        with self._under_way(game.id):
            data, palette = await pool.run_latest(game.table.game, encode_table, now, game.id)
        seq, view = drawn[0]
        return seq, self._keep(game.id, seq, data, view, palette)

    def _known(self, table_id: int, seq: int, view: dict[str, Any]) -> bytes | None:
        """The table's picture at move `seq` if drawn, or its latest if that shows the same
        spectator view (a move that changed nothing on the table: a Keyflower bid's steps,
        bench/README.md "The pictures a move costs")."""
        key = (table_id, seq)
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key][0]
        latest = self._cache.get((table_id, self._newest.get(table_id, -1)))
        if (
            latest is not None
            and latest[1] is not None
            and (latest[1] is view or latest[1] == view)
        ):
            return self._keep(table_id, seq, latest[0], view)
        return None

    def _keep(
        self,
        table_id: int,
        seq: int,
        data: bytes,
        view: dict[str, Any] | None = None,
        palette: Palette | None = None,
    ) -> bytes:
        if palette is not None:
            self._palettes[table_id] = palette
        if table_id in self._palettes:  # a table shown again, if not drawn, keeps its own
            self._palettes.move_to_end(table_id)
            while len(self._palettes) > self.palettes:
                self._palettes.popitem(last=False)
        self._cache[(table_id, seq)] = (data, view)
        self._newest[table_id] = max(seq, self._newest.get(table_id, -1))
        while len(self._cache) > self.size:
            self._cache.popitem(last=False)
        return data

    async def own(
        self, table_id: int, seat: int, game_id: str, view: dict[str, Any]
    ) -> bytes | None:
        """The seat's own area and secrets (`private_png`), from its view `view`."""
        return await self._other(
            ("own", table_id, seat), view, lambda: private_png(game_id, view, table=table_id)
        )

    async def decision(
        self,
        table_id: int,
        seat: int,
        game_id: str,
        view: dict[str, Any],
        kind: str,
        fields: Sequence[Mapping[str, Any]] = (),
    ) -> bytes | None:
        """What the seat's decision of `kind` is about (`decision_png`), from its view and
        its options' `fields`; None, and nothing asked of a worker, if it pictures nothing.
        Decisions that picture the same parts and marks share a picture (a turn's steps)."""
        picture = phone.decision_picture(game_id, view, kind, fields)
        if not picture.parts:
            return None
        return await self._other(
            ("decision", table_id, seat, picture),
            view,
            lambda: decision_png(game_id, view, picture, table=table_id),
        )

    async def focus(
        self, table_id: int, game_id: str, view: dict[str, Any], focus: str
    ) -> bytes | None:
        """One part of the table (`focus_png`), from the spectator view `view`."""
        return await self._other(
            ("focus", table_id, focus),
            view,
            lambda: focus_png(game_id, view, focus, table=table_id),
        )

    async def _other(
        self,
        key: tuple[Any, ...],
        view: dict[str, Any],
        draw: Callable[[], Awaitable[bytes | None]],
    ) -> bytes | None:
        """The picture `key` names, of `view`: the one drawn or being drawn for that very view,
        else `draw()`n. A drawing that fails is forgotten (asked again, it is tried again)."""
        kind = key[0]
        self.asked[kind] += 1
        shown = self._shown.get(key)
        if shown is None or (shown.view is not view and shown.view != view):
            self.drawings[kind] += 1
            shown = self._shown[key] = _Shown(view, asyncio.ensure_future(draw()))
            shown.png.add_done_callback(lambda done: done.cancelled() or done.exception())
            while len(self._shown) > self.others:
                self._shown.popitem(last=False)
        self._shown.move_to_end(key)
        try:
            return await asyncio.shield(shown.png)
        except Exception:
            if self._shown.get(key) is shown:
                del self._shown[key]
            raise


async def private_png(game_id: str, view: dict[str, Any], table: int | None = None) -> bytes | None:
    """The seat's own area and secrets as a picture that reads on a phone (or the game's
    private picture where it has no phone view), if the game draws one; drawn by `table`'s
    picture worker if it is free."""
    return await pool.run(game_id, encode_own, view, table=table)


async def focus_png(
    game_id: str, view: dict[str, Any], focus: str, table: int | None = None
) -> bytes | None:
    """One part of the table (`/board focus:`) at a size that reads on a phone."""
    return await pool.run(game_id, encode_focus, view, focus, table=table)


async def decision_png(
    game_id: str, view: dict[str, Any], picture: phone.DecisionPicture, table: int | None = None
) -> bytes | None:
    """A decision's parts and marks (renderers/phone: `decision_picture`), drawn from the
    deciding seat's own view `view` to read on a phone; None if it has no part."""
    if not picture.parts:
        return None
    return await pool.run(game_id, encode_decision, view, picture.parts, picture.marks, table=table)


def as_file(data: bytes, filename: str = FILENAME) -> discord.File:
    return discord.File(io.BytesIO(data), filename=filename)
