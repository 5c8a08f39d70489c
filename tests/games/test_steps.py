"""games/core/steps.py: one step shape and one pending-step stack, on a small game of its own."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from meeple_hall.games.core import Decision, GameError, Msg, Option
from meeple_hall.games.core.steps import Chosen, Offer, Step, Steps


@dataclass
class Frame:
    kind: str
    seat: int = 0
    n: int = 0


@dataclass
class Race:
    """Two seats count a pile down; taking the last one asks both seats to cheer at once."""

    pile: int
    turn: int = 0
    stack: list[Frame] = field(default_factory=list)
    said: list[str] = field(default_factory=list)


class Take(Step[Race, Frame]):
    kind = "take"

    def seat(self, state: Race, frame: Frame) -> int:
        return state.turn

    def offer(self, state: Race, frame: Frame) -> Offer:
        return Offer.of(
            Msg("take"), [(str(n), Msg("n", n=n), n) for n in (1, 2, 2) if n <= state.pile]
        )

    def perform(self, state: Race, frame: Frame, chosen: Chosen) -> None:
        state.pile -= chosen.meaning
        state.turn = 1 - state.turn
        if state.pile == 0:
            for seat in (0, 1):
                STEPS.push(state, Frame("cheer", seat=seat))
        elif state.pile == 1:
            STEPS.push(state, Frame("last"))


class Last(Step[Race, Frame]):
    """One left: it takes itself."""

    kind = "last"

    def seat(self, state: Race, frame: Frame) -> int:
        return state.turn

    def offer(self, state: Race, frame: Frame) -> Offer:
        return Offer.of(Msg("last"), [("1", Msg("n", n=1), 1)])

    def perform(self, state: Race, frame: Frame, chosen: Chosen) -> None:
        state.said.append(f"last by {state.turn}")
        Take().perform(state, frame, chosen)

    def resolves(self, state: Race, frame: Frame) -> tuple[str, ...] | None:
        return ("1",)


class Cheer(Step[Race, Frame]):
    kind = "cheer"

    def offer(self, state: Race, frame: Frame) -> Offer:
        return Offer.of(
            Msg("cheer"),
            [("hip", Msg("hip"), "hip"), ("hooray", Msg("hooray"), "hooray")],
            min_choices=1,
            max_choices=2,
        )

    def perform(self, state: Race, frame: Frame, chosen: Chosen) -> None:
        state.said.append(f"{frame.seat}:{'+'.join(chosen.meanings)}")


def cheering(state: Race) -> list[Frame]:
    cheers = [f for f in state.stack if f.kind == "cheer"]
    return cheers or ([state.stack[-1]] if state.stack else [])


STEPS: Steps[Race, Frame] = Steps(
    [Take(), Last(), Cheer()],
    frames=lambda s: s.stack,
    base=lambda s: Frame("take") if s.pile else None,
    asked=lambda s: cheering(s) or ([Frame("take")] if s.pile else []),
)


def test_the_base_step_is_asked_when_the_stack_is_empty() -> None:
    state = Race(pile=5)
    (decision,) = STEPS.decisions(state)
    assert decision.kind == "take" and decision.seat == 0
    assert [o.id for o in decision.options] == ["1", "2"], "a repeated id keeps its first"
    STEPS.perform(state, decision, ("2",))
    assert state.pile == 3 and state.turn == 1 and state.stack == []


def test_a_step_that_resolves_itself_is_carried_out_when_it_comes_to_the_top() -> None:
    state = Race(pile=3)
    STEPS.perform(state, STEPS.decisions(state)[0], ("2",))
    assert state.said == ["last by 1"], "one left: taken at once by the next seat"
    assert state.pile == 0
    decisions = STEPS.decisions(state)
    assert [(d.kind, d.seat) for d in decisions] == [("cheer", 0), ("cheer", 1)]


def test_several_seats_asked_at_once_answer_in_any_order_and_each_frame_leaves() -> None:
    state = Race(pile=1)
    STEPS.perform(state, STEPS.decisions(state)[0], ("1",))
    second = next(d for d in STEPS.decisions(state) if d.seat == 1)
    STEPS.perform(state, second, ("hooray", "hip"))
    (first,) = STEPS.decisions(state)
    STEPS.perform(state, first, ("hip",))
    assert state.said == ["1:hooray+hip", "0:hip"]
    assert state.stack == [] and STEPS.decisions(state) == []


def test_a_decision_of_no_asked_step_is_refused() -> None:
    state = Race(pile=4)
    stray = Decision(seat=1, kind="cheer", prompt=Msg("cheer"), options=())
    with pytest.raises(GameError):
        STEPS.perform(state, stray, ("hip",))
    assert state.pile == 4


def test_kinds_are_declared_once() -> None:
    assert STEPS.kinds == {"take", "last", "cheer"}
    with pytest.raises(ValueError):
        Steps([Take(), Take()], frames=lambda s: s.stack)


class Shout(Step[Race, Frame]):
    """A step whose perform reads only the ids: answering it does not ask for its offer."""

    kind = "shout"
    reads_meanings = False
    offers = 0

    def offer(self, state: Race, frame: Frame) -> Offer:
        Shout.offers += 1
        return Offer.of(Msg("shout"), [("hey", Msg("hey"), "meaning")])

    def perform(self, state: Race, frame: Frame, chosen: Chosen) -> None:
        state.said.append(f"{chosen.id}:{chosen.meaning}")


def test_a_step_that_reads_no_meanings_is_answered_without_its_offer() -> None:
    steps: Steps[Race, Frame] = Steps([Shout()], frames=lambda s: s.stack)
    state = Race(pile=0, stack=[Frame("shout")])
    (decision,) = steps.decisions(state)
    before = Shout.offers
    steps.perform(state, decision, ("hey",))
    assert Shout.offers == before, "no offer worked out again to answer it"
    assert state.said == ["hey:None"] and state.stack == []


class Call(Step[Race, Frame]):
    """A step whose options' fields are their meanings: answered from the decision asked."""

    kind = "call"
    meanings_in_fields = True
    offers = 0

    def offer(self, state: Race, frame: Frame) -> Offer:
        Call.offers += 1
        options = (
            Option("odd", Msg("odd"), {"parity": 1}),
            Option("even", Msg("even"), {"parity": 0}),
        )
        return Offer(Msg("call"), options, {o.id: o.fields for o in options})

    def perform(self, state: Race, frame: Frame, chosen: Chosen) -> None:
        state.said.append(f"{chosen.id}:{chosen.meaning['parity']}")


def test_a_step_whose_fields_are_its_meanings_is_answered_from_the_decision() -> None:
    steps: Steps[Race, Frame] = Steps([Call()], frames=lambda s: s.stack)
    state = Race(pile=0, stack=[Frame("call")])
    (decision,) = steps.decisions(state)
    before = Call.offers
    steps.perform(state, decision, ("even",))
    assert Call.offers == before, "no offer worked out again to answer it"
    assert state.said == ["even:0"] and state.stack == []
    # Answered directly (as `settle` does), the offer is worked out for the meanings.
    state.stack.append(Frame("call"))
    steps.answer(state, state.stack[-1], ("odd",))
    assert Call.offers == before + 1 and state.said == ["even:0", "odd:1"]
