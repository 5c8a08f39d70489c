"""Keyflower's decisions are declared steps (games/core/steps.py), each beside the rules of
its phase, and every option says what it is in `fields`."""

from __future__ import annotations

import random

from meeple_hall.games.core import Action
from meeple_hall.games.core.steps import Steps
from meeple_hall.games.keyflower import engine
from meeple_hall.games.keyflower.components import tiles
from meeple_hall.games.testing import random_choices

PHASES = {
    "turn": {"action", "location", "colour", "gather", "count", "mix"},
    "production": {"resource", "skill", "discard"},
    "transport": {"transport", "from", "what", "to", "upgrade", "pay"},
    "seasons": {"winter", "boat", "flip"},
    "building": {"place_tile", "place_at", "place_rot"},
}


def test_every_step_kind_is_declared_once_in_the_module_of_its_phase() -> None:
    steps = engine.steps
    assert isinstance(steps, Steps)
    assert steps.kinds == set().union(*PHASES.values())
    for module, kinds in PHASES.items():
        for kind in kinds:
            assert steps.by_kind[kind].__module__.endswith(f"keyflower.{module}"), kind


def test_options_name_their_tile_item_count_or_payment_in_fields() -> None:
    seen: set[str] = set()
    for num_players, seed in ((2, 4), (5, 6)):
        state = engine.new(num_players, seed)
        rng = random.Random(seed)
        while pending := engine.decisions(state):
            for d in pending:
                for o in d.options:
                    if o.id in tiles() and d.kind != "action":
                        assert o.fields["tile"] == o.id, (d.kind, o)
                        seen.add("tile")
                    if d.kind == "pay":
                        assert isinstance(o.fields["paid"], dict)
                    if d.kind in ("what", "resource", "skill", "discard"):
                        assert o.fields["item"] == o.id
                        seen.add("item")
                    if d.kind == "count" and o.id != "back":
                        assert o.fields["n"] == int(o.id)
                        seen.add("n")
                    if d.kind == "place_at" and o.id != "back":
                        assert o.fields["at"] == o.id and o.fields["near"]
                        seen.add("at")
            d = rng.choice(pending)
            state = engine.apply(state, Action(d.seat, random_choices(d, rng)), decision=d)
    assert seen == {"tile", "item", "n", "at"}
