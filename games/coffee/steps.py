"""Every step of Coffee Traders, by phase (EN rulebook, "Course of Play"), and who is asked.

A pending choice of a turn (`state.prompts`, the first asked first) is asked before the
phase goes on; otherwise the phase asks the seat whose turn it is, or, where the rules have
everyone choose at once (staffing one's own plantations, storage), every seat still to.
"""

from __future__ import annotations

from meeple_hall.games.coffee import arabica, assign, build, refresh, sell, setup, trade, work
from meeple_hall.games.coffee.state import CoffeeState, Prompt
from meeple_hall.games.core.steps import Steps


def asked(state: CoffeeState) -> list[Prompt]:
    """The steps asked now: the first pending choice, else the phase's."""
    if state.over:
        return []
    if state.prompts:
        return [state.prompts[0]]
    return phase_steps(state)


def phase_steps(state: CoffeeState) -> list[Prompt]:
    if state.phase == "assign" and state.step == "own":
        return [Prompt(s, "staff_own") for s in state.seats if assign.needs_own(state, s)]
    if state.phase == "refresh":
        return [Prompt(s, "storage") for s in state.seats if not state.done[s]]
    if state.phase == "assign" and state.step != "other":
        return [Prompt(next(s for s in state.order if s in state.owed), "penalty")]
    kind = TURN_STEPS[state.phase]
    order = sell.sell_order(state) if state.phase == "sell" else state.order
    return [Prompt(order[state.turn % len(state.order)], kind)]


# the step of the seat whose turn it is, by phase (Assign Workers: its second step)
TURN_STEPS = {
    "setup": "start",
    "work": "work",
    "assign": "staff_other",
    "trade": "trade",
    "sell": "sell",
}

STEPS: Steps[CoffeeState, Prompt] = Steps(
    [
        setup.Start(),
        *work.STEPS,
        *assign.STEPS,
        *trade.STEPS,
        *build.STEPS,
        arabica.Advance(),
        *sell.STEPS,
        *refresh.STEPS,
    ],
    frames=lambda state: state.prompts,
    asked=asked,
)
