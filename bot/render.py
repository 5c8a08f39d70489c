"""Table pictures: drawn and encoded off the event loop, cached by table and move.

Drawing is Python work that holds the interpreter lock, so pictures are drawn in worker
processes (`PicturePool`), where they take no time from the event loop that answers clicks.
A game whose renderer was registered at run time (`renderers.register`, as the tests' own
game is) is not known to a worker: its pictures are drawn in a thread instead.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import io
import logging
import os
import struct
import threading
import weakref
import zlib
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

import discord
from PIL import Image
from zlib_ng import zlib_ng

from meeple_hall import renderers
from meeple_hall.bot import picture_bands
from meeple_hall.games.ai.pool import Workers, workers
from meeple_hall.renderers import phone

if TYPE_CHECKING:
    from meeple_hall.bot.live import LiveGame

log = logging.getLogger(__name__)

T = TypeVar("T")

FILENAME = "table.png"
PRIVATE_FILENAME = "private.png"
DECISION_FILENAME = "decision.png"


def encode_png(game_id: str, view: dict[str, Any]) -> bytes:
    return flat_png(renderers.render(game_id, view))


def encode_table(
    game_id: str, view: dict[str, Any], previous: Palette | None
) -> tuple[bytes, Palette | None]:
    """A table picture and its palette, keeping the table's `previous` one if it can."""
    return palette_png(renderers.render(game_id, view), previous)


_PNG_COLOUR_TYPES = {"L": 0, "RGB": 2, "P": 3, "RGBA": 6}
# Rows are deflated by zlib-ng (a faster zlib, same format): at level 3 in two thirds of
# zlib's time and 5-15 % smaller; at level 6 as small as zlib at 7 in half its time.
ZLIB_LEVEL = 3
# Table pictures should stay under 60 KiB. Those of more than LARGE_PICTURE pixels
# (Burgundy's and Coffee's, 1.2 million) are about 70 KiB at ZLIB_LEVEL: they are deflated
# at SMALLER_LEVEL, a fifth smaller for about 5 ms more (bench/README.md). Decided by the
# size, not by trying, so that a picture is always the same bytes and is deflated once.
MAX_PICTURE_BYTES = 60 * 1024
LARGE_PICTURE = 1_100_000
SMALLER_LEVEL = 6
# A palette is worked out from every PALETTE_STEP-th pixel of every PALETTE_STEP-th row:
# flat colours cover many pixels, so the sample holds them all at a sixteenth of the work.
PALETTE_STEP = 4
PALETTE_COLOURS = 256
# A colour of at least FLAT_SAMPLES pixels of the sample (about 64 of the picture) is a flat
# colour, which a table's next picture keeps exactly (`Palette`); a palette keeps up to
# KEPT_FLATS flat colours that its picture no longer shows.
FLAT_SAMPLES = 4
KEPT_FLATS = 128


def flat_png(image: Image.Image) -> bytes:
    """A game picture as a PNG of at most 256 colours (`Palette`): a byte a pixel instead of
    three, so it deflates in about half the time and bytes (bench/README.md, "Pictures at
    half the cost"). A picture with transparency is kept whole (`png_bytes`)."""
    return palette_png(image)[0]


def palette_png(
    image: Image.Image, previous: Palette | None = None
) -> tuple[bytes, Palette | None]:
    """`flat_png`, and its palette, which the same table's next picture keeps if it can
    (`Palette.choose`). Deflated by the band (`bot/picture_bands.py`): the bands a worker met
    in its last pictures, with the same palette, are neither mapped nor deflated again; the
    bytes are the same in any worker."""
    if image.mode != "RGB":
        return png_bytes(image), None
    large = image.width * image.height > LARGE_PICTURE
    level = SMALLER_LEVEL if large else ZLIB_LEVEL
    palette = Palette.choose(image, previous)
    colours = palette.channels()
    header = struct.pack(">IIBBBBB", image.width, image.height, 8, _PNG_COLOUR_TYPES["P"], 0, 0, 0)
    data = b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", bytes(colours)),
            _chunk(b"IDAT", picture_bands.palette_stream(image, colours, level)),
            _chunk(b"IEND", b""),
        )
    )
    return data, palette


RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Palette:
    """The colours of a picture's palette (RGB triples one after the other), and which of
    them are its flat colours (at least FLAT_SAMPLES pixels of the sample), as bytes: a bot
    keeps one for each of its tables.

    A fresh palette is the most frequent colours of a sample of the picture's pixels (the
    flat colours, then the anti-aliased edges' commonest shades; an octree's shades were no
    nearer and cost 1 ms more), the most frequent first: Pillow gives the pixels of a cell
    of 4×4×4 colours to the first of the colours looked up at that cell's corner
    (`picture_bands.mapped`), which must be the flat colour, not a shade. The commonest
    shades change from move to move (the 256th colour is seen once or twice in the sample),
    so a table's next picture keeps its last palette while that holds all of the picture's
    flat colours: the bands a move did not change are then the same bytes
    (`bot/picture_bands.py`). The picture's bytes depend on the picture and the palette it
    was given, never on a worker's memory. tests/renderers/test_encoding.py states the
    tolerance."""

    colours: bytes
    flats: bytes

    def channels(self) -> list[int]:
        return list(self.colours)

    @classmethod
    def choose(cls, image: Image.Image, previous: Palette | None = None) -> Palette:
        """`previous` if it holds every flat colour of `image` (as a flat colour or as a
        shade), else a fresh palette that also keeps `previous`'s flat colours that are not
        in the picture (up to KEPT_FLATS flat colours in all): a colour that comes and goes
        (a seat's highlight) stays."""
        counted = _sample_colours(image, ordered=False)
        flats = [rgb for count, rgb in counted if count >= FLAT_SAMPLES]
        if previous is not None and len(flats) <= PALETTE_COLOURS and previous.holds(flats):
            return previous  # most pictures of a table: nothing sorted (0.1-0.4 ms)
        counted.sort(reverse=True)
        flats = [rgb for count, rgb in counted if count >= FLAT_SAMPLES][:PALETTE_COLOURS]
        if previous is not None and previous.holds(flats):
            return previous
        gone = set(_triples(previous.flats)).difference(flats) if previous is not None else ()
        kept = sorted(gone)[: max(0, KEPT_FLATS - len(flats))]
        chosen = dict.fromkeys([*flats, *kept])
        for _, rgb in counted:
            if len(chosen) >= PALETTE_COLOURS:
                break
            chosen.setdefault(rgb)
        return cls(_packed(chosen), _packed([*flats, *kept]))

    def holds(self, colours: Iterable[RGB]) -> bool:
        """Whether every one of `colours` is among the palette's."""
        channels = iter(self.colours)
        return set(zip(channels, channels, channels, strict=True)).issuperset(colours)


def _triples(colours: bytes) -> list[RGB]:
    return [(colours[at], colours[at + 1], colours[at + 2]) for at in range(0, len(colours), 3)]


def _packed(colours: Iterable[RGB]) -> bytes:
    return bytes(channel for colour in colours for channel in colour)


def _sample_colours(image: Image.Image, ordered: bool = True) -> list[tuple[int, RGB]]:
    """The colours of every PALETTE_STEP-th pixel of every PALETTE_STEP-th row, with their
    counts, the most frequent first (`ordered`; else as Pillow counted them)."""
    width, height = image.size
    sample = image.resize(
        (max(1, width // PALETTE_STEP), max(1, height // PALETTE_STEP)),
        Image.Resampling.NEAREST,
    )
    # an RGB picture's colours are (r, g, b) tuples: sorted as they are, by count then colour
    colours = cast(list[tuple[int, RGB]], sample.getcolors(sample.width * sample.height) or [])
    return sorted(colours, reverse=True) if ordered else colours


def to_palette(image: Image.Image) -> Image.Image:
    """An RGB picture of flat colours as a "P" picture of its fresh `Palette`, each pixel
    given the nearest of its colours (`picture_bands.mapped`)."""
    colours = Palette.choose(image).channels()
    indexed = picture_bands.mapped(image, colours)
    indexed.putpalette(colours)
    return indexed


def png_bytes(image: Image.Image, level: int = ZLIB_LEVEL) -> bytes:
    """A PNG of the picture's own pixels whose rows are stored unfiltered.

    Pillow filters every row adaptively, which suits photographs; table pictures are flat
    colours, where unfiltered rows deflate both faster and smaller. zlib level 3 is as fast
    as level 1 here and a quarter smaller (bench/README.md).
    """
    image = _storable(image)
    width, height = image.size
    rows = _unfiltered_rows(image)
    header = struct.pack(">IIBBBBB", width, height, 8, _PNG_COLOUR_TYPES[image.mode], 0, 0, 0)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            *_palette_chunks(image),
            _chunk(b"IDAT", zlib_ng.compress(rows, level)),
            _chunk(b"IEND", b""),
        )
    )


def _unfiltered_rows(image: Image.Image) -> bytes:
    """The picture's rows, each after its filter byte 0 ("none"). A picture of a byte a pixel
    is pasted one column in on a picture whose first column is 0: a third of the time of
    joining its rows."""
    width, height = image.size
    if image.mode in ("P", "L"):
        padded = Image.new(image.mode, (width + 1, height), 0)
        padded.paste(image, (1, 0))
        return padded.tobytes()
    raw = image.tobytes()
    stride = len(raw) // height
    return b"".join(b"\0" + raw[y * stride : (y + 1) * stride] for y in range(height))


def _storable(image: Image.Image) -> Image.Image:
    """The picture in a mode `png_bytes` writes as it is (a palette with a transparent
    colour becomes RGBA)."""
    if image.mode == "P" and "transparency" in image.info:
        return image.convert("RGBA")
    if image.mode not in _PNG_COLOUR_TYPES:
        return image.convert("RGBA" if "A" in image.getbands() else "RGB")
    return image


def _palette_chunks(image: Image.Image) -> tuple[bytes, ...]:
    """A "P" picture's colours (PLTE), as many entries as its highest index needs."""
    if image.mode != "P":
        return ()
    colours = image.getpalette("RGB") or []
    highest = image.getextrema()[1]
    assert isinstance(highest, int), "a P picture's extrema are its lowest and highest index"
    used = (highest + 1) * 3
    return (_chunk(b"PLTE", bytes(colours[:used]).ljust(used, b"\0")),)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


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
        self, table_id: int, seat: int, game_id: str, view: dict[str, Any], kind: str
    ) -> bytes | None:
        """What the seat's decision of `kind` is about (`decision_png`), from its view; None,
        and nothing asked of a worker, if it pictures nothing. Decisions that picture the
        same parts share a picture (a turn's steps)."""
        parts = phone.decision_parts(game_id, view, kind)
        if not parts:
            return None
        return await self._other(
            ("decision", table_id, seat, parts),
            view,
            lambda: decision_png(game_id, view, kind, table=table_id),
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


def encode_own(game_id: str, view: dict[str, Any]) -> bytes | None:
    image = phone.render_own(game_id, view)
    return flat_png(image) if image is not None else None


def encode_focus(game_id: str, view: dict[str, Any], focus: str) -> bytes | None:
    image = phone.render_focus(game_id, view, focus)
    return flat_png(image) if image is not None else None


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


def encode_decision(game_id: str, view: dict[str, Any], parts: tuple[str, ...]) -> bytes | None:
    image = phone.render_decision(game_id, view, parts)
    return flat_png(image) if image is not None else None


async def decision_png(
    game_id: str, view: dict[str, Any], kind: str, table: int | None = None
) -> bytes | None:
    """What a decision of `kind` is about (renderers/phone: `decision_parts`), drawn from the
    deciding seat's own view `view` to read on a phone; None if it pictures nothing."""
    parts = phone.decision_parts(game_id, view, kind)
    if not parts:
        return None
    return await pool.run(game_id, encode_decision, view, parts, table=table)


def as_file(data: bytes, filename: str = FILENAME) -> discord.File:
    return discord.File(io.BytesIO(data), filename=filename)
