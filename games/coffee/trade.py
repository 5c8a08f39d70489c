"""Phase 3: Trade & Build. In turn order until everyone passes consecutively: place a
trader (others piggyback for free), hire a contractor (others piggyback for 1 coffee to the
builder), or remove a trader for two Arabica steps."""

from __future__ import annotations

from meeple_hall.games.coffee import arabica
from meeple_hall.games.coffee.board import open_building_spaces
from meeple_hall.games.coffee.build import (
    build,
    buildable,
    building_bonus,
    next_building,
)
from meeple_hall.games.coffee.data import BOARD_COLUMNS, components
from meeple_hall.games.coffee.names import coop_name, who
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

ACTION_COST = 2


def capacity(state: CoffeeState) -> int:
    return components().board["trading_house"]["trader_spaces"][str(state.rules_players)]


def trade_options(state: CoffeeState, seat: int) -> list[Option]:
    player = state.players[seat]
    options: list[Option] = []
    if player.coins >= ACTION_COST and has_trader(player):
        for coffee, coop in state.coops.items():
            if not coop.traders:
                options.append(
                    Option(f"trader.{coffee}", m("label.place_trader", coffee=coop_name(coffee)))
                )
        for column in buildable(state, seat):
            label = m(
                "label.build",
                building=column_name(column),
                bonus=building_bonus(state, seat, column),
            )
            options.append(Option(f"build.{column}", label))
        options.append(Option("retire", m("label.retire")))
    # the bonus trader only when it can be sent at once (else take the coins first)
    takes_trader = (
        not player.traders and player.coins >= ACTION_COST and may_take_bonus(player, "trader")
    )
    # with a trader (own or bonus) at hand, the bonus coins may pay for the action
    # ... and putting 3 coins back frees the bonus trader when it is the last bonus left
    if options or player.traders or "trader" in player.bonus:
        options += bonus_options(player, trader=takes_trader)
    return options


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
            state.prompts.insert(0, Prompt(seat, "build_site", {"column": column, "lead": seat}))
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
            state.prompts.insert(
                0,
                Prompt(seat, "piggy_trader", {"coffee": coffee, "rest": followers, "out": out}),
            )
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
    state.prompts[0:0] = bonuses + piggy_build_prompt(state, lead, place, followers)


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
        Option(c, m("label.pay_builder", coffee=coffee_name(c))) for c, n in coffee.items() if n
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
