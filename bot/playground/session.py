"""A playground session: the real bot (`create_bot()`, unmodified) against SimCord on this
machine, with a lobby opened for the person through the bot's own slash command and
buttons, and SimCord's browser page on the table's channel.

Everything the person does goes through the same dispatch as in Discord; the session
itself only acts as the person (`/new`, **Add AI**) and as the host machine (restarting
the bot, showing another channel).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from simcord.env import Env

from meeple_hall import games
from meeple_hall.bot import ai, create_bot
from meeple_hall.bot.components import TableButton
from meeple_hall.bot.i18n import t
from meeple_hall.bot.playground.table import TableProxy
from meeple_hall.bot.playground.workers import start_picture_workers
from meeple_hall.bot.playground.world import World, world_file
from meeple_hall.bot.store import TableStatus

log = logging.getLogger(__name__)

DEFAULT_GAME = "keyflower"
# The level of today's AI seats, which the lobby adds without asking.
BASELINE_LEVEL = "random"
# A move that draws a picture on a loaded machine can take a while; the bot is not stuck.
SETTLE_SECONDS = 60.0


class PlaygroundError(Exception):
    """A request the playground cannot carry out: a message key (`playground.*`) and its
    fields, said in the person's language by whoever shows it."""

    def __init__(self, key: str, **fields: object) -> None:
        super().__init__(key)
        self.key = key
        self.fields = fields

    def text(self, locale: str) -> str:
        return t(locale, self.key, **self.fields)


@dataclass(frozen=True)
class Options:
    game: str | None = None
    players: int = 3
    ai: str = BASELINE_LEVEL
    port: int = 0
    db: Path = Path("playground.db")
    width: int = 1280
    height: int = 900


@dataclass(frozen=True)
class ChannelInfo:
    id: int
    name: str
    game: str | None
    status: str | None


class Session:
    """One run of the playground. `async with Session(options) as session:` builds the
    world, starts the bot and opens the page; leaving closes them and the store."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self.db_path = options.db.resolve()
        self.database_url = f"sqlite:///{self.db_path}"
        self.capability = secrets.token_urlsafe(32)
        self.restarts = 0
        self.preview: Any = None
        self.proxy = TableProxy(lambda: self.preview.url, self.show_latest_table, options.port)
        self.current: Any = None
        self.stopped = asyncio.Event()
        self._switching = False
        self._lock = asyncio.Lock()
        self._watcher: asyncio.Task[None] | None = None
        self._clock: contextlib.AbstractContextManager[None] | None = None

    # -- starting and stopping ------------------------------------------------------------
    async def __aenter__(self) -> Session:
        check_options(self.options)  # before any file is made
        self.bot = create_bot(self.database_url)
        self.env = Env(self.bot, settle_timeout=SETTLE_SECONDS)
        self.world = World(self.env, world_file(self.db_path))
        try:
            await start_picture_workers()
            await self.env.start()
            self._clock = self.env.time_context()
            self._clock.__enter__()
            await self._show_stored_tables()
            channel = await self._choose_channel()
            await self._open_preview(channel, 0)
            await self.proxy.start()
        except BaseException:
            await self._shutdown()
            raise
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self._shutdown()

    async def _shutdown(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
        await self.proxy.close()
        if self.preview is not None:
            await self.preview.close()
        await self.env.shutdown()
        if self._clock is not None:
            self._clock.__exit__(None, None, None)
        await close_bot(self.bot)

    @property
    def url(self) -> str:
        """The table's page (SimCord's, through the playground's proxy): loopback only,
        with SimCord's capability token."""
        return self.proxy.url(self.capability)

    # -- the tables already stored ---------------------------------------------------------
    async def _show_stored_tables(self) -> None:
        """SimCord's channels start empty each run; the bot posts each stored game's table
        again through its own publishing path, as it does after any move."""
        for channel in self.world.channels:
            game = await self.bot.manager.fetch_in(channel.id)
            if game is not None:
                await self.bot.display.publish(game)
        await self.env.settle()

    async def channel_info(self) -> list[ChannelInfo]:
        out = []
        for channel in self.world.channels:
            table = await self.bot.store.open_table_in(channel.id)
            out.append(
                ChannelInfo(
                    channel.id,
                    channel.name,
                    table.game if table else None,
                    table.status.value if table else None,
                )
            )
        return out

    async def _choose_channel(self) -> Any:
        """The channel to show: a stored table of the asked game (or any, when no game is
        asked), else a new lobby in the first free channel."""
        wanted = self.options.game
        if wanted is not None:
            wanted = games.get(wanted).id
        infos = await self.channel_info()
        for info in infos:
            if info.game is not None and wanted in (None, info.game):
                channel = self.world.channel(info.id)
                if info.status == TableStatus.LOBBY.value and not channel.history():
                    # Yesterday's lobby message is gone with yesterday's SimCord: the
                    # person closes it and opens it afresh.
                    await self.world.person.slash(channel, "cancel")
                    await self.open_lobby(channel, info.game)
                return channel
        free = next((i for i in infos if i.game is None), None)
        if free is None:
            raise PlaygroundError("playground.all_busy")
        channel = self.world.channel(free.id)
        await self.open_lobby(channel, wanted or DEFAULT_GAME)
        return channel

    # -- opening a lobby as the person -------------------------------------------------------
    async def open_lobby(self, channel: Any, game_id: str) -> None:
        """`/new`, then **Add AI** until N seats, at the level asked; the person starts."""
        engine = games.get(game_id)
        players = self.options.players
        check_players(engine, players)
        person = self.world.person
        result = await person.slash(channel, "new", game=engine.id)
        lobby = answer = result.response
        if lobby is None or lobby.ephemeral:
            raise PlaygroundError("playground.no_lobby", answer=describe(lobby))
        for _ in range(players - 1):
            answer = await self._add_ai(channel, lobby)
        table = await self.bot.store.open_table_in(channel.id)
        if table is None or len(table.seats) != players:
            raise PlaygroundError("playground.no_lobby", answer=describe(answer))

    async def _add_ai(self, channel: Any, lobby: Any) -> Any:
        """Clicks Add AI; returns the bot's answer."""
        level = self.options.ai
        result = await self.world.person.click(lobby, label=t("en", "lobby.add_ai"))
        answer = result.response
        question = answer is not None and answer.ephemeral and list(controls(answer))
        if not question:
            if level != BASELINE_LEVEL:
                await self.world.person.slash(channel, "cancel")
                raise PlaygroundError("playground.no_levels")
            return answer
        # The lobby asks which level: answer as the person would.
        offered = {value: control for control in controls(answer) for value in control.values}
        choice = next((v for v in offered if v.lower() == level.lower()), None)
        if choice is None:
            await self.world.person.slash(channel, "cancel")
            raise PlaygroundError(
                "playground.unknown_level", level=level, levels=", ".join(offered)
            )
        control = offered[choice]
        if control.kind == "select":
            result = await self.world.person.select(
                answer, [control.values[choice]], custom_id=control.custom_id
            )
        else:
            result = await self.world.person.click(answer, custom_id=control.custom_id)
        return result.response

    # -- the page ---------------------------------------------------------------------------
    async def _open_preview(self, channel: Any, port: int) -> None:
        preview = self.env.preview(
            channel,
            viewers=[self.world.person],
            layout="channel",
            port=port,
            width=self.options.width,
            height=self.options.height,
        )
        # One address for the whole run, whichever channel the page shows.
        preview.capability = self.capability
        await preview.__aenter__()
        self.preview = preview
        self.current = channel
        self._watcher = asyncio.create_task(self._watch(preview))

    async def _watch(self, preview: Any) -> None:
        """The page's own End session button ends the playground."""
        await preview.wait_closed()
        if preview is self.preview and not self._switching:
            self.stopped.set()

    async def show(self, channel_id: int) -> None:
        """Point the page at another table channel (the browser reloads the same URL)."""
        async with self._lock:
            channel = self.world.channel(channel_id)
            if channel is self.current:
                return
            port = urlsplit(self.preview.url).port or 0
            self._switching = True
            try:
                await self.preview.close()
                await self._open_preview(channel, port)
            finally:
                self._switching = False

    async def show_latest_table(self) -> None:
        """A page opened from now on lands at the channel's newest table message (else its
        newest message from the bot), not where the page first opened (the lobby)."""
        async with self._lock:
            bot_id = self.env.backend.bot_user.id
            posted = [m for m in self.current.history() if m.author.id == bot_id]
            tables = [m for m in posted if any(is_take_turn(c.custom_id) for c in controls(m))]
            newest = max(tables or posted, key=lambda m: m.id, default=None)
            if newest is not None:
                await self.preview.show(newest)

    async def new_lobby(self, game_id: str) -> int:
        """A lobby in the first free channel, shown on the page."""
        async with self._lock:
            infos = await self.channel_info()
        free = next((i for i in infos if i.game is None), None)
        if free is None:
            raise PlaygroundError("playground.all_busy")
        await self.open_lobby(self.world.channel(free.id), games.get(game_id).id)
        await self.show(free.id)
        return free.id

    # -- restarting the bot ---------------------------------------------------------------------
    async def restart_bot(self) -> None:
        """A new bot on the same database, as after a deploy: the games come back from the
        store, and the buttons already posted keep working."""
        async with self._lock:
            old = self.bot
            self.bot = create_bot(self.database_url)
            await self.env.restart_bot(self.bot)
            await close_bot(old)
            self.restarts += 1
            await self.preview.refresh()

    # -- what the person's DMs hold --------------------------------------------------------------
    def direct_messages(self) -> list[Any]:
        return list(self.world.dm_channel.history())

    def attachment(self, url: str) -> bytes | None:
        return self.env.backend.cdn.get(url)


def check_options(options: Options) -> None:
    """Refuse a run that cannot open its table. Without a game asked, a new database opens
    the default game's lobby; a stored one may instead go on with any of its tables."""
    engine = games.get(options.game or DEFAULT_GAME)
    if options.game is not None or not options.db.exists():
        check_players(engine, options.players)
    offered = ai.levels_for(engine.id)
    if options.ai.lower() not in offered:
        if offered == (BASELINE_LEVEL,):
            raise PlaygroundError("playground.no_levels")
        raise PlaygroundError(
            "playground.unknown_level", level=options.ai, levels=", ".join(offered)
        )


def check_players(engine: games.Engine, players: int) -> None:
    if not engine.min_players <= players <= engine.max_players:
        raise PlaygroundError(
            "playground.players",
            game=engine.name,
            min=engine.min_players,
            max=engine.max_players,
            players=players,
        )


async def close_bot(bot: Any) -> None:
    """SimCord detaches a bot without closing it: closed here, with its store and its AI
    worker processes."""
    await bot.close()


@dataclass(frozen=True)
class Control:
    kind: str  # "select" or "button"
    custom_id: str
    values: dict[str, str]  # what the person may ask for -> the value sent


def controls(message: Any) -> Iterator[Control]:
    """The menus and buttons of a message, each with the words it answers to."""
    rows = message.components if isinstance(message.components, list) else []
    for row in rows:
        for child in row.get("components", []) if isinstance(row, dict) else []:
            custom_id = child.get("custom_id")
            if not custom_id:
                continue
            if child.get("type") == 3:
                values = {}
                for option in child.get("options", []):
                    values[option["value"]] = option["value"]
                    values[option["label"]] = option["value"]
                yield Control("select", custom_id, values)
            elif child.get("type") == 2 and child.get("label"):
                yield Control("button", custom_id, {child["label"]: custom_id})


def is_take_turn(custom_id: str) -> bool:
    match = TableButton.pattern().fullmatch(custom_id)
    return match is not None and match["verb"] == "take"


def describe(message: Any) -> str:
    return getattr(message, "content", None) or "no answer"
