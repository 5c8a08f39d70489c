"""The shortcuts the engine takes where a panel asks it the same things hundreds of times a
move give what working everything out gives, at every point of whole games: whether a seat
has a Work, Trade or Assign option (`may_work`, `may_trade`, `may_staff_other`), the pending
choices asked without working their offers out (`always_asks`), the deliveries a seat can
pay (`bar_options`, against the way they were worked out before) and the seats a view names
as asked."""

from __future__ import annotations

import random

import pytest

from meeple_hall.games.coffee import assign, engine, sell, trade, work
from meeple_hall.games.coffee.data import COFFEES, components
from meeple_hall.games.coffee.state import CoffeeState
from meeple_hall.games.coffee.steps import STEPS
from meeple_hall.games.coffee.supply import can_pay, scoring_markers_left
from meeple_hall.games.core import Action, Option


def bar_options_worked_out(state: CoffeeState, seat: int) -> list[Option]:
    """The deliveries as `bar_options` worked them out before it read the coffee directly
    and kept its options (session 13)."""
    player = state.players[seat]
    options: list[Option] = []
    if not scoring_markers_left(state, seat):
        return options
    for bar, spaces in components().bars.items():
        for i, space in enumerate(spaces):
            if state.bars[bar][i] is not None:
                continue
            kinds = COFFEES if space.need == "any" else [None]
            for kind in kinds:
                wants = sell.bar_wants(player, space, kind)
                if wants is not None and can_pay(player, wants):
                    token = f"bar.{bar}.{i}" + (f".{kind}" if kind else "")
                    counter = state.bar_animals.get(f"{bar}.{i}")
                    need = wants if space.need != "mixed" else None
                    label = sell.bar_label(bar, space, need, counter)
                    fields = {"action": "bar", "bar": bar, "space": i}
                    options.append(
                        Option(token, label, fields | ({"coffee": kind} if kind else {}))
                    )
    return options


def check(state: CoffeeState) -> int:
    """Check every shortcut in `state`; how many pending choices were asked unworked."""
    for seat in state.seats:
        assert work.may_work(state, seat) == bool(work.work_options(state, seat))
        assert trade.may_trade(state, seat) == bool(trade.trade_options(state, seat))
        assert assign.may_staff_other(state, seat) == bool(assign.other_options(state, seat))
        assert sell.bar_options(state, seat) == bar_options_worked_out(state, seat)
    unworked = 0
    for prompt in state.prompts:
        step = STEPS.step(prompt)
        if step.always_asks:  # type: ignore[attr-defined]
            options = step.offer(state, prompt).options
            assert options, prompt
            assert not (step.answers_alone and len(options) == 1), prompt  # type: ignore[attr-defined]
            unworked += 1
    pending = engine.decisions(state)
    assert engine.view(state, None)["active"] == sorted({d.seat for d in pending})
    return unworked


@pytest.mark.parametrize(("players", "seed"), [(2, 4), (3, 1), (4, 2), (5, 3)])
def test_shortcuts_match_working_everything_out(players: int, seed: int) -> None:
    state = engine.new(players, seed)
    rng = random.Random(seed)
    unworked = 0
    while engine.result(state) is None:
        unworked += check(state)
        decision = engine.decisions(state)[0]
        ids = [o.id for o in decision.options]
        # deliveries and plantings first, so that the Coffee Bars fill and rows empty
        wanted = [i for i in ids if i.startswith(("bar.", "contract.", "plant"))]
        if decision.max_choices == 1 and wanted and rng.random() < 0.7:
            choices = (rng.choice(wanted),)
        else:
            count = rng.randint(decision.min_choices, min(decision.max_choices, len(ids)))
            choices = tuple(rng.sample(ids, count))
        state = engine.apply(state, Action(decision.seat, choices))
    check(state)
    assert unworked, "some pending choice was asked without its offer worked out"
