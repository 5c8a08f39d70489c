"""A player's turn as a short sequence of decisions: die (and workers), action, tile or hex.

Each step has a pair of functions: `choices_<step>` lists the legal option ids with what they
mean, and `do_<step>` carries one out. Decisions and moves use the same lists, so whatever a
menu offers is legal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeple_hall.games.burgundy import effects
from meeple_hall.games.burgundy.effects import BUILDING_NAMES, face_name, plural, say, where
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
from meeple_hall.games.core import Decision, Option

Choices = dict[str, tuple[str, Any]]  # option id -> (label, meaning)


def _unique(pairs: list[tuple[str, str, Any]]) -> Choices:
    out: Choices = {}
    for oid, label, meaning in pairs:
        out.setdefault(oid, (label, meaning))
    return out


def _workers(n: int) -> str:
    return f"{n} worker{'s' if n != 1 else ''}"


def _die_label(rolled: int, value: int, cost: int) -> str:
    if rolled == value:
        return f"Die {rolled}"
    return f"Die {rolled} as {value} ({_workers(cost) if cost else 'free: knowledge tile'})"


# -- die ----------------------------------------------------------------------------------------
def choices_die(state: BurgundyState, seat: int) -> Choices:
    player = state.players[seat]
    castle = bool(state.stack) and state.stack[-1].kind == "castle"
    pairs: list[tuple[str, str, Any]] = []
    if castle:
        pairs += [(f"c{v}", f"Castle die as {v}", (CASTLE_DIE, v)) for v in range(1, 7)]
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
        where = "any depot (knowledge tile 6)" if knows(player, 6) else "the black depot"
        pairs.append(("buy", f"Buy a tile from {where} for 2 silverlings", None))
    if not castle and not free_dice(player):
        pairs.append(("end", "End your turn", None))
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
def _sale(state: BurgundyState, seat: int, kind: int) -> str:
    """What selling one kind brings, in words."""
    points, silver, workers = effects.sale(state, seat, kind)
    tiles = plural(state.players[seat].goods[kind], "tile")
    extra = f", {plural(workers, 'worker')}" if workers else ""
    return f"{tiles}: {points} points, {plural(silver, 'silverling')}{extra}"


def _action_label(state: BurgundyState, seat: int, action: str, value: int) -> str:
    if action == "take":
        return f"Take a tile from depot {value}"
    if action == "place":
        return f"Place a tile on a {value} hex"
    if action == "sell":
        return f"Sell goods {value} ({_sale(state, seat, value)})"
    workers, silver = effects.workers_taken(state, seat)
    return f"Take {workers} workers" + (f" and {plural(silver, 'silverling')}" if silver else "")


def choices_action(state: BurgundyState, seat: int) -> Choices:
    frame = state.stack[-1]
    found = plays(state, seat, frame.slot, frame.value)
    return _unique(
        [(p.action, _action_label(state, seat, p.action, frame.value), p.action) for p in found]
    )


def _use_die(state: BurgundyState, seat: int, frame: Frame, play: Play) -> None:
    player = state.players[seat]
    player.workers -= play.cost
    if frame.slot != CASTLE_DIE:
        player.used[frame.slot] = True
    if play.cost:
        say(
            state,
            f"{effects.name(seat)} pays {_workers(play.cost)} to use the die as a {frame.value}",
        )


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
    return _unique([(tile(p.tile).face, face_name(tile(p.tile).face), p) for p in found])


def do_take(state: BurgundyState, seat: int, play: Play, oid: str) -> None:
    frame = state.stack.pop()
    _use_die(state, seat, frame, play)
    effects.to_storage(state, seat, play.tile)


def choices_place(state: BurgundyState, seat: int) -> Choices:
    frame = state.stack[-1]
    found = [p for p in plays(state, seat, frame.slot, frame.value) if p.action == "place"]
    return _unique(
        [
            (
                f"{tile(p.tile).face}@{p.hex}",
                f"{face_name(tile(p.tile).face)} on {where(p.hex)}"
                + (f", paying {_workers(p.cost)}" if p.cost else ""),
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
    return _unique([(tile(t).face, f"Discard {face_name(tile(t).face)}", t) for t in stored])


def do_discard(state: BurgundyState, seat: int, old: int, oid: str) -> None:
    effects.discard(state, seat, state.stack.pop(), old)


def _next_depot(depot: int) -> int:
    """The depots stand in a ring: 6 is next to 1 (knowledge tile 5)."""
    return depot % 6 + 1


def _goods_on(state: BurgundyState, depots: list[int]) -> str:
    return ", ".join(str(g) for g in sorted(g for d in depots for g in state.depot_goods[d - 1]))


def choices_ship(state: BurgundyState, seat: int) -> Choices:
    goods = state.depot_goods
    pairs = [
        (str(d), f"Goods of depot {d}: {_goods_on(state, [d])}", [d])
        for d in range(1, 7)
        if goods[d - 1]
    ]
    if knows(state.players[seat], 5):
        for d in range(1, 7):
            n = _next_depot(d)
            if goods[d - 1] or goods[n - 1]:
                label = f"Goods of depots {d} and {n}: {_goods_on(state, [d, n])}"
                pairs.append((f"{d}+{n}", label, [d, n]))
    if not all(goods):
        # "Choose any depot": one without goods is a choice too, and takes nothing.
        pairs.append(("none", "A depot without goods: take nothing", []))
    return _unique(pairs)


def do_ship(state: BurgundyState, seat: int, depots: list[int], oid: str) -> None:
    state.stack.pop()
    effects.ship_goods(state, seat, depots)


def _room(state: BurgundyState, seat: int) -> int:
    return table()["goods"]["storage_kinds"] - len(state.players[seat].goods)


def choices_shipgoods(state: BurgundyState, seat: int) -> Choices:
    frame = state.stack[-1]
    on_board = [g for d in frame.depots for g in state.depot_goods[d - 1]]
    return _unique([(str(g), f"Goods {g} (×{on_board.count(g)})", g) for g in frame.goods])


def do_shipgoods(state: BurgundyState, seat: int, kinds: list[int]) -> None:
    frame = state.stack.pop()
    held = list(state.players[seat].goods)
    effects.load_goods(state, seat, frame.depots, held + kinds)


def choices_warehouse(state: BurgundyState, seat: int) -> Choices:
    goods = state.players[seat].goods
    pairs = [(str(g), f"Sell goods {g} ({_sale(state, seat, g)})", g) for g in sorted(goods)]
    return _unique([*pairs, ("skip", "Sell nothing", None)])


def do_warehouse(state: BurgundyState, seat: int, kind: Any, oid: str) -> None:
    state.stack.pop()
    if kind is not None:
        effects.sell(state, seat, kind)


def choices_effect_take(state: BurgundyState, seat: int) -> Choices:
    found = board_tiles(state, state.stack[-1].types)
    pairs = [
        (f"{tile(t).face}/{d}", f"{face_name(tile(t).face)} from depot {d}", t) for d, t in found
    ]
    return _unique([*pairs, ("skip", "Take nothing", None)])


def do_effect_take(state: BurgundyState, seat: int, tile_id: Any, oid: str) -> None:
    state.stack.pop()
    if tile_id is not None:
        effects.to_storage(state, seat, tile_id)


def choices_townhall(state: BurgundyState, seat: int) -> Choices:
    player = state.players[seat]
    pairs = [
        (f"{tile(t).face}@{h}", f"{face_name(tile(t).face)} on {where(h)}", (t, h))
        for t in player.storage
        for h in open_hexes(player, t)
    ]
    return _unique([*pairs, ("skip", "Place nothing", None)])


def do_townhall(state: BurgundyState, seat: int, target: Any, oid: str) -> None:
    state.stack.pop()
    if target is not None:
        effects.place(state, seat, *target)


def choices_buy(state: BurgundyState, seat: int) -> Choices:
    # With knowledge tile 6 the numbered depots sell too: then say which tiles are black.
    black = " from the black depot" if knows(state.players[seat], 6) else ""
    pairs = [
        (
            tile(t).face if d == 0 else f"{tile(t).face}/{d}",
            face_name(tile(t).face) + (f" from depot {d}" if d else black),
            t,
        )
        for d, t in buyable(state, seat)
    ]
    return _unique(pairs)


def do_buy(state: BurgundyState, seat: int, tile_id: int, oid: str) -> None:
    state.stack.pop()
    player = state.players[seat]
    player.silver -= table()["scoring"]["black_depot_price"]
    player.bought = True
    say(state, f"{effects.name(seat)} buys a tile for 2 silverlings")
    effects.to_storage(state, seat, tile_id)


# -- the table of steps -------------------------------------------------------------------------
STEPS: dict[str, tuple[str, Callable[..., Choices], Callable[..., None]]] = {
    "die": (
        "Choose a die (each worker turns it by 1, wrapping 6 and 1; you have {workers})",
        choices_die,
        do_die,
    ),
    "castle": ("Castle: an extra action with the die value of your choice", choices_die, do_die),
    "action": ("Die {v}: choose an action", choices_action, do_action),
    "take": ("Die {v}: take a tile from depot {v} into storage", choices_take, do_take),
    "place": (
        "Die {v}: place a stored tile on an empty {v} hex of its colour, next to your tiles",
        choices_place,
        do_place,
    ),
    "discard": (
        "Storage is full: discard a tile to make room for {tile}",
        choices_discard,
        do_discard,
    ),
    "ship": ("Ship: take all the goods of a depot", choices_ship, do_ship),
    "warehouse": (
        "Warehouse: sell one kind of goods, without a die",
        choices_warehouse,
        do_warehouse,
    ),
    "effect_take": (
        "{source}: take a {types} tile from a numbered depot into storage",
        choices_effect_take,
        do_effect_take,
    ),
    "townhall": (
        "Town hall: place another stored tile, without a die",
        choices_townhall,
        do_townhall,
    ),
    "buy": ("Buy a tile for 2 silverlings (once per turn)", choices_buy, do_buy),
}


def _prompt(state: BurgundyState, seat: int, kind: str) -> str:
    player = state.players[seat]
    if kind == "die" and not free_dice(player):
        return "Both dice are used: buy a tile or end your turn"
    prompt = STEPS[kind][0]
    if kind == "die" and knows(player, 8):
        prompt = prompt.replace("by 1,", "by 1 or 2,")
    frame = state.stack[-1] if state.stack else None
    if frame is None:
        return prompt.format(workers=player.workers)
    types = list(frame.types)
    return prompt.format(
        v=frame.value,
        tile=face_name(tile(frame.tile).face) if frame.tile >= 0 else "",
        source=BUILDING_NAMES.get(frame.source, ""),
        types=" or ".join(filter(None, [", ".join(types[:-1]), *types[-1:]])),
        workers=player.workers,
    )


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
            prompt=f"Ship: your storage holds 3 kinds of goods; choose {plural(room, 'new kind')}",
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
            say(state, f"{effects.name(who)} passes {player.score // 100 * 100} points")
    if not state.over:
        advance(state)
