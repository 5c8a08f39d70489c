"""`/board focus:`: the parts of a table a game can show large enough for a phone, named in
the player's language (renderers/phone)."""

from __future__ import annotations

import logging
import re

import discord
from discord import app_commands

from meeple_hall.bot.components import clip
from meeple_hall.bot.i18n import DEFAULT, catalogue, t
from meeple_hall.bot.live import LiveGame, Refusal
from meeple_hall.renderers import phone

log = logging.getLogger(__name__)

CHOICES_MAX = 25  # Discord lists at most 25 autocomplete choices


def label(game: LiveGame, focus: str, locale: discord.Locale | str | None) -> str:
    """`seat2` → "Seat 2: Alice", `coop3` → "Cooperative 3", `depots` → "Depots"; a part
    with no words in the catalogue reads as its id, so one odd part a renderer offers never
    takes the others' labels with it."""
    try:
        return _label(game, focus, locale)
    except Exception:
        log.warning("no label for focus %r of game %s", focus, game.table.game, exc_info=True)
        return focus


def _label(game: LiveGame, focus: str, locale: discord.Locale | str | None) -> str:
    seat = phone.seat_of_focus(focus, len(game.table.seats))
    if seat is not None:
        return t(locale, "focus.seat", n=seat + 1, name=game.table.seats[seat].name)
    numbered = re.fullmatch(r"([a-z]+)(\d+)", focus)
    if numbered and numbered[1] == "seat":  # a seat the table has not (an automaton's board)
        return t(locale, "focus.seat_number", n=int(numbered[2]))
    if numbered and f"focus.{numbered[1]}" in catalogue(DEFAULT):
        return t(locale, f"focus.{numbered[1]}", n=int(numbered[2]))
    if f"focus.{focus}" in catalogue(DEFAULT):
        return t(locale, f"focus.{focus}")
    return focus


def choices(
    game: LiveGame, current: str, locale: discord.Locale | str | None
) -> list[app_commands.Choice[str]]:
    """The game's focuses whose id or label contains what was typed."""
    typed = current.strip().casefold()
    out = []
    for focus in phone.focuses(game.table.game, game.view(None)):
        name = label(game, focus, locale)
        if typed in focus or typed in name.casefold():
            out.append(app_commands.Choice(name=clip(name, 100), value=focus))
    return out[:CHOICES_MAX]


def check(game: LiveGame, focus: str, locale: discord.Locale | str | None) -> str:
    """The focus id for what was typed (an id, or a label as autocomplete shows it), or a
    refusal naming the parts there are."""
    offered = phone.focuses(game.table.game, game.view(None))
    typed = focus.strip()
    for f in offered:
        if typed.casefold() in (f, label(game, f, locale).casefold()):
            return f
    names = ", ".join(f"`{f}`" for f in offered)
    raise Refusal("board.bad_focus", focus=clip(typed, 40), choices=names)
