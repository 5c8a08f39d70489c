"""Phase 3: Trade & Build. In turn order until everyone passes consecutively: place a
trader (others piggyback for free), hire a contractor (others piggyback for 1 coffee to the
builder), or remove a trader for two Arabica steps."""

from __future__ import annotations

from meeple_hall.games.coffee import arabica
from meeple_hall.games.coffee.board import open_building_spaces
from meeple_hall.games.coffee.build import (
    board_sites,
    build,
    build_option,
    buildable,
    next_building,
    site_options,
)
from meeple_hall.games.coffee.data import BOARD_COLUMNS, components
from meeple_hall.games.coffee.names import coop_name, who
from meeple_hall.games.coffee.prompts import CoffeeStep, ask_next, offer
from meeple_hall.games.coffee.state import CoffeeState, Prompt
from meeple_hall.games.coffee.supply import (
    bonus_options,
    has_trader,
    may_field_trader,
    may_take_bonus,
    retire_trader,
    send_trader,
    total_coffee,
    use_bonus,
)
from meeple_hall.games.coffee.words import coffee_name, column_name, m
from meeple_hall.games.core import Option
from meeple_hall.games.core.steps import Chosen, Offer

ACTION_COST = 2


def capacity(state: CoffeeState) -> int:
    return components().board["trading_house"]["trader_spaces"][str(state.rules_players)]


def trade_options(state: CoffeeState, seat: int) -> list[Option]:
    player = state.players[seat]
    options: list[Option] = []
    if player.coins >= ACTION_COST and has_trader(player):
        for coffee, coop in state.coops.items():
            if not coop.traders:
                label = m("label.place_trader", coffee=coop_name(coffee))
                fields = {"action": "trader", "coffee": coffee}
                options.append(Option(f"trader.{coffee}", label, fields))
        for column in buildable(state, seat):
            options.append(
                build_option(state, seat, column, f"build.{column}", "label.build", action="build")
            )
        options.append(Option("retire", m("label.retire"), {"action": "retire"}))
    # the bonus trader only when it can be sent at once (else take the coins first)
    takes_trader = (
        not player.traders and player.coins >= ACTION_COST and may_take_bonus(player, "trader")
    )
    # with a trader (own or bonus) at hand, the bonus coins may pay for the action
    # ... and putting 3 coins back frees the bonus trader when it is the last bonus left
    if options or player.traders or "trader" in player.bonus:
        options += bonus_options(player, trader=takes_trader)
    return options


def may_trade(state: CoffeeState, seat: int) -> bool:
    """Whether `trade_options` offers anything, without working them out: with the coins
    and a trader for an action Retire a trader at least; else only the bonus supply."""
    player = state.players[seat]
    if player.coins >= ACTION_COST and has_trader(player):
        return True
    takes_trader = (
        not player.traders and player.coins >= ACTION_COST and may_take_bonus(player, "trader")
    )
    return bool(player.traders or "trader" in player.bonus) and bool(
        bonus_options(player, trader=takes_trader)
    )


def perform_trade(state: CoffeeState, seat: int, choice: str) -> None:
    player = state.players[seat]
    if use_bonus(player, choice):
        return
    state.turn += 1
    if choice == "pass":
        state.passes += 1
        return
    state.passes = 0
    player.coins -= ACTION_COST
    if choice.startswith("trader."):
        lead_trader(state, seat, choice.split(".")[1])
    elif choice.startswith("build."):
        column = choice.split(".")[1]
        send_trader(player)
        if column == "warehouse":
            resolve_build(state, seat, column, None, lead=seat)
        else:
            ask_next(state, Prompt(seat, "build_site", {"column": column, "lead": seat}))
    elif choice == "retire":
        retire_trader(player)
        state.say(m("log.retires", seat=who(state, seat)))
        arabica.ask_advance(state, seat, 2)


def lead_trader(state: CoffeeState, seat: int, coffee: str) -> None:
    coop = state.coops[coffee]
    if state.is_andre(seat):
        assert state.andre is not None
        state.andre.traders -= 1
        state.andre.traders_out += 1
    else:
        player = state.players[seat]
        send_trader(player)
        if coop.stock:
            coop.stock -= 1
            player.stocks.append(coffee)
    coop.traders.append(seat)
    state.say(m("log.places_trader", seat=who(state, seat), coffee=coop_name(coffee)))
    start = state.order.index(seat)
    followers = state.order[start + 1 :] + state.order[:start]
    continue_piggy_trader(state, coffee, followers, [])


def can_follow_trader(state: CoffeeState, seat: int, coffee: str) -> bool:
    coop = state.coops[coffee]
    if len(coop.traders) >= capacity(state):
        return False
    if state.is_andre(seat):
        assert state.andre is not None
        return state.andre.traders > 0 and len(coop.traders) == 1
    return may_field_trader(state.players[seat])


def continue_piggy_trader(
    state: CoffeeState, coffee: str, followers: list[int], out: list[int]
) -> None:
    """Ask the followers in wrapping turn order; then the coin for a single opt-out."""
    while followers:
        seat = followers.pop(0)
        if not can_follow_trader(state, seat, coffee):
            out.append(seat)
        elif state.is_andre(seat):
            join_trader(state, seat, coffee)
        else:
            data = {"coffee": coffee, "rest": followers, "out": out}
            ask_next(state, Prompt(seat, "piggy_trader", data))
            return
    coop = state.coops[coffee]
    if len(out) == 1 and coop.coin and not state.is_andre(out[0]):
        coop.coin = False
        state.players[out[0]].coins += 1
        state.say(m("log.house_coin", seat=who(state, out[0]), coffee=coop_name(coffee)))


def join_trader(state: CoffeeState, seat: int, coffee: str) -> None:
    if state.is_andre(seat):
        assert state.andre is not None
        state.andre.traders -= 1
        state.andre.traders_out += 1
    else:
        send_trader(state.players[seat])
    state.coops[coffee].traders.append(seat)
    state.say(m("log.piggybacks", seat=who(state, seat), coffee=coop_name(coffee)))


def resolve_build(
    state: CoffeeState,
    seat: int,
    column: str,
    site: str | None,
    lead: int,
    followers: list[int] | None = None,
) -> None:
    """Build at the chosen site; then the next follower (if any) may piggyback `lead`."""
    bonuses = build(state, seat, column, site)
    if followers is None:
        start = state.order.index(seat)
        followers = state.order[start + 1 :] + state.order[:start]
    place = site.split(".")[0] if site else None
    ask_next(state, *bonuses, *piggy_build_prompt(state, lead, place, followers))


def follow_columns(state: CoffeeState, seat: int, place: str | None) -> list[str]:
    """Columns a follower can build "in the same place" (player board or that cooperative)."""
    if state.is_andre(seat):
        return []
    player = state.players[seat]
    if not may_field_trader(player) or total_coffee(player) == 0:
        return []
    if place is None:
        return ["warehouse"] if next_building(state, seat, "warehouse") else []
    return [
        c
        for c in BOARD_COLUMNS
        if next_building(state, seat, c) and open_building_spaces(state, place, c)
    ]


def piggy_build_prompt(
    state: CoffeeState, builder: int, place: str | None, followers: list[int]
) -> list[Prompt]:
    followers = list(followers)
    while followers:
        seat = followers.pop(0)
        if follow_columns(state, seat, place):
            data = {"builder": builder, "place": place, "rest": followers}
            return [Prompt(seat, "piggy_build", data)]
    return []


def piggy_pay_options(state: CoffeeState, seat: int) -> list[Option]:
    coffee = state.players[seat].coffee
    return [
        Option(c, m("label.pay_builder", coffee=coffee_name(c)), {"coffee": c})
        for c, n in coffee.items()
        if n
    ]


def pay_builder(state: CoffeeState, seat: int, builder: int, coffee: str) -> None:
    state.players[seat].coffee[coffee] -= 1
    state.players[builder].coffee[coffee] += 1


def andre_turn(state: CoffeeState) -> None:
    """André flips Arabica counters until one shows an unoccupied trading house."""
    andre = state.andre
    assert andre is not None
    state.turn += 1
    if andre.traders:
        hidden = [c for c in andre.counters if c not in andre.flipped]
        state.rng.shuffle(hidden)
        for counter in hidden:
            andre.flipped.append(counter)
            coffee = counter.split(":")[1]
            if not state.coops[coffee].traders:
                state.passes = 0
                lead_trader(state, andre.seat, coffee)
                return
    state.passes += 1


def andre_fair_trade_post(state: CoffeeState) -> None:
    """After the phase, André builds a fair trade post in his bottom cooperative."""
    andre = state.andre
    assert andre is not None
    if not andre.fair_trade_posts:
        return
    coffee = components().contracts[andre.contracts[0]].coffees[2]
    spaces = state.coops[coffee].buildings["fairtrade"]
    kinds = list(components().board["buildings"]["fairtrade"])
    for kind in ("p45", "step", "plain"):
        index = kinds.index(kind)
        if spaces[index] is None:
            spaces[index] = andre.seat
            andre.fair_trade_posts -= 1
            state.say(m("log.andre_post", coffee=coop_name(coffee)))
            return


# -- the steps of Phase 3 ------------------------------------------------------------------
# made once: a Trade panel asks for the next seat's options for every line it tries
PASS = Option("pass", m("label.pass"), {"action": "pass"})


class Trade(CoffeeStep):
    """In turn order until all pass in a row: a trader, a contractor, or a trader retired."""

    kind = "trade"

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        return offer(m("prompt.trade"), [*trade_options(state, frame.seat), PASS])

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        perform_trade(state, frame.seat, chosen.id)


class PiggyTrader(CoffeeStep):
    """Action A5: the next player in turn order may send a trader along, for free."""

    kind = "piggy_trader"
    always_asks = True  # Join, Decline

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        own = (
            "label.join_trader" if state.players[frame.seat].traders else "label.join_bonus_trader"
        )
        return offer(
            m("prompt.piggy_trader", coffee=coop_name(frame.data["coffee"])),
            [
                Option("join", m(own), {"action": "join", "place": frame.data["coffee"]}),
                Option("decline", m("label.decline"), {"action": "decline"}),
            ],
        )

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        coffee, out = frame.data["coffee"], list(frame.data["out"])
        if chosen.id == "join":
            join_trader(state, frame.seat, coffee)
        else:
            out.append(frame.seat)
        continue_piggy_trader(state, coffee, list(frame.data["rest"]), out)


class BuildSite(CoffeeStep):
    """Action B: the space of the board a building goes to."""

    kind = "build_site"
    answers_alone = True

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        column = frame.data["column"]
        return offer(
            m("prompt.build_site", building=column_name(column)),
            site_options(state, column, frame.data.get("coffee")),
        )

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        data = frame.data
        if data.get("free"):
            ask_next(state, *build(state, frame.seat, data["column"], chosen.id))
        else:
            resolve_build(
                state, frame.seat, data["column"], chosen.id, data["lead"], data.get("rest")
            )


class PiggyBuild(CoffeeStep):
    """Action B5: the next player may build in the same place too, for 1 coffee to the
    builder."""

    kind = "piggy_build"
    always_asks = True  # Decline

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        builder, place = who(state, frame.data["builder"]), frame.data["place"]
        prompt = (
            m("prompt.piggy_build_board", builder=builder)
            if place is None
            else m("prompt.piggy_build", builder=builder, coffee=coop_name(place))
        )
        bonus_trader = not state.players[frame.seat].traders
        own = "label.join_build_bonus" if bonus_trader else "label.join_build"
        joins = [
            Option(
                f"join.{c}",
                m(own, building=column_name(c)),
                {"action": "join", **board_sites(state, c, place), "bonus_trader": bonus_trader}
                | ({"place": place} if place is not None else {}),
            )
            for c in follow_columns(state, frame.seat, place)
        ]
        return offer(prompt, [*joins, Option("decline", m("label.decline"), {"action": "decline"})])

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        data = frame.data
        if chosen.id == "decline":
            ask_next(
                state, *piggy_build_prompt(state, data["builder"], data["place"], data["rest"])
            )
        else:
            send_trader(state.players[frame.seat])
            follow = {**data, "column": chosen.id.split(".")[1]}
            ask_next(state, Prompt(frame.seat, "piggy_pay", follow))


class PiggyPay(CoffeeStep):
    """Action B5: the coffee a piggybacking player pays the builder."""

    kind = "piggy_pay"

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        return offer(
            m("prompt.piggy_pay", builder=who(state, frame.data["builder"])),
            piggy_pay_options(state, frame.seat),
        )

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        seat, data = frame.seat, frame.data
        pay_builder(state, seat, data["builder"], chosen.id)
        if data["column"] == "warehouse":
            resolve_build(state, seat, "warehouse", None, data["builder"], data["rest"])
            return
        site = {
            "column": data["column"],
            "lead": data["builder"],
            "coffee": data["place"],
            "rest": data["rest"],
        }
        ask_next(state, Prompt(seat, "build_site", site))


STEPS = (Trade(), PiggyTrader(), BuildSite(), PiggyBuild(), PiggyPay())
