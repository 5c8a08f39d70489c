"""What every game's bench prints: a random full game's speed, and the table and private
pictures drawn and encoded as the bot does it (mid-game and at the end): the median of
five drawings, split into drawing and encoding; the first drawing of a process also loads
fonts and caches, so it is printed apart. Times are processor time (`time.process_time`):
on a machine shared with other work they count this process's work, not its waiting.

Encoding is measured twice on the same drawing, one after the other: the bot's encoder
(`flat_png`: a 256-colour palette) and the one before it (`png_bytes`: every pixel's RGB),
so both meet the same machine.

Used by bench/keyflower.py, burgundy.py, village.py and coffee.py; run alone
(`python bench/game_figures.py [seed]`) it prints that comparison for the four games' table
pictures at 4 players, mid-game and at the end, as a Markdown table.

`python bench/game_figures.py --before /tmp/base_pkg [--runs 6] [seed]` measures an older
tree beside this one in one run: two worker processes, one importing `meeple_hall` from the
folder given (PYTHONPATH, started from /tmp so that this checkout is not on its path), one
this tree, each drawing and encoding the same pictures as the bot does (`renderers.render`
or `phone.render_own`, then `flat_png`), taken in turns (before, now, now, before) so that
both meet the same machine. Each turn draws `--runs` consecutive moves of a game (from the
middle and up to the end), so that a cache of stamps only helps as much as it would from
one move to the next; the process's first drawings (fonts loaded, caches cold) are made
before and not counted. Each picture is encoded as a picture worker does for one table
(the palette kept from the table's last picture, the worker's bands remembered: "warm")
and again by a worker that remembers no band ("cold", the same bytes), with the share of
bands deflated on the warm worker. Each picture's pixels are compared between the two trees:
identical, or the channel errors (mean, 99th percentile, max) where they differ, as drawn and
as sent (the PNG decoded).

Besides the table pictures it measures the bot's other pictures (`--kinds`): a decision's
(the seat to move, from its view), a seat's own area (seat 0) and a `/board focus:` part
(the first a game offers), and how often each is the same, pixel for pixel, as the last one
of the same seat in the run ("same as the seat's last": a picture that need not have been
drawn again). `--keep-palettes` gives this tree's pictures of those kinds a kept palette,
as a table's (bench/README.md, "The pictures a move costs").
"""

from __future__ import annotations

import argparse
import hashlib
import io
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops
from sides import Side, decision_shown, serve

from meeple_hall import games, renderers
from meeple_hall.bot.render import flat_png, png_bytes
from meeple_hall.games.core import Action
from meeple_hall.games.testing import random_choices, random_game


def _timed_png(draw: Callable[[], Any], runs: int = 5) -> dict[str, float] | None:
    """Median processor times (ms) of drawing and of both encoders, their sizes (KiB), and
    the first drawing and encoding of the run."""
    first = None
    times: dict[str, list[float]] = {"draw": [], "flat": [], "rgb": []}
    sizes: dict[str, int] = {}
    for _ in range(runs):
        start = time.process_time()
        image = draw()
        if image is None:
            return None
        drawn = time.process_time()
        times["draw"].append(drawn - start)
        for name, encode in (("flat", flat_png), ("rgb", png_bytes)):
            before = time.process_time()
            sizes[name] = len(encode(image))
            times[name].append(time.process_time() - before)
        first = first if first is not None else drawn - start + times["flat"][0]
    figures = {name: 1000 * statistics.median(values) for name, values in times.items()}
    figures |= {f"{name} KiB": size / 1024 for name, size in sizes.items()}
    return figures | {"first": 1000 * (first or 0.0)}


def _describe(figures: dict[str, float]) -> str:
    return (
        f"{figures['draw'] + figures['flat']:.0f} ms ({figures['draw']:.0f} drawing +"
        f" {figures['flat']:.0f} encoding; first {figures['first']:.0f} ms),"
        f" PNG {figures['flat KiB']:.0f} KiB; before: {figures['rgb']:.0f} ms encoding,"
        f" {figures['rgb KiB']:.0f} KiB"
    )


def report(
    game_id: str,
    players: int,
    seed: int,
    *,
    who: str,
    midgame: str,
    is_midgame: Callable[[Any], bool],
) -> None:
    """Play one random game with `players` seats and print its figures. `is_midgame` tells
    from the state when to take the mid-game pictures (`midgame` names that moment)."""
    engine = games.get(game_id)
    rng = random.Random(seed)
    state = engine.new(players, seed)
    start = time.perf_counter()
    moves, mid, state = play(engine, state, rng, is_midgame)
    elapsed = time.perf_counter() - start
    result = engine.result(state)
    assert result is not None
    print(f"{engine.name}, {who}, seed {seed}: {moves} moves in {elapsed:.2f} s")
    print(f"  {moves / elapsed:.0f} moves/s, {1000 * elapsed / moves:.2f} ms per move")
    print(f"  final scores {list(result.scores)}")
    for name, moment in ((midgame, mid), ("end", state)):
        if moment is None:
            continue
        for kind, draw in (
            ("table", lambda m=moment: renderers.render(game_id, engine.view(m, None))),
            ("private", lambda m=moment: renderers.render_private(game_id, engine.view(m, 0))),
        ):
            figures = _timed_png(draw)
            if figures is not None:
                print(f"  {kind} picture {name}: {_describe(figures)}")


def play(engine: Any, state: Any, rng: random.Random, is_midgame: Callable[[Any], bool]) -> Any:
    """A random game to its end: the moves made, the first mid-game state, the last state."""
    moves, mid = 0, None
    while pending := engine.decisions(state):
        decision = rng.choice(pending)
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
        moves += 1
        if mid is None and is_midgame(state):
            mid = state
    return moves, mid, state


MIDGAME: dict[str, Callable[[Any], bool]] = {
    "keyflower": lambda state: state.season == 2,
    "burgundy": lambda state: state.phase == 2,
    "village": lambda state: state.round == 4,
    "coffee": lambda state: state.period == 2,
}


def compare_encoders(seed: int) -> None:
    """The four games' table pictures at 4 players, both encoders on the same drawings."""
    print("| Picture | drawing | encoding before → now | PNG before → now |")
    print("| --- | --- | --- | --- |")
    for game_id, is_midgame in MIDGAME.items():
        engine = games.get(game_id)
        _, mid, end = play(engine, engine.new(4, seed), random.Random(seed), is_midgame)
        for name, moment in (("mid-game", mid), ("end", end)):
            if moment is None:
                continue
            view = engine.view(moment, None)
            figures = _timed_png(lambda g=game_id, v=view: renderers.render(g, v))
            assert figures is not None
            print(
                f"| {engine.name}, {name} | {figures['draw']:.1f} ms"
                f" | {figures['rgb']:.1f} → {figures['flat']:.1f} ms"
                f" | {figures['rgb KiB']:.0f} → {figures['flat KiB']:.0f} KiB |"
            )


def seed_from_argv() -> int:
    return int(sys.argv[1]) if len(sys.argv) > 1 else 1


# -- two trees side by side -------------------------------------------------------------------
# (game, players, kind): the four tables at 4 players, Village solo, Coffee against André and
# at 5 players (its largest table), a seat's own picture (what its DMs and /hand show), the
# decision picture a Take turn panel carries (the seat to move, from its own view) and a
# `/board focus:` picture (the first part a game offers) in the four games.
SIDE_BY_SIDE = (
    ("keyflower", 4, "table"),
    ("burgundy", 4, "table"),
    ("village", 4, "table"),
    ("coffee", 4, "table"),
    ("village", 1, "table"),
    ("coffee", 2, "table"),
    ("coffee", 5, "table"),
    *((game, 4, kind) for kind in ("decision", "own", "focus") for game in MIDGAME),
)
KINDS = ("table", "decision", "own", "focus")
SAVED = Path("/tmp/game_figures_pictures")


@cache
def _states(game_id: str, players: int, seed: int) -> tuple[Any, ...]:
    return tuple(random_game(games.get(game_id), players, seed))


def _moments(count: int, runs: int) -> dict[str, range]:
    middle = count // 2
    return {"mid-game": range(middle, middle + runs), "end": range(count - runs, count)}


def _drawing(game_id: str, kind: str, state: Any) -> tuple[int | None, Image.Image | None]:
    """The picture of `kind` at `state` as the bot draws it, and the seat it is drawn for (a
    decision picture: the first seat to decide, from its view; own: seat 0)."""
    from meeple_hall.renderers import phone

    engine = games.get(game_id)
    if kind == "own":
        return 0, phone.render_own(game_id, engine.view(state, 0))
    if kind == "decision":
        pending = engine.decisions(state)
        if not pending:  # the game is over
            return None, None
        decision = pending[0]
        view = engine.view(state, decision.seat)
        parts, marks = decision_shown(phone, game_id, view, decision)
        if not parts:
            return decision.seat, None
        return decision.seat, phone.render_decision(
            game_id, view, parts, *([marks] if marks else [])
        )
    spectator = engine.view(state, None)
    if kind == "focus":
        return None, phone.render_focus(game_id, spectator, phone.focuses(game_id, spectator)[0])
    return None, renderers.render(game_id, spectator)


def _measure(
    game: str, players: int, kind: str, moment: str, seed: int, runs: int, keep: bool = False
) -> dict:
    """Draw and encode the moment's pictures as a picture worker does for one table: each
    picture keeps the palette its tree's bot keeps (`_Encoder`) and the worker's bands (the
    move before the moment's first primes them, not counted); each is then encoded again by
    a cold worker (no bands remembered, the same palette given). Processor times (ms),
    bytes, the share of bands deflated, pixel digests, and whether each picture is the same
    (pixel for pixel) as the last one of the same seat. A move whose decision pictures
    nothing is left out. `keep`: every kind keeps its last palette (by seat), as the table
    picture does."""
    from meeple_hall.bot import render

    states = _states(game, players, seed)
    out: dict[str, list] = {"draw": [], "encode": [], "cold": [], "bytes": [], "digests": []}
    out |= {"redone": [], "unchanged": [], "pictured": [], "sent": []}
    moves = _moments(len(states), runs)[moment]
    encoder = _Encoder(render, kind, keep)
    last: dict[int | None, str] = {}
    primed = _drawing(game, kind, states[moves.start - 1])
    if primed[1] is not None:
        encoder.encode(primed[1], primed[0])
        last[primed[0]] = hashlib.sha1(primed[1].tobytes()).hexdigest()
    for index in moves:
        start = time.process_time()
        seat, image = _drawing(game, kind, states[index])
        drawn = time.process_time()
        out["pictured"].append(image is not None)
        if image is None:
            continue
        data, redone = encoder.encode(image, seat)
        encoded = time.process_time()
        assert encoder.encode(image, seat, cold=True)[0] == data  # a cold worker's bytes
        out["cold"].append(1000 * (time.process_time() - encoded))
        out["encode"].append(1000 * (encoded - drawn))
        out["draw"].append(1000 * (drawn - start))
        out["bytes"].append(len(data))
        out["redone"].append(redone)
        digest = _saved(image)
        out["digests"].append(digest)
        out["sent"].append(_saved(Image.open(io.BytesIO(data)).convert("RGB")))
        out["unchanged"].append(last.get(seat) == digest)
        last[seat] = digest
    return out


def _saved(image: Image.Image) -> str:
    """The digest of the picture's pixels, the picture saved under it (for `_pixels`)."""
    digest = hashlib.sha1(image.tobytes()).hexdigest()
    SAVED.mkdir(exist_ok=True)
    path = SAVED / f"{digest}.png"
    if not path.exists():
        image.save(path)
    return digest


class _Encoder:
    """A picture worker's encoder for one table's pictures of one kind, in either tree: a tree
    without `render.palette_png` (before session 12) encodes each picture whole
    (`flat_png`). The bot keeps a table picture's palette for the next; a seat's own,
    decision and focus pictures have a fresh palette each (`keep`: they keep theirs, by
    seat, as an experiment: bench/README.md, "The pictures a move costs"). The worker's
    bands are its own (`picture_bands.BandCache`), as the table's worker's are."""

    def __init__(self, render: Any, kind: str, keep: bool = False) -> None:
        self.render = render
        self.banded = hasattr(render, "palette_png")
        self.keeps_palette = kind == "table" or keep
        self.palettes: dict[int | None, Any] = {}
        if self.banded:
            from meeple_hall.bot import picture_bands

            self.bands = picture_bands.BandCache()

    def encode(
        self, image: Image.Image, seat: int | None = None, cold: bool = False
    ) -> tuple[bytes, float]:
        """The picture's bytes, and the share of its bands deflated (1 if not banded)."""
        if not self.banded:
            return self.render.flat_png(image), 1.0
        from meeple_hall.bot import picture_bands

        bands = picture_bands.BandCache() if cold else self.bands
        deflated = bands.deflated
        previous = self.palettes.get(seat) if self.keeps_palette else None
        saved, picture_bands.cache = picture_bands.cache, bands
        try:
            data, palette = self.render.palette_png(image, previous)
        finally:
            picture_bands.cache = saved
        if not cold:
            self.palettes[seat] = palette
        count = -(-image.height // picture_bands.BAND_ROWS)
        return data, (bands.deflated - deflated) / count


def _pixels(before: list[str], now: list[str]) -> str:
    """Whether the two trees drew the same pictures: identical, or the largest channel errors
    (mean, 99th percentile, max) over the pictures that differ."""
    differ = [(b, n) for b, n in zip(before, now, strict=True) if b != n]
    if not differ:
        return "identical"
    worst = (0.0, 0, 0)
    for b, n in differ:
        old, new = Image.open(SAVED / f"{b}.png"), Image.open(SAVED / f"{n}.png")
        if old.size != new.size:
            return f"{len(differ)} differ in size"
        bands = ImageChops.difference(old.convert("RGB"), new.convert("RGB")).histogram()
        counts = [sum(bands[e + 256 * k] for k in range(3)) for e in range(256)]
        total, seen, p99 = sum(counts), 0, 0
        for error, count in enumerate(counts):
            seen += count
            if seen < 0.99 * total:
                p99 = error + 1
        mean = sum(e * c for e, c in enumerate(counts)) / total
        largest = max(e for e, c in enumerate(counts) if c)
        worst = max(worst, (mean, p99, largest))
    mean, p99, largest = worst
    return f"{len(differ)} of {len(before)} differ: mean {mean:.2f}, p99 {p99}, max {largest}"


def side_by_side(
    before_path: str, seed: int, runs: int, kinds: tuple[str, ...] = KINDS, keep: bool = False
) -> None:
    """The pictures of SIDE_BY_SIDE (of `kinds`) drawn and encoded by the tree at
    `before_path` and by this one, in turns, as a Markdown table (medians of processor
    time); `keep`: this tree's pictures of every kind keep their palette."""
    sides = {"before": Side(__file__, before_path), "now": Side(__file__, None)}
    load = os.getloadavg()[0]
    print(f"load average {load:.2f}, {os.cpu_count()} cores, seed {seed}, {runs} moves a turn")
    columns = ("drawing", "encoding (warm)", "encoding (cold)", "total (warm)", "PNG")
    print(
        f"| Picture | {' | '.join(f'{c} before → now' for c in columns)} | bands deflated"
        " | same as the seat's last | pictured | pixels drawn | pixels sent |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    try:
        for game, players, kind in (row for row in SIDE_BY_SIDE if row[2] in kinds):
            for moment in ("mid-game", "end"):
                request = dict(game=game, players=players, kind=kind, moment=moment, seed=seed)
                for side in sides.values():  # first drawings: fonts, cold caches
                    side.ask(**request, runs=1)
                got: dict[str, dict[str, list]] = {name: {} for name in sides}
                for name in ("before", "now", "now", "before"):
                    kept = {"keep": True} if keep and name == "now" else {}
                    answer = sides[name].ask(**request, runs=runs, **kept)
                    for key, values in answer.items():
                        got[name].setdefault(key, []).extend(values)
                print(_row(game, players, kind, moment, got))
    finally:
        for side in sides.values():
            side.close()
    print(f"load average {os.getloadavg()[0]:.2f}")


def _row(game: str, players: int, kind: str, moment: str, got: dict[str, dict[str, list]]) -> str:
    def median(name: str, key: str) -> float:
        return statistics.median(got[name][key])

    def pair(key: str, unit: str = "ms") -> str:
        return f"{median('before', key):.1f} → {median('now', key):.1f} {unit}"

    total = {
        name: statistics.median(
            d + e for d, e in zip(got[name]["draw"], got[name]["encode"], strict=True)
        )
        for name in got
    }
    kib = {name: median(name, "bytes") / 1024 for name in got}
    pixels = _pixels(got["before"]["digests"], got["now"]["digests"])
    sent = _pixels(got["before"]["sent"], got["now"]["sent"])
    name = f"{games.get(game).name}, {players} players, {kind}, {moment}"
    redone = 100 * statistics.mean(got["now"]["redone"])
    unchanged = 100 * statistics.mean(got["now"]["unchanged"])
    pictured = f"{sum(got['now']['pictured'])} of {len(got['now']['pictured'])}"
    return (
        f"| {name} | {pair('draw')} | {pair('encode')} | {pair('cold')}"
        f" | {total['before']:.1f} → {total['now']:.1f} ms"
        f" | {kib['before']:.1f} → {kib['now']:.1f} KiB | {redone:.0f} % | {unchanged:.0f} %"
        f" | {pictured} | {pixels} | {sent} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("seed", nargs="?", type=int, default=1)
    parser.add_argument("--before", metavar="PATH", help="an older tree's import folder")
    parser.add_argument("--runs", type=int, default=6, help="consecutive moves a turn")
    parser.add_argument(
        "--kinds", nargs="+", choices=KINDS, default=KINDS, help="the pictures compared"
    )
    parser.add_argument(
        "--keep-palettes",
        action="store_true",
        help="this tree's own, decision and focus pictures keep their last palette (by seat)",
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(_measure)
    elif args.before:
        side_by_side(args.before, args.seed, args.runs, tuple(args.kinds), args.keep_palettes)
    else:
        compare_encoders(args.seed)


if __name__ == "__main__":
    main()
