"""The one decision-to-components layer: any game's decision as an ephemeral panel.

- a single choice among a few options: a row of buttons;
- more options: select menus of 25, up to four on a page, with page buttons beyond that;
- several choices: one menu when 25 options suffice, else menus whose picks are kept in
  the message itself (as defaults) until **Confirm**;
- a decision that allows choosing nothing gets a button for that.

Games only add labels, emoji and descriptions (`renderers.option_style`).
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from meeple_hall import renderers
from meeple_hall.bot.components import CUSTOM_ID_MAX, Components, RoutedSelect, button, clip, select
from meeple_hall.bot.i18n import game_text, t
from meeple_hall.bot.live import LiveGame, decision_hash
from meeple_hall.games import Decision, Option

MENU_SIZE = 25
MENUS_PER_PAGE = 4
MAX_BUTTONS = 10
CONTENT_MAX = 2000


@dataclass(frozen=True)
class PanelRef:
    """What a panel component was built from: table, move number and decision."""

    table_id: int
    seq: int
    dhash: str

    def id(self, *parts: object) -> str:
        return ":".join(["g", str(self.table_id), str(self.seq), self.dhash, *map(str, parts)])

    @classmethod
    def parse(cls, parts: list[str]) -> tuple[PanelRef, list[str]] | None:
        if len(parts) < 4 or not parts[0].isdigit() or not parts[1].isdigit():
            return None
        return cls(int(parts[0]), int(parts[1]), parts[2]), parts[3:]


def option_id_part(decision: Decision, option: Option, ref: PanelRef) -> str:
    """An option's id in a custom_id, or its index when the id would not fit."""
    if len(ref.id("o", option.id)) <= CUSTOM_ID_MAX and ":" not in option.id:
        return option.id
    return f"#{decision.options.index(option)}"


def resolve_option(decision: Decision, part: str) -> str | None:
    if part.startswith("#") and part[1:].isdigit():
        index = int(part[1:])
        return decision.options[index].id if index < len(decision.options) else None
    return part if decision.option(part) is not None else None


def pages(decision: Decision) -> int:
    per_page = MENU_SIZE * MENUS_PER_PAGE
    return max(1, -(-len(decision.options) // per_page))


def menu_option_ids(decision: Decision, page: int, menu: int) -> frozenset[str]:
    """The options listed in one menu of a panel page."""
    start = (page * MENUS_PER_PAGE + menu) * MENU_SIZE
    return frozenset(o.id for o in decision.options[start : start + MENU_SIZE])


def uses_confirm(decision: Decision) -> bool:
    return decision.max_choices > 1 and len(decision.options) > MENU_SIZE


def build_panel(
    game: LiveGame,
    seat: int,
    decision: Decision,
    locale: discord.Locale | str | None,
    *,
    page: int = 0,
    picked: frozenset[str] = frozenset(),
    notice: str | None = None,
) -> tuple[str, Components]:
    ref = PanelRef(game.id, game.seq, decision_hash(decision))
    view = Components()
    game_id = game.table.game
    styles = {o.id: renderers.option_style(game_id, decision, o) for o in decision.options}
    single = decision.max_choices == 1
    legend: list[str] = []
    if single and len(decision.options) <= MAX_BUTTONS:
        # Buttons have no room for a description: the panel's text gives them.
        legend = [
            f"• {_shown(option, styles[option.id])}: {styles[option.id].description}"
            for option in decision.options
            if styles[option.id].description
        ]
        for index, option in enumerate(decision.options):
            style = styles[option.id]
            view.add_item(
                button(
                    ref.id("o", option_id_part(decision, option, ref)),
                    style.label or option.label,
                    emoji=style.emoji,
                    style=discord.ButtonStyle.primary,
                    row=index // 5,
                )
            )
    else:
        page = min(max(page, 0), pages(decision) - 1)
        start = page * MENU_SIZE * MENUS_PER_PAGE
        for menu in range(MENUS_PER_PAGE):
            chunk = decision.options[start + menu * MENU_SIZE : start + (menu + 1) * MENU_SIZE]
            if not chunk:
                break
            view.add_item(_menu(ref, decision, chunk, styles, page, menu, picked, locale))
        nav_row = 4
        if pages(decision) > 1:
            if page > 0:
                view.add_item(button(ref.id("p", page - 1), t(locale, "panel.prev"), row=nav_row))
            view.add_item(
                button(
                    ref.id("p", page),
                    t(locale, "panel.page", page=page + 1, pages=pages(decision)),
                    row=nav_row,
                    disabled=True,
                )
            )
            if page + 1 < pages(decision):
                view.add_item(button(ref.id("p", page + 1), t(locale, "panel.next"), row=nav_row))
        if uses_confirm(decision):
            view.add_item(
                button(
                    ref.id("c"),
                    t(locale, "panel.confirm", count=len(picked)),
                    style=discord.ButtonStyle.success,
                    row=nav_row,
                )
            )
    if decision.min_choices == 0 and not uses_confirm(decision):
        view.add_item(button(ref.id("c"), t(locale, "panel.choose_none"), row=4))
    return panel_text(game, seat, decision, locale, notice, legend), view


def _menu(
    ref: PanelRef,
    decision: Decision,
    chunk: tuple[Option, ...],
    styles: dict[str, renderers.OptionStyle],
    page: int,
    menu: int,
    picked: frozenset[str],
    locale: discord.Locale | str | None,
) -> RoutedSelect:
    first, last = (_shown(o, styles[o.id]) for o in (chunk[0], chunk[-1]))
    confirm = uses_confirm(decision)
    if decision.max_choices == 1:
        low, high = 1, 1
    elif confirm:
        low, high = 0, min(len(chunk), decision.max_choices)
    else:
        low, high = max(decision.min_choices, 1), decision.max_choices
    menu_item = select(
        ref.id("s", page, menu),
        t(locale, "panel.placeholder", first=first, last=last)
        if len(decision.options) > MENU_SIZE
        else decision.prompt,
        row=menu,
        low=low,
        high=high,
    )
    for option in chunk:
        style = styles[option.id]
        menu_item.item.add_option(
            label=clip(style.label or option.label, 100),
            value=option.id,
            emoji=style.emoji,
            description=clip(style.description, 100) if style.description else None,
            default=option.id in picked,
        )
    return menu_item


def _shown(option: Option, style: renderers.OptionStyle) -> str:
    """An option as its button or menu line shows it (emoji and label)."""
    label = clip(style.label or option.label, 60)
    return f"{style.emoji} {label}" if style.emoji else label


def panel_text(
    game: LiveGame,
    seat: int,
    decision: Decision,
    locale: discord.Locale | str | None,
    notice: str | None,
    legend: list[str],
) -> str:
    lines = []
    if notice:
        lines.append(notice)
    lines.append(t(locale, "panel.header", prompt=decision.prompt))
    if decision.max_choices > 1 or decision.min_choices != 1:
        lines.append(
            t(locale, "panel.choose_range", low=decision.min_choices, high=decision.max_choices)
        )
    secrets = game_text(locale, renderers.private_text(game.table.game, game.view(seat))).strip()
    if secrets:
        lines.append("")
        lines.append(secrets)
    if legend:
        lines.append("")
        lines += legend
    return clip("\n".join(lines), CONTENT_MAX)


def picked_in_message(message: discord.Message | None) -> frozenset[str]:
    """The options a multi-menu panel shows as picked (its selects' defaults)."""
    if message is None:
        return frozenset()
    picked: set[str] = set()
    for row in message.components:
        for child in getattr(row, "children", []):
            for option in getattr(child, "options", []) or []:
                if option.default:
                    picked.add(option.value)
    return frozenset(picked)
