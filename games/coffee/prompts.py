"""The shape of every step of Coffee Traders (games/core/steps.py).

A turn's pending choices (a bonus, a piggyback, a payment) are `Prompt`s on the state's
stack, the one asked first at the front; when it is empty, the phase asks its seats
(`steps.asked`). Either way a `Prompt` names the step's kind, and the kind, a `CoffeeStep`
written beside the rules it carries out (work.py, assign.py, trade.py, sell.py, ...), says
what it offers and what a choice does.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from meeple_hall.games.coffee.state import CoffeeState, Prompt
from meeple_hall.games.core import Option, Text
from meeple_hall.games.core.steps import Offer, Step


class CoffeeStep(Step[CoffeeState, Prompt]):
    """A step of Coffee Traders. Its `perform` reads the chosen ids only."""

    reads_meanings = False
    # a pending choice with a single option is made for the player
    answers_alone: ClassVar[bool] = False
    # True where the offer always has an option to ask (Drop out, Decline, a coffee of each
    # kind), and more than one where the step `answers_alone`: such a pending choice is
    # asked without working its offer out first (`resolves`; the decision works it out)
    always_asks: ClassVar[bool] = False

    def resolves(self, state: CoffeeState, frame: Prompt) -> tuple[str, ...] | None:
        """`()` when there is nothing to choose (the pending choice lapses unperformed), the
        one option where the step `answers_alone`, else None: the seat is asked."""
        if self.always_asks:
            return None
        options = self.offer(state, frame).options
        if not options:
            return ()
        if self.answers_alone and len(options) == 1:
            return (options[0].id,)
        return None


def offer(prompt: Text, options: Iterable[Option], *, low: int = 1, high: int = 1) -> Offer:
    """What a step asks: pick `low`..`high` of `options` (in their order)."""
    return Offer(prompt, tuple(options), min_choices=low, max_choices=high)


def ask_next(state: CoffeeState, *prompts: Prompt) -> None:
    """These choices come next, in this order, before any already pending."""
    state.prompts[0:0] = prompts
