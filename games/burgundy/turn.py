"""A player's turn (2019 rulebook p.4, "Course of play"): choose a die (and the workers that
turn it) or a castle's extra die, one of the four actions with it, then the tile or the hex;
once a turn, buy a tile from the black depot.

Each step says what it offers (the legal options, each with what it means to the rules and
its `fields` for presenters) and what a choice does; whatever a menu offers is legal. The
steps a placed tile or a full storage asks next are in follow_ups.py, and steps.py declares
them all.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache, lru_cache
from typing import Any

from meeple_hall.games.burgundy import effects
from meeple_hall.games.burgundy.effects import say
from meeple_hall.games.burgundy.flow import end_turn
from meeple_hall.games.burgundy.rules import (
    Placing,
    Play,
    Reach,
    buyable,
    can_buy,
    details,
    free_dice,
    free_step,
    freest_uses,
    knows,
    plays,
    reach,
    signed_step,
    table,
    tile,
    turning_cost,
)
from meeple_hall.games.burgundy.state import CASTLE_DIE, BurgundyState, Frame
from meeple_hall.games.burgundy.words import (
    count,
    goods,
    hex_name,
    m,
    qualified,
    seat_name,
    tile_name,
)
from meeple_hall.games.core import Msg, Option
from meeple_hall.games.core.steps import Chosen, Offer, Step

Choice = tuple[Option, Any]  # an option and what it means to the step's `perform`


def offer(prompt: Msg, choices: Iterable[Choice], *, pick: int = 1) -> Offer:
    """An offer of `pick` options from (option, meaning) pairs; a repeated id keeps its first
    (two tiles of one face in a depot are one choice)."""
    options: dict[str, Option] = {}
    meanings: dict[str, Any] = {}
    for option, meaning in choices:
        if option.id not in options:
            options[option.id] = option
            meanings[option.id] = meaning
    return Offer(prompt, tuple(options.values()), meanings, pick, pick)


class TurnStep(Step[BurgundyState, Frame]):
    """A step of the active seat's turn: every decision of the game is one."""

    def seat(self, state: BurgundyState, frame: Frame) -> int:
        return state.active


# -- labels shared by several steps -------------------------------------------------------------
def sale_label(state: BurgundyState, seat: int, kind: int) -> Msg:
    """What selling one kind brings: tiles, points, silverlings (and workers)."""
    points, silver, workers = effects.sale(state, seat, kind)
    return _sale_label(kind, state.players[seat].goods[kind], points, silver, workers)


@lru_cache(maxsize=1024)
def _sale_label(kind: int, tiles: int, points: int, silver: int, workers: int) -> Msg:
    gains = [count("points", points), count("silverlings", silver)]
    if workers:
        gains.append(count("workers", workers))
    return m("label.sell", goods=goods(kind), tiles=count("tiles", tiles), gains=gains)


def storage_full(state: BurgundyState, seat: int) -> bool:
    """Taking a tile would cost a stored one: "If you don't have an empty slot, you must first
    create space by discarding a hex tile"."""
    return len(state.players[seat].storage) >= table()["players"]["storage_spaces"]


@cache
def on_hex(face: str, hex_id: int, cost: int) -> Msg:
    """A stored tile on a hex, and the workers it costs."""
    if cost:
        workers = count("workers", cost)
        return m("label.on_paying", tile=tile_name(face), hex=hex_name(hex_id), workers=workers)
    return m("label.on", tile=tile_name(face), hex=hex_name(hex_id))


def face(tile_id: int) -> str:
    return tile(tile_id).face


def tile_fields(tile_id: int, **where: int) -> dict[str, Any]:
    """An option's fields for a tile: its face, colour and what it is, and where it is
    (`depot=`, `hex=`)."""
    return {**_tile_fields(tile_id), **where}


@cache
def _tile_fields(tile_id: int) -> dict[str, Any]:
    """A tile's own fields, made once (`tile_fields` copies them)."""
    t = tile(tile_id)
    return {"tile": t.face, "type": t.type, **details(t)}


def skip(key: str) -> Choice:
    """Leave a follow-up unused ("may"): nothing taken, placed or sold."""
    return Option("skip", m(key), {"skip": True}), None


# -- the die ------------------------------------------------------------------------------------
@cache
def die_label(rolled: int, value: int, cost: int) -> Msg:
    if rolled == value:
        return m("label.die", die=rolled)
    paying = count("workers", cost) if cost else m("label.free_step")
    return m("label.die_as", die=rolled, value=value, paying=paying)


def die_choices(state: BurgundyState, seat: int) -> Iterator[Choice]:
    """Each free die as rolled, and turned to each value it has a use for (a die's label says
    its cheapest use besides taking workers); meaning (die slot, value)."""
    player = state.players[seat]
    reached = reach(player)
    # the cheapest use of a value costs what turning the die costs for its freest use
    freest = freest_uses(state, seat, reached)
    two_steps = 8 in reached.known
    for slot in free_dice(player):
        yield from _die_options(slot, player.dice[slot], freest, two_steps, player.workers)


@lru_cache(maxsize=4096)
def _die_options(
    slot: int, rolled: int, freest: tuple[bool | None, ...], two_steps: bool, workers: int
) -> tuple[Choice, ...]:
    """A die's options (`die_choices`), made once for what they depend on: the die, its
    values' `freest_uses`, knowledge tile 8 and the workers the player has."""
    known = frozenset({8}) if two_steps else frozenset()
    out: list[Choice] = []
    for value in range(1, 7):
        free = freest[value - 1]
        cost = None if free is None else turning_cost(rolled, value, free, known)
        if cost is not None and cost > workers:
            cost = None  # no use the player can afford
        if value != rolled and cost is None:
            continue
        step = signed_step(rolled, value)
        oid = str(rolled) if step == 0 else f"{rolled}{step:+d}"
        option = Option(oid, die_label(rolled, value, cost or 0), {"value": value})
        out.append((option, (slot, value)))
    return tuple(out)


def reaching(
    state: BurgundyState, seat: int, choices: Iterable[Choice], reached: Reach
) -> list[Choice]:
    """A die's options (or a castle's die's) with where the lines each leads to go, for its
    picture (renderers/phone/burgundy `marks`): `takes_from`, the depot whose tiles it may
    take (its value), and `hexes`, the estate's hexes a stored tile may be placed on with it;
    an option as it is where neither is. What `plays` finds for each, from parts kept for
    what they depend on (the AI asks for a die's options in every state it looks at)."""
    player, known = state.players[seat], reached.known
    take_free = free_step("take", "", known)
    out: list[Choice] = []
    for option, meaning in choices:
        slot, value = meaning
        rolled = None if slot == CASTLE_DIE else player.dice[slot]  # a castle's die is free
        takes = take_free if any(t >= 0 for t in state.depots[value - 1]) else None
        where = _where(rolled, value, player.workers, known, takes, reached.hexes.get(value, ()))
        out.append((_with_where(option, where) if where else option, meaning))
    return out


@lru_cache(maxsize=4096)
def _where(
    rolled: int | None,
    value: int,
    workers: int,
    known: frozenset[int],
    takes: bool | None,
    placing: Placing,
) -> tuple[tuple[str, Any], ...]:
    """A die's (`rolled`, None for a castle's) `reaching` fields as value `value`: `takes`, None
    where its depot is empty, else whether taking is a free step; `placing`, the `Reach`'s
    `hexes` for the value."""

    def affordable(free: bool) -> bool:
        return rolled is None or turning_cost(rolled, value, free, known) <= workers

    where: list[tuple[str, Any]] = []
    if takes is not None and affordable(takes):
        where.append(("takes_from", value))
    hexes = sorted({h for free, found in placing if affordable(free) for h in found})
    if hexes:
        where.append(("hexes", tuple(hexes)))
    return tuple(where)


@lru_cache(maxsize=4096)
def _with_where(option: Option, where: tuple[tuple[str, Any], ...]) -> Option:
    return Option(option.id, option.label, {**option.fields, **dict(where)})


def buy_choice(state: BurgundyState, seat: int) -> Iterator[Choice]:
    """Buying, with the tiles on sale (`buys`: [depot, face] each, the black depot 0) for the
    die's picture."""
    if can_buy(state, seat):
        option = _buy_option(knows(state.players[seat], 6))
        on_sale = buyable(state, seat)
        buys = [[d, face(t)] for d, t in on_sale]
        fields = {**option.fields, "buys": buys, "numbers": black_numbers(on_sale)}
        yield Option(option.id, option.label, fields), None


def black_numbers(on_sale: list[tuple[int, int]]) -> dict[str, int]:
    """The black depot's tiles on sale (`buyable`) numbered 1, 2, … in their order, by face:
    the buy's lines' keycaps (`mark`), written on the tiles in the buy's and the die's
    pictures (`numbers`)."""
    numbers: dict[str, int] = {}
    for d, t in on_sale:
        if d == 0:
            numbers.setdefault(face(t), len(numbers) + 1)
    return numbers


@cache
def _buy_option(from_any: bool) -> Option:
    """Buying (from any depot with knowledge tile 6), made once: an option never changes."""
    return Option("buy", m("label.buy_any" if from_any else "label.buy"), {"action": "buy"})


@cache
def _end_option() -> Option:
    return Option("end", m("label.end"), {"action": "end"})


def die_prompt(state: BurgundyState, seat: int) -> Msg:
    player = state.players[seat]
    if not free_dice(player):
        return m("prompt.dice_used")
    return _die_prompt(knows(player, 8), player.workers)


@lru_cache(maxsize=256)
def _die_prompt(two_steps: bool, workers: int) -> Msg:
    key = "prompt.die_two" if two_steps else "prompt.die"
    return m(key, workers=count("workers", workers))


def use_or_buy(state: BurgundyState, chosen: Chosen) -> None:
    """A die chosen (meaning its slot and value) asks for its action; `buy` for the tile."""
    if chosen.id == "buy":
        state.stack.append(Frame("buy"))
    else:
        slot, value = chosen.meaning
        state.stack.append(Frame("action", slot=slot, value=value))


class Die(TurnStep):
    """Choose a die to use (turned by workers), buy from the black depot, or end the turn once
    both dice are used. Asked whenever nothing else is pending in the active seat's turn."""

    kind = "die"

    def offer(self, state: BurgundyState, frame: Frame) -> Offer:
        seat = state.active
        dice = reaching(state, seat, die_choices(state, seat), reach(state.players[seat]))
        choices = [*dice, *buy_choice(state, seat)]
        if not free_dice(state.players[seat]):
            choices.append((_end_option(), None))
        return offer(die_prompt(state, seat), choices)

    def perform(self, state: BurgundyState, frame: Frame, chosen: Chosen) -> None:
        if chosen.id == "end":
            end_turn(state)
        else:
            use_or_buy(state, chosen)


class CastleDie(TurnStep):
    """A castle's extra action, as if with a die of any value (2019 rulebook p.6); buying
    first leaves it to ask again."""

    kind = "castle"

    def offer(self, state: BurgundyState, frame: Frame) -> Offer:
        seat = state.active
        values = reaching(
            state,
            seat,
            [(_castle_option(v), (CASTLE_DIE, v)) for v in range(1, 7)],
            reach(state.players[seat]),
        )
        return offer(m("prompt.castle"), [*values, *buy_choice(state, seat)])

    def perform(self, state: BurgundyState, frame: Frame, chosen: Chosen) -> None:
        if chosen.id == "buy":
            state.stack.append(frame)  # asked again once the tile is bought
        use_or_buy(state, chosen)


@cache
def _castle_option(value: int) -> Option:
    return Option(f"c{value}", m("label.castle_die", value=value), {"value": value})


# -- the action ---------------------------------------------------------------------------------
def action_option(
    state: BurgundyState, seat: int, play: Play, value: int, said: int, hexes: Iterable[int] = ()
) -> Option:
    """An action and its label; a take or sale whose worker cost is not the one the die's label
    said (knowledge tiles 9-12 make some uses of a turned die cheaper than others) says its
    own, as a placement always does; a placement names the hexes its tiles may go on (`hexes`,
    for the picture)."""
    action = play.action
    if action == "place":  # with the hexes its tiles may go on, for the picture
        return Option(action, _place_label(value), {"action": action, "hexes": list(hexes)})
    if action == "workers":
        label = _workers_label(*effects.workers_taken(state, seat))
        return Option(action, label, {"action": action})
    fields: dict[str, Any] = {"action": action}
    if play.cost != said:
        fields["workers"] = play.cost
    if action == "take":
        fields.update(depot=value, storage_full=storage_full(state, seat))
        label = _take_label(value)
    else:
        fields["goods"] = value
        label = sale_label(state, seat, value)
    paying, full = fields.get("workers"), fields.get("storage_full", False)
    return Option(action, qualified(label, workers=paying, storage_full=full), fields)


@cache
def _place_label(value: int) -> Msg:
    return m("label.place", value=value)


@cache
def _take_label(depot: int) -> Msg:
    return m("label.take", depot=depot)


@lru_cache(maxsize=64)
def _workers_label(workers: int, silver: int) -> Msg:
    gains = [count("workers", workers)] + ([count("silverlings", silver)] if silver else [])
    return m("label.workers", gains=gains)


def use_die(state: BurgundyState, seat: int, frame: Frame, play: Play) -> None:
    """Pay the workers that turned the die, and mark the die used."""
    player = state.players[seat]
    player.workers -= play.cost
    if frame.slot != CASTLE_DIE:
        player.used[frame.slot] = True
    if play.cost:
        say(state, _pays(seat, play.cost, frame.value))


@lru_cache(maxsize=256)
def _pays(seat: int, cost: int, value: int) -> Msg:
    return m("log.pays", seat=seat_name(seat), workers=count("workers", cost), value=value)


class Action(TurnStep):
    """One of the four actions with the die (2019 rulebook p.4): take a tile from the depot of
    its number, place a stored tile on a hex of its number, sell the goods of its number, or
    take workers; meaning the first `Play` of that action."""

    kind = "action"

    def offer(self, state: BurgundyState, frame: Frame) -> Offer:
        seat = state.active
        found = plays(state, seat, frame.slot, frame.value)
        # what the die's label said it costs (`die_label`: its cheapest use besides workers)
        said = min((p.cost for p in found if p.action != "workers"), default=0)
        first: dict[str, Play] = {}  # an action's option is its first play's (`offer`)
        for p in found:
            first.setdefault(p.action, p)
        hexes = sorted({p.hex for p in found if p.action == "place"})
        choices = [
            (action_option(state, seat, p, frame.value, said, hexes), p) for p in first.values()
        ]
        return offer(m("prompt.action", value=frame.value), choices)

    def perform(self, state: BurgundyState, frame: Frame, chosen: Chosen) -> None:
        play: Play = chosen.meaning
        if play.action in ("take", "place"):
            state.stack.append(Frame(play.action, slot=frame.slot, value=frame.value))
            return
        use_die(state, state.active, frame, play)
        if play.action == "sell":
            effects.sell(state, state.active, frame.value)
        else:
            effects.take_workers(state, state.active)


def take_id(play: Play) -> str:
    return face(play.tile)


def place_id(play: Play) -> str:
    return f"{face(play.tile)}@{play.hex}"


class Take(TurnStep):
    """Which tile of the die's depot goes to storage."""

    kind = "take"

    def offer(self, state: BurgundyState, frame: Frame) -> Offer:
        # no placements asked for: a take's plays do not depend on them
        found = plays(state, state.active, frame.slot, frame.value, targets={})
        choices = [
            (Option(take_id(p), tile_name(face(p.tile)), tile_fields(p.tile)), p)
            for p in found
            if p.action == "take"
        ]
        return offer(m("prompt.take", value=frame.value), choices)

    def perform(self, state: BurgundyState, frame: Frame, chosen: Chosen) -> None:
        use_die(state, state.active, frame, chosen.meaning)
        effects.to_storage(state, state.active, chosen.meaning.tile)


class Place(TurnStep):
    """Which stored tile goes on which hex of the die's number."""

    kind = "place"

    def offer(self, state: BurgundyState, frame: Frame) -> Offer:
        choices = [
            (
                Option(
                    place_id(p),
                    on_hex(face(p.tile), p.hex, p.cost),
                    tile_fields(p.tile, hex=p.hex),
                ),
                p,
            )
            for p in plays(state, state.active, frame.slot, frame.value)
            if p.action == "place"
        ]
        return offer(m("prompt.place", value=frame.value), choices)

    def perform(self, state: BurgundyState, frame: Frame, chosen: Chosen) -> None:
        play: Play = chosen.meaning
        use_die(state, state.active, frame, play)
        effects.place(state, state.active, play.tile, play.hex)


# -- buying -------------------------------------------------------------------------------------
class Buy(TurnStep):
    """A tile from the black depot for 2 silverlings, once a turn (2019 rulebook p.5); with
    knowledge tile 6 from the numbered depots too."""

    kind = "buy"

    def offer(self, state: BurgundyState, frame: Frame) -> Offer:
        seat = state.active
        # With knowledge tile 6 the numbered depots sell too: then say which tiles are black.
        either = knows(state.players[seat], 6)
        full = storage_full(state, seat)
        choices = []
        on_sale = buyable(state, seat)
        numbers = black_numbers(on_sale)  # a black depot tile's `mark`: its line's keycap
        for d, t in on_sale:
            name = tile_name(face(t))
            if d:
                label = m("label.from_depot", tile=name, depot=d)
            else:
                label = m("label.from_black", tile=name) if either else name
            oid = face(t) if d == 0 else f"{face(t)}/{d}"
            fields = tile_fields(t, depot=d)
            if d == 0:
                fields["mark"] = numbers[face(t)]
            choices.append((Option(oid, qualified(label, storage_full=full), fields), t))
        return offer(m("prompt.buy"), choices)

    def perform(self, state: BurgundyState, frame: Frame, chosen: Chosen) -> None:
        seat = state.active
        player = state.players[seat]
        player.silver -= table()["scoring"]["black_depot_price"]
        player.bought = True
        say(state, _buys(seat))
        effects.to_storage(state, seat, chosen.meaning)


@cache
def _buys(seat: int) -> Msg:
    return m("log.buys", seat=seat_name(seat))
