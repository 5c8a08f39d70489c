"""A seat's own farmyard (the private picture and the phone's own area, H8/V1): the family
at home stands inside a larger time track, each member's number readable on a phone (9 px
at 400, as the rest of the own area; on the table's drawing a full farmyard's read 7.6) and
no member over another. The table's farmyards are not changed (checked against the tree
before, not here)."""

from __future__ import annotations

import itertools
import math
import random
from functools import cache
from typing import Any

from meeple_hall.games.core import Action
from meeple_hall.games.testing import random_choices
from meeple_hall.games.village import engine
from meeple_hall.renderers import phone
from meeple_hall.renderers import village as table
from tests.renderers.legibility import texts_on_phone

LEAST_AT_400 = 9.0


@cache
def _full_farms() -> list[dict[str, Any]]:
    """Views of a seat with 4 to 7 members at home, from random games."""
    found: dict[int, dict[str, Any]] = {}
    for players, seed in ((3, 7), (2, 1), (4, 1), (2, 3), (1, 2)):
        state, rng = engine.new(players, seed=seed), random.Random(seed)
        while pending := engine.decisions(state):
            for seat in range(players):
                home = len(engine.view(state, seat)["players"][seat]["farm"])
                if 4 <= home <= 7 and home not in found:
                    found[home] = engine.view(state, seat)
            decision = rng.choice(pending)
            state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    assert {4, 5} <= set(found), sorted(found)
    return [found[k] for k in sorted(found)]


def test_numbers_at_home_read_9_px_on_a_phone() -> None:
    for view in _full_farms():
        farm = view["players"][view["you"]["seat"]]["farm"]
        _, texts = texts_on_phone(lambda v=view: phone.render_decision("village", v, (phone.OWN,)))
        numbers = {str(n) for n in farm}
        heights = [t.height for t in texts if t.text in numbers]
        assert heights and min(heights) >= LEAST_AT_400, (len(farm), min(heights))


def test_members_at_home_do_not_overlap_and_stay_inside_the_track() -> None:
    for view in _full_farms():
        seat = view["you"]["seat"]
        for width in (476, 561, 768):
            scale = width / table.PRIVATE_SPLIT
            u = table.Scale(scale)
            x0, y0, w, _ = table.YOUR_YARD
            spots = table.farm_spots(view, seat, u(x0), u(y0), w, scale, own=True)
            assert len(spots) == len(view["players"][seat]["farm"])
            for a, b in itertools.combinations(spots, 2):
                apart = _overlap(_extent(*a[3:], scale), _extent(*b[3:], scale))
                assert apart <= 1, (len(spots), width, a, b)  # 1: a pixel's rounding
            cx, cy, r = table.yard_track(u(x0), u(y0), w, scale, own=True)
            for *_, x, y, pr in spots:
                assert math.dist((x, y), (cx, cy)) + 1.25 * pr <= r - r / 6, (len(spots), width)


def _extent(x: float, y: float, r: int, scale: float) -> tuple[float, float, float, float]:
    """A member's bounds as `table.pawn` draws it: the seat's shape (the widest reach 1.25
    times its radius) about 3 above its centre, its body down to 2 below its radius."""
    reach, up = 1.25 * r, 3 * scale
    return (x - reach, y - up - reach, x + reach, max(y - up + reach, y + r + 2 * scale))


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """How far two boxes overlap (their overlap's smaller side; 0 apart or touching)."""
    return max(0.0, min(min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])))
