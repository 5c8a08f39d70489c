"""Transport and upgrades (rulebook, "Transport and upgrading").

A use of a home or transport tile gives a capacity, spent one resource one step at a time
along roads in one's own village, and a number of upgrades. An upgrade is paid with
resources on the tile itself and skill tiles from behind the screen. Gold stands in for
any resource at any time (components key); with boat 3a any resource stands in for any.
"""

from __future__ import annotations

from games.keyflower import supply
from games.keyflower.components import RESOURCES, SKILLS, spec
from games.keyflower.placing import abilities
from games.keyflower.state import KeyflowerState
from games.keyflower.village import connected

UPGRADABLE = ("home", "spring", "summer", "autumn")


def payment(have: dict[str, int], cost: dict[str, int], any_for_any: bool) -> dict[str, int] | None:
    """Resources to pay `cost` from `have`: named ones first, then others, gold last."""
    left = dict(have)
    paid: dict[str, int] = {}

    def spend(kind: str, n: int) -> None:
        if n:
            left[kind] -= n
            paid[kind] = paid.get(kind, 0) + n

    short = 0
    for kind in RESOURCES:
        use = min(cost.get(kind, 0), left.get(kind, 0))
        spend(kind, use)
        short += cost.get(kind, 0) - use
    by_others = short if any_for_any else 0
    plain = cost.get("any", 0) + by_others
    for kind in sorted((r for r in RESOURCES if r != "gold"), key=lambda r: -left.get(r, 0)):
        use = min(plain, left.get(kind, 0))
        spend(kind, use)
        plain -= use
    in_gold = plain + short - by_others
    if left.get("gold", 0) < in_gold:
        return None
    spend("gold", in_gold)
    return paid


def upgrade_plan(state: KeyflowerState, seat: int, tile_id: str) -> dict[str, int] | None:
    t = state.tiles[tile_id]
    s = spec(tile_id)
    if s.kind not in UPGRADABLE or s.back is None or s.is_summer_boat or t.upgraded:
        return None
    cost = s.upgrade or {}
    skills = state.players[seat].skills
    if any(skills.get(k, 0) < cost.get(k, 0) for k in SKILLS):
        return None
    res_cost = {k: v for k, v in cost.items() if k not in SKILLS}
    return payment(t.resources, res_cost, "3a" in abilities(state, seat))


def upgradable(state: KeyflowerState, seat: int) -> list[str]:
    return [
        t
        for t in state.players[seat].village
        if state.tiles[t].placed and upgrade_plan(state, seat, t) is not None
    ]


def upgrade(state: KeyflowerState, seat: int, tile_id: str, free: bool = False) -> None:
    t = state.tiles[tile_id]
    if not free:
        plan = upgrade_plan(state, seat, tile_id)
        assert plan is not None
        for kind, n in plan.items():
            supply.take(t.resources, kind, n)
            supply.add(state.supply, kind, n)
        cost = spec(tile_id).upgrade or {}
        for k in SKILLS:
            if cost.get(k):
                supply.take(state.players[seat].skills, k, cost[k])
                supply.add(state.skill_pile, k, cost[k])
    t.upgraded = True
    state.log.append(f"P{seat + 1} upgrades {spec(tile_id).name}")


def routes(state: KeyflowerState, seat: int, tile_id: str) -> list[str]:
    fields = "2a" in abilities(state, seat)
    return connected(state, state.players[seat], tile_id, fields)


def sources(state: KeyflowerState, seat: int) -> list[str]:
    return [
        t
        for t in state.players[seat].village
        if state.tiles[t].placed and state.tiles[t].resources and routes(state, seat, t)
    ]


def carry(state: KeyflowerState, seat: int, source: str, resource: str, dest: str) -> None:
    supply.take(state.tiles[source].resources, resource)
    supply.add(state.tiles[dest].resources, resource)
