"""How fast a click is answered: the real bot, driven through SimCord, on a real SQLite file.

    python bench/click_latency.py [--clicks 300] [--game-clicks 40] [--players 3]
                                  [--games pebbles,keyflower,burgundy,village,coffee]

Players open their panel with Take turn and answer it with random legal choices, as in
tests/bot. Two figures per game, p50 and p95:

- click to acknowledgement: from the moment SimCord hands the click to the bot's gateway
  until the bot's interaction callback (the panel, the edited panel, a refusal) has been
  accepted by SimCord's interaction route;
- click to updated table: for clicks that made a move, from the click until the table
  message in the channel has been edited or re-posted showing that move (or the final
  scores posted), picture included.

Timestamps are taken on SimCord's side of its two seams: a dispatch observer just before
the INTERACTION_CREATE event, and a wrapper around the HTTP route table that notes when an
interaction callback or a table message write has been handled. SimCord settles the bot
after every click, so each click is measured on an idle bot (no queueing behind the
previous click's picture or DMs). Between turns the harness tidies up after itself (see
Players.between_turns), so the figures do not drift with the length of the run. Full
garbage collections that fell inside a timed click are counted and shown. The targets are
printed; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import platform
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# The test game (Pebbles) and its picture come from tests/, which is not installed.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import simcord
from simcord.components import walk_components
from simcord.http import router

from meeple_hall import games, renderers
from meeple_hall.bot import create_bot
from meeple_hall.bot.live import LiveGame
from meeple_hall.bot.panels import uses_confirm
from meeple_hall.bot.store import TableStatus
from tests import testgame_picture
from tests.testgame import engine as pebbles

TARGET_ACK_MS = 50
TARGET_TABLE_MS = 250
REAL_GAMES = ("keyflower", "burgundy", "village", "coffee")

CALLBACK = re.compile(r"^/interactions/(\d+)/[^/]+/callback$")
CHANNEL_MESSAGE = re.compile(r"^/channels/(\d+)/messages(?:/\d+)?$")
TAKE = re.compile(r"^t:(\d+):(\d+):take$")
BUTTON, SELECT = 2, 3
FINAL = -1


@dataclass
class TableWrite:
    at: float
    channel_id: int
    seq: int  # FINAL: the final scores


@dataclass
class Collections:
    """Full (generation 2) garbage collections: when each ended and how long it took."""

    pauses: list[tuple[float, float]] = field(default_factory=list)
    _began: float = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.pauses.append((time.perf_counter(), time.perf_counter() - self._began))

    def within(self, start: float, end: float) -> float:
        return sum(took for at, took in self.pauses if start <= at <= end)


@dataclass
class Probe:
    """What happened when, as seen at SimCord's seams."""

    clicks: list[tuple[int, float]] = field(default_factory=list)
    acks: dict[int, float] = field(default_factory=dict)
    tables: list[TableWrite] = field(default_factory=list)
    collections: Collections = field(default_factory=Collections)

    def click_sent(self, interaction: Any) -> None:
        self.clicks.append((interaction.id, time.perf_counter()))

    def handled(self, method: str, path: str, body: Any) -> None:
        at = time.perf_counter()
        if method == "POST" and (match := CALLBACK.match(path)):
            self.acks.setdefault(int(match[1]), at)
        elif method in ("POST", "PATCH") and (match := CHANNEL_MESSAGE.match(path)):
            seq = table_seq(body)
            if seq is not None:
                self.tables.append(TableWrite(at, int(match[1]), seq))

    def table_after(self, channel_id: int, since: float, seq: int | None) -> float | None:
        """When the channel first showed move `seq` (or the final scores) after `since`."""
        for write in self.tables:
            if write.channel_id != channel_id or write.at < since:
                continue
            if write.seq == FINAL or (seq is not None and write.seq >= seq):
                return write.at
        return None


def table_seq(body: Any) -> int | None:
    """The move a table message shows: its Take turn button's move number, FINAL for the
    final scores (the picture without buttons), None for any other message."""
    if not isinstance(body, dict):
        return None
    for component in walk_components(body.get("components") or []):
        match = TAKE.match(str(component.get("custom_id", "")))
        if match:
            return int(match[2])
    pictures = [a for a in body.get("attachments") or [] if a.get("filename") == "table.png"]
    if pictures and body.get("embeds") and not body.get("components"):
        return FINAL
    return None


@contextmanager
def probing(env: simcord.Env) -> Iterator[Probe]:
    probe = Probe()
    original = router.dispatch

    def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        result = original(backend, method, path, **kwargs)
        probe.handled(method, path, kwargs.get("json"))
        return result

    router.dispatch = dispatch
    unregister = env._register_dispatch_observer(probe.click_sent)
    gc.callbacks.append(probe.collections)
    try:
        yield probe
    finally:
        gc.callbacks.remove(probe.collections)
        unregister()
        router.dispatch = original


@dataclass
class Sample:
    kind: str  # "take" (opens the panel), "pick" (a pick kept until Confirm), "move"
    ack_ms: float | None
    table_ms: float | None = None
    busy_ms: float | None = None  # from the table update until the bot was idle again
    gc_ms: float = 0.0  # full garbage collections between the click and its last figure


@dataclass
class Figures:
    game: str
    players: int
    samples: list[Sample] = field(default_factory=list)
    games_played: int = 0
    refused: int = 0
    error: str | None = None
    cpu_s: float = 0.0  # processor time of this process (bot, SimCord, players) while playing


class Players:
    """Seats a few members, starts games and plays them with random legal choices."""

    def __init__(self, env: simcord.Env, probe: Probe, rng: random.Random) -> None:
        self.env = env
        self.probe = probe
        self.rng = rng
        self.guild = env.create_guild(name="Meeple Hall bench")
        self.members = [self.guild.add_member(env.create_user(f"player{n}")) for n in range(1, 6)]
        self.channels = 0

    async def start(self, game_id: str, players: int) -> tuple[Any, LiveGame]:
        self.channels += 1
        channel = self.guild.create_text_channel(f"{game_id}-{self.channels}")
        host, *others = self.members[:players]
        await host.slash(channel, "new", game=game_id)
        lobby = channel.last_message
        for member in others:
            await member.click(lobby, label="Join")
        await host.click(lobby, label="Start")
        live = self.env.bot.manager.in_channel(channel.id)
        if live is None:
            raise RuntimeError(f"{game_id} did not start: {channel.last_message.content!r}")
        return channel, live

    async def run(self, figures: Figures, clicks: int) -> None:
        while len(figures.samples) < clicks:
            channel, live = await self.start(figures.game, figures.players)
            figures.games_played += 1
            await self.play(channel, live, figures, clicks)

    async def play(self, channel: Any, live: LiveGame, figures: Figures, clicks: int) -> None:
        while len(figures.samples) < clicks and live.table.status is TableStatus.ACTIVE:
            pending = live.decisions()
            if not pending:
                raise RuntimeError(f"{figures.game}: active game with no decision")
            seat = self.rng.choice(pending).seat
            await self.between_turns()
            member = self.members[seat]
            table = self.message(channel.id, live.table.table_message_id)
            take = next(c["custom_id"] for c in self.components(table, BUTTON) if self.takes(c))
            result = await self.click(figures, live, channel.id, "take", member, table, take)
            panel = result.response
            while (
                panel is not None
                and panel.components
                and live.table.status is TableStatus.ACTIVE
                and live.decision_for(seat) is not None
                and len(figures.samples) < clicks
            ):
                panel = await self.answer(figures, live, channel.id, member, seat, panel)

    async def between_turns(self) -> None:
        """Keep the harness's own costs flat over a long run: SimCord logs every request and
        event for failure reports; unbounded, those logs make each full garbage collection
        slower."""
        self.env.http_requests.clear()
        self.env.backend.transcript.clear()

    async def answer(
        self, figures: Figures, live: LiveGame, channel_id: int, member: Any, seat: int, panel: Any
    ) -> Any:
        """One move from an open panel; returns the panel the bot answered with."""
        decision = live.decision_for(seat)
        assert decision is not None
        options = [
            c["custom_id"] for c in self.components(panel, BUTTON) if ":o:" in c["custom_id"]
        ]
        finish = next(
            (c["custom_id"] for c in self.components(panel, BUTTON) if c["custom_id"][-2:] == ":c"),
            None,
        )
        menus = self.components(panel, SELECT)
        on_page = [(m["custom_id"], o["value"]) for m in menus for o in m.get("options", [])]

        async def move(custom_id: str, values: list[str] | None = None) -> Any:
            args = (figures, live, channel_id, "move", member, panel, custom_id, values)
            return (await self.click(*args)).response

        if options:
            choice = self.rng.choice(options + ([finish] if finish else []))
            return await move(choice)
        if uses_confirm(decision):
            count = self.rng.randint(decision.min_choices, min(decision.max_choices, len(on_page)))
            picked = self.rng.sample(on_page, count)
            for menu in dict.fromkeys(m for m, _ in picked):
                values = [v for m, v in picked if m == menu]
                result = await self.click(
                    figures, live, channel_id, "pick", member, panel, menu, values
                )
                panel = result.response
            assert finish is not None
            return await move(finish)
        if finish and self.rng.random() < 1 / (len(on_page) + 1):
            return await move(finish)
        menu, value = self.rng.choice(on_page)
        values = [value]
        if decision.max_choices > 1:
            choices = [v for m, v in on_page if m == menu]
            low = max(decision.min_choices, 1)
            count = self.rng.randint(low, min(decision.max_choices, len(choices)))
            values = self.rng.sample(choices, count)
        return await move(menu, values)

    async def click(
        self,
        figures: Figures,
        live: LiveGame,
        channel_id: int,
        kind: str,
        member: Any,
        message: Any,
        custom_id: str,
        values: list[str] | None = None,
    ) -> simcord.InteractionResult:
        seq = live.seq
        if values is None:
            result = await member.click(message, custom_id=custom_id)
        else:
            result = await member.select(message, values, custom_id=custom_id)
        idle = time.perf_counter()  # SimCord returns once every task of the bot has finished
        interaction, clicked = self.probe.clicks[-1]
        acked = self.probe.acks.get(interaction)
        sample = Sample(kind, None if acked is None else (acked - clicked) * 1000)
        if kind == "move":
            if live.seq == seq:
                figures.refused += 1
            else:
                final = live.table.status is TableStatus.FINISHED
                shown = self.probe.table_after(channel_id, clicked, None if final else live.seq)
                if shown is not None:
                    sample.table_ms = (shown - clicked) * 1000
                    sample.busy_ms = (idle - shown) * 1000
        last = max(clicked, acked or clicked, clicked + (sample.table_ms or 0) / 1000)
        sample.gc_ms = self.probe.collections.within(clicked, last) * 1000
        figures.samples.append(sample)
        return result

    def message(self, channel_id: int, message_id: int | None) -> simcord.ResponseMessage:
        assert message_id is not None
        return simcord.ResponseMessage(
            self.env, self.env.backend.get_message(channel_id, message_id)
        )

    @staticmethod
    def components(message: Any, kind: int) -> list[dict[str, Any]]:
        return [
            c
            for c in walk_components(message.components)
            if c.get("type") == kind and not c.get("disabled")
        ]

    @staticmethod
    def takes(component: dict[str, Any]) -> bool:
        return TAKE.match(component.get("custom_id", "")) is not None


def cut(values: list[float], q: int) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def cell(values: list[float], q: int | None) -> str:
    if not values:
        return "—"
    return f"{(max(values) if q is None else cut(values, q)):.1f}"


def report(all_figures: list[Figures]) -> None:
    head = (
        f"{'game':<10} {'seats':>5} {'games':>5} {'clicks':>6} "
        f"{'ack p50':>8} {'ack p95':>8} {'ack max':>8} {'moves':>6} "
        f"{'table p50':>10} {'table p95':>10} {'table max':>10}  targets"
    )
    print(head)
    print("-" * len(head))
    for f in all_figures:
        if f.error:
            print(f"{f.game:<10} skipped: {f.error}")
            continue
        acks = [s.ack_ms for s in f.samples if s.ack_ms is not None]
        tables = [s.table_ms for s in f.samples if s.table_ms is not None]
        verdict = []
        if acks:
            verdict.append("ack ok" if cut(acks, 95) < TARGET_ACK_MS else "ACK OVER")
        if tables:
            verdict.append("table ok" if cut(tables, 95) < TARGET_TABLE_MS else "TABLE OVER")
        print(
            f"{f.game:<10} {f.players:>5} {f.games_played:>5} {len(f.samples):>6} "
            f"{cell(acks, 50):>8} {cell(acks, 95):>8} {cell(acks, None):>8} {len(tables):>6} "
            f"{cell(tables, 50):>10} {cell(tables, 95):>10} {cell(tables, None):>10}  "
            + ", ".join(verdict)
        )
    print()
    print("acknowledgement by kind of click (ms, p50 / p95 / count)")
    for f in all_figures:
        if f.error:
            continue
        parts = []
        for kind in ("take", "pick", "move"):
            acks = [s.ack_ms for s in f.samples if s.kind == kind and s.ack_ms is not None]
            if acks:
                parts.append(f"{kind} {cell(acks, 50)} / {cell(acks, 95)} / {len(acks)}")
        missing = sum(1 for s in f.samples if s.ack_ms is None)
        moves = [s for s in f.samples if s.kind == "move"]
        unseen = sum(1 for s in moves if s.table_ms is None) - f.refused
        notes = [f"{missing} unacknowledged"] if missing else []
        notes += [f"{f.refused} moves refused"] if f.refused else []
        notes += [f"{unseen} moves without a table update"] if unseen else []
        paused = [s.gc_ms for s in f.samples if s.gc_ms]
        if paused:
            notes.append(f"full GC inside {len(paused)} click(s), up to {max(paused):.0f} ms")
        print(
            f"  {f.game:<10} "
            + "   ".join(parts)
            + ("   (" + ", ".join(notes) + ")" if notes else "")
        )
    print()
    print(
        "after a move's table update, the bot stays busy with DMs and private pictures\n"
        "(a next move's table update would queue behind this; ms, p50 / p95 / max)"
    )
    for f in all_figures:
        busy = [s.busy_ms for s in f.samples if s.busy_ms is not None]
        if not f.error and busy:
            print(f"  {f.game:<10} {cell(busy, 50)} / {cell(busy, 95)} / {cell(busy, None)}")
    print()
    print(
        "processor time of this process a move (the bot's event loop, SimCord and the players;\n"
        "not the picture workers; ms)"
    )
    for f in all_figures:
        moves = sum(1 for s in f.samples if s.kind == "move")
        if not f.error and moves:
            print(f"  {f.game:<10} {f.cpu_s * 1000 / moves:.1f} over {moves} moves")


def available(game_id: str) -> str | None:
    """Why a game cannot be benched here, or None if it can."""
    try:
        engine = games.get(game_id)
        renderers.render(game_id, engine.view(engine.new(engine.min_players, 1, {}), None))
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


async def main(args: argparse.Namespace) -> None:
    games.register(pebbles)
    renderers.register("pebbles", testgame_picture)
    wanted = [g.strip() for g in args.games.split(",") if g.strip()]
    rng = random.Random(args.seed)
    all_figures = []
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        database = Path(folder) / "meeple.db"
        bot = create_bot(f"sqlite:///{database}")
        async with simcord.run(bot, check_errors=False, settle_timeout=60) as env:
            with probing(env) as probe:
                players = Players(env, probe, rng)
                for game_id in wanted:
                    engine = games.get(game_id) if game_id in games.ids() else None
                    seats = args.players
                    if engine is not None:
                        seats = max(engine.min_players, min(engine.max_players, seats))
                    figures = Figures(game_id, seats)
                    all_figures.append(figures)
                    figures.error = available(game_id)
                    if figures.error:
                        continue
                    clicks = args.clicks if game_id == "pebbles" else args.game_clicks
                    began, cpu_began = time.perf_counter(), time.process_time()
                    try:
                        await players.run(figures, clicks)
                    except Exception as exc:
                        figures.error = f"{type(exc).__name__}: {exc}"
                    took = time.perf_counter() - began
                    figures.cpu_s = time.process_time() - cpu_began
                    print(f"  {game_id}: {len(figures.samples)} clicks in {took:.1f} s", flush=True)
            errors = list(env.errors)
        await bot.close()  # SimCord leaves the bot's own resources (the store) to it
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print()
    print(
        f"Click latency through SimCord: real bot, SQLite file, {os.cpu_count()} cores, "
        f"load average {load}, Python {platform.python_version()}"
    )
    print(
        f"targets: p95 click→ack < {TARGET_ACK_MS} ms, "
        f"p95 click→updated table < {TARGET_TABLE_MS} ms (render included); times in ms"
    )
    print()
    report(all_figures)
    if errors:
        print(f"\nthe bot reported {len(errors)} error(s); the first: {errors[0]!r}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=300, help="clicks on Pebbles")
    parser.add_argument("--game-clicks", type=int, default=40, help="clicks on each real game")
    parser.add_argument("--players", type=int, default=3, help="seats (within each game's range)")
    parser.add_argument("--games", default=",".join(("pebbles", *REAL_GAMES)))
    parser.add_argument("--seed", type=int, default=1, help="seeds the players' choices")
    parser.add_argument("--dir", default=None, help="where to put the database file")
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    asyncio.run(main(parser.parse_args()))
