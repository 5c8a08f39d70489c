"""What players see of a game outside their panels: the table message, turn DMs, the
private view by DM whenever it changes, and the final scores.

The channel always ends with an up-to-date table: the table message is edited in place
while it is the channel's last message, the same players are to act and no player has more
than a few of the bot's ephemeral messages (panels, replies) below it; otherwise a new one
is posted (mentioning who must act) and the old one loses its buttons.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Hashable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import discord

from meeple_hall import games
from meeple_hall.bot import ai, render
from meeple_hall.bot.components import Components, button, clip
from meeple_hall.bot.delivery import Redelivery, retried, transient
from meeple_hall.bot.hints import hint_lines
from meeple_hall.bot.i18n import game_name, game_text, language, t
from meeple_hall.bot.languages import Languages
from meeple_hall.bot.live import LiveGame, TableManager
from meeple_hall.bot.move_shown import keeps_events, shows_choices, typed
from meeple_hall.bot.quiet import quiet_until
from meeple_hall.bot.reminders import jump_link
from meeple_hall.bot.store import LoggedAction, Store, Table, TableStatus, UserPrefs
from meeple_hall.games import Decision, Text
from meeple_hall.games.core.catalogues import in_score_order, score_category
from meeple_hall.games.core.contract import LOG_SHOWN
from meeple_hall.games.core.messages import jsonable
from meeple_hall.games.core.undo import undone, undone_seq

log = logging.getLogger(__name__)

STATUS_KEYS = ("season", "period", "phase", "round", "step", "turn")
UNKNOWN_CHANNEL = 10003  # Discord's error code for a channel or thread that is gone
# A player's ephemeral messages below the table before it is posted again at the bottom: a
# phone screen holds about four panels (fourteen decisions filled three screens, issue 29),
# so past that the table and its Take turn are off screen; posting it again sooner would fill
# the channel with copies of the table, a short scroll away.
BURIED_AFTER = 4
# events (and moves, for a game with no event log) the table's Log lists


def table_buttons(table_id: int, seq: int, locale: str) -> Components:
    view = Components()
    view.add_item(
        button(
            f"t:{table_id}:{seq}:take",
            t(locale, "table.take_turn"),
            style=discord.ButtonStyle.primary,
            emoji="🎲",
        )
    )
    view.add_item(button(f"t:{table_id}:{seq}:hand", t(locale, "table.hand"), emoji="🂠"))
    view.add_item(button(f"t:{table_id}:{seq}:log", t(locale, "table.log"), emoji="📜"))
    return view


def seat_label(table: Table, seat: int, locale: str | None = None) -> str:
    """Who sits at a seat; with `locale`, an AI seat's level too ("🤖 AI 1 (good)")."""
    s = table.seats[seat]
    if s.user_id is None:
        return f"🤖 {s.name if locale is None else ai.seat_name(locale, table.game, s)}"
    return f"<@{s.user_id}>" + (" 🤖" if s.ai else "")


def automa_line(game_id: str, seats: int, locale: str) -> str | None:
    """The rules' automa opponent at this many seats (André, Karla), as a players list
    shows it after the seats; None where the game has none."""
    name = dict(getattr(games.get(game_id), "automa", ())).get(seats)
    return None if name is None else "· " + t(locale, "table.automa", name=game_text(locale, name))


def status_line(view: dict[str, Any], locale: str = "en") -> str:
    """Where the game stands: the game's own status message if it gives one (rendered in
    `locale`), else its phase-like fields as they are."""
    if view.get("status"):
        return game_text(locale, view["status"])
    parts = [
        f"{k.title()} {view[k]}"
        for k in STATUS_KEYS
        if isinstance(view.get(k), str | int) and str(view[k]) != ""
    ]
    return " · ".join(parts)


def table_embed(game: LiveGame, locale: str, notes: dict[int, str] | None = None) -> discord.Embed:
    """The table as everyone sees it; `notes` adds to a seat's line (its deadline, time
    away: bot/clocks.py)."""
    table = game.table
    notes = notes or {}
    view = game.view(None)
    pending = game.decisions()
    acting = {d.seat: d for d in pending}
    embed = discord.Embed(
        title=game_name(locale, table.game),
        description=status_line(view, locale) or None,
        colour=discord.Colour.dark_gold(),
    )
    lines = []
    for seat in range(len(table.seats)):
        marker = "▶" if seat in acting else "·"
        extra = t(locale, "table.resigned") if table.seats[seat].resigned else ""
        if seat in notes:
            extra = f"{extra} · {notes[seat]}" if extra else notes[seat]
        lines.append(f"{marker} {seat + 1}. {seat_label(table, seat, locale)} {extra}".rstrip())
    if automa := automa_line(table.game, len(table.seats), locale):
        lines.append(automa)
    embed.add_field(name=t(locale, "table.players"), value="\n".join(lines), inline=False)
    if pending:
        waiting = "\n".join(
            f"{seat_label(table, d.seat)}: {clip(game_text(locale, d.prompt), 80)}" for d in pending
        )
        embed.add_field(name=t(locale, "table.waiting"), value=clip(waiting, 1024), inline=False)
    embed.set_footer(text=t(locale, "table.footer", table=table.id, seq=game.seq))
    return embed


def log_text(game: LiveGame, entries: Sequence[LoggedAction], locale: str) -> str:
    """The table's Log (`entries`: the latest LOG_SHOWN moves of the store's log): the game's
    own latest events, and the moves taken back.

    A game's events are written for everyone at the table, a whole move to a line in the
    rulebook's words, and tell a secret choice only as far as the rules show it. The moves'
    option ids (or their labels) would not: a Keyflower seat's winter tiles, chosen while the
    others still choose, read `W05 W06` to everyone. So a game that keeps an event log is
    shown by it; only a game that keeps none lists its moves as typed with `/move`
    (bot/move_shown.py: the one rule)."""
    lines = []
    public = game.view(None)
    events = public.get("log") or []
    if events:
        lines.append(t(locale, "log.events"))
        lines += [f"• {clip(game_text(locale, e), 150)}" for e in events[-LOG_SHOWN:]]
    keeps_log = keeps_events(public)
    taken_back = undone(entries)  # an undo always follows the move it takes back
    moves = []
    for entry in entries:
        name = game.table.seats[entry.seat].name
        if (target := undone_seq(entry.choices)) is not None:
            moves.append(f"`{entry.seq:>4}` {name}: {t(locale, 'log.undo', seq=target)}")
        elif shows_choices(keeps_log, ended=False):
            line = f"`{entry.seq:>4}` {name}: {typed(entry)}"
            moves.append(f"~~{line}~~" if entry.seq in taken_back else line)
    if moves:
        heading = "log.taken_back" if keeps_log else "log.moves"
        lines += [""] * bool(lines) + [t(locale, heading), *moves]
    if hints := hint_lines(game.table, locale, since=entries[0].seq - 1 if entries else 0):
        lines += [""] * bool(lines) + [t(locale, "log.hints"), *hints]
    return clip("\n".join(lines) or t(locale, "log.none"), 2000)


def score_part(game_id: str, category: str, points: int, locale: str) -> str:
    """One category of a seat's final score, "church 15". A category of the form
    "name: value" worth nothing names the result instead of counting it (Village solo's
    achievement title, "title: master"): its words alone, as a 0 there would read as a
    score."""
    words = game_text(locale, score_category(game_id, category))
    return words if points == 0 and ": " in category else f"{words} {points}"


def result_embed(table: Table, locale: str) -> discord.Embed:
    """Final scores as stored with the table: ranks (resignations last) and each seat's
    points by category, so players can check them against the rulebook."""
    assert table.result is not None
    scores, ranks, breakdown = (table.result[k] for k in ("scores", "ranks", "breakdown"))
    order = sorted(range(len(table.seats)), key=lambda s: (ranks[s], s))
    winners = " ".join(seat_label(table, s) for s in order if ranks[s] == 1)
    embed = discord.Embed(
        title=t(locale, "end.title", game=game_name(locale, table.game)),
        description=t(locale, "end.winner", winners=winners),
        colour=discord.Colour.gold(),
    )
    for seat in order:
        parts = " · ".join(
            score_part(table.game, k, v, locale)
            for k, v in in_score_order(table.game, breakdown[seat])
        )
        name = t(
            locale, "end.rank", rank=ranks[seat], name=table.seats[seat].name, score=scores[seat]
        )
        if table.seats[seat].resigned:
            name += " " + t(locale, "table.resigned")
        embed.add_field(name=clip(name, 256), value=clip(parts or "—", 1024), inline=False)
    return embed


def private_digest(text: Text) -> str:
    """What the store keeps of a seat's private text as last sent (`Seat.private_sent`): a
    digest of its words in no language, the same in every process and version that words it
    the same way."""
    words = json.dumps(jsonable(text), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.blake2b(words.encode(), digest_size=8).hexdigest()


def channel_gone(exc: BaseException) -> bool:
    """Discord says the channel (or thread) itself no longer exists."""
    return isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_CHANNEL


class BelowTable:
    """The ephemeral messages (panels, replies) the bot has sent each player in a table's
    channel since the table was posted there. Discord shows a player theirs below the table,
    but they leave the channel's last message as it was, so only the bot can count them."""

    def __init__(self) -> None:
        # channel -> user -> messages; only for channels whose table has been shown
        self._sent: dict[int, Counter[int]] = {}

    def sent(self, channel_id: int, user_id: int) -> None:
        counts = self._sent.get(channel_id)
        if counts is not None:
            counts[user_id] += 1

    def buried(self, channel_id: int) -> bool:
        """Whether some player has more than BURIED_AFTER of them below the table."""
        counts = self._sent.get(channel_id)
        return counts is not None and max(counts.values(), default=0) > BURIED_AFTER

    def shown(self, channel_id: int, *, posted: bool) -> None:
        """The table is shown in the channel: edited in place, or `posted` at the bottom."""
        if posted or channel_id not in self._sent:
            self._sent[channel_id] = Counter()

    def gone(self, channel_id: int) -> None:
        """The channel shows no table in play any more."""
        self._sent.pop(channel_id, None)


@dataclass(frozen=True)
class _Mention:
    """The players a table message names as awaited (`users`), and those of them it pinged
    (not those in their quiet hours)."""

    users: tuple[int, ...]
    pinged: frozenset[int]

    def line(self, locale: str) -> str | None:
        mentions = " ".join(f"<@{u}>" for u in self.users)
        return t(locale, "table.your_move", mentions=mentions) if mentions else None

    def among(self, awaited: set[int | None]) -> _Mention:
        """The mention as it stands for the players still `awaited`."""
        return _Mention(
            tuple(u for u in self.users if u in awaited),
            frozenset(u for u in self.pinged if u in awaited),
        )

    def allowed(self) -> discord.AllowedMentions:
        return discord.AllowedMentions(users=[discord.Object(u) for u in sorted(self.pinged)])


@dataclass(frozen=True)
class _DmBatch:
    """DMs due to a game's seats: after a turn change (`told`: the seats `newly` awaited, and
    private texts that changed), and to the seats whose DM failed and is tried `again`."""

    game: LiveGame
    link: str
    newly: frozenset[int] = frozenset()
    again: frozenset[int] = frozenset()
    told: bool = False

    def then(self, later: _DmBatch) -> _DmBatch:
        """This batch and a later one, as one, sent with the game as it is by then."""
        return replace(
            later,
            newly=self.newly | later.newly,
            again=self.again | later.again,
            told=self.told or later.told,
        )


class TableDisplay:
    def __init__(
        self,
        bot: discord.Client,
        manager: TableManager,
        store: Store,
        notes: Callable[[LiveGame, str], dict[int, str]] | None = None,
    ) -> None:
        self.bot = bot
        self.manager = manager
        self.store = store
        self._dirty: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._acting: dict[int, frozenset[int]] = {}
        # the games whose table message the store holds as not shown (a turn change to post)
        self._unshown: set[int] = set()
        # whom each game's table message mentions as awaited, and which of them it pinged
        # (not known for a message an earlier bot posted)
        self._mentioned: dict[int, _Mention] = {}
        # each seat's private text as last sent by DM (or, before the first, as it stood)
        self._secrets: dict[tuple[int, int], Text] = {}
        # the move each game's DMs were last worked out at
        self._dm_seq: dict[int, int] = {}
        self._dm_tasks: set[asyncio.Task[None]] = set()
        # per game, the DMs due next, and the games whose DMs are going out now
        self._dms_due: dict[int, _DmBatch] = {}
        self._dms_going: set[int] = set()
        self.pictures = render.TablePictures()
        self.below = BelowTable()
        # Callbacks that add fields to a finished game's final scores.
        self.result_extras: list[Callable[[Table, discord.Embed, str], Awaitable[None]]] = []
        # per-seat notes on the table message (deadlines, time away): bot/clocks.py's
        self.notes = notes
        # told when a game's channel turns out to be gone (bot/cogs/channels.py pauses it)
        self.channel_lost: Callable[[LiveGame], Awaitable[None]] | None = None
        # a table post or DM that failed after its tries, sent again later ("table", game)
        # or ("dm", game, seat), with what the DM was to carry
        self.redelivery = Redelivery(self._resend)
        self._undelivered: dict[tuple[int, int], tuple[bool, bool]] = {}
        # the (game, seat)s the store holds as owed a turn DM (`Seat.turn_dm_owed`)
        self._owed: set[tuple[int, int]] = set()
        # the digest of each seat's private text last sent, as the store holds it
        # (`Seat.private_sent`; not there: not known to this process)
        self._private_sent: dict[tuple[int, int], str | None] = {}
        manager.listeners.append(self.changed)
        manager.on_load.append(self._loaded)

    def start(self) -> None:
        self.redelivery.start()

    async def _loaded(self, game: LiveGame) -> None:
        self.prime(game)
        table = game.table
        owed = await self._owed_when_loaded(game)
        private = await self._private_owed_when_loaded(game)
        in_play = table.status is TableStatus.ACTIVE and not table.paused_at
        if not table.table_message_id and in_play:
            # its turn change was never shown (the bot stopped before the post went out):
            # whoever it awaits is told now (and the private texts owed go with it)
            self._acting.pop(game.id, None)
            await self.changed(game)
        elif (owed or private) and in_play:
            # the table was shown, but a turn DM or a private text had not gone out when the
            # bot stopped
            self._send_owed(game, owed, private)

    def forget_shown(self, game: LiveGame) -> None:
        """The table is shown afresh (in another channel): who is awaited is mentioned again."""
        self._acting.pop(game.id, None)

    async def show_afresh(self, game: LiveGame) -> None:
        """Post the table again, mentioning and telling whoever is awaited as if newly (a
        game reopened elsewhere, a seat given to a newcomer)."""
        self.forget_shown(game)
        await self.changed(game)

    def prime(self, game: LiveGame) -> None:
        """Remember what players already have (a game loaded from the store, after a
        restart), so nothing is re-sent."""
        self._acting[game.id] = self._awaited(game)
        self._mentioned.pop(game.id, None)
        self._dm_seq[game.id] = game.seq
        for seat in range(len(game.table.seats)):
            self._secrets[(game.id, seat)] = self._secret_text(game, seat)

    async def changed(self, game: LiveGame) -> None:
        table = game.table
        if (
            table.table_message_id
            and table.status is TableStatus.ACTIVE
            and not table.paused_at
            and self._newly_awaited(game, self._awaited(game))
        ):
            # not shown until posted, as `publish` says, from now: the post may wait behind
            # an edit still being tried, and a bot stopping first leaves it to the next
            await self._mark_unshown(game)
        self._dirty.add(game.id)
        if game.id not in self._tasks:
            self._tasks[game.id] = asyncio.create_task(
                self._publish_while_dirty(game), name=f"publish-{game.id}"
            )

    @staticmethod
    def _awaited(game: LiveGame) -> frozenset[int]:
        return frozenset(d.seat for d in game.decisions())

    def _newly_awaited(self, game: LiveGame, acting: frozenset[int]) -> list[int]:
        """The players awaited now who were not when the table was last shown: a turn
        change mentions them in a new post."""
        seats = game.table.seats
        newly = acting - self._acting.get(game.id, frozenset())
        return [u for s in sorted(newly) if not seats[s].ai and (u := seats[s].user_id)]

    async def _publish_while_dirty(self, game: LiveGame) -> None:
        try:
            while game.id in self._dirty:
                self._dirty.discard(game.id)
                try:
                    whole = await self.publish(game)
                except Exception as exc:
                    if channel_gone(exc) and self.channel_lost is not None:
                        await self.channel_lost(game)
                        return
                    if not transient(exc):
                        log.exception("could not show game %s at move %s", game.id, game.seq)
                        return
                    log.warning("game %s at move %s: shown again later", game.id, game.seq)
                    self.redelivery.again(("table", game.id))
                else:
                    if whole:
                        self.redelivery.done(("table", game.id))
                    else:  # shown without its picture: drawn again later
                        self.redelivery.again(("table", game.id))
        finally:
            self._tasks.pop(game.id, None)

    async def _resend(self, keys: list[Hashable]) -> None:
        """What failed to go out, once more: the table as it stands now, and each DM with
        what is still true (the turn, if the seat is still awaited; its private text)."""
        for key in keys:
            assert isinstance(key, tuple)
            game = self.manager.get(key[1])
            if game is None:
                self.redelivery.done(key)
            elif key[0] == "table":
                await self.changed(game)
            else:
                await self._resend_dm(game, key[2])

    def under_way(self) -> list[asyncio.Task[None] | None]:
        """The table posts and DMs going out now, and a redelivery's pass (bot/closing.py)."""
        return [*self._tasks.values(), *self._dm_tasks, self.redelivery.scheduler.under_way]

    def close(self) -> None:
        """Stop showing (the bot is closing): pictures and messages not yet out are dropped,
        rather than sent through a closed connection and store (the next start shows every
        table afresh)."""
        self.redelivery.close()
        for task in [*self._tasks.values(), *self._dm_tasks]:
            task.cancel()
        self._dirty.clear()

    def locale(self, table: Table) -> str:
        """The server's language: everything the table's channel shows is in it."""
        guild = self.bot.get_guild(table.guild_id) if table.guild_id else None
        languages: Languages | None = getattr(self.bot, "languages", None)
        if languages is not None:
            return languages.server(guild, table.guild_id)
        return guild.preferred_locale.value if guild else "en"

    async def channel(self, table: Table) -> discord.abc.Messageable:
        channel = self.bot.get_channel(table.channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(table.channel_id)
        return channel  # type: ignore[return-value]

    async def publish(self, game: LiveGame) -> bool:
        """Show the table as it stands; False if it went out without its picture."""
        table = game.table
        if table.status is TableStatus.FINISHED:
            await self._finish(game)
            return True
        if table.status is not TableStatus.ACTIVE:
            await self._turn_dms_settled(game, range(len(table.seats)))
            self.below.gone(table.channel_id)
            await self._strip_buttons(table)
            return True
        if table.paused_at is not None:
            return True  # its channel is gone: shown again where it is reopened
        locale = self.locale(table)
        seq, png = await self._picture(game)
        if game.seq != seq:
            self._dirty.add(game.id)  # moved on while drawing: draw again
            return True

        def files() -> list[discord.File]:  # a new File for each try: a sent one is closed
            return [render.as_file(png)] if png is not None else []

        channel = await self.channel(table)
        acting = self._awaited(game)
        newly = acting - self._acting.get(game.id, frozenset())
        humans = self._newly_awaited(game, acting)
        prefs = {u: await self.store.get_prefs(u) for u in humans}
        # no mention reaches a player in their quiet hours (the name is still shown)
        now = discord.utils.utcnow()
        loud = frozenset([u for u in humans if quiet_until(prefs[u], now) is None])
        mention = _Mention(tuple(humans), loud)
        await self._owe_turn_dms(game, newly, prefs)
        embed = table_embed(game, locale, self.notes(game, locale) if self.notes else None)
        buttons = table_buttons(table.id, seq, locale)
        message: discord.Message | discord.PartialMessage | None = None
        if not mention.users and self._in_place(table, channel):
            shown = channel.get_partial_message(table.table_message_id)  # type: ignore[attr-defined]
            line = self._mention_kept(game, acting, locale)
            try:
                message = await retried(
                    lambda: shown.edit(embed=embed, attachments=files(), view=buttons, **line),
                    f"editing the table of game {game.id}",
                )
            except discord.NotFound:
                message = None  # someone deleted the table message: post it again
        if message is None:
            if mention.users:  # not shown until posted: a bot stopping first leaves it to the next
                await self._mark_unshown(game)
            message = await retried(
                lambda: channel.send(
                    content=mention.line(locale),
                    embed=embed,
                    files=files(),
                    view=buttons,
                    allowed_mentions=mention.allowed(),
                ),
                f"posting the table of game {game.id}",
            )
            self.below.shown(table.channel_id, posted=True)
            self._mentioned[game.id] = mention
            await self._strip_buttons(table)
            table.table_message_id = message.id
            await self._mark_shown(game, posted=True)
        else:
            self.below.shown(table.channel_id, posted=False)
            # a turn change marked unshown was overtaken before it was posted (its player
            # moved while an edit was being tried): the message edited is the table again
            await self._mark_shown(game, posted=False)
        # shown: who was newly awaited has been mentioned (a post that failed mentions them
        # when it goes out)
        self._acting[game.id] = acting
        # DMs go out on their own, so the next move's table never waits behind them.
        self._dms_apart(self._notify(game, newly, message.jump_url))
        return png is not None

    def _dms_apart(self, sending: Coroutine[Any, Any, None]) -> None:
        """DMs sent in a task of their own (counted as work under way while the bot closes)."""
        task = asyncio.create_task(sending)
        self._dm_tasks.add(task)
        task.add_done_callback(self._dm_tasks.discard)

    async def _mark_unshown(self, game: LiveGame) -> None:
        if game.id not in self._unshown:
            self._unshown.add(game.id)
            await self.store.set_table_message(game.table.id, None)  # type: ignore[arg-type]

    async def _mark_shown(self, game: LiveGame, *, posted: bool) -> None:
        if posted or game.id in self._unshown:
            self._unshown.discard(game.id)
            table = game.table
            await self.store.set_table_message(table.id, table.table_message_id)  # type: ignore[arg-type]

    async def _picture(self, game: LiveGame) -> tuple[int, bytes | None]:
        """The table's picture, drawn as it stands once a picture worker is free for it. A
        picture that cannot be drawn never silences a turn: the table goes out without it
        (the mention and the DMs with it) and is drawn again later."""
        try:
            return await self.pictures.latest(game)
        except Exception:
            log.exception("could not draw the table of game %s at move %s", game.id, game.seq)
            return game.seq, None

    def _mention_kept(self, game: LiveGame, acting: frozenset[int], locale: str) -> dict[str, Any]:
        """What an edit in place does with the table message's mention line: it keeps the
        players still awaited (an edit that took out a mention would take back its
        notification, and for a player whose DMs are closed it is the only one) and drops
        those no longer awaited. A message an earlier bot posted is left as it is."""
        said = self._mentioned.get(game.id)
        if said is None:
            return {}
        seats = game.table.seats
        kept = said.among({seats[s].user_id for s in acting if not seats[s].ai})
        self._mentioned[game.id] = kept
        return {"content": kept.line(locale), "allowed_mentions": kept.allowed()}

    def _in_place(self, table: Table, channel: discord.abc.Messageable) -> bool:
        """Whether the table message may be edited where it is: it is still the channel's
        last message, and no player has more than a few panels below it."""
        last_id = getattr(channel, "last_message_id", None)
        return (
            table.table_message_id is not None
            and table.table_message_id == last_id
            and not self.below.buried(table.channel_id)
        )

    async def _strip_buttons(self, table: Table) -> None:
        """The old table message loses its buttons (if that fails, they stay: a click on
        them is refused as out of date)."""
        if not table.table_message_id:
            return
        channel = await self.channel(table)
        try:
            await channel.get_partial_message(table.table_message_id).edit(view=None)  # type: ignore[attr-defined]
        except discord.HTTPException as exc:
            if not isinstance(exc, discord.NotFound):
                log.warning("could not take the buttons off table %s: %s", table.id, exc)

    async def _finish(self, game: LiveGame) -> None:
        table = game.table
        self._acting.pop(game.id, None)
        self._mentioned.pop(game.id, None)
        self.below.gone(table.channel_id)
        locale = self.locale(table)
        channel = await self.channel(table)
        png = await self.pictures.png(table.id, game.seq, table.game, game.view(None))
        await self._strip_buttons(table)
        embed = result_embed(table, locale)
        for extra in self.result_extras:  # e.g. rating changes (bot/cogs/ratings.py)
            await extra(table, embed, locale)
        from meeple_hall.bot.review import review_buttons  # (it imports the renderers)

        buttons = review_buttons(table, locale)
        await channel.send(embed=embed, file=render.as_file(png), view=buttons)
        for seat in range(len(table.seats)):
            self._secrets.pop((game.id, seat), None)
            self._private_sent.pop((game.id, seat), None)
        self._dm_seq.pop(game.id, None)
        await self._turn_dms_settled(game, range(len(table.seats)))

    async def announce(self, game: LiveGame, key: str, **fields: object) -> None:
        """A short public note in the game's channel (a resignation, an abandoned game)."""
        channel = await self.channel(game.table)
        await channel.send(
            t(self.locale(game.table), key, **fields),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # -- direct messages -----------------------------------------------------------------
    def _secret_text(self, game: LiveGame, seat: int) -> Text:
        """The seat's secrets, in no language yet (compared to see whether they changed)."""
        secret = game.private_text(seat)
        return secret.strip() if isinstance(secret, str) else secret

    async def _notify(self, game: LiveGame, newly: frozenset[int], link: str) -> None:
        await self._dms_in_turn(game, _DmBatch(game, link, newly, told=True))

    async def _dms_in_turn(self, game: LiveGame, due: _DmBatch) -> None:
        """A game's DMs go out one batch at a time. What falls due while a batch is going out
        (DMs retried after a Discord error) joins the next batch, which the task sending
        this one sends next: nothing waits in line behind a DM being retried."""
        queued = self._dms_due.get(game.id)
        self._dms_due[game.id] = due if queued is None else queued.then(due)
        if game.id in self._dms_going:
            return
        self._dms_going.add(game.id)
        try:
            while (batch := self._dms_due.pop(game.id, None)) is not None:
                try:
                    await self._send_batch(batch)
                except Exception:
                    log.exception(
                        "could not DM the players of game %s at move %s", game.id, game.seq
                    )
        finally:
            self._dms_going.discard(game.id)

    async def _send_batch(self, batch: _DmBatch) -> None:
        if batch.told:
            await self._send_dms(batch.game, batch.newly, batch.link)
        for seat in sorted(batch.again):
            await self._resend_seat(batch.game, seat)

    def _secrets_due(
        self, game: LiveGame, pending: frozenset[int], newly: frozenset[int]
    ) -> dict[int, tuple[Text, dict[str, Any]]]:
        """The human seats whose private information goes out by DM now, with the text and
        the view it shows: a seat's text that changed since it was last sent, once the
        seat's own steps are over (not after each step of its turn: they are in its panel),
        or at once when someone else's move or the game changed it (cards dealt at a
        round's start). Worked out in one go, before anything is awaited, so each DM shows
        one state of the game."""
        since = self._dm_seq.get(game.id, game.seq)
        self._dm_seq[game.id] = game.seq
        movers = {game.acted.get(n) for n in range(since + 1, game.seq + 1)}
        due = {}
        for seat, s in enumerate(game.table.seats):
            if s.ai or s.user_id is None:
                continue
            secret = self._secret_text(game, seat)
            if self._secrets.get((game.id, seat)) == secret:
                continue
            if seat in pending and seat not in newly and movers == {seat}:
                continue  # its turn goes on: the text it ends with is sent then
            self._secrets[(game.id, seat)] = secret
            if secret:
                due[seat] = (secret, game.view(seat))
        return due

    async def _send_dms(self, game: LiveGame, newly: frozenset[int], link: str) -> None:
        table = game.table
        decisions = {d.seat: d for d in game.decisions()}
        # A seat whose turn came and went while earlier DMs went out is not told of it.
        await self._turn_dms_settled(game, newly - decisions.keys())
        newly = frozenset(seat for seat in newly if seat in decisions)
        secrets = self._secrets_due(game, frozenset(decisions), newly)
        for seat, s in enumerate(table.seats):
            if s.ai or s.user_id is None:
                continue
            if seat not in newly and seat not in secrets:
                continue
            turn = decisions[seat] if seat in newly else None
            await self._dm_seat(game, seat, turn, secrets.get(seat), link)

    async def _dm_seat(
        self,
        game: LiveGame,
        seat: int,
        turn: Decision | None,
        secret: tuple[Text, dict[str, Any]] | None,
        link: str,
    ) -> None:
        """One DM to a seat: its turn (with the decision's prompt) and its private text. A DM
        that cannot go out now is sent again later with what is then still true."""
        table = game.table
        user_id = table.seats[seat].user_id
        assert user_id is not None
        prefs = await self.store.get_prefs(user_id)
        if not prefs.turn_dms or prefs.dms_closed:
            await self._turn_dms_settled(game, [seat])  # no DM goes to this player
            return
        if turn is None and self._undelivered.get((game.id, seat), (False, False))[0]:
            turn = game.decision_for(seat)  # its turn DM, held, goes with this one
        if (quiet_end := quiet_until(prefs, discord.utils.utcnow())) is not None:
            # quiet hours: the DM waits for them to end, saying then what is still true
            self._hold(game.id, seat, turn is not None, secret is not None)
            self.redelivery.at(("dm", game.id, seat), quiet_end)
            return
        lang = self.dm_locale(prefs, table)
        name = game_name(lang, table.game)
        parts = []
        if turn is not None:
            parts.append(
                t(
                    lang,
                    "dm.your_turn",
                    game=name,
                    channel=table.channel_id,
                    prompt=turn.prompt,
                    link=link,
                )
            )
        png = None
        if secret is not None:
            text, view = secret
            parts.append(t(lang, "dm.private", game=name, channel=table.channel_id, text=text))
            png = await self.pictures.own(game.id, seat, table.game, view)
        key = ("dm", game.id, seat)
        try:
            await self.direct_message(table, prefs, clip("\n\n".join(parts), 2000), png)
        except Exception as exc:
            if not transient(exc):
                if turn is not None:
                    await self._turn_dms_settled(game, [seat])  # given up, as it says
                if secret is not None:
                    await self._private_told(game, seat, secret[0])
                raise
            self._hold(game.id, seat, turn is not None, secret is not None)
            log.warning("DM to seat %s of game %s: sent again later", seat, game.id)
            self.redelivery.again(key)
        else:
            self._undelivered.pop((game.id, seat), None)
            self.redelivery.done(key)
            if secret is not None:
                # its private text told (in a DM, or in the channel's closed-DMs note)
                await self._private_told(game, seat, secret[0])
            if turn is not None or game.decision_for(seat) is None:
                # its turn told (in a DM, or in the channel's note that its DMs are closed),
                # or there is none to tell
                await self._turn_dms_settled(game, [seat])

    def _hold(self, game_id: int, seat: int, turn: bool, secret: bool) -> None:
        """Remember what a DM not sent now was to tell (its turn, its private text)."""
        before = self._undelivered.get((game_id, seat), (False, False))
        self._undelivered[(game_id, seat)] = (before[0] or turn, before[1] or secret)

    async def _resend_dm(self, game: LiveGame, seat: int) -> None:
        due = _DmBatch(game, jump_link(game.table), again=frozenset({seat}))
        await self._dms_in_turn(game, due)

    async def _resend_seat(self, game: LiveGame, seat: int) -> None:
        turn_wanted, secret_wanted = self._undelivered.pop((game.id, seat), (False, False))
        turn = game.decision_for(seat) if turn_wanted else None
        text = self._secret_text(game, seat) if secret_wanted else None
        secret = (text, game.view(seat)) if text else None
        if turn is None and secret is None:
            self.redelivery.done(("dm", game.id, seat))
            if game.decision_for(seat) is None:
                await self._turn_dms_settled(game, [seat])
            return
        await self._dm_seat(game, seat, turn, secret, jump_link(game.table))

    # -- turn DMs owed, kept in the store ------------------------------------------------
    # A turn DM that waits (for Discord to answer again, for the player's quiet hours) waits
    # in memory; the store keeps that it is owed from before the table post that mentions the
    # seat until it goes out, so a bot stopping meanwhile leaves it to the next (finding 11).
    async def _owe_turn_dms(
        self, game: LiveGame, newly: frozenset[int], prefs: dict[int, UserPrefs]
    ) -> None:
        """The seats newly awaited whose players take turn DMs (`prefs`, by user) are owed
        one, in one write (none when none is newly owed)."""
        seats = game.table.seats
        due = []
        for seat in sorted(newly):
            s = seats[seat]
            if s.ai or s.user_id is None or (game.id, seat) in self._owed:
                continue
            if prefs[s.user_id].turn_dms and not prefs[s.user_id].dms_closed:
                due.append(seat)
        if due:
            await self.store.set_turn_dm_owed(game.table.id, due, True)
            self._owed.update((game.id, seat) for seat in due)

    async def _turn_dms_settled(self, game: LiveGame, seats: Iterable[int]) -> None:
        """These seats owe no turn DM any more (written only for those that did)."""
        settled = sorted(seat for seat in seats if (game.id, seat) in self._owed)
        if settled:
            self._owed.difference_update((game.id, seat) for seat in settled)
            await self.store.set_turn_dm_owed(game.table.id, settled, False)

    async def _owed_when_loaded(self, game: LiveGame) -> frozenset[int]:
        """The seats of a game just loaded that are owed a turn DM and still awaited (a
        mark left on a seat no longer awaited, or an AI's, is cleared)."""
        seats = game.table.seats
        marked = {seat for seat, s in enumerate(seats) if s.turn_dm_owed}
        self._owed.difference_update((game.id, seat) for seat in range(len(seats)))
        self._owed.update((game.id, seat) for seat in marked)  # as the store has it now
        owed = frozenset(
            seat
            for seat in marked & self._awaited(game)
            if not seats[seat].ai and seats[seat].user_id
        )
        if game.table.status is not TableStatus.ACTIVE:
            owed = frozenset()
        await self._turn_dms_settled(game, marked - owed)
        return owed

    def _send_owed(
        self, game: LiveGame, seats: frozenset[int], private: frozenset[int] = frozenset()
    ) -> None:
        """Send the turn DMs owed to `seats` and the private texts owed to `private`, on their
        own (as after a move), each as a DM held back: in the player's quiet hours it waits
        for them to end."""
        for seat in seats | private:
            self._hold(game.id, seat, turn=seat in seats, secret=seat in private)
        for seat in private:
            self._secrets[(game.id, seat)] = self._secret_text(game, seat)
        due = _DmBatch(game, jump_link(game.table), again=seats | private)
        self._dms_apart(self._dms_in_turn(game, due))

    # -- private texts owed, kept in the store -------------------------------------------
    # The store keeps a digest of the private text each seat was last sent (written once the
    # DM went out, never before it is tried), so a bot loading a game knows which seats have
    # not been told of their private text as it stands: a DM waiting for Discord or for the
    # player's quiet hours when the bot stopped is not lost.
    async def _private_told(self, game: LiveGame, seat: int, text: Text) -> None:
        """The seat's player has been told this private text (written only if the store
        held another)."""
        digest = private_digest(text)
        if self._private_sent.get((game.id, seat)) != digest:
            self._private_sent[(game.id, seat)] = digest
            await self.store.set_private_sent(game.table.id, {seat: digest})

    async def _private_owed_when_loaded(self, game: LiveGame) -> frozenset[int]:
        """The human seats of a game just loaded whose private text is not the one last sent
        to their players, who take DMs. Their text is due at the next DMs (not primed as
        sent). A seat whose last text is not known (a game in play when migration 0019 ran)
        takes it as sent, as the store now keeps."""
        seats = game.table.seats
        for seat, s in enumerate(seats):
            self._private_sent[(game.id, seat)] = s.private_sent
        if game.table.status is not TableStatus.ACTIVE or not game.decisions():
            return frozenset()  # ended (or ending as it loads): nothing more to tell
        unknown = {
            seat: private_digest(self._secret_text(game, seat))
            for seat, s in enumerate(seats)
            if s.private_sent is None
        }
        await self.store.set_private_sent(game.table.id, unknown)
        self._private_sent.update(((game.id, seat), digest) for seat, digest in unknown.items())
        owed = []
        for seat, s in enumerate(seats):
            if s.ai or s.user_id is None or seat in unknown:
                continue
            text = self._secret_text(game, seat)
            if not text or private_digest(text) == s.private_sent:
                continue
            prefs = await self.store.get_prefs(s.user_id)
            if prefs.turn_dms and not prefs.dms_closed:
                owed.append(seat)
                self._secrets.pop((game.id, seat), None)
        return frozenset(owed)

    def dm_locale(self, prefs: UserPrefs, table: Table) -> str:
        """A DM's language: the one the user chose, else their client's last locale, else the
        server's."""
        languages: Languages | None = getattr(self.bot, "languages", None)
        chosen = languages.users.get(prefs.user_id) if languages is not None else None
        if chosen:
            return chosen
        return language(prefs.locale) if prefs.locale else self.locale(table)

    async def direct_message(
        self, table: Table, prefs: UserPrefs, text: str, png: bytes | None = None
    ) -> None:
        """DM a player; closed DMs (50007) are remembered and announced once in the channel."""

        async def send() -> None:
            user = self.bot.get_user(prefs.user_id) or await self.bot.fetch_user(prefs.user_id)
            if png:
                await user.send(text, file=render.as_file(png, render.PRIVATE_FILENAME))
            else:
                await user.send(text)

        try:
            await retried(send, f"a DM to user {prefs.user_id}")
        except discord.Forbidden as exc:
            if exc.code != 50007:
                raise
            prefs.dms_closed = True
            await self.store.set_prefs(prefs)
            channel = await self.channel(table)
            await channel.send(
                t(self.locale(table), "dm.closed", user=f"<@{prefs.user_id}>"),
                allowed_mentions=discord.AllowedMentions(users=True),
            )
