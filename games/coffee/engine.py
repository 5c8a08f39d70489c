"""Coffee Traders behind the engine contract: three periods of six phases."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from meeple_hall.games.coffee import determinize
from meeple_hall.games.coffee.flow import advance, start_work
from meeple_hall.games.coffee.names import who
from meeple_hall.games.coffee.scoring import breakdown
from meeple_hall.games.coffee.setup import new_game
from meeple_hall.games.coffee.state import CoffeeState
from meeple_hall.games.coffee.steps import STEPS
from meeple_hall.games.coffee.view import view
from meeple_hall.games.coffee.words import m
from meeple_hall.games.core import (
    Decision,
    GameOption,
    Option,
    Result,
    Rng,
    ranks_from_scores,
)
from meeple_hall.games.core.kept import SpectatorsViewKept


def handicap(choice: str) -> tuple[int, int] | None:
    """`p3-4` -> (seat 2, 4 contracts)."""
    if choice == "none":
        return None
    seat, n = choice[1:].split("-")
    return int(seat) - 1, int(n)


class CoffeeEngine(SpectatorsViewKept[CoffeeState]):
    id = "coffee"
    name = "Coffee Traders"
    min_players = 2
    max_players = 5
    automa = ((2, m("andre")),)
    state_type = CoffeeState
    options = (
        GameOption(
            id="milestones",
            label=m("option.milestones"),
            choices=(
                Option("normal", m("option.milestones_normal")),
                Option("vicious", m("option.milestones_vicious")),
            ),
            default="normal",
            description=m("option.milestones_note"),
        ),
        GameOption(
            id="start",
            label=m("option.start"),
            choices=(
                Option("standard", m("option.start_standard")),
                Option("experienced", m("option.start_experienced")),
            ),
            default="standard",
            description=m("option.start_note"),
        ),
        GameOption(
            id="handicap",
            label=m("option.handicap"),
            choices=(
                Option("none", m("option.handicap_none")),
                *(
                    Option(
                        f"p{seat}-{n}", m("option.handicap_seat", seat=seat, n=n), {"seat": seat}
                    )
                    for seat in range(1, 6)
                    for n in (2, 4)
                ),
            ),
            default="none",
            description=m("option.handicap_note"),
        ),
    )

    def setup(self, num_players: int, rng: Rng, options: dict[str, str]) -> CoffeeState:
        free_start = options["start"] == "experienced"
        state = new_game(num_players, rng, free_start, handicap(options["handicap"]))
        state.vicious = options["milestones"] == "vicious"
        for seat, player in enumerate(state.players):
            if player.hard_sides:
                sides = list(player.hard_sides)
                state.say(m("log.hard_sides", seat=who(state, seat), letters=sides))
        state.say(m("log.begins", year=1970, order=[who(state, s) for s in state.order]))
        if free_start:
            state.phase, state.turn = "setup", 0
            state.done = [state.is_andre(s) for s in state.seats]
        else:
            start_work(state)
        advance(state)
        return state

    steps = STEPS

    def decisions(self, state: CoffeeState) -> list[Decision]:
        return STEPS.decisions(state)

    def decision_of(self, state: CoffeeState, seat: int, kinds: Collection[str]) -> Decision | None:
        """`Steps.decision_of`, remembered as `decisions` would be, for the moves the panel
        applies to `state` next."""
        decision = STEPS.decision_of(state, seat, kinds)
        if decision is not None:
            self._remember(state, [decision])
        return decision

    def perform(self, state: CoffeeState, decision: Decision, choices: tuple[str, ...]) -> None:
        STEPS.answer(state, STEPS.frame_for(state, decision), choices)
        advance(state)

    resampled_by_game = frozenset({"Andre.contracts"})

    def resample_private(self, state: CoffeeState, seat: int, rng: Rng) -> None:
        determinize.resample(state, seat, rng)

    def spectators_view(self, state: CoffeeState) -> dict[str, Any]:
        # the seats asked, from the steps asked (their decisions' options are not needed)
        asked = {STEPS.step(frame).seat(state, frame) for frame in STEPS.asked(state)}
        return view(state, None, sorted(asked))

    def own_part(self, state: CoffeeState, seat: int) -> int:
        """Every seat sees what a spectator sees (nothing is kept behind a screen)."""
        return seat

    def result(self, state: CoffeeState) -> Result | None:
        if not state.over:
            return None
        parts = [breakdown(state, seat) for seat in range(state.num_players)]
        scores = [sum(p.values()) for p in parts]
        keys = [(scores[s], state.players[s].coins) for s in range(state.num_players)]
        return Result(scores=tuple(scores), ranks=ranks_from_scores(keys), breakdown=tuple(parts))
