"""Dicts in an order of the game's, not the order they were filled in.

What a game shows or decides from a dict that fills up in play (a screen's colours, a
player's scoring categories) lists it in a fixed order, so that a state loaded from a dump
written with sorted keys (before dumps kept dict order) shows and decides the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def in_order(mapping: Mapping[K, V], order: Iterable[K]) -> dict[K, V]:
    """`mapping` with the keys of `order` first, in that order, then any others sorted."""
    known = [key for key in order if key in mapping]
    rest = sorted((key for key in mapping if key not in set(known)), key=str)
    return {key: mapping[key] for key in [*known, *rest]}
