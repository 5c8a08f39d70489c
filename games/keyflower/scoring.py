"""End scoring (rulebook, "Game end scoring" and the winter and boat tiles).

Resources on the barn, blacksmith, stone yard and timber yard score there. Every other
resource, skill tile and worker is assigned once to the scoring tile where it earns most;
gold not assigned scores 1; the start-player keyple counts as any one resource, skill or
worker. Workers, skills and resources form three separate pools, so each pool is solved on
its own, exactly: the chunky tiles (sets of 3 or 5) are enumerated and the rest assigned by
each item's best single value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from meeple_hall.games.core import Msg
from meeple_hall.games.keyflower.components import COLOURS, RESOURCES, SKILLS, spec
from meeple_hall.games.keyflower.placing import abilities
from meeple_hall.games.keyflower.state import KeyflowerState
from meeple_hall.games.keyflower.village import longest_loop, neighbours, river_boats, road_graph
from meeple_hall.games.keyflower.words import amount, count, item, m, tile_name

Sinks = dict[str, dict[str, Any]]  # effect name -> effect entry of a tile the player owns


@dataclass
class Pool:
    points: int = 0
    parts: dict[str, int] = field(default_factory=dict)

    def add(self, key: str, n: int) -> None:
        if n:
            self.parts[key] = self.parts.get(key, 0) + n
            self.points += n


def _take_cheapest(left: dict[str, int], n: int, value: dict[str, int]) -> None:
    for kind in sorted(left, key=lambda k: (value[k], k)):
        use = min(n, left[kind])
        left[kind] -= use
        n -= use


def best_workers(counts: dict[str, int], sinks: Sinks) -> Pool:
    craft, apo = sinks.get("craftsman"), sinks.get("apothecary")
    market, hall, wind = sinks.get("key_market"), sinks.get("village_hall"), sinks.get("white_wind")
    best = Pool(-1)
    for k in range(min(counts.get(c, 0) for c in COLOURS[:3]) + 1 if craft else 1):
        rest = {c: counts.get(c, 0) - (k if c != "green" else 0) for c in COLOURS}
        for hall_colour in COLOURS if hall else (None,):
            sink: dict[str, tuple[int, str]] = {}
            for c in COLOURS:
                options = [(0, "")]
                if market and c == "green":
                    options.append((market["per"], "key_market"))
                if hall and c == hall_colour:
                    options.append((hall["per"], "village_hall"))
                if wind:
                    options.append((wind["per"], "white_wind"))
                sink[c] = max(options)
            value = {c: sink[c][0] for c in COLOURS}
            total = sum(rest.values())
            for a in range(0, total + 1, apo["set"]) if apo else (0,):
                left = dict(rest)
                _take_cheapest(left, a, value)
                pool = Pool()
                pool.add("craftsman", k * craft["per_set"] if craft else 0)
                pool.add("apothecary", a // apo["set"] * apo["per_set"] if apo else 0)
                for c in COLOURS:
                    pool.add(sink[c][1], sink[c][0] * left[c])
                if pool.points > best.points:
                    best = pool
    return best


def best_skills(counts: dict[str, int], sinks: Sinks) -> Pool:
    scribes, scholar, guild = sinks.get("scribes"), sinks.get("scholar"), sinks.get("key_guild")
    best = Pool(-1)
    for k in range(min(counts.get(s, 0) for s in SKILLS) + 1 if scribes else 1):
        rest = {s: counts.get(s, 0) - k for s in SKILLS}
        for kind in SKILLS if scholar else (None,):
            value = {s: scholar["per"] if scholar and s == kind else 0 for s in SKILLS}
            for a in range(0, sum(rest.values()) + 1, guild["set"]) if guild else (0,):
                left = dict(rest)
                _take_cheapest(left, a, value)
                pool = Pool()
                pool.add("scribes", k * scribes["per_set"] if scribes else 0)
                pool.add("key_guild", a // guild["set"] * guild["per_set"] if guild else 0)
                pool.add("scholar", sum(value[s] * left[s] for s in SKILLS))
                if pool.points > best.points:
                    best = pool
    return best


def best_resources(counts: dict[str, int], sinks: Sinks, any_for_any: bool) -> Pool:
    """Gold stands in for any resource; with boat 3b every resource stands in for any."""
    jeweller, mercer = sinks.get("jeweller"), sinks.get("mercer")
    mill, windmill = sinks.get("watermill"), sinks.get("windmill")
    gold_value = jeweller["per"] if jeweller else 1
    plain = [r for r in RESOURCES if r != "gold"]
    best = Pool(-1)
    total = sum(counts.get(r, 0) for r in RESOURCES)
    for kind in (plain[:1] if any_for_any else plain) if mill else (None,):
        value = {r: mill["per"] if mill and (r == kind or any_for_any) else 0 for r in plain}
        value["gold"] = gold_value
        for k in range(total // 3 + 1 if mercer else 1):
            left = {r: counts.get(r, 0) for r in RESOURCES}
            if any_for_any:
                _take_cheapest(left, 3 * k, value)
            else:
                for r in plain:
                    use = min(k, left[r])
                    left[r] -= use
                    left["gold"] -= k - use
                if left["gold"] < 0:
                    break
            for j in range(sum(left.values()) // 5 + 1 if windmill else 1):
                rest = dict(left)
                _take_cheapest(rest, 5 * j, value)
                pool = Pool()
                pool.add("mercer", k * mercer["per_set"] if mercer else 0)
                pool.add("windmill", j * windmill["per_set"] if windmill else 0)
                pool.add("jeweller" if jeweller else "gold", gold_value * rest["gold"])
                pool.add("watermill", sum(value[r] * rest[r] for r in plain))
                if pool.points > best.points:
                    best = pool
    return best


# A seat's points by category, in the order the final scores list them.
CATEGORIES = ("tiles", "adjacency", "storage", "winter", "boats", "gold")
CATEGORY = {
    "craftsman": "winter",
    "apothecary": "winter",
    "key_market": "winter",
    "village_hall": "winter",
    "scribes": "winter",
    "key_guild": "winter",
    "scholar": "winter",
    "mercer": "winter",
    "windmill": "winter",
    "jeweller": "winter",
    "watermill": "winter",
    "white_wind": "boats",
    "gold": "gold",
}


@dataclass
class Scoresheet:
    """A seat's points by category, and the lines that earn them."""

    breakdown: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CATEGORIES, 0))
    lines: list[Msg] = field(default_factory=list)

    def add(self, category: str, n: int, line: Msg) -> None:
        if n:
            self.breakdown[category] += n
            self.lines.append(m("line.points", what=line, n=n))


def score(state: KeyflowerState, seat: int) -> tuple[dict[str, int], list[Msg]]:
    """A seat's points by category and the assignment that earns them, line by line."""
    p = state.players[seat]
    own = abilities(state, seat)
    sheet = Scoresheet()
    sinks: Sinks = {}
    stores: list[tuple[str, dict[str, Any]]] = []
    free: dict[str, int] = {r: 0 for r in RESOURCES}
    placed = [t for t in p.village if state.tiles[t].placed]
    for tid in placed:
        e = _scoring_side(state, tid)
        kind = e.get("effect", "")
        if not _score_tile(state, seat, tid, e, sheet) and kind in CATEGORY:
            sinks[kind] = e
        if kind == "store":
            stores.append((tid, e))
        else:
            for r, n in state.tiles[tid].resources.items():
                free[r] += n
    any_for_any = "3b" in own
    for tid, e in stores:
        for r, n in state.tiles[tid].resources.items():
            if any_for_any or e["kind"] in ("any", r) or r == "gold":
                line = m("line.stored", tile=tile_name(tid), what=amount(n, r))
                sheet.add("storage", n * e["per"], line)
            else:
                free[r] += n
    # The keyple counts for the player who won the start tile in winter (nobody, if no bid).
    keyple = state.start_won and seat == state.start
    pools = _best_with_keyple(
        dict(p.screen), dict(p.skills), free, sinks, any_for_any, stores, keyple
    )
    for pool, label in pools:
        for key, n in pool.parts.items():
            found = next((t for t in placed if _effect_name(state, t) == key), None)
            name = tile_name(found) if found else m(f"sink.{key}")
            sheet.add(CATEGORY.get(key, "storage"), n, m("line.pool", tile=name, pool=label))
    return sheet.breakdown, sheet.lines


def _scoring_side(state: KeyflowerState, tile_id: str) -> dict[str, Any]:
    """The side of a tile that scores (a summer boat's only ability counts for nothing)."""
    s = spec(tile_id)
    return {"effect": "ability"} if s.is_summer_boat else s.side(state.tiles[tile_id].upgraded)


def _score_tile(
    state: KeyflowerState, seat: int, tile_id: str, e: dict[str, Any], sheet: Scoresheet
) -> bool:
    """A tile's own points, and those it scores by its own rule (neighbours, capacity, road
    loop, river boats); False when what it scores is assigned from the pools."""
    s, p, name = spec(tile_id), state.players[seat], tile_name(tile_id)
    kind = e.get("effect")
    category = "winter" if s.kind == "winter" else "boats" if s.kind == "boat" else "tiles"
    sheet.add(category, e.get("points", 0), name)
    if kind == "adjacent" or s.kind == "turn_order":
        near = len(neighbours(state, p, tile_id))
        line = m("line.next_to", tile=name, tiles=count("tile", near))
        sheet.add("adjacency", near * e.get("per", 1), line)
    elif kind == "adjacent_upgraded":
        ups = sum(1 for _, o in neighbours(state, p, tile_id) if state.tiles[o].upgraded)
        line = m("line.next_to", tile=name, tiles=count("upgraded_tile", ups))
        sheet.add("adjacency", ups * e["per"], line)
    elif kind == "keyflower":
        cap = _capacity(state, p.village)
        double = 2 if "2b" in abilities(state, seat) else 1
        sheet.add("boats", cap * e["per"] * double, m("line.capacity", tile=name, n=cap))
    elif kind == "sea_bastion":
        loop = longest_loop(road_graph(state, p))
        sheet.add("boats", loop * e["per"], m("line.loop", tile=name, tiles=count("tile", loop)))
    elif kind == "sea_breeze":
        boats = len(river_boats(state, p))
        line = m("line.river", tile=name, boats=count("boat", boats))
        sheet.add("boats", boats * e["per"], line)
    else:
        return False
    return True


def _capacity(state: KeyflowerState, village: list[str]) -> int:
    """The transport capacity of a village's placed tiles."""
    sides = (spec(t).side(state.tiles[t].upgraded) for t in village if state.tiles[t].placed)
    return sum(side["carry"] for side in sides if side.get("effect") == "transport")


def _effect_name(state: KeyflowerState, tile_id: str) -> str:
    s = spec(tile_id)
    return "" if s.is_summer_boat else s.side(state.tiles[tile_id].upgraded).get("effect", "")


def _best_with_keyple(
    workers: dict[str, int],
    skills: dict[str, int],
    free: dict[str, int],
    sinks: Sinks,
    any_for_any: bool,
    stores: list[tuple[str, dict[str, Any]]],
    keyple: bool,
) -> list[tuple[Pool, Msg]]:
    """Solve the three pools; the start keyple joins whichever pool it helps most."""

    def solve(w: dict[str, int], k: dict[str, int], r: dict[str, int]) -> list[tuple[Pool, Msg]]:
        return [
            (best_workers(w, sinks), m("pool.workers")),
            (best_skills(k, sinks), m("pool.skills")),
            (best_resources(r, sinks, any_for_any), m("pool.resources")),
        ]

    best = solve(workers, skills, free)
    if not keyple:
        return best
    base = top = sum(p.points for p, _ in best)
    declared: tuple[int, Msg] | None = None  # which pool the keyple joins, and as what
    trials = [
        *(
            (
                0,
                count("colour_worker", 1, colour=item(c)),
                solve({**workers, c: workers.get(c, 0) + 1}, skills, free),
            )
            for c in COLOURS
        ),
        *(
            (
                1,
                m("one_skill_tile", skill=item(s)),
                solve(workers, {**skills, s: skills.get(s, 0) + 1}, free),
            )
            for s in SKILLS
        ),
        *((2, amount(1, r), solve(workers, skills, {**free, r: free[r] + 1})) for r in RESOURCES),
    ]
    for index, what, trial in trials:
        if sum(p.points for p, _ in trial) > top:
            top, best, declared = sum(p.points for p, _ in trial), trial, (index, what)
    store_bonus = max((e["per"] for _, e in stores), default=0)
    if base + store_bonus > top:
        keep = solve(workers, skills, free)
        keep.append((Pool(store_bonus, {"keyple": store_bonus}), m("pool.keyple_stored")))
        return keep
    if declared is not None:
        index, what = declared
        pool, label = best[index]
        best[index] = (pool, m("pool.keyple_as", pool=label, what=what))
    return best
