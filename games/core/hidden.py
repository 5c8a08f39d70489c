"""Chance and face-down components: what a move could reveal before it is made.

The bot tries typed moves on a copy of the state to suggest what comes next. It must not
show a player what a move would draw or turn over before the move is made. A game marks
the state fields holding face-down stacks with `field(metadata=HIDDEN)`, and the public
fields saying which face-down tiles are turned up with `field(metadata=TURNED_UP)`; every
`Rng` in the state counts without a mark. A move that changes any of them touches hidden
information. Fields marked HIDDEN never appear in a view (games.testing checks it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from types import MappingProxyType
from typing import Any

from meeple_hall.games.core import serial
from meeple_hall.games.core.clone import every_leaf, field_hints, only_plain
from meeple_hall.games.core.messages import Msg
from meeple_hall.games.core.rng import Rng

HIDDEN = MappingProxyType({"hidden": "face-down"})
TURNED_UP = MappingProxyType({"hidden": "turned-up"})


def hidden_parts(state: Any) -> list[Any]:
    """Every generator's state and every marked field (as plain JSON values, copies), to
    compare before and after a move."""
    return [serial.encode(value) for _, value in _marked(state)]


def secrets(state: Any) -> list[Any]:
    """What no view may show: the generators' states and the fields marked HIDDEN."""
    return [serial.encode(value) for mark, value in _marked(state) if mark != "turned-up"]


def _marked(state: Any) -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    _collect(state, found)
    return found


# Values that hold nothing marked. The bot asks for a state's hidden parts on every move and
# for every line a panel unfolds, so the walk skips these and reads each dataclass's fields
# from a table built once per class, without the unmarked fields whose type hints allow only
# plain values (a log, a list of tile names: the hints are the state's format, `serial.loads`
# builds a saved state from them, so such a field holds no generator and no marked field).
_LEAVES = frozenset({int, str, float, bool, bytes, type(None), Msg})
_PLANS: dict[type, tuple[tuple[str, str | None], ...] | None] = {}


def _plan(kind: type) -> tuple[tuple[str, str | None], ...] | None:
    """A dataclass's fields to look at, with their marks (None for any other class)."""
    if kind not in _PLANS:
        if not dataclasses.is_dataclass(kind):
            _PLANS[kind] = None
            return None
        every = tuple((f.name, f.metadata.get("hidden")) for f in dataclasses.fields(kind))
        _PLANS[kind] = every  # while the hints are read: a class that holds itself is walked
        hints = field_hints(kind)
        _PLANS[kind] = tuple(
            (name, mark)
            for name, mark in every
            if mark or name not in hints or not _holds_nothing_marked(hints[name])
        )
    return _PLANS[kind]


def _holds_nothing_marked(hint: Any) -> bool:
    """Whether a field of this type hint can hold no generator and no marked field: plain
    values, dataclasses with nothing to look at, and lists, dicts, tuples of them."""
    return every_leaf(hint, _nothing_to_look_at)


def _nothing_to_look_at(hint: Any) -> bool:
    return only_plain(hint) or (
        isinstance(hint, type) and not issubclass(hint, Rng) and _plan(hint) == ()
    )


def _collect(state: Any, found: list[tuple[str, Any]]) -> None:
    kind = type(state)
    if kind in _LEAVES:
        return
    if kind is list or kind is tuple or kind is dict:
        _collect_items(state.values() if kind is dict else state, found)
        return
    if isinstance(state, Rng):
        found.append(("rng", state.state))
        return
    plan = _plan(kind)
    if plan is not None:
        for name, mark in plan:
            item = getattr(state, name)
            if mark:
                found.append((mark, item))
            elif type(item) not in _LEAVES:
                _collect(item, found)
    elif isinstance(state, list | tuple):
        _collect_items(state, found)
    elif isinstance(state, dict):
        _collect_items(state.values(), found)


def _collect_items(items: Iterable[Any], found: list[tuple[str, Any]]) -> None:
    for item in items:
        if type(item) not in _LEAVES:
            _collect(item, found)


# -- determinization: what a seat cannot know, drawn again ---------------------------------


def face_down(state: Any) -> list[Any]:
    """The fields marked HIDDEN alone (no generators), to tell two determinizations apart."""
    return [serial.encode(value) for mark, value in _marked(state) if mark == "face-down"]


def resample_face_down(state: Any, rng: Rng, skip: frozenset[str] = frozenset()) -> None:
    """Shuffle, in place, every field marked HIDDEN, as a seat that has not looked would
    imagine it: a list is one stack (only its face-down places when a TURNED_UP list of
    booleans named `<field>_up` sits beside it); a list of lists is one lot of components
    dealt into stacks of the same sizes (Burgundy's goods on phase spaces A–E); a dict of
    lists is one stack per key (Burgundy's tile piles by back colour). `skip` names fields
    a game resamples itself, as `Class.field`."""
    for owner, f in _hidden_fields(state):
        if f"{type(owner).__name__}.{f.name}" in skip:
            continue
        value = getattr(owner, f.name)
        up = getattr(owner, f"{f.name}_up", None)
        if isinstance(value, dict):
            for stack in value.values():
                if isinstance(stack, list):
                    stack[:] = rng.shuffled(_unordered(stack))
        elif isinstance(value, list) and value and all(isinstance(s, list) for s in value):
            deal_again(value, rng)
        elif isinstance(value, list):
            down = [i for i in range(len(value)) if not (up and i < len(up) and up[i])]
            drawn = rng.shuffled(_unordered([value[i] for i in down]))
            for i, item in zip(down, drawn, strict=True):
                value[i] = item


def deal_again(stacks: list[list[Any]], rng: Rng) -> None:
    """Gather the stacks, shuffle, and deal them again in the same sizes, in place."""
    pool = rng.shuffled(_unordered([item for stack in stacks for item in stack]))
    for stack in stacks:
        size = len(stack)
        stack[:], pool = pool[:size], pool[size:]


def _unordered(items: list[Any]) -> list[Any]:
    """The items in a canonical order, so that what is drawn depends on what they are and
    the seed, never on the order the real state holds them in."""
    return sorted(items, key=serial.canonical)


def reseed(state: Any, rng: Rng) -> None:
    """Give every generator in the state a new future drawn from `rng`."""
    for generator in _generators(state):
        generator.state = Rng.from_seed(rng.next_u32() << 32 | rng.next_u32()).state


def _hidden_fields(state: Any) -> Iterator[tuple[Any, dataclasses.Field[Any]]]:
    if dataclasses.is_dataclass(state) and not isinstance(state, type):
        for f in dataclasses.fields(state):
            if f.metadata.get("hidden") == "face-down":
                yield state, f
            else:
                yield from _hidden_fields(getattr(state, f.name))
    elif isinstance(state, list | tuple):
        for item in state:
            yield from _hidden_fields(item)
    elif isinstance(state, dict):
        for item in state.values():
            yield from _hidden_fields(item)


def _generators(state: Any) -> Iterator[Rng]:
    if isinstance(state, Rng):
        yield state
    elif dataclasses.is_dataclass(state) and not isinstance(state, type):
        for f in dataclasses.fields(state):
            yield from _generators(getattr(state, f.name))
    elif isinstance(state, list | tuple):
        for item in state:
            yield from _generators(item)
    elif isinstance(state, dict):
        for item in state.values():
            yield from _generators(item)
