"""The flow of a period: phases run on by themselves until someone must decide."""

from __future__ import annotations

from meeple_hall.games.coffee import andre, assign, harvest, refresh, sell, trade, work
from meeple_hall.games.coffee.data import components
from meeple_hall.games.coffee.milestones import check_milestones
from meeple_hall.games.coffee.names import who
from meeple_hall.games.coffee.state import CoffeeState, Prompt
from meeple_hall.games.coffee.steps import STEPS
from meeple_hall.games.coffee.words import m


def start_work(state: CoffeeState) -> None:
    state.phase, state.step, state.turn = "work", "", 0
    state.done = [False] * len(state.players)
    if state.andre is not None:
        state.andre.work_turn = 0


def turn_seat(state: CoffeeState, order: list[int]) -> int:
    """The seat whose turn it is, skipping those who dropped out (call only while some
    have not)."""
    while state.done[order[state.turn % len(order)]]:
        state.turn += 1
    return order[state.turn % len(order)]


def advance(state: CoffeeState) -> None:
    """Run everything that needs no decision, until someone must decide or the game ends."""
    while not state.over:
        check_milestones(state)
        if state.prompts:
            if not settle_prompt(state):
                return
        elif not progress(state):
            return


def settle_prompt(state: CoffeeState) -> bool:
    """The first pending choice lapses (nothing to choose) or is made for its player (one
    option of a step that `answers_alone`): True; False when its player must choose."""
    prompt = state.prompts[0]
    choices = STEPS.step(prompt).resolves(state, prompt)
    if choices is None:
        return False
    if choices:
        STEPS.answer(state, prompt, choices)
    else:
        state.prompts.pop(0)
    return True


def progress(state: CoffeeState) -> bool:
    """One automatic step of the current phase; False when a player must decide."""
    if state.phase == "setup":
        if all(state.done):
            start_work(state)
            return True
        turn_seat(state, state.order)
        return False
    if state.phase == "work":
        return progress_work(state)
    if state.phase == "assign":
        return progress_assign(state)
    if state.phase == "trade":
        return progress_trade(state)
    if state.phase == "sell":
        return progress_sell(state)
    return progress_refresh(state)


def progress_work(state: CoffeeState) -> bool:
    if all(state.done):
        state.phase, state.step = "assign", "own"
        state.done = [state.is_andre(s) for s in state.seats]
        state.say(m("log.phase", phase=m("phase.assign")))
        return True
    seat = turn_seat(state, state.order)
    if state.is_andre(seat):
        andre.work_turn(state)
        state.turn += 1
        return True
    if not work.may_work(state, seat):
        state.done[seat] = True
        state.say(m("log.drops_work", seat=who(state, seat)))
        return True
    return False


def progress_assign(state: CoffeeState) -> bool:
    if state.step == "own":
        if any(assign.needs_own(state, s) for s in state.seats):
            return False
        state.step, state.turn = "other", 0
        state.done = [state.is_andre(s) for s in state.seats]
        return True
    if state.step == "other":
        if not all(state.done):
            seat = turn_seat(state, state.order)
            if assign.may_staff_other(state, seat):
                return False
            state.done[seat] = True
            return True
        assign.andre_fills(state)
        assign.start_penalties(state)
        state.step = "penalty"
        return True
    owing = [s for s in state.order if s in state.owed]
    if owing:
        seat = owing[0]
        if assign.penalty_options(state, seat):
            return False
        assign.settle_unpaid(state, seat)
        return True
    state.phase, state.step, state.turn, state.passes = "trade", "", 0, 0
    state.say(m("log.phase", phase=m("phase.trade")))
    return True


def progress_trade(state: CoffeeState) -> bool:
    if state.passes >= len(state.order):
        if state.andre is not None:
            trade.andre_fair_trade_post(state)
        state.say(m("log.phase", phase=m("phase.harvest")))
        harvest.harvest(state)
        state.phase, state.turn = "sell", 0
        state.done = [False] * len(state.players)
        state.next_order = []
        state.say(m("log.phase", phase=m("phase.sell")))
        return True
    seat = state.order[state.turn % len(state.order)]
    if state.is_andre(seat):
        trade.andre_turn(state)
        return True
    if not trade.may_trade(state, seat):
        state.turn += 1
        state.passes += 1
        return True
    return False


def progress_sell(state: CoffeeState) -> bool:
    if all(state.done):
        start_refresh(state)
        return True
    seat = turn_seat(state, sell.sell_order(state))
    if state.is_andre(seat):
        sell.andre_delivers(state)
        state.done[seat] = True
        state.turn += 1
        return True
    return False


def start_refresh(state: CoffeeState) -> None:
    state.phase = "refresh"
    state.say(m("log.phase", phase=m("phase.refresh")))
    refresh.return_pieces(state)
    if state.period == 3:
        refresh.refill_bonus_coins(state)
        state.over = True
        state.say(m("log.over"))
        return
    state.step = "storage"
    state.done = [
        state.is_andre(s) or refresh.keeps_everything_in_rows(p)
        for s, p in enumerate(state.players)
    ]


def progress_refresh(state: CoffeeState) -> bool:
    if state.step == "storage":
        if not all(state.done):
            return False
        for seat, player in enumerate(state.players):
            state.prompts += [Prompt(seat, "wild_income") for s in player.stocks if s == "wild"]
        state.step = "income"
        return True
    for player in state.players:
        refresh.stock_income(player, [])
    refresh.refill_bonus_coins(state)
    andre_seats = [s for s in state.order if state.is_andre(s)]
    state.order = state.next_order + andre_seats
    refresh.refill_trading_house_coins(state)
    refresh.andre_refresh(state)
    state.period += 1
    year = components().board["periods"]["years"][state.period - 1]
    state.say(m("log.begins", year=year, order=[who(state, s) for s in state.order]))
    start_work(state)
    return True
