"""Reminders: a DM to an awaited player, with a jump link and a Snooze button.

With a clock: when half the time has gone and when 10 % remains. Without one: after the
table's `remind` interval of waiting, then every interval; after ten of those unanswered the
channel is told the game has stalled, and the host may hand the seat to the AI.

Reminders due in a player's quiet hours wait until they end. Everything due for one player
at once goes in one message, a line and a link per table: when one reminder falls due, the
player's other reminders due within the hour come with it.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import discord

from meeple_hall.bot.components import Components, SnoozeButton, StallButton, button, clip
from meeple_hall.bot.delivery import LATER, retried, transient
from meeple_hall.bot.i18n import game_name, game_text, t
from meeple_hall.bot.languages import user_locale
from meeple_hall.bot.live import LiveGame, Refusal
from meeple_hall.bot.quiet import quiet_until
from meeple_hall.bot.replies import can_manage, refuse, say
from meeple_hall.bot.store.base import SeatClock, Store, Table, UserPrefs

if TYPE_CHECKING:
    from meeple_hall.bot.clocks import ClockService, WaitKey

log = logging.getLogger(__name__)

STALL_AFTER = 10  # reminders without an answer before the channel is told
BURST = timedelta(hours=1)  # reminders this close together go out as one message
CLOCK_POINTS = (0.5, 0.1)  # reminders when these shares of the clock remain
PROMPT_MOST = 80  # characters of a decision's prompt a reminder line shows


def first_reminder(row: SeatClock, table: Table, start: datetime) -> datetime | None:
    """When the first reminder of a wait starting (for its clock) at `start` is due."""
    from meeple_hall.bot.clocks import clock_of, remind_every

    every, clock = remind_every(table), clock_of(table)
    if every is None:
        return None
    if clock is not None and row.deadline is not None:
        return row.deadline - clock * CLOCK_POINTS[0]
    return start + every


def advance(row: SeatClock, table: Table, now: datetime) -> None:
    """Count the reminders due by `now` and set when the next one is due."""
    from meeple_hall.bot.clocks import clock_of, remind_every

    every, clock = remind_every(table), clock_of(table)
    if every is None or row.next_remind is None:
        row.next_remind = None
        return
    if clock is not None and row.deadline is not None:
        points = [row.deadline - clock * share for share in CLOCK_POINTS]
        row.reminders = max(row.reminders + 1, sum(1 for p in points if p <= now))
        later = [p for p in points[row.reminders :] if p > now]
        row.next_remind = later[0] if later else None
        return
    passed = 1 + max(0, int((now - row.next_remind) / every))
    row.reminders += passed
    row.next_remind += every * passed


def reminder_prompt(locale: str, game: LiveGame, seat: int) -> str:
    """The seat's decision as a reminder line shows it: rendered in the reader's language,
    then clipped."""
    decision = game.decision_for(seat)
    return clip(game_text(locale, decision.prompt), PROMPT_MOST) if decision else ""


def jump_link(table: Table) -> str:
    place = table.guild_id if table.guild_id is not None else "@me"
    link = f"https://discord.com/channels/{place}/{table.channel_id}"
    return f"{link}/{table.table_message_id}" if table.table_message_id else link


class Reminders:
    def __init__(self, bot: discord.Client, store: Store, clocks: ClockService) -> None:
        self.bot = bot
        self.store = store
        self.clocks = clocks

    async def due(self, keys: list[WaitKey], now: datetime) -> None:
        """Send what fell due, one message per player (with their reminders of the next
        hour), after quiet hours for those in them."""
        by_user: dict[int, set[WaitKey]] = defaultdict(set)
        for key in keys:
            row = self.clocks.rows.get(key)
            if row is not None and row.user_id is not None:
                by_user[row.user_id].add(key)
        for user_id, wanted in by_user.items():
            try:
                await self._remind(user_id, wanted, now)
            except Exception:
                log.exception("could not remind user %s", user_id)

    async def _remind(self, user_id: int, due: set[WaitKey], now: datetime) -> None:
        prefs = await self.store.get_prefs(user_id)
        quiet_end = quiet_until(prefs, now)
        soon = {
            key
            for key, row in self.clocks.rows.items()
            if row.user_id == user_id
            and row.since is not None
            and row.next_remind is not None
            and row.next_remind <= now + BURST
        }
        counted: list[tuple[LiveGame, SeatClock]] = []
        for key in sorted(due | soon):
            row = self.clocks.rows[key]
            game = await self.clocks.manager.fetch(key[0])
            if game is None or row.since is None or row.next_remind is None:
                continue
            if quiet_end is not None:
                row.next_remind = max(row.next_remind, quiet_end)  # wait for quiet hours to end
            else:
                advance(row, game.table, now)
                counted.append((game, row))
            await self.store.save_clock(row)
            self.clocks._schedule(key)
        items = [(game, row) for game, row in counted if not row.snoozed and not row.timed_out]
        if items and prefs.turn_dms and not prefs.dms_closed:
            try:
                await self._send(prefs, items)
            except Exception as exc:
                if not transient(exc):
                    raise
                await self._send_later(items, now)
        # A snoozed reminder still counts: the table waits all the same.
        for game, row in counted:
            if row.deadline is None and row.reminders >= STALL_AFTER and not row.stalled:
                row.stalled = True
                await self.store.save_clock(row)
                await self._announce_stall(game, row)

    async def _send(self, prefs: UserPrefs, items: list[tuple[LiveGame, SeatClock]]) -> None:
        from meeple_hall.bot.clocks import stamp

        lang = self._dm_locale(prefs, items[0][0].table)
        lines = [t(lang, "remind.title", count=len(items))]
        view = Components()
        for game, row in items:
            table = game.table
            name = game_name(lang, table.game)
            prompt = reminder_prompt(lang, game, row.seat)
            when = self.clocks_end(row) if row.deadline is not None else row.since
            key = "remind.line_deadline" if row.deadline is not None else "remind.line_waiting"
            lines.append(
                t(
                    lang,
                    key,
                    game=name,
                    channel=table.channel_id,
                    prompt=prompt,
                    when=stamp(when) if when else "",
                    link=jump_link(table),
                )
            )
            if len(view.children) < 25:
                since = int(row.since.timestamp()) if row.since else 0
                view.add_item(
                    button(
                        f"z:{table.id}:{row.seat}:{since}",
                        t(lang, "remind.snooze", game=name, table=table.id),
                        emoji="💤",
                    )
                )
        text = clip("\n".join(lines), 2000)

        async def send() -> None:
            user = self.bot.get_user(prefs.user_id) or await self.bot.fetch_user(prefs.user_id)
            await user.send(text, view=view)

        try:
            await retried(send, f"a reminder to user {prefs.user_id}")
        except discord.Forbidden as exc:
            if exc.code != 50007:
                raise
            prefs.dms_closed = True
            await self.store.set_prefs(prefs)

    async def _send_later(self, items: list[tuple[LiveGame, SeatClock]], now: datetime) -> None:
        """Discord would not take the reminder: it is not counted, and falls due again soon."""
        for _, row in items:
            row.reminders = max(0, row.reminders - 1)
            row.next_remind = now + LATER[0]
            await self.store.save_clock(row)
            self.clocks._schedule((row.table_id, row.seat))
        log.warning("a reminder to user %s is sent again later", items[0][1].user_id)

    def clocks_end(self, row: SeatClock) -> datetime | None:
        if row.deadline is None:
            return None
        return row.deadline + timedelta(seconds=row.reserve)

    def _dm_locale(self, prefs: UserPrefs, table: Table) -> str:
        """A DM follows the user's language, the same rule as every other DM."""
        display = getattr(self.bot, "display", None)
        return display.dm_locale(prefs, table) if display is not None else "en"

    # -- Snooze ----------------------------------------------------------------------------
    async def on_snooze(self, interaction: discord.Interaction, click: SnoozeButton) -> None:
        locale = user_locale(interaction)
        table_id, seat, since = (click.number(n) for n in ("table", "seat", "since"))
        # Through the store: a DM's button reaches shard 0, which may not be the process
        # keeping this table's clocks (that one hears of it: ClockService.snoozes_heard).
        if not await self.store.snooze_clock(table_id, seat, interaction.user.id, since):
            await say(interaction, t(locale, "remind.snooze_gone"))
            return
        row = self.clocks.rows.get((table_id, seat))
        if row is not None and row.since is not None and int(row.since.timestamp()) == since:
            row.snoozed = True
        await say(interaction, t(locale, "remind.snoozed", table=table_id))

    # -- a stalled game ----------------------------------------------------------------------
    async def _announce_stall(self, game: LiveGame, row: SeatClock) -> None:
        display = getattr(self.bot, "display", None)
        if display is None:
            return
        table = game.table
        lang = display.locale(table)
        view = Components()
        view.add_item(
            button(
                f"w:ai:{table.id}:{row.seat}:{row.user_id}",
                t(lang, "stall.replace", name=table.seats[row.seat].name),
                emoji="🤖",
                style=discord.ButtonStyle.danger,
            )
        )
        channel = await display.channel(table)
        await channel.send(
            t(lang, "stall.announce", user=f"<@{row.user_id}>", count=row.reminders),
            view=view,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def on_stall_button(self, interaction: discord.Interaction, click: StallButton) -> None:
        try:
            table_id, seat, user_id = (click.number(n) for n in ("table", "seat", "user"))
            game = await self.clocks.manager.fetch(table_id)
            if game is None:
                raise Refusal("game.over")
            if not can_manage(interaction, game.table.host_id):
                raise Refusal("lobby.host_only")
            current = game.table.seats[seat]
            if current.user_id != user_id or current.ai:
                raise Refusal("stall.already")
            await self.clocks.manager.hand_to_ai(game, seat, True)
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return
        await interaction.response.edit_message(view=None)
        await self.clocks.announce(game, "stall.replaced", user=f"<@{user_id}>")
