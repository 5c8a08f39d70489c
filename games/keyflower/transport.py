"""Transport and upgrades (rulebook, "Transport and upgrading").

A use of a home or transport tile gives a capacity, spent one resource one step at a time
along roads in one's own village, and a number of upgrades. An upgrade is paid with
resources on the tile itself and skill tiles from behind the screen. Gold stands in for
any resource at any time (components key); with boat 3a any resource stands in for any.
Where the tile's resources can pay in more than one way, the player chooses which.
"""

from __future__ import annotations

from itertools import product

from meeple_hall.games.core import Option
from meeple_hall.games.core.steps import Offer
from meeple_hall.games.keyflower import supply
from meeple_hall.games.keyflower.components import RESOURCES, SKILLS, spec
from meeple_hall.games.keyflower.offers import (
    TurnStep,
    end_turn,
    offer,
    option,
    tile_option,
)
from meeple_hall.games.keyflower.placing import abilities
from meeple_hall.games.keyflower.state import KeyflowerState
from meeple_hall.games.keyflower.village import connected
from meeple_hall.games.keyflower.words import (
    amount,
    amounts,
    count,
    item,
    m,
    seat_name,
    tile_label,
    tile_name,
)

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


# -- the steps of a transport ----------------------------------------------------------------
def after_transport_step(state: KeyflowerState, seat: int) -> None:
    """Ask what to carry or upgrade next while there is something to do, else end the turn."""
    move = state.move
    can_move = move.carry and sources(state, seat)
    can_upgrade = move.upgrades and upgradable(state, seat)
    if can_move or can_upgrade:
        move.stage = "transport"
    else:
        end_turn(state)


def _upgrade_paid(state: KeyflowerState, seat: int, tile_id: str, paid: dict[str, int]) -> None:
    upgrade(state, seat, tile_id, paid)
    state.move.upgrades -= 1
    state.move.upgrading = ""
    after_transport_step(state, seat)


class Transport(TurnStep):
    """A home or transport tile used: move a resource, upgrade a tile, or stop."""

    kind = "transport"

    def ask(self, state: KeyflowerState, seat: int) -> Offer:
        move = state.move
        options = []
        # `tiles`: those a move may start from, or an upgrade go to (the lines folded after
        # the option name them), which the decision's picture rings
        if move.carry and (held := sources(state, seat)):
            options.append(option("move", m("label.move", n=move.carry), tiles=held))
        if move.upgrades and (ups := upgradable(state, seat)):
            upgrades = count("upgrade", move.upgrades)
            options.append(option("up", m("label.up", upgrades=upgrades), tiles=ups))
        options.append(option("done", m("label.done")))
        return offer(m("prompt.transport", tile=tile_name(move.tile)), options)

    def choose(self, state: KeyflowerState, seat: int, choice: str) -> None:
        if choice == "done":
            end_turn(state)
        else:
            state.move.stage = "from" if choice == "move" else "upgrade"


class CarryFrom(TurnStep):
    kind = "from"

    def ask(self, state: KeyflowerState, seat: int) -> Offer:
        holding = (
            tile_option(
                t, m("label.holding", tile=tile_label(t), what=amounts(state.tiles[t].resources))
            )
            for t in sources(state, seat)
        )
        return offer(m("prompt.from"), holding)

    def choose(self, state: KeyflowerState, seat: int, choice: str) -> None:
        state.move.source, state.move.stage = choice, "what"


class CarryWhat(TurnStep):
    kind = "what"

    def ask(self, state: KeyflowerState, seat: int) -> Offer:
        source = state.move.source
        # `source`: the tile the resource leaves, which the decision's picture rings
        return offer(
            m("prompt.what", tile=tile_name(source)),
            (
                Option(r, item(r), {"item": r, "source": source})  # `item_option`'s, and more
                for r in sorted(state.tiles[source].resources)
            ),
        )

    def choose(self, state: KeyflowerState, seat: int, choice: str) -> None:
        state.move.resource, state.move.stage = choice, "to"


class CarryTo(TurnStep):
    kind = "to"

    def ask(self, state: KeyflowerState, seat: int) -> Offer:
        move = state.move
        return offer(
            m("prompt.to", resource=item(move.resource), tile=tile_name(move.source)),
            (tile_option(t) for t in routes(state, seat, move.source)),
        )

    def choose(self, state: KeyflowerState, seat: int, choice: str) -> None:
        move = state.move
        carry(state, seat, move.source, move.resource, choice)
        move.carry -= 1
        after_transport_step(state, seat)


class Upgrade(TurnStep):
    kind = "upgrade"

    def ask(self, state: KeyflowerState, seat: int) -> Offer:
        tiles = (
            tile_option(
                t, m("label.upgrade_for", tile=tile_label(t), cost=amounts(spec(t).upgrade or {}))
            )
            for t in upgradable(state, seat)
        )
        return offer(m("prompt.upgrade"), tiles)

    def choose(self, state: KeyflowerState, seat: int, choice: str) -> None:
        plans = upgrade_plans(state, seat, choice)
        if len(plans) > 1:
            state.move.upgrading, state.move.stage = choice, "pay"
        else:
            _upgrade_paid(state, seat, choice, plans[0])


class Pay(TurnStep):
    """Which resources pay for an upgrade, where the tile's can pay in more than one way."""

    kind = "pay"

    def ask(self, state: KeyflowerState, seat: int) -> Offer:
        tile = state.move.upgrading
        plans = upgrade_plans(state, seat, tile)
        return offer(
            m("prompt.pay", tile=tile_name(tile)),
            (
                option(
                    payment_token(paid),
                    m("label.paying", paid=amounts(paid)) if paid else m("label.free"),
                    paid=paid,
                )
                for paid in plans
            ),
        )

    def choose(self, state: KeyflowerState, seat: int, choice: str) -> None:
        tile = state.move.upgrading
        paid = next(p for p in upgrade_plans(state, seat, tile) if payment_token(p) == choice)
        _upgrade_paid(state, seat, tile, paid)


STEPS = (Transport(), CarryFrom(), CarryWhat(), CarryTo(), Upgrade(), Pay())
