"""Persistent components: every button and menu the bot sends is routed by its custom_id.

Custom ids carry everything a click needs (`g:<table>:<seq>:<decision>:o:<option>`), so
they work after any restart. One catch-all `DynamicItem` per component type hands each
click to the router, which finds the handler by the id's prefix; an id that no handler
understands, or that no button of this bot carries (odd characters, numbers out of range),
is answered as unknown instead of failing silently. A click on an id naming a table or a
tournament of another server or channel is refused before its handler runs (`bound`;
bot/boundaries.py says where each family's things live).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import ui

from meeple_hall.bot.i18n import t
from meeple_hall.bot.languages import user_locale

log = logging.getLogger(__name__)

Handler = Callable[[discord.Interaction, list[str], list[str]], Awaitable[None]]
CUSTOM_ID_MAX = 100
NUMBER_MAX = 2**63 - 1  # every id the bot writes in a custom_id fits a signed 64-bit integer


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


# Where the thing a custom_id's parts name lives (None: nothing known by that id: the
# handler answers as it does for any gone table). Raises Malformed for a part it cannot read.
Where = Callable[[list[str]], Awaitable[Place | None]]


class Malformed(ValueError):
    """A custom_id no button of this bot carries."""


def well_formed(custom_id: str) -> bool:
    """Plain ASCII, and every number in it within what the bot writes: anything else was
    not made here (a digit like `²` passes `str.isdigit`; a number over 2**63 overflows the
    store)."""
    if not custom_id.isascii():
        return False
    return all(not part.isdigit() or int(part) <= NUMBER_MAX for part in custom_id.split(":"))


def number_at(parts: list[str], index: int) -> int:
    """The id at `parts[index]`, or Malformed."""
    if index >= len(parts) or not parts[index].isdigit():
        raise Malformed(":".join(parts))
    return int(parts[index])


class Components(ui.View):
    """Buttons and selects to send. Every item is a routed dynamic item: clicks reach the
    router by custom_id alone, so discord.py need not track the message. The view is sent
    already stopped, which keeps discord.py from storing it (and from giving each
    ephemeral panel a 15-minute timeout task)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.stop()


class Router:
    def __init__(self) -> None:
        self._handlers: dict[str, Handler] = {}
        self._places: dict[str, Where] = {}

    def add(self, prefix: str, handler: Handler) -> None:
        self._handlers[prefix] = handler

    def bound(self, prefix: str, where: Where) -> None:
        """Clicks on `prefix` ids act only where `where` says the thing they name lives."""
        self._places[prefix] = where

    async def dispatch(self, interaction: discord.Interaction, custom_id: str) -> None:
        prefix, _, rest = custom_id.partition(":")
        handler = self._handlers.get(prefix)
        values = list((interaction.data or {}).get("values", []))  # type: ignore[union-attr]
        try:
            if handler is None or not well_formed(custom_id):
                await self._refuse(interaction, "component.unknown")
                return
            if (where := self._places.get(prefix)) is not None:
                try:
                    place = await where(rest.split(":"))
                except Malformed:
                    await self._refuse(interaction, "component.unknown")
                    return
                if place is not None and not place.holds(interaction):
                    await self._refuse(interaction, "component.elsewhere")
                    return
            await handler(interaction, rest.split(":"), values)
        except Exception as exc:
            from meeple_hall.bot import report_failure

            await report_failure(interaction, exc)

    @staticmethod
    async def _refuse(interaction: discord.Interaction, key: str) -> None:
        await interaction.response.send_message(t(user_locale(interaction), key), ephemeral=True)


ANY_ID = re.compile(r"(?s).+")


class _Routed:
    """What both catch-all items do: hand the click to the bot's router."""

    item: Any

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> RoutedButton | RoutedSelect:
        if isinstance(item, ui.Select):
            return RoutedSelect(item)
        return RoutedButton(item)  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        router: Router = interaction.client.router  # type: ignore[attr-defined]
        await router.dispatch(interaction, self.item.custom_id)


# Both classes share one template: discord.py keys dynamic items by pattern, so whichever
# is registered last answers every custom_id, and `from_custom_id` picks the right wrapper.
class RoutedButton(_Routed, ui.DynamicItem[ui.Button], template=ANY_ID):
    def __init__(self, item: ui.Button, *, row: int | None = None) -> None:
        super().__init__(item, row=row)


class RoutedSelect(_Routed, ui.DynamicItem[ui.Select], template=ANY_ID):
    def __init__(self, item: ui.Select, *, row: int | None = None) -> None:
        super().__init__(item, row=row)


def button(
    custom_id: str,
    label: str,
    *,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    emoji: str | None = None,
    row: int | None = None,
    disabled: bool = False,
) -> RoutedButton:
    item: ui.Button[Any] = ui.Button(
        custom_id=custom_id, label=clip(label, 80), style=style, emoji=emoji, disabled=disabled
    )
    return RoutedButton(item, row=row)


def select(
    custom_id: str, placeholder: str, *, row: int | None = None, low: int = 1, high: int = 1
) -> RoutedSelect:
    item: ui.Select[Any] = ui.Select(
        custom_id=custom_id, placeholder=clip(placeholder, 150), min_values=low, max_values=high
    )
    return RoutedSelect(item, row=row)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
