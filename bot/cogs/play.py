"""Play: the table's buttons, decision panels, `/move`, `/board`, `/hand`, `/log`,
`/resign` and `/abandon`.

Every way of moving goes through `TableManager.submit`, which checks the seat, the
decision and the move number the panel was built for.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from meeple_hall import games
from meeple_hall.bot import presenters, render
from meeple_hall.bot.abandon import AbandonRequests, Plan, mentions, plan_for, seated_humans
from meeple_hall.bot.components import (
    Components,
    ConfirmButton,
    PanelControl,
    TableButton,
    button,
    clip,
)
from meeple_hall.bot.display import TableDisplay, log_text, status_line
from meeple_hall.bot.focus import check as focus_of
from meeple_hall.bot.focus import choices as focus_choices
from meeple_hall.bot.focus import label as focus_label
from meeple_hall.bot.i18n import cmd, desc, game_name, game_text, t
from meeple_hall.bot.languages import server_locale, user_locale
from meeple_hall.bot.live import TableManager
from meeple_hall.bot.live_game import LiveGame
from meeple_hall.bot.moves import MoveStream, complete
from meeple_hall.bot.panels import (
    PICK_SEP,
    PanelRef,
    build_panel,
    chosen_text,
    known_lines,
    menu_option_ids,
    picked_in_message,
    resolve_chain,
    uses_confirm,
)
from meeple_hall.bot.ratings import table_is_rated
from meeple_hall.bot.refusals import (
    AbandonChanged,
    AbandonPending,
    EmptyMove,
    GameOver,
    HostOnly,
    NoGameHere,
    NotSeated,
    NotYourTurn,
    Refusal,
    Resigned,
    Stale,
    UnknownComponent,
)
from meeple_hall.bot.render import TablePictures
from meeple_hall.bot.replies import (
    MESSAGE_MAX,
    below_table,
    can_manage,
    refusal_text,
    refuse,
    reply_to_done,
    say,
)
from meeple_hall.bot.store import Store, TableStatus
from meeple_hall.bot.undo import offer_undo
from meeple_hall.games.core.contract import LOG_SHOWN

log = logging.getLogger(__name__)

# A move waits on the table's lock (another move or an AI's being applied) and on the
# database (another process's transaction); Discord wants an answer within 3 s. A panel's
# move click is acknowledged before anything is worked out. A typed `/move` that meets a
# held lock is acknowledged first; any other is answered in one go if its move is in
# within ACK_WITHIN seconds, and acknowledged then if not.
ACK_WITHIN = 1.5
# A panel that ends while AI seats are to move goes on to the seat's next decision if the
# turn comes back to it: its answer waits up to AI_AT_ONCE seconds for the AI seats' moves
# (the `good` AI answers in under 50 ms), then says it is waiting and turns into the next
# decision if that comes within AI_FOLLOWED_FOR seconds (a `strong` AI thinks about 2 s a
# turn). Later, the table's mention and the turn DM tell the player as ever.
AI_AT_ONCE = 0.5
AI_FOLLOWED_FOR = 30.0

T = TypeVar("T")


async def acknowledged(interaction: discord.Interaction, work: Awaitable[T], *, wait: bool) -> T:
    """`work`'s result, with the interaction deferred first if `wait` (a wait is certain) or
    once `work` has taken ACK_WITHIN seconds; the answer then edits or follows up."""
    task = asyncio.ensure_future(work)
    if not wait:
        done, _ = await asyncio.wait({task}, timeout=ACK_WITHIN)
        if done:
            return task.result()
    if not interaction.response.is_done():
        if interaction.type is discord.InteractionType.component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
    return await task


class Play(commands.Cog):
    def __init__(
        self, bot: commands.Bot, store: Store, manager: TableManager, display: TableDisplay
    ) -> None:
        self.bot = bot
        self.store = store
        self.manager = manager
        self.display = display
        self.abandons = AbandonRequests(bot, store, manager, display)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        await self.abandons.start()

    async def cog_unload(self) -> None:
        self.abandons.close()

    # -- finding the game and the caller's seat ---------------------------------------
    async def game_here(self, interaction: discord.Interaction) -> LiveGame:
        game = await self.manager.fetch_in(interaction.channel_id or 0)
        if game is None:
            raise NoGameHere()
        return game

    async def game_by_id(self, table_id: int) -> LiveGame:
        game = await self.manager.fetch(table_id)
        if game is None:
            raise GameOver()
        return game

    @staticmethod
    def seat(game: LiveGame, interaction: discord.Interaction) -> int:
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            raise NotSeated()
        if game.table.seats[seat].resigned:
            raise Resigned()
        return seat

    @staticmethod
    def own_decision(game: LiveGame, seat: int) -> games.Decision:
        decision = game.decision_for(seat)
        if decision is None:
            raise NotYourTurn()
        return decision

    # -- the table message's buttons ---------------------------------------------------
    async def on_table_button(self, interaction: discord.Interaction, click: TableButton) -> None:
        table_id, verb = click.number("table"), click.text("verb")
        show = {"take": self.open_panel, "hand": self.show_hand, "log": self.show_log}[verb]
        try:
            if verb == "take" and self.manager.get(table_id) is None:
                # The game is read from the store on this first use: acknowledged first.
                await interaction.response.defer(ephemeral=True, thinking=True)
            await show(interaction, await self.game_by_id(table_id))
        except Refusal as refusal:
            await refuse(interaction, refusal)

    async def open_panel(self, interaction: discord.Interaction, game: LiveGame) -> None:
        seat = self.seat(game, interaction)
        decision = self.own_decision(game, seat)
        if known_lines(game, seat, decision) is None and not interaction.response.is_done():
            # Working out the panel tries every option: the click is acknowledged first.
            await interaction.response.defer(ephemeral=True, thinking=True)
            decision = self.own_decision(game, seat)  # the game may have moved on meanwhile
        picture = draw_decision(game, seat, decision, self.display.pictures)
        content, view = build_panel(game, seat, decision, user_locale(interaction))
        if interaction.response.is_done():
            await interaction.edit_original_response(content=content, view=view)
        else:
            await interaction.response.send_message(content, view=view, ephemeral=True)
        below_table(interaction)
        await attach_picture(interaction.edit_original_response, game, picture)

    async def show_hand(self, interaction: discord.Interaction, game: LiveGame) -> None:
        seat = self.seat(game, interaction)
        view = game.view(seat)
        locale = user_locale(interaction)
        text = game_text(locale, presenters.private_text(game.table.game, view)).strip()
        png = await self.display.pictures.own(game.id, seat, game.table.game, view)
        extra = {"file": render.as_file(png, render.PRIVATE_FILENAME)} if png else {}
        await say(interaction, clip(text or t(locale, "hand.empty"), 2000), **extra)

    async def show_log(self, interaction: discord.Interaction, game: LiveGame) -> None:
        locale = user_locale(interaction)  # an ephemeral reply: in the reader's language
        entries = await self.store.actions(game.id, after=max(0, game.seq - LOG_SHOWN))
        await say(interaction, log_text(game, entries, locale))

    # -- panels ----------------------------------------------------------------------------
    async def on_panel(self, interaction: discord.Interaction, click: PanelControl) -> None:
        ref = PanelRef(click.number("table"), click.number("seq"), click.text("decision"))
        try:
            if self.manager.get(ref.table_id) is None:
                # The game is read from the store on this first use: acknowledged first.
                await interaction.response.defer()
            game = await self.game_by_id(ref.table_id)
            seat = self.seat(game, interaction)
            decision = self.own_decision(game, seat)
            if click.has("page"):
                await self._edit_panel(interaction, game, seat, page=click.number("page"))
            elif click.has("menu") and uses_confirm(decision):
                page = click.number("menu_page")
                menu_ids = menu_option_ids(decision, page, click.number("menu"))
                kept = picked_in_message(interaction.message) - menu_ids
                picked = kept | (frozenset(click.values) & menu_ids)
                await self._edit_panel(interaction, game, seat, page=page, picked=picked)
            else:
                steps = self._moves_clicked(game, seat, decision, click, interaction)
                self.manager.check_move(game, seat, steps[0], ref.seq, ref.dhash)
                if not interaction.response.is_done():
                    # The engine, the store and the next panel come after the answer.
                    await interaction.response.defer()
                await self._choose(interaction, game, seat, ref, *steps)
        except Refusal as refusal:
            await self._answer_refusal(interaction, ref.table_id, refusal)

    @staticmethod
    def _moves_clicked(
        game: LiveGame,
        seat: int,
        decision: games.Decision,
        click: PanelControl,
        interaction: discord.Interaction,
    ) -> tuple[tuple[str, ...], ...]:
        """The moves a panel click makes: an option's button or menu line (a chain of
        them where folded), several picks from one menu, or Confirm of the picks kept."""
        if click.has("option"):
            part = click.text("option")
        elif (
            click.has("menu")
            and len(click.values) == 1
            and (
                decision.max_choices == 1 or PICK_SEP in click.values[0]  # a line of a set
            )
        ):
            part = click.values[0]
        elif click.has("menu"):
            return (tuple(click.values),)
        else:  # Confirm, or Choose none
            return (tuple(sorted(picked_in_message(interaction.message))),)
        lines = known_lines(game, seat, decision)
        steps = resolve_chain(game.engine, game.state, seat, decision, part, lines)
        if steps is None:
            raise Stale()
        return steps

    async def _choose(
        self,
        interaction: discord.Interaction,
        game: LiveGame,
        seat: int,
        ref: PanelRef,
        *steps: tuple[str, ...],
    ) -> None:
        """Answer the seat's decision, and with a chained line the decisions after it (as
        consecutive moves, all or none)."""
        locale = user_locale(interaction)
        decision = game.decision_for(seat)
        lines = known_lines(game, seat, decision) if decision is not None else None
        chosen = chosen_text(game.table.game, game.engine, game.state, seat, steps, lines, locale)
        following = await self.manager.submit_chain(  # the click was acknowledged already
            game,
            seat,
            steps,
            user_id=interaction.user.id,
            seen_seq=ref.seq,
            seen_hash=ref.dhash,
            folded=presenters.folded_kinds(game.table.game),
        )
        done = t(locale, "panel.done", choice=chosen)
        if following is None:
            following = await self._after_ai(game, seat, AI_AT_ONCE)
        await self._show_next(interaction, game, seat, following, done)
        if following is None:  # re-checked once the AI seats still thinking have moved
            following = await self._after_ai(game, seat, AI_FOLLOWED_FOR)
            if following is not None:
                await self._show_next(interaction, game, seat, following, done)

    async def _after_ai(self, game: LiveGame, seat: int, within: float) -> games.Decision | None:
        """The seat's next decision once the AI seats have made the moves due now (waiting
        for them at most `within` seconds)."""
        thinking = self.manager.ai.tasks.get(game.id)
        if thinking is not None:
            await asyncio.wait({thinking}, timeout=within)
        active = game.table.status is TableStatus.ACTIVE
        return game.decision_for(seat) if active else None

    async def _show_next(
        self,
        interaction: discord.Interaction,
        game: LiveGame,
        seat: int,
        following: games.Decision | None,
        done: str,
    ) -> None:
        """The clicked panel after its move: the seat's next decision (its picture added once
        drawn, the last one's dropped meanwhile), or that it waits (with no picture)."""
        locale = user_locale(interaction)
        view: Components | None
        picture: asyncio.Future[DrawnPicture] | None = None
        if following is not None:
            picture = draw_decision(game, seat, following, self.display.pictures)
            content, panel = build_panel(game, seat, following, locale, notice=done)
            view = await offer_undo(self.manager, game, seat, locale, panel)
        else:
            content = done + "\n" + t(locale, "panel.waiting")
            view = await offer_undo(self.manager, game, seat, locale)
        editors: list[PanelEditor] = []

        async def show() -> None:
            editors.append(await show_panel(interaction, content, view, attachments=[]))

        await reply_to_done(interaction, show, done)
        if picture is not None and editors:
            await attach_picture(editors[0], game, picture)

    async def _edit_panel(
        self,
        interaction: discord.Interaction,
        game: LiveGame,
        seat: int,
        *,
        page: int = 0,
        picked: frozenset[str] = frozenset(),
        notice: str | None = None,
        redraw: bool = False,
    ) -> None:
        """The panel's decision again, at another page or with other picks (its picture
        kept: the part shown is the same), or `redraw`n once the game has moved on."""
        decision = self.own_decision(game, seat)
        picture = draw_decision(game, seat, decision, self.display.pictures) if redraw else None
        content, view = build_panel(
            game, seat, decision, user_locale(interaction), page=page, picked=picked, notice=notice
        )
        if picture is None:
            await show_panel(interaction, content, view)
            return
        edit = await show_panel(interaction, content, view, attachments=[])
        await attach_picture(edit, game, picture)

    async def _answer_refusal(
        self, interaction: discord.Interaction, table_id: int, refusal: Refusal
    ) -> None:
        """A stale panel is replaced by the current one; other refusals are explained."""
        game = self.manager.get(table_id)
        seat = game.seat_of(interaction.user.id) if game else None
        if isinstance(refusal, Stale) and game and seat is not None and game.decision_for(seat):
            notice = "⚠️ " + t(user_locale(interaction), "move.stale_refreshed")
            await self._edit_panel(interaction, game, seat, notice=notice, redraw=True)
            return
        await refuse(interaction, refusal)

    # -- commands --------------------------------------------------------------------------
    @app_commands.command(name=cmd("move"), description=desc("move"))
    @app_commands.rename(text=cmd("text"))
    @app_commands.describe(text=desc("move.text"))
    @app_commands.guild_only()
    async def move(self, interaction: discord.Interaction, text: str) -> None:
        locale = user_locale(interaction)
        done: list[str] = []
        try:
            game = await self.game_here(interaction)
            seat = self.seat(game, interaction)
            self.own_decision(game, seat)
            stream = MoveStream(text)
            if not stream:
                raise EmptyMove()
            while stream:
                choices = stream.take(self.own_decision(game, seat))
                await acknowledged(
                    interaction,
                    self.manager.submit(game, seat, choices, user_id=interaction.user.id),
                    wait=game.lock.locked(),
                )
                done.append(" ".join(choices))
        except Refusal as refusal:
            prefix = t(locale, "move.partial", done=" ".join(done)) + "\n" if done else ""
            await say(interaction, prefix + refusal_text(locale, refusal))
            return
        following = game.decision_for(seat) if game.table.status.value == "active" else None
        note = t(locale, "move.applied", moves=" ".join(done))
        view: Components | None
        picture: asyncio.Future[DrawnPicture] | None = None
        if following is not None:  # the reply is that decision's panel, pictured once drawn
            picture = draw_decision(game, seat, following, self.display.pictures)
            content, panel = build_panel(game, seat, following, locale, notice=note)
            view = await offer_undo(self.manager, game, seat, locale, panel)
        else:
            content, view = note, await offer_undo(self.manager, game, seat, locale)
        editors: list[PanelEditor] = []

        async def show() -> None:
            editors.append(await show_panel(interaction, clip(content, MESSAGE_MAX), view))

        await reply_to_done(interaction, show, note)
        if picture is not None and editors:
            await attach_picture(editors[0], game, picture)

    @move.autocomplete("text")
    async def _move_completions(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game = await self.manager.fetch_in(interaction.channel_id or 0)
        seat = game.seat_of(interaction.user.id) if game else None
        if game is None or seat is None:
            return []
        return [
            app_commands.Choice(name=clip(c.name, 100), value=clip(c.value, 100))
            for c in complete(game.engine, game.state, seat, current, user_locale(interaction))
        ]

    @app_commands.command(name=cmd("board"), description=desc("board"))
    @app_commands.rename(focus=cmd("focus"))
    @app_commands.describe(focus=desc("board.focus"))
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction, focus: str | None = None) -> None:
        try:
            game = await self.game_here(interaction)
            part = focus_of(game, focus, user_locale(interaction)) if focus else None
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return
        await interaction.response.defer(thinking=True)
        seq, view = game.seq, game.view(None)
        locale = server_locale(interaction)
        name = game_name(locale, game.table.game)
        caption = f"**{name}** · {status_line(view, locale)}".rstrip(" ·")
        pictures = self.display.pictures
        png = await pictures.focus(game.id, game.table.game, view, part) if part else None
        if png is not None and part is not None:
            caption = f"{caption}\n{focus_label(game, part, locale)}"
        else:  # the whole table (also if the part went away since it was chosen)
            png = await self.display.pictures.png(game.id, seq, game.table.game, view)
        await interaction.followup.send(caption, file=render.as_file(png))

    @board.autocomplete("focus")
    async def _focus_completions(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game = await self.manager.fetch_in(interaction.channel_id or 0)
        return focus_choices(game, current, user_locale(interaction)) if game else []

    @app_commands.command(name=cmd("hand"), description=desc("hand"))
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction) -> None:
        try:
            await self.show_hand(interaction, await self.game_here(interaction))
        except Refusal as refusal:
            await refuse(interaction, refusal)

    @app_commands.command(name=cmd("log"), description=desc("log"))
    @app_commands.guild_only()
    async def log_command(self, interaction: discord.Interaction) -> None:
        try:
            await self.show_log(interaction, await self.game_here(interaction))
        except Refusal as refusal:
            await refuse(interaction, refusal)

    @app_commands.command(name=cmd("resign"), description=desc("resign"))
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction) -> None:
        await self._ask(interaction, "resign")

    @app_commands.command(name=cmd("abandon"), description=desc("abandon"))
    @app_commands.guild_only()
    async def abandon(self, interaction: discord.Interaction) -> None:
        await self._ask(interaction, "abandon")

    # -- resign and abandon: asked first, done on "yes" ----------------------------------
    # An abandon is one of bot/abandon.py's plans (ask the players, resign instead, end
    # now), each confirmed with its own words and done only if it is still the plan.
    CONFIRMED = ("resign", *(plan.value for plan in Plan))

    def _may(
        self,
        interaction: discord.Interaction,
        game: LiveGame,
        verb: str,
        *,
        confirmed: bool = False,
    ) -> str:
        """The verb to confirm: `/abandon` becomes its plan for this table and caller; a
        confirmed abandon must still be the plan."""
        if verb == "resign":
            self.seat(game, interaction)
            return verb
        if not can_manage(interaction, game.table.host_id):
            raise HostOnly()
        plan = plan_for(game.table, interaction.user.id)
        if confirmed and verb != plan.value:
            raise AbandonChanged()
        if plan is Plan.ASK and game.id in self.abandons.open:
            raise AbandonPending(self.abandons.link(game.id))
        return plan.value

    async def _ask(self, interaction: discord.Interaction, verb: str) -> None:
        locale = user_locale(interaction)
        try:
            game = await self.game_here(interaction)
            verb = self._may(interaction, game, verb)
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return
        others = [u for u in seated_humans(game.table) if u != interaction.user.id]
        view = Components()
        view.add_item(
            button(
                f"c:{verb}:{game.id}:yes",
                t(locale, f"{verb}.yes"),
                style=discord.ButtonStyle.danger,
            )
        )
        view.add_item(button(f"c:{verb}:{game.id}:no", t(locale, "confirm.no")))
        text = t(locale, f"{verb}.confirm", players=mentions(others))
        await say(interaction, text, view=view)

    async def on_confirm(self, interaction: discord.Interaction, click: ConfirmButton) -> None:
        locale = user_locale(interaction)
        verb = click.text("verb")
        try:
            if verb not in self.CONFIRMED:
                raise UnknownComponent()
            if click.text("answer") != "yes":
                await interaction.response.edit_message(
                    content=t(locale, "confirm.kept"), view=None
                )
                return
            game = await self.game_by_id(click.number("table"))
            self._may(interaction, game, verb, confirmed=True)
            done = await self._confirmed(interaction, game, verb)
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return
        await interaction.response.edit_message(content=done, view=None)
        if verb != Plan.ASK:  # a request is its own message in the channel
            await self.display.announce(game, f"{verb}.announce", user=f"<@{interaction.user.id}>")

    async def _confirmed(self, interaction: discord.Interaction, game: LiveGame, verb: str) -> str:
        """Do what was confirmed; the confirmation's new text."""
        locale = user_locale(interaction)
        if verb == Plan.ASK:
            request = await self.abandons.ask(game, interaction.user.id)
            return t(locale, f"{verb}.done", link=self.abandons.link(game.id, request))
        if verb == Plan.END:
            await self.manager.abandon(game)
        else:  # resign, or resign instead of abandoning: a rated game is played to its end
            seat = self.seat(game, interaction)
            await self.manager.resign(game, seat, play_out=table_is_rated(game.table))
        return t(locale, f"{verb}.done")


# How a panel shown is edited afterwards (to add its picture): the interaction's original
# response, or the follow-up message that became the panel.
PanelEditor = Callable[..., Awaitable[Any]]


async def show_panel(
    interaction: discord.Interaction,
    content: str,
    view: discord.ui.View | None,
    *,
    attachments: list[discord.File] | Any = discord.utils.MISSING,
) -> PanelEditor:
    """Update the panel that was clicked (its `attachments` replaced if given, else kept); a
    click from any other message (a public one, or a tampered control) gets a new ephemeral
    panel instead, so no public message changes. How to edit the panel shown."""
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        if interaction.response.is_done():  # acknowledged before the move was in
            await interaction.edit_original_response(
                content=content, view=view, attachments=attachments
            )
        else:
            await interaction.response.edit_message(
                content=content, view=view, attachments=attachments
            )
        return interaction.edit_original_response
    if interaction.response.is_done():
        sent = await interaction.followup.send(
            content, view=view or discord.utils.MISSING, ephemeral=True, wait=True
        )
        below_table(interaction)
        return sent.edit
    await interaction.response.send_message(
        content, view=view or discord.utils.MISSING, ephemeral=True
    )
    below_table(interaction)
    return interaction.edit_original_response


# A decision's picture being drawn: the move it shows, and the PNG (None: nothing to show).
DrawnPicture = tuple[int, bytes | None]


def draw_decision(
    game: LiveGame, seat: int, decision: games.Decision, table_first: TablePictures
) -> asyncio.Future[DrawnPicture]:
    """Start drawing what `decision` is about (renderers/phone), from the seat's own view (a
    secret is shown to its own seat only), in the picture workers while the panel's text is
    sent: the text never waits for it."""
    seq, view = game.seq, game.view(seat)

    async def with_seq() -> DrawnPicture:
        await table_first.drawn(game.id, seq)
        if game.seq != seq:  # moved on meanwhile: this panel is another by now
            return seq, None
        fields = [option.fields for option in decision.options]
        return seq, await table_first.decision(
            game.id, seat, game.table.game, view, decision.kind, fields
        )

    return asyncio.ensure_future(with_seq())


async def attach_picture(
    edit: PanelEditor, game: LiveGame, picture: asyncio.Future[DrawnPicture]
) -> None:
    """Add the decision's picture to its panel once drawn, unless the game has moved on
    meanwhile (the panel is another by then). A picture that cannot be added is left out:
    the panel works without it."""
    try:
        seq, png = await picture
    except Exception:  # a renderer's bug: the panel, already shown, works without it
        log.exception("the picture of a panel of table %s could not be drawn", game.id)
        return
    if png is None or game.seq != seq:
        return
    try:
        await edit(attachments=[render.as_file(png, render.DECISION_FILENAME)])
    except discord.HTTPException:
        log.warning("the picture of a panel of table %s could not be added", game.id, exc_info=True)
