"""Keyflower as an engine: its steps, phase by phase, and what people see.

The steps live beside the rules they carry out: a turn (turn.py), what a use gives
(production.py), transport and upgrades (transport.py), winter tiles, boats and Flipper
(seasons.py), tiles going into the village (building.py). A turn is a short sequence of
decisions whose option ids read as a sentence: `bid S07 red 2`, `use S03 blue next 1`,
`use H2 red 1 move S03 wood H2 up H2 done`.
"""

from __future__ import annotations

from typing import Any

from meeple_hall.games.core import (
    Decision,
    Result,
    Rng,
    ranks_from_scores,
)
from meeple_hall.games.core.kept import SpectatorsViewKept
from meeple_hall.games.core.order import in_order
from meeple_hall.games.core.steps import Steps
from meeple_hall.games.keyflower import (
    building,
    determinize,
    production,
    seasons,
    transport,
    turn,
)
from meeple_hall.games.keyflower.building import placing_kind
from meeple_hall.games.keyflower.offers import Ask
from meeple_hall.games.keyflower.scoring import CATEGORIES
from meeple_hall.games.keyflower.state import KeyflowerState
from meeple_hall.games.keyflower.view import own_view, public_view

LOG_KEPT = 40


def asked(state: KeyflowerState) -> list[Ask]:
    """The steps asked now, as the rulebook's phases keep them: the turn's step, each
    player's winter choice or tiles to place (several seats at once), the next boat pick,
    Flipper's free upgrade."""
    phase = state.phase
    if phase == "play":
        return [Ask(state.move.stage, state.current)]
    if phase == "winter":
        return [Ask("winter", seat) for seat, p in enumerate(state.players) if not p.winter_pick]
    if phase == "boats":
        return [Ask("boat", state.pick_order[0])]
    if phase == "place":
        return [Ask(placing_kind(p), seat) for seat, p in enumerate(state.players) if p.to_place]
    if phase == "flip":
        seat = seasons.flipper_seat(state)
        assert seat is not None, "the flip is asked only of the seat with Flipper"
        return [Ask("flip", seat)]
    return []


STEPS: Steps[KeyflowerState, Ask] = Steps(
    [*turn.STEPS, *production.STEPS, *transport.STEPS, *seasons.STEPS, *building.STEPS],
    frames=lambda state: [],  # no stack of its own: `asked` reads the phases (offers.py)
    asked=asked,
)


class KeyflowerEngine(SpectatorsViewKept[KeyflowerState]):
    id = "keyflower"
    name = "Keyflower"
    min_players = 2
    max_players = 6
    state_type = KeyflowerState
    steps = STEPS

    def setup(self, num_players: int, rng: Rng, options: dict[str, str]) -> KeyflowerState:
        return seasons.setup(num_players, rng)

    def decisions(self, state: KeyflowerState) -> list[Decision]:
        return STEPS.decisions(state)

    def perform(self, state: KeyflowerState, decision: Decision, choices: tuple[str, ...]) -> None:
        STEPS.perform(state, decision, choices)
        del state.log[:-LOG_KEPT]

    # -- what people see -------------------------------------------------------------
    def resample_private(self, state: KeyflowerState, seat: int, rng: Rng) -> None:
        determinize.resample(state, seat, rng)

    def spectators_view(self, state: KeyflowerState) -> dict[str, Any]:
        # the seats asked, from the steps asked (their decisions' options are not needed)
        active = {STEPS.step(frame).seat(state, frame) for frame in STEPS.asked(state)}
        return public_view(state, sorted(active))

    def own_part(self, state: KeyflowerState, seat: int) -> dict[str, Any]:
        return own_view(state, seat)

    def shows_secret(self, before: KeyflowerState, action: Any, after: KeyflowerState) -> bool:
        """Workers or skill tiles leaving a screen show their colours and kinds; winter tiles
        leaving a hand are shown (undo would not hide them again)."""
        for old, new in zip(before.players, after.players, strict=True):
            if any(new.screen.get(c, 0) < n for c, n in old.screen.items()):
                return True
            if any(new.skills.get(k, 0) < n for k, n in old.skills.items()):
                return True
            if not set(old.winter_hand) <= set(new.winter_hand):
                return True
        return False

    def result(self, state: KeyflowerState) -> Result | None:
        if state.phase != "over":
            return None
        breakdown = tuple(in_order(f["breakdown"], CATEGORIES) for f in state.final)
        scores = tuple(sum(b.values()) for b in breakdown)
        return Result(scores, ranks_from_scores(list(scores)), breakdown)
