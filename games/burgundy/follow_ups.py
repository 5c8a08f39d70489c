"""What comes next in a turn without a die (2019 rulebook pp.5-7): a full storage discards a
tile, a ship ships goods (choosing kinds when its storage has too little room), a warehouse
sells, a market, carpenter or church takes a tile, a town hall places one. effects.py pushes
these steps where the rules ask for them; steps.py declares them with the turn's."""

from __future__ import annotations

from functools import cache
from typing import Any

from meeple_hall.games.burgundy import effects
from meeple_hall.games.burgundy.rules import board_tiles, knows, open_hexes, table
from meeple_hall.games.burgundy.state import BurgundyState, Frame
from meeple_hall.games.burgundy.turn import (
    Choice,
    TurnStep,
    face,
    offer,
    on_hex,
    sale_label,
    skip,
    storage_full,
    tile_fields,
)
from meeple_hall.games.burgundy.words import (
    count,
    goods,
    goods_stacks,
    m,
    qualified,
    tile_name,
    type_name,
)
from meeple_hall.games.core import Msg, Option
from meeple_hall.games.core.steps import Chosen, Offer


class Discard(TurnStep):
    """Storage full: which stored tile leaves for the one taken (`frame.tile`)."""

    kind = "discard"

    def offer(self, state: BurgundyState, frame: Frame) -> Offer:
        stored = state.players[state.active].storage
        choices = [(Option(face(t), discard_label(face(t)), tile_fields(t)), t) for t in stored]
        return offer(discard_prompt(face(frame.tile)), choices)

    def perform(self, state: BurgundyState, frame: Frame, chosen: Chosen) -> None:
        effects.discard(state, state.active, frame, chosen.meaning)


@cache
def discard_label(tile_face: str) -> Msg:
    return m("label.discard", tile=tile_name(tile_face))


@cache
def discard_prompt(tile_face: str) -> Msg:
    return m("prompt.discard", tile=tile_name(tile_face))


# -- ships --------------------------------------------------------------------------------------
def next_depot(depot: int) -> int:
    """The depots stand in a ring: 6 is next to 1 (knowledge tile 5)."""
    return depot % 6 + 1


def room(state: BurgundyState, seat: int) -> int:
    """Kinds of goods the seat's storage still takes (3 kinds at most)."""
    return table()["goods"]["storage_kinds"] - len(state.players[seat].goods)


# A ship's label names the goods waiting kind by kind, at most this many kinds, for one depot
# and for two (knowledge tile 5), and the kinds its storage leaves behind while the names in
# all are at most one more; past them it counts: named, they would pass a button's 80
# characters, and the table shows the depots.
MOST_KINDS_NAMED = {1: 3, 2: 2}


def ship_label(state: BurgundyState, seat: int, depots: list[int]) -> Msg:
    """The goods of the depots, and what the 3 kinds of goods storage leaves behind: "if a
    player is unable to place a goods tile on one of their storage spaces, that tile remains
    in the depot" (2019 rulebook, Ship)."""
    tiles = [g for d in depots for g in state.depot_goods[d - 1]]
    on_board: list[Msg] = goods_stacks(tiles)
    kinds = len(on_board)
    named = kinds <= MOST_KINDS_NAMED[len(depots)]
    if not named:
        on_board = [m("label.goods_many", tiles=count("tiles", len(tiles)), n=kinds)]
    if len(depots) == 1:
        label = m("label.ship", depot=depots[0], goods=on_board)
    else:
        label = m("label.ship_two", depot=depots[0], next=depots[1], goods=on_board)
    held = state.players[seat].goods
    new = sorted({g for g in tiles if g not in held})
    free = room(state, seat)
    if len(new) <= free:
        return label
    if free == 0:
        named = named and kinds + len(new) <= MOST_KINDS_NAMED[len(depots)] + 1
        left = [goods(g) for g in new] if named else [count("kinds", len(new))]
        return m("label.ship_left", ship=label, left=left)
    return m("label.ship_choose", ship=label, kinds=count("kinds", free))


class Ship(TurnStep):
    """A ship placed: the goods of one depot (two neighbours with knowledge tile 5), or of an
    empty depot, which takes nothing; meaning the depots."""

    kind = "ship"

    def offer(self, state: BurgundyState, frame: Frame) -> Offer:
        seat, on = state.active, state.depot_goods
        choices = [self._choice(state, seat, [d]) for d in range(1, 7) if on[d - 1]]
        if knows(state.players[seat], 5):
            pairs = [[d, next_depot(d)] for d in range(1, 7)]
            choices += [self._choice(state, seat, p) for p in pairs if on[p[0] - 1] or on[p[1] - 1]]
        if not all(on):
            # "Choose any depot": one without goods is a choice too, and takes nothing.
            choices.append((Option("none", m("label.ship_none"), {"depots": []}), []))
        return offer(m("prompt.ship"), choices)

    @staticmethod
    def _choice(state: BurgundyState, seat: int, depots: list[int]) -> Choice:
        oid = "+".join(str(d) for d in depots)
        return Option(oid, ship_label(state, seat, depots), {"depots": list(depots)}), depots

    def perform(self, state: BurgundyState, frame: Frame, chosen: Chosen) -> None:
        effects.ship_goods(state, state.active, chosen.meaning)


class ShipGoods(TurnStep):
    """More new kinds in the shipped depots than the storage has room for: which kinds come
    (as many as there is room for; the rest stays in the depots)."""

    kind = "shipgoods"

    def offer(self, state: BurgundyState, frame: Frame) -> Offer:
        on_board = [g for d in frame.depots for g in state.depot_goods[d - 1]]

        def label(g: int) -> Msg:
            return m("label.goods", goods=goods(g), n=on_board.count(g))

        choices = [
            (Option(str(g), label(g), {"goods": g, "depots": list(frame.depots)}), g)
            for g in frame.goods
        ]
        free = room(state, state.active)
        return offer(m("prompt.shipgoods", kinds=count("kinds", free)), choices, pick=free)

    def perform(self, state: BurgundyState, frame: Frame, chosen: Chosen) -> None:
        held = list(state.players[state.active].goods)
        effects.load_goods(state, state.active, frame.depots, held + list(chosen.meanings))


# -- buildings ----------------------------------------------------------------------------------
class Warehouse(TurnStep):
    """A warehouse placed: sell one kind of goods, or nothing."""

    kind = "warehouse"

    def offer(self, state: BurgundyState, frame: Frame) -> Offer:
        seat = state.active
        held = sorted(state.players[seat].goods)
        choices = [(Option(str(g), sale_label(state, seat, g), {"goods": g}), g) for g in held]
        return offer(m("prompt.warehouse"), [*choices, skip("label.sell_nothing")])

    def perform(self, state: BurgundyState, frame: Frame, chosen: Chosen) -> None:
        if chosen.meaning is not None:
            effects.sell(state, state.active, chosen.meaning)


class EffectTake(TurnStep):
    """A market, carpenter or church placed (`frame.source`): a tile of its types from any
    numbered depot, or nothing."""

    kind = "effect_take"

    def offer(self, state: BurgundyState, frame: Frame) -> Offer:
        full = storage_full(state, state.active)
        choices = []
        for d, t in board_tiles(state, frame.types):
            label = m("label.from_depot", tile=tile_name(face(t)), depot=d)
            label = qualified(label, storage_full=full)
            choices.append((Option(f"{face(t)}/{d}", label, tile_fields(t, depot=d)), t))
        types = [type_name(t) for t in frame.types]
        prompt = m("prompt.effect_take", building=tile_name(frame.source), types=types)
        return offer(prompt, [*choices, skip("label.take_nothing")])

    def perform(self, state: BurgundyState, frame: Frame, chosen: Chosen) -> None:
        if chosen.meaning is not None:
            effects.to_storage(state, state.active, chosen.meaning)


def _townhall_fields(state: BurgundyState, t: int, h: int) -> dict[str, Any]:
    """A town hall's tile and hex; a market, carpenter or church also the tiles its effect
    may take (`takes`: [depot, face] each), which its panel line folds and its picture rings."""
    fields = tile_fields(t, hex=h)
    types = effects.TAKE_EFFECTS.get(fields.get("building", ""))
    if types:
        fields["takes"] = [[d, face(x)] for d, x in board_tiles(state, types)]
    return fields


class Townhall(TurnStep):
    """A town hall placed: a stored tile on any open hex, whatever its die, or nothing."""

    kind = "townhall"

    def offer(self, state: BurgundyState, frame: Frame) -> Offer:
        player = state.players[state.active]
        choices = [
            (Option(f"{face(t)}@{h}", on_hex(face(t), h, 0), _townhall_fields(state, t, h)), (t, h))
            for t in player.storage
            for h in open_hexes(player, t)
        ]
        return offer(m("prompt.townhall"), [*choices, skip("label.place_nothing")])

    def perform(self, state: BurgundyState, frame: Frame, chosen: Chosen) -> None:
        if chosen.meaning is not None:
            effects.place(state, state.active, *chosen.meaning)
