"""A player's turn as a short sequence of decisions: die (and workers), action, tile or hex.

Each step has a pair of functions: `choices_<step>` lists the legal option ids with what they
mean, and `do_<step>` carries one out. Decisions and moves use the same lists, so whatever a
menu offers is legal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeple_hall.games.burgundy import effects
from meeple_hall.games.burgundy.effects import say
from meeple_hall.games.burgundy.flow import advance, end_turn
from meeple_hall.games.burgundy.rules import (
    Play,
    board_tiles,
    buyable,
    can_buy,
    free_dice,
    knows,
    open_hexes,
    placements,
    plays,
    signed_step,
    table,
    tile,
)
from meeple_hall.games.burgundy.state import CASTLE_DIE, BurgundyState, Frame
from meeple_hall.games.burgundy.words import (
    count,
    goods,
    goods_stacks,
    hex_name,
    m,
    seat_name,
    tile_name,
    type_name,
)
from meeple_hall.games.core import Decision, Msg, Option

Choices = dict[str, tuple[Msg, Any]]  # option id -> (label, meaning)


def _unique(pairs: list[tuple[str, Msg, Any]]) -> Choices:
    out: Choices = {}
    for oid, label, meaning in pairs:
        out.setdefault(oid, (label, meaning))
    return out


def _die_label(rolled: int, value: int, cost: int) -> Msg:
    if rolled == value:
        return m("label.die", die=rolled)
    paying = count("workers", cost) if cost else m("label.free_step")
    return m("label.die_as", die=rolled, value=value, paying=paying)


# -- die ----------------------------------------------------------------------------------------
def choices_die(state: BurgundyState, seat: int) -> Choices:
    player = state.players[seat]
    castle = bool(state.stack) and state.stack[-1].kind == "castle"
    pairs: list[tuple[str, Msg, Any]] = []
    if castle:
        pairs += [(f"c{v}", m("label.castle_die", value=v), (CASTLE_DIE, v)) for v in range(1, 7)]
    targets = placements(player)
    for slot in [] if castle else free_dice(player):
        rolled = player.dice[slot]
        for value in range(1, 7):
            found = plays(state, seat, slot, value, targets)
            useful = [p.cost for p in found if p.action != "workers"]
            if value != rolled and not useful:
                continue
            step = signed_step(rolled, value)
            oid = str(rolled) if step == 0 else f"{rolled}{step:+d}"
            pairs.append((oid, _die_label(rolled, value, min(useful, default=0)), (slot, value)))
    if can_buy(state, seat):
        key = "label.buy_any" if knows(player, 6) else "label.buy"
        pairs.append(("buy", m(key), None))
    if not castle and not free_dice(player):
        pairs.append(("end", m("label.end"), None))
    return _unique(pairs)


def do_die(state: BurgundyState, seat: int, meaning: Any, oid: str) -> None:
    if oid == "buy":
        state.stack.append(Frame("buy"))
    elif oid == "end":
        end_turn(state)
    else:
        slot, value = meaning
        if slot == CASTLE_DIE:
            state.stack.pop()
        state.stack.append(Frame("action", slot=slot, value=value))


# -- action -------------------------------------------------------------------------------------
def _sale(state: BurgundyState, seat: int, kind: int) -> Msg:
    """What selling one kind brings: tiles, points, silverlings (and workers)."""
    points, silver, workers = effects.sale(state, seat, kind)
    gains = [count("points", points), count("silverlings", silver)]
    if workers:
        gains.append(count("workers", workers))
    tiles = count("tiles", state.players[seat].goods[kind])
    return m("label.sell", goods=goods(kind), tiles=tiles, gains=gains)


def _into_storage(state: BurgundyState, seat: int, label: Msg) -> Msg:
    """A label for taking a tile into storage, warning when that costs a stored tile: "If you
    don't have an empty slot, you must first create space by discarding a hex tile"."""
    if len(state.players[seat].storage) < table()["players"]["storage_spaces"]:
        return label
    return m("label.storage_full", label=label)


def _action_label(state: BurgundyState, seat: int, play: Play, value: int, said: int) -> Msg:
    """An action's label; a take or sale whose worker cost is not the one the die's label
    said (knowledge tiles 9-12 make some uses of a turned die cheaper than others) says its
    own, as a placement always does."""
    action = play.action
    if action == "place":
        return m("label.place", value=value)
    if action == "workers":
        workers, silver = effects.workers_taken(state, seat)
        gains = [count("workers", workers)] + ([count("silverlings", silver)] if silver else [])
        return m("label.workers", gains=gains)
    label = m("label.take", depot=value) if action == "take" else _sale(state, seat, value)
    if play.cost != said:
        label = m("label.paying", label=label, workers=count("workers", play.cost))
    return _into_storage(state, seat, label) if action == "take" else label


def choices_action(state: BurgundyState, seat: int) -> Choices:
    frame = state.stack[-1]
    found = plays(state, seat, frame.slot, frame.value)
    # what the die's label said it costs (`_die_label`: its cheapest use besides workers)
    said = min((p.cost for p in found if p.action != "workers"), default=0)
    return _unique(
        [(p.action, _action_label(state, seat, p, frame.value, said), p.action) for p in found]
    )


def _use_die(state: BurgundyState, seat: int, frame: Frame, play: Play) -> None:
    player = state.players[seat]
    player.workers -= play.cost
    if frame.slot != CASTLE_DIE:
        player.used[frame.slot] = True
    if play.cost:
        workers = count("workers", play.cost)
        say(state, m("log.pays", seat=seat_name(seat), workers=workers, value=frame.value))


def do_action(state: BurgundyState, seat: int, meaning: Any, oid: str) -> None:
    frame = state.stack.pop()
    if oid in ("take", "place"):
        state.stack.append(Frame(oid, slot=frame.slot, value=frame.value))
        return
    play = next(p for p in plays(state, seat, frame.slot, frame.value) if p.action == oid)
    _use_die(state, seat, frame, play)
    if oid == "sell":
        effects.sell(state, seat, frame.value)
    else:
        effects.take_workers(state, seat)


# -- take / place -------------------------------------------------------------------------------
def choices_take(state: BurgundyState, seat: int) -> Choices:
    frame = state.stack[-1]
    found = [p for p in plays(state, seat, frame.slot, frame.value) if p.action == "take"]
    return _unique([(tile(p.tile).face, tile_name(tile(p.tile).face), p) for p in found])


def do_take(state: BurgundyState, seat: int, play: Play, oid: str) -> None:
    frame = state.stack.pop()
    _use_die(state, seat, frame, play)
    effects.to_storage(state, seat, play.tile)


def _on(face: str, hex_id: int, cost: int) -> Msg:
    """A stored tile on a hex, and the workers it costs."""
    if cost:
        return m(
            "label.on_paying",
            tile=tile_name(face),
            hex=hex_name(hex_id),
            workers=count("workers", cost),
        )
    return m("label.on", tile=tile_name(face), hex=hex_name(hex_id))


def choices_place(state: BurgundyState, seat: int) -> Choices:
    frame = state.stack[-1]
    found = [p for p in plays(state, seat, frame.slot, frame.value) if p.action == "place"]
    return _unique(
        [
            (
                f"{tile(p.tile).face}@{p.hex}",
                _on(tile(p.tile).face, p.hex, p.cost),
                p,
            )
            for p in found
        ]
    )


def do_place(state: BurgundyState, seat: int, play: Play, oid: str) -> None:
    frame = state.stack.pop()
    _use_die(state, seat, frame, play)
    effects.place(state, seat, play.tile, play.hex)


# -- follow-ups ---------------------------------------------------------------------------------
def choices_discard(state: BurgundyState, seat: int) -> Choices:
    stored = state.players[seat].storage
    return _unique(
        [(tile(t).face, m("label.discard", tile=tile_name(tile(t).face)), t) for t in stored]
    )


def do_discard(state: BurgundyState, seat: int, old: int, oid: str) -> None:
    effects.discard(state, seat, state.stack.pop(), old)


def _next_depot(depot: int) -> int:
    """The depots stand in a ring: 6 is next to 1 (knowledge tile 5)."""
    return depot % 6 + 1


def _goods_on(state: BurgundyState, depots: list[int]) -> list[Msg]:
    return goods_stacks([g for d in depots for g in state.depot_goods[d - 1]])


def _ship_label(state: BurgundyState, seat: int, depots: list[int]) -> Msg:
    """The goods of the depots, and what the 3 kinds of goods storage leaves behind: "if a
    player is unable to place a goods tile on one of their storage spaces, that tile remains
    in the depot" (2019 rulebook, Ship)."""
    on_board = _goods_on(state, depots)
    if len(depots) == 1:
        label = m("label.ship", depot=depots[0], goods=on_board)
    else:
        label = m("label.ship_two", depot=depots[0], next=depots[1], goods=on_board)
    held = state.players[seat].goods
    new = sorted({g for d in depots for g in state.depot_goods[d - 1] if g not in held})
    room = _room(state, seat)
    if len(new) <= room:
        return label
    if room == 0:
        return m("label.ship_left", ship=label, left=[goods(g) for g in new])
    return m("label.ship_choose", ship=label, kinds=count("kinds", room))


def choices_ship(state: BurgundyState, seat: int) -> Choices:
    goods = state.depot_goods
    pairs = [(str(d), _ship_label(state, seat, [d]), [d]) for d in range(1, 7) if goods[d - 1]]
    if knows(state.players[seat], 5):
        for d in range(1, 7):
            n = _next_depot(d)
            if goods[d - 1] or goods[n - 1]:
                pairs.append((f"{d}+{n}", _ship_label(state, seat, [d, n]), [d, n]))
    if not all(goods):
        # "Choose any depot": one without goods is a choice too, and takes nothing.
        pairs.append(("none", m("label.ship_none"), []))
    return _unique(pairs)


def do_ship(state: BurgundyState, seat: int, depots: list[int], oid: str) -> None:
    state.stack.pop()
    effects.ship_goods(state, seat, depots)


def _room(state: BurgundyState, seat: int) -> int:
    return table()["goods"]["storage_kinds"] - len(state.players[seat].goods)


def choices_shipgoods(state: BurgundyState, seat: int) -> Choices:
    frame = state.stack[-1]
    on_board = [g for d in frame.depots for g in state.depot_goods[d - 1]]
    return _unique(
        [(str(g), m("label.goods", goods=goods(g), n=on_board.count(g)), g) for g in frame.goods]
    )


def do_shipgoods(state: BurgundyState, seat: int, kinds: list[int]) -> None:
    frame = state.stack.pop()
    held = list(state.players[seat].goods)
    effects.load_goods(state, seat, frame.depots, held + kinds)


def choices_warehouse(state: BurgundyState, seat: int) -> Choices:
    held = state.players[seat].goods
    pairs = [(str(g), _sale(state, seat, g), g) for g in sorted(held)]
    return _unique([*pairs, ("skip", m("label.sell_nothing"), None)])


def do_warehouse(state: BurgundyState, seat: int, kind: Any, oid: str) -> None:
    state.stack.pop()
    if kind is not None:
        effects.sell(state, seat, kind)


def choices_effect_take(state: BurgundyState, seat: int) -> Choices:
    found = board_tiles(state, state.stack[-1].types)
    pairs = [
        (
            f"{tile(t).face}/{d}",
            _into_storage(
                state, seat, m("label.from_depot", tile=tile_name(tile(t).face), depot=d)
            ),
            t,
        )
        for d, t in found
    ]
    return _unique([*pairs, ("skip", m("label.take_nothing"), None)])


def do_effect_take(state: BurgundyState, seat: int, tile_id: Any, oid: str) -> None:
    state.stack.pop()
    if tile_id is not None:
        effects.to_storage(state, seat, tile_id)


def choices_townhall(state: BurgundyState, seat: int) -> Choices:
    player = state.players[seat]
    pairs = [
        (f"{tile(t).face}@{h}", _on(tile(t).face, h, 0), (t, h))
        for t in player.storage
        for h in open_hexes(player, t)
    ]
    return _unique([*pairs, ("skip", m("label.place_nothing"), None)])


def do_townhall(state: BurgundyState, seat: int, target: Any, oid: str) -> None:
    state.stack.pop()
    if target is not None:
        effects.place(state, seat, *target)


def choices_buy(state: BurgundyState, seat: int) -> Choices:
    # With knowledge tile 6 the numbered depots sell too: then say which tiles are black.
    either = knows(state.players[seat], 6)
    pairs = []
    for d, t in buyable(state, seat):
        name = tile_name(tile(t).face)
        if d:
            label = m("label.from_depot", tile=name, depot=d)
        else:
            label = m("label.from_black", tile=name) if either else name
        label = _into_storage(state, seat, label)
        pairs.append((tile(t).face if d == 0 else f"{tile(t).face}/{d}", label, t))
    return _unique(pairs)


def do_buy(state: BurgundyState, seat: int, tile_id: int, oid: str) -> None:
    state.stack.pop()
    player = state.players[seat]
    player.silver -= table()["scoring"]["black_depot_price"]
    player.bought = True
    say(state, m("log.buys", seat=seat_name(seat)))
    effects.to_storage(state, seat, tile_id)


# -- the table of steps -------------------------------------------------------------------------
# step -> (its prompt's key in the catalogue, its options, what a choice does)
STEPS: dict[str, tuple[str, Callable[..., Choices], Callable[..., None]]] = {
    "die": ("prompt.die", choices_die, do_die),
    "castle": ("prompt.castle", choices_die, do_die),
    "action": ("prompt.action", choices_action, do_action),
    "take": ("prompt.take", choices_take, do_take),
    "place": ("prompt.place", choices_place, do_place),
    "discard": ("prompt.discard", choices_discard, do_discard),
    "ship": ("prompt.ship", choices_ship, do_ship),
    "warehouse": ("prompt.warehouse", choices_warehouse, do_warehouse),
    "effect_take": ("prompt.effect_take", choices_effect_take, do_effect_take),
    "townhall": ("prompt.townhall", choices_townhall, do_townhall),
    "buy": ("prompt.buy", choices_buy, do_buy),
}


def _prompt(state: BurgundyState, seat: int, kind: str) -> Msg:
    player = state.players[seat]
    if kind == "die":
        if not free_dice(player):
            return m("prompt.dice_used")
        key = "prompt.die_two" if knows(player, 8) else "prompt.die"
        return m(key, workers=count("workers", player.workers))
    frame = state.stack[-1]
    if kind == "discard":
        return m("prompt.discard", tile=tile_name(tile(frame.tile).face))
    if kind == "effect_take":
        types = [type_name(t) for t in frame.types]
        return m("prompt.effect_take", building=tile_name(frame.source), types=types)
    if kind in ("action", "take", "place"):
        return m(STEPS[kind][0], value=frame.value)
    return m(STEPS[kind][0])


def step_kind(state: BurgundyState) -> str:
    return state.stack[-1].kind if state.stack else "die"


def decision(state: BurgundyState) -> Decision:
    seat = state.active
    kind = step_kind(state)
    if kind == "shipgoods":
        choices = choices_shipgoods(state, seat)
        room = _room(state, seat)
        return Decision(
            seat=seat,
            kind=kind,
            prompt=m("prompt.shipgoods", kinds=count("kinds", room)),
            options=tuple(Option(oid, label) for oid, (label, _) in choices.items()),
            min_choices=room,
            max_choices=room,
        )
    choices = STEPS[kind][1](state, seat)
    return Decision(
        seat=seat,
        kind=kind,
        prompt=_prompt(state, seat, kind),
        options=tuple(Option(oid, label) for oid, (label, _) in choices.items()),
    )


def perform(state: BurgundyState, seat: int, kind: str, picked: tuple[str, ...]) -> None:
    laps = [p.score // 100 for p in state.players]
    if kind == "shipgoods":
        choices = choices_shipgoods(state, seat)
        do_shipgoods(state, seat, [choices[oid][1] for oid in picked])
    else:
        _, choose, do = STEPS[kind]
        meaning = choose(state, seat)[picked[0]][1]
        do(state, seat, meaning, picked[0])
    for who, (lap, player) in enumerate(zip(laps, state.players, strict=True)):
        if player.score // 100 > lap:
            say(state, m("log.passes", seat=seat_name(who), points=player.score // 100 * 100))
    if not state.over:
        advance(state)
