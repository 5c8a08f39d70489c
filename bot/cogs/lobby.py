"""Lobbies: open a table in a channel, seat people and AI players, set options, start.

Commands and lobby buttons do the same things through the same methods. Lobbies live in
the store, so a lobby message keeps working after a restart.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable

import discord
from discord import app_commands
from discord.ext import commands

from meeple_hall import games
from meeple_hall.bot import ai, presenters, rulebook, table_settings
from meeple_hall.bot.components import (
    Components,
    LobbyControl,
    RulesButton,
    button,
    clip,
    select,
)
from meeple_hall.bot.display import automa_line
from meeple_hall.bot.i18n import cmd, desc, game_name, game_text, t
from meeple_hall.bot.languages import user_locale
from meeple_hall.bot.live import Refusal, TableManager, lobby_refusal
from meeple_hall.bot.refusals import GameOver
from meeple_hall.bot.replies import can_manage, public_locale, quoted, refuse, say, say_all
from meeple_hall.bot.store import (
    AlreadySeated,
    ChannelBusy,
    LobbyClosed,
    LobbyFull,
    NotSeated,
    Seat,
    SeatChanged,
    Store,
    Table,
    TableStatus,
)
from meeple_hall.games import GameError, Option

log = logging.getLogger(__name__)

# A lobby action: what it did (a message key) and the table as the store now has it.
LobbyAction = Callable[[discord.Interaction, Table], Awaitable[tuple[str, Table]]]


def lobby_embed(table: Table, locale: str) -> discord.Embed:
    engine = games.get(table.game)
    embed = discord.Embed(
        title=t(locale, "lobby.title", game=game_name(locale, engine.id)),
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
        f"{i + 1}. " + (f"🤖 {ai.seat_name(locale, table.game, s)}" if s.ai else f"<@{s.user_id}>")
        for i, s in enumerate(table.seats)
    )
    if automa := automa_line(table.game, len(table.seats), locale):
        seats += "\n" + automa
    embed.add_field(
        name=t(locale, "lobby.seats", count=len(table.seats)), value=seats or "—", inline=False
    )
    for _, label, choices, current in option_menus(
        table.game, table.options, table.settings, locale, len(table.seats)
    ):
        embed.add_field(name=label, value=dict(choices)[current], inline=True)
    embed.set_footer(text=t(locale, "lobby.footer", table=table.id))
    return embed


# An option as the lobby shows it: its name, label, (choice, label) pairs and current choice.
OptionMenu = tuple[str, str, list[tuple[str, str]], str]


def option_menus(
    game_id: str,
    options: dict[str, str],
    settings: dict[str, str],
    locale: str,
    seats: int | None = None,
) -> list[OptionMenu]:
    """The game's options that apply to `seats` seats (any count if None), then the table's
    own settings (bot/table_settings.py)."""
    menus: list[OptionMenu] = []
    for spec in games.get(game_id).options:
        current = options.get(spec.id, spec.default)
        choices = [
            (c.id, game_text(locale, c.label))
            for c in spec.choices
            if c.id == current or seats is None or applies(c, seats)
        ]
        if len(choices) > 1:  # one choice left is nothing to choose
            menus.append((spec.id, game_text(locale, spec.label), choices, current))
    menus += [
        (
            setting.id,
            t(locale, f"setting.{setting.id}"),
            [(c, t(locale, f"setting.{setting.id}.{c}")) for c in setting.choices],
            settings.get(setting.id, setting.default),
        )
        for setting in table_settings.declared()
    ]
    return menus


def applies(choice: Option, seats: int) -> bool:
    """Whether an option's choice is one for a table of `seats` seats: the seat counts
    (`min_players`, `max_players`) and the seat (`seat`, from 1) its fields name."""
    fields = choice.fields
    low, high = fields.get("min_players", 1), fields.get("max_players", seats)
    return low <= seats <= high and fields.get("seat", 1) <= seats


def ai_level_prompt(table: Table, locale: str) -> str:
    """What Add AI asks: the levels the game offers, each with what it plays like."""
    lines = [t(locale, "lobby.ai_level_prompt")]
    lines += [
        f"🤖 **{t(locale, f'ai.level.{level}')}**: {t(locale, f'ai.level.{level}.about')}"
        for level in ai.levels_for(table.game)
    ]
    return "\n".join(lines)


def ai_level_buttons(table: Table, locale: str) -> Components:
    view = Components()
    default = ai.default_level(table.game)
    for level in ai.levels_for(table.game):
        style = discord.ButtonStyle.primary if level == default else discord.ButtonStyle.secondary
        label = t(locale, f"ai.level.{level}")
        view.add_item(button(f"l:{table.id}:ai:{level}", label, style=style, emoji="🤖"))
    return view


def lobby_components(table: Table, locale: str) -> Components:
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
    menus = option_menus(table.game, table.options, table.settings, locale, len(table.seats))
    own, shared = pack_menus(menus, OPTION_ROWS)
    row = 1
    for name, label, choices, current in own:
        menu = select(f"l:{tid}:opt:{name}", label, row=row)
        for choice, text in choices[:25]:
            menu.item.add_option(
                label=clip(f"{label}: {text}", 100), value=choice, default=choice == current
            )
        view.add_item(menu)
        row += 1
    for index, lines in enumerate(shared):
        custom_id = f"l:{tid}:opts" + (f":{index + 1}" if index else "")
        title = (
            t(locale, "lobby.more_options_part", part=index + 1, parts=len(shared))
            if len(shared) > 1
            else t(locale, "lobby.more_options")
        )
        menu = select(custom_id, title, row=row)
        for name, label, choice, text in lines:
            menu.item.add_option(label=clip(f"{label}: {text}", 100), value=f"{name}={choice}")
        view.add_item(menu)
        row += 1
    if len(table.seats) > 1:
        kick = select(f"l:{tid}:kick", t(locale, "lobby.remove_seat"), row=row)
        for i, s in enumerate(table.seats):
            if s.user_id != table.host_id:
                kick.item.add_option(label=clip(f"{i + 1}. {s.name}", 100), value=seat_token(i, s))
        view.add_item(kick)
    return view


OPTION_ROWS = 3  # rows 1–3 of the lobby message hold option menus
MENU_LINES = 25  # choices one select menu holds

# A line of a shared menu: option name, its label, a choice and the choice's label.
SharedLine = tuple[str, str, str, str]


def pack_menus(
    menus: list[OptionMenu], rows: int
) -> tuple[list[OptionMenu], list[list[SharedLine]]]:
    """Options with a menu of their own, then shared menus listing every other option's
    choices as "name: choice" (25 a menu, an option's choices kept together where they
    fit), together in at most `rows` menus: as many own menus as leave room for the rest."""
    for own_count in range(min(len(menus), rows), -1, -1):
        shared: list[list[SharedLine]] = []
        for name, label, choices, _ in menus[own_count:]:
            lines = [(name, label, c, text) for c, text in choices]
            if shared and len(shared[-1]) + len(lines) <= MENU_LINES:
                shared[-1] += lines
                continue
            while lines:
                shared.append(lines[:MENU_LINES])
                lines = lines[MENU_LINES:]
        if own_count + len(shared) <= rows:
            return menus[:own_count], shared
    return [], shared[:rows]


class Lobby(commands.Cog):
    def __init__(self, bot: commands.Bot, store: Store, manager: TableManager) -> None:
        self.bot = bot
        self.store = store
        self.manager = manager

    # -- commands ----------------------------------------------------------------------
    @app_commands.command(name=cmd("new"), description=desc("new"))
    @app_commands.rename(game=cmd("game"), options=cmd("options"))
    @app_commands.describe(game=desc("new.game"), options=desc("new.options"))
    @app_commands.guild_only()
    async def new(
        self, interaction: discord.Interaction, game: str, options: str | None = None
    ) -> None:
        locale = user_locale(interaction)
        try:
            engine = games.get(game)
            typed, settings = table_settings.split(parse_options(options))
            chosen = engine.resolve_options(typed)
        except GameError as exc:
            await say(interaction, t(locale, "lobby.bad_game", reason=exc.message))
            return
        except Refusal as refusal:
            await refuse(interaction, refusal)
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
                settings=settings,
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
        await self.store.set_lobby_message(table.id, message.id)

    @new.autocomplete("game")
    async def _new_game_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices(current, user_locale(interaction))

    @new.autocomplete("options")
    async def _option_tokens(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game_id = getattr(interaction.namespace, "game", None) or ""
        if game_id not in games.ids():
            return []
        head, _, last = current.rpartition(" ")
        prefix = f"{head} " if head else ""
        out = []
        for name, label, choices, _ in option_menus(game_id, {}, {}, user_locale(interaction)):
            for choice, text in choices:
                token = f"{name}={choice}"
                if token.startswith(last):
                    out.append(
                        app_commands.Choice(
                            name=clip(f"{prefix}{token} ({label}: {text})", 100),
                            value=clip(prefix + token, 100),
                        )
                    )
        return out[:25]

    @app_commands.command(name=cmd("rules"), description=desc("rules"))
    @app_commands.rename(game=cmd("game"), topic=cmd("topic"))
    @app_commands.describe(game=desc("new.game"), topic=desc("rules.topic"))
    async def rules(
        self, interaction: discord.Interaction, game: str, topic: str | None = None
    ) -> None:
        """How a game is played here: its options, which components are reconstructed and
        its rulebook topics; with a topic, the rulebook's words for it."""
        try:
            engine = games.get(game)
        except GameError as exc:
            await say(
                interaction, t(user_locale(interaction), "lobby.bad_game", reason=exc.message)
            )
            return
        locale = user_locale(interaction)
        if topic is not None:
            await self._rules_topic(interaction, engine.id, topic, locale)
            return
        lines = [
            f"**{game_name(locale, engine.id)}** · "
            + t(locale, "rules.players", min=engine.min_players, max=engine.max_players)
        ]
        for spec in engine.options:
            choices = ", ".join(
                f"`{spec.id}={c.id}` {game_text(locale, c.label)}" for c in spec.choices
            )
            lines.append(f"• {game_text(locale, spec.label)}: {choices}")
        notes = game_text(locale, presenters.rules_text(engine.id)).strip()
        if notes:
            lines += ["", notes]
        lines += ["", rulebook.topic_list(engine.id, locale)]
        await say_all(interaction, "\n".join(lines))

    @staticmethod
    async def _rules_topic(
        interaction: discord.Interaction, game_id: str, typed: str, locale: str
    ) -> None:
        """One rulebook topic, or a refusal saying how to find the game's topics."""
        found = rulebook.topic(game_id, typed)
        if found is None:
            text = t(
                locale,
                "rulebook.bad_topic",
                game=game_name(locale, game_id),
                topic=quoted(typed.strip()),
                id=game_id,
            )
            await say(interaction, text)
            return
        await say(interaction, rulebook.topic_text(found, locale))

    async def on_rules_button(self, interaction: discord.Interaction, click: RulesButton) -> None:
        """A decision panel's Rules button: the topic behind the decision's kind, else the
        game's topic list."""
        locale = user_locale(interaction)
        table = await self.store.get_table(click.number("table"))
        if table is None:
            await refuse(interaction, GameOver())
            return
        found = rulebook.topic_for_kind(table.game, click.text("kind"))
        if found is None:
            text = t(locale, "rulebook.no_topic_for_kind") + "\n\n"
            await say(interaction, text + rulebook.topic_list(table.game, locale))
            return
        await say(interaction, rulebook.topic_text(found, locale))

    @rules.autocomplete("game")
    async def _rules_game_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices(current, user_locale(interaction))

    @rules.autocomplete("topic")
    async def _rules_topics(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The chosen game's topics, by id and by section name in the reader's language."""
        game_id = getattr(interaction.namespace, "game", None)
        if not isinstance(game_id, str) or game_id not in games.ids():
            return []
        found = rulebook.matching_topics(game_id, current, user_locale(interaction))
        return [
            app_commands.Choice(name=clip(name, 100), value=topic_id)
            for topic_id, name in found[:25]
        ]

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
            await say(interaction, t(user_locale(interaction), key))
            return
        try:
            note, table = await action(interaction, table)
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return
        await self._refresh_message(table, interaction)
        await say(interaction, t(user_locale(interaction), note))

    # -- buttons and menus --------------------------------------------------------------
    async def on_component(self, interaction: discord.Interaction, click: LobbyControl) -> None:
        locale = user_locale(interaction)
        values, arg = click.values, click.maybe("arg")
        table = await self.store.get_table(click.number("table"))
        if table is None:
            await say(interaction, t(locale, "lobby.closed"))
            return
        if table.status is not TableStatus.LOBBY:
            await refuse(interaction, lobby_refusal(LobbyClosed(table.id, table.status)))
            return
        verb = click.text("verb")
        if verb == "ai":
            await self.on_add_ai(interaction, table, arg)
            return
        actions: dict[str, LobbyAction] = {
            "join": self.do_join,
            "leave": self.do_leave,
            "start": self.do_start,
            "cancel": self.do_cancel,
        }
        try:
            if verb in actions:
                _, table = await actions[verb](interaction, table)
            elif verb == "opt" and arg is not None and len(values) == 1:
                table = await self.do_set_option(interaction, table, arg, values[0])
            elif verb == "opts" and len(values) == 1 and "=" in values[0]:
                name, _, value = values[0].partition("=")
                table = await self.do_set_option(interaction, table, name, value)
            elif verb == "kick" and len(values) == 1:
                table = await self.do_remove_seat(interaction, table, values[0])
            else:
                await say(interaction, t(locale, "component.unknown"))
                return
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return
        await self._refresh_message(table, interaction, respond=True)

    async def on_add_ai(
        self, interaction: discord.Interaction, table: Table, level: str | None
    ) -> None:
        """Add AI asks for the level (an ephemeral choice); a level's button seats the AI.
        The choice stays open after a seat is added, to add another."""
        locale = user_locale(interaction)
        try:
            self.check_may_add_ai(interaction, table)
            if level is None:
                await say(
                    interaction,
                    ai_level_prompt(table, locale),
                    view=ai_level_buttons(table, locale),
                )
                return
            note, table = await self.do_add_ai(interaction, table, level)
        except Refusal as refusal:
            await refuse(interaction, refusal)
            return
        added = ai.seat_name(locale, table.game, table.seats[-1])
        await interaction.response.edit_message(
            content=t(locale, note, seat=added) + "\n\n" + ai_level_prompt(table, locale),
            view=ai_level_buttons(table, locale),
        )
        await self._refresh_message(table, interaction)

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
        locale = user_locale(interaction)
        await say(interaction, t(locale, key, game=game_name(locale, busy.game)))

    # -- what the commands and buttons do ------------------------------------------------
    # Each asks the store for one narrow change, checked in the same transaction as it is
    # made, so two clicks at the same moment never overwrite each other.
    async def do_join(self, interaction: discord.Interaction, table: Table) -> tuple[str, Table]:
        user = interaction.user
        max_seats = games.get(table.game).max_players
        seat = Seat(user_id=user.id, name=user.display_name)
        async with lobby_errors():
            table = await self.store.add_seat(table.id, seat, max_seats=max_seats)
        return "lobby.joined", table

    async def do_leave(self, interaction: discord.Interaction, table: Table) -> tuple[str, Table]:
        async with lobby_errors():
            table = await self.store.leave_lobby(table.id, interaction.user.id)
        return "lobby.left", table

    @staticmethod
    def check_may_add_ai(interaction: discord.Interaction, table: Table) -> None:
        if table.seat_of(interaction.user.id) is None and not can_manage(
            interaction, table.host_id
        ):
            raise Refusal("lobby.not_seated")

    async def do_add_ai(
        self, interaction: discord.Interaction, table: Table, level: str
    ) -> tuple[str, Table]:
        """Seat an AI playing at `level`, one the game offers (bot/ai.py)."""
        self.check_may_add_ai(interaction, table)
        offered = ai.levels_for(table.game)
        if level not in offered:
            locale = user_locale(interaction)
            names = ", ".join(t(locale, f"ai.level.{name}") for name in offered)
            raise Refusal("lobby.bad_ai_level", level=clip(level, 40), levels=names)
        max_seats = games.get(table.game).max_players
        number = 1 + sum(1 for s in table.seats if s.ai)
        while any(s.name == f"AI {number}" for s in table.seats):
            number += 1
        seat = Seat(user_id=None, name=f"AI {number}", ai=True, ai_level=level)
        async with lobby_errors():
            table = await self.store.add_seat(table.id, seat, max_seats=max_seats)
        return "lobby.ai_added", table

    async def do_start(self, interaction: discord.Interaction, table: Table) -> tuple[str, Table]:
        if not can_manage(interaction, table.host_id):
            raise Refusal("lobby.host_only")
        game = await self.manager.start(table.id)
        return "lobby.started_note", game.table

    async def do_cancel(self, interaction: discord.Interaction, table: Table) -> tuple[str, Table]:
        if not can_manage(interaction, table.host_id):
            raise Refusal("lobby.host_only")
        async with lobby_errors():
            table = await self.store.cancel_lobby(table.id)
        return "lobby.cancelled", table

    async def do_set_option(
        self, interaction: discord.Interaction, table: Table, name: str, value: str
    ) -> Table:
        if not can_manage(interaction, table.host_id):
            raise Refusal("lobby.host_only")
        if table_settings.is_setting(name):
            table_settings.check(name, value)
            async with lobby_errors():
                return await self.store.set_setting(table.id, name, value)
        engine = games.get(table.game)
        try:
            engine.resolve_options({**table.options, name: value})
        except GameError as exc:
            raise Refusal("lobby.bad_option", reason=str(exc)) from exc
        async with lobby_errors():
            return await self.store.set_option(table.id, name, value)

    async def do_remove_seat(
        self, interaction: discord.Interaction, table: Table, token: str
    ) -> Table:
        if not can_manage(interaction, table.host_id):
            raise Refusal("lobby.host_only")
        position, seen = parse_seat_token(token)
        async with lobby_errors():
            return await self.store.remove_seat(table.id, position, seen)


@contextlib.asynccontextmanager
async def lobby_errors() -> AsyncIterator[None]:
    """A store's refusal of a lobby command, as what to tell the player."""
    try:
        yield
    except LobbyClosed as closed:
        raise lobby_refusal(closed) from None
    except LobbyFull as full:
        raise Refusal("lobby.full", max=full.max_seats) from None
    except AlreadySeated:
        raise Refusal("lobby.already_seated") from None
    except NotSeated:
        raise Refusal("lobby.not_seated") from None
    except SeatChanged:
        raise Refusal("lobby.bad_seat") from None


def seat_token(position: int, seat: Seat) -> str:
    """A remove-seat menu value: the position and who sat there when the menu was drawn, so
    a menu left open while seats moved never removes someone else."""
    return f"{position}:{seat.who}"


def parse_seat_token(token: str) -> tuple[int, int | str]:
    position, _, who = token.partition(":")
    if not position.isdigit() or not who:
        raise Refusal("lobby.bad_seat")
    return int(position), int(who) if who.isdigit() else who


def game_choices(current: str, locale: str = "en") -> list[app_commands.Choice[str]]:
    """Games whose id or name (in `locale` or in English) holds what was typed, named in
    `locale`; the value is the plain game id."""
    text = current.lower()
    out = []
    for g in games.ids():
        shown = game_name(locale, g)
        if text in g or text in shown.lower() or text in games.get(g).name.lower():
            out.append(app_commands.Choice(name=shown, value=g))
    return out[:25]


def parse_options(text: str | None) -> dict[str, str]:
    """`tiebreak=other variant=die` as a dict; a token without `=` is an error."""
    out = {}
    for token in (text or "").replace(",", " ").split():
        key, sep, value = token.partition("=")
        if not sep or not key or not value:
            raise GameError(f"options are written name=value, not {token!r}")
        out[key] = value
    return out
