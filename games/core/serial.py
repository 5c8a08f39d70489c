"""Exact JSON round trips for dataclass game states.

A game's state is a tree of dataclasses, lists, tuples, dicts, enums and scalars. `dumps`
writes it as compact JSON keeping every dict's order (a game lists a dict's entries in the
order it holds them, so a loaded state must hold them in the same order); the same moves
give the same bytes. `loads` rebuilds it from the type hints of the state class.

Dumps written before 26 November 2026 sorted every object's keys; `written_sorted` tells
them, and `reorder_like` gives their dicts the order a game's setup gives them.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from functools import cache
from typing import Any, TypeVar, Union, get_args, get_origin

from meeple_hall.games.core.contract import GameError
from meeple_hall.games.core.messages import Msg

T = TypeVar("T")


_SCALARS = frozenset({type(None), bool, int, float, str})


def encode(value: Any) -> Any:
    kind: type = type(value)
    if kind in _SCALARS:
        return value
    if kind is list or kind is tuple:
        if _SCALARS.issuperset(map(type, value)):
            return list(value)
        return [encode(v) for v in value]
    if kind is dict:
        return {_encode_key(k): encode(v) for k, v in value.items()}
    names = _field_names(kind)
    if names is not None:
        return {name: encode(getattr(value, name)) for name in names}
    return _encode_other(value)


@cache
def _field_names(kind: type) -> tuple[str, ...] | None:
    """A dataclass's field names (None for any other class), read once per class."""
    if kind is Msg or not dataclasses.is_dataclass(kind):
        return None
    return tuple(f.name for f in dataclasses.fields(kind))


def _encode_other(value: Any) -> Any:
    if isinstance(value, Msg):
        return value.to_json()
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(encode(v) for v in value)
    if isinstance(value, dict):
        return {_encode_key(k): encode(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"cannot serialise {type(value).__name__}")


def _encode_key(key: Any) -> str:
    if isinstance(key, enum.Enum):
        key = key.value
    if isinstance(key, bool) or not isinstance(key, (int, str)):
        raise TypeError(f"dict keys must be str, int or enums, not {type(key).__name__}")
    return str(key)


def dumps(value: Any) -> str:
    return json.dumps(encode(value), separators=(",", ":"), ensure_ascii=False)


def canonical(value: Any) -> str:
    """`value` as JSON with every object's keys sorted: the same text whatever order its
    dicts hold their entries in."""
    return json.dumps(encode(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def loads(cls: type[T], text: str) -> T:
    return decode_saved(cls, parse(cls, text))


def parse(cls: type, text: str) -> Any:
    """The JSON of a saved `cls` (GameError if it is not JSON)."""
    try:
        return json.loads(text)
    except ValueError as exc:
        raise GameError(f"not a saved {cls.__name__}: {exc}") from exc


def decode_saved(cls: type[T], data: Any) -> T:
    try:
        return decode(cls, data)
    except (ValueError, TypeError, KeyError) as exc:
        raise GameError(f"not a saved {cls.__name__}: {exc}") from exc


def written_sorted(cls: type, data: Any) -> bool:
    """Whether the saved dataclass `data` was written with sorted keys (by a dump before
    dicts kept their order): its fields come sorted though `cls` declares them otherwise."""
    names = [f.name for f in dataclasses.fields(cls)]
    if not isinstance(data, dict) or names == sorted(names):
        return False
    written = [key for key in data if key in names]
    return written == sorted(written)


def reorder_like(value: Any, model: Any) -> None:
    """Give every dict in `value` the order of the dict at the same place in `model`, in
    place: its keys `model` holds first, in `model`'s order, then the others as they are."""
    if type(value) is dict and type(model) is dict:
        ordered = [k for k in model if k in value] + [k for k in value if k not in model]
        if ordered != list(value):
            items = [(k, value[k]) for k in ordered]
            value.clear()
            value.update(items)
        for key, item in value.items():
            if key in model:
                reorder_like(item, model[key])
    elif isinstance(value, list | tuple) and isinstance(model, list | tuple):
        for item, like in zip(value, model, strict=False):
            reorder_like(item, like)
    elif type(value) is type(model):
        kind: type = type(value)
        for name in _field_names(kind) or ():
            reorder_like(getattr(value, name), getattr(model, name))


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def decode(tp: Any, data: Any) -> Any:
    if tp is Any:
        return data
    if tp is Msg:
        return Msg.from_json(data)
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        return _decode_union(tp, data)
    if origin is typing.Literal:
        return data
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _decode_dataclass(tp, data)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp(data)
    if origin is not None:
        return _decode_generic(origin, get_args(tp), data)
    return _decode_plain(tp, data)


def _decode_union(tp: Any, data: Any) -> Any:
    args = get_args(tp)
    if data is None and type(None) in args:
        return None
    concrete = [a for a in args if a is not type(None)]
    if len(concrete) == 1:
        return decode(concrete[0], data)
    for arg in concrete:
        if _matches(arg, data):
            return decode(arg, data)
    raise TypeError(f"{data!r} matches none of {tp}")


def _decode_dataclass(tp: type, data: Any) -> Any:
    init: dict[str, Any] = {}
    later: dict[str, Any] = {}
    for name, hint, in_init, required in _decoded_fields(tp):
        if name in data:
            (init if in_init else later)[name] = decode(hint, data[name])
        elif required:
            raise KeyError(name)
    obj = tp(**init)
    for k, v in later.items():
        object.__setattr__(obj, k, v)
    return obj


def _decode_generic(origin: Any, args: tuple[Any, ...], data: Any) -> Any:
    """`list[...]`, `tuple[...]`, `set[...]`, `frozenset[...]` and `dict[...]`."""
    if origin is list:
        (arg,) = args or (Any,)
        return [decode(arg, v) for v in data]
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], v) for v in data)
        return tuple(decode(a, v) for a, v in zip(args, data, strict=True))
    if origin in (set, frozenset):
        (arg,) = args
        return origin(decode(arg, v) for v in data)
    if origin is dict:
        key_tp, val_tp = args or (str, Any)
        return {_decode_key(key_tp, k): decode(val_tp, v) for k, v in data.items()}
    return data


def _decode_plain(tp: Any, data: Any) -> Any:
    if tp in (list, dict, tuple):
        return tp(data)
    if tp is float:
        return float(data)
    if tp in (int, str, bool) and not isinstance(data, tp):
        raise TypeError(f"expected {tp.__name__}, got {data!r}")
    return data


@cache
def _decoded_fields(cls: type) -> tuple[tuple[str, Any, bool, bool], ...]:
    """A dataclass's fields as `decode` reads them, once per class: name, type hint,
    whether `__init__` takes it, and whether a saved state must hold it (no default)."""
    hints = _hints(cls)
    return tuple(
        (
            f.name,
            hints[f.name],
            f.init,
            f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING,
        )
        for f in dataclasses.fields(cls)
    )


def _decode_key(tp: Any, key: str) -> Any:
    if tp is int:
        return int(key)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp(int(key) if isinstance(next(iter(tp)).value, int) else key)
    return key


def _matches(tp: Any, data: Any) -> bool:
    origin = get_origin(tp) or tp
    if origin is Msg:
        return isinstance(data, dict)
    if isinstance(origin, type) and dataclasses.is_dataclass(origin):
        return isinstance(data, dict)
    if origin in (list, tuple, set, frozenset):
        return isinstance(data, list)
    if origin is dict:
        return isinstance(data, dict)
    if isinstance(origin, type) and issubclass(origin, enum.Enum):
        return any(m.value == data for m in origin)
    if isinstance(origin, type):
        return isinstance(data, origin)
    return False
