"""One shape for a game's steps, after 18xx: a step kind says in one place what it offers,
how it performs a choice and when it resolves itself; one pending-step stack drives them.

A game keeps its pending steps as records ("frames") on a list in its state: the top is
asked (or, where the game asks several seats at once, the frames it names). A frame says
which kind of step it is; the kind, a `Step` subclass, does the rest:

    class Take(Step[BurgundyState, Frame]):
        kind = "take"

        def offer(self, state, frame) -> Offer:           # the prompt and the options
            ...
        def perform(self, state, frame, chosen) -> None:  # carry out a choice
            ...
        def resolves(self, state, frame) -> Chosen | None:  # answer itself, or ask
            ...

    STEPS = Steps([Die(), Take(), ...], frames=lambda s: s.stack, base=...)

`Steps` pops the answered frame before `perform`, so a step that leads to another pushes it
(`steps.push`), and a step asked again pushes itself again. When the stack is empty the game
may still have a step to ask: `base(state)` gives it (a frame not kept on the stack, such as
Burgundy's choice of a die at the start of a turn). Steps that resolve themselves are
carried out as soon as they come to the top (`settle`).
"""

from __future__ import annotations

import dataclasses
import functools
import weakref
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from meeple_hall.games.core.contract import Decision, GameError, Option
from meeple_hall.games.core.messages import Msg, Text

S = TypeVar("S")
F = TypeVar("F")


@dataclass(frozen=True)
class Offer:
    """What a step asks: the prompt, the options (each with what it means to the rules),
    and how many to pick."""

    prompt: Text
    options: tuple[Option, ...]
    meanings: Mapping[str, Any] = field(default_factory=dict)
    min_choices: int = 1
    max_choices: int = 1

    @classmethod
    def of(
        cls,
        prompt: Text,
        choices: Iterable[tuple[str, Text, Any]],
        *,
        min_choices: int = 1,
        max_choices: int = 1,
    ) -> Offer:
        """An offer from (id, label, meaning) triples; a repeated id keeps its first."""
        options: dict[str, Option] = {}
        meanings: dict[str, Any] = {}
        for oid, label, meaning in choices:
            if oid not in options:
                options[oid] = Option(oid, label)
                meanings[oid] = meaning
        return cls(prompt, tuple(options.values()), meanings, min_choices, max_choices)


@dataclass(frozen=True)
class Chosen:
    """The choices a step is answered with, and what each means (from its `Offer`)."""

    ids: tuple[str, ...]
    meanings: tuple[Any, ...]

    @property
    def id(self) -> str:
        """The one choice of a pick-one step."""
        return self.ids[0]

    @property
    def meaning(self) -> Any:
        return self.meanings[0]


class Step(Generic[S, F]):
    """One kind of step. A subclass names its `kind` and writes `offer` and `perform`;
    `seat` and `resolves` have defaults."""

    kind: ClassVar[str]
    # False where `perform` reads only the chosen ids: answering such a step does not work
    # its offer out again for the meanings (its `Chosen.meanings` are None).
    reads_meanings: ClassVar[bool] = True
    # True where each option's `fields` are its meaning (the offer's meanings): a decision
    # asked is answered from its options' fields, without working the offer out again.
    meanings_in_fields: ClassVar[bool] = False

    def seat(self, state: S, frame: F) -> int:
        """Who answers: the frame's `seat` unless the step says otherwise."""
        return int(frame.seat)  # type: ignore[attr-defined]

    def offer(self, state: S, frame: F) -> Offer:
        raise NotImplementedError

    def perform(self, state: S, frame: F, chosen: Chosen) -> None:
        raise NotImplementedError

    def resolves(self, state: S, frame: F) -> tuple[str, ...] | None:
        """The choices this step answers itself with, or None when it asks its seat."""
        return None


class Steps(Generic[S, F]):
    """A game's step kinds and its pending-step stack."""

    def __init__(
        self,
        steps: Sequence[Step[S, F]],
        *,
        frames: Callable[[S], list[F]],
        kind_of: Callable[[F], str] = lambda frame: frame.kind,  # type: ignore[attr-defined]
        base: Callable[[S], F | None] = lambda state: None,
        asked: Callable[[S], list[F]] | None = None,
    ) -> None:
        self.by_kind: dict[str, Step[S, F]] = {}
        for step in steps:
            if step.kind in self.by_kind:
                raise ValueError(f"two steps of kind {step.kind!r}")
            self.by_kind[step.kind] = step
        self._frames, self._kind_of, self._base, self._asked = frames, kind_of, base, asked
        # id(decision) -> (a weak reference to it, its offer's meanings), while it lives
        self._offered: dict[int, tuple[weakref.ref[Decision], Mapping[str, Any]]] = {}

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset(self.by_kind)

    def step(self, frame: F) -> Step[S, F]:
        kind = self._kind_of(frame)
        try:
            return self.by_kind[kind]
        except KeyError:
            raise GameError(Msg("core.error.unknown_step", kind=kind)) from None

    # -- the stack ---------------------------------------------------------------------
    def push(self, state: S, frame: F) -> None:
        self._frames(state).append(frame)

    def top(self, state: S) -> F | None:
        """The step asked now: the top of the stack, else the game's base step."""
        stack = self._frames(state)
        return stack[-1] if stack else self._base(state)

    def asked(self, state: S) -> list[F]:
        """The frames asked now (one, unless the game asks several seats at once)."""
        if self._asked is not None:
            return self._asked(state)
        top = self.top(state)
        return [] if top is None else [top]

    # -- what the engine contract needs -------------------------------------------------
    def decision(self, state: S, frame: F) -> Decision:
        step = self.step(frame)
        offer = step.offer(state, frame)
        decision = Decision(
            seat=step.seat(state, frame),
            kind=step.kind,
            prompt=offer.prompt,
            options=offer.options,
            min_choices=offer.min_choices,
            max_choices=offer.max_choices,
        )
        if step.reads_meanings and not step.meanings_in_fields and offer.meanings:
            self._keep_meanings(decision, offer.meanings)
        return decision

    def _keep_meanings(self, decision: Decision, meanings: Mapping[str, Any]) -> None:
        """Keep what the options of `decision` mean for as long as it lives: a move made with
        it (`perform`, on a copy of its state) needs them, and a panel tries every option.
        Single dict operations, no lock: the callback may run in any thread, at any time."""
        key = id(decision)
        gone = functools.partial(_forget, self._offered, key)
        self._offered[key] = (weakref.ref(decision, gone), meanings)

    def _kept_meanings(self, decision: Decision, ids: tuple[str, ...]) -> dict[str, Any] | None:
        """What `ids` mean, kept from the offer `decision` was made from, where each meaning
        is immutable (a copy of the state may share it); else None (worked out again)."""
        kept = self._offered.get(id(decision))
        if kept is None or kept[0]() is not decision:
            return None
        meanings = {oid: kept[1].get(oid) for oid in ids}
        return meanings if all(map(_immutable, meanings.values())) else None

    def decisions(self, state: S) -> list[Decision]:
        return [self.decision(state, frame) for frame in self.asked(state)]

    def decision_of(self, state: S, seat: int, kinds: Collection[str]) -> Decision | None:
        """The seat's first decision in `state` where it is of one of `kinds`, else None
        (the seat not asked, or asked another kind), building no other frame's options: what
        a panel asks of every state it unfolds a line to (bot/panels.py)."""
        for frame in self.asked(state):
            step = self.step(frame)
            if step.seat(state, frame) != seat:
                continue
            return self.decision(state, frame) if step.kind in kinds else None
        return None

    def answer(
        self,
        state: S,
        frame: F,
        ids: tuple[str, ...],
        *,
        meanings: Mapping[str, Any] | None = None,
    ) -> None:
        """Carry out `ids` (already checked against the step's offer) for `frame`: the frame
        leaves the stack, then the step performs. `meanings`: what the ids mean, where the
        caller has them (else the step's offer is worked out again for them)."""
        step = self.step(frame)
        if meanings is None:
            meanings = step.offer(state, frame).meanings if step.reads_meanings else {}
        stack = self._frames(state)
        for i in range(len(stack) - 1, -1, -1):
            if stack[i] is frame:
                del stack[i]
                break
        step.perform(state, frame, Chosen(ids, tuple(meanings.get(oid) for oid in ids)))

    def perform(self, state: S, decision: Decision, ids: tuple[str, ...]) -> None:
        """Answer the asked frame `decision` was made from, then settle."""
        frame = self.frame_for(state, decision)
        meanings: Mapping[str, Any] | None
        if self.step(frame).meanings_in_fields:
            meanings = {oid: option.fields for oid in ids if (option := decision.option(oid))}
        else:
            # `decision` is the one asked of a state this one is a copy of (GameEngine.apply)
            meanings = self._kept_meanings(decision, ids)
        self.answer(state, frame, ids, meanings=meanings)
        self.settle(state)

    def frame_for(self, state: S, decision: Decision) -> F:
        for frame in self.asked(state):
            step = self.step(frame)
            if step.kind == decision.kind and step.seat(state, frame) == decision.seat:
                return frame
        raise GameError(Msg("core.error.unknown_step", kind=decision.kind))

    def settle(self, state: S, limit: int = 10_000) -> None:
        """Carry out every step that resolves itself, as long as one is asked."""
        for _ in range(limit):
            for frame in self.asked(state):
                ids = self.step(frame).resolves(state, frame)
                if ids is not None:
                    self.answer(state, frame, ids)
                    break
            else:
                return
        raise GameError(Msg("core.error.unknown_step", kind="settle"))


def _forget(kept: dict[int, Any], key: int, ref: weakref.ref[Any]) -> None:
    """A decision is gone: what its options meant goes too (unless a newer one took its id)."""
    if kept.get(key, (None,))[0] is ref:
        kept.pop(key, None)


_IMMUTABLE = frozenset({type(None), bool, int, float, str, bytes, Msg})


def _immutable(value: Any) -> bool:
    """Whether `value` can never change: a scalar, a message, or a tuple, frozenset or frozen
    dataclass of such values."""
    kind = type(value)
    if kind in _IMMUTABLE:
        return True
    if kind is tuple or kind is frozenset:
        return all(map(_immutable, value))
    params = getattr(kind, "__dataclass_params__", None)
    if params is None or not params.frozen:
        return False
    return all(_immutable(getattr(value, f.name)) for f in dataclasses.fields(value))
