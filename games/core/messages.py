"""Words without a language: a message is a key and its parameters, rendered by the
presentation layer in the reader's language (`games/core/catalogues.py`).

A key is namespaced by the catalogue it lives in: `core.not_your_turn` is in
`data/core/i18n/`, `burgundy.log.takes` in `data/burgundy/i18n/`. A parameter is a number,
a plain string shown as it is (an option token, a tile code), another message (a tile name,
a count with its noun), or a list of those (shown joined the way the language joins lists).

Wherever a message is expected a plain `str` is accepted too and shown as it is: that is how
a game not yet converted keeps working, in English, while the others move one by one.

Outside Python (views, stored states) a message is plain JSON: `{"key": k, "params": {...}}`
with nested messages in the same form.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Union

Param = Union[int, str, "Msg", Sequence["Param"]]


class Msg:
    """An immutable, hashable message: `Msg("burgundy.log.takes", seat=seat_msg, tile=...)`."""

    __slots__ = ("key", "params")
    key: str
    params: tuple[tuple[str, Any], ...]

    def __init__(self, key: str, /, **params: Param) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "params", _frozen(params) if params else ())

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Msg is immutable")

    @property
    def args(self) -> dict[str, Any]:
        return dict(self.params)

    @property
    def namespace(self) -> str:
        return self.key.split(".", 1)[0]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Msg) and (self.key, self.params) == (other.key, other.params)

    def __hash__(self) -> int:
        return hash((self.key, self.params))

    def __repr__(self) -> str:
        inner = "".join(f", {k}={v!r}" for k, v in self.params)
        return f"Msg({self.key!r}{inner})"

    def __str__(self) -> str:
        """The English text (for logs and exceptions; readers get their own language)."""
        from meeple_hall.games.core.catalogues import render

        return render("en", self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.key, self.params))

    def __copy__(self) -> Msg:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Msg:
        return self

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key}
        if self.params:
            out["params"] = {k: jsonable(v) for k, v in self.params}
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Msg:
        params = {k: _param_from_json(v) for k, v in (data.get("params") or {}).items()}
        return cls(data["key"], **params)


Text = str | Msg
"""What a prompt, label, description, log line or refusal may be."""


# Parameters kept as they are, by exact type (a bool is not an int here: it is refused).
_AS_GIVEN = frozenset({int, str, Msg})


def _frozen(params: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """The parameters, sorted by name, each frozen (the common ones checked by type only:
    panels and views build hundreds of messages a move)."""
    items = [(k, v if type(v) in _AS_GIVEN else _freeze(v)) for k, v in params.items()]
    if len(items) > 1:
        items.sort()
    return tuple(items)


def _freeze(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, bool) or not isinstance(value, int | str | Msg):
        raise TypeError(f"a message parameter is a number, text, message or list: {value!r}")
    return value


def _rebuild(key: str, params: tuple[tuple[str, Any], ...]) -> Msg:
    return Msg(key, **dict(params))


def _param_from_json(value: Any) -> Any:
    if isinstance(value, dict):
        return Msg.from_json(value)
    if isinstance(value, list):
        return [_param_from_json(v) for v in value]
    return value


def jsonable(value: Any) -> Any:
    """A message (or a list of them, or plain text) as plain JSON for a view."""
    if isinstance(value, Msg):
        return value.to_json()
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value


def event_json(event: Msg | str) -> Any:
    """A log event as views give it (`jsonable`), worked out once per event: an event stays
    in the log, the same object in every state after it, and every view of each of them
    shows it (shared between views, which are read-only)."""
    kept = _EVENTS.get(id(event))
    if kept is None or kept[0] is not event:
        if len(_EVENTS) >= EVENTS_KEPT:
            _EVENTS.clear()
        # the event itself is kept beside its JSON, so that its id is not another's
        kept = _EVENTS[id(event)] = (event, jsonable(event))
    return kept[1]


EVENTS_KEPT = 4096
_EVENTS: dict[int, tuple[Msg | str, Any]] = {}


def from_json(value: Any) -> Any:
    """The inverse of `jsonable` for one text: a message's JSON form back to a `Msg`."""
    if isinstance(value, dict) and isinstance(value.get("key"), str):
        return Msg.from_json(value)
    return value


def keys_in(value: Any) -> set[str]:
    """Every message key in a text (a message and its nested parameters)."""
    found: set[str] = set()
    if isinstance(value, Msg):
        found.add(value.key)
        for _, v in value.params:
            found |= keys_in(v)
    elif isinstance(value, list | tuple):
        for v in value:
            found |= keys_in(v)
    return found
