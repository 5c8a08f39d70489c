"""What the table may not see: served customers face down, the green bag, the customer
stack's order and Karla's unflipped fate tiles (issue: Secrets)."""

from __future__ import annotations

import json

from meeple_hall.games.village import engine
from tests.games.village.helpers import playout


def first_state(num_players: int, seed: int, test):
    return next(s for s in playout(num_players, seed) if test(s))


def test_served_customers_are_the_servers_secret_until_the_end():
    state = first_state(3, 4, lambda s: s.players[0].customers and s.phase != "over")
    served = state.players[0].customers
    for seat in (None, 1, 2):
        seen = json.dumps(engine.view(state, seat))
        assert not any(f'"{tile}"' in seen for tile in served)
        assert engine.view(state, seat)["players"][0]["customers"] == len(served)
    mine = engine.view(state, 0)["you"]
    assert len(mine["customers"]) == len(served) and mine["customer_points"] > 0


def holds(value, target) -> bool:
    """Whether `target` is `value` or anything nested in it."""
    if value == target:
        return True
    items = value.values() if isinstance(value, dict) else value
    return isinstance(value, dict | list) and any(holds(v, target) for v in items)


def test_the_green_bag_and_the_customer_stack_are_in_no_view():
    state = first_state(4, 2, lambda s: s.round == 2 and len(set(s.green_bag.values())) > 2)
    for seat in (None, 0, 3):
        view = engine.view(state, seat)
        assert not holds(view, dict(state.green_bag))
        seen = json.dumps(view)
        assert not any(f'"{tile}"' in seen for tile in state.customer_stack)


def test_karlas_fate_tiles_show_only_once_turned_up():
    state = first_state(
        1, 5, lambda s: s.karla is not None and 0 < sum(s.karla.top_up) < len(s.karla.top)
    )
    karla = state.karla
    for seat in (None, 0):
        top = engine.view(state, seat)["karla"]["top"]
        for shown, tile, up in zip(top, karla.top, karla.top_up, strict=True):
            assert shown == (tile if up else "?")
