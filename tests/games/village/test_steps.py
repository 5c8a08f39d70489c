"""Village's steps (games/core/steps.py's one shape): each decision kind is one class
beside the rules it carries out, and every option says what it is in plain JSON."""

from __future__ import annotations

import json

import pytest

from meeple_hall.games.village import engine
from tests.games.village.helpers import playout


def test_every_decision_kind_is_one_declared_step_beside_its_rules() -> None:
    steps = engine.steps.by_kind
    where = {kind: type(step).__module__.rsplit(".", 1)[1] for kind, step in steps.items()}
    assert where == {
        "turn": "rounds",
        "harvest": "actions",
        "family": "actions",
        "crafts": "actions",
        "council": "actions",
        "privilege": "actions",
        "travel": "actions",
        "reward": "actions",
        "church": "actions",
        "market": "market",
        "die": "death",
        "karla": "karla",
        "buy": "mass",
        "advance": "mass",
        "gift": "engine",
    }


@pytest.mark.parametrize(("num_players", "seed"), [(1, 61), (4, 62)])
def test_options_say_what_they_are_in_plain_json(num_players: int, seed: int) -> None:
    """`Option.fields` (what presenters read, and what a step performs) survive JSON."""
    kinds: set[str] = set()
    for state in playout(num_players, seed):
        for decision in engine.decisions(state):
            kinds.add(decision.kind)
            for option in decision.options:
                assert option.fields, (decision.kind, option.id)
                assert json.loads(json.dumps(option.fields)) == option.fields
    assert {"turn", "market"} <= kinds
