"""A deep copy of a game state, several times faster than `copy.deepcopy`.

The engine copies the state before every move (`GameEngine.apply`), and the bot does it for
every line a panel unfolds, so a state class may give `__deepcopy__ = clone_state`. A state
is a tree (the contract requires it to survive `dump`/`load`, which keeps no sharing), so
nothing needs the memo `copy.deepcopy` keeps: lists, dicts and tuples are copied item by
item, numbers, strings and messages are shared (they never change), a dataclass is copied
field by field, and a class with its own `__deepcopy__` copies itself.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar

from meeple_hall.games.core.messages import Msg

T = TypeVar("T")

_SHARED = frozenset({type(None), bool, int, float, str, bytes, Msg})
_COPIERS: dict[type, Callable[[Any], Any]] = {}


def clone(value: T) -> T:
    """A copy of the tree `value` sharing nothing that could change."""
    kind = type(value)
    if kind in _SHARED:
        return value
    if kind is list:
        if _SHARED.issuperset(map(type, value)):  # type: ignore[call-overload]
            return value[:]  # type: ignore[index]
        return [item if type(item) in _SHARED else clone(item) for item in value]  # type: ignore[attr-defined, return-value]
    if kind is dict:
        if _SHARED.issuperset(map(type, value.values())):  # type: ignore[attr-defined]
            return value.copy()  # type: ignore[attr-defined]
        return {
            key: item if type(item) in _SHARED else clone(item)
            for key, item in value.items()  # type: ignore[attr-defined]
        }  # type: ignore[return-value]
    copier = _COPIERS.get(kind)
    if copier is None:
        copier = _COPIERS[kind] = _copier(kind)
    return copier(value)


def clone_state(self: T, memo: dict[int, Any]) -> T:
    """A `__deepcopy__` for a state dataclass: `clone` of its fields."""
    return _fields_copy(self)


def _copier(kind: type) -> Callable[[Any], Any]:
    if kind is tuple:
        return lambda value: tuple(clone(item) for item in value)
    own = getattr(kind, "__deepcopy__", None)
    if own is clone_state:
        return _fields_copy
    if own is not None:
        return lambda value: value.__deepcopy__({})
    if dataclasses.is_dataclass(kind) and "__slots__" not in vars(kind):
        return _fields_copy
    return copy.deepcopy


def _fields_copy(value: T) -> T:
    kind: Any = type(value)
    out = object.__new__(kind)
    plan = _field_plan(kind)
    out.__dict__.update(
        {
            name: item if type(item) in _SHARED else plan.get(name, clone)(item)
            for name, item in value.__dict__.items()
        }
    )
    return out


# How a field is copied, by its type hint (the hints are the state's format: `serial.loads`
# builds a saved state from them, so a field holds what its hint says): a list or dict of
# plain values at once, anything else by `clone`.
_PLAIN_HINTS = frozenset({int, str, bool, float, type(None), Msg})


@functools.cache
def field_hints(kind: type) -> dict[str, Any]:
    """A dataclass's fields' type hints ({} where they cannot be resolved)."""
    try:
        return typing.get_type_hints(kind)
    except (NameError, TypeError):
        return {}


@functools.cache
def _field_plan(kind: type) -> dict[str, Callable[[Any], Any]]:
    """A dataclass's fields copied at once by their hints (the others go to `clone`)."""
    plan: dict[str, Callable[[Any], Any]] = {}
    for name, hint in field_hints(kind).items():
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin is list and args and _plain(args[0]):
            plan[name] = list.copy
        elif origin is dict and len(args) == 2 and _plain(args[1]):
            plan[name] = dict.copy
    return plan


def _plain(hint: Any) -> bool:
    """Whether a hint allows only values that never change (numbers, text, messages)."""
    if hint in _PLAIN_HINTS:
        return True
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return all(_plain(arg) for arg in typing.get_args(hint))
    return False


def only_plain(hint: Any) -> bool:
    """Whether a hint allows only plain values and lists, dicts and tuples of them, at any
    depth: no object, so nothing a walk looking for objects need enter."""
    return every_leaf(hint, _plain)


def every_leaf(hint: Any, leaf: Callable[[Any], bool]) -> bool:
    """Whether a hint is a `leaf`, or lists, dicts, tuples and unions of leaves at any depth."""
    if leaf(hint):
        return True
    origin = typing.get_origin(hint)
    if origin in (list, dict, tuple, typing.Union, types.UnionType):
        args = [arg for arg in typing.get_args(hint) if arg is not Ellipsis]
        return bool(args) and all(every_leaf(arg, leaf) for arg in args)
    return False
