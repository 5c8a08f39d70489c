"""The rules at hand (issue 30, item 2): each game's rulebook topics, the rulebook's own words
for a step of play in the reader's language, from `data/<game>/rulebook.toml`.

A topic names the `Decision.kind` values it explains, so a decision panel's **Rules** button
(`RulesButton`, `k:<table>:<kind>`) shows the rule behind that decision, and `/rules game:
topic:` shows any topic by its id. A text the rulebooks do not give in a language is our
translation, and says so.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

import discord

from meeple_hall.bot.components import Components, button, clip
from meeple_hall.bot.i18n import SUPPORTED, game_name, language, t
from meeple_hall.games.core.resources import game_data

RULEBOOK_FILE = "rulebook.toml"
MESSAGE_MAX = 2000
ROW_WIDTH = 5
ROWS = 5
# Undo (bot/undo.py: UNDO_ROW, the last row) is added to a panel after it is built: the Rules
# button leaves it a place there.
KEPT_FOR_UNDO = 1


@dataclass(frozen=True)
class Topic:
    """One step of play as the rulebooks tell it: its section's name and words by language,
    the decision kinds it explains, and the languages whose words are our translation."""

    game: str
    id: str
    kinds: tuple[str, ...]
    section: Mapping[str, str]
    text: Mapping[str, str]
    translated: frozenset[str]


@cache
def topics(game_id: str) -> tuple[Topic, ...]:
    """The game's rulebook topics in the file's order (none if it has no rulebook file)."""
    path = game_data(game_id) / RULEBOOK_FILE
    if not path.is_file():
        return ()
    with path.open("rb") as f:
        raw = tomllib.load(f).get("topic", [])
    return tuple(
        Topic(
            game=game_id,
            id=entry["id"],
            kinds=tuple(entry.get("kinds", ())),
            section=dict(entry["section"]),
            text=dict(entry["text"]),
            translated=frozenset(entry.get("translated", ())),
        )
        for entry in raw
    )


def topic(game_id: str, typed: str) -> Topic | None:
    """The topic of that id, or whose section is named so in any language (as a reader
    may type it instead of picking it from the list)."""
    wanted = typed.strip().casefold()
    for found in topics(game_id):
        if wanted in (found.id, *(name.casefold() for name in found.section.values())):
            return found
    return None


def topic_for_kind(game_id: str, kind: str) -> Topic | None:
    """The topic explaining decisions of `kind`, if the game's rulebook file has one."""
    return next((found for found in topics(game_id) if kind in found.kinds), None)


def section_name(found: Topic, locale: discord.Locale | str | None) -> str:
    return found.section[language(locale)]


def topic_text(found: Topic, locale: discord.Locale | str | None) -> str:
    """The topic as the reader sees it: the section named, the rulebook's words, and a
    note where the words are our translation."""
    lang = language(locale)
    heading = t(
        lang, "rulebook.heading", game=game_name(lang, found.game), section=found.section[lang]
    )
    lines = [heading, "", found.text[lang]]
    if lang in found.translated:
        lines += ["", t(lang, "rulebook.translated")]
    return clip("\n".join(lines), MESSAGE_MAX)


def topic_list(game_id: str, locale: discord.Locale | str | None) -> str:
    """Every topic of the game, one line each (its id for `/rules topic:` and its section)."""
    if not topics(game_id):
        return t(locale, "rulebook.none", game=game_name(locale, game_id))
    lines = [t(locale, "rulebook.topics", game=game_id)]
    lines += [
        t(locale, "rulebook.topic_line", id=found.id, section=section_name(found, locale))
        for found in topics(game_id)
    ]
    return "\n".join(lines)


def matching_topics(
    game_id: str, typed: str, locale: discord.Locale | str | None
) -> list[tuple[str, str]]:
    """(id, shown name) of the topics whose id or section (in the reader's language or in
    any other) holds what was typed."""
    text = typed.strip().lower()
    out = []
    for found in topics(game_id):
        names = [found.id, *(found.section[lang] for lang in SUPPORTED)]
        if any(text in name.lower() for name in names):
            out.append((found.id, f"{section_name(found, locale)} ({found.id})"))
    return out


def rules_button_id(table_id: int, kind: str) -> str:
    return f"k:{table_id}:{kind}"


def add_rules_button(
    view: Components, table_id: int, kind: str, locale: discord.Locale | str | None
) -> None:
    """A panel's Rules button, in the last row with room (a place kept in the last row for
    the Undo button that may follow); none if the panel is full."""
    row = _last_row_with_room(view)
    if row is None:
        return
    view.add_item(
        button(rules_button_id(table_id, kind), t(locale, "rulebook.button"), emoji="📖", row=row)
    )


def _last_row_with_room(view: Components) -> int | None:
    weights = [0] * ROWS
    for item in view.children:
        row = item._rendered_row if item._rendered_row is not None else item.row
        weights[row or 0] += item.width
    rooms = [
        ROW_WIDTH - weight - (KEPT_FOR_UNDO if row == ROWS - 1 else 0)
        for row, weight in enumerate(weights)
    ]
    used = [row for row, weight in enumerate(weights) if weight]
    last_used = max(used, default=0)
    for row in [*range(last_used, ROWS), *range(last_used - 1, -1, -1)]:
        if rooms[row] >= 1:
            return row
    return None
