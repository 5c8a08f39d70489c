"""The bag, the green supply, the skill pile and the resource supply: draws and returns.

Shortages give what is there (rulebook, "Production": a player only receives the number
that is available).
"""

from __future__ import annotations

from meeple_hall.games.keyflower.components import COLOURS, SKILLS
from meeple_hall.games.keyflower.state import KeyflowerState


def add(counts: dict[str, int], key: str, n: int = 1) -> None:
    """Add n (a shortage may give none: no empty entry is left behind)."""
    if n:
        counts[key] = counts.get(key, 0) + n


def take(counts: dict[str, int], key: str, n: int = 1) -> None:
    if counts.get(key, 0) < n:
        raise ValueError(f"not enough {key}")
    counts[key] -= n
    if counts[key] == 0:
        del counts[key]


def _draw(
    state: KeyflowerState, pool: dict[str, int], order: tuple[str, ...], n: int
) -> dict[str, int]:
    drawn: dict[str, int] = {}
    for _ in range(n):
        total = sum(pool.get(k, 0) for k in order)
        if total == 0:
            break
        pick = state.rng.below(total)
        for key in order:
            if pick < pool.get(key, 0):
                take(pool, key)
                add(drawn, key)
                break
            pick -= pool.get(key, 0)
    return drawn


def draw_workers(state: KeyflowerState, n: int) -> dict[str, int]:
    """Workers drawn at random from the bag (green ones only get there by being spent)."""
    return _draw(state, state.bag, COLOURS, n)


def draw_skills(state: KeyflowerState, n: int) -> dict[str, int]:
    return _draw(state, state.skill_pile, SKILLS, n)


def take_green(state: KeyflowerState, n: int) -> int:
    got = min(n, state.green)
    state.green -= got
    return got


def take_resources(state: KeyflowerState, give: dict[str, int]) -> dict[str, int]:
    got = {k: min(v, state.supply.get(k, 0)) for k, v in give.items()}
    for k, v in got.items():
        if v:
            take(state.supply, k, v)
    return {k: v for k, v in got.items() if v}


def merge(into: dict[str, int], more: dict[str, int]) -> None:
    for k, v in more.items():
        if v:
            add(into, k, v)


def to_bag(state: KeyflowerState, colour: str, n: int) -> None:
    if n:
        add(state.bag, colour, n)
