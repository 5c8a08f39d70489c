"""Coffee Traders' words on the panels: each option's emoji and one-line description, the
folded building lines, the seat's secrets for /hand and the DMs, and /rules.

Everything here reads what the engine gives: an option's `fields` (`action`, `coffee`,
`row`, `letter`, `building` and its printed `bonus`, ...), decisions' kinds and the views.
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import product
from typing import Any

from meeple_hall.bot.presenters import OptionStyle, fits
from meeple_hall.games.coffee.build import bonus_words
from meeple_hall.games.coffee.data import COFFEES, CONTRACT_ROWS, KOPI, components
from meeple_hall.games.coffee.names import bonus_name
from meeple_hall.games.coffee.words import coffee_name, column_name, count
from meeple_hall.games.coffee.words import m as msg
from meeple_hall.games.core import Decision, Msg, Option, Text
from meeple_hall.renderers.coffee import COFFEE_SHAPES
from meeple_hall.renderers.phone import coffee as phone_parts

COFFEE_EMOJI = {"gua": "🟧", "col": "🟫", "bra": "🩷", "eth": "🟩", "ind": "🟦", KOPI: "☕"}
# an option's emoji by what it does (its `action`) or the piece it gives (its `item`)
HEAD_EMOJI = {
    "plant": "🌱",
    "send": "👷",
    "donkey": "🫏",
    "civet": "🐈",
    "coins": "🪙",
    "bonus-coins": "🎁",
    "bonus-marker": "🎁",
    "bonus-trader": "🎁",
    "refill-coins": "📥",
    "refill-trader": "📥",
    "drop": "⏹️",
    "pass": "⏭️",
    "trader": "🚶",
    "build": "🏗️",
    "retire": "🎖️",
    "contract": "📜",
    "bar": "☕",
    "convert": "🔁",
    "buy": "🛒",
    "stock": "🏬",
    "join": "✅",
    "decline": "❌",
    "done": "✅",
    "coin": "🪙",
    "back": "↩️",
    "unpaid": "🚫",
    "farm": "🏠",
    "discard": "🗑️",
    "animal": "🐾",
    "wild": "🃏",
}
# The decisions pictured on the cooperatives (the panel's picture: renderers/phone/coffee.py):
# an option naming a cooperative there wears its coffee's emoji, whatever it does, in the
# colour of that cooperative's frame in the picture (and of the coffee in the panel's text),
# so that a line and its cooperative are linked without reading the country's name.
ON_COOPS = frozenset(
    kind
    for kind, parts in phone_parts.DECISION_PARTS.items()
    if set(parts) & set(phone_parts.COOP_PARTS)
)
# else by the decision it answers
KIND_EMOJI = {
    "plant_row": "🌱",
    "start": "🌱",
    "send_choose": "👷",
    "contract_bonus": "🎁",
    "row_bonus": "🎁",
    "free_build": "🏗️",
    "storage": "🏬",
    "remove": "🚫",
    "mixed_pay": "☕",
    "stock": "🏬",
}
# what a choice does beyond its label (English rulebook, the phase and action named):
# `note.<kind>.<action>` in the catalogue
DESCRIBED = frozenset(
    {
        ("work", "plant"),
        ("work", "send"),
        ("work", "donkey"),
        ("work", "civet"),
        ("work", "coins"),
        ("work", "drop"),
        ("staff_own", "done"),
        ("staff_other", "drop"),
        ("trade", "trader"),
        ("trade", "build"),
        ("trade", "retire"),
        ("trade", "pass"),
        ("piggy_trader", "join"),
        ("piggy_build", "join"),
        ("sell", "bar"),
        ("sell", "convert"),
        ("sell", "stock"),
        ("sell", "drop"),
        ("sell_second", "bar"),
        ("sell_second", "convert"),
        ("sell_second", "drop"),
        ("penalty", "unpaid"),
    }
)

LINE_MAX = 100  # a menu line's label (a delivery's lines are many: a menu, not buttons)
BUTTON_MAX = 80  # a button's label (a set's panel may have a few lines: buttons)

# Panels fold these decisions into the one before them (bot/panels.py): Add a plantation and
# its row, a building and its site, a piggyback and its payment, each in one click; a first
# delivery in the Sell phase and a second delivery or dropping out after it (one line is one
# Sell turn). The trades after a delivery are asked after it: folded, they made a Sell panel
# four menus long and ten times dearer to work out. A plantation that empties its row of the
# player board and that row's farm, built or removed (at most 6 answers).
#
# Choices of several (issue 29, two clicks): the coffee for a "different kinds" space and the
# Stock counters put back for warehouses are offered as one line per set of them
# (`pick_sets`), so that what follows folds into each. A first delivery to a "different
# kinds" space folds with its coffee (never a second delivery's: every first delivery would
# multiply by them); the coffee with the Arabica step a wild Animal counter on the space
# brings; the Stock counters with the coffee the warehouse's production station gains. A
# trade in a Sell turn (buying coffee, a bonus) folds with a delivery it makes possible
# (`folds_line`), in the panel that asks what follows a first delivery only (a trade never
# folds deeper).
FOLDED = frozenset(
    {"plant_row", "build_site", "piggy_pay", "sell_second", "farm"}
    | {"mixed_pay", "advance", "gain_coffee"}
)
FOLDED_AFTER = {
    "sell_second": frozenset({"sell", "sell_second"}),
    "farm": frozenset({"plant_space"}),
    "mixed_pay": frozenset({"sell"}),
    "advance": frozenset({"mixed_pay"}),
    "gain_coffee": frozenset({"stock"}),
}
FOLDED_ANSWERS = {"sell_second": frozenset({"bar", "drop"})}


def folds_line(decisions: tuple[Decision, ...], options: tuple[Option, ...]) -> bool:
    """A trade in a Sell turn folds with a delivery it makes possible only (one not offered
    before it), never with dropping out: "Buy 1 Guatemala for 2 coins, then Coffee Bar 2: 3
    Guatemala"; a delivery the trade did not need is offered without it."""
    kinds = tuple(d.kind for d in decisions[-2:])
    if kinds != ("sell_second", "sell_second") or options[-2].fields.get("action") == "bar":
        return True
    return (
        options[-1].fields.get("action") == "bar" and decisions[-2].option(options[-1].id) is None
    )


# The choices of several offered as sets: the options standing for one piece each of the
# same kind (kopi luwak #1, #2; wild Stock counters #1, #2) are alike, so a set takes the
# first ones of a kind.
PICKED = frozenset({"mixed_pay", "stock"})


def pick_sets(decision: Decision) -> list[tuple[str, ...]] | None:
    """The sets of options worth a line each for a choice of several (`PICKED`): as many of
    each kind as the set takes, the first ones of that kind, in the decision's order."""
    if decision.kind not in PICKED or decision.min_choices != decision.max_choices:
        return None
    kinds: dict[str, list[str]] = {}
    for option in decision.options:
        kind = option.fields.get("stock", option.fields.get("coffee"))
        kinds.setdefault(str(kind), []).append(option.id)
    groups = list(kinds.values())
    order = {option.id: index for index, option in enumerate(decision.options)}
    sets = []
    for taken in product(*(range(len(group) + 1) for group in groups)):
        if sum(taken) == decision.max_choices:
            ids = [i for group, n in zip(groups, taken, strict=True) for i in group[:n]]
            sets.append(tuple(sorted(ids, key=order.__getitem__)))
    return sorted(sets, key=lambda ids: [order[i] for i in ids])


def option_style(decision: Decision, option: Option) -> OptionStyle | None:
    fields = option.fields
    if "picks" in fields:  # a set of a choice of several, offered as one line
        return OptionStyle(set_words(fields["picks"]), KIND_EMOJI.get(decision.kind))
    head = fields.get("action") or fields.get("item")
    on_coop = coop_emoji(decision.kind, fields.get("coffee"))
    if head == "animal" and on_coop is None:  # a cooperative's Animal counter, anywhere
        on_coop = COFFEE_EMOJI.get(fields.get("coffee", ""))
    emoji = (
        on_coop
        or HEAD_EMOJI.get(head or "")
        or KIND_EMOJI.get(decision.kind)
        or COFFEE_EMOJI.get(fields.get("coffee", ""))
    )
    return OptionStyle(
        shaped(option.label, fields["coffee"]) if on_coop else None,
        emoji,
        description(decision.kind, head, fields),
    )


def coop_emoji(kind: str, coffee: str | None) -> str | None:
    """The emoji of the cooperative an option of a decision pictured on the cooperatives
    names (`ON_COOPS`); None for any other."""
    return COFFEE_EMOJI[coffee] if kind in ON_COOPS and coffee in COFFEES else None


def shaped(label: Text, coffee: str) -> Msg:
    """A line naming a cooperative pictured, its coffee's shape first (`● Send workers to
    Guatemala`): the shape the picture draws on that cooperative (its trading house, or
    its folded rows' strip), a link to it beside the emoji's colour for whoever cannot tell
    the colours apart (orange and green, say)."""
    return msg("shaped", shape=SHAPE_SYMBOLS[COFFEE_SHAPES[coffee]], label=label)


def description(kind: str, head: str | None, fields: Any) -> Msg | None:
    """What a choice does beyond its label: an Arabica step (and an Animal counter) where it
    brings one, a contract's reward, what a counter or the bonus supply does."""
    if kind == "plant_space" and fields["row"] in (2, 3):
        return msg("note.step_animal" if fields["row"] == 3 else "note.step")
    if kind == "build_site" and fields.get("step"):
        return msg("note.step")
    if head == "contract":
        return contract_reward(fields["letter"])
    if head in ("animal", "wild"):
        return msg(f"note.{head}")
    if head is not None and head.startswith("bonus-"):
        return msg("note.bonus")
    if (kind, head) in DESCRIBED:
        return msg(f"note.{kind}.{head}")
    return msg("note.step") if kind == "staff_other" else None


def contract_reward(letter: str) -> Msg:
    """What fulfilling a contract of one's board brings (the coins of its row, the bonus
    below it, its VP at the end)."""
    board = components().player_board["contracts"]
    coins = board["coins"][CONTRACT_ROWS[letter]]
    sides = [bonus_name(side) for side in board["bonus"][letter]]
    bonus = sides[0] if len(sides) == 1 else msg("either", a=sides[0], b=sides[1])
    return msg(
        "note.contract",
        coins=count("coin", coins),
        bonus=bonus,
        points=count("vp", board["points"][letter]),
    )


def chain_style(decisions: tuple[Decision, ...], options: tuple[Option, ...]) -> OptionStyle | None:
    """A folded building line in one sentence, the building named first whatever the
    length: `Build a production station in Brazil, space 1 (2 coins, Arabica step)`, with
    the building's bonus below; a piggyback names the coffee it pays."""
    kinds = tuple(d.kind for d in decisions)
    if kinds[0] in PICKED or kinds[1] in PICKED:
        return set_then_style(decisions, options)
    if kinds in (("sell", "sell_second"), ("sell_second", "sell_second")):
        return second_delivery_style(decisions, options)
    if kinds == ("plant_space", "farm"):
        return farm_style(options)
    head = options[0].fields
    if "building" not in head:
        return None
    site = options[-1].fields if kinds[-1] == "build_site" else None
    if kinds[:2] == ("piggy_build", "piggy_pay"):
        return piggyback_style(head, options[1].fields["coffee"], site)
    if "bonus" not in head or site is None:
        return None
    building = column_name(head["building"])
    bonus = bonus_words(head["building"], head["bonus"])
    where = {"coffee": coffee_name(site["coffee"]), "space": site["space"] + 1}
    step = "_step" if site["step"] else ""
    if kinds == ("trade", "build_site"):
        label = msg(f"chain.build{step}", building=building, **where)
        emoji = coop_emoji("trade", site["coffee"])
        if emoji is None:
            return OptionStyle(label, HEAD_EMOJI["build"], msg("chain.build_note", bonus=bonus))
        return OptionStyle(
            shaped(label, site["coffee"]), emoji, msg("chain.build_note", bonus=bonus)
        )
    if kinds == ("free_build", "build_site"):
        label = msg(f"chain.free{step}", building=building, **where)
        return OptionStyle(label, HEAD_EMOJI["build"], msg("chain.free_note", bonus=bonus))
    return None


def second_delivery_style(
    decisions: tuple[Decision, ...], options: tuple[Option, ...]
) -> OptionStyle:
    """A delivery and what follows it in one line: `Coffee Bar 1: 1 Guatemala, then Coffee
    Bar 2: 3 Ethiopia` (what they bring below), `…, then drop out`; where that passes a
    menu line's 100 characters in some language, the second step alone, the first in its
    description."""
    first, then = options
    style = option_style(decisions[1], then) or OptionStyle()
    if then.id == "drop":
        label = msg("chain.then_drop", first=delivery_words(first))
    else:
        label = msg("chain.then", first=delivery_words(first), then=delivery_words(then))
    delivered = then.fields.get("action") == "bar"
    if fits(label, LINE_MAX):
        gains = delivery_gains(first)
        if first.fields.get("action") != "bar":  # a trade first: what the delivery brings
            gains = delivery_gains(then) if delivered else style.description or ""
        elif delivered:
            gains = msg("chain.gains_both", a=gains, b=delivery_gains(then))
        return OptionStyle(label, style.emoji or HEAD_EMOJI["bar"], gains)
    return OptionStyle(then.label, style.emoji, first.label)


def set_words(picks: tuple[Option, ...]) -> Msg:
    """A set of coffee or Stock counters: `Guatemala, Brazil, 2 kopi luwak`, `Brazil,
    Colombia, 1 wild`."""
    named: list[Text] = []
    alike: dict[str, int] = {}
    for option in picks:
        fields = option.fields
        if "n" in fields:  # one of alike pieces (kopi luwak #1, a wild Stock counter #2)
            key = fields.get("stock", fields.get("coffee"))
            alike[key] = alike.get(key, 0) + 1
        else:
            named.append(coffee_name(fields["coffee"]))
    for key, n in alike.items():
        piece = msg("private.wild") if key == "wild" else coffee_name(key)
        named.append(msg("label.amount", n=n, coffee=piece))
    return Msg("core.picked", items=named)


def set_then_style(decisions: tuple[Decision, ...], options: tuple[Option, ...]) -> OptionStyle:
    """A set of several choices and what follows it: `Guatemala, Brazil, 2 kopi luwak, then
    Guatemala: column 1 → 2`, `Colombia, Guatemala, Indonesia, then gain 1 Brazil` (the
    coffee a warehouse's production station gains); a delivery to a "different kinds" space
    with it, `Coffee Bar 6 (Seoul): Guatemala, Brazil, Colombia` (what it brings below). Past
    a button's 80 characters in some language (a panel of a few lines is buttons), without
    the Coffee Bar (said below), else the last step's words with the set's below."""
    picked = next(i for i, d in enumerate(decisions) if d.kind in PICKED)
    chosen = set_words(options[picked].fields["picks"])
    emoji = KIND_EMOJI[decisions[picked].kind]
    words: Text = chosen
    note: Text | None = None
    if picked:  # a delivery first
        bar = options[0]
        if isinstance(bar.label, Msg) and "bar" in bar.label.args:
            words = msg("chain.bar", bar=bar.label.args["bar"], need=chosen)
        note = delivery_gains(bar)
    rest = options[picked + 1 :]
    if not rest:
        return OptionStyle(words, emoji, note)
    then = rest[-1]
    for first in (words, chosen):
        if then.id == "drop":
            label = msg("chain.then_drop", first=first)
        elif decisions[-1].kind == "gain_coffee":  # the warehouse's production station's
            label = msg("chain.then_gain", first=first, coffee=coffee_name(then.fields["coffee"]))
        else:
            label = msg("chain.then", first=first, then=delivery_words(then))
        if fits(label, BUTTON_MAX):
            said = note or delivery_gains(then) or None
            return OptionStyle(label, emoji, said if first is words else options[0].label)
    return OptionStyle(then.label, emoji, chosen)


def farm_style(options: tuple[Option, ...]) -> OptionStyle:
    """A plantation and its row's farm: `Level 2 in Brazil: row 2, space 3, then a farm in
    Colombia`, `…, then remove the farm`; where that passes a menu line's 100 characters in
    some language, the plantation by its space only (`Level 2 in Brazil: row 2, space 3`),
    whole in the description."""
    planted, farm = options
    coffee = planted.fields["coffee"]
    label = shaped(then_farm(planted.label, farm), coffee)
    # the cooperative planted on, as the lines planting without a farm show it
    emoji = coop_emoji("plant_space", coffee) or HEAD_EMOJI[farm.fields["action"]]
    if fits(label, LINE_MAX):
        return OptionStyle(label, emoji, description("plant_space", None, planted.fields))
    short = shaped(then_farm(plantation_space(planted), farm), coffee)
    return OptionStyle(short, emoji, planted.label)


def then_farm(planted: Text, farm: Option) -> Msg:
    if farm.fields.get("action") == "farm":
        return msg("chain.then_farm", first=planted, coffee=coffee_name(farm.fields["coffee"]))
    return msg("chain.then_no_farm", first=planted)


def plantation_space(option: Option) -> Text:
    """A plantation option's words without how it gets there (donkeys, the space below)."""
    label, fields = option.label, option.fields
    if not isinstance(label, Msg) or "level" not in label.args:
        return label
    where = msg("label.row_space", row=fields["row"], space=fields["space"] + 1)
    return msg(
        "label.plant_space", level=label.args["level"], coffee=label.args["coffee"], how=[where]
    )


def delivery_words(option: Option) -> Text:
    """A Coffee Bar delivery by its space and coffee (`Coffee Bar 2: 3 Ethiopia`), what it
    brings left out; any other option by its label."""
    label = option.label
    if option.fields.get("action") != "bar" or not isinstance(label, Msg):
        return label
    return msg("chain.bar", bar=label.args["bar"], need=label.args["need"])


def delivery_gains(option: Option) -> Text:
    """What a delivery brings: `+2 coins, 2 VP` (and the Animal counter on the space)."""
    args = option.label.args if isinstance(option.label, Msg) else {}
    if "coins" not in args:
        return ""
    if "counter" in args:
        return msg(
            "chain.gains_counter",
            coins=args["coins"],
            points=args["points"],
            counter=args["counter"],
        )
    return msg("chain.gains", coins=args["coins"], points=args["points"])


def piggyback_style(head: Any, paid: str, site: Any) -> OptionStyle:
    """Piggyback a building, for a coffee to the builder (and where, on the board)."""
    building, coffee = column_name(head["building"]), coffee_name(paid)
    if site is None:
        label = msg("chain.piggy_here", building=building, paid=coffee)
    else:
        label = msg(
            "chain.piggy_step" if site["step"] else "chain.piggy",
            building=building,
            paid=coffee,
            coffee=coffee_name(site["coffee"]),
            space=site["space"] + 1,
        )
    note = msg("chain.piggy_bonus_trader" if head["bonus_trader"] else "note.piggy_build.join")
    return OptionStyle(label, HEAD_EMOJI["join"], note)


# -- /rules --------------------------------------------------------------------------------
def rules_text() -> Text:
    """Markdown for `/rules`: the game as played here and its reconstructed facts."""
    return msg("rules", legend=shape_legend())


SHAPE_SYMBOLS = {
    "circle": "●",
    "square": "■",
    "triangle": "▲",
    "diamond": "◆",
    "hourglass": "⧗",
}


def shape_legend() -> list[Msg]:
    """`● Guatemala, ■ Colombia, ...`: each coffee by the shape the picture draws it with."""
    return [
        msg("legend", symbol=SHAPE_SYMBOLS[COFFEE_SHAPES[c]], coffee=coffee_name(c))
        if COFFEE_SHAPES[c] in SHAPE_SYMBOLS
        else msg("legend_bean", coffee=coffee_name(c))
        for c in (*COFFEES, KOPI)
    ]


# -- /hand and the DMs -----------------------------------------------------------------------
BONUS_WORDS = {"marker": "bonus.marker", "trader": "bonus.trader", "coins": "bonus.coins"}


# A seat's secrets are worked out for every state (its panel, its DMs): the words that
# never change (messages are immutable) are made once each.
@cache
def coffee_word(coffee: str) -> Msg:
    """A coffee as its colour emoji and a short name, so it reads without the colour."""
    return msg("word", emoji=COFFEE_EMOJI[coffee], name=msg(f"short.{coffee}"))


@lru_cache(maxsize=1024)
def held_word(coffee: str, n: int) -> Msg:
    """`🟧 Gua 2`: how much of a coffee a seat holds (or how high its Arabica step is)."""
    return msg("private.held", coffee=coffee_word(coffee), n=n)


@lru_cache(maxsize=1024)
def contract_words(letter: str, wants: tuple[tuple[str, int], ...]) -> Msg:
    """An open contract of a seat's board and the coffee it wants: `A: 2 🟧 Gua 1 🟫 Col`."""
    return msg(
        "private.contract",
        letter=letter,
        wants=joined(
            "join.space", [msg("private.want", n=n, coffee=coffee_word(c)) for c, n in wants]
        ),
    )


def joined(key: str, items: list[Any]) -> Any:
    """Items joined by a catalogue's separator (`join.line`: one a line, `join.dot`: ` · `)."""
    out = items[0]
    for item in items[1:]:
        out = msg(key, a=out, b=item)
    return out


def private_text(view: dict[str, Any]) -> Text:
    seat = view.get("you")
    if seat is None:
        return msg("private.watching")
    p = view["players"][seat]
    lines = [company_line(seat, p), coffee_line(p), contracts_line(p), bonus_line(p)]
    if p["stocks"]:
        stocks = [msg("private.wild") if s == "wild" else coffee_name(s) for s in p["stocks"]]
        lines.append(msg("private.stocks", stocks=stocks))
    track = joined("join.dot", [held_word(c, p["arabica"][c]) for c in COFFEES])
    lines.append(msg("private.arabica", track=track, height=p["counter_height"]))
    if p["milestones"]:
        lines.append(milestones_line(p))
    return joined("join.line", lines)


def company_line(seat: int, p: dict[str, Any]) -> Msg:
    return msg(
        "private.company",
        seat=seat + 1,
        markers=count("marker", p["markers"] + int(p["color_marker"])),
        coins=count("coin", p["coins"]),
        workers=count("worker", p["pool"]),
        traders=count("trader", p["traders"]),
        donkeys=count("donkey", p["donkeys"]),
        trucks=count("truck", p["trucks"]),
    )


def coffee_line(p: dict[str, Any]) -> Msg:
    held = [held_word(c, n) for c, n in p["coffee"].items() if n]
    return msg(
        "private.coffee",
        ratio=p["ratio"],
        coffee=joined("join.dot", held) if held else msg("private.none"),
    )


def contracts_line(p: dict[str, Any]) -> Msg:
    open_contracts = [
        contract_words(letter, tuple(info["wants"].items()))
        for letter, info in p["contracts"].items()
    ]
    return msg(
        "private.contracts",
        contracts=joined("join.semi", open_contracts)
        if open_contracts
        else msg("private.all_fulfilled"),
    )


def bonus_line(p: dict[str, Any]) -> Msg:
    bonus = [msg(BONUS_WORDS[b]) for b in p["bonus"]]
    return msg("private.bonus", bonus=bonus or msg("private.empty"))


def milestones_line(p: dict[str, Any]) -> Msg:
    won = [
        msg("private.milestone", milestone=msg(f"milestone.{k}"), points=count("vp", n))
        for k, n in p["milestones"].items()
    ]
    return msg("private.milestones", milestones=joined("join.semi", won))
