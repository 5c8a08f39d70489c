"""How Keyflower's steps ask: the step asked now, and the options its offers are made of.

Keyflower keeps what it is waiting for in its state as the rulebook's phases do: the turn
so far (`Move.stage` names the step), the winter tiles still to choose, the boats still to
take, the tiles still to place. `Ask` is the step asked of one seat, worked out from that
(games/keyflower/engine.py: `asked`), so stored games keep their shape.

Every option carries `fields`, what it is for presenters: `{"tile": "S07"}`, `{"item":
"wood"}`, `{"n": 2}`, `{"paid": {"gold": 1}}`; the steps after a location is chosen name it
too (`{"item": "red", "location": "S07"}`: `at_location`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from meeple_hall.games.core import Msg, Option, Text
from meeple_hall.games.core.steps import Chosen, Offer, Step
from meeple_hall.games.keyflower import placing
from meeple_hall.games.keyflower.components import spec
from meeple_hall.games.keyflower.state import KeyflowerState, Move
from meeple_hall.games.keyflower.words import item, m, seat_name, tile_label


@dataclass(frozen=True)
class Ask:
    """One step asked of one seat: its kind (a decision kind) and who answers."""

    kind: str
    seat: int


def offer(prompt: Text, options: Iterable[Option], most: int = 1) -> Offer:
    """An offer of ready-made options (their fields set), picking one, or up to `most`."""
    return Offer(prompt, tuple(options), max_choices=most)


def option(option_id: str, label: Text, **fields: Any) -> Option:
    return Option(option_id, label, fields)


def at_location(state: KeyflowerState, option_id: str, label: Text, **fields: Any) -> Option:
    """An option of a step after the location is chosen (colour, gather, count, mix, and
    what a use asks: resource, skill, discard), naming that tile in its fields (`location`)
    for the pictures of those decisions (renderers/phone/keyflower.py); its id and label are
    those the step gave before."""
    return Option(option_id, label, {**fields, "location": state.move.tile})


# The options that depend on nothing but their words are made once each (a panel asks for
# them again for every line; an option is never changed once made, only read).
@cache
def item_option(kind: str) -> Option:
    """A worker colour, resource or skill tile kind, by its name."""
    return Option(kind, item(kind), {"item": kind})


@lru_cache(maxsize=256)
def number_option(n: int) -> Option:
    return Option(str(n), m("number", n=n), {"n": n})


def tile_option(tile_id: str, label: Text | None = None) -> Option:
    if label is None:
        return _tile_option(tile_id)
    return Option(tile_id, label, {"tile": tile_id})


@cache
def _tile_option(tile_id: str) -> Option:
    return Option(tile_id, tile_label(tile_id), {"tile": tile_id})


@cache
def plain_option(option_id: str, key: str) -> Option:
    """An option with nothing but a word of the catalogue (`pass`, `next`)."""
    return Option(option_id, m(key))


def back_option() -> Option:
    """Undo the choices so far (nothing is placed until the last of them)."""
    return plain_option("back", "label.back")


def with_boat_side(state: KeyflowerState, tile: Option) -> Option:
    """A summer boat named with the side that lies face up (`U09 Summer boat 1 (side 1a)`):
    its two sides give different abilities, chosen at random when it comes out (EN "Summer
    boats"), and the tile's own text names both."""
    tile_id = tile.fields["tile"]
    s = spec(tile_id)
    placed = state.tiles.get(tile_id)
    if not s.is_summer_boat or placed is None or not placed.side:
        return tile
    ability = s.front["ability"] if placed.side == "a" else (s.back or {})["ability"]
    label = m("where.boat_side", tile=tile.label, side=ability)
    return Option(tile.id, label, {"tile": tile_id, "side": ability})


def where_option(state: KeyflowerState, seat: int, tile_id: str) -> Option:
    """A location with whose village it is in, or that it shows the start keyple."""
    label: Msg = tile_label(tile_id)
    holder = placing.owner(state, tile_id)
    if tile_id == state.start_tile:
        label = m("where.start", tile=label)
    elif holder == seat:
        label = m("where.yours", tile=label)
    elif holder is not None:
        label = m("where.theirs", tile=label, seat=seat_name(holder))
    return with_boat_side(state, tile_option(tile_id, label))


def end_turn(state: KeyflowerState) -> None:
    """The next seat's turn (a turn that did something ends the run of passes)."""
    state.passes = 0
    state.current = (state.current + 1) % state.num_players
    state.move = Move()


class KeyflowerStep(Step[KeyflowerState, Ask]):
    """A step of Keyflower: its choices are read by their ids (a tile, a colour, a count),
    so answering it does not work its offer out again."""

    reads_meanings = False


class TurnStep(KeyflowerStep):
    """A step of the current seat's turn, named by `Move.stage`. The steps before any
    worker is placed offer `back`: the turn starts again."""

    cancellable = False

    def seat(self, state: KeyflowerState, frame: Ask) -> int:
        return state.current

    def offer(self, state: KeyflowerState, frame: Ask) -> Offer:
        asked = self.ask(state, state.current)
        if self.cancellable:
            return offer(asked.prompt, (*asked.options, back_option()))
        return asked

    def perform(self, state: KeyflowerState, frame: Ask, chosen: Chosen) -> None:
        if self.cancellable and chosen.id == "back":
            state.move = Move()  # nothing is on the table yet: start the turn again
            return
        self.choose(state, state.current, chosen.id)

    def ask(self, state: KeyflowerState, seat: int) -> Offer:
        """What the step offers the seat whose turn it is (`back` is added here)."""
        raise NotImplementedError

    def choose(self, state: KeyflowerState, seat: int, choice: str) -> None:
        """Carry out the seat's choice: ask the turn's next step, or end the turn."""
        raise NotImplementedError
