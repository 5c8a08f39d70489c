"""What a tile gives when workers use it (rulebook, "Village tiles - detail").

Resources made in one's own village go on the producing tile, others on one's home tile;
workers, green workers and skill tiles go behind the screen.
"""

from __future__ import annotations

from meeple_hall.games.core import Msg
from meeple_hall.games.core.messages import Param
from meeple_hall.games.core.steps import Offer
from meeple_hall.games.keyflower import supply
from meeple_hall.games.keyflower.components import COLOURS, SKILLS
from meeple_hall.games.keyflower.offers import TurnStep, at_location, end_turn, offer
from meeple_hall.games.keyflower.placing import abilities, effect, owner
from meeple_hall.games.keyflower.state import KeyflowerState
from meeple_hall.games.keyflower.words import amount, amounts, count, item, m, seat_name, tile_name


def destination(state: KeyflowerState, seat: int, tile_id: str) -> str:
    return tile_id if owner(state, tile_id) == seat else state.players[seat].home


def gain_resources(
    state: KeyflowerState, seat: int, tile_id: str, give: dict[str, int]
) -> list[Msg] | Msg:
    got = supply.take_resources(state, give)
    supply.merge(state.tiles[destination(state, seat, tile_id)].resources, got)
    return amounts(got)


def _uses(state: KeyflowerState, seat: int, tile_id: str, key: str, **params: Param) -> None:
    """`P1 uses Miner: 2 iron`: a use and what it gave, in the log."""
    state.log.append(m(f"log.{key}", seat=seat_name(seat), tile=tile_name(tile_id), **params))


def produce(state: KeyflowerState, seat: int, tile_id: str) -> str:
    """Carry out a use that needs no further choice; return the follow-up stage or ""."""
    e = effect(state, tile_id)
    kind = e["effect"]
    p = state.players[seat]
    if kind == "resources":
        _uses(state, seat, tile_id, "uses", got=gain_resources(state, seat, tile_id, e["give"]))
    elif kind == "workers":
        got = supply.draw_workers(state, e["n"])
        supply.merge(p.screen, got)
        _uses(state, seat, tile_id, "uses_bag", workers=count("worker", sum(got.values())))
    elif kind == "skills":
        got = supply.draw_skills(state, e["n"])
        supply.merge(p.skills, got)
        _uses(state, seat, tile_id, "uses", got=count("skill_tile", sum(got.values())))
    elif kind == "craft":
        supply.take(p.skills, e["skill"])
        supply.add(state.skill_pile, e["skill"])
        made = gain_resources(state, seat, tile_id, e["give"])
        _uses(state, seat, tile_id, "uses_craft", paid=amount(1, e["skill"]), got=made)
    elif kind == "green":
        supply.take(p.screen, e["pay"])
        supply.to_bag(state, e["pay"], 1)
        green = supply.take_green(state, e["n"])
        supply.add(p.screen, "green", green)
        _uses(
            state,
            seat,
            tile_id,
            "uses_green",
            paid=count("colour_worker", 1, colour=item(e["pay"])),
            got=count("green_worker", green),
        )
    elif kind == "transport":
        factor = 2 if "2b" in abilities(state, seat) else 1
        state.move.carry = e["carry"] * factor
        state.move.upgrades = e["upgrades"] * factor
        _uses(state, seat, tile_id, "uses_transport")
        return "transport"
    elif kind == "choose":
        if any(state.supply.get(r, 0) for r in e["options"]):
            return "resource"
        _uses(state, seat, tile_id, "uses", got=m("nothing"))
    elif kind in ("brewer", "hiring"):
        return "skill"
    elif kind == "tavern":
        return "discard"
    return ""


def choose_resource(state: KeyflowerState, seat: int, tile_id: str, resource: str) -> None:
    got = gain_resources(state, seat, tile_id, {resource: 1})
    _uses(state, seat, tile_id, "uses", got=got)


def pay_skill(state: KeyflowerState, seat: int, tile_id: str, skill: str) -> None:
    """Brewer: a skill back to the pile, then workers. Hiring fair: a skill set aside,
    skills drawn, then the set-aside one mixed back in."""
    e = effect(state, tile_id)
    p = state.players[seat]
    supply.take(p.skills, skill)
    if e["effect"] == "brewer":
        supply.add(state.skill_pile, skill)
        got = supply.draw_workers(state, e["n"])
        supply.merge(p.screen, got)
        _uses(state, seat, tile_id, "uses_skill", got=count("worker", sum(got.values())))
    else:
        got = supply.draw_skills(state, e["n"])
        supply.merge(p.skills, got)
        supply.add(state.skill_pile, skill)
        _uses(state, seat, tile_id, "uses_skill", got=count("skill_tile", sum(got.values())))


def discard_worker(state: KeyflowerState, seat: int, tile_id: str, colour: str) -> None:
    """Tavern: the discarded worker goes to the bag only after the draw."""
    p = state.players[seat]
    supply.take(p.screen, colour)
    got = supply.draw_workers(state, effect(state, tile_id)["n"])
    supply.merge(p.screen, got)
    supply.to_bag(state, colour, 1)
    _uses(state, seat, tile_id, "uses_discard", got=count("worker", sum(got.values())))


# -- the choices a use asks for ---------------------------------------------------------------
class ChooseResource(TurnStep):
    """A tile giving one resource of several: which (Quarry, Woodcutter and the like)."""

    kind = "resource"

    def ask(self, state: KeyflowerState, seat: int) -> Offer:
        tile = state.move.tile
        options = effect(state, tile)["options"]
        return offer(
            m("prompt.resource", tile=tile_name(tile)),
            (at_location(state, r, item(r), item=r) for r in options if state.supply.get(r, 0)),
        )

    def choose(self, state: KeyflowerState, seat: int, choice: str) -> None:
        choose_resource(state, seat, state.move.tile, choice)
        end_turn(state)


class PaySkill(TurnStep):
    """Brewer and Hiring fair: which skill tile to give up."""

    kind = "skill"

    def ask(self, state: KeyflowerState, seat: int) -> Offer:
        skills = state.players[seat].skills
        return offer(
            m("prompt.skill", tile=tile_name(state.move.tile)),
            (at_location(state, s, item(s), item=s) for s in SKILLS if skills.get(s, 0)),
        )

    def choose(self, state: KeyflowerState, seat: int, choice: str) -> None:
        pay_skill(state, seat, state.move.tile, choice)
        end_turn(state)


class DiscardWorker(TurnStep):
    """Tavern: which worker to discard."""

    kind = "discard"

    def ask(self, state: KeyflowerState, seat: int) -> Offer:
        screen = state.players[seat].screen
        return offer(
            m("prompt.discard", tile=tile_name(state.move.tile)),
            (at_location(state, c, item(c), item=c) for c in COLOURS if screen.get(c, 0)),
        )

    def choose(self, state: KeyflowerState, seat: int, choice: str) -> None:
        discard_worker(state, seat, state.move.tile, choice)
        end_turn(state)


STEPS = (ChooseResource(), PaySkill(), DiscardWorker())
