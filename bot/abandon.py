"""Abandoning a game in play takes the consent of every player still seated (issue 22).

`/abandon` (the host, or someone who may manage the server) does one of three things,
worked out by `plan_for` from the table as it is:

- other players are seated: a request is posted in the channel with **Agree** and
  **Refuse** buttons for them (the asker, if seated, has agreed by asking). The game ends,
  unrated, once every player still seated has agreed; a refusal, or 24 hours passing,
  withdraws the request, and the channel is told either way.
- the asker is the only player left at a rated game: abandoning would wipe out the result
  of those who resigned before, so the asker resigns instead, and the AI plays the game
  out to its end, which counts for ratings.
- the asker is the only player left at a game that is not rated (a solo game, AI seats
  from the start, `rated=no`): it ends at once, as there is nobody to ask.

Requests are kept in the store (abandon_requests) and each one's lapse is on a scheduler
driven by `discord.utils.utcnow()` and the event loop's timers, re-armed from the store at
start, so a restart loses neither a request nor its deadline. Each process keeps the
requests of the tables it serves.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Hashable
from dataclasses import replace
from datetime import timedelta
from enum import StrEnum
from typing import TYPE_CHECKING

import discord

from meeple_hall.bot.components import AbandonVote, Components, button, clip
from meeple_hall.bot.i18n import t
from meeple_hall.bot.languages import user_locale
from meeple_hall.bot.live import LiveGame, Refusal, TableManager
from meeple_hall.bot.ratings import table_is_rated
from meeple_hall.bot.replies import refuse, say
from meeple_hall.bot.scheduler import Scheduler
from meeple_hall.bot.store import Store, Table, TableNotActive, TableStatus
from meeple_hall.bot.store.base import (
    AbandonPending,
    AbandonRequest,
    AlreadyAgreed,
    RequestClosed,
)

if TYPE_CHECKING:
    from meeple_hall.bot.display import TableDisplay

log = logging.getLogger(__name__)

LAPSE = timedelta(hours=24)  # an unanswered request is withdrawn after this
PREFIX = "ab"  # custom ids: ab:<table>:<request>:yes|no


class Plan(StrEnum):
    ASK = "abandon_ask"  # post a request to the players still seated
    RESIGN = "abandon_alone"  # the only player left at a rated game resigns instead
    END = "abandon"  # nobody else to ask and nothing rated: the game ends at once


def seated_humans(table: Table) -> list[int]:
    """The players whose seat is still theirs (not resigned), in seat order; a seat the
    AI plays for now after timeouts stays its player's."""
    return [s.user_id for s in table.seats if s.user_id is not None and not s.resigned]


def plan_for(table: Table, caller_id: int) -> Plan:
    """What `/abandon` by `caller_id` does at this table now."""
    humans = seated_humans(table)
    if answerable(table) and humans != [caller_id]:
        return Plan.ASK
    if not table_is_rated(table):
        return Plan.END
    if humans == [caller_id]:
        return Plan.RESIGN
    raise Refusal("abandon.one_player" if humans else "abandon.played_out")


def answerable(table: Table) -> bool:
    """Whether a request can still end the game by consent: a game in play with two players
    seated, or one at a game that is not rated (alone at a rated game, `plan_for` says
    resign instead)."""
    if table.status is not TableStatus.ACTIVE:
        return False
    humans = seated_humans(table)
    return len(humans) >= 2 or (len(humans) == 1 and not table_is_rated(table))


def everyone_agreed(table: Table, request: AbandonRequest) -> bool:
    return answerable(table) and all(user in request.agreed for user in seated_humans(table))


def message_link(table: Table, message_id: int | None) -> str:
    guild = table.guild_id or "@me"
    return f"https://discord.com/channels/{guild}/{table.channel_id}/{message_id or ''}".rstrip("/")


def mentions(user_ids: list[int]) -> str:
    return ", ".join(f"<@{user}>" for user in user_ids) or "—"


class AbandonRequests:
    """The open requests of the tables this process serves: asking, votes and lapses."""

    def __init__(
        self,
        bot: discord.Client,
        store: Store,
        manager: TableManager,
        display: TableDisplay,
    ) -> None:
        self.bot = bot
        self.store = store
        self.manager = manager
        self.display = display
        self.open: dict[int, AbandonRequest] = {}  # by table id
        self.scheduler = Scheduler(self._lapse)
        self._started = False
        manager.listeners.append(self.changed)

    # -- start and stop -------------------------------------------------------------------
    async def start(self) -> None:
        """Once connected: re-arm the open requests of this process's tables; one whose game
        ended while the bot was down is closed, one that lapsed meanwhile lapses now."""
        if self._started:
            return
        self._started = True
        for request in await self.store.abandon_requests():
            table = await self.store.get_table(request.table_id)
            if table is None or not self.manager.serves(table):
                continue
            if table.status is TableStatus.ACTIVE:
                self._track(request)
            else:
                await self._close(request, table, "closed")
        self.scheduler.start()

    def close(self) -> None:
        self.scheduler.close()

    def link(self, table_id: int, request: AbandonRequest | None = None) -> str:
        """Where the table's open request (or `request`) is in its channel."""
        request = request or self.open.get(table_id)
        game = self.manager.get(table_id)
        if request is None or game is None:
            return ""
        return message_link(game.table, request.message_id)

    def _track(self, request: AbandonRequest) -> None:
        self.open[request.table_id] = request
        self.scheduler.at(request.id, request.expires_at)

    def _forget(self, request: AbandonRequest) -> None:
        if self.open.get(request.table_id, request).id == request.id:
            self.open.pop(request.table_id, None)
        self.scheduler.at(request.id, None)

    # -- asking -----------------------------------------------------------------------------
    async def ask(self, game: LiveGame, caller_id: int) -> AbandonRequest:
        """Post a request to the players still seated (the caller, if seated, agrees)."""
        humans = seated_humans(game.table)
        agreed = [caller_id] if caller_id in humans else []
        expires = discord.utils.utcnow() + LAPSE
        try:
            request = await self.store.open_abandon_request(game.id, caller_id, agreed, expires)
        except AbandonPending as pending:
            link = message_link(game.table, pending.request.message_id)
            raise Refusal("abandon.pending", link=link) from None
        except TableNotActive:
            raise Refusal("game.over") from None
        self._track(request)
        waiting = [user for user in humans if user not in agreed]
        try:
            channel = await self.display.channel(game.table)
            message = await channel.send(
                self._text(game.table, request),
                view=self._buttons(game.table, request),
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(user) for user in waiting]
                ),
            )
        except discord.HTTPException:
            await self.store.close_abandon_request(request.id, "closed")
            self._forget(request)
            raise
        await self.store.set_abandon_message(request.id, message.id)
        request = replace(request, message_id=message.id)
        self.open[game.id] = request
        return request

    def _text(self, table: Table, request: AbandonRequest) -> str:
        locale = self.display.locale(table)
        waiting = [user for user in seated_humans(table) if user not in request.agreed]
        lines = [
            t(
                locale,
                "abandon_request.asked",
                user=f"<@{request.requested_by}>",
                when=f"<t:{int(request.expires_at.timestamp())}:R>",
            ),
            t(locale, "abandon_request.agreed", players=mentions(list(request.agreed))),
            t(locale, "abandon_request.waiting", players=mentions(waiting)),
        ]
        return clip("\n".join(lines), 2000)

    def _buttons(self, table: Table, request: AbandonRequest) -> Components:
        locale = self.display.locale(table)
        view = Components()
        base = f"{PREFIX}:{table.id}:{request.id}"
        view.add_item(
            button(
                f"{base}:yes",
                t(locale, "abandon_request.agree"),
                style=discord.ButtonStyle.danger,
            )
        )
        view.add_item(button(f"{base}:no", t(locale, "abandon_request.refuse")))
        return view

    # -- votes ------------------------------------------------------------------------------
    async def on_vote(self, interaction: discord.Interaction, click: AbandonVote) -> None:
        try:
            table_id, request_id = click.number("table"), click.number("request")
            agree = click.text("answer") == "yes"
            if self.manager.get(table_id) is None:
                # The game is read from the store on this first use: acknowledged first.
                await interaction.response.defer(ephemeral=True, thinking=True)
            game = await self.manager.fetch(table_id)
            if game is None:
                raise Refusal("game.over")
            request = self._open_request(game, request_id)
            self._check_voter(game, interaction.user.id)
            if agree:
                await self._agree(interaction, game, request)
            else:
                await self._refuse(interaction, game, request)
        except Refusal as refusal:
            await refuse(interaction, refusal)

    def _open_request(self, game: LiveGame, request_id: int) -> AbandonRequest:
        request = self.open.get(game.id)
        if request is None or request.id != request_id:
            raise Refusal("abandon_request.stale")
        return request

    @staticmethod
    def _check_voter(game: LiveGame, user_id: int) -> None:
        seat = game.seat_of(user_id)
        if seat is None:
            raise Refusal("abandon_request.not_seated")
        if game.table.seats[seat].resigned:
            raise Refusal("abandon_request.resigned")

    async def _agree(
        self, interaction: discord.Interaction, game: LiveGame, request: AbandonRequest
    ) -> None:
        user = interaction.user.id
        try:
            request = await self.store.agree_to_abandon(request.id, user)
        except AlreadyAgreed:
            raise Refusal("abandon_request.already_agreed") from None
        except RequestClosed:
            raise Refusal("abandon_request.stale") from None
        self.open[game.id] = request
        locale = user_locale(interaction)
        if everyone_agreed(game.table, request):
            if not interaction.response.is_done():  # the game ends before the answer
                await interaction.response.defer(ephemeral=True, thinking=True)
            if not await self._end(game, request):
                raise Refusal("abandon_request.stale")
            await say(interaction, t(locale, "abandon_request.you_agreed_last"))
            return
        await say(interaction, t(locale, "abandon_request.you_agreed"))
        await self._edit(game.table, request, self._text(game.table, request), keep_buttons=True)

    async def _refuse(
        self, interaction: discord.Interaction, game: LiveGame, request: AbandonRequest
    ) -> None:
        """A refusal withdraws the request; so does its asker's own click on Refuse. Someone
        who agreed already cannot take it back."""
        user = interaction.user.id
        if user in request.agreed and user != request.requested_by:
            raise Refusal("abandon_request.already_agreed")
        closed = await self.store.close_abandon_request(request.id, "refused")
        if closed is None:
            raise Refusal("abandon_request.stale")
        self._forget(closed)
        locale = user_locale(interaction)
        await say(interaction, t(locale, "abandon_request.you_refused"))
        key = "withdrawn" if user == request.requested_by else "refused"
        await self._conclude(game.table, closed, f"abandon_request.{key}", user=f"<@{user}>")

    # -- how a request ends -----------------------------------------------------------------
    async def _end(self, game: LiveGame, request: AbandonRequest) -> bool:
        """Everyone agreed: the request is closed first (a refusal racing it loses or wins
        in the store), then the game is abandoned. False if the request was closed already."""
        closed = await self.store.close_abandon_request(request.id, "agreed")
        if closed is None:
            return False
        self._forget(closed)
        with contextlib.suppress(Refusal):  # ended meanwhile: nothing left to abandon
            await self.manager.abandon(game)
        await self._conclude(game.table, closed, "abandon_request.ended")
        return True

    async def changed(self, game: LiveGame) -> None:
        """A TableManager listener: a request whose game ended otherwise, or that resigning
        players left unanswerable, is closed; one that every player still seated has agreed
        to (a holdout resigned) ends the game."""
        request = self.open.get(game.id)
        if request is None:
            return
        try:
            if not answerable(game.table):
                await self._close(request, game.table, "closed")
            elif everyone_agreed(game.table, request):
                await self._end(game, request)
        except Exception:
            log.exception("could not follow the request to abandon game %s", game.id)

    async def _lapse(self, keys: list[Hashable]) -> None:
        for key in keys:
            request = next((r for r in self.open.values() if r.id == key), None)
            if request is None:
                continue
            closed = await self.store.close_abandon_request(request.id, "lapsed")
            self._forget(request)
            if closed is None:
                continue
            table = await self.store.get_table(request.table_id)
            if table is not None:
                await self._conclude(table, closed, "abandon_request.lapsed")

    async def _close(self, request: AbandonRequest, table: Table, status: str) -> None:
        """Close a request quietly (its game is over, or it can no longer end it): its
        buttons go."""
        closed = await self.store.close_abandon_request(request.id, status)
        self._forget(request)
        if closed is not None:
            text = t(self.display.locale(table), "abandon_request.closed")
            await self._edit(table, closed, text, keep_buttons=False)

    async def _conclude(
        self, table: Table, request: AbandonRequest, key: str, **fields: object
    ) -> None:
        """The request message loses its buttons and says how it ended; the channel is
        told in a message of its own."""
        text = t(self.display.locale(table), key, **fields)
        await self._edit(table, request, text, keep_buttons=False)
        try:
            channel = await self.display.channel(table)
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("could not tell the channel of game %s about %s", table.id, key)

    async def _edit(
        self, table: Table, request: AbandonRequest, text: str, *, keep_buttons: bool
    ) -> None:
        if request.message_id is None:
            return
        view = self._buttons(table, request) if keep_buttons else None
        try:
            channel = await self.display.channel(table)
            message = channel.get_partial_message(request.message_id)  # type: ignore[attr-defined]
            await message.edit(
                content=text, view=view, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException:
            log.warning("could not update the request to abandon game %s", table.id)
