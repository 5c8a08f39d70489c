"""The steps of The Castles of Burgundy, declared once (games/core/steps.py): a turn's die,
action, tile and hex (turn.py), and what placed tiles and a full storage ask next
(follow_ups.py). The pending steps are the state's `stack` of `Frame`s; with nothing on it the
active seat chooses a die. After every step the score track and the turn's end are seen to.
"""

from __future__ import annotations

from meeple_hall.games.burgundy.effects import say
from meeple_hall.games.burgundy.flow import advance
from meeple_hall.games.burgundy.follow_ups import (
    Discard,
    EffectTake,
    Ship,
    ShipGoods,
    Townhall,
    Warehouse,
)
from meeple_hall.games.burgundy.state import BurgundyState, Frame
from meeple_hall.games.burgundy.turn import Action, Buy, CastleDie, Die, Place, Take
from meeple_hall.games.burgundy.words import m, seat_name
from meeple_hall.games.core import Decision
from meeple_hall.games.core.steps import Steps


def choosing_a_die(state: BurgundyState) -> Frame | None:
    """Nothing pending: the active seat chooses a die (or buys, or ends its turn). One frame
    for every state (asked for several times a move): it is never on a stack, and nothing
    changes a frame."""
    return None if state.over else CHOOSING_A_DIE


CHOOSING_A_DIE = Frame("die")


STEPS: Steps[BurgundyState, Frame] = Steps(
    [
        Die(),
        CastleDie(),
        Action(),
        Take(),
        Place(),
        Buy(),
        Discard(),
        Ship(),
        ShipGoods(),
        Warehouse(),
        EffectTake(),
        Townhall(),
    ],
    frames=lambda state: state.stack,
    base=choosing_a_die,
)


def step_kind(state: BurgundyState) -> str | None:
    """The kind of step asked now (None once the game is over)."""
    frame = STEPS.top(state)
    return None if frame is None else frame.kind


def perform(state: BurgundyState, decision: Decision, choices: tuple[str, ...]) -> None:
    """Carry out a decision, then tell who passed a hundred on the score track, and end the
    turn when nothing is left to do in it."""
    laps = [sum(p.points.values()) // 100 for p in state.players]  # `Player.score`
    STEPS.perform(state, decision, choices)
    for who, player in enumerate(state.players):
        lap = sum(player.points.values()) // 100
        if lap > laps[who]:
            say(state, m("log.passes", seat=seat_name(who), points=lap * 100))
    if not state.over:
        advance(state)
