"""Karla, the solo automaton (BB "單人遊戲"): after each cube the player takes, she takes one
too; her cubes run round her board and flip fate tiles, and a quill kills her oldest member
into the chronicle space of the action the cube came from."""

from __future__ import annotations

from meeple_hall.games.core import Msg, Option, Rng
from meeple_hall.games.village import data, market
from meeple_hall.games.village import words as w
from meeple_hall.games.village.death import bury, resting
from meeple_hall.games.village.state import GRAVE, KARLA, REMOVED, Frame, Karla, VillageState
from meeple_hall.games.village.steps import Fields, VillageStep, option


def new(rng: Rng) -> Karla:
    spec = data.karla()
    numbers = data.rules()["family"]["numbers"]
    karla = Karla(
        beside=[n for n in numbers if n <= 2],
        waiting=[n for n in numbers if n >= 3],
        ring=[[] for _ in range(spec["ring"])],
    )
    karla.top, karla.top_up = fate_set(rng), [False] * spec["tiles_per_set"]
    karla.bottom, karla.bottom_up = fate_set(rng), [False] * spec["tiles_per_set"]
    return karla


def fate_set(rng: Rng) -> list[str]:
    spec = data.karla()
    quills = spec["quills_per_set"]
    return rng.shuffled(["quill"] * quills + ["blank"] * (spec["tiles_per_set"] - quills))


def clockwise(start: str) -> list[str]:
    """Action spaces clockwise from `start` on Karla's board, `start` first."""
    order = data.karla()["order"]
    i = order.index(start)
    return order[i:] + order[:i]


def after_turn(state: VillageState) -> None:
    """Karla takes her cube after every turn but the final turns: if the player ends the
    game, this cube is her own last turn. If the end came in her market day, she takes
    the very last turn after the player's final one."""
    state.karla_pending = False
    if not state.finals_set or state.market_ender == KARLA:
        take(state)


def take(state: VillageState) -> None:
    """Karla's cube after the player's take: same space and colour, else the next space
    clockwise with that colour, else the player picks a cube of the same (or next) space.
    With the die variant the colour is rolled instead, rerolling absent colours."""
    if not any(state.spaces.values()):
        return
    space, colour = state.last_take
    if state.karla_die:
        present = sorted({c for cubes in state.spaces.values() for c in cubes if c != "black"})
        colour = state.rng.choice(present) if len(present) > 1 else ""
    for s in clockwise(space):
        if colour and colour in state.spaces[s]:
            place(state, s, colour)
            return
    for s in clockwise(space):
        if state.spaces[s]:
            if len(set(state.spaces[s])) == 1:
                place(state, s, state.spaces[s][0])
            else:
                state.stack.append(Frame("karla", 0, space=s))
            return


class KarlasCube(VillageStep):
    """Karla's cube, of the colours left on one space, chosen by the player for her (with
    the die variant when the roll found no colour, else when hers is gone). Each option's
    fields: the cube's `colour` and the `space` it is taken from (a picture rings it)."""

    kind = "karla"
    answers_alone = True

    def prompt(self, state: VillageState, frame: Frame) -> Msg:
        if not state.karla_die and state.last_take:
            # BB solo: no cube of the colour taken anywhere, so the player picks hers there.
            taken = w.colour(state.last_take[1])
            return w.m("prompt.karla_none", colour=taken, space=w.space(frame.space))
        return w.m("prompt.karla")

    def choices(self, state: VillageState, frame: Frame) -> list[Option]:
        where = w.space(frame.space)
        return [
            option(
                f"take-{c}",
                w.m("label.karla", colour=w.colour(c), space=where),
                colour=c,
                space=frame.space,
            )
            for c in sorted(set(state.spaces[frame.space]))
        ]

    def act(self, state: VillageState, frame: Frame, chosen: Fields) -> None:
        place(state, frame.space, chosen["colour"])


def place(state: VillageState, space: str, colour: str) -> None:
    """Put Karla's cube on the next space of her board, flip a fate tile it passes, and
    carry out her market or church reaction."""
    karla = state.karla
    assert karla is not None
    state.spaces[space].remove(colour)
    spec = data.karla()
    first = karla.last < 0
    karla.last = (karla.last + 1) % spec["ring"]
    karla.ring[karla.last].append(colour)
    where = w.space(space)
    state.log.append(w.m("log.takes", seat=w.who(KARLA), colour=w.colour(colour), space=where))
    if not first:
        flip(state, karla.last, space)
    if space == "market":
        market.start(state, KARLA)
    elif space == "church" and karla.waiting:
        number = min(karla.waiting)
        karla.waiting.remove(number)
        state.black_bag.append(f"k:{number}")
        state.log.append(w.m("log.church", seat=w.who(KARLA), member=number))


def flip(state: VillageState, position: int, space: str) -> None:
    karla = state.karla
    assert karla is not None
    spec = data.karla()
    for tiles, up, where in (
        (karla.top, karla.top_up, spec["top_tiles"]),
        (karla.bottom, karla.bottom_up, spec["bottom_tiles"]),
    ):
        if position not in where:
            continue
        i = where.index(position)
        up[i] = True
        if tiles[i] == "quill":
            dies(state, space)
        if all(up):
            tiles[:] = fate_set(state.rng)
            up[:] = [False] * len(up)


def dies(state: VillageState, space: str) -> None:
    """Karla's oldest member dies: beside her board first, then those waiting on the
    church (3s, then 4s), then those on the church track from left to right."""
    karla = state.karla
    assert karla is not None
    if karla.beside:
        number = min(karla.beside)
        karla.beside.remove(number)
    elif karla.waiting:
        number = min(karla.waiting)
        karla.waiting.remove(number)
    elif karla.church:
        number = karla.church.pop(min(karla.church))
    else:
        return
    wanted = data.karla()["death_category"][space]
    where = REMOVED
    if wanted != "graves":
        where = bury(state, KARLA, wanted)
    elif "" in state.graves:
        state.graves[state.graves.index("")] = "k"
        where = GRAVE
        check_graves(state)
    karla.dead += 1
    rest = resting(where)
    state.log.append(w.m("log.karla_dies", member=number, space=w.space(space), rest=rest))


def check_graves(state: VillageState) -> None:
    if not state.ending and "" not in state.graves:
        state.ending = True
        state.ender = KARLA
        state.log.append(w.m("log.graves_full"))


def new_round(state: VillageState) -> None:
    """Every cube on Karla's board but the last goes back to the supply."""
    karla = state.karla
    assert karla is not None
    for i, cubes in enumerate(karla.ring):
        if i != karla.last:
            for colour in cubes:
                state.supply[colour] += 1
            cubes.clear()
