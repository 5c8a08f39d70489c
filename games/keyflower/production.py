"""What a tile gives when workers use it (rulebook, "Village tiles - detail").

Resources made in one's own village go on the producing tile, others on one's home tile;
workers, green workers and skill tiles go behind the screen.
"""

from __future__ import annotations

from meeple_hall.games.keyflower import supply
from meeple_hall.games.keyflower.components import spec
from meeple_hall.games.keyflower.placing import abilities, effect, owner
from meeple_hall.games.keyflower.state import KeyflowerState


def _a(noun: str) -> str:
    return f"an {noun}" if noun[0] in "aeiou" else f"a {noun}"


def destination(state: KeyflowerState, seat: int, tile_id: str) -> str:
    return tile_id if owner(state, tile_id) == seat else state.players[seat].home


def gain_resources(state: KeyflowerState, seat: int, tile_id: str, give: dict[str, int]) -> str:
    got = supply.take_resources(state, give)
    supply.merge(state.tiles[destination(state, seat, tile_id)].resources, got)
    return supply.describe(got)


def produce(state: KeyflowerState, seat: int, tile_id: str) -> str:
    """Carry out a use that needs no further choice; return the follow-up stage or ""."""
    e = effect(state, tile_id)
    kind = e["effect"]
    p = state.players[seat]
    name = spec(tile_id).name
    if kind == "resources":
        state.log.append(
            f"P{seat + 1} uses {name}: {gain_resources(state, seat, tile_id, e['give'])}"
        )
    elif kind == "workers":
        got = supply.draw_workers(state, e["n"])
        supply.merge(p.screen, got)
        state.log.append(
            f"P{seat + 1} uses {name}: {supply.count(sum(got.values()), 'worker')} from the bag"
        )
    elif kind == "skills":
        got = supply.draw_skills(state, e["n"])
        supply.merge(p.skills, got)
        state.log.append(
            f"P{seat + 1} uses {name}: {supply.count(sum(got.values()), 'skill tile')}"
        )
    elif kind == "craft":
        supply.take(p.skills, e["skill"])
        supply.add(state.skill_pile, e["skill"])
        got = gain_resources(state, seat, tile_id, e["give"])
        state.log.append(f"P{seat + 1} uses {name}: pays {_a(e['skill'])}, gets {got}")
    elif kind == "green":
        supply.take(p.screen, e["pay"])
        supply.to_bag(state, e["pay"], 1)
        got = supply.take_green(state, e["n"])
        supply.add(p.screen, "green", got)
        state.log.append(f"P{seat + 1} uses {name}: a {e['pay']} worker to the bag, {got} green")
    elif kind == "transport":
        factor = 2 if "2b" in abilities(state, seat) else 1
        state.move.carry = e["carry"] * factor
        state.move.upgrades = e["upgrades"] * factor
        state.log.append(f"P{seat + 1} uses {name} to transport and upgrade")
        return "transport"
    elif kind == "choose":
        if any(state.supply.get(r, 0) for r in e["options"]):
            return "resource"
        state.log.append(f"P{seat + 1} uses {name}: nothing")
    elif kind in ("brewer", "hiring"):
        return "skill"
    elif kind == "tavern":
        return "discard"
    return ""


def choose_resource(state: KeyflowerState, seat: int, tile_id: str, resource: str) -> None:
    got = gain_resources(state, seat, tile_id, {resource: 1})
    state.log.append(f"P{seat + 1} uses {spec(tile_id).name}: {got}")


def pay_skill(state: KeyflowerState, seat: int, tile_id: str, skill: str) -> None:
    """Brewer: a skill back to the pile, then workers. Hiring fair: a skill set aside,
    skills drawn, then the set-aside one mixed back in."""
    e = effect(state, tile_id)
    p = state.players[seat]
    supply.take(p.skills, skill)
    name = spec(tile_id).name
    if e["effect"] == "brewer":
        supply.add(state.skill_pile, skill)
        got = supply.draw_workers(state, e["n"])
        supply.merge(p.screen, got)
        workers = supply.count(sum(got.values()), "worker")
        state.log.append(f"P{seat + 1} uses {name}: pays a skill tile, {workers}")
    else:
        got = supply.draw_skills(state, e["n"])
        supply.merge(p.skills, got)
        supply.add(state.skill_pile, skill)
        skills = supply.count(sum(got.values()), "skill tile")
        state.log.append(f"P{seat + 1} uses {name}: pays a skill tile, {skills}")


def discard_worker(state: KeyflowerState, seat: int, tile_id: str, colour: str) -> None:
    """Tavern: the discarded worker goes to the bag only after the draw."""
    p = state.players[seat]
    supply.take(p.screen, colour)
    got = supply.draw_workers(state, effect(state, tile_id)["n"])
    supply.merge(p.screen, got)
    supply.to_bag(state, colour, 1)
    state.log.append(
        f"P{seat + 1} uses {spec(tile_id).name}: discards a worker, "
        f"{supply.count(sum(got.values()), 'worker')}"
    )
