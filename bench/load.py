"""Many tables played at once through the bot's real interaction path (issue 16).

    python bench/load.py [--tables 10 100 1000] [--backend sqlite postgres] [--game village]
                         [--players 3] [--seconds 60] [--think 2 10] [--latency 0.04]
                         [--pictures before now]

For each backend and table count: N games of `--game` are started and played a few moves
into the game through the bot's TableManager, then the real bot starts on that database
(its start-up is timed: setup_hook and on_ready, which read which games are in play; each
game is loaded from its log on first use, here the first click on its table) and every
table is played at once: for each table, whoever must act waits a random time (`--think`,
uniform), clicks "Take turn" on the table message if they have no panel, and clicks an
option of the panel the bot sent them (a page, a pick and Confirm where the panel asks for
them). Each click is a gateway INTERACTION_CREATE payload handed to discord.py's own
`parse_interaction_create`, so the bot's component router, cogs, panels, store and display
run as they do on Discord. Discord's HTTP API is answered in this process (discord.py's
HTTPClient.request and its webhook adapter, which sends interaction responses, are
replaced by a function that waits `--latency` each way and answers with the JSON Discord
would). See bench/README.md for what this leaves out.

Printed per run: click → acknowledgement (the interaction callback reaching "Discord")
and click → updated table (the table message edited or posted showing the move), p50, p95,
p99 and max, acknowledgements later than 3 s, moves per second, CPU per move (this process
and its picture/AI workers, the load generator included, and of it this process's own: the
event loop that answers the clicks), the memory of the bot (resident, workers included),
start-up time, and the load average.

`--pictures before now` runs every table count twice, one after the other on the same
machine: with the table pictures encoded as before issue 29 (`render.encode_table`, which
draws every table picture, swapped for a PNG of every pixel's RGB at zlib level 3, with no
palette kept; one worker short of the cores) and as now (`render.encode_table`: the table's
palette and bands, a worker per core). Only the table picture is swapped: a seat's own,
decision and focus pictures (which did not exist before issue 29) are drawn as now in both.
Either way the picture workers are started before the run (before issue 29 the first
picture started them, and the run counted their start). To compare with an older tree, put
it on PYTHONPATH (see bench/README.md, "Stamps, zlib-ng and the palette's cells").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

import discord
import psutil
from discord.webhook import async_ as webhook_async

sys.path.append(str(Path(__file__).resolve().parents[1]))  # for tests.postgres

from meeple_hall import games, renderers
from meeple_hall.bot import ai, create_bot, render
from meeple_hall.bot.clocks import ClockService
from meeple_hall.bot.live import TableManager
from meeple_hall.bot.store import Seat, open_store

GUILD = 900_000_000_000_000_001
APP = 900_000_000_000_000_002
BOT_USER = {"id": str(APP), "username": "Meeple Hall", "discriminator": "0", "avatar": None}
BOT_USER["bot"] = True
EVERYONE_PERMISSIONS = str(discord.Permissions.all().value)


def user(user_id: int) -> dict[str, Any]:
    return {"id": str(user_id), "username": f"p{user_id}", "discriminator": "0", "avatar": None}


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Figures:
    acks: list[float] = field(default_factory=list)
    updates: list[float] = field(default_factory=list)
    clicks: int = 0
    moves_clicked: int = 0


class FakeDiscord:
    """Discord's HTTP API as far as the bot uses it, answered here after `latency` each way."""

    def __init__(self, latency: float, figures: Figures) -> None:
        self.latency = latency
        self.figures = figures
        self.ids = itertools.count(1_000_000_000_000_000_000)
        self.clicked: dict[int, float] = {}  # interaction id -> click time
        self.responses: dict[int, dict[str, Any]] = {}  # interaction id -> response message
        self.answered: dict[int, asyncio.Event] = {}
        # table id -> [(move number the click was made at, click time)]
        self.waiting_moves: dict[int, list[tuple[int, float]]] = defaultdict(list)
        self.table_messages: dict[int, dict[str, Any]] = {}  # channel -> its last message

    def message(self, channel_id: int, data: dict[str, Any], flags: int = 0) -> dict[str, Any]:
        embeds = data.get("embeds") or []
        return {
            "id": str(next(self.ids)),
            "channel_id": str(channel_id),
            "author": BOT_USER,
            "content": data.get("content") or "",
            "timestamp": discord.utils.utcnow().isoformat(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": embeds,
            "pinned": False,
            "type": 0,
            "flags": data.get("flags", flags) or flags,
            "components": data.get("components") or [],
        }

    @staticmethod
    def payload(kwargs: dict[str, Any]) -> dict[str, Any]:
        if kwargs.get("json") is not None:
            return kwargs["json"]
        if kwargs.get("payload") is not None:
            return kwargs["payload"]
        for part in kwargs.get("form") or kwargs.get("multipart") or []:
            if part.get("name") == "payload_json":
                return json.loads(part["value"])
        return {}

    def table_shown(self, channel_id: int, data: dict[str, Any]) -> None:
        """A table message (or the final scores) went out: the moves it shows are done."""
        now = time.perf_counter() + self.latency
        table_seq: tuple[int, int] | None = None
        for row in data.get("components") or []:
            for item in row.get("components", []):
                parts = str(item.get("custom_id", "")).split(":")
                if parts[0] == "t" and len(parts) == 4 and parts[3] == "take":
                    table_seq = int(parts[1]), int(parts[2])
        if table_seq is None:
            return
        table_id, seq = table_seq
        waiting = self.waiting_moves.get(table_id, [])
        done = [w for w in waiting if w[0] < seq]
        for _, clicked in done:
            self.figures.updates.append(now - clicked)
        self.waiting_moves[table_id] = [w for w in waiting if w[0] >= seq]

    def game_over(self, table_id: int) -> None:
        now = time.perf_counter() + self.latency
        for _, clicked in self.waiting_moves.pop(table_id, []):
            self.figures.updates.append(now - clicked)

    async def http(self, route: discord.http.Route, **kwargs: Any) -> Any:
        """discord.py's HTTPClient.request."""
        await asyncio.sleep(self.latency)
        data = self.payload(kwargs)
        method, path = route.method, route.path
        try:
            if path == "/users/@me":
                return BOT_USER
            if path == "/oauth2/applications/@me":
                return {
                    "id": str(APP),
                    "name": "Meeple Hall",
                    "icon": None,
                    "description": "",
                    "rpc_origins": [],
                    "bot_public": True,
                    "bot_require_code_grant": False,
                    "owner": BOT_USER,
                    "summary": "",
                    "verify_key": "0",
                    "flags": 0,
                }
            if path.startswith("/applications/") and method == "PUT":
                return [
                    {**command, "id": str(next(self.ids)), "application_id": str(APP)}
                    for command in (data if isinstance(data, list) else [])
                ]
            if path == "/users/{user_id}":
                return user(int(route.url.rsplit("/", 1)[-1]))
            if path == "/users/@me/channels":
                recipient = user(int(data.get("recipient_id", 0)))
                return {"id": str(next(self.ids)), "type": 1, "recipients": [recipient]}
            if path == "/channels/{channel_id}/messages" and method == "POST":
                channel_id = int(route.channel_id)  # type: ignore[attr-defined]
                self.table_shown(channel_id, data)
                message = self.message(channel_id, data)
                self.table_messages[channel_id] = message
                return message
            if path == "/channels/{channel_id}/messages/{message_id}" and method == "PATCH":
                channel_id = int(route.channel_id)  # type: ignore[attr-defined]
                self.table_shown(channel_id, data)
                message = self.message(channel_id, data)
                message["id"] = route.url.rsplit("/", 1)[-1]
                if data.get("components"):
                    self.table_messages[channel_id] = message
                return message
            return {}
        finally:
            await asyncio.sleep(self.latency)

    async def webhook(self, route: Any, session: Any, **kwargs: Any) -> Any:
        """discord.py's webhook adapter: interaction responses, edits and follow-ups."""
        arrived = time.perf_counter() + self.latency
        await asyncio.sleep(self.latency)
        data = self.payload(kwargs)
        path = route.url
        try:
            if path.endswith("/callback"):
                interaction_id = int(path.rsplit("/", 3)[-3])
                clicked = self.clicked.pop(interaction_id, None)
                if clicked is not None:
                    self.figures.acks.append(arrived - clicked)
                kind = data.get("type")
                inner = data.get("data") or {}
                resource: dict[str, Any] = {"type": kind}
                if kind in (4, 7):
                    message = self.message(0, inner, flags=inner.get("flags", 0))
                    resource["message"] = message
                    self.responses[interaction_id] = message
                    self.answered.setdefault(interaction_id, asyncio.Event()).set()
                return {
                    "interaction": {"id": str(interaction_id), "type": 3},
                    "resource": resource,
                }
            if "/messages/" in path or path.rstrip("/").split("/")[-1].isalnum():
                interaction_id = self._interaction_of(path)
                message = self.message(0, data, flags=data.get("flags", 64) or 64)
                if interaction_id is not None:
                    self.responses[interaction_id] = message
                    self.answered.setdefault(interaction_id, asyncio.Event()).set()
                return message
            return {}
        finally:
            await asyncio.sleep(self.latency)

    @staticmethod
    def _interaction_of(url: str) -> int | None:
        # webhooks/{application}/{token}/...: the bench's tokens are "tok<interaction id>"
        for part in url.split("/"):
            if part.startswith("tok") and part[3:].isdigit():
                return int(part[3:])
        return None


class Players:
    """Every seat of every table, clicking at random intervals."""

    def __init__(
        self,
        bot: Any,
        fake: FakeDiscord,
        figures: Figures,
        think: tuple[float, float],
        rng: random.Random,
    ) -> None:
        self.bot = bot
        self.fake = fake
        self.figures = figures
        self.think = think
        self.rng = rng
        self.panels: dict[tuple[int, int], dict[str, Any]] = {}
        self.interaction_ids = itertools.count(2_000_000_000_000_000_000)
        self.running = True
        self.errors: list[str] = []

    def looking_at(self, table_id: int) -> tuple[Any, list[int], int] | None:
        """What the players see of a table: its row, the seats to act and its move number;
        the game's own once the bot has loaded it, else what the bot's start read from the
        store (the table message). None once the game is over."""
        game = self.bot.manager.get(table_id)
        if game is not None:
            return game.table, [d.seat for d in game.decisions()], game.seq
        table = self.bot.manager.tables.get(table_id)
        return None if table is None else (table, list(table.awaiting or ()), 0)

    def payload(
        self, table: Any, seat: int, data: dict[str, Any], message: dict[str, Any]
    ) -> dict[str, Any]:
        interaction_id = next(self.interaction_ids)
        user_id = table.seats[seat].user_id
        channel_id = table.channel_id
        message = {**message, "channel_id": str(channel_id)}
        return {
            "id": str(interaction_id),
            "application_id": str(APP),
            "type": 3,
            "token": f"tok{interaction_id}",
            "version": 1,
            "guild_id": str(GUILD),
            "channel_id": str(channel_id),
            "channel": {"id": str(channel_id), "type": 0, "guild_id": str(GUILD), "name": "t"},
            "member": {
                "user": user(user_id),
                "roles": [],
                "joined_at": "2026-01-01T00:00:00+00:00",
                "deaf": False,
                "mute": False,
                "permissions": "0",
                "flags": 0,
            },
            "message": message,
            "data": data,
            "locale": "en-US",
            "guild_locale": "en-US",
            "app_permissions": EVERYONE_PERMISSIONS,
            "entitlements": [],
            "authorizing_integration_owners": {},
            "context": 0,
            "attachment_size_limit": 10 << 20,
        }

    async def click(
        self, table_id: int, seat: int, data: dict[str, Any], message: dict[str, Any], move: bool
    ) -> dict[str, Any] | None:
        """Send one click; the message the bot answered with (None: no message, a refusal
        by follow-up, the game over, or no answer within 10 s)."""
        seen = self.looking_at(table_id)
        if seen is None:
            return None
        table, _, seq = seen
        payload = self.payload(table, seat, data, message)
        interaction_id = int(payload["id"])
        answered = self.fake.answered.setdefault(interaction_id, asyncio.Event())
        now = time.perf_counter()
        self.fake.clicked[interaction_id] = now
        self.figures.clicks += 1
        if move:
            self.figures.moves_clicked += 1
            self.fake.waiting_moves[table_id].append((seq, now))
        self.bot._connection.parse_interaction_create(payload)
        try:
            await asyncio.wait_for(answered.wait(), timeout=10)
        except TimeoutError:
            return None
        finally:
            self.fake.answered.pop(interaction_id, None)
        return self.fake.responses.pop(interaction_id, None)

    async def play(self, table_id: int) -> None:
        while self.running:
            seen = self.looking_at(table_id)
            if seen is None:
                self.fake.game_over(table_id)
                return
            pending = seen[1]
            if not pending:
                return
            seat = self.rng.choice(pending)
            await asyncio.sleep(self.rng.uniform(*self.think))
            if not self.running:
                return
            try:
                await self.turn(table_id, seat)
            except Exception as exc:  # a bench bug must show, not stop the other tables
                self.errors.append(repr(exc))

    async def turn(self, table_id: int, seat: int) -> None:
        seen = self.looking_at(table_id)
        if seen is None:
            return
        table, _, _ = seen
        panel = self.panels.get((table_id, seat))
        if panel is None or not any(self.panel_items(panel)):
            table_message = self.fake.table_messages.get(table.channel_id)
            if table_message is None:
                return
            custom_id = next(  # the message's own Take turn (its move number as posted)
                item["custom_id"]
                for row in table_message["components"]
                for item in row["components"]
                if str(item.get("custom_id", "")).endswith(":take")
            )
            panel = await self.click(
                table_id, seat, {"custom_id": custom_id, "component_type": 2}, table_message, False
            )
            if panel is None or not any(self.panel_items(panel)):
                self.panels.pop((table_id, seat), None)
                return
            await asyncio.sleep(self.rng.uniform(0.2, 1.0))  # reading the panel
        for _step in range(4):  # a page, picks, then Confirm at most
            items = self.panel_items(panel)
            if not items:
                self.panels.pop((table_id, seat), None)
                return
            data, move = self.choose(items)
            answer = await self.click(table_id, seat, data, panel, move)
            if answer is None:
                self.panels.pop((table_id, seat), None)
                return
            panel = answer
            self.panels[(table_id, seat)] = panel
            if move:
                return

    @staticmethod
    def panel_items(panel: dict[str, Any]) -> list[dict[str, Any]]:
        return [
            item
            for row in panel.get("components") or []
            for item in row.get("components", [])
            if str(item.get("custom_id", "")).startswith("g:")
        ]

    def choose(self, items: list[dict[str, Any]]) -> tuple[dict[str, Any], bool]:
        """A component of the panel and its data: an option (a move), a menu pick, or
        Confirm once something is picked."""
        verbs = {item["custom_id"]: item["custom_id"].split(":")[4] for item in items}
        options = [i for i in items if verbs[i["custom_id"]] == "o"]
        menus = [i for i in items if verbs[i["custom_id"]] == "s"]
        confirm = [i for i in items if verbs[i["custom_id"]] == "c" and not i.get("disabled")]
        if confirm and (not menus or self.rng.random() < 0.5):
            return {"custom_id": confirm[0]["custom_id"], "component_type": 2}, True
        if options and (not menus or self.rng.random() < 0.5):
            item = self.rng.choice(options)
            return {"custom_id": item["custom_id"], "component_type": 2}, True
        if menus:
            menu = self.rng.choice(menus)
            values = [o["value"] for o in menu.get("options", [])]
            low, high = menu.get("min_values", 1), min(menu.get("max_values", 1), len(values))
            count = self.rng.randint(max(low, 1 if high else 0), max(high, low))
            picked = self.rng.sample(values, min(count, len(values)))
            # a single-choice menu moves; a multi-choice one waits for Confirm
            move = menu.get("max_values", 1) == 1
            return {
                "custom_id": menu["custom_id"],
                "component_type": 3,
                "values": picked,
            }, move
        item = self.rng.choice(items)  # a page button
        return {"custom_id": item["custom_id"], "component_type": 2}, False


async def prepare(url: str, game: str, tables: int, players: int, moves: int, seed: int) -> None:
    """`tables` games of `game` in one guild, started and `moves` random moves in, with the
    seats' clock rows (reminders are on by default) written as a running bot writes them."""
    store = open_store(url)
    await store.open()
    manager = TableManager(store, chooser=lambda *a: None)  # type: ignore[arg-type,return-value]
    ClockService(SimpleNamespace(), manager, store)  # type: ignore[arg-type]
    rng = random.Random(seed)
    try:
        for number in range(tables):
            seats = [Seat(10_000 + number * 10 + s, f"P{s + 1}") for s in range(players)]
            table = await store.create_table(
                guild_id=GUILD,
                channel_id=100_000 + number,
                host_id=seats[0].user_id or 0,
                game=game,
                options={},
                seed=rng.getrandbits(63),
                seats=seats,
            )
            live = await manager.start(table.id)
            for _ in range(moves):
                pending = live.decisions()
                if not pending:
                    break
                decision = rng.choice(pending)
                choices = ai.choose(decision, live.table.seed, live.seq)
                await manager.submit(live, decision.seat, choices, user_id=None)
    finally:
        await manager.close()
        await store.close()


# SQLite files already prepared in this process, by table count.
_PREPARED: dict[int, Path] = {}


async def prepared(url: str, args: argparse.Namespace, tables: int) -> None:
    """The games of a run at `url`. On SQLite they are prepared once per table count and the
    file copied for the next runs (`--pictures before now`: the same games, and 1,000 tables
    prepared once, a minute or more), and for later invocations too with `--prepared DIR`
    (another tree measured by the same bench meets the same games)."""
    path = Path(url.removeprefix("sqlite:///")) if url.startswith("sqlite:///") else None
    if path is not None and tables not in _PREPARED and args.prepared:
        name = f"{args.game}-{args.players}p-{tables}-{args.warm_moves}-{args.seed}.db"
        if (kept := Path(args.prepared) / name).exists():
            _PREPARED[tables] = kept
    if path is not None and tables in _PREPARED:
        _copy_database(_PREPARED[tables], path)
        print(f"  {tables} games copied from {_PREPARED[tables]}", flush=True)
        return
    print(f"  preparing {tables} games…", flush=True)
    started = time.perf_counter()
    await prepare(url, args.game, tables, args.players, args.warm_moves, args.seed)
    print(f"  prepared in {time.perf_counter() - started:.0f} s", flush=True)
    if path is not None:
        folder = Path(args.prepared) if args.prepared else path.parent
        folder.mkdir(parents=True, exist_ok=True)
        name = f"{args.game}-{args.players}p-{tables}-{args.warm_moves}-{args.seed}.db"
        _PREPARED[tables] = folder / name
        _copy_database(path, _PREPARED[tables])


def _copy_database(source: Path, target: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{source}{suffix}").exists():
            shutil.copyfile(f"{source}{suffix}", f"{target}{suffix}")


async def forget_awaiting(url: str) -> None:
    """Every game's `awaiting` unknown, as an older version left them."""
    if url.startswith("sqlite:///"):
        import aiosqlite

        async with aiosqlite.connect(url.removeprefix("sqlite:///")) as db:
            await db.execute("UPDATE tables SET awaiting = NULL")
            await db.commit()
        return
    import asyncpg

    db = await asyncpg.connect(url)
    try:
        await db.execute("UPDATE tables SET awaiting = NULL")
    finally:
        await db.close()


def guild_payload(tables: int) -> dict[str, Any]:
    return {
        "id": str(GUILD),
        "name": "Load",
        "owner_id": "1",
        "preferred_locale": "en-US",
        "features": [],
        "emojis": [],
        "stickers": [],
        "member_count": 1,
        "roles": [
            {
                "id": str(GUILD),
                "name": "@everyone",
                "permissions": EVERYONE_PERMISSIONS,
                "position": 0,
                "color": 0,
                "hoist": False,
                "managed": False,
                "mentionable": False,
            }
        ],
        "channels": [
            {
                "id": str(100_000 + n),
                "type": 0,
                "name": f"table-{n}",
                "position": n,
                "permission_overwrites": [],
            }
            for n in range(tables)
        ],
        "members": [],
    }


def bot_processes() -> list[psutil.Process]:
    """This process and its Python workers (AI, pictures); not a PostgreSQL server the
    bench started, which is counted apart."""
    me = psutil.Process()
    found = [me]
    for child in me.children(recursive=True):
        with contextlib.suppress(psutil.Error):
            if "postgres" not in child.name():
                found.append(child)
    return found


def database_processes() -> list[psutil.Process]:
    found = []
    for child in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            if "postgres" in child.name():
                found.append(child)
    return found


def resident_bytes() -> int:
    total = 0
    for process in bot_processes():
        with contextlib.suppress(psutil.Error):
            total += process.memory_info().rss
    return total


def cpu_by_process(processes: list[psutil.Process]) -> dict[tuple[int, float], float]:
    """Each process's processor seconds so far, by process id and start time."""
    found = {}
    for process in processes:
        with contextlib.suppress(psutil.Error):
            times = process.cpu_times()
            found[(process.pid, process.create_time())] = times.user + times.system
    return found


def cpu_since(before: dict[tuple[int, float], float], processes: list[psutil.Process]) -> float:
    """The processor seconds `processes` used since `before` was read; a process started
    since (the picture workers start with the first picture) counts whole."""
    now = cpu_by_process(processes)
    return sum(seconds - before.get(key, 0.0) for key, seconds in now.items())


async def run(url: str, args: argparse.Namespace, tables: int, label: str) -> dict[str, Any]:
    await prepared(url, args, tables)
    if args.forget_awaiting:
        await forget_awaiting(url)
    figures = Figures()
    fake = FakeDiscord(args.latency, figures)
    originals = (discord.http.HTTPClient.request, webhook_async.AsyncWebhookAdapter.request)

    async def http_request(_client: Any, route: Any, **kwargs: Any) -> Any:
        return await fake.http(route, **kwargs)

    async def webhook_request(_adapter: Any, route: Any, session: Any, **kwargs: Any) -> Any:
        return await fake.webhook(route, session, **kwargs)

    discord.http.HTTPClient.request = http_request  # type: ignore[method-assign]
    webhook_async.AsyncWebhookAdapter.request = webhook_request  # type: ignore[method-assign]
    bot = create_bot(url)
    try:
        started = time.perf_counter()
        await bot.login("bench-token")
        bot._connection._add_guild_from_data(guild_payload(tables))  # type: ignore[attr-defined]
        await bot.on_ready()  # type: ignore[attr-defined]
        startup = time.perf_counter() - started
        # the games loaded in the background once ready (those an AI seat or an unknown
        # `awaiting` waits on: none here unless --forget-awaiting)
        await bot.manager.loaded_at_start()
        background = (len(bot.manager.games), time.perf_counter() - started - startup)
        memory_idle = resident_bytes()
        # The table messages the bot would have posted before: one per table, to click on.
        for table in bot.manager.served():
            fake.table_messages[table.channel_id] = fake.message(
                table.channel_id,
                {
                    "components": [
                        {
                            "type": 1,
                            "components": [
                                {
                                    "type": 2,
                                    "style": 1,
                                    "custom_id": f"t:{table.id}:0:take",
                                    "label": "Take turn",
                                }
                            ],
                        }
                    ]
                },
            )
        players = Players(bot, fake, figures, tuple(args.think), random.Random(args.seed))
        load_before = os.getloadavg()
        watched = (bot_processes, database_processes, lambda: [psutil.Process()])
        cpu_before = [cpu_by_process(group()) for group in watched]
        moves = 0
        drawn_before = CountingPool.drawn
        kinds_before = Counter(CountingPool.by_kind)
        asked_before = Counter(getattr(bot.display.pictures, "asked", {}))

        async def count(_game: Any) -> None:
            nonlocal moves
            moves += 1  # a move applied (or a game ended), as the display hears it

        bot.manager.listeners.append(count)
        ids = [table.id for table in bot.manager.served()]
        began = time.perf_counter()
        tasks = [asyncio.create_task(players.play(i)) for i in ids]
        with profiled(args.profile, tables, label):
            await asyncio.sleep(args.seconds)
        players.running = False
        elapsed = time.perf_counter() - began
        cpu = [
            cpu_since(before, group()) for group, before in zip(watched, cpu_before, strict=True)
        ]
        memory_busy = resident_bytes()
        load = os.getloadavg()
        moved = moves
        drawn = CountingPool.drawn - drawn_before
        kinds = CountingPool.by_kind - kinds_before
        # the pictures asked for (a tree before session 13 does not count them)
        asked = Counter(getattr(bot.display.pictures, "asked", {})) - asked_before
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.sleep(2)  # the last table updates
    finally:
        await bot.close()
        discord.http.HTTPClient.request, webhook_async.AsyncWebhookAdapter.request = originals  # type: ignore[method-assign]
    late = sum(1 for a in figures.acks if a > 3.0)
    return {
        "label": label,
        "tables": tables,
        "startup": startup,
        "background": background,
        "memory_idle": memory_idle,
        "memory_busy": memory_busy,
        "clicks": figures.clicks,
        "acks": figures.acks,
        "updates": figures.updates,
        "late": late,
        "moves": moved,
        "moves_per_s": moved / elapsed,
        "cpu_per_move_ms": 1000 * cpu[0] / max(moved, 1),
        "db_cpu_per_move_ms": 1000 * cpu[1] / max(moved, 1),
        "loop_cpu_per_move_ms": 1000 * cpu[2] / max(moved, 1),
        "load": (load_before, load),
        "errors": players.errors,
        "pictures": drawn,
        "pictures_by_kind": kinds,
        "pictures_asked": asked,
    }


@contextlib.contextmanager
def profiled(path: str | None, tables: int, label: str):  # type: ignore[no-untyped-def]
    """cProfile on this process (the event loop, the load generator and the fake Discord)
    while the tables play, written to `path` with the run's label and table count (read it
    with `python -m pstats`); nothing without a path."""
    if path is None:
        yield
        return
    import cProfile

    profile = cProfile.Profile()
    profile.enable()
    try:
        yield
    finally:
        profile.disable()
        profile.dump_stats(f"{path}.{label.replace(', ', '-')}.{tables}")


def database_cpu(result: dict[str, Any]) -> str:
    """The PostgreSQL server's CPU a move, where its processes are this one's children (a
    server that detached itself is not seen, and not counted)."""
    spent = result["db_cpu_per_move_ms"]
    return f"; PostgreSQL server {spent:.1f} ms" if spent else ""


def report(result: dict[str, Any]) -> None:
    acks, updates = result["acks"], result["updates"]

    def line(name: str, values: list[float]) -> str:
        cells = [f"{1000 * percentile(values, q):8.0f}" for q in (0.5, 0.95, 0.99, 1.0)]
        return f"    {name:<16}{''.join(cells)}   (n={len(values)})"

    mib = 1 << 20
    loaded, took = result["background"]
    print(
        f"\n  {result['label']}, {result['tables']} tables: start-up {result['startup']:.2f} s "
        f"(then {loaded} games loaded in the background in {took:.2f} s), "
        f"memory {result['memory_idle'] / mib:.0f} MiB idle / {result['memory_busy'] / mib:.0f} "
        f"MiB busy (bot and its workers)"
    )
    print(f"    {'ms':<16}{'p50':>8}{'p95':>8}{'p99':>8}{'max':>8}")
    print(line("click → ack", acks))
    print(line("click → table", updates))
    print(
        f"    {result['clicks']} clicks, {result['moves']} moves, "
        f"{result['moves_per_s']:.1f} moves/s, CPU {result['cpu_per_move_ms']:.1f} ms a move "
        f"(bot and workers{database_cpu(result)}; of it the event loop's process "
        f"{result['loop_cpu_per_move_ms']:.1f} ms, the load generator included), "
        f"acks later than 3 s: {result['late']}, pictures drawn {result['pictures']}"
    )
    by_kind = pictures_by_kind(result["pictures_by_kind"], result["moves"])
    print(f"    pictures drawn a move: {by_kind}")
    if result["pictures_asked"]:
        asked = pictures_by_kind(result["pictures_asked"], result["moves"])
        print(f"    pictures asked for a move: {asked}")
    if result["errors"]:
        print(f"    load generator errors: {len(result['errors'])}, e.g. {result['errors'][:3]}")
    before, after = result["load"]
    print(f"    load average before {before[0]:.2f}, after {after[0]:.2f} (1 min)")
    sys.stdout.flush()


def encode_rgb_table(
    game_id: str, view: dict[str, Any], previous: render.Palette | None
) -> tuple[bytes, None]:
    """`render.encode_table` as the bot encoded a table picture before issue 29: every
    pixel's RGB (`png_bytes`, zlib level 3), no palette to keep (`previous` unused)."""
    return render.png_bytes(renderers.render(game_id, view)), None


# The kind of picture each of the bot's drawing functions makes (bot/render.py).
PICTURE_KINDS = {
    "encode_table": "table",
    "encode_png": "table",
    "encode_rgb_table": "table",
    "encode_decision": "decision",
    "encode_own": "own",
    "encode_focus": "focus",
}


class CountingPool(render.PicturePool):
    """The bot's picture pool, counting the pictures drawn, by kind (a table that moved while
    its picture waited is drawn once for both moves, so pictures a move vary with the load)."""

    drawn = 0
    by_kind: ClassVar[Counter[str]] = Counter()

    async def run_latest(self, game_id: str, draw: Any, args: Any, table: Any = None) -> Any:
        # a table picture names its table (session 12: its worker); a tree before does not
        data = await super().run_latest(game_id, draw, args, *([] if table is None else [table]))
        CountingPool.drawn += 1
        name = getattr(draw, "__name__", "")
        CountingPool.by_kind[PICTURE_KINDS.get(name, name)] += 1
        return data


def pictures_by_kind(drawn: Counter[str], moves: int) -> str:
    """The pictures drawn a move, by kind: "table 0.98, decision 1.21, own 0.30"."""
    return ", ".join(f"{kind} {count / max(moves, 1):.2f}" for kind, count in drawn.most_common())


PICTURES = {
    "before": (encode_rgb_table, CountingPool),
    "now": (render.encode_table, lambda: CountingPool(render.picture_workers())),
}


@contextlib.contextmanager
def pictures(kind: str, game: str, players: int):  # type: ignore[no-untyped-def]
    """The bot's table pictures encoded and drawn as `kind` (a key of PICTURES) says
    (`render.encode_table` swapped: `TablePictures` draws every table picture through it),
    its workers started and each having drawn a picture of `game` before the run (their
    start, about 1.5 s of processor time each, is then not counted in the moves)."""
    encode, new_pool = PICTURES[kind]
    originals = render.encode_table, render.pool
    render.encode_table, render.pool = encode, new_pool()
    engine = games.get(game)
    view = engine.view(engine.new(players, 1), None)
    executor = render.pool.executor()
    for drawn in [executor.submit(encode, game, view, None) for _ in range(render.pool.size())]:
        drawn.result()
    try:
        yield
    finally:
        render.pool.shutdown()
        render.encode_table, render.pool = originals


async def main() -> None:
    import logging

    logging.basicConfig(level=logging.WARNING)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--backend", nargs="+", default=["sqlite", "postgres"])
    parser.add_argument("--database-url", help="a scratch PostgreSQL database (else one started)")
    parser.add_argument("--game", default="village")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, nargs=2, default=[2.0, 10.0])
    parser.add_argument("--latency", type=float, default=0.04, help="one way, seconds")
    parser.add_argument("--warm-moves", type=int, default=12)
    parser.add_argument(
        "--forget-awaiting",
        action="store_true",
        help="as after an upgrade from a version that did not keep whose turn it is: every "
        "game is loaded in the background once the bot is ready (timed), before the play",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", default=None, help="where the SQLite files go")
    parser.add_argument(
        "--prepared",
        metavar="DIR",
        help="keep the prepared SQLite games in DIR and use them again in later runs "
        "(another tree measured by this bench then meets the same games)",
    )
    parser.add_argument(
        "--profile",
        metavar="PATH",
        help="cProfile the event loop's process while the tables play, into PATH.<run>.<tables>",
    )
    parser.add_argument(
        "--pictures",
        nargs="+",
        choices=sorted(PICTURES),
        default=["now"],
        help="how table pictures are encoded: as before issue 29 (RGB), as now, or both",
    )
    args = parser.parse_args()
    print(
        f"bench/load.py: {args.game} at {args.players} players, think {args.think[0]:g}–"
        f"{args.think[1]:g} s, Discord latency {1000 * args.latency:.0f} ms each way, "
        f"{args.seconds:g} s a run, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}; "
        f"meeple_hall from {Path(render.__file__).parents[1]}"
    )
    folder = Path(tempfile.mkdtemp(prefix="meeple-load-", dir=args.dir))
    try:
        for backend in args.backend:
            with database(backend, args, folder) as new_database:
                for tables in args.tables:
                    for kind in args.pictures:
                        with pictures(kind, args.game, args.players):
                            label = backend if args.pictures == ["now"] else f"{backend}, {kind}"
                            report(await run(new_database(), args, tables, label))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def database(backend: str, args: argparse.Namespace, folder: Path):  # type: ignore[no-untyped-def]
    """A function making a new empty database on `backend` for each run."""
    numbers = itertools.count(1)
    if backend == "sqlite":
        yield lambda: f"sqlite:///{folder / f'load-{next(numbers)}.db'}"
        return
    from tests.postgres import TEST_SETTINGS, TestServer, started_server

    if args.database_url:
        server = TestServer(args.database_url)
        yield lambda: server.create_database()[1]
        return
    with started_server() as server:
        # durable commits, as in production (the tests' server turns fsync off)
        server.execute(
            *(f"ALTER SYSTEM RESET {key}" for key in TEST_SETTINGS), "SELECT pg_reload_conf()"
        )
        yield lambda: server.create_database()[1]


if __name__ == "__main__":
    asyncio.run(main())
