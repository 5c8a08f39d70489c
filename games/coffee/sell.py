"""Phase 5: Sell. In reverse turn order: fulfil a contract, or deliver twice to the Coffee
Bars, or deliver once and drop out, or drop out. Free conversions and purchases any time."""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import Any

from meeple_hall.games.coffee import arabica
from meeple_hall.games.coffee.build import build, next_building
from meeple_hall.games.coffee.data import (
    COFFEES,
    CONTRACT_ROWS,
    KOPI,
    BarSpace,
    components,
)
from meeple_hall.games.coffee.names import (
    bar_name,
    bonus_name,
    counter_fields,
    counter_name,
    who,
)
from meeple_hall.games.coffee.prompts import CoffeeStep, ask_next, offer
from meeple_hall.games.coffee.state import CoffeeState, Player, Prompt
from meeple_hall.games.coffee.supply import (
    bonus_options,
    can_pay,
    coffee_price,
    gain_donkey,
    mixed_kinds,
    pay,
    scoring_markers_left,
    send_civet,
    use_bonus,
)
from meeple_hall.games.coffee.words import coffee_name, count, m
from meeple_hall.games.core import Msg, Option
from meeple_hall.games.core.steps import Chosen, Offer


def contract_wants(state: CoffeeState, seat: int, letter: str) -> dict[str, int]:
    """The coffee on the side of the contract that lies face up (a handicapped player's
    chosen contracts show their 3-player side)."""
    player = state.players[seat]
    side = 3 if letter in player.hard_sides else state.rules_players
    return dict(_wants(player.contracts[letter], side))


@functools.cache
def _wants(contract: str, side: int) -> tuple[tuple[str, int], ...]:
    """A contract's coffee on the side for `side` players (asked for every Sell line)."""
    return tuple(components().contracts[contract].wants(side).items())


def describe(wants: dict[str, int]) -> list[Msg]:
    return [m("label.amount", n=n, coffee=coffee_name(c)) for c, n in wants.items()]


def bar_wants(player: Player, space: BarSpace, kind: str | None) -> dict[str, int] | None:
    if space.need == "mixed":
        return mixed_kinds(player, space.amount)
    coffee = kind if space.need == "any" else space.need
    assert coffee is not None
    return {coffee: space.amount}


def bar_label(bar: str, space: BarSpace, wants: dict[str, int] | None, counter: str | None) -> Msg:
    """A delivery's label: the Coffee Bar, what it takes (`wants`, or as many different
    kinds), what it pays, and the Animal counter lying on the space."""
    key = (bar, space, None if wants is None else tuple(wants.items()), counter)
    label = _BAR_LABELS.get(key)
    if label is None:
        need = m("label.different", n=space.amount) if wants is None else describe(wants)
        label = _BAR_LABELS[key] = m(
            "label.bar_counter" if counter else "label.bar",
            bar=bar_name(bar),
            need=need,
            coins=count("coin", space.coins),
            points=count("vp", space.points),
            **({"counter": counter_name(counter)} if counter else {}),
        )
    return label


# A label never changes (messages are immutable), and the spaces, kinds and counters are
# few: each is made once (a Sell panel tries every delivery, and each asks for the next).
_BAR_LABELS: dict[tuple[Any, ...], Msg] = {}


def bar_options(state: CoffeeState, seat: int, player: Player | None = None) -> list[Option]:
    """Every delivery the player can pay (`player`: the seat's player with other coffee, as
    after a purchase): a Sell panel asks for them once for each line it tries (the second
    delivery's), so what each space wants is read from the player's coffee directly
    (`can_pay` of a single kind), the different kinds worked out once for each amount, and
    each option made once (`bar_option`)."""
    player = state.players[seat] if player is None else player
    options: list[Option] = []
    if not scoring_markers_left(state, seat):
        return options
    coffee = player.coffee
    kopi = coffee[KOPI]
    mixed: dict[int, bool] = {}
    bars, animals = state.bars, state.bar_animals
    for bar, i, where, need, amount in bar_spaces():
        if bars[bar][i] is not None:
            continue
        # the Animal counter still lying on the space comes with it (EN Phase 5 B5)
        counter = animals.get(where) if animals else None
        if need == "mixed":
            if amount not in mixed:
                wants = mixed_kinds(player, amount)
                mixed[amount] = wants is not None and can_pay(player, wants)
            if mixed[amount]:
                options.append(bar_option(bar, i, None, counter))
        elif need == "any":
            options += [
                bar_option(bar, i, kind, counter)
                for kind in COFFEES
                if max(0, amount - coffee[kind]) <= kopi
            ]
        elif max(0, amount - coffee[need]) <= kopi:
            options.append(bar_option(bar, i, None, counter))
    return options


@functools.cache
def bar_spaces() -> tuple[tuple[str, int, str, str, int], ...]:
    """Every Coffee Bar space in order: its bar, index, `bar.index` (where an Animal counter
    lies), the coffee it needs and how much."""
    return tuple(
        (bar, i, f"{bar}.{i}", space.need, space.amount)
        for bar, spaces in components().bars.items()
        for i, space in enumerate(spaces)
    )


@functools.cache
def bar_option(bar: str, index: int, kind: str | None, counter: str | None) -> Option:
    """A delivery to space `index` of a Coffee Bar (of `kind` where the space takes any one
    kind), with the Animal counter lying on it."""
    space = components().bars[bar][index]
    token = f"bar.{bar}.{index}" + (f".{kind}" if kind else "")
    coffee = space.need if kind is None else kind
    wants = None if space.need == "mixed" else {coffee: space.amount}
    label = bar_label(bar, space, wants, counter)
    fields = {"action": "bar", "bar": bar, "space": index}
    return Option(token, label, fields | ({"coffee": kind} if kind else {}))


def trade_options(state: CoffeeState, seat: int) -> list[Option]:
    """Conversions at the trade ratio, purchases, and stock counters for warehouses."""
    player = state.players[seat]
    options = []
    total = sum(player.coffee.values())
    for coffee in COFFEES:
        if total - player.coffee[coffee] >= player.ratio:
            options.append(convert_option(coffee, player.ratio))
    price = coffee_price(state)
    if player.coins >= price:
        options += [buy_option(coffee, price) for coffee in COFFEES]
    kinds = len(stock_options(player))
    if kinds >= 3 and next_building(state, seat, "warehouse"):
        options.append(stock_option(1, 3))
    built = player.built["warehouse"]
    if kinds >= 5 and built + 2 <= 5:
        options.append(stock_option(2, 5))
    return options + bonus_options(player)


# Options that never change, made once (a Sell panel asks for them again for every line).
@functools.cache
def contract_option(letter: str, wants: tuple[tuple[str, int], ...]) -> Option:
    """Fulfil the contract of `letter`, which wants this coffee."""
    label = m("label.contract", letter=letter, wants=describe(dict(wants)))
    return Option(f"contract.{letter}", label, {"action": "contract", "letter": letter})


@functools.cache
def convert_option(coffee: str, ratio: int) -> Option:
    label = m("label.convert", n=ratio, coffee=coffee_name(coffee))
    return Option(f"convert.{coffee}", label, {"action": "convert", "coffee": coffee})


def buy_opening(state: CoffeeState, seat: int, option: Option) -> Option:
    """A purchase in a second delivery's panel, with the Coffee Bar spaces (`opens`: [bar,
    space]) one more of its coffee pays for that the seat's coffee does not now: the panel
    folds the purchase with such a delivery ("Buy 1 Brazil for 2 coins, then Coffee Bar 5"),
    and its picture rings them."""
    player, coffee = state.players[seat], option.fields["coffee"]
    more = replace(player, coffee={**player.coffee, coffee: player.coffee[coffee] + 1})
    now = {(o.fields["bar"], o.fields["space"]) for o in bar_options(state, seat)}
    after = (o.fields for o in bar_options(state, seat, more))
    opens = dict.fromkeys((f["bar"], f["space"]) for f in after)
    fields = {**option.fields, "opens": [[bar, i] for bar, i in opens if (bar, i) not in now]}
    return Option(option.id, option.label, fields)


@functools.cache
def buy_option(coffee: str, price: int) -> Option:
    label = m("label.buy", coffee=coffee_name(coffee), n=price)
    return Option(f"buy.{coffee}", label, {"action": "buy", "coffee": coffee})


@functools.cache
def stock_option(warehouses: int, counters: int) -> Option:
    """Stock counters of `counters` kinds put back for `warehouses` warehouses."""
    label = m("label.stock", n=counters, warehouses=count("warehouse", warehouses))
    return Option(f"stock.{warehouses}", label, {"action": "stock", "warehouses": warehouses})


def sell_options(state: CoffeeState, seat: int) -> list[Option]:
    player = state.players[seat]
    options = [
        contract_option(letter, tuple(wants.items()))
        for letter in player.contracts
        if can_pay(player, wants := contract_wants(state, seat, letter))
    ]
    options += bar_options(state, seat)
    options += trade_options(state, seat)
    return [*options, drop_option()]


@functools.cache
def drop_option() -> Option:
    """Drop out of the Sell phase (and take the next place in turn order)."""
    return Option("drop", m("label.drop_sell"), {"action": "drop"})


def convert_units(player: Player, target: str) -> list[Option]:
    units = []
    for coffee, n in player.coffee.items():
        if coffee != target:
            units += [
                Option(
                    f"{coffee}{i}",
                    m("label.unit", coffee=coffee_name(coffee), n=i),
                    {"coffee": coffee, "n": i},
                )
                for i in range(1, min(n, player.ratio) + 1)
            ]
    return units


def convert(player: Player, target: str, units: tuple[str, ...]) -> None:
    for unit in units:
        player.coffee[unit.rstrip("0123456789")] -= 1
    player.coffee[target] += 1


def stock_options(player: Player) -> list[Option]:
    kinds = sorted(set(player.stocks), key=lambda s: (s == "wild", s))
    options = [stock_counter_option(k) for k in kinds if k != "wild"]
    wilds = player.stocks.count("wild")
    options += [wild_stock_option(i) for i in range(1, wilds + 1)]
    return options


@functools.cache
def stock_counter_option(kind: str) -> Option:
    label = m("label.stock_counter", coffee=coffee_name(kind))
    return Option(kind, label, {"stock": kind, "coffee": kind})


@functools.cache
def wild_stock_option(n: int) -> Option:
    return Option(f"wild{n}", m("label.wild_stock", n=n), {"stock": "wild", "n": n})


def spend_stocks(player: Player, chosen: tuple[str, ...]) -> None:
    for token in chosen:
        player.stocks.remove("wild" if token.startswith("wild") else token)


def perform_trade(state: CoffeeState, seat: int, choice: str) -> bool:
    """Free actions during one's turn; False if `choice` is not one of them."""
    player = state.players[seat]
    if use_bonus(player, choice):
        return True
    if choice.startswith("convert."):
        target = choice.split(".")[1]
        ask_next(state, Prompt(seat, "convert", {"target": target}))
    elif choice.startswith("buy."):
        player.coins -= coffee_price(state)
        player.coffee[choice.split(".")[1]] += 1
    elif choice.startswith("stock."):
        n = int(choice.split(".")[1])
        ask_next(state, Prompt(seat, "stock", {"warehouses": n}))
    else:
        return False
    return True


def bar_space(token: str) -> BarSpace:
    parts = token.split(".")
    return components().bars[parts[1]][int(parts[2])]


def start_delivery(state: CoffeeState, seat: int, token: str, second: bool) -> None:
    """Deliver now, or first ask which kinds go to a "different kinds" space; after a first
    delivery the player may deliver again or drop out."""
    follow: list[Prompt] = []
    before = len(state.prompts)
    if bar_space(token).need == "mixed":
        follow.append(Prompt(seat, "mixed_pay", {"bar": token}))
    else:
        deliver(state, seat, token)
    if second:
        follow.append(Prompt(seat, "sell_second"))
    added = len(state.prompts) - before
    state.prompts[added:added] = follow


def mixed_options(player: Player, n: int) -> list[Option]:
    """Kinds the player holds, and kopi luwak standing in for any other kind."""
    options = [Option(c, coffee_name(c), {"coffee": c}) for c in COFFEES if player.coffee[c]]
    kopi = min(player.coffee[KOPI], n)
    options += [
        Option(f"kopi{i}", m("label.kopi_as", n=i), {"coffee": KOPI, "n": i})
        for i in range(1, kopi + 1)
    ]
    return options


def deliver(state: CoffeeState, seat: int, token: str, spent: dict[str, int] | None = None) -> None:
    """Pay the space (the coffee named by `spent`, if given), take its coins and counter."""
    parts = token.split(".")
    bar, index = parts[1], int(parts[2])
    space = components().bars[bar][index]
    player = state.players[seat]
    if spent is None:
        wants = bar_wants(player, space, parts[3] if len(parts) > 3 else None)
        assert wants is not None
        pay(player, wants)
    else:
        for coffee, n in spent.items():
            player.coffee[coffee] -= n
    player.coins += space.coins
    state.bars[bar][index] = seat
    state.say(m("log.delivers", seat=who(state, seat), bar=bar_name(bar)))
    counter = state.bar_animals.pop(f"{bar}.{index}", None)
    if counter:
        arabica.gain_counter(state, seat, counter)
    if state.wild_stock and not player.wild_stock and all(seat in s for s in state.bars.values()):
        player.wild_stock = True
        state.wild_stock -= 1
        player.stocks.append("wild")


def fulfil(state: CoffeeState, seat: int, letter: str) -> None:
    player = state.players[seat]
    pay(player, contract_wants(state, seat, letter))
    del player.contracts[letter]
    player.fulfilled.append(letter)
    rewards = components().player_board["contracts"]
    row = CONTRACT_ROWS[letter]
    player.coins += rewards["coins"][row]
    state.say(m("log.fulfils", seat=who(state, seat), letter=letter))
    follow: list[Prompt] = []
    sides = rewards["bonus"][letter]
    if len(sides) == 1:
        follow += contract_bonus(state, seat, sides[0])
    else:
        follow.append(Prompt(seat, "contract_bonus", {"letter": letter}))
    if all(x in player.fulfilled for x in row) and player.row_items:
        follow.append(Prompt(seat, "row_bonus"))
    ask_next(state, *follow)
    stack = state.contract_bonus[letter]
    if stack:
        arabica.gain_counter(state, seat, stack.pop())


def contract_bonus(state: CoffeeState, seat: int, items: list[str]) -> list[Prompt]:
    """Apply the bonus items below a contract space; returns choices still to make."""
    player = state.players[seat]
    follow: list[Prompt] = []
    for item in items:
        if item == "worker":
            if state.general_workers:
                state.general_workers -= 1
                player.pool += 1
        elif item == "civet":
            send_civet(state, seat)
        elif item == "arabica":
            follow.append(Prompt(seat, "advance"))
        elif item == "donkey":
            gain_donkey(state, seat)
        elif item == "coin":
            player.coins += 1
        elif item == "truck":
            player.trucks += 1
        elif item in ("build", "hospital"):
            follow.append(Prompt(seat, "free_build", {"hospital": item == "hospital"}))
    return follow


def row_bonus(state: CoffeeState, seat: int, item: str) -> None:
    player = state.players[seat]
    player.row_items.remove(item)
    if item == "trader":
        player.traders += 1
    elif item == "civet":
        if state.period == 3:
            player.civets += 1
        else:
            player.sumatra += 1
    else:
        arabica.gain_counter(state, seat, item)


def andre_delivers(state: CoffeeState) -> None:
    """André's 1st Sell turn: markers on the lowest-numbered spaces of his middle and
    bottom coffee."""
    andre = state.andre
    assert andre is not None
    contract = components().contracts[andre.contracts[0]]
    for coffee in contract.coffees[1:]:
        best: tuple[int, str, int] | None = None
        for bar, spaces in components().bars.items():
            for i, space in enumerate(spaces):
                if space.need == coffee and state.bars[bar][i] is None:
                    key = (space.amount, bar, i)
                    best = key if best is None or key < best else best
        if best is not None and andre.markers:
            _, bar, i = best
            state.bars[bar][i] = andre.seat
            andre.markers -= 1
            state.say(m("log.andre_marker", bar=bar_name(bar)))


def sell_order(state: CoffeeState) -> list[int]:
    return list(reversed(state.order))


def drop_out_of_sell(state: CoffeeState, seat: int) -> None:
    state.done[seat] = True
    state.next_order.append(seat)
    state.say(m("log.drops_sell", seat=who(state, seat)))


def row_item_name(state: CoffeeState, item: str) -> Msg:
    if item == "trader":
        return m("label.row_trader")
    if item == "civet":
        # EN "Phase 5" A5: in Period 3 the civet goes to the company supply (1 VP)
        return m("label.row_civet_supply") if state.period == 3 else m("label.row_civet")
    return counter_name(item)


def answer_sell(state: CoffeeState, seat: int, choice: str) -> None:
    if perform_trade(state, seat, choice):
        return
    state.turn += 1
    if choice == "drop":
        drop_out_of_sell(state, seat)
    elif choice.startswith("contract."):
        fulfil(state, seat, choice.split(".")[1])
    else:
        start_delivery(state, seat, choice, second=True)


# -- the steps of Phase 5 ------------------------------------------------------------------
class Sell(CoffeeStep):
    """In reverse turn order: a contract, a first delivery, or dropping out (with free
    trades between)."""

    kind = "sell"

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        return offer(m("prompt.sell"), sell_options(state, frame.seat))

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        answer_sell(state, frame.seat, chosen.id)


class SellSecond(CoffeeStep):
    """After a first delivery: a second one, or dropping out."""

    kind = "sell_second"
    always_asks = True  # Drop out

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        seat = frame.seat
        trades = [
            buy_opening(state, seat, o) if o.fields.get("action") == "buy" else o
            for o in trade_options(state, seat)
        ]
        return offer(m("prompt.sell_second"), [*bar_options(state, seat), *trades, drop_option()])

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        seat, choice = frame.seat, chosen.id
        if choice == "drop":
            drop_out_of_sell(state, seat)
        elif choice.startswith("bar."):
            start_delivery(state, seat, choice, second=False)
        else:
            ask_next(state, Prompt(seat, "sell_second"))
            perform_trade(state, seat, choice)


class Convert(CoffeeStep):
    """Trading coffee at the player's ratio: the coffee given for one of the target kind."""

    kind = "convert"

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        player, target = state.players[frame.seat], frame.data["target"]
        return offer(
            m("prompt.convert", n=player.ratio, coffee=coffee_name(target)),
            convert_units(player, target),
            low=player.ratio,
            high=player.ratio,
        )

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        convert(state.players[frame.seat], frame.data["target"], chosen.ids)


class Stock(CoffeeStep):
    """Stock counters of 3 (or 5) kinds put back for 1 (or 2) warehouses."""

    kind = "stock"

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        warehouses = frame.data["warehouses"]
        n = 3 if warehouses == 1 else 5
        prompt = m("prompt.stock", n=n, warehouses=count("warehouse", warehouses))
        return offer(prompt, stock_options(state.players[frame.seat]), low=n, high=n)

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        seat = frame.seat
        spend_stocks(state.players[seat], chosen.ids)
        follow: list[Prompt] = []
        for _ in range(frame.data["warehouses"]):
            if next_building(state, seat, "warehouse"):
                follow += build(state, seat, "warehouse", None)
        ask_next(state, *follow)


class ContractBonus(CoffeeStep):
    """A fulfilled contract with two bonuses below it: which one."""

    kind = "contract_bonus"

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        letter = frame.data["letter"]
        return offer(
            m("prompt.contract_bonus", letter=letter),
            [
                Option(
                    str(i),
                    m("label.take_bonus", bonus=bonus_name(side)),
                    {"side": i, "letter": letter},
                )
                for i, side in enumerate(contract_sides(letter))
            ],
        )

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        side = contract_sides(frame.data["letter"])[int(chosen.id)]
        ask_next(state, *contract_bonus(state, frame.seat, side))


def contract_sides(letter: str) -> list[list[str]]:
    """The bonuses below a contract space (one, or two to choose from)."""
    return components().player_board["contracts"]["bonus"][letter]


class RowBonus(CoffeeStep):
    """A row of contracts fulfilled: one of the items beside it."""

    kind = "row_bonus"
    answers_alone = True

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        items = state.players[frame.seat].row_items
        return offer(
            m("prompt.row_bonus"),
            [
                Option(i.replace(":", "."), row_item_name(state, i), counter_fields(i))
                for i in items
            ],
        )

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        row_bonus(state, frame.seat, chosen.id.replace(".", ":"))


class MixedPay(CoffeeStep):
    """A Coffee Bar space of different kinds: which coffee (kopi luwak standing in)."""

    kind = "mixed_pay"

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        token = frame.data["bar"]
        n = bar_space(token).amount
        prompt = m("prompt.mixed_pay", bar=bar_name(token.split(".")[1]), n=n)
        return offer(prompt, mixed_options(state.players[frame.seat], n), low=n, high=n)

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        spent = {c: 1 for c in chosen.ids if not c.startswith("kopi")}
        kopi = len(chosen.ids) - len(spent)
        if kopi:
            spent["kopi"] = kopi
        deliver(state, frame.seat, frame.data["bar"], spent)


STEPS = (Sell(), SellSecond(), Convert(), Stock(), ContractBonus(), RowBonus(), MixedPay())
