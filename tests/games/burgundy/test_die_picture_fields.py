"""A die's options (and a castle's die's) say where the lines they lead to go, for the
decision's picture (renderers/phone/burgundy `marks`): `takes_from`, the depot a take may
empty, and `hexes`, the estate's hexes a placement may use, as `plays` finds them for the
die turned to that value; worked out from parts kept between states (`turn.reaching`), so
checked in every die and castle decision of played games against `plays` afresh."""

from __future__ import annotations

import random

import pytest

from meeple_hall.games.burgundy import engine
from meeple_hall.games.burgundy.rules import plays
from meeple_hall.games.burgundy.state import CASTLE_DIE
from meeple_hall.games.core import Action
from meeple_hall.games.testing import random_choices


@pytest.mark.parametrize(("num_players", "seed"), [(2, 5), (3, 6), (4, 7)])
def test_a_die_s_fields_name_what_its_plays_take_and_place(num_players: int, seed: int) -> None:
    state, rng = engine.new(num_players, seed), random.Random(seed)
    checked = placing = 0
    while pending := engine.decisions(state):
        decision = pending[0]
        if decision.kind in ("die", "castle"):
            seat = decision.seat
            for option in decision.options:
                if "value" not in option.fields:
                    assert "takes_from" not in option.fields and "hexes" not in option.fields
                    continue
                value = option.fields["value"]
                if decision.kind == "castle":
                    slot = CASTLE_DIE
                else:  # the die this option turns, its id beginning with the die rolled
                    player = state.players[seat]
                    slot = next(  # either, where both dice show the same
                        s
                        for s in (0, 1)
                        if not player.used[s] and option.id[0] == str(player.dice[s])
                    )
                found = plays(state, seat, slot, value)
                takes = any(p.action == "take" for p in found)
                hexes = sorted({p.hex for p in found if p.action == "place"})
                assert option.fields.get("takes_from") == (value if takes else None), option
                assert list(option.fields.get("hexes", ())) == hexes, option
                checked += 1
                placing += bool(hexes)
        decision = rng.choice(pending)
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    assert checked > 100 and placing > 10
