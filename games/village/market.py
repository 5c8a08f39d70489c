"""Market day (BB "市集"): the trigger sells first for free, then everyone in turn sells one
customer for 1 green and 1 time more, until all have passed; then the stalls refill."""

from __future__ import annotations

from meeple_hall.games.core import Msg, Option
from meeple_hall.games.village import data
from meeple_hall.games.village import words as w
from meeple_hall.games.village.economy import can_pay, has_goods, pay, pay_goods, spend_time
from meeple_hall.games.village.state import KARLA, Market, Step, VillageState


def stall_tiles(state: VillageState) -> list[str]:
    return [t for t in state.stalls if t]


def start(state: VillageState, trigger: int, karla_reacts: bool = True) -> None:
    """Begin a market day. In solo Karla serves once in the player's market day, unless
    the player held it through the well (BB: after the well she does not "react")."""
    n = state.num_players
    order = list(range(n)) if trigger == KARLA else [(trigger + k) % n for k in range(n)]
    front = next((i for i, t in enumerate(state.stalls) if t), 0)
    state.market = Market(
        trigger=trigger,
        order=order,
        karla_due=state.solo and trigger != KARLA and karla_reacts,
        front=front,
        carried=[p.deaths_due for p in state.players],
        ending_before=state.ending,
    )
    state.log.append(w.m("log.market", who=w.who(trigger)))
    if trigger == KARLA:
        karla_serves(state, front_only=True)


def free_sale(state: VillageState, seat: int) -> bool:
    market = state.market
    return market is not None and market.first_free and seat == market.trigger


def options(state: VillageState, step: Step) -> list[Option]:
    player = state.players[step.seat]
    free = free_sale(state, step.seat)
    rules = data.rules()["market"]
    if not free and not can_pay(player, {"green": rules["other_green"]}):
        return [PASS]
    # `words.cubes` as the coin labels look for it (engine.with_coins)
    green = w.cubes({"green": rules["other_green"]})
    extra = w.plus([green, w.time(rules["other_time"])])
    out = []
    for tile in stall_tiles(state):
        wanted = data.customers()[tile]
        if has_goods(player, wanted.wants):
            goods = w.plus([wanted_good(g, n) for g, n in wanted.wants.items()])
            points = wanted.points
            label = (
                w.m("label.serve_free", n=points, goods=goods)
                if free
                else w.m("label.serve", n=points, goods=goods, extra=extra)
            )
            out.append(Option(f"serve-{tile}", label))
    return [*out, PASS]


PASS = Option("pass", w.m("label.pass_market"))


def wanted_good(good: str, n: int) -> Msg:
    """What a customer wants of one good: `horse`, `2 grain`."""
    name = w.m("grain") if good == "grain" else w.good(good)
    return name if n == 1 else w.m("many", n=n, good=name)


def cube_cost(state: VillageState, step: Step, option: str) -> dict[str, int]:
    if option == "pass" or free_sale(state, step.seat):
        return {}
    return {"green": data.rules()["market"]["other_green"]}


def perform(state: VillageState, step: Step, choice: str) -> None:
    market = state.market
    assert market is not None
    seat = step.seat
    player = state.players[seat]
    served_front = False
    market.order.pop(0)
    if choice == "pass":
        market.passed.append(seat)
        state.log.append(w.m("log.market_pass", seat=w.seat_name(seat)))
    else:
        tile = choice.removeprefix("serve-")
        rules = data.rules()["market"]
        if free_sale(state, seat):
            market.first_free = False
        else:
            pay(state, player, {"green": rules["other_green"]})
            spend_time(player, rules["other_time"])
        pay_goods(player, data.customers()[tile].wants)
        served_front = state.stalls.index(tile) == market.front
        state.stalls[state.stalls.index(tile)] = ""
        player.customers.append(tile)
        market.order.append(seat)
        state.log.append(w.m("log.serves", seat=w.seat_name(seat)))
    if seat == market.trigger and market.first_free:
        market.first_free = False
    if market.karla_due:
        market.karla_due = False
        karla_serves(state, front_only=not served_front)


def karla_serves(state: VillageState, front_only: bool) -> None:
    """Karla serves the frontmost customer, or the one that was second if the player who
    triggered the market day served the frontmost (BB solo "卡拉的(反應)行動")."""
    karla = state.karla
    market = state.market
    assert karla is not None and market is not None
    tiles = [i for i, t in enumerate(state.stalls) if t]
    if not front_only:
        second = [i for i in tiles if i > market.front]
        tiles = second or tiles
    if not tiles:
        return
    i = tiles[0]
    karla.customers.append(state.stalls[i])
    state.stalls[i] = ""
    state.log.append(w.m("log.serves", seat=w.who(KARLA)))


def next_seat(state: VillageState) -> int | None:
    """Whose sale it is, skipping players who passed; None when the day is over."""
    market = state.market
    assert market is not None
    if not stall_tiles(state):
        return None
    while market.order:
        seat = market.order[0]
        if seat not in market.passed:
            return seat
        market.order.pop(0)
    return None


def finish(state: VillageState) -> None:
    """Move waiting customers up to the stalls in order, then refill the queue."""
    open_stalls = data.card(state.num_players)["stalls"]
    for i, tile in enumerate(state.stalls[:open_stalls]):
        if not tile and state.queue:
            state.stalls[i] = state.queue.pop(0)
    size = data.rules()["market"]["queue"]
    while len(state.queue) < size and state.customer_stack:
        state.queue.append(state.customer_stack.pop())
    state.market = None
