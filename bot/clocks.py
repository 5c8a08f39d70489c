"""Clocks: how long each awaited player has, their reserve, timeouts and time away.

A seat's *wait* starts when a decision becomes theirs and ends when they have nothing left
to decide, so several decisions in a row of one turn share one deadline, and simultaneous
decisions each run their own clock. Past the deadline the seat's reserve (twice the clock
for the whole game, by default) is spent; when it is gone the timeout acts: `ai` lets the
AI answer for the rest of that wait, `resign` resigns the seat. Three waits in a row that
run out hand the seat to the AI until the player's `/resume`.

A timeout is one more submission, made with the move number and decision the wait was last
seen at: a player's move that got in first makes it stale, and it is dropped.

Time away (`/away`) pushes the player's deadlines and reminders back by its length on
tables that allow it; ending it early pulls them forward again.

Everything is kept in the store (seat_clocks, away, away_days) and re-armed at start from
the stored rows alone (no game is replayed for it), so a deadline that passed while the bot
was down is handled once, when it comes back; a game's waits are brought in step with it
when it is loaded (on first use, or when something of it falls due).

With several processes each keeps the clocks of its own tables. Time away is the player's
across every table: each process moves its own tables' deadlines when it hears of the
change (`away_heard`), and a snooze sent from another process (a DM button reaches shard
0) is written through the store and heard by the table's process (`snoozes_heard`).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Hashable
from datetime import datetime, timedelta

import discord

from meeple_hall.bot import ai
from meeple_hall.bot import table_settings as ts
from meeple_hall.bot.live import LiveGame, Refusal, TableManager, decision_hash
from meeple_hall.bot.scheduler import Scheduler
from meeple_hall.bot.store.base import Away, SeatClock, Store, Table, TableStatus

log = logging.getLogger(__name__)

CLOCK = ts.declare(ts.TableSetting("clock", ("off", "12h", "24h", "48h", "72h"), "off"))
TIMEOUT = ts.declare(ts.TableSetting("timeout", ("ai", "resign"), "ai"))
REMIND = ts.declare(ts.TableSetting("remind", ("off", "8h", "24h", "72h"), "24h"))
AWAY = ts.declare(ts.TableSetting("away", ("allowed", "forbidden"), "allowed"))

RESERVE_CLOCKS = 2  # a seat's reserve for the game, in clocks
TIMEOUTS_TO_AI = 3  # waits in a row that run out before the AI takes the seat over
AWAY_DAYS_A_YEAR = 21
DAY = timedelta(days=1)

WaitKey = tuple[int, int]  # (table id, seat)


def hours(choice: str) -> timedelta | None:
    """`24h` as a timedelta; `off` as None."""
    return None if choice == "off" else timedelta(hours=int(choice.removesuffix("h")))


def clock_of(table: Table) -> timedelta | None:
    return hours(ts.value(table, "clock"))


def remind_every(table: Table) -> timedelta | None:
    return hours(ts.value(table, "remind"))


def pauses_when_away(table: Table) -> bool:
    return ts.value(table, "away") == "allowed"


def stamp(moment: datetime, style: str = "R") -> str:
    """A Discord timestamp: every reader sees it in their own time zone and language."""
    return f"<t:{int(moment.timestamp())}:{style}>"


class ClockService:
    """Keeps every seat's wait in step with its game (a TableManager listener) and acts on
    what falls due (through the one scheduler)."""

    def __init__(self, bot: discord.Client, manager: TableManager, store: Store) -> None:
        from meeple_hall.bot.reminders import Reminders

        self.bot = bot
        self.manager = manager
        self.store = store
        self.rows: dict[WaitKey, SeatClock] = {}
        self.aways: dict[int, Away] = {}
        # the move number and decision each wait was last seen at: what a timeout answers
        self.armed: dict[WaitKey, tuple[int, str]] = {}
        self._timing_out: set[WaitKey] = set()
        self.scheduler = Scheduler(self._fire)
        self.reminders = Reminders(bot, store, self)
        manager.listeners.append(self.changed)
        manager.on_load.append(self.changed)

    # -- start and stop -------------------------------------------------------------------
    async def load(self) -> None:
        """Read every clock and time away from the store (before the games are shown)."""
        for row in await self.store.clocks():
            self.rows[(row.table_id, row.seat)] = row
        for away in await self.store.aways():
            self.aways[away.user_id] = away

    async def start(self) -> None:
        """Once connected: re-arm every wait of this process's games from its stored row,
        and handle what fell due while the bot was down. A game's waits are brought in step
        with the game itself when it is loaded."""
        served = {table.id for table in self.manager.served()}
        for key in list(self.rows):
            if key[0] not in served:
                self.rows.pop(key, None)
            else:
                self._schedule(key)
        for user_id, away in self.aways.items():
            self.scheduler.at(("away", user_id), away.until)
        self.scheduler.start()

    def close(self) -> None:
        self.scheduler.close()

    # -- following the games ----------------------------------------------------------------
    async def changed(self, game: LiveGame) -> None:
        try:
            await self._sync(game)
        except Exception:
            log.exception("could not update the clocks of game %s", game.id)

    async def _sync(self, game: LiveGame) -> None:
        table = game.table
        keys = [(game.id, seat) for seat in range(len(table.seats))]
        if table.status is not TableStatus.ACTIVE:
            if any(key in self.rows for key in keys):
                for key in keys:
                    self.rows.pop(key, None)
                    self.armed.pop(key, None)
                    self.scheduler.at(key, None)
                await self.store.drop_clocks(game.id)
            return
        clock, every = clock_of(table), remind_every(table)
        if clock is None and every is None:
            return
        now = discord.utils.utcnow()
        awaited = {d.seat: d for d in game.decisions() if not table.seats[d.seat].ai}
        for seat, key in enumerate(keys):
            row = self.rows.get(key)
            user_id = table.seats[seat].user_id
            if row is None:
                if user_id is None:
                    continue  # an AI seat from the start keeps no clock
                reserve = RESERVE_CLOCKS * clock.total_seconds() if clock else 0.0
                row = self.rows[key] = SeatClock(game.id, seat, user_id, reserve=reserve)
                dirty = True
            else:
                dirty = False
            decision = awaited.get(seat)
            if decision is not None:
                self.armed[key] = (game.seq, decision_hash(decision))
                if row.since is None:
                    self._begin_wait(row, table, now)
                    dirty = True
            elif row.since is not None:
                self._end_wait(row, key, now)
                dirty = True
            if dirty:
                await self.store.save_clock(row)
            self._schedule(key)

    def _begin_wait(self, row: SeatClock, table: Table, now: datetime) -> None:
        from meeple_hall.bot.reminders import first_reminder

        clock = clock_of(table)
        start = now
        away = self.aways.get(row.user_id or 0)
        if away is not None and away.until > now and pauses_when_away(table):
            start = away.until
        row.since = now
        row.deadline = start + clock if clock else None
        row.reminders, row.snoozed, row.timed_out, row.stalled = 0, False, False, False
        row.next_remind = first_reminder(row, table, start)

    def _end_wait(self, row: SeatClock, key: WaitKey, now: datetime) -> None:
        if row.deadline is not None and now > row.deadline:
            row.reserve = max(0.0, row.reserve - (now - row.deadline).total_seconds())
        if not row.timed_out and key not in self._timing_out:
            row.timeouts = 0  # the player answered in time
        row.since = row.deadline = row.next_remind = None
        row.reminders, row.snoozed, row.timed_out, row.stalled = 0, False, False, False
        self.armed.pop(key, None)

    # -- a paused game (its channel gone: bot/cogs/channels.py) --------------------------------
    def _paused(self, table_id: int) -> bool:
        game = self.manager.get(table_id)
        table = game.table if game is not None else self.manager.tables.get(table_id)
        return table is not None and table.paused_at is not None

    def pause(self, game: LiveGame) -> None:
        """Nothing falls due for a paused game: no reminder, no timeout."""
        for seat in range(len(game.table.seats)):
            self.scheduler.at((game.id, seat), None)

    async def unpause(self, game: LiveGame, paused_for: timedelta) -> None:
        """The game plays on: every wait's deadline and reminder move by the time paused."""
        for seat in range(len(game.table.seats)):
            await self._move_wait((game.id, seat), paused_for)

    async def _move_wait(self, key: WaitKey, delta: timedelta) -> None:
        """A wait under way has its deadline and its next reminder `delta` later."""
        row = self.rows.get(key)
        if row is None or row.since is None:
            return
        if row.deadline is not None:
            row.deadline += delta
        if row.next_remind is not None:
            row.next_remind += delta
        await self.store.save_clock(row)
        self._schedule(key)

    # -- what is due when -------------------------------------------------------------------
    def _schedule(self, key: WaitKey) -> None:
        due = None if self._paused(key[0]) else self.next_due(self.rows.get(key))
        self.scheduler.at(key, due)

    def next_due(self, row: SeatClock | None) -> datetime | None:
        if row is None or row.since is None:
            return None
        now = discord.utils.utcnow()
        times = [row.next_remind] if row.next_remind is not None else []
        if row.timed_out:
            times.append(now)
        elif row.deadline is not None:
            if row.deadline > now:
                times.append(row.deadline)  # the seat goes on reserve: the table says so
            times.append(row.deadline + timedelta(seconds=row.reserve))
        return min(times, default=None)

    @staticmethod
    def out_of_time(row: SeatClock, now: datetime) -> bool:
        if row.deadline is None:
            return False
        return now >= row.deadline + timedelta(seconds=row.reserve)

    def on_reserve(self, row: SeatClock, now: datetime) -> bool:
        return row.deadline is not None and row.since is not None and now >= row.deadline

    async def _fire(self, keys: list[Hashable]) -> None:
        now = discord.utils.utcnow()
        reminders: list[WaitKey] = []
        for key in keys:
            try:
                if key[0] == "away":  # type: ignore[index]
                    await self.come_back(key[1], at_end=True)  # type: ignore[index]
                    continue
                wait: WaitKey = key  # type: ignore[assignment]
                game = await self.manager.fetch(wait[0])  # loaded: its waits are in step
                row = self.rows.get(wait)
                if row is None or row.since is None or game is None:
                    continue
                if row.timed_out or self.out_of_time(row, now):
                    await self._time_out(game, row)
                elif row.deadline is not None and row.deadline <= now:
                    await self._tell_display(game)  # the seat is on its reserve now
                if row.since is not None and row.next_remind and row.next_remind <= now:
                    reminders.append(wait)
            except Exception:
                log.exception("could not handle %s falling due", key)
            finally:
                if key[0] != "away":  # type: ignore[index]
                    self._schedule(key)  # type: ignore[arg-type]
        if reminders:
            await self.reminders.due(reminders, now)

    # -- timeouts ---------------------------------------------------------------------------
    async def _time_out(self, game: LiveGame, row: SeatClock) -> None:
        key = (row.table_id, row.seat)
        decision = game.decision_for(row.seat)
        seen = self.armed.get(key)
        if decision is None or seen is None or game.table.seats[row.seat].ai:
            return
        first = not row.timed_out
        policy = ts.value(game.table, "timeout")
        self._timing_out.add(key)
        try:
            if policy == "resign" and first:
                await self.manager.resign(game, row.seat, seen_seq=seen[0], seen_hash=seen[1])
            else:
                choices = await self.answer(game, row.seat)
                if choices is None:
                    raise Refusal("move.stale")
                await self.manager.submit(
                    game, row.seat, choices, user_id=None, seen_seq=seen[0], seen_hash=seen[1]
                )
        except Refusal:
            # The player's own move got in first (or the game ended): no timeout.
            self._timing_out.discard(key)
            if row.since is None and first:
                row.timeouts = 0
                await self.store.save_clock(row)
            return
        self._timing_out.discard(key)
        if not first:
            return
        row.timeouts += 1
        row.reserve = 0.0
        if row.since is not None:
            row.timed_out = True  # the AI answers the rest of this wait
        await self.store.save_clock(row)
        user = f"<@{row.user_id}>"
        if policy == "resign":
            await self.announce(game, "clock.resigned", user=user)
        elif row.timeouts >= TIMEOUTS_TO_AI and self.manager.get(game.id) is game:
            await self.manager.hand_to_ai(game, row.seat, True)
            await self.announce(game, "clock.handed_to_ai", user=user, count=row.timeouts)
        else:
            await self.announce(game, "clock.timed_out", user=user)

    async def answer(self, game: LiveGame, seat: int) -> tuple[str, ...] | None:
        """The AI's answer for a player out of time, worked out as an AI seat's move is
        (TableManager.think): at the level of a seat handed to the AI, never `random` where
        the game has a `good` player. None if the seat has nothing to decide any more."""
        level = ai.seat_level(game.table.game, game.table.seats[seat])
        thought = await self.manager.think(game, seat, level)
        return None if thought is None else thought[2]

    async def resume(self, game: LiveGame, seat: int) -> None:
        """The player takes back a seat the AI was playing after their timeouts."""
        await self.manager.hand_to_ai(game, seat, False)
        row = self.rows.get((game.id, seat))
        if row is not None:
            row.timeouts = 0
            await self.store.save_clock(row)

    # -- time away --------------------------------------------------------------------------
    def away_of(self, user_id: int | None) -> Away | None:
        away = self.aways.get(user_id or 0)
        return away if away is not None and away.until > discord.utils.utcnow() else None

    async def go_away(self, user_id: int, until: datetime) -> int:
        """Start time away until `until` (ending any under way first); the days charged."""
        from meeple_hall.bot.store.base import AwayAllowance

        now = discord.utils.utcnow()
        days = math.ceil((until - now) / DAY)
        if days < 1:
            raise Refusal("away.bad_days", most=AWAY_DAYS_A_YEAR)
        current = self.away_of(user_id)
        if current is not None:
            used = await self.store.away_days_used(user_id, now.year)
            refund = math.floor((current.until - now) / DAY)
            if used - refund + days > AWAY_DAYS_A_YEAR:
                raise Refusal("away.allowance", left=AWAY_DAYS_A_YEAR - used + refund)
            await self.come_back(user_id)
        away = Away(user_id, now, until)
        try:
            await self.store.start_away(away, year=now.year, days=days, allowance=AWAY_DAYS_A_YEAR)
        except AwayAllowance as exc:
            raise Refusal("away.allowance", left=exc.allowance - exc.used) from None
        await self._away_now(user_id, away, None, now)
        return days

    async def come_back(self, user_id: int, *, at_end: bool = False) -> int | None:
        """End the user's time away (early with `/away days:0`, or at its end); the whole
        days given back, or None if they were not away."""
        away = self.aways.pop(user_id, None)
        self.scheduler.at(("away", user_id), None)
        if away is None:
            return None
        now = discord.utils.utcnow()
        refund = 0
        if now < away.until and not at_end:
            refund = math.floor((away.until - now) / DAY)
        await self.store.end_away(user_id, year=away.since.year, refund=refund)
        await self._away_now(user_id, None, away, now if not at_end else away.until)
        return refund

    async def away_heard(self, user_id: int | None) -> None:
        """Another process changed the user's time away (None: anyone's may have changed):
        this process's tables follow what the store has now."""
        if user_id is None:
            stored = {away.user_id: away for away in await self.store.aways()}
            users = set(stored) | set(self.aways)
        else:
            stored = {user_id: away} if (away := await self.store.away(user_id)) else {}
            users = {user_id}
        now = discord.utils.utcnow()
        for user in users:
            old, new = self.aways.get(user), stored.get(user)
            if old != new:
                await self._away_now(user, new, old, now)

    async def _away_now(
        self, user_id: int, away: Away | None, old: Away | None, at: datetime
    ) -> None:
        """The user's time away changed from `old` to `away` at `at`: this process's tables
        that pause for it take back the rest of the old pause and add the new one, and every
        table of the user's here shows it."""
        if away is None:
            self.aways.pop(user_id, None)
        else:
            self.aways[user_id] = away
            at = away.since
        self.scheduler.at(("away", user_id), away.until if away is not None else None)
        delta = timedelta(0)
        if old is not None and old.until > at:
            delta -= old.until - at
        if away is not None:
            delta += away.until - away.since
        if delta:
            await self._shift(user_id, delta)
        for game in await self._games_of(user_id):
            await self._tell_display(game)

    async def _shift(self, user_id: int, delta: timedelta) -> None:
        """Move the user's deadlines and reminders on this process's tables that pause for
        time away."""
        for table in self.manager.served():
            if not pauses_when_away(table):
                continue
            for seat, s in enumerate(table.seats):
                if s.user_id == user_id:
                    await self._move_wait((table.id, seat), delta)

    async def _games_of(self, user_id: int) -> list[LiveGame]:
        """The user's games in play that this process serves (loaded for it)."""
        found = []
        for table in self.manager.served():
            if any(s.user_id == user_id for s in table.seats):
                game = await self.manager.fetch(table.id)
                if game is not None:
                    found.append(game)
        return found

    async def snoozes_heard(self, table_id: int | None) -> None:
        """A player snoozed the reminders of a table of this process's through another
        process (None: of any table): the clock kept here takes the snooze."""
        for stored in await self.store.clocks(table_id):
            row = self.rows.get((stored.table_id, stored.seat))
            if row is not None and stored.snoozed and row.since == stored.since:
                row.snoozed = True

    # -- what the table shows ------------------------------------------------------------------
    def notes(self, game: LiveGame, locale: str) -> dict[int, str]:
        """Per seat: the deadline of an awaited player (and whether they are on their
        reserve), or that the player is away until when."""
        from meeple_hall.bot.i18n import t

        now = discord.utils.utcnow()
        out: dict[int, str] = {}
        for seat, s in enumerate(game.table.seats):
            parts = []
            row = self.rows.get((game.id, seat))
            if row is not None and row.since is not None and row.deadline is not None:
                if self.on_reserve(row, now):
                    end = row.deadline + timedelta(seconds=row.reserve)
                    parts.append(t(locale, "clock.on_reserve", when=stamp(end)))
                else:
                    parts.append(t(locale, "clock.deadline", when=stamp(row.deadline)))
            away = self.away_of(s.user_id)
            if away is not None and not s.ai:
                parts.append(t(locale, "away.until_note", when=stamp(away.until, "f")))
            if parts:
                out[seat] = " · ".join(parts)
        return out

    async def _tell_display(self, game: LiveGame) -> None:
        display = getattr(self.bot, "display", None)
        if display is not None:
            await display.changed(game)

    async def announce(self, game: LiveGame, key: str, **fields: object) -> None:
        display = getattr(self.bot, "display", None)
        if display is None:
            return
        try:
            await display.announce(game, key, **fields)
        except discord.HTTPException:
            log.warning("could not tell channel of game %s about %s", game.id, key)
