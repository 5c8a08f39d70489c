"""The bot itself: `MeepleHall` (a discord.py bot), its slash command tree and its clicks.
`create_bot()` builds it for `meeple-hall` and the tests, which import it as
`meeple_hall.bot.create_bot` (bot/__init__.py)."""

from __future__ import annotations

import asyncio
import gc
import logging
import secrets
from collections.abc import Callable, Coroutine, Iterator, Mapping
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from meeple_hall.bot import closing, components
from meeple_hall.bot.i18n import Translator, t
from meeple_hall.bot.languages import user_locale
from meeple_hall.bot.shards import Shards
from meeple_hall.bot.store import open_store

if TYPE_CHECKING:
    from meeple_hall.bot.ai import Chooser
    from meeple_hall.bot.cogs.tournament import TournamentCog
    from meeple_hall.bot.review import Reviews
    from meeple_hall.bot.scheduler import Scheduler

log = logging.getLogger(__name__)


class Tree(app_commands.CommandTree):
    """The bot's slash commands: an error no command handled is reported (`report_failure`)."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report_failure(interaction, error)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        under_way = getattr(self.client, "under_way", None)
        return under_way is None or not await refused_while_closing(under_way, interaction)


class Clicks(components.Clicks):
    """The bot's clicks: each is work under way until answered, refused once the bot closes."""

    def __init__(self, under_way: closing.UnderWay) -> None:
        super().__init__()
        self.under_way = under_way

    async def dispatch(self, interaction: discord.Interaction, click: components.Family) -> None:
        if not await refused_while_closing(self.under_way, interaction):
            await super().dispatch(interaction, click)


async def refused_while_closing(
    under_way: closing.UnderWay, interaction: discord.Interaction
) -> bool:
    """Count the interaction's task as work under way; once the bot closes, tell the user it
    is restarting (nothing done) instead, and say it was refused."""
    if under_way.join():
        return False
    if interaction.type is discord.InteractionType.autocomplete:
        return True  # nothing to say in a list of choices
    try:
        from meeple_hall.bot.replies import say

        await say(interaction, t(user_locale(interaction), "error.closing"))
    except discord.HTTPException:
        log.info("could not tell user %s the bot is restarting", interaction.user.id)
    return True


class MeepleHall(commands.Bot):
    def __init__(
        self,
        database_url: str | None,
        dev_guild_id: int | None,
        new_seed: Callable[[], int] | None = None,
        shards: Shards | None = None,
        chooser: Chooser | None = None,
        **options: object,
    ) -> None:
        # Slash commands and components only: no privileged intents, no message content.
        intents = discord.Intents.default()
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=Tree,
            **options,  # type: ignore[arg-type]
        )
        self.served = shards or Shards()  # not `shards`: AutoShardedBot has that
        self.database_url = database_url
        self.dev_guild_id = dev_guild_id
        # interactions and gateway events being handled; none taken on once closing
        self.under_way = closing.UnderWay()
        self._winding_down: asyncio.Task[None] | None = None
        self.clicks = Clicks(self.under_way)
        self.new_seed = new_seed or (lambda: secrets.randbits(63))
        self.chooser = chooser  # the AI seats' answers (None: the manager's own workers)
        self._locales: dict[int, str] = {}

    async def setup_hook(self) -> None:
        from meeple_hall.bot.boundaries import Boundaries
        from meeple_hall.bot.clocks import ClockService
        from meeple_hall.bot.cogs.channels import Channels
        from meeple_hall.bot.cogs.hint import HintCog
        from meeple_hall.bot.cogs.lobby import Lobby
        from meeple_hall.bot.cogs.play import Play
        from meeple_hall.bot.cogs.replay import Archive
        from meeple_hall.bot.cogs.settings import Settings
        from meeple_hall.bot.cogs.time import Time
        from meeple_hall.bot.cogs.undo import Undo
        from meeple_hall.bot.display import TableDisplay
        from meeple_hall.bot.languages import Languages
        from meeple_hall.bot.live import TableManager

        self.store = open_store(self.database_url)
        await self.store.open()
        self.languages = Languages(self.store)
        await self.languages.load()
        self.manager = TableManager(self.store, self.chooser, shards=self.served)
        # before the display: a table is shown with its clocks already brought up to date
        self.clocks = ClockService(self, self.manager, self.store)
        self.display = TableDisplay(self, self.manager, self.store, notes=self.clocks.notes)
        self.display.start()
        # Which games are in play: each is loaded on its first use (bot/live.py).
        await self.manager.index()
        # Another process's change to a table this one serves, or to what this process keeps
        # in memory (PostgreSQL only).
        await self.store.watch(self.manager.changed_elsewhere, self._heard)
        await self.clocks.load()
        await self.tree.set_translator(Translator())
        lobby = Lobby(self, self.store, self.manager)
        play = Play(self, self.store, self.manager, self.display)
        undo = Undo(self, self.manager, self.display)
        archive = Archive(self, self.store)
        for cog in (lobby, play, undo, archive):
            await self.add_cog(cog)
        await self.add_cog(Settings(self.store))
        await self.add_cog(HintCog(self.store, self.manager))
        await self.add_cog(Time(self, self.store, self.manager, self.clocks))
        await self.add_cog(Channels(self.store, self.manager, self.display, self.clocks))
        tournaments = await self._add_community()
        from meeple_hall.bot.cogs.review import ReviewCog

        reviews = ReviewCog(self, self.store)  # issue 30: /review and the Review button
        await self.add_cog(reviews)
        # Every component family and who answers its clicks (bot/components.py), then
        # where the tables and tournaments they name live (bot/boundaries.py).
        on = self.clicks.on
        on(components.TableButton, play.on_table_button)
        on(components.PanelControl, play.on_panel)
        on(components.ConfirmButton, play.on_confirm)
        on(components.AbandonVote, play.abandons.on_vote)
        on(components.UndoButton, undo.on_undo_button)
        on(components.LobbyControl, lobby.on_component)
        on(components.ReplayButton, archive.on_replay_button)
        on(components.ReviewButton, reviews.on_review_button)
        on(components.RulesButton, lobby.on_rules_button)
        on(components.TournamentButton, tournaments.on_component)
        on(components.SnoozeButton, self.clocks.reminders.on_snooze)
        on(components.StallButton, self.clocks.reminders.on_stall_button)
        Boundaries(self.manager, self.store).bind(self.clicks)
        self.add_dynamic_items(*components.FAMILIES, components.UnknownId)
        if 0 not in self.served.running:
            return  # the commands are the same in every process: the one with shard 0 syncs
        if self.dev_guild_id:
            guild = discord.Object(self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def _add_community(self) -> TournamentCog:
        """Ratings, leaderboards, profiles and tournaments (issue 12)."""
        from meeple_hall.bot.cogs.ratings import RatingsCog
        from meeple_hall.bot.cogs.tournament import TournamentCog
        from meeple_hall.bot.ratings import Ratings
        from meeple_hall.bot.tournaments import Tournaments

        self.ratings = Ratings(self.store)
        self.tournaments = Tournaments(self, self.store, self.manager)
        ratings_cog = RatingsCog(self, self.store, self.ratings)
        self.display.result_extras.append(ratings_cog.rating_changes)
        await self.add_cog(ratings_cog)
        tournament_cog = TournamentCog(self, self.store, self.tournaments)
        await self.add_cog(tournament_cog)
        return tournament_cog

    async def _heard(self, kind: str, key: int | None) -> None:
        """Another process changed something this one keeps in memory (Store.watch)."""
        if kind in ("user", "guild"):
            await self.languages.load()
        elif kind == "locale":
            if key is None:
                self._locales.clear()
            else:
                self._locales.pop(key, None)
        elif kind == "away":
            await self.clocks.away_heard(key)
        elif kind == "clock":
            await self.clocks.snoozes_heard(key)

    def _schedule_event(
        self,
        coro: Callable[..., Coroutine[Any, Any, Any]],
        event_name: str,
        *args: Any,
        **kwargs: Any,
    ) -> asyncio.Task[None]:
        # Every gateway event handler of the bot and its cogs runs in the task made here
        # (discord.py's one place for it): counted as work under way, or let go once the
        # bot closes.
        if self.under_way.closing:
            return super()._schedule_event(_let_go, event_name)
        task = super()._schedule_event(coro, event_name, *args, **kwargs)
        self.under_way.track(task)
        return task

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Remember each user's language, so their direct messages can be written in it."""
        locale = interaction.locale.value
        if self._locales.get(interaction.user.id) == locale:
            return
        self._locales[interaction.user.id] = locale
        await self.store.set_locale(interaction.user.id, locale)

    async def on_ready(self) -> None:
        # Everything loaded at start lives for the whole run: keep it out of the collector's
        # full passes, which otherwise pause the loop for tens of milliseconds.
        gc.freeze()
        # Each part starts on its own: one failing (logged) must not keep the others, the
        # clocks above all, from starting.
        for start in (self.manager.resume, self.tournaments.resume, self.clocks.start):
            try:
                await start()
            except Exception:
                log.exception("could not start %s", start.__qualname__)
        log.info("ready as %s with %d games in play", self.user, len(self.manager.served()))

    async def close(self) -> None:
        """Close in order (bot/closing.py): nothing new is taken on, the work under way ends
        (or is cancelled after a grace), and only then are the worker processes and the store
        closed and Discord left."""
        if self._winding_down is None:  # a second close waits for the first one's
            self.under_way.closing = True
            self._winding_down = asyncio.create_task(self._wind_down(), name="wind-down")
        await self._winding_down
        await super().close()

    async def _wind_down(self) -> None:
        for scheduler in self._schedulers():  # nothing more falls due
            scheduler.stop()
        if (reviews := self._reviews()) is not None:  # minutes in a worker: not waited for
            reviews.close()
        await closing.wind_down(self._work_under_way)
        for part in ("clocks", "tournaments", "display"):
            if (closed := getattr(self, part, None)) is not None:
                closed.close()
        if (manager := getattr(self, "manager", None)) is not None:
            await manager.close()  # the AI's moves and the games being loaded
        await closing.cancel(self._work_under_way)
        if (store := getattr(self, "store", None)) is not None:
            await store.close()

    def _schedulers(self) -> list[Scheduler]:
        """What falls due when: clocks, tournament steps, abandon votes, posts sent again."""
        display, tournaments = getattr(self, "display", None), getattr(self, "tournaments", None)
        play = self.get_cog("Play")
        owners = (getattr(self, "clocks", None), tournaments, getattr(play, "abandons", None))
        schedulers = [owner.scheduler for owner in owners if owner is not None]
        if display is not None:
            schedulers.append(display.redelivery.scheduler)
        if tournaments is not None:
            schedulers.append(tournaments.again.scheduler)
        return schedulers

    def _work_under_way(self) -> Iterator[asyncio.Task[Any] | None]:
        """Every task doing the bot's work now: interactions and events, scheduled passes,
        table posts and DMs, tournament steps, AI moves, games loaded at start, reviews."""
        yield from self.under_way.tasks()
        for scheduler in self._schedulers():
            yield scheduler.under_way
        for part in ("display", "tournaments"):
            if (busy := getattr(self, part, None)) is not None:
                yield from busy.under_way()
        if (manager := getattr(self, "manager", None)) is not None:
            yield from manager.ai.tasks.values()
            yield manager.loader.at_start
        if (reviews := self._reviews()) is not None:
            yield from (job.task for job in reviews.jobs.values())

    def _reviews(self) -> Reviews | None:
        from meeple_hall.bot.cogs.review import ReviewCog

        reviewing = self.get_cog("Review")
        return reviewing.reviews if isinstance(reviewing, ReviewCog) else None


async def _let_go() -> None:
    """A gateway event that came while the bot was closing: not handled."""


async def report_failure(interaction: discord.Interaction, error: BaseException) -> None:
    """Log an unexpected error with where it happened; tell the player nothing was applied."""
    custom_id = cast(Mapping[str, Any], interaction.data or {}).get("custom_id")
    log.error(
        "unexpected error (channel %s, user %s, component %s)",
        interaction.channel_id,
        interaction.user.id,
        custom_id,
        exc_info=error,
    )
    from meeple_hall.bot.replies import say

    text = t(user_locale(interaction), "error.unexpected")
    try:
        await say(interaction, text)  # counted below the table like any reply
    except discord.HTTPException:
        log.warning("could not tell the player about the error")


class ShardedMeepleHall(MeepleHall, commands.AutoShardedBot):
    """The bot running some of the shards of a bot split over several processes."""


def create_bot(
    database_url: str | None = None,
    *,
    dev_guild_id: int | None = None,
    new_seed: Callable[[], int] | None = None,
    shards: Shards | None = None,
    chooser: Chooser | None = None,
) -> MeepleHall:
    """The bot, with its store at `database_url` (SQLite file by default). `new_seed` deals
    each new table's seed (random by default; tests pass their own to replay a game).
    `shards` (SHARD_COUNT, SHARD_IDS) makes it one of several processes: it connects only
    the shards given and serves only their guilds' tables (bot/shards.py). `chooser` works out
    the AI seats' answers (by default the bot's own worker processes; the tests give one pool
    of them to all their bots)."""
    if shards is None or shards.count == 1:
        return MeepleHall(database_url, dev_guild_id, new_seed, shards, chooser)
    return ShardedMeepleHall(
        database_url,
        dev_guild_id,
        new_seed,
        shards,
        chooser,
        shard_count=shards.count,
        shard_ids=shards.running,
    )
