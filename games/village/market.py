"""Market day (BB "市集"): the trigger sells first for free, then everyone in turn sells one
customer for 1 green and 1 time more, until all have passed; then the stalls refill."""

from __future__ import annotations

from meeple_hall.games.core import Msg, Option
from meeple_hall.games.village import data
from meeple_hall.games.village import words as w
from meeple_hall.games.village.economy import can_pay, has_goods, pay, pay_goods, spend_time
from meeple_hall.games.village.state import KARLA, Frame, Market, VillageState
from meeple_hall.games.village.steps import Fields, VillageStep, option, passing


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


class Sale(VillageStep):
    """A sale on market day: serve a customer at the stalls whose goods the player has
    (free for the trigger's first, else 1 green and 1 time more), or pass for the day."""

    kind = "market"
    answers_alone = True  # only passing left: the player passes

    def choices(self, state: VillageState, frame: Frame) -> list[Option]:
        player = state.players[frame.seat]
        free = free_sale(state, frame.seat)
        rules = data.rules()["market"]
        cost = {"green": rules["other_green"]}
        if not free and not can_pay(player, cost):
            return [PASS]
        # `words.cubes` as the coin labels look for it (steps.with_coins)
        extra = w.plus([w.cubes(cost), w.time(rules["other_time"])])
        out = []
        for tile in stall_tiles(state):
            wanted = data.customers()[tile]
            if has_goods(player, wanted.wants):
                goods = w.plus([wanted_good(g, n) for g, n in wanted.wants.items()])
                points = wanted.points
                if free:
                    label = w.m("label.serve_free", n=points, goods=goods)
                    out.append(option(f"serve-{tile}", label, customer=tile, free=True))
                else:
                    label = w.m("label.serve", n=points, goods=goods, extra=extra)
                    out.append(option(f"serve-{tile}", label, customer=tile, cost=cost))
        return [*out, PASS]

    def passes(self, state: VillageState, frame: Frame) -> None:
        market = day(state)
        market.order.pop(0)
        market.passed.append(frame.seat)
        state.log.append(w.m("log.market_pass", seat=w.seat_name(frame.seat)))
        after_sale(state, frame.seat, served_front=False)

    def act(self, state: VillageState, frame: Frame, chosen: Fields) -> None:
        day(state).order.pop(0)
        served_front = serve(state, frame.seat, chosen["customer"])
        after_sale(state, frame.seat, served_front)


PASS = passing("pass", w.m("label.pass_market"))


def wanted_good(good: str, n: int) -> Msg:
    """What a customer wants of one good: `horse`, `2 grain`."""
    name = w.m("grain") if good == "grain" else w.good(good)
    return name if n == 1 else w.m("many", n=n, good=name)


def day(state: VillageState) -> Market:
    assert state.market is not None, "no market day"
    return state.market


def serve(state: VillageState, seat: int, tile: str) -> bool:
    """Serve customer `tile`: its goods, and unless it is the trigger's free first sale,
    1 green and 1 time; the seat may sell again once the others had their turn. Whether
    it stood at the frontmost stall of the day."""
    market = day(state)
    player = state.players[seat]
    rules = data.rules()["market"]
    if free_sale(state, seat):
        market.first_free = False
    else:
        pay(state, player, {"green": rules["other_green"]})
        spend_time(player, rules["other_time"])
    pay_goods(player, data.customers()[tile].wants)
    stall = state.stalls.index(tile)
    state.stalls[stall] = ""
    player.customers.append(tile)
    market.order.append(seat)
    state.log.append(w.m("log.serves", seat=w.seat_name(seat)))
    return stall == market.front


def after_sale(state: VillageState, seat: int, served_front: bool) -> None:
    """The trigger's free sale is gone once it had its turn; in solo Karla serves after
    the player's first sale or pass (the second customer if the player took the front)."""
    market = day(state)
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


def advance(state: VillageState) -> None:
    """The market day goes on: deaths due during it first, then the next sale; when all
    have passed (or the stalls are empty), the day ends."""
    market = day(state)
    for seat, player in enumerate(state.players):
        if player.deaths_due > market.carried[seat]:
            state.stack.append(Frame("die", seat))
            return
    seller = next_seat(state)
    if seller is not None:
        state.stack.append(Frame("market", seller))
        return
    if state.ending and not market.ending_before and state.ender != market.trigger:
        state.market_ender = market.trigger
    finish(state)


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
