"""The Castles of Burgundy in words: option styles for the panels, a die folded with its
action and the action's tile, the seat's secrets and the rules summary. Read from decisions,
their options' `fields` (games/burgundy/turn.py, follow_ups.py) and views; nothing here
parses an option id.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from itertools import combinations
from string import Formatter
from typing import Any

from meeple_hall.bot.presenters import (
    BUTTON_LABEL_MAX,
    MENU_LABEL_MAX,
    OptionStyle,
    fits,
    keycap,
)
from meeple_hall.games.burgundy.words import (
    count,
    hex_name,
    m,
    qualified,
    seat_name,
    tile_name,
)
from meeple_hall.games.burgundy.words import goods as goods_name
from meeple_hall.games.core import Decision, Msg, Option, Text
from meeple_hall.games.core.catalogues import LANGUAGES, entry, render

TYPE_EMOJI = {
    "building": "🏠",
    "animal": "🐄",
    "knowledge": "📜",
    "castle": "🏰",
    "mine": "⛏️",
    "ship": "⛵",
}
ANIMAL_EMOJI = {"cow": "🐄", "sheep": "🐑", "pig": "🐖", "hen": "🐔"}
DIE_KINDS = ("die", "castle")
ACTION_EMOJI = {"take": "📥", "place": "🧩", "sell": "💰", "workers": "👷"}

# Panels fold these decisions into the one before them (bot/panels.py): the die, its action
# and the action's tile (or hex) in one click; buying and the tile bought; a full storage's
# discard into the take or the buy that fills it; a ship placed by a town hall and the depot
# it ships from; a ship and the goods it loads where there is room for only one new kind; a
# castle a town hall places and the castle's action with its tile; a market, carpenter or
# church a town hall places and the tile its effect takes.
FOLDED = frozenset(
    {"action", "take", "place", "buy", "discard", "ship", "shipgoods", "castle", "effect_take"}
)
FOLDED_AFTER = {
    "buy": frozenset(DIE_KINDS),
    "discard": frozenset({"take", "buy"}),
    # never after a die's placing: each placing line would multiply by every depot
    "ship": frozenset({"townhall"}),
    "shipgoods": frozenset({"ship"}),
    # a town hall's castle only: after a die's placing it would multiply every line by
    # the castle's 20-50
    "castle": frozenset({"townhall"}),
    # a town hall's building only: after a die's placing, each placing line would multiply
    # by every tile of the building's types in the depots
    "effect_take": frozenset({"townhall"}),
}


def pick_sets(decision: Decision) -> list[tuple[str, ...]] | None:
    """A ship's goods where the storage has room for two new kinds or more (`shipgoods`, a
    choice of several): every set of that many kinds a line, so that the ship's line folds
    it (one click, not a ship, then a menu and Confirm). At most 15 sets (2 of 6 kinds)."""
    if decision.kind != "shipgoods" or decision.min_choices != decision.max_choices:
        return None
    return list(combinations((o.id for o in decision.options), decision.max_choices))


def option_style(decision: Decision, option: Option) -> OptionStyle | None:
    kind, fields = decision.kind, option.fields
    if kind in ("die", "castle"):
        return _die_style(option)
    if kind == "action":
        action = fields["action"]
        return OptionStyle(
            emoji=ACTION_EMOJI.get(action), label=option.label, description=m(f"note.{action}")
        )
    if fields.get("skip"):
        return OptionStyle(label=option.label, emoji="⏭️")
    if kind == "discard":
        # What the tile would do, as what is lost: never as if discarding brought it.
        effect = explain(fields)
        note = m("note.discard", effect=effect) if effect else None
        return OptionStyle(label=option.label, emoji=tile_emoji(fields), description=note)
    if "tile" in fields:  # take, place, effect_take, townhall, buy
        return OptionStyle(
            label=option.label, emoji=tile_emoji(fields), description=explain(fields)
        )
    if kind in ("ship", "shipgoods", "warehouse"):
        return OptionStyle(label=option.label, emoji="⛵" if kind == "ship" else "📦")
    return None


def _die_style(option: Option) -> OptionStyle:
    """A die (or a castle's die of any value) with what its value is good for; buying; ending
    the turn."""
    action = option.fields.get("action")
    if action == "buy":
        return OptionStyle(label=option.label, emoji="⬛", description=m("note.buy"))
    if action == "end":
        return OptionStyle(label=m("label.end_short"), emoji="⏹️", description=m("note.end"))
    value = option.fields["value"]
    uses = m("note.die", value=value, goods=goods_name(value))
    return OptionStyle(label=option.label, emoji="🎲", description=uses)


def chain_style(decisions: tuple[Decision, ...], options: tuple[Option, ...]) -> OptionStyle | None:
    """A die folded with its action, and the action with its tile: "Die 4: Take Castle from
    depot 4", "Die 3 as 4 (1 worker): Place Bank on building 3 (row 3, space 3)", "Die 6:
    Sell …", in place of the steps' labels joined (the action step only repeats the die value
    that the tile or hex already says); a tile bought, "Buy Castle from the black depot for 2
    silverlings"; a full storage's discard after a take or a buy, "…, discarding Mine"; a
    town hall's tile with the ship's depot and goods (`_follow_up_style`)."""
    if decisions[0].kind in ("townhall", "ship"):
        return _follow_up_style(decisions, options)
    discard = options[-1] if decisions[-1].kind == "discard" else None
    if discard is not None:
        decisions, options = decisions[:-1], options[:-1]
    die = options[0] if decisions[0].kind in DIE_KINDS else None
    if decisions[0].kind == "buy" or (die and die.fields.get("action") == "buy"):
        die, move = None, _buy_style(options[1:] if die else options)
    elif die is not None:
        move = _action_style(
            decisions[1:], options[1:], discarding=discard is not None, said=_die_paying(die)
        )
    else:
        move = _action_style(decisions, options, discarding=discard is not None)
    if move is None or move.label is None:
        return None
    label = move.label
    if discard is not None:
        label = m("label.discarding", label=label, tile=tile_name(discard.fields["tile"]))
    if die is None:
        return OptionStyle(label=label, emoji=move.emoji, description=move.description)
    with_die = m("label.with_die", die=die.label, move=label)
    if not _fits_with_die(die.label, label):
        # Too long for a menu line in some language: the die's words go to the description.
        return OptionStyle(label=label, emoji=move.emoji, description=die.label)
    return OptionStyle(label=with_die, emoji=move.emoji, description=move.description)


def _fits_with_die(die: Text, move: Text) -> bool:
    """`fits(m("label.with_die", die=die, move=move), MENU_LABEL_MAX)` from the lengths of the
    die's and the move's words in each language and the template's own (`_with_die_extra`),
    without rendering the two together: a die's panel asks it of each of its lines."""
    for lang in LANGUAGES:
        extra = _with_die_extra(lang)
        if extra is None:
            return fits(m("label.with_die", die=die, move=move), MENU_LABEL_MAX)
        if extra + len(render(lang, die)) + len(render(lang, move)) > MENU_LABEL_MAX:
            return False
    return True


@cache
def _with_die_extra(lang: str) -> int | None:
    """The characters "label.with_die" adds to the die's and the move's words in `lang`
    (None unless its template holds each of {die} and {move} once and formats nothing else,
    so that a rendered line is exactly that longer)."""
    found = entry(lang, m("label.with_die").key)
    if not isinstance(found, str):
        return None
    fields = [(name, spec, conversion) for _, name, spec, conversion in Formatter().parse(found)]
    named = sorted(name for name, _, _ in fields if name is not None)
    if named != ["die", "move"] or any(spec or conversion for name, spec, conversion in fields):
        return None
    return len(found.format(die="", move=""))


def _buy_style(options: tuple[Option, ...]) -> OptionStyle | None:
    """The tile bought (after the die panel's Buy): "Buy Castle from the black depot"."""
    if len(options) != 1:
        return None
    fields = options[0].fields
    name, depot = tile_name(fields["tile"]), fields.get("depot", 0)
    where = (
        m("label.from_depot", tile=name, depot=depot) if depot else m("label.from_black", tile=name)
    )
    return OptionStyle(m("label.buy_tile", tile=where), tile_emoji(fields), explain(fields))


def _die_paying(die: Option) -> Msg | None:
    """The workers a turned die's label says it costs ("Die 6 as 3 (3 workers)"), if any."""
    label = die.label
    if isinstance(label, Msg) and label.key == m("label.die_as").key:
        paying = label.args.get("paying")
        return paying if isinstance(paying, Msg) else None
    return None


def _action_style(
    decisions: tuple[Decision, ...],
    options: tuple[Option, ...],
    *,
    discarding: bool = False,
    said: Msg | None = None,
) -> OptionStyle | None:
    """An action (sell, take workers) alone, or with the tile it takes or the hex it fills:
    "Take Castle from depot 2", "Place Bank on building 3 (row 3, space 3)"; a full storage
    said unless the line goes on to its discard. A placing's workers said once: not again
    after the die's label that says them (`said`: "Die 6 as 3 (3 workers): Place Inn on
    building 3", not "…, paying 3 workers", which read as paying 6)."""
    if not decisions or decisions[0].kind != "action" or len(options) > 2:
        return None
    action = options[0]
    emoji = ACTION_EMOJI[action.fields["action"]]
    if len(options) == 1:
        return OptionStyle(
            label=action.label, emoji=emoji, description=m(f"note.{action.fields['action']}")
        )
    chosen = options[1]
    if decisions[1].kind == "take":
        taken = m("label.take_tile", tile=chosen.label, depot=action.fields["depot"])
        # as the action said: its own worker cost, a full storage
        paying, full = action.fields.get("workers"), action.fields.get("storage_full", False)
        label = qualified(taken, workers=paying, storage_full=full and not discarding)
    elif decisions[1].kind == "place":
        label = m("label.place_tile", on=_unpaid(chosen.label, said))
    else:
        return None
    return OptionStyle(label=label, emoji=emoji, description=explain(chosen.fields))


def _unpaid(on: Text, said: Msg | None) -> Text:
    """A tile on a hex ("Inn on building 3, paying 3 workers") without its workers where the
    die's label already says that many (`said`)."""
    if said is None or not isinstance(on, Msg) or on.key != m("label.on_paying").key:
        return on
    args = on.args
    if args.get("workers") != said:
        return on
    return m("label.on", tile=args["tile"], hex=args["hex"])


def _follow_up_style(
    decisions: tuple[Decision, ...], options: tuple[Option, ...]
) -> OptionStyle | None:
    """A town hall's tile and the ship's depot, "Place Ship on ⛵ 3 (row 2, space 4), then
    Depot 3: cow ×2"; a ship's depot and the goods loaded, "Depot 3: cow, sheep (room: 1
    new kind), taking cow". Too long for a button in some language: the tile placed goes to
    the description."""
    kinds = tuple(d.kind for d in decisions)
    if kinds[:2] == ("townhall", "castle"):
        return _townhall_castle_style(decisions, options)
    if kinds == ("townhall", "effect_take"):
        return _townhall_take_style(options)
    if kinds == ("ship",):
        return OptionStyle(options[0].label, "⛵")
    if kinds == ("ship", "shipgoods"):
        return _ship_goods_style(options)
    if kinds[0] != "townhall" or kinds[1:2] != ("ship",):
        return None
    shipped = _follow_up_style(decisions[1:], options[1:])
    if shipped is None or shipped.label is None:
        return None
    placed = m("label.place_tile", on=options[0].label)
    label = m("label.then", first=placed, then=shipped.label)
    if not fits(label, BUTTON_LABEL_MAX):
        return OptionStyle(shipped.label, "⛵", placed)
    return OptionStyle(label, "⛵", explain(options[0].fields))


def _ship_goods_style(options: tuple[Option, ...]) -> OptionStyle:
    """A ship's depot and the goods it loads, what differs first: "Depot 4: taking red 1,
    pink 3", the depot's goods and the storage's room below ("Depot 4: 5 tiles of 5 kinds
    (room: 2 new kinds)"): nine lines of a ship's panel shared that ~50-character opening, and
    a phone's menu row cut off the goods after it."""
    ship, goods = options
    depots = ship.fields.get("depots", [])
    if len(depots) == 2:
        label = m("label.taking_two", depot=depots[0], next=depots[1], goods=goods.label)
    else:
        label = m("label.taking", depot=depots[0] if depots else "", goods=goods.label)
    return OptionStyle(label, "⛵", ship.label)


def _townhall_take_style(options: tuple[Option, ...]) -> OptionStyle:
    """A town hall's market, carpenter or church and the tile its effect takes: "Place
    Market on building 3 (row 3, space 3), then Take Castle from depot 4" (a full storage
    said, as the take's own line says it); past a menu line's 100 characters in some language,
    the take alone, the building placed below."""
    placed = m("label.place_tile", on=options[0].label)
    taken = options[1]
    then: Text
    if "depot" in taken.fields:
        then = m(
            "label.take_tile", tile=tile_name(taken.fields["tile"]), depot=taken.fields["depot"]
        )
        full = isinstance(taken.label, Msg) and taken.label.key == m("label.storage_full").key
        then = qualified(then, storage_full=full)
        emoji, said = tile_emoji(taken.fields), explain(taken.fields)
    else:  # taking nothing
        then, emoji, said = taken.label, "⏭️", None
    label = m("label.then", first=placed, then=then)
    if not fits(label, MENU_LABEL_MAX):
        return OptionStyle(then, emoji, placed)
    return OptionStyle(label, emoji, said)


def _townhall_castle_style(
    decisions: tuple[Decision, ...], options: tuple[Option, ...]
) -> OptionStyle | None:
    """A town hall's castle with the castle's action: "Place Castle on castle 4 (row 1,
    space 3), then Castle die as 1: Take Mine from depot 1"; past a button's 80 characters
    in some language, the castle's hex only ("castle 4 (row 1, space 3), then …"), then
    without the die (the depot or hex says its value), else "castle 4: Sell …", the castle
    placed below."""
    placed = m("label.place_tile", on=options[0].label)
    castle = chain_style(decisions[1:], options[1:]) if len(options) > 2 else None
    then = castle.label if castle is not None and castle.label else options[1].label
    move = chain_style(decisions[2:], options[2:]) if len(options) > 3 else None
    bare = move.label if move is not None and move.label else options[-1].label
    emoji = castle.emoji if castle is not None else TYPE_EMOJI["castle"]
    said = castle.description if castle is not None else explain(options[0].fields)
    where = hex_name(options[0].fields["hex"])
    for first, last in ((placed, then), (where, then), (where, bare)):
        label = m("label.then", first=first, then=last)
        if fits(label, BUTTON_LABEL_MAX):
            return OptionStyle(label, emoji, said if first is placed else placed)
    short = m("label.hex_then", **{k: where.args[k] for k in ("space", "die")}, then=bare)
    return OptionStyle(short, emoji, placed)


def explain(tile: Mapping[str, Any]) -> Msg | None:
    """What a tile does (from an option's tile fields): each knowledge tile, building and
    other tile type."""
    if "knowledge" in tile:
        return m(f"effect.k{tile['knowledge']}")
    if "animal" in tile:
        return m("effect.animal", n=tile["value"])
    if "building" in tile:
        return m(f"effect.{tile['building']}")
    if tile["type"] in ("castle", "mine", "ship"):
        return m(f"effect.{tile['type']}")
    return None


def tile_emoji(tile: Mapping[str, Any]) -> str:
    """A tile's colour as an emoji; an animal tile's own animal; a black depot's tile on sale
    its number's keycap (`mark`), which its picture writes on it (the bank, the town hall and
    a ship ringed alike cannot otherwise be told apart)."""
    numbered = keycap(tile.get("mark"))
    if numbered:
        return numbered
    if "animal" in tile:
        return ANIMAL_EMOJI[tile["animal"]]
    return TYPE_EMOJI[tile["type"]]


def private_text(view: dict[str, Any]) -> Msg:
    you = view.get("you")
    if not you:
        return m("private.watching")
    p = view["players"][you["seat"]]
    return m(
        "private.text",
        seat=seat_name(you["seat"]),
        points=count("points", p["score"]),
        # a used die struck through, as the picture fades it
        dice=" ".join(
            f"~~{v}~~" if used else str(v) for v, used in zip(p["dice"], p["used"], strict=True)
        ),
        workers=p["workers"],
        silver=p["silver"],
        storage=[tile_name(t["face"]) for t in p["storage"]] or m("private.empty"),
        goods=_goods_list(p["goods"]),
        sold=_goods_list(you["sold"]),
    )


def _goods_list(goods: dict[str, int]) -> list[Msg] | Msg:
    listed = [m("label.goods", goods=goods_name(int(g)), n=n) for g, n in goods.items()]
    return listed or m("private.none")


def rules_text() -> Msg:
    """Markdown for `/rules`: the game as played here and its reconstructed facts."""
    return m("rules")
