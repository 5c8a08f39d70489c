"""The seeded random generator every game uses for shuffles and draws.

A PCG32 (O'Neill, 2014: XSH-RR output of a 64-bit LCG) written here so that the same seed
gives the same draws on every Python version; `random.shuffle` and `randrange` have
changed between versions. The generator is a plain dataclass so it lives inside a game's
state and round-trips through `dump()`/`load()`.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

_MASK64 = (1 << 64) - 1
_MASK32 = (1 << 32) - 1
_MULTIPLIER = 6364136223846793005
_INCREMENT = 1442695040888963407


@dataclass
class Rng:
    state: int = 0

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        rng = cls(0)
        rng._step()
        rng.state = (rng.state + (seed & _MASK64)) & _MASK64
        rng._step()
        return rng

    def _step(self) -> None:
        self.state = (self.state * _MULTIPLIER + _INCREMENT) & _MASK64

    def next_u32(self) -> int:
        old = self.state
        self._step()
        xorshifted = (((old >> 18) ^ old) >> 27) & _MASK32
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & _MASK32

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if n == 1:
            return 0
        threshold = ((1 << 32) - n) % n
        while True:
            r = self.next_u32()
            if r >= threshold:
                return r % n

    def between(self, low: int, high: int) -> int:
        """A uniform integer in [low, high], both ends included (a die: between(1, 6))."""
        return low + self.below(high - low + 1)

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise ValueError("choice() from an empty sequence")
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self.shuffle(out)
        return out

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """k distinct items in random order (draws without replacement)."""
        pool = list(items)
        if k > len(pool):
            raise ValueError("sample larger than population")
        out = []
        for _ in range(k):
            out.append(pool.pop(self.below(len(pool))))
        return out
