"""A move's processor time on the bot's side, without Discord: what the event loop's process
computes for one move, game by game.

    python bench/move_cpu.py [--moves 60] [--players 3] [--seed 1] [--games keyflower,...]
                             [--parts] [--digest] [--pictures]

For each move of a seeded random game (the same moves in every tree whose panels are the
same): the mover's panel as Take turn builds it (`build_panel`, its lines unfolded), the
line chosen applied step by step as `CommitPath` applies it (each step with the seat's
decision, the decisions after it, the history moved), every seat's view and the spectator's
(the table picture and the DMs ask for them), and the Undo button's plan
(`History.plan_undo` with the game's kept views). No store, no SimCord, no pictures: those
are measured by `click_latency.py`, `load.py` and `game_figures.py`, except with `--pictures`:
then each move also draws and encodes, in this process, what the table's picture worker draws
for it as `bot/render.TablePictures` asks: the mover's decision picture (`encode_decision`,
with Take turn's panel; not drawn again for the seat's last view of the same parts) and the
table picture after the move (`encode_table`, the table's palette kept; not drawn again for an
unchanged spectator view). A worker serving this one table: its kept stamps, parts and bands
are this table's only (a worker shared by many tables keeps less of each). The sum is issue
29's "a move's processor time (bot and workers)", without Discord. To compare another tree,
put on PYTHONPATH a folder holding a `meeple_hall/` of symlinks to that tree's `meeple_hall/
__init__.py`, `bot`, `games`, `renderers` and `data` (a tree's own `meeple_hall/` is not enough:
the editable install maps its parts to this tree); the first line says where `meeple_hall` is.

`--digest` also prints a digest of every panel the run built, as Discord is sent it (text
and components), in each language and on each page: two trees whose digests are the same
built the same panels, move for move. Those panels are not timed, but they leave words
rendered that later panels find: time without `--digest`.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import random
import statistics
import time
from typing import Any

from sides import decision_shown

import meeple_hall
from meeple_hall import games
from meeple_hall.bot import presenters
from meeple_hall.bot.panel_clicks import model_game
from meeple_hall.bot.panels import build_panel, offered_lines, pages
from meeple_hall.games import Action
from meeple_hall.games.core.undo import NoUndo

REAL_GAMES = ("keyflower", "burgundy", "village", "coffee")
LANGUAGES = ("en-US", "zh-TW", "ja")


PARTS = ("panel", "move", "views", "undo")
PICTURES = ("decision picture", "table picture")


class WorkerPictures:
    """The pictures a move asks of its table's worker, drawn here: `bot/render.TablePictures`'
    rules (a picture of a view equal to the one last drawn for the same kind, seat and
    parts is not drawn again), the worker's functions (`bot/picture_encoding`)."""

    def __init__(self, game_id: str) -> None:
        from meeple_hall.bot import picture_encoding
        from meeple_hall.renderers import phone

        self.game_id = game_id
        self.encoding = picture_encoding
        self.phone = phone
        self.palette: Any = None
        self.table_view: Any = None
        self.shown: dict[tuple[Any, ...], Any] = {}
        self.drawn = {kind: 0 for kind in PICTURES}

    def decision(self, game: Any, seat: int, decision: Any) -> None:
        view = game.view(seat)
        parts, marks = decision_shown(self.phone, self.game_id, view, decision)
        key = (seat, parts, marks)
        if parts and self.shown.get(key) != view:
            self.encoding.encode_decision(self.game_id, view, parts, *([marks] if marks else []))
            self.shown[key] = view
            self.drawn["decision picture"] += 1

    def table(self, game: Any) -> None:
        view = game.view(None)
        if view != self.table_view:
            _, self.palette = self.encoding.encode_table(self.game_id, view, self.palette)
            self.table_view = view
            self.drawn["table picture"] += 1


def one_game(
    game_id: str,
    players: int,
    seed: int,
    moves: int,
    parts: dict[str, float] | None = None,
    digest: Any = None,
    pictures: WorkerPictures | None = None,
) -> tuple[list[float], int]:
    """Processor time (ms) of each move's bot-side work, and how many log entries it made;
    `parts` adds up each part's (the panel, the move applied, the views, the Undo plan);
    `digest` (a hashlib object) is given every panel built, untimed; `pictures` adds each
    move's pictures (its times in `parts` under PICTURES, not in the move's)."""
    engine = games.get(game_id)
    players = max(engine.min_players, min(engine.max_players, players))
    game = model_game(engine, engine.new(players, seed), players)
    folded = presenters.folded_kinds(game_id)
    rng = random.Random(seed)
    times: list[float] = []
    entries = 0
    while len(times) < moves and engine.result(game.state) is None:
        decision = game.decisions()[0]
        seat = decision.seat
        began = time.process_time()
        build_panel(game, seat, decision, "en-US")
        if digest is not None:
            paused = time.process_time()
            for shown in _every_page(game, seat, decision):
                digest.update(shown.encode())
            began += time.process_time() - paused
        if pictures is not None:
            paused = time.process_time()
            pictures.decision(game, seat, decision)
            drawn = time.process_time() - paused
            began += drawn
            if parts is not None:
                parts["decision picture"] = parts.get("decision picture", 0.0) + drawn * 1000
        steps = _choice(game, seat, decision, rng)
        marks = [time.process_time()]
        state, history = game.state, game.history
        for index, choices in enumerate(steps):
            follows = decision if index == 0 else _decision_of(engine, state, seat)
            assert follows is not None and (index == 0 or follows.kind in folded)
            after = engine.apply(state, Action(seat, choices), decision=follows)
            history = history.moved(
                engine,
                game.seq + 1,
                Action(seat, choices),
                state,
                after,
                ask=False,
                chained=index > 0,
            )
            game.acted[game.seq + 1] = seat
            state, game.seq = after, game.seq + 1
        pending = engine.decisions(state)
        game.history, game.state = history, state
        game.worked_out("decisions", lambda pending=pending: pending)
        marks.append(time.process_time())
        for viewer in (None, *range(players)):
            game.view(viewer)
        marks.append(time.process_time())
        with contextlib.suppress(NoUndo):
            game.history.plan_undo(engine, game.state, seat, views=game.views)
        marks.append(time.process_time())
        times.append((marks[-1] - began) * 1000)
        if parts is not None:
            for part, start, end in zip(PARTS, [began, *marks[:-1]], marks, strict=True):
                parts[part] = parts.get(part, 0.0) + (end - start) * 1000
        entries += len(steps)
        if pictures is not None:
            paused = time.process_time()
            pictures.table(game)
            drawn = time.process_time() - paused
            if parts is not None:
                parts["table picture"] = parts.get("table picture", 0.0) + drawn * 1000
    return times, entries


def _choice(game: Any, seat: int, decision: Any, rng: random.Random) -> list[tuple[str, ...]]:
    """A random answer: a panel line (its steps) for a single choice, else random options."""
    if decision.max_choices == 1 and decision.min_choices == 1:
        lines = offered_lines(game, seat, decision)
        line = rng.choice(lines)
        # a set of several choices in a line is one move of them (`Line.moves`)
        return list(getattr(line, "moves", None) or [(step,) for step in line.steps])
    ids = [o.id for o in decision.options]
    count = rng.randint(decision.min_choices, min(decision.max_choices, len(ids)))
    return [tuple(rng.sample(ids, count))]


def _every_page(game: Any, seat: int, decision: Any) -> list[str]:
    """The seat's panel as Discord is sent it, in each language and on each page."""
    return [
        json.dumps(
            {"content": content, "components": view.to_components()},
            sort_keys=True,
            ensure_ascii=False,
        )
        for locale in LANGUAGES
        for page in range(pages(decision))
        for content, view in [build_panel(game, seat, decision, locale, page=page)]
    ]


def _decision_of(engine: Any, state: Any, seat: int) -> Any:
    return next((d for d in engine.decisions(state) if d.seat == seat), None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=60, help="moves a game")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default=",".join(REAL_GAMES))
    parser.add_argument("--parts", action="store_true", help="also each part's mean")
    parser.add_argument("--digest", action="store_true", help="also the panels' digest")
    parser.add_argument(
        "--pictures", action="store_true", help="also the pictures the table's worker draws"
    )
    args = parser.parse_args()
    if args.pictures:  # this process draws as a picture worker does, from its first step
        from meeple_hall.games.ai import pool

        getattr(pool, "keep_freed_memory", lambda: None)()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"meeple_hall from {os.path.dirname(meeple_hall.__file__)}; load average {load}")
    for game_id in args.games.split(","):
        parts: dict[str, float] = {}
        digest = hashlib.sha256() if args.digest else None
        pictures = WorkerPictures(game_id) if args.pictures else None
        if pictures is not None:
            _first_pictures(game_id, args.players, args.seed)
        times, entries = one_game(
            game_id, args.players, args.seed, args.moves, parts, digest, pictures
        )
        print(
            f"  {game_id:<10} {len(times)} moves ({entries} log entries): "
            f"median {statistics.median(times):.1f} ms, mean {statistics.fmean(times):.1f} ms, "
            f"p90 {statistics.quantiles(times, n=10)[-1]:.1f} ms, total {sum(times):.0f} ms"
        )
        if args.parts:
            each = ", ".join(f"{part} {parts[part] / len(times):.1f}" for part in PARTS)
            print(f"  {'':<10} a move's mean by part (ms): {each}")
        if digest is not None:
            print(f"  {'':<10} its panels' digest: {digest.hexdigest()[:16]}")
        if pictures is not None:
            _print_pictures(times, parts, pictures)


def _first_pictures(game_id: str, players: int, seed: int) -> None:
    """A worker's first pictures load its fonts and draw its unchanging layers: done before,
    on another seed's game, and not counted (a worker does it once, not a move)."""
    one_game(game_id, players, seed + 1000, 6, None, None, WorkerPictures(game_id))


def _print_pictures(times: list[float], parts: dict[str, float], pictures: WorkerPictures) -> None:
    moves = len(times)
    bot = statistics.fmean(times)
    each = {kind: parts.get(kind, 0.0) / moves for kind in PICTURES}
    drawn = ", ".join(f"{kind} {pictures.drawn[kind] / moves:.2f}" for kind in PICTURES)
    whole = bot + sum(each.values())
    print(
        f"  {'':<10} a move with its pictures (bot and worker, mean): {whole:.1f} ms"
        f" = bot {bot:.1f} + decision picture {each['decision picture']:.1f}"
        f" + table picture {each['table picture']:.1f}; drawn a move: {drawn}"
    )


if __name__ == "__main__":
    main()
