"""Lobbies: open a table in a channel, seat people and AI players, set options, start.

Commands and lobby buttons do the same things through the same methods. Lobbies live in
the store, so a lobby message keeps working after a restart.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands
from discord.ext import commands

from meeple_hall import games, renderers
from meeple_hall.bot.components import Components, button, clip, select
from meeple_hall.bot.i18n import cmd, desc, t
from meeple_hall.bot.live import Refusal, TableManager
from meeple_hall.bot.replies import can_manage, public_locale, refuse, say
from meeple_hall.bot.store import ChannelBusy, Seat, Store, Table, TableStatus
from meeple_hall.games import GameError

log = logging.getLogger(__name__)

LobbyAction = Callable[[discord.Interaction, Table], Awaitable[object]]


def lobby_embed(table: Table, locale: str) -> discord.Embed:
    engine = games.get(table.game)
    embed = discord.Embed(
        title=t(locale, "lobby.title", game=engine.name),
        description=t(
            locale,
            "lobby.description",
            min=engine.min_players,
            max=engine.max_players,
            host=f"<@{table.host_id}>",
        ),
        colour=discord.Colour.blurple(),
    )
    seats = "\n".join(
        f"{i + 1}. " + (f"🤖 {s.name}" if s.ai else f"<@{s.user_id}>")
        for i, s in enumerate(table.seats)
    )
    embed.add_field(
        name=t(locale, "lobby.seats", count=len(table.seats)), value=seats or "—", inline=False
    )
    for spec in engine.options:
        chosen = next(c for c in spec.choices if c.id == table.options.get(spec.id, spec.default))
        embed.add_field(name=spec.label, value=chosen.label, inline=True)
    embed.set_footer(text=t(locale, "lobby.footer", table=table.id))
    return embed


def lobby_components(table: Table, locale: str) -> Components:
    engine = games.get(table.game)
    view = Components()
    tid = table.id
    view.add_item(
        button(f"l:{tid}:join", t(locale, "lobby.join"), style=discord.ButtonStyle.success, row=0)
    )
    view.add_item(button(f"l:{tid}:leave", t(locale, "lobby.leave"), row=0))
    view.add_item(button(f"l:{tid}:ai", t(locale, "lobby.add_ai"), emoji="🤖", row=0))
    view.add_item(
        button(f"l:{tid}:start", t(locale, "lobby.start"), style=discord.ButtonStyle.primary, row=0)
    )
    view.add_item(
        button(
            f"l:{tid}:cancel", t(locale, "lobby.cancel"), style=discord.ButtonStyle.danger, row=0
        )
    )
    row = 1
    for spec in engine.options[:3]:
        menu = select(f"l:{tid}:opt:{spec.id}", spec.label, row=row)
        current = table.options.get(spec.id, spec.default)
        for choice in spec.choices[:25]:
            menu.item.add_option(
                label=clip(f"{spec.label}: {choice.label}", 100),
                value=choice.id,
                default=choice.id == current,
            )
        view.add_item(menu)
        row += 1
    if len(table.seats) > 1:
        kick = select(f"l:{tid}:kick", t(locale, "lobby.remove_seat"), row=row)
        for i, s in enumerate(table.seats):
            if s.user_id != table.host_id:
                kick.item.add_option(label=clip(f"{i + 1}. {s.name}", 100), value=str(i))
        view.add_item(kick)
    return view


class Lobby(commands.Cog):
    def __init__(self, bot: commands.Bot, store: Store, manager: TableManager) -> None:
        self.bot = bot
        self.store = store
        self.manager = manager
        bot.router.add("l", self.on_component)

    # -- commands ----------------------------------------------------------------------
    @app_commands.command(name=cmd("new"), description=desc("new"))
    @app_commands.rename(game=cmd("game"), options=cmd("options"))
    @app_commands.describe(game=desc("new.game"), options=desc("new.options"))
    @app_commands.guild_only()
    async def new(
        self, interaction: discord.Interaction, game: str, options: str | None = None
    ) -> None:
        locale = interaction.locale
        try:
            engine = games.get(game)
            chosen = engine.resolve_options(parse_options(options))
        except GameError as exc:
            await say(interaction, t(locale, "lobby.bad_game", reason=str(exc)))
            return
        busy = await self.store.open_table_in(interaction.channel_id or 0)
        if busy is not None:
            await self._say_busy(interaction, busy)
            return
        user = interaction.user
        try:
            table = await self.store.create_table(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id or 0,
                host_id=user.id,
                game=engine.id,
                options=chosen,
                seed=self.bot.new_seed(),  # type: ignore[attr-defined]
                seats=[Seat(user_id=user.id, name=user.display_name)],
            )
        except ChannelBusy as exc:
            table_busy = await self.store.get_table(exc.table_id)
            if table_busy is not None:
                await self._say_busy(interaction, table_busy)
            return
        plocale = public_locale(interaction)
        await interaction.response.send_message(
            embed=lobby_embed(table, plocale), view=lobby_components(table, plocale)
        )
        message = await interaction.original_response()
        table.lobby_message_id = message.id
        await self.store.update_table(table)

    @new.autocomplete("game")
    async def _new_game_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices(current)

    @new.autocomplete("options")
    async def _option_tokens(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game_id = getattr(interaction.namespace, "game", None)
        try:
            engine = games.get(game_id or "")
        except GameError:
            return []
        head, _, last = current.rpartition(" ")
        prefix = f"{head} " if head else ""
        out = []
        for spec in engine.options:
            for choice in spec.choices:
                token = f"{spec.id}={choice.id}"
                if token.startswith(last):
                    out.append(
                        app_commands.Choice(
                            name=clip(f"{prefix}{token} ({spec.label}: {choice.label})", 100),
                            value=clip(prefix + token, 100),
                        )
                    )
        return out[:25]

    @app_commands.command(name=cmd("rules"), description=desc("rules"))
    @app_commands.rename(game=cmd("game"))
    @app_commands.describe(game=desc("new.game"))
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        """How a game is played here: its options, and which components are reconstructed."""
        try:
            engine = games.get(game)
        except GameError as exc:
            await say(interaction, t(interaction.locale, "lobby.bad_game", reason=str(exc)))
            return
        lines = [
            f"**{engine.name}** · "
            + t(interaction.locale, "rules.players", min=engine.min_players, max=engine.max_players)
        ]
        for spec in engine.options:
            choices = ", ".join(f"`{spec.id}={c.id}` {c.label}" for c in spec.choices)
            lines.append(f"• {spec.label}: {choices}")
        notes = renderers.rules_text(engine.id).strip()
        if notes:
            lines += ["", notes]
        await say(interaction, clip("\n".join(lines), 2000))

    @rules.autocomplete("game")
    async def _rules_game_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices(current)

    @app_commands.command(name=cmd("join"), description=desc("join"))
    @app_commands.guild_only()
    async def join(self, interaction: discord.Interaction) -> None:
        await self._command(interaction, self.do_join)

    @app_commands.command(name=cmd("leave"), description=desc("leave"))
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction) -> None:
        await self._command(interaction, self.do_leave)

    @app_commands.command(name=cmd("start"), description=desc("start"))
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction) -> None:
        await self._command(interaction, self.do_start)

    @app_commands.command(name=cmd("cancel"), description=desc("cancel"))
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self._command(interaction, self.do_cancel)

    async def _command(self, interaction: discord.Interaction, action: LobbyAction) -> None:
        table = await self.store.open_table_in(interaction.channel_id or 0)
        if table is None or table.status is not TableStatus.LOBBY:
            key = "lobby.none" if table is None else "lobby.already_started"
            await say(interaction, t(interaction.locale, key))
            return
        try:
            note = await action(interaction, table)
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return
        await self._refresh_message(table, interaction)
        await say(interaction, t(interaction.locale, note))

    # -- buttons and menus --------------------------------------------------------------
    async def on_component(
        self, interaction: discord.Interaction, parts: list[str], values: list[str]
    ) -> None:
        locale = interaction.locale
        if len(parts) < 2 or not parts[0].isdigit():
            await say(interaction, t(locale, "component.unknown"))
            return
        table = await self.store.get_table(int(parts[0]))
        if table is None or table.status is not TableStatus.LOBBY:
            await say(interaction, t(locale, "lobby.closed"))
            return
        verb = parts[1]
        actions: dict[str, LobbyAction] = {
            "join": self.do_join,
            "leave": self.do_leave,
            "ai": self.do_add_ai,
            "start": self.do_start,
            "cancel": self.do_cancel,
        }
        try:
            if verb in actions:
                await actions[verb](interaction, table)
            elif verb == "opt" and len(parts) == 3 and len(values) == 1:
                await self.do_set_option(interaction, table, parts[2], values[0])
            elif verb == "kick" and len(values) == 1 and values[0].isdigit():
                await self.do_remove_seat(interaction, table, int(values[0]))
            else:
                await say(interaction, t(locale, "component.unknown"))
                return
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return
        await self._refresh_message(table, interaction, respond=True)

    async def _refresh_message(
        self, table: Table, interaction: discord.Interaction, respond: bool = False
    ) -> None:
        """Show the lobby as it now is (or as it ended) on its message."""
        plocale = public_locale(interaction)
        if table.status is TableStatus.LOBBY:
            kwargs = {
                "embed": lobby_embed(table, plocale),
                "view": lobby_components(table, plocale),
            }
        else:
            key = "lobby.started" if table.status is TableStatus.ACTIVE else "lobby.cancelled"
            kwargs = {"embed": discord.Embed(description=t(plocale, key)), "view": None}
        if respond and not interaction.response.is_done():
            await interaction.response.edit_message(**kwargs)  # type: ignore[arg-type]
        elif table.lobby_message_id and interaction.channel is not None:
            message = interaction.channel.get_partial_message(table.lobby_message_id)  # type: ignore[union-attr]
            with contextlib.suppress(discord.NotFound):
                await message.edit(**kwargs)  # type: ignore[arg-type]

    async def _say_busy(self, interaction: discord.Interaction, busy: Table) -> None:
        key = "lobby.busy_lobby" if busy.status is TableStatus.LOBBY else "lobby.busy_game"
        await say(interaction, t(interaction.locale, key, game=games.get(busy.game).name))

    # -- what the commands and buttons do ------------------------------------------------
    async def do_join(self, interaction: discord.Interaction, table: Table) -> str:
        user = interaction.user
        if table.seat_of(user.id) is not None:
            raise Refusal("lobby.already_seated")
        if len(table.seats) >= games.get(table.game).max_players:
            raise Refusal("lobby.full", max=games.get(table.game).max_players)
        table.seats.append(Seat(user_id=user.id, name=user.display_name))
        await self.store.update_table(table)
        return "lobby.joined"

    async def do_leave(self, interaction: discord.Interaction, table: Table) -> str:
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal("lobby.not_seated")
        table.seats.pop(seat)
        humans = [s for s in table.seats if not s.ai]
        if not humans:
            table.status = TableStatus.CANCELLED
        elif table.host_id == interaction.user.id:
            table.host_id = humans[0].user_id or table.host_id
        await self.store.update_table(table)
        return "lobby.left"

    async def do_add_ai(self, interaction: discord.Interaction, table: Table) -> str:
        if table.seat_of(interaction.user.id) is None and not can_manage(
            interaction, table.host_id
        ):
            raise Refusal("lobby.not_seated")
        if len(table.seats) >= games.get(table.game).max_players:
            raise Refusal("lobby.full", max=games.get(table.game).max_players)
        number = 1 + sum(1 for s in table.seats if s.ai)
        table.seats.append(Seat(user_id=None, name=f"AI {number}", ai=True))
        await self.store.update_table(table)
        return "lobby.ai_added"

    async def do_start(self, interaction: discord.Interaction, table: Table) -> str:
        if not can_manage(interaction, table.host_id):
            raise Refusal("lobby.host_only")
        await self.manager.start(table)
        return "lobby.started_note"

    async def do_cancel(self, interaction: discord.Interaction, table: Table) -> str:
        if not can_manage(interaction, table.host_id):
            raise Refusal("lobby.host_only")
        table.status = TableStatus.CANCELLED
        await self.store.update_table(table)
        return "lobby.cancelled"

    async def do_set_option(
        self, interaction: discord.Interaction, table: Table, name: str, value: str
    ) -> None:
        if not can_manage(interaction, table.host_id):
            raise Refusal("lobby.host_only")
        engine = games.get(table.game)
        try:
            table.options = engine.resolve_options({**table.options, name: value})
        except GameError as exc:
            raise Refusal("lobby.bad_option", reason=str(exc)) from exc
        await self.store.update_table(table)

    async def do_remove_seat(
        self, interaction: discord.Interaction, table: Table, seat: int
    ) -> None:
        if not can_manage(interaction, table.host_id):
            raise Refusal("lobby.host_only")
        if seat >= len(table.seats) or table.seats[seat].user_id == table.host_id:
            raise Refusal("lobby.bad_seat")
        table.seats.pop(seat)
        await self.store.update_table(table)


def game_choices(current: str) -> list[app_commands.Choice[str]]:
    text = current.lower()
    return [
        app_commands.Choice(name=games.get(g).name, value=g)
        for g in games.ids()
        if text in g or text in games.get(g).name.lower()
    ][:25]


def parse_options(text: str | None) -> dict[str, str]:
    """`tiebreak=other variant=die` as a dict; a token without `=` is an error."""
    out = {}
    for token in (text or "").replace(",", " ").split():
        key, sep, value = token.partition("=")
        if not sep or not key or not value:
            raise GameError(f"options are written name=value, not {token!r}")
        out[key] = value
    return out
