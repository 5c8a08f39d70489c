"""Tiles won go into the village (rulebook, "End of season" 4): every player with tiles to
place at once, each tile in three small steps: which tile (when there are several), which
free cell, which way round. Nothing is placed until the way round is chosen, so `back`
undoes the cell or the tile chosen.
"""

from __future__ import annotations

from meeple_hall.games.core import Option
from meeple_hall.games.core.steps import Chosen, Offer
from meeple_hall.games.keyflower import placing, seasons
from meeple_hall.games.keyflower.offers import (
    Ask,
    KeyflowerStep,
    back_option,
    offer,
    option,
    tile_option,
    with_boat_side,
)
from meeple_hall.games.keyflower.state import KeyflowerState, Player
from meeple_hall.games.keyflower.village import (
    cell_near,
    cell_of,
    describe_cell,
    describe_turn,
    place,
    placements,
    turn_sides,
)
from meeple_hall.games.keyflower.words import m, seat_name, tile_name


def tile_being_placed(p: Player) -> str:
    """The tile chosen to place next ("" while the player has several to choose from)."""
    return p.placing or (p.to_place[0] if len(p.to_place) == 1 else "")


def placing_kind(p: Player) -> str:
    """Which of the three steps the player is at."""
    if not tile_being_placed(p):
        return "place_tile"
    return "place_rot" if p.placing_at else "place_at"


def _spots(state: KeyflowerState, seat: int, tile: str) -> dict[str, list[int]]:
    """Free cells and the turns that fit in each (boat 2a: any turn fits)."""
    free = "2a" in placing.abilities(state, seat)
    return placements(state, state.players[seat], tile, free)


def _place(state: KeyflowerState, seat: int, rot: int) -> None:
    p = state.players[seat]
    tile = tile_being_placed(p)
    place(state.tiles[tile], p.placing_at, rot)
    p.village.append(tile)
    p.to_place.remove(tile)
    p.placing = p.placing_at = ""
    state.log.append(m("log.places", seat=seat_name(seat), tile=tile_name(tile)))
    seasons.after_placing(state)


class ChooseTileToPlace(KeyflowerStep):
    kind = "place_tile"

    def offer(self, state: KeyflowerState, frame: Ask) -> Offer:
        tiles = state.players[frame.seat].to_place
        # `mark`: the tile's number, on its drawing in the decision's picture and on its
        # panel lines (a keycap emoji), as the free cells' (`ChooseCell`): the lines name
        # the tile in words, the picture by its code
        return offer(
            m("prompt.place_tile"),
            (_marked(with_boat_side(state, tile_option(t)), n) for n, t in enumerate(tiles, 1)),
        )

    def perform(self, state: KeyflowerState, frame: Ask, chosen: Chosen) -> None:
        state.players[frame.seat].placing = chosen.id


def _marked(tile: Option, mark: int) -> Option:
    return Option(tile.id, tile.label, {**tile.fields, "mark": mark})


class ChooseCell(KeyflowerStep):
    kind = "place_at"

    def offer(self, state: KeyflowerState, frame: Ask) -> Offer:
        p = state.players[frame.seat]
        tile = tile_being_placed(p)
        cells = []
        # `mark`: the cell's number, in the ring the decision's picture draws round it and
        # on its panel line (a keycap emoji): the cell ids are never shown to a player;
        # `placing`: the tile, which the picture draws large (as `ChooseTurn`'s options)
        for mark, at in enumerate(_spots(state, frame.seat, tile), 1):
            near = cell_near(state, p, at)
            label = describe_cell(near, at)
            cells.append(option(at, label, at=at, near=near, mark=mark, placing=tile))
        back = [back_option()] if len(p.to_place) > 1 else []
        return offer(m("prompt.place_at", tile=tile_name(tile)), (*cells, *back))

    def perform(self, state: KeyflowerState, frame: Ask, chosen: Chosen) -> None:
        p = state.players[frame.seat]
        if chosen.id == "back":
            p.placing = ""
            return
        tile = tile_being_placed(p)
        p.placing, p.placing_at = tile, chosen.id
        rots = _spots(state, frame.seat, tile)[chosen.id]
        if len(rots) == 1:
            _place(state, frame.seat, rots[0])


class ChooseTurn(KeyflowerStep):
    kind = "place_rot"

    def offer(self, state: KeyflowerState, frame: Ask) -> Offer:
        p = state.players[frame.seat]
        tile, at = tile_being_placed(p), p.placing_at
        turns = []
        cell = list(cell_of(at))
        # `mark`: the turn's number, under its drawing in the decision's picture and on its
        # panel line (a keycap emoji), as the free cells' (`ChooseCell`)
        for mark, rot in enumerate(_spots(state, frame.seat, tile)[at], 1):
            sides = turn_sides(state, p, tile, at, rot)
            label = describe_turn(rot, sides)
            turns.append(
                option(f"r{rot}", label, rot=rot, placing=tile, cell=cell, mark=mark, **sides)
            )
        return offer(m("prompt.place_rot", tile=tile_name(tile)), (*turns, back_option()))

    def perform(self, state: KeyflowerState, frame: Ask, chosen: Chosen) -> None:
        if chosen.id == "back":
            state.players[frame.seat].placing_at = ""
        else:
            _place(state, frame.seat, int(chosen.id[1:]))


STEPS = (ChooseTileToPlace(), ChooseCell(), ChooseTurn())
