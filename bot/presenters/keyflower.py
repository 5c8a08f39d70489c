"""Keyflower in words: panel labels, emoji and descriptions for its options, the folded
lines of a turn, a seat's secrets and the rules summary (bot/presenters/__init__.py).

Descriptions of tiles come from the component tables (games.keyflower.components); what an
option is comes from its `fields` (`tile`, `item`, `paid`, a cell's `near`, a turn's
`roads`), never from its id's format or its label's key.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from meeple_hall.bot.presenters import (
    BUTTON_LABEL_MAX,
    DESCRIPTION_MAX,
    OptionStyle,
    fits,
    keycap,
)
from meeple_hall.games.core import Decision, Msg, Option, Text
from meeple_hall.games.keyflower.components import tiles
from meeple_hall.games.keyflower.words import (
    amount,
    amounts,
    count,
    item,
    m,
    near_words,
    side_words,
    tile_label,
    tile_name,
)

# Worker emoji take the picture's shapes where Discord has them (a yellow diamond is
# drawn orange), so a colour-blind player can match the panel to the table.
EMOJI = {
    "bid": "🔨",
    "use": "⚒️",
    "pass": "⏭️",
    "blue": "🔵",
    "red": "🔺",
    "yellow": "🔶",
    "green": "🟩",
    "mixed": "🎨",
    "gold": "🟨",
    "iron": "⬛",
    "stone": "⬜",
    "wood": "🟫",
    "anvil": "🛠️",
    "pick": "⛏️",
    "saw": "🪚",
    "move": "🛒",
    "up": "⬆️",
    "done": "✅",
    "next": "➡️",
    "back": "↩️",
    "none": "✖️",
}
KIND_EMOJI = {
    "home": "🏠",
    "spring": "🌱",
    "summer": "☀️",
    "autumn": "🍂",
    "winter": "❄️",
    "boat": "⛵",
    "turn_order": "🔢",
}


def marked(fields: Mapping[str, Any], otherwise: str) -> str:
    """The keycap of an option's `mark` (a tile's to place, a cell's, a turn's: the number
    the decision's picture writes on the tile, in the cell's ring or under the turn),
    `otherwise` where it has none."""
    return keycap(fields.get("mark")) or otherwise


TILE_DECISIONS = ("location", "from", "to", "upgrade", "boat", "winter", "place_tile", "flip")
PLACING = ("place_tile", "place_at")  # the decisions a placing line starts with


# Which parameters of a tile side's effect are counts of points (`2 points`), and which
# name a colour, resource or skill (data/keyflower/tiles.toml).
POINTS = ("per", "per_set")
# A side's effect names a message `effect.<effect>`; these have none (the points say it all).
NO_WORDS = frozenset({"none"})


def _side_text(side: dict[str, Any]) -> Msg | None:
    """What one side of a tile does, in a few words: `1 wood`, `1 saw → 3 wood, 7 points`."""
    effect = side.get("effect", "")
    text: Msg | None = None
    if effect == "ability":
        text = m(f"ability.{side.get('ability', '')}")
    elif effect and effect not in NO_WORDS:
        params: dict[str, Any] = {}
        for key, value in side.items():
            if key in POINTS:
                params[key] = count("point", value)
            elif key in ("n", "set", "carry", "upgrades"):
                params[key] = value
        if "give" in side:
            params["give"] = amounts(side["give"])
        if "options" in side:
            params["options"] = [item(o) for o in side["options"]]
        if "skill" in side:
            params["skill"] = amount(1, side["skill"])
        if "pay" in side:
            params["pay"] = item(side["pay"])
        if "kind" in side:
            params["kind"] = m("any_resource") if side["kind"] == "any" else item(side["kind"])
        if "carry" in side:
            params["carry"] = count("resource", side["carry"])
            params["upgrades"] = count("upgrade", side.get("upgrades", 0))
        text = m(f"effect.{effect}", **params)
    points = side.get("points", 0)
    if points:
        worth = count("point", points)
        return m("with_points", text=text, points=worth) if text else worth
    return text


def _tile_text(tile_id: str, upgraded_only: bool = False) -> Msg | None:
    """A tile's effect, and its upgraded side's, from the component tables."""
    s = tiles().get(tile_id)
    if s is None:
        return None
    if s.is_summer_boat:
        a, b = (m(f"ability.{side.get('ability', '')}") for side in (s.front, s.back or {}))
        return m("boat_sides", a=a, b=b)
    back = _side_text(s.back) if s.back else None
    if upgraded_only:
        return m("upgraded", text=back) if back else None
    front = _side_text(s.front)
    if back and back != front:
        return m("front_back", front=front, back=back) if front else m("upgraded", text=back)
    return front


def _with_upgrade_cost(tile_id: str) -> Msg | None:
    """A tile's effect with what upgrading it costs (`2 iron; upgrade for 1 anvil → …`),
    shortened to the cost where the upgraded side does not fit a menu line's 100 in some
    language."""
    s = tiles()[tile_id]
    front = _side_text(s.front) or m("nothing")
    cost = amounts(s.upgrade or {})
    back = _side_text(s.back) if s.back else None
    if back:
        full = m("upgrade_to", front=front, cost=cost, back=back)
        if fits(full, DESCRIPTION_MAX):
            return full
    return m("upgrade_cost_after", front=front, cost=cost)


def chain_style(decisions: tuple[Decision, ...], options: tuple[Option, ...]) -> OptionStyle | None:
    """A folded panel line in a player's words: `Bid on S07 Miner`, `2 more → 3 blue, beats
    2`, `Move 1 wood from Woodcutter to Home`, `Upgrade Miner, paying 1 anvil`."""
    kinds = tuple(d.kind for d in decisions)
    if len(kinds) > 1 and kinds[-1] in USE_ASKS:
        return _use_asks_style(decisions, options)
    if kinds[-4:] == ("from", "what", "to", "transport"):
        carried = chain_style(decisions[:-1], options[:-1]) or OptionStyle()
        finished = m("chain.then_finish", label=carried.label or options[-2].label)
        return OptionStyle(finished, carried.emoji, carried.description)
    if "transport" in kinds[1:]:
        return _transport_style(decisions, options)
    last = option_style(decisions[-1], options[-1]) or OptionStyle()
    if kinds == ("action", "location"):
        verb = "chain.bid_on" if options[0].id == "bid" else "chain.use"
        return OptionStyle(m(verb, tile=options[1].label), last.emoji, last.description)
    groups = [
        o
        for d, o in zip(decisions, options, strict=True)
        if d.kind == "gather" and "tile" in o.fields
    ]
    if kinds[-1] == "count":
        label = last.label or options[-1].label
        if groups:
            outbid = [tile_name(o.fields["tile"]) for o in groups]
            label = m("chain.bringing", label=label, tiles=outbid)
        return OptionStyle(label, EMOJI.get(options[0].id), last.description)
    if kinds[-1] == "gather" and groups:
        # every worker placed is an outbid one: the groups' own words say the move
        brought = (
            groups[0].label
            if len(groups) == 1
            else m("chain.brought", groups=[o.label for o in groups])
        )
        return OptionStyle(brought, EMOJI.get(options[0].id))
    if kinds[-3:] == ("from", "what", "to"):
        source, resource, dest = options[-3:]
        words = m(
            "chain.move",
            what=amount(1, resource.fields["item"]),
            source=tile_name(source.fields["tile"]),
            dest=tile_name(dest.fields["tile"]),
        )
        return OptionStyle(words, EMOJI.get(resource.id), last.description)
    if kinds[-2:] == ("transport", "upgrade"):
        return OptionStyle(m("chain.upgrade", tile=options[-1].label), "⬆️", last.description)
    if kinds[-2:] == ("upgrade", "pay"):
        upgraded = options[-2].fields["tile"]
        words = m(
            "chain.upgrade_paying",
            tile=tile_name(upgraded),
            paid=last.label or options[-1].label,
        )
        return OptionStyle(words, "⬆️", _tile_text(upgraded, upgraded_only=True))
    if kinds[0] in PLACING:
        return _placing_style(decisions, options)
    return None


def _use_asks_style(
    decisions: tuple[Decision, ...], options: tuple[Option, ...]
) -> OptionStyle | None:
    """The workers placed and what the use then asks: `2 blue, giving up a saw`."""
    placed = chain_style(decisions[:-1], options[:-1]) or OptionStyle()
    label = placed.label or options[-2].label
    asked = m(f"chain.{decisions[-1].kind}", label=label, item=options[-1].label)
    return OptionStyle(asked, placed.emoji, placed.description)


def _transport_style(
    decisions: tuple[Decision, ...], options: tuple[Option, ...]
) -> OptionStyle | None:
    """A use's workers with what its transport then does, or an upgrade with what follows
    it: `1 blue, upgrade Miner, then finish`, `Upgrade Miner, then finish`. Where the line
    would pass a button's 80 characters in some language, it names the workers by their
    count only (`1 red (0 from behind your screen), then finish`), else not at all, and the
    description says them whole."""
    starts = [i for i, d in enumerate(decisions) if d.kind == "transport"]
    segments = [options[a:b] for a, b in zip(starts, [*starts[1:], len(options)], strict=True)]
    before = decisions[: starts[0]]
    if not before or before[0].kind in ("upgrade", "pay"):
        return _within_transport(before, options[: starts[0]], segments)
    head = _head_style(before, options[: starts[0]])
    counted = option_style(before[-1], options[len(before) - 1]) or OptionStyle()
    for words in (head.label, counted.label or options[len(before) - 1].label, None):
        label = _transport_words(segments, words, transporting=False)
        if label is None:
            return None
        if fits(label, BUTTON_LABEL_MAX):
            break
    described = _upgraded_text(segments) or head.description
    return OptionStyle(label, head.emoji, described if words is head.label else head.label)


def _within_transport(
    decisions: tuple[Decision, ...], options: tuple[Option, ...], segments: list[tuple[Option, ...]]
) -> OptionStyle | None:
    """A line of the transport's own panels (what to do, which tile to upgrade, how to pay)
    with what follows it: `Upgrade Miner, then finish`."""
    lead: Text | None = None
    if decisions and decisions[0].kind == "upgrade":
        lead = _upgrade_words(list(options), None)
    elif decisions:
        lead = (option_style(decisions[0], options[0]) or OptionStyle()).label or options[0].label
    label = _transport_words(segments, lead, transporting=True)
    if label is None:
        return None
    upgraded = _upgraded_text(segments)
    if upgraded is None and decisions and decisions[0].kind == "upgrade":
        upgraded = _tile_text(options[0].fields["tile"], upgraded_only=True)
    return OptionStyle(label, "⬆️", upgraded)


def _upgraded_text(segments: list[tuple[Option, ...]]) -> Msg | None:
    """What the last tile a line upgrades does once upgraded."""
    upgraded = [s[1].fields["tile"] for s in segments if s[0].id == "up" and len(s) > 1]
    return _tile_text(upgraded[-1], upgraded_only=True) if upgraded else None


def _head_style(decisions: tuple[Decision, ...], options: tuple[Option, ...]) -> OptionStyle:
    """The words of a line's steps before its transport: the workers placed."""
    style = (
        chain_style(decisions, options)
        if len(decisions) > 1
        else option_style(decisions[0], options[0])
    ) or OptionStyle()
    return OptionStyle(style.label or options[-1].label, style.emoji, style.description)


def _transport_words(
    segments: list[tuple[Option, ...]], label: Text | None, *, transporting: bool
) -> Text | None:
    """A transport's steps in words, each after the words before it (`label`: none where the
    panel asks the transport itself; `transporting` where they were a transport's step too):
    an upgrade, finishing, or an upgrade's tile still to choose. None for a carry (the panels
    never fold one after other steps)."""
    for index, (answer, *rest) in enumerate(segments):
        if answer.id == "up" and rest:
            label = _upgrade_words(rest, label)
        elif answer.id == "up":
            label = m("chain.then_choose_upgrade", label=label) if label else answer.label
        elif answer.id == "done":
            key = "chain.then_finish" if transporting or index else "chain.no_transport"
            label = m(key, label=label) if label else answer.label
        else:
            return None
    return label


def _upgrade_words(chosen: list[Option], label: Text | None) -> Msg:
    """`upgrade Miner`, `upgrade Miner paying 1 gold`, after `label` (or on its own)."""
    tile = tile_name(chosen[0].fields["tile"])
    if len(chosen) > 1:
        paid = _payment(chosen[1].fields["paid"])
        if label is None:
            return m("chain.upgrade_paying", tile=tile, paid=paid)
        return m("chain.then_upgrade_paying", label=label, tile=tile, paid=paid)
    return (
        m("chain.then_upgrade", label=label, tile=tile) if label else m("chain.upgrade", tile=tile)
    )


def _placing_style(decisions: tuple[Decision, ...], options: tuple[Option, ...]) -> OptionStyle:
    """A tile, its cell and its turn as one line: `Place Peddler W of Home 5, roads NE, W`;
    without the tile's words where the panel's prompt names the tile, or where the line
    would pass a button's 80 characters in some language (the description names it)."""
    chosen = {d.kind: o for d, o in zip(decisions, options, strict=True)}
    cell, turn = chosen.get("place_at"), chosen.get("place_rot")
    where = _placement_words(cell) if cell else ""
    short = m("chain.turned", place=where, turn=_placement_words(turn)) if turn else where
    tile = chosen.get("place_tile")
    if tile is None:  # the panel asks the cell: its picture numbers the cells
        return OptionStyle(short, marked(cell.fields, "🔄" if turn else "📍") if cell else "🔄")
    placed = m("chain.place", tile=tile_name(tile.fields["tile"]), cell=where)
    label = m("chain.turned", place=placed, turn=_placement_words(turn)) if turn else placed
    style = option_style(decisions[0], tile) or OptionStyle()
    if not fits(label, BUTTON_LABEL_MAX):
        return OptionStyle(short, style.emoji, tile_label(tile.fields["tile"]))
    return OptionStyle(label, style.emoji, style.description)


def _placement_words(option: Option) -> Text:
    """A cell or a turn in words, without the coordinates or turn typed in /move:
    `W of Home 2`, `roads NE W SE; road to Home 4`."""
    fields = option.fields
    if "near" in fields:
        return m("cell.words", near=near_words(fields["near"]))
    if "rot" not in fields:
        return option.label
    sides = side_words(fields["roads"], fields["water"])
    if fields["joined"]:
        joined = [tile_name(t) for t in fields["joined"]]
        return m("turn.words_joined", sides=sides, tiles=joined)
    return sides if isinstance(sides, Msg) else m("turn.words", sides=sides)


# Panels fold these decisions into the one before them (bot/panels.py): Bid or Use and the
# tile in one click, the colour, the outbid workers brought along, how many and what the use
# then asks in the next; a transport's move as one line; a tile placed, its cell and turn.
# What a use asks once the workers are placed: a resource to take, a skill tile to give up
# (Brewer, Hiring fair), a worker to discard (Tavern).
USE_ASKS = ("resource", "skill", "discard")
FOLDED = frozenset(
    {"location", "gather", "count", "from", "what", "to", "upgrade", "pay", "transport"}
    | {"place_at", "place_rot", *USE_ASKS}
)
# What a transport tile's use asks folds into its workers' line and after an upgrade: an
# upgrade (its tile and payment) or finishing, the good AI's most frequent transports ("1
# blue, upgrade Miner, then finish"). A carry (from → what → to) is asked after the line,
# which the panel keeps alone too: folded, it would multiply the colour panel's lines by
# every source, resource and destination.
#
# Finishing folds after a carry too (the carry's line, and the carry then Finish: "Move 1
# wood from Woodcutter to Home, then finish", `folds_line`), never an upgrade after it (its
# tile and payment would pass the steps a line may take) nor another carry (every source,
# resource and destination again, for each carry: the panel's lines squared).
TRANSPORT_AFTER = frozenset({"count", "gather", "mix", "upgrade", "pay", "to"})
# A tile's cell folds into the tile chosen and its turn into the cell, never into the tile
# placed before: one line places one tile. What a use asks folds into the workers placed.
FOLDED_AFTER = {
    "place_at": frozenset({"place_tile"}),
    "place_rot": frozenset({"place_at"}),
    "transport": TRANSPORT_AFTER,
    **dict.fromkeys(USE_ASKS, frozenset({"count", "gather"})),
}
FOLDED_ANSWERS = {"transport": frozenset({"up", "done"})}


def folds_line(decisions: tuple[Decision, ...], options: tuple[Option, ...]) -> bool:
    """After a carry (from → what → to), a transport's line goes on to finishing only: an
    upgrade is asked after the carry, whose line the panel keeps alone too."""
    if len(decisions) > 1 and decisions[-2].kind == "to":
        return options[-1].id == "done"
    return True


def option_style(decision: Decision, option: Option) -> OptionStyle | None:
    kind, oid = decision.kind, option.id
    emoji = EMOJI.get(oid)
    if oid == "back":
        return OptionStyle(label=m("label.back"), emoji=emoji)
    tile_id = option.fields.get("tile")
    if kind in TILE_DECISIONS and tile_id in tiles():
        spec = tiles()[tile_id]
        description: Msg | None
        if kind in ("to", "from") and spec.upgrade:
            description = m("upgrade_cost", cost=amounts(spec.upgrade))
        elif kind == "location" and spec.upgrade:
            description = _with_upgrade_cost(tile_id)
        elif kind == "boat":
            description = None  # the label says what the boat brings or scores
        elif "side" in option.fields:
            # a summer boat gives the ability of the side face up, not "either side"
            description = m(f"ability.{option.fields['side']}")
        else:
            description = _tile_text(tile_id, upgraded_only=kind in ("upgrade", "flip"))
        # a tile to place: its number's keycap (`mark`), which its picture writes on it
        emoji = marked(option.fields, KIND_EMOJI.get(spec.kind) or "")
        return OptionStyle(label=option.label, emoji=emoji or None, description=description)
    if kind == "flip" and oid == "none":
        return OptionStyle(label=m("label.no_upgrade"), emoji=emoji)
    if kind in STYLED_IN_CONTEXT:
        label = _placement_words(option)
        if label in _alike_words(decision):
            label = option.label
        return OptionStyle(label=label, emoji=marked(option.fields, _PLACE_EMOJI[kind]))
    if kind == "pay":
        return OptionStyle(label=_payment(option.fields["paid"]), emoji="💰")
    if kind == "count":  # as many workers of the colour chosen: that colour's emoji
        return OptionStyle(label=option.label, emoji=_item_emoji(option.label))
    return OptionStyle(label=option.label, emoji=emoji)


def _item_emoji(label: Text) -> str | None:
    """The emoji of the item an amount's label names ("2 yellow": 🔶), if it has one."""
    item = label.args.get("item") if isinstance(label, Msg) else None
    return EMOJI.get(item.key.rsplit(".", 1)[-1]) if isinstance(item, Msg) else None


# A cell's or a turn's words name it only where no other option of its decision reads alike
# (else its label, coordinates and all): these option styles read the whole decision.
STYLED_IN_CONTEXT = frozenset({"place_at", "place_rot"})
_PLACE_EMOJI = {"place_at": "📍", "place_rot": "🔄"}  # a cell or turn with no `mark`
# The words shared by several options of the decisions asked last, by the decision itself
# (the same object: a decision is never changed), so that its panel's lines read each
# decision's options once, not once a line.
_ALIKE: dict[int, tuple[Decision, frozenset[Text]]] = {}
_ALIKE_MAX = 64


def _alike_words(decision: Decision) -> frozenset[Text]:
    """The placement words that several options of `decision` (not Back) share."""
    known = _ALIKE.get(id(decision))
    if known is not None and known[0] is decision:
        return known[1]
    words = Counter(_placement_words(o) for o in decision.options if o.id != "back")
    alike = frozenset(w for w, n in words.items() if n > 1)
    if len(_ALIKE) >= _ALIKE_MAX:
        _ALIKE.clear()
    _ALIKE[id(decision)] = (decision, alike)
    return alike


def _payment(paid: dict[str, int]) -> Msg:
    """`1 gold, 1 iron`: an upgrade's payment in words."""
    if not paid:
        return m("label.free")
    return m("label.paying", paid=[amount(n, kind) for kind, n in paid.items()])


def private_text(view: dict[str, Any]) -> Msg:
    you = view.get("you")
    if not you:
        return m("private.watching")

    def held(counts: dict[str, int]) -> list[Msg] | Msg:
        shown = [
            m("private.held", emoji=EMOJI[k], n=n, item=item(k))
            for k, n in sorted(counts.items())
            if n
        ]
        return shown or m("private.none")

    text = m(
        "private.screen", workers=held(you.get("screen", {})), skills=held(you.get("skills", {}))
    )
    hand = you.get("winter_hand", [])
    if hand:
        text = m("private.with_hand", text=text, hand=[tile_label(t["id"]) for t in hand])
    if you.get("winter_pick"):
        text = m("private.with_chosen", text=text, chosen=list(you["winter_pick"]))
    return text


def rules_text() -> Msg:
    """Markdown for `/rules`: the game as played here and its reconstructed components."""
    return m("rules")
