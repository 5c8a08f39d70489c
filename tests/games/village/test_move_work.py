"""A move's work kept small (issue 29 item 5) without changing what it gives: every seat's
view is the spectator's worked out once per state, with the seat's own part added, and a
step tells whether it offers anything without making its options."""

from __future__ import annotations

import importlib
import itertools

import pytest

from meeple_hall.games.village import engine
from meeple_hall.games.village import view as view_module
from meeple_hall.games.village.engine import STEPS
from meeple_hall.games.village.state import Frame, VillageState
from tests.games.village.helpers import playout

# the module (the package's `engine` is the engine itself)
engine_module = importlib.import_module("meeple_hall.games.village.engine")
# the kinds whose frame needs nothing but its kind and seat
PLAIN_KINDS = sorted(STEPS.kinds - {"privilege", "karla"})


def some_states(num_players: int, seed: int, every: int = 3) -> list[VillageState]:
    return list(itertools.islice(playout(num_players, seed), 0, None, every))


@pytest.mark.parametrize(("num_players", "seed"), [(1, 2), (3, 1), (4, 5)])
def test_every_seats_view_is_the_spectators_worked_out_once(
    num_players: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[int] = []

    def counted(state: VillageState) -> dict:
        made.append(id(state))
        return view_module.public_view(state)

    monkeypatch.setattr(engine_module, "public_view", counted)
    states = some_states(num_players, seed)
    for state in states:
        for seat in (None, *range(num_players), None):
            assert engine.view(state, seat) == view_module.view(state, seat)
    assert len(made) == len(states)


@pytest.mark.parametrize(("num_players", "seed"), [(1, 4), (2, 3), (5, 2)])
def test_whether_a_step_offers_anything_is_what_its_options_say(
    num_players: int, seed: int
) -> None:
    asked = 0
    for state in some_states(num_players, seed, every=2):
        for kind, seat in itertools.product(PLAIN_KINDS, range(num_players)):
            step = STEPS.by_kind[kind]
            frame = Frame(kind, seat)
            assert step.has_choices(state, frame) == bool(step.choices(state, frame)), kind
            asked += 1
    assert asked > 100
