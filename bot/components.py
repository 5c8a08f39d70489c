"""Persistent components: every button and menu the bot sends belongs to one family, a
`DynamicItem` whose typed template says what its custom_id holds.

A custom_id carries everything a click needs (`g:<table>:<seq>:<decision>:o:<option>`), so
it works after any restart. Stored messages keep their components for ever: the formats
below are public, and every one ever sent is still understood (tests/bot/
test_component_ids.py sends each the old way). Each family's template is a regex with named
groups; its numbers are read once, in `from_custom_id`, and a handler gets them typed
(`click.number("table")`, `click.text("verb")`). An id that no family's template matches,
or whose numbers are beyond what the bot writes, is answered as unknown instead of failing
silently. A click on an id naming a table or a tournament of another server or channel is
refused before its handler runs (bot/boundaries.py says where each lives).

    t:<table>:<seq>:take|hand|log              the table message's buttons (bot/cogs/play.py)
    g:<table>:<seq>:<decision>:o:<option>      a panel's option (a chain `a>b`, or `#3>#0`)
    g:<table>:<seq>:<decision>:p:<page>        a panel's page button
    g:<table>:<seq>:<decision>:s:<page>:<menu> a panel's menu
    g:<table>:<seq>:<decision>:c               Confirm, or Choose none
    u:<table>:<seq>                            Undo (bot/cogs/undo.py)
    c:<verb>:<table>:yes|no                    resign or abandon, confirmed
    l:<table>:<verb>[:<arg>]                   the lobby (bot/cogs/lobby.py)
    ab:<table>:<request>:yes|no                a request to abandon (bot/abandon.py)
    w:ai:<table>:<seat>:<user>                 a stalled game's AI button (bot/reminders.py)
    z:<table>:<seat>:<since>                   Snooze, in a reminder DM (bot/reminders.py)
    tour:<tournament>:<verb>                   a tournament's sign-up and check-in (join, leave,
                                               start, cancel, checkin: bot/cogs/tournament.py)
    r:<table>:<pos>:<verb>                     the replay viewer (bot/cogs/replay.py)
    rv:<table>                                 Review, on a finished game's final scores
                                               (bot/cogs/review.py)
    k:<table>:<kind>                           a panel's Rules button: the rule behind a
                                               decision of that kind (bot/rulebook.py)
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, cast

import discord
from discord import ui

from meeple_hall.bot.i18n import t
from meeple_hall.bot.languages import user_locale

log = logging.getLogger(__name__)

CUSTOM_ID_MAX = 100
NUMBER_MAX = 2**63 - 1  # every id the bot writes in a custom_id fits a signed 64-bit integer


def _number(name: str) -> str:
    return f"(?P<{name}>[0-9]+)"


def _token(name: str) -> str:
    """A free part: printable ASCII but `:` (an option id, a chain, a hash, a level)."""
    return f"(?P<{name}>[!-9;-~]+)"


def _one_of(name: str, *words: str) -> str:
    return f"(?P<{name}>{'|'.join(words)})"


@dataclass(frozen=True)
class Place:
    """Where a component may be used: a guild (None: a DM), and a channel or thread in it
    (None: anywhere in the guild)."""

    guild_id: int | None
    channel_id: int | None = None

    def holds(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id != self.guild_id:
            return False
        return self.channel_id is None or interaction.channel_id == self.channel_id


# Where the table or tournament of that number lives (None: nothing known by it: the handler
# answers as it does for any gone table).
Where = Callable[[int], Awaitable[Place | None]]


def well_formed(custom_id: str) -> bool:
    """Plain ASCII, and every number in it within what the bot writes: anything else was
    not made here (a digit like `²` passes `str.isdigit`; a number over 2**63 overflows the
    store)."""
    if not custom_id.isascii():
        return False
    return all(not part.isdigit() or int(part) <= NUMBER_MAX for part in custom_id.split(":"))


class Components(ui.View):
    """Buttons and selects to send. Every item is a family's dynamic item: clicks reach
    their handler by custom_id alone, so discord.py need not track the message. The view is
    sent already stopped, which keeps discord.py from storing it (and from giving each
    ephemeral panel a 15-minute timeout task)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.stop()


NEVER = r"(?!)"


class Family(ui.DynamicItem[Any], template=NEVER):
    """A family of components: a button or menu whose custom_id matches the family's
    template. `NUMBERS` are its groups read as integers; `PLACE` names the group that says
    where the click may act (`("table", group)` or `("tournament", group)`), if any."""

    NUMBERS: ClassVar[frozenset[str]] = frozenset()
    PLACE: ClassVar[tuple[str, str] | None] = None

    def __init__(self, item: ui.Item[Any], *, row: int | None = None) -> None:
        super().__init__(item, row=row)
        self.numbers: dict[str, int] = {}
        self.texts: dict[str, str] = {}
        self.values: list[str] = []
        self.malformed = False

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> Family:
        click = cls(item)
        click.read(match.groupdict(), cast(Mapping[str, Any], interaction.data or {}))
        return click

    def read(self, groups: Mapping[str, str | None], data: Mapping[str, Any]) -> None:
        """The id's parts, typed: numbers as ints (beyond NUMBER_MAX: malformed), the rest
        as text; a menu's chosen values."""
        for name, part in groups.items():
            if part is None:
                continue
            if name in self.NUMBERS:
                self.numbers[name] = int(part)
                self.malformed |= self.numbers[name] > NUMBER_MAX
            else:
                self.texts[name] = part
        self.values = [str(value) for value in data.get("values", [])]

    @classmethod
    def pattern(cls) -> re.Pattern[str]:
        """The family's compiled template."""
        return cls.__discord_ui_compiled_template__

    def number(self, name: str) -> int:
        return self.numbers[name]

    def text(self, name: str) -> str:
        return self.texts[name]

    def maybe(self, name: str) -> str | None:
        return self.texts.get(name)

    def has(self, name: str) -> bool:
        return name in self.numbers or name in self.texts

    async def callback(self, interaction: discord.Interaction) -> None:
        clicks = getattr(interaction.client, "clicks", None)
        if isinstance(clicks, Clicks):
            await clicks.dispatch(interaction, self)


# -- the families (their templates are public formats: change none, add only) --------------
class TableButton(
    Family,
    template=f"t:{_number('table')}:{_number('seq')}:{_one_of('verb', 'take', 'hand', 'log')}",
):
    NUMBERS = frozenset({"table", "seq"})
    PLACE = ("table", "table")


PANEL_STEP = (
    f"(?:o:{_token('option')}"
    f"|p:{_number('page')}"
    f"|s:{_number('menu_page')}:{_number('menu')}"
    f"|{_one_of('confirm', 'c')})"
)


class PanelControl(
    Family,
    template=f"g:{_number('table')}:{_number('seq')}:{_token('decision')}:{PANEL_STEP}",
):
    NUMBERS = frozenset({"table", "seq", "page", "menu_page", "menu"})
    PLACE = ("table", "table")


class UndoButton(Family, template=f"u:{_number('table')}:{_number('seq')}"):
    NUMBERS = frozenset({"table", "seq"})
    PLACE = ("table", "table")


class ConfirmButton(
    Family,
    template=f"c:{_token('verb')}:{_number('table')}:{_one_of('answer', 'yes', 'no')}",
):
    NUMBERS = frozenset({"table"})
    PLACE = ("table", "table")


LOBBY_VERBS = ("join", "leave", "start", "cancel", "kick", "opts", "opt", "ai")


class LobbyControl(
    Family,
    template=f"l:{_number('table')}:{_one_of('verb', *LOBBY_VERBS)}(?::{_token('arg')})?",
):
    NUMBERS = frozenset({"table"})
    PLACE = ("table", "table")


class AbandonVote(
    Family,
    template=f"ab:{_number('table')}:{_number('request')}:{_one_of('answer', 'yes', 'no')}",
):
    NUMBERS = frozenset({"table", "request"})
    PLACE = ("table", "table")


class StallButton(Family, template=f"w:ai:{_number('table')}:{_number('seat')}:{_number('user')}"):
    NUMBERS = frozenset({"table", "seat", "user"})
    PLACE = ("table", "table")


class SnoozeButton(Family, template=f"z:{_number('table')}:{_number('seat')}:{_number('since')}"):
    """In a DM: not bound to a place (the store checks the clicker is the reminded player)."""

    NUMBERS = frozenset({"table", "seat", "since"})


class TournamentButton(
    Family,
    template=(
        f"tour:{_number('tournament')}:"
        f"{_one_of('verb', 'join', 'leave', 'start', 'cancel', 'checkin')}"
    ),
):
    NUMBERS = frozenset({"tournament"})
    PLACE = ("tournament", "tournament")


class ReplayButton(Family, template=f"r:{_number('table')}:{_number('pos')}:{_token('verb')}"):
    """Not bound: a replay viewer may be opened anywhere `may_see` allows."""

    NUMBERS = frozenset({"table", "pos"})


class RulesButton(Family, template=f"k:{_number('table')}:{_token('kind')}"):
    """A decision panel's Rules button: the kind of decision it explains, in the game of the
    table it was sent for (the rule never goes out of date while the table exists)."""

    NUMBERS = frozenset({"table"})
    PLACE = ("table", "table")


class ReviewButton(Family, template=f"rv:{_number('table')}"):
    """On a finished game's final scores, in the table's channel."""

    NUMBERS = frozenset({"table"})
    PLACE = ("table", "table")


FAMILIES: tuple[type[Family], ...] = (
    TableButton,
    PanelControl,
    UndoButton,
    ConfirmButton,
    LobbyControl,
    AbandonVote,
    StallButton,
    SnoozeButton,
    TournamentButton,
    ReplayButton,
    RulesButton,
    ReviewButton,
)


def _unnamed(pattern: str) -> str:
    return re.sub(r"\(\?P<\w+>", "(?:", pattern)


# Every id no family's template matches, and only those: discord.py hands a click to every
# dynamic item whose template matches its id, so this one must never match a family's.
ANY_OTHER = (
    r"(?s)(?!(?:"
    + "|".join(f"(?:{_unnamed(family.pattern().pattern)})" for family in FAMILIES)
    + r")\Z).*"
)


class UnknownId(Family, template=ANY_OTHER):
    """Any id no family understands (a forged one, or a format the bot never sent)."""


def family_of(custom_id: str) -> type[Family]:
    """The family a custom_id the bot is about to send belongs to."""
    for family in FAMILIES:
        if family.pattern().fullmatch(custom_id):
            return family
    raise ValueError(f"no component family sends {custom_id!r}")


Handler = Callable[[discord.Interaction, Any], Awaitable[None]]


class Clicks:
    """Who handles each family's clicks, and where the things they name live; wired in
    `MeepleHall.setup_hook`."""

    def __init__(self) -> None:
        self._handlers: dict[type[Family], Handler] = {}
        self._places: dict[str, Where] = {}

    def on(self, family: type[Family], handler: Handler) -> None:
        self._handlers[family] = handler

    def where(self, kind: str, where: Where) -> None:
        """Clicks on ids naming a `kind` ("table", "tournament") act only where it lives."""
        self._places[kind] = where

    async def dispatch(self, interaction: discord.Interaction, click: Family) -> None:
        handler = self._handlers.get(type(click))
        try:
            custom_id = click.custom_id
            if handler is None or click.malformed or not well_formed(custom_id):
                await self._refuse(interaction, "component.unknown")
                return
            if click.PLACE is not None and (where := self._places.get(click.PLACE[0])):
                place = await where(click.number(click.PLACE[1]))
                if place is not None and not place.holds(interaction):
                    await self._refuse(interaction, "component.elsewhere")
                    return
            await handler(interaction, click)
        except Exception as exc:
            from meeple_hall.bot import report_failure

            await report_failure(interaction, exc)

    @staticmethod
    async def _refuse(interaction: discord.Interaction, key: str) -> None:
        from meeple_hall.bot.replies import say  # replies uses this module's clip

        await say(interaction, t(user_locale(interaction), key))


def button(
    custom_id: str,
    label: str,
    *,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    emoji: str | None = None,
    row: int | None = None,
    disabled: bool = False,
) -> Family:
    item: ui.Button[Any] = ui.Button(
        custom_id=custom_id, label=clip(label, 80), style=style, emoji=emoji, disabled=disabled
    )
    return family_of(custom_id)(item, row=row)


def select(
    custom_id: str, placeholder: str, *, row: int | None = None, low: int = 1, high: int = 1
) -> Family:
    item: ui.Select[Any] = ui.Select(
        custom_id=custom_id, placeholder=clip(placeholder, 150), min_values=low, max_values=high
    )
    return family_of(custom_id)(item, row=row)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
