"""Transport and upgrades (rulebook, "Transport and upgrading").

A use of a home or transport tile gives a capacity, spent one resource one step at a time
along roads in one's own village, and a number of upgrades. An upgrade is paid with
resources on the tile itself and skill tiles from behind the screen. Gold stands in for
any resource at any time (components key); with boat 3a any resource stands in for any.
Where the tile's resources can pay in more than one way, the player chooses which.
"""

from __future__ import annotations

from itertools import product

from meeple_hall.games.keyflower import supply
from meeple_hall.games.keyflower.components import RESOURCES, SKILLS, spec
from meeple_hall.games.keyflower.placing import abilities
from meeple_hall.games.keyflower.state import KeyflowerState
from meeple_hall.games.keyflower.village import connected
from meeple_hall.games.keyflower.words import amount, m, seat_name, tile_name

UPGRADABLE = ("home", "spring", "summer", "autumn")


def _covers(paid: dict[str, int], cost: dict[str, int]) -> bool:
    """Can these resources, as many as the cost asks, pay it? A named resource is paid by
    itself or by gold; "any" by anything; gold asked for by name only by gold."""
    excess = sum(max(0, paid.get(r, 0) - cost.get(r, 0)) for r in RESOURCES if r != "gold")
    return excess <= cost.get("any", 0) and paid.get("gold", 0) >= cost.get("gold", 0)


def payments(have: dict[str, int], cost: dict[str, int], any_for_any: bool) -> list[dict[str, int]]:
    """Every way the resources on a tile can pay `cost` (with boat 3a any resource for any)."""
    total = sum(cost.get(r, 0) for r in (*RESOURCES, "any"))
    kinds = [r for r in RESOURCES if have.get(r, 0)]
    out = []
    for counts in product(*(range(min(have[r], total) + 1) for r in kinds)):
        if sum(counts) != total:
            continue
        paid = {r: n for r, n in zip(kinds, counts, strict=True) if n}
        if any_for_any or _covers(paid, cost):
            out.append(paid)
    return sorted(out, key=payment_token)


def payment_token(paid: dict[str, int]) -> str:
    """`1gold+1iron`: how an upgrade is paid, as an option id."""
    return "+".join(f"{paid[r]}{r}" for r in RESOURCES if paid.get(r)) or "free"


def upgrade_plans(state: KeyflowerState, seat: int, tile_id: str) -> list[dict[str, int]]:
    """The ways this seat can pay to upgrade the tile (none if it cannot)."""
    t = state.tiles[tile_id]
    s = spec(tile_id)
    if s.kind not in UPGRADABLE or s.back is None or s.is_summer_boat or t.upgraded:
        return []
    cost = s.upgrade or {}
    skills = state.players[seat].skills
    if any(skills.get(k, 0) < cost.get(k, 0) for k in SKILLS):
        return []
    res_cost = {k: v for k, v in cost.items() if k not in SKILLS}
    return payments(t.resources, res_cost, "3a" in abilities(state, seat))


def upgradable(state: KeyflowerState, seat: int) -> list[str]:
    return [
        t
        for t in state.players[seat].village
        if state.tiles[t].placed and upgrade_plans(state, seat, t)
    ]


def upgrade(
    state: KeyflowerState, seat: int, tile_id: str, paid: dict[str, int] | None = None
) -> None:
    """Flip the tile, paying `paid` from it and the skill tiles; None for Flipper's free flip."""
    t = state.tiles[tile_id]
    if paid is not None:
        for kind, n in paid.items():
            supply.take(t.resources, kind, n)
            supply.add(state.supply, kind, n)
        cost = spec(tile_id).upgrade or {}
        for k in SKILLS:
            if cost.get(k):
                supply.take(state.players[seat].skills, k, cost[k])
                supply.add(state.skill_pile, k, cost[k])
    t.upgraded = True
    state.log.append(m("log.upgrades", seat=seat_name(seat), tile=tile_name(tile_id)))


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
    state.log.append(
        m(
            "log.moves",
            seat=seat_name(seat),
            what=amount(1, resource),
            source=tile_name(source),
            dest=tile_name(dest),
        )
    )
