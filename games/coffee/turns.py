"""The decision of the seat whose turn it is in each phase, and what it does."""

from __future__ import annotations

from meeple_hall.games.coffee import assign, refresh, sell, trade, work
from meeple_hall.games.coffee.names import coop_name, who
from meeple_hall.games.coffee.state import CoffeeState, Plantation
from meeple_hall.games.coffee.words import m
from meeple_hall.games.core import Decision, Option


def phase_decisions(state: CoffeeState) -> list[Decision]:
    if state.phase == "setup":
        seat = state.order[state.turn % len(state.order)]
        options = [
            Option(assign.space_id(c, 1, i), m("label.start", coffee=coop_name(c), space=i + 1))
            for c, coop in state.coops.items()
            for i, p in enumerate(coop.rows[0])
            if p is None
        ]
        prompt = m("prompt.start")
        return [Decision(seat, "start", prompt, tuple(options))]
    if state.phase == "assign" and state.step == "own":
        return [
            Decision(
                s,
                "staff_own",
                m("prompt.staff_own", n=state.players[s].pool),
                tuple(assign.own_options(state, s)),
            )
            for s in state.seats
            if assign.needs_own(state, s)
        ]
    if state.phase == "refresh":
        return [
            Decision(
                s,
                "storage",
                m("prompt.storage", n=p.built["warehouse"]),
                tuple(refresh.storage_options(p)),
                min_choices=0,
                max_choices=min(p.built["warehouse"], len(refresh.storage_options(p))),
            )
            for s, p in enumerate(state.players)
            if not state.done[s]
        ]
    if state.phase == "work":
        seat = state.order[state.turn % len(state.order)]
        options = [*work.work_options(state, seat), Option("drop", m("label.drop_work"))]
        prompt = m("prompt.work")
        return [Decision(seat, "work", prompt, tuple(options))]
    if state.phase == "assign" and state.step == "other":
        seat = state.order[state.turn % len(state.order)]
        options = [
            *assign.other_options(state, seat),
            Option("drop", m("label.drop_staff")),
        ]
        prompt = m("prompt.staff_other", n=state.players[seat].pool)
        return [Decision(seat, "staff_other", prompt, tuple(options))]
    if state.phase == "assign":
        seat = next(s for s in state.order if s in state.owed)
        prompt = m("prompt.penalty", n=state.owed[seat])
        return [Decision(seat, "penalty", prompt, tuple(assign.penalty_options(state, seat)))]
    if state.phase == "trade":
        seat = state.order[state.turn % len(state.order)]
        options = [*trade.trade_options(state, seat), Option("pass", m("label.pass"))]
        prompt = m("prompt.trade")
        return [Decision(seat, "trade", prompt, tuple(options))]
    seat = sell.sell_order(state)[state.turn % len(state.order)]
    prompt = m("prompt.sell")
    return [Decision(seat, "sell", prompt, tuple(sell.sell_options(state, seat)))]


def answer_phase(state: CoffeeState, decision: Decision, choices: tuple[str, ...]) -> None:
    seat = decision.seat
    kind = decision.kind
    if kind == "storage":
        refresh.store(state, seat, choices)
        state.done[seat] = True
        return
    choice = choices[0]
    if kind == "start":
        coffee, _, space = choice.split(".")
        state.coops[coffee].rows[0][int(space)] = Plantation(owner=seat, level=1)
        state.say(m("log.starts", seat=who(state, seat), coffee=coop_name(coffee)))
        state.done[seat] = True
        state.turn += 1
    elif kind == "work":
        work.perform_work(state, seat, choice)
    elif kind == "staff_own":
        if choice == "done":
            state.done[seat] = True
        else:
            assign.place_worker(state, seat, choice)
    elif kind == "staff_other":
        if choice == "drop":
            state.done[seat] = True
        else:
            assign.place_worker(state, seat, choice)
        state.turn += 1
    elif kind == "penalty":
        assign.pay_penalty(state, seat, choice)
    elif kind == "trade":
        trade.perform_trade(state, seat, choice)
    elif kind == "sell":
        answer_sell(state, seat, choice)


def answer_sell(state: CoffeeState, seat: int, choice: str) -> None:
    if sell.perform_trade(state, seat, choice):
        return
    state.turn += 1
    if choice == "drop":
        sell.drop_out_of_sell(state, seat)
    elif choice.startswith("contract."):
        sell.fulfil(state, seat, choice.split(".")[1])
    else:
        sell.start_delivery(state, seat, choice, second=True)
