"""Village in words (bot/presenters): the panel's labels, emoji and descriptions of each
option, the seat's secrets for `/hand` and DMs, and the `/rules` notes. It reads what the
engine gives: a decision's kind and each option's `fields` (games/village/steps.py)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from meeple_hall.bot.presenters import BUTTON_LABEL_MAX, DESCRIPTION_MAX, OptionStyle, fits, keycap
from meeple_hall.games.core import Decision, Msg, Option, Text
from meeple_hall.games.village import words as w
from meeple_hall.renderers.phone.village import SHOP_MARK, SPACE_MARK
from meeple_hall.renderers.village import CITY_LETTER, CITY_XY

EMOJI = {
    "harvest": "🌾",
    "family": "👶",
    "crafts": "🔨",
    "market": "🛒",
    "travel": "🧭",
    "council": "🏛️",
    "church": "⛪",
    "well": "🪣",
    "orange": "🟧",
    "green": "🟩",
    "brown": "🟫",
    "pink": "🌸",
    "black": "⬛",
    "die": "🪦",
    "karla": "🧓",
    "buy": "🪙",
    "advance": "⛪",
    "reward": "🎁",
    "privilege": "📜",
    "gift": "🎁",
}
PASSING = "⏭️"


def space_keycap(space: str) -> str | None:
    """An action space's number on the turn's picture (renderers/phone/village.py
    `SPACE_MARK`) as its panel lines' emoji: the space's name is in the label."""
    return keycap(SPACE_MARK.get(space))


def shop_keycap(fields: Mapping[str, Any]) -> str | None:
    """A workshop's number on the phone's crafts (`SHOP_MARK`; the mill's option names no
    workshop: it is the mill's), as its lines' emoji: the workshop named in the label."""
    return keycap(SHOP_MARK.get("mill" if fields.get("how") == "mill" else fields.get("shop", "")))


# Panels fold these decisions into the one before them (bot/panels.py): the cube from the
# harvest space and whether to harvest, in one click; an action and the family member that
# its time costs (`die`), except the turn's choice of a space (its panel would grow by each
# space whose action costs a life); a council step and the privilege it brings, a trip and
# the new city's cubes.
FOLDED = frozenset({"harvest", "die", "privilege", "reward"})
FOLDED_AFTER = {
    "die": frozenset({"crafts", "travel", "church", "family", "market", "reward", "council"}),
    "privilege": frozenset({"council"}),
    "reward": frozenset({"travel"}),
}
# What a folded step brings, said after the action that brings it.
BROUGHT = frozenset({"privilege", "reward"})


def option_style(decision: Decision, option: Option) -> OptionStyle | None:
    fields = option.fields
    if decision.kind == "turn":
        return turn_style(fields)
    if fields.get("pass"):
        return OptionStyle(label=option.label, emoji=PASSING)
    describe = DESCRIBE.get(decision.kind)
    emoji = shop_keycap(fields) if decision.kind == "crafts" else None
    return OptionStyle(
        label=option.label,
        emoji=emoji or EMOJI.get(decision.kind),
        description=with_coin_note(fields, describe(fields) if describe else None),
    )


def chain_style(decisions: tuple[Decision, ...], options: tuple[Option, ...]) -> OptionStyle | None:
    """An action and what follows it as one line: the member its time costs, `Stables:
    train #2, make a horse (6 time), and #1 at the Wainwright dies`; the privilege a council
    step brings or a new city's cubes, `#2 enters the council (1 scroll + 1 time) — Take
    brown + green cubes`. Where that passes a button's 80 characters in some language, the
    last step alone, the steps before it in its description (`First, #2 enters …`)."""
    if len(decisions) < 2:
        return None
    kind = decisions[-1].kind
    if kind not in BROUGHT and kind != "die":
        return None
    before = step_style(decisions[:-1], options[:-1])
    before_label = before.label or options[-2].label
    last = options[-1]
    note: Text | None
    if kind == "die":
        label = w.m("label.and_dies", action=before_label, death=last.label)
        note = die_text(last.fields)
    else:
        label = w.m("label.then", action=before_label, then=last.label)
        # a trip keeps where the city lies; a council step's note ("then a privilege") is said
        note = before.description if kind == "reward" else None
    if fits(label, BUTTON_LABEL_MAX):
        return OptionStyle(label, before.emoji, note)
    if kind in BROUGHT:
        # what it brings on the button; the step before, said as done first, in the panel's
        # legend (`privilege：#1 enters …` read as one chain of colons)
        first = w.m("note.first", action=before_label)
        return OptionStyle(
            last.label, EMOJI[kind], first if fits_description(first) else before_label
        )
    return OptionStyle(last.label, EMOJI[kind], before_label)


def step_style(decisions: tuple[Decision, ...], options: tuple[Option, ...]) -> OptionStyle:
    """How the steps before a line's last show: a chain's words, or one option's."""
    if len(decisions) > 1:
        return chain_style(decisions, options) or OptionStyle()
    return option_style(decisions[0], options[0]) or OptionStyle()


# -- a turn: a cube and the action of its space, the well, or a free final action -------


def turn_style(fields: Mapping[str, Any]) -> OptionStyle:
    how = fields["how"]
    if how == "free":
        return free_style(fields["action"])
    if how == "well":
        return well_style(fields)
    return take_style(fields)


def free_style(action: str) -> OptionStyle:
    return OptionStyle(
        label=w.heading(action),
        emoji=space_keycap(action) or EMOJI.get(action),
        description=w.m("note.free", action=action_text(action)),
    )


def well_style(fields: Mapping[str, Any]) -> OptionStyle:
    colour, action = fields["colour"], fields["action"]
    paid = w.well_payment(colour, fields["lacking"], fields["marker"])
    return OptionStyle(
        label=w.m("label.well_short", paid=paid, action=w.heading(action)),
        emoji=EMOJI["well"],
        description=well_note(paid, action_text(action)),
    )


def take_style(fields: Mapping[str, Any]) -> OptionStyle:
    space, colour = fields["space"], fields["colour"]
    if colour == "black":
        label = w.m("label.space_plague", space=w.heading(space))
        description = w.m("note.plague", time=w.time(fields["time"]), action=action_text(space))
    else:
        label = w.m("label.space_colour", space=w.heading(space), colour=w.colour(colour))
        description = w.m("note.gain", colour=w.colour(colour), action=action_text(space))
    # the space's number on the turn's picture, not the cube's colour (named in the label)
    emoji = space_keycap(space) or EMOJI.get(colour)
    return OptionStyle(label=label, emoji=emoji, description=description)


def action_text(space: str) -> Msg:
    """What an action space's action does, for the descriptions of the turn's options."""
    return w.m(f"action.{space}")


def well_note(paid: Msg, action: Msg) -> Msg:
    """`Pay 2 brown + 1 coin, then: …` ("2 brown + 1 coin" says itself that the coin is the
    third brown), or only what follows where that is too long for a menu line."""
    full = w.m("note.well", paid=paid, action=action)
    return full if fits_description(full) else w.m("note.then", action=action)


# -- what the other steps' options do --------------------------------------------------


def travel_text(fields: Mapping[str, Any]) -> Msg:
    """The city's letter and where it lies on the picture's travel map."""
    city = fields["city"]
    letter = CITY_LETTER.get(city, "")
    return w.m("note.city", city=w.city(city), letter=letter, where=where_on_map(city))


def where_on_map(city: str) -> Msg:
    """Where a city lies on the picture's travel map, in words for menus."""
    x, y = CITY_XY.get(city, (244, 116))
    fx, fy = x / 488, y / 232
    row = "top" if fy < 0.3 else "bottom" if fy > 0.7 else ""
    side = "left" if fx < 0.35 else "right" if fx > 0.65 else ""
    return w.m(f"map.{'_'.join(part for part in (row, side) if part) or 'centre'}")


def market_text(fields: Mapping[str, Any]) -> Msg | None:
    """A sale that is not the trigger's free first one costs more (the note says so)."""
    return None if fields.get("free") else w.m("note.market")


def council_text(fields: Mapping[str, Any]) -> Msg:
    if fields["how"] in ("enter", "promote"):
        return w.m("note.council_then")
    return w.m("note.privilege")


def church_text(fields: Mapping[str, Any]) -> Msg:
    return w.m("note.church")


def die_text(fields: Mapping[str, Any]) -> Msg:
    """The chronicle row of the dying member's place."""
    return w.m("note.die", row=w.m(f"row.{fields['row']}"))


CRAFTS_NOTE = {
    "train": "note.train",
    "trainonly": "note.train",
    "time": "note.trained",
    "mill": "note.mill",
    "grain": "note.bought",
    "cubes": "note.bought",
}


def crafts_text(fields: Mapping[str, Any]) -> Msg:
    return w.m(CRAFTS_NOTE[fields["how"]])


DESCRIBE = {
    "travel": travel_text,
    "market": market_text,
    "council": council_text,
    "church": church_text,
    "die": die_text,
    "crafts": crafts_text,
}


def with_coin_note(fields: Mapping[str, Any], description: Msg | None) -> Msg | None:
    """An option paid partly in coins also says which cubes the coins stand in for
    (`… · Paying 1 coin instead of 1 green`), in solo naming the start marker so spent."""
    coins = fields.get("coins")
    if not coins:
        return description
    instead = w.cubes(fields["instead"])
    notes = [
        w.m("note.coins", coins=w.coin_words(coins, fields["marker"], short=short), cubes=instead)
        for short in (False, True)
    ]
    if description is None:
        return notes[0]
    tries = [w.m("note.also", a=description, b=note) for note in notes]
    return next((t for t in tries if fits_description(t)), description)


@lru_cache(maxsize=4096)
def fits_description(text: Msg) -> bool:
    return fits(text, DESCRIPTION_MAX)


# -- secrets and rules -----------------------------------------------------------------


def private_text(view: dict[str, Any]) -> Msg:
    you = view.get("you")
    if not you:
        return w.m("private.nothing")
    lines = [
        w.m("private.customer", wants=wants_text(tile["wants"]), points=tile["points"])
        for tile in you["customers"]
    ] or [w.m("private.none")]
    return w.m("private.text", points=you["customer_points"], customers=line_list(lines))


def wants_text(wants: dict[str, int]) -> Msg:
    """What a customer wanted: `1 horse + 2 grain`."""
    return w.plus(
        [
            w.m("many", n=n, good=w.m("grain") if g == "grain" else w.good(g))
            for g, n in wants.items()
        ]
    )


def line_list(lines: list[Msg]) -> Msg:
    """Lines one under the other."""
    if len(lines) == 1:
        return lines[0]
    return w.m("lines", a=lines[0], b=line_list(lines[1:]))


def rules_text() -> Msg:
    """Markdown for `/rules`: the game as played here and its reconstructed facts."""
    return w.m("rules")
