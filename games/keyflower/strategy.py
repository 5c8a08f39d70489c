"""The `good` AI level for Keyflower: a quick heuristic player.

A turn is several small decisions (action, tile, colour, outbid groups, count, then what a
use produces). At each of them the player lists the whole plans still open (bid on a tile
or use it, with which colour and how many workers) and values each in points: what owning
or using the tile brings for the rest of the game, less the workers it costs. Every step
picks the plan that rates best among those matching what is already chosen, so the steps
follow one plan, and it passes only when no plan is worth its workers.

Rules cited: the rulebook in shared/rules/en/keyflower.en.md by section; the tile numbers
come from data/keyflower.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from meeple_hall.games.core import Decision
from meeple_hall.games.keyflower import placing, transport
from meeple_hall.games.keyflower.components import SEASONS, SKILLS, spec
from meeple_hall.games.keyflower.scoring import best_resources, best_skills, best_workers, score
from meeple_hall.games.keyflower.state import KeyflowerState, Player
from meeple_hall.games.keyflower.village import DIRS, edges_at, grid, placements

PASS_BELOW = 0.3  # a plan must be worth this much more than its workers, or the seat passes


@dataclass(frozen=True)
class Plan:
    action: str  # bid or use
    tile: str
    colour: str
    workers: int
    worth: float


class Values:
    """What one more worker, skill tile or resource is worth to the seat now, in points."""

    def __init__(self, state: KeyflowerState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.player = state.players[seat]
        self.season = state.season
        self.winter = SEASONS[state.season] == "winter"
        # Seasons in which a tile won now can still be used: a spring tile works in summer,
        # autumn and winter (rulebook, "Production": own tiles, others' and the new ones).
        self.uses_left = 3 - state.season
        self.sinks = self._sinks()
        self.needs = self._needs()
        # Workers are the currency of bids and uses. In winter they only count for the winter
        # tiles that score them (rulebook, "Winter tiles").
        if self.winter:
            self.worker = 0.15 + self._sink_worker()
        else:
            self.worker = (1.7, 1.5, 1.2)[state.season]

    def _sinks(self) -> dict[str, dict]:
        """Scoring effects of winter tiles the seat owns, is winning, or holds in hand."""
        out: dict[str, dict] = {}
        p = self.player
        mine = [t for t in p.village if spec(t).kind == "winter"]
        winning = [
            t
            for t in self.state.offer
            if spec(t).kind == "winter" and placing.winner(self.state.tiles[t]) == self.seat
        ]
        for t in [*mine, *winning, *p.winter_hand]:
            e = spec(t).front
            out.setdefault(e["effect"], e)
        return out

    def _sink_worker(self) -> float:
        s = self.sinks
        v = 0.0
        if "apothecary" in s:
            v = max(v, 0.6)
        if "craftsman" in s:
            v = max(v, 1.0)
        if "village_hall" in s:
            v = max(v, 0.5)
        return v

    def _needs(self) -> dict[str, int]:
        """Resources and skill tiles the seat's own tiles ask for to be upgraded (rulebook,
        "Transport and upgrading": upgraded tiles score and produce more)."""
        out: dict[str, int] = {}
        for t in self.player.village:
            s = spec(t)
            if (
                s.kind in transport.UPGRADABLE
                and s.back is not None
                and not s.is_summer_boat
                and not self.state.tiles[t].upgraded
            ):
                for k, n in (s.upgrade or {}).items():
                    out[k] = out.get(k, 0) + n
        return out

    def resource(self, r: str) -> float:
        if self.winter:
            v = 1.0 if r == "gold" else 0.1
            if "windmill" in self.sinks or "mercer" in self.sinks:
                v = max(v, 1.1)
            if "watermill" in self.sinks and r != "gold":
                v = max(v, 0.9)
            if "jeweller" in self.sinks and r == "gold":
                v = 2.0
            return v
        # Gold scores 1 at the end and stands in for any resource in an upgrade (key).
        if r == "gold":
            return 1.4
        need = self.needs.get(r, 0) + self.needs.get("any", 0)
        held = sum(self.state.tiles[t].resources.get(r, 0) for t in self.player.village)
        return 1.3 if need > held else 0.5

    def skill(self, k: str) -> float:
        if self.winter:
            v = 0.1
            if "key_guild" in self.sinks:
                v = 2.0
            if "scribes" in self.sinks:
                v = max(v, 2.5)
            if "scholar" in self.sinks:
                v = max(v, 2.0)
            return v
        need = self.needs.get(k, 0)
        return 0.6 + (1.0 if need > self.player.skills.get(k, 0) else 0.0)

    def green(self) -> float:
        return self.worker + (2.0 if "key_market" in self.sinks else 0.1)


# -- what tiles are worth --------------------------------------------------------------------
def produce_value(state: KeyflowerState, seat: int, tile_id: str, v: Values) -> float:
    """One use of the tile (rulebook, "Village tiles - detail")."""
    e = placing.effect(state, tile_id)
    kind = e["effect"]
    p = state.players[seat]
    if kind == "resources":
        return sum(v.resource(r) * n for r, n in e["give"].items() if state.supply.get(r, 0))
    if kind == "choose":
        return max((v.resource(r) for r in e["options"] if state.supply.get(r, 0)), default=0.0)
    if kind == "workers":
        return min(e["n"], sum(state.bag.values())) * v.worker
    if kind == "skills":
        return e["n"] * max(v.skill(k) for k in SKILLS)
    if kind == "craft":
        gain = sum(v.resource(r) * n for r, n in e["give"].items())
        return gain - v.skill(e["skill"])
    if kind == "green":
        return min(e["n"], state.green) * v.green() - v.worker
    if kind == "brewer":
        return e["n"] * v.worker - _cheapest_skill(p, v)
    if kind == "hiring":
        return e["n"] * max(v.skill(k) for k in SKILLS) - _cheapest_skill(p, v)
    if kind == "tavern":
        return (e["n"] - 1) * v.worker
    if kind == "transport":
        return transport_value(state, seat, e["carry"], e["upgrades"], v)
    return 0.0


def _cheapest_skill(p: Player, v: Values) -> float:
    return min((v.skill(k) for k in SKILLS if p.skills.get(k, 0)), default=0.0)


def upgrade_gain(state: KeyflowerState, seat: int, tile_id: str, v: Values) -> float:
    """Points an upgrade adds (the back side's points and better production), less the
    skill tiles it uses up (rulebook, "Transport and upgrading")."""
    s = spec(tile_id)
    front, back = s.front, s.back or {}
    gain = float(back.get("points", 0) - front.get("points", 0))
    if front.get("effect") in ("adjacent", "adjacent_upgraded"):
        gain += (back.get("per", 0) - front.get("per", 0)) * 2.5
    if front.get("effect") == "store":
        gain += 2.0
    if not v.winter and v.uses_left > 0:
        gain += 0.6 * v.uses_left * _production_step(front, back)
    cost = s.upgrade or {}
    return gain - sum(v.skill(k) * cost.get(k, 0) for k in SKILLS)


def _production_step(front: dict, back: dict) -> float:
    """How much more the back side makes in one use, roughly."""

    def amount(e: dict) -> float:
        if "give" in e:
            return sum(e["give"].values()) + 0.5 * e["give"].get("gold", 0)
        return float(e.get("n", 0) + e.get("carry", 0) / 2 + e.get("upgrades", 0))

    return amount(back) - amount(front)


def transport_value(state: KeyflowerState, seat: int, carry: int, ups: int, v: Values) -> float:
    """A use of a transport tile: the upgrades it makes now, and useful moves."""
    factor = 2 if "2b" in placing.abilities(state, seat) else 1
    gains = sorted(
        (
            upgrade_gain(state, seat, t, v) - _payment_loss(state, seat, t, v)
            for t in transport.upgradable(state, seat)
        ),
        reverse=True,
    )
    value = sum(g for g in gains[: ups * factor] if g > 0)
    if _useful_move(state, seat, v) is not None:
        value += 0.8 * min(carry * factor, 2)
    return value


def _payment_loss(state: KeyflowerState, seat: int, tile_id: str, v: Values) -> float:
    plans = transport.upgrade_plans(state, seat, tile_id)
    return min((sum(v.resource(r) * n for r, n in paid.items()) for paid in plans), default=0.0)


def _useful_move(state: KeyflowerState, seat: int, v: Values) -> tuple[str, str, str] | None:
    """A resource that, moved along a road, sits on a tile whose upgrade needs it (or, from
    autumn, on a store tile that scores it)."""
    late = state.season >= 2
    for src in transport.sources(state, seat):
        for r in sorted(state.tiles[src].resources):
            if _wants(state, src, r, late) and not _surplus(state, src, r):
                continue
            for dest in transport.routes(state, seat, src):
                if dest != src and _wants(state, dest, r, late) and not _surplus(state, dest, r):
                    return src, r, dest
    return None


def _wants(state: KeyflowerState, tile_id: str, r: str, late: bool) -> bool:
    s = spec(tile_id)
    t = state.tiles[tile_id]
    e = s.side(t.upgraded)
    if late and e.get("effect") == "store" and (e.get("kind") in ("any", r) or r == "gold"):
        return True
    if t.upgraded or s.back is None or s.is_summer_boat or s.kind not in transport.UPGRADABLE:
        return False
    cost = s.upgrade or {}
    return bool(cost.get(r, 0) or cost.get("any", 0) or (r == "gold" and cost))


def _surplus(state: KeyflowerState, tile_id: str, r: str) -> bool:
    """The tile already holds all of `r` its upgrade asks for."""
    s = spec(tile_id)
    t = state.tiles[tile_id]
    if spec(tile_id).side(t.upgraded).get("effect") == "store":
        return False
    cost = s.upgrade or {}
    want = cost.get(r, 0) + cost.get("any", 0)
    return t.resources.get(r, 0) >= want


def own_value(state: KeyflowerState, seat: int, tile_id: str, v: Values) -> float:
    """What winning this tile is worth to the seat over the rest of the game."""
    s = spec(tile_id)
    t = state.tiles[tile_id]
    # Workers already using the tile come with it (rulebook, "End of season" 3a).
    arriving = sum(g.count for g in t.workers) * v.worker
    if s.kind == "winter":
        return winter_value(state, seat, tile_id) + arriving
    if s.kind == "turn_order":
        # First pick of the boats' workers and skill tiles, and the start player (rulebook,
        # "Turn order tiles"); in winter the tile joins the village and scores 1 point per
        # tile next to it.
        v_tile = 1.5 if not v.winter else 2.5
        if tile_id == state.start_tile:
            v_tile += 0.7
        return v_tile
    if s.is_summer_boat:
        return 3.0 + arriving
    e = s.side(t.upgraded)
    value = float(e.get("points", 0)) + arriving
    kind = e.get("effect")
    if kind in ("adjacent",):
        value += 3.0 * e.get("per", 1)
    elif kind == "adjacent_upgraded":
        value += 2.0 * e.get("per", 1)
    elif kind == "store":
        value += 2.5 * e.get("per", 1)
    elif v.uses_left > 0:
        own = Values(state, seat)
        value += 0.9 * v.uses_left * max(0.0, produce_value(state, seat, tile_id, own))
    if s.back is not None and not t.upgraded and not s.is_summer_boat:
        value += 0.45 * max(0.0, upgrade_gain(state, seat, tile_id, v))
    return value


def winter_value(state: KeyflowerState, seat: int, tile_id: str) -> float:
    """Points the winter tile would add at the end, with what the seat holds now (rulebook,
    "Game end scoring": each item is assigned once, to the tile where it earns most)."""
    e = spec(tile_id).front
    if e["effect"] == "none":
        return float(e.get("points", 0))
    p = state.players[seat]
    sinks = {}
    for t in p.village:
        if spec(t).kind == "winter":
            sinks[spec(t).front["effect"]] = spec(t).front
    free: dict[str, int] = {}
    for t in p.village:
        if state.tiles[t].placed and spec(t).side(state.tiles[t].upgraded).get("effect") != "store":
            for r, n in state.tiles[t].resources.items():
                free[r] = free.get(r, 0) + n

    def total(s: dict) -> int:
        return (
            best_workers(p.screen, s).points
            + best_skills(p.skills, s).points
            + best_resources(free, s, False).points
        )

    before = total(sinks)
    after = total({**sinks, e["effect"]: e})
    # Items may still come in before the end: a little for what the tile could yet score.
    return after - before + (0.0 if SEASONS[state.season] == "winter" else 2.0)


# -- the value of a position ---------------------------------------------------------------
def evaluate(state: KeyflowerState, seat: int) -> float:
    """The seat's estimated final points, for searches that cut their playouts short
    (`meeple_hall.games.ai.evaluate`): what its village would score now (rulebook, "Game end
    scoring"), plus what this player expects of what it holds: its workers at their worth
    now, each tile's uses in the seasons left and its upgrade (at the shares `own_value`
    counts them), and resources waiting for an upgrade."""
    points = float(sum(score(state, seat)[0].values()))
    if state.phase == "over":
        return points
    v = Values(state, seat)
    p = state.players[seat]
    future = v.worker * sum(p.screen.values())
    for tile_id in p.village:
        s = spec(tile_id)
        if (
            not state.tiles[tile_id].placed
            or s.kind in ("winter", "turn_order")
            or s.is_summer_boat
        ):
            continue
        if v.uses_left > 0:
            future += 0.9 * v.uses_left * max(0.0, produce_value(state, seat, tile_id, v))
        if s.back is not None and not state.tiles[tile_id].upgraded:
            future += 0.45 * max(0.0, upgrade_gain(state, seat, tile_id, v))
        for r, n in state.tiles[tile_id].resources.items():
            if r != "gold":
                future += 0.3 * n * v.resource(r)
    return points + future


def phase(state: KeyflowerState) -> int:
    """The season: at its end the bids are settled, the tiles won placed, the workers back
    and the boats emptied (rulebook, "End of season"), which `evaluate` can only guess at
    mid-season, so a search's cut-off playouts stop there."""
    return state.season


# -- plans -------------------------------------------------------------------------------------
def plans(state: KeyflowerState, seat: int, v: Values) -> list[Plan]:
    """Every bid and use open to the seat now, at the fewest workers each needs."""
    m = state.move
    out: list[Plan] = []
    groups = placing.losing_groups(state, seat)
    actions = [m.action] if m.action else ["bid", "use"]
    for action in actions:
        if action == "bid":
            candidates = [*state.offer, *state.turn_order]
        else:
            village = [t for p in state.players for t in p.village if state.tiles[t].placed]
            candidates = [*([] if v.winter else state.offer), *village]
        for tile_id in candidates:
            if m.tile and tile_id != m.tile:
                continue
            if action == "bid":
                if placing.winner(state.tiles[tile_id]) == seat:
                    continue  # already winning: adding workers gains nothing
                needs = placing.bid_needs(state, seat, tile_id, groups)
            else:
                needs = placing.use_needs(state, seat, tile_id, groups)
            if not needs:
                continue
            worth = (
                own_value(state, seat, tile_id, v)
                if action == "bid"
                else produce_value(state, seat, tile_id, v)
            )
            for colour, need in needs.items():
                if m.colour and colour != m.colour:
                    continue
                if need.screen + sum(need.groups.values()) < need.least:
                    continue
                cost = need.least * v.worker * _lost(state, seat, tile_id, action)
                # Keep the colour the seat has most of: fewer future bids are blocked.
                spare = need.screen + sum(need.groups.values()) - need.least
                out.append(Plan(action, tile_id, colour, need.least, worth - cost + 0.02 * spare))
    return out


def _lost(state: KeyflowerState, seat: int, tile_id: str, action: str) -> float:
    """The share of the workers the seat will not see again. A winning bid goes to the bag;
    workers used in one's own village come back at the season's end, those used elsewhere go
    to the tile's owner or winner (rulebook, "End of season" 3 and 4)."""
    if action == "bid":
        return 1.0
    if placing.owner(state, tile_id) == seat:
        return 0.1
    if tile_id in state.offer and placing.winner(state.tiles[tile_id]) == seat:
        return 0.4
    return 1.0


# -- the decisions -----------------------------------------------------------------------------
def choose(state: KeyflowerState, decision: Decision, rng: random.Random) -> tuple[str, ...]:
    """A legal answer to `decision`."""
    seat = decision.seat
    ids = [o.id for o in decision.options]
    v = Values(state, seat)
    kind = decision.kind
    if kind == "winter":
        return _winter(state, seat, decision)
    pick = _pick(state, seat, decision, v, rng)
    if pick not in ids:
        pick = next((i for i in ids if i not in ("back",)), ids[0])
    return (pick,)


def _pick(
    state: KeyflowerState, seat: int, decision: Decision, v: Values, rng: random.Random
) -> str:
    kind = decision.kind
    ids = [o.id for o in decision.options if o.id != "back"]  # never undo a step
    if kind in ("action", "location", "colour"):
        found = [p for p in plans(state, seat, v) if p.worth > PASS_BELOW or kind != "action"]
        if not found:
            return "pass" if "pass" in ids else ids[0]
        top = max(p.worth for p in found)
        best = sorted((p for p in found if p.worth >= top - 1e-9), key=lambda p: (p.tile, p.colour))
        plan = best[0] if len(best) == 1 else rng.choice(best)
        return {"action": plan.action, "location": plan.tile, "colour": plan.colour}[kind]
    if kind == "gather":
        return _gather(state, seat, decision)
    if kind in ("count", "mix"):
        return min(ids, key=int)
    if kind == "resource":
        return max(ids, key=lambda r: (v.resource(r), r))
    if kind == "skill":
        return min(ids, key=lambda k: (v.skill(k), -state.players[seat].skills.get(k, 0), k))
    if kind == "discard":
        return max(ids, key=lambda c: (state.players[seat].screen.get(c, 0), c))
    if kind == "transport":
        return _transport(state, seat, ids, v)
    if kind in ("from", "what", "to"):
        move = _useful_move(state, seat, v)
        if move is None:
            return ids[0]
        return dict(zip(("from", "what", "to"), move, strict=True))[kind]
    if kind in ("upgrade", "flip"):
        return max(
            ids,
            key=lambda t: (-1e9 if t == "none" else upgrade_gain(state, seat, t, v), t),
        )
    if kind == "pay":
        paid = {o.id: o.fields["paid"] for o in decision.options}
        return min(paid, key=lambda token: (_paid_loss(paid[token], v), token))
    if kind == "boat":
        return max(ids, key=lambda b: (_boat_value(state, seat, b, v), b))
    if kind in ("place_tile", "place_at", "place_rot"):
        return _placement(state, seat, decision)
    return ids[0]


def _gather(state: KeyflowerState, seat: int, decision: Decision) -> str:
    """Outbid workers come back at the season's end anyway (rulebook, "End of season" 1), so
    using them first saves the screen; bring a group if it does not overshoot the need."""
    m = state.move
    groups = placing.losing_groups(state, seat).get(m.colour, {})
    brought = sum(groups.get(g, 0) for g in m.groups)
    if m.action == "bid":
        least = placing.best_other(state.tiles[m.tile], seat) + 1
        mine = placing.bid_of(state.tiles[m.tile], seat)
        least -= mine.count if mine else 0
    else:
        t = state.tiles[m.tile]
        least = (t.uses[-1] if t.uses else 0) + 1
    ids = [o.id for o in decision.options if o.id != "back"]
    fitting = [g for g in ids if g != "next" and brought + groups.get(g, 0) <= max(least, 1)]
    if fitting and brought < least:
        return max(fitting, key=lambda g: (groups.get(g, 0), g))
    if "next" in ids:
        return "next"
    return min((g for g in ids), key=lambda g: (groups.get(g, 0), g))


def _transport(state: KeyflowerState, seat: int, ids: list[str], v: Values) -> str:
    if "up" in ids and any(
        upgrade_gain(state, seat, t, v) > 0 for t in transport.upgradable(state, seat)
    ):
        return "up"
    if "move" in ids and _useful_move(state, seat, v) is not None:
        return "move"
    return "done"


def _paid_loss(paid: dict[str, int], v: Values) -> float:
    """What the resources a payment gives up are worth."""
    return sum(n * v.resource(r) for r, n in paid.items())


def _boat_value(state: KeyflowerState, seat: int, boat: str, v: Values) -> float:
    if not v.winter:
        # Spring to autumn: the boat's workers and skill tiles (rulebook, "Turn order tiles").
        workers = sum(state.boat_workers[boat].values())
        skills = state.boat_skills[boat]
        return workers * v.worker + sum(v.skill(k) * n for k, n in skills.items())
    # Winter: the boat joins the village and scores (rulebook, "Boats").
    e = spec(boat).front
    p = state.players[seat]
    placed = [t for t in p.village if state.tiles[t].placed]
    if e["effect"] == "keyflower":
        cap = sum(
            spec(t).side(state.tiles[t].upgraded).get("carry", 0)
            for t in placed
            if not spec(t).is_summer_boat
        )
        return cap * e["per"] * (2 if "2b" in placing.abilities(state, seat) else 1)
    if e["effect"] == "flipper":
        return e["points"] + max(
            (
                upgrade_gain(state, seat, t, v)
                for t in placed
                if not state.tiles[t].upgraded
                and spec(t).back is not None
                and not spec(t).is_summer_boat
                and spec(t).kind in transport.UPGRADABLE
            ),
            default=0.0,
        )
    if e["effect"] == "white_wind":
        return float(sum(p.screen.values()))
    if e["effect"] == "sea_breeze":
        return 3.0 * e["per"] / 3
    if e["effect"] == "sea_bastion":
        return 2.0
    return float(e.get("points", 0))


def _placement(state: KeyflowerState, seat: int, decision: Decision) -> str:
    """Where a new tile goes: roads joined to the village (so resources can travel to the
    tiles that need them, rulebook "Transport and upgrading") and neighbours for the tiles
    that score them."""
    p = state.players[seat]
    ids = [o.id for o in decision.options if o.id != "back"]
    if decision.kind == "place_tile":
        return ids[0]
    tile_id = p.placing or p.to_place[0]
    cells = grid(state, p)
    spots = placements(state, p, tile_id, "2a" in placing.abilities(state, seat))
    if decision.kind == "place_at":
        return max(
            ids, key=lambda at: (max(_spot(state, p, cells, tile_id, at, r) for r in spots[at]), at)
        )
    at = p.placing_at
    return max(ids, key=lambda rid: (_spot(state, p, cells, tile_id, at, int(rid[1:])), rid))


def _spot(state: KeyflowerState, p: Player, cells: dict, tile_id: str, at: str, rot: int) -> float:
    q, r = (int(x) for x in at.split("_"))
    e = edges_at(tile_id, rot)
    score = 0.0
    for d, (dq, dr) in enumerate(DIRS):
        other = cells.get((q + dq, r + dr))
        if other is None:
            if e[d] == "R":
                score += 0.2  # an open road end: room to join later tiles
            continue
        score += 0.5
        other_edge = spec(other).edges[(((d + 3) % 6) - state.tiles[other].rot) % 6]
        if e[d] == "R" and other_edge == "R":
            score += 2.0
        if other == p.home and other_edge == "W":
            score -= 0.5  # keep the home's water side free for boats (rulebook, set-up note)
    return score


def _winter(state: KeyflowerState, seat: int, decision: Decision) -> tuple[str, ...]:
    """Winter tiles to put up for auction: those that score with what the seat holds
    (rulebook, "Start of season": each player selects one or more)."""
    ranked = sorted(
        ((winter_value(state, seat, o.id), o.id) for o in decision.options), reverse=True
    )
    chosen = [t for value, t in ranked if value >= 4.0] or [ranked[0][1]]
    return tuple(chosen[: decision.max_choices])


__all__ = ["choose"]
