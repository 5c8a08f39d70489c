"""Persistent components: every button and menu the bot sends is routed by its custom_id.

Custom ids carry everything a click needs (`g:<table>:<seq>:<decision>:o:<option>`), so
they work after any restart. One catch-all `DynamicItem` per component type hands each
click to the router, which finds the handler by the id's prefix; an id that no handler
understands is answered as unknown instead of failing silently.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import ui

from meeple_hall.bot.i18n import t
from meeple_hall.bot.languages import user_locale

log = logging.getLogger(__name__)

Handler = Callable[[discord.Interaction, list[str], list[str]], Awaitable[None]]
CUSTOM_ID_MAX = 100


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

    def add(self, prefix: str, handler: Handler) -> None:
        self._handlers[prefix] = handler

    async def dispatch(self, interaction: discord.Interaction, custom_id: str) -> None:
        prefix, _, rest = custom_id.partition(":")
        handler = self._handlers.get(prefix)
        values = list((interaction.data or {}).get("values", []))  # type: ignore[union-attr]
        if handler is None:
            await interaction.response.send_message(
                t(user_locale(interaction), "component.unknown"), ephemeral=True
            )
            return
        try:
            await handler(interaction, rest.split(":"), values)
        except Exception as exc:
            from meeple_hall.bot import report_failure

            await report_failure(interaction, exc)


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
