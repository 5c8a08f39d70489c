"""A base class that turns a game's rules into the engine contract.

A game supplies `setup`, `decisions`, `perform`, `view` and `result`. The base class
checks options and player counts, refuses any action that is not one of the offered
choices (with a message a player can read), works on a copy so that a refused action
leaves the caller's state untouched, and dumps and loads the state dataclass.
"""

from __future__ import annotations

import copy
import functools
import weakref
from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

from meeple_hall.games.core import hidden, serial
from meeple_hall.games.core.catalogues import game_name
from meeple_hall.games.core.contract import (
    Action,
    Decision,
    GameError,
    GameOption,
    GameOver,
    NotAChoice,
    NotYourTurn,
    RepeatedChoice,
    Result,
    StaleDecision,
    WrongCount,
)
from meeple_hall.games.core.messages import Msg
from meeple_hall.games.core.rng import Rng

S = TypeVar("S")

Views = Callable[[Any, "int | None"], dict[str, Any]]
"""`(state, seat) -> view`: what `view` answers, from wherever the caller keeps it."""


class GameEngine(Generic[S]):
    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[GameOption, ...]] = ()
    # The rules' automa opponent that plays beside the seats, by seat count: (seats, its
    # name) pairs. The tables list it among the players.
    automa: ClassVar[tuple[tuple[int, Msg], ...]] = ()
    state_type: ClassVar[type]

    # -- what a game writes -------------------------------------------------------
    def setup(self, num_players: int, rng: Rng, options: dict[str, str]) -> S:
        raise NotImplementedError

    def decisions(self, state: S) -> list[Decision]:
        raise NotImplementedError

    def perform(self, state: S, decision: Decision, choices: tuple[str, ...]) -> None:
        """Carry out a validated action on `state` (a private copy) in place."""
        raise NotImplementedError

    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        raise NotImplementedError

    def result(self, state: S) -> Result | None:
        raise NotImplementedError

    # Fields marked HIDDEN that the game's `resample_private` deals again itself
    # (`Class.field`), because part of them is open (André's top contract).
    resampled_by_game: ClassVar[frozenset[str]] = frozenset()

    def resample_private(self, state: S, seat: int, rng: Rng) -> None:
        """Draw again, in place, what other seats hold in secret (hands, screens), from
        what `seat` cannot see, keeping what it can (how many each holds). Games with
        secrets beyond face-down stacks override this."""

    def shows_secret(self, before: S, action: Action, after: S) -> bool:
        """Whether the action shows others something that was secret and that neither the
        marks (HIDDEN, TURNED_UP, generators) nor other seats' private views catch: a seat's
        own secret played openly (workers from behind a screen), or secret choices made at
        the same time shown together. Games with such moves override this."""
        return False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("decisions")
        if own is not None:
            cls.decisions = _remembering(own)  # type: ignore[method-assign, assignment]

    # -- the contract ---------------------------------------------------------------
    def new(self, num_players: int, seed: int, options: dict[str, str] | None = None) -> S:
        if not isinstance(num_players, int) or not (
            self.min_players <= num_players <= self.max_players
        ):
            raise GameError(
                Msg(
                    "core.error.player_count",
                    game=game_name(self.id, self.name),
                    low=self.min_players,
                    high=self.max_players,
                    given=str(num_players),
                )
            )
        return self.setup(num_players, Rng.from_seed(seed), self.resolve_options(options))

    def resolve_options(self, options: dict[str, str] | None) -> dict[str, str]:
        """Fill in defaults and refuse unknown option names or values."""
        known = {o.id: o for o in self.options}
        given = dict(options or {})
        for key, value in given.items():
            spec = known.get(key)
            if spec is None:
                raise GameError(
                    Msg(
                        "core.error.no_option",
                        game=game_name(self.id, self.name),
                        option=key,
                        options=list(known) or "-",
                    )
                )
            if value not in {c.id for c in spec.choices}:
                allowed = [c.id for c in spec.choices]
                raise GameError(
                    Msg("core.error.bad_choice", option=key, allowed=allowed, given=value)
                )
        return {o.id: given.get(o.id, o.default) for o in self.options}

    def apply(self, state: S, action: Action, *, decision: Decision | None = None) -> S:
        if decision is None or decision.seat != action.seat:
            decision = self.decision_for(state, action.seat)
        else:
            # the very object the state's decisions gave (what its options meant is kept
            # with it: games/core/steps.py)
            given = self._given_like(state, decision)
            if given is None:
                given = self.decision_for(state, action.seat)
                if given != decision:
                    raise StaleDecision(decision.prompt)
            decision = given
        self.check_choices(decision, action.choices)
        new_state = copy.deepcopy(state)
        self.perform(new_state, decision, tuple(action.choices))
        return new_state

    def decision_for(self, state: S, seat: int) -> Decision:
        pending = self.decisions(state)
        if not pending:
            raise GameOver()
        for decision in pending:
            if decision.seat == seat:
                return decision
        raise NotYourTurn(tuple(d.seat for d in pending))

    def _given_like(self, state: S, decision: Decision) -> Decision | None:
        """The decision `decisions(state)` last gave that is `decision` or equal to it (a
        view or a check that asked again replaced the list a panel's decision came from,
        and working the decisions out once more is what `apply` saves), else None."""
        given = self._given().get(id(state))
        if given is None or given[0]() is not state:
            return None
        return next((own for own in given[1] if own == decision), None)

    def _remember(self, state: S, pending: list[Decision]) -> None:
        """Keep what `decisions(state)` gave, for as long as `state` lives: a panel tries the
        options of a decision worked out a while before (other tables' states between)."""
        key, given = id(state), self._given()
        known = given.get(key)
        if known is not None and known[0]() is state:
            given[key] = (known[0], pending)
            return
        # Single dict operations, no lock: the callback may run in any thread, at any time.
        gone = functools.partial(_forget, given, key)
        given[key] = (weakref.ref(state, gone), pending)

    def _given(self) -> dict[int, tuple[weakref.ref[Any], list[Decision]]]:
        try:
            return self.__dict__["_decisions_given"]
        except KeyError:
            return self.__dict__.setdefault("_decisions_given", {})

    @staticmethod
    def check_choices(decision: Decision, choices: tuple[str, ...]) -> None:
        if len(set(choices)) != len(choices):
            raise RepeatedChoice()
        n = len(choices)
        if not decision.min_choices <= n <= decision.max_choices:
            raise WrongCount(decision.prompt, decision.min_choices, decision.max_choices, n)
        for choice in choices:
            if decision.option(choice) is None:
                raise NotAChoice(decision.prompt, choice)

    def determinize(self, state: S, seat: int, seed: int) -> S:
        """A state `seat` cannot tell from `state`: other seats' secrets, face-down stacks
        and every generator's future drawn again from `seed`. `state` is not changed."""
        rng = Rng.from_seed(seed)
        out = copy.deepcopy(state)
        self.resample_private(out, seat, rng)
        hidden.resample_face_down(out, rng, skip=self.resampled_by_game)
        hidden.reseed(out, rng)
        return out

    def reveals(self, before: S, action: Action, after: S, *, views: Views | None = None) -> bool:
        """A move reveals when it draws or turns anything over (a generator or a marked field
        changes), when it changes what another seat holds in secret (its private view), when
        it ends the game (the final scoring counts every secret), or when the game says it
        shows a secret (`shows_secret`). `views` gives the views of `before` and `after`
        where the caller keeps them already (else they are worked out)."""
        if hidden.hidden_parts(before) != hidden.hidden_parts(after) or not self.decisions(after):
            return True
        view = views or self.view
        public_before, public_after = view(before, None), view(after, None)
        for seat in range(int(public_before["num_players"])):
            if seat != action.seat and _private(view(before, seat), public_before) != (
                _private(view(after, seat), public_after)
            ):
                return True
        return self.shows_secret(before, action, after)

    def dump(self, state: S) -> str:
        return serial.dumps(state)

    def load(self, text: str) -> S:
        data = serial.parse(self.state_type, text)
        state: S = serial.decode_saved(self.state_type, data)
        if serial.written_sorted(self.state_type, data):
            self.restore_order(state)
        return state

    def restore_order(self, state: S) -> None:
        """Give a state loaded from a dump that sorted its dicts' keys the order the live
        game holds them in, where setup fixes it (cooperatives, goods, colours): the order
        of a new game's. Dicts that fill up in play keep their keys sorted."""
        num_players = int(self.view(state, None)["num_players"])
        model = self.setup(num_players, Rng.from_seed(0), self.resolve_options(None))
        serial.reorder_like(state, model)


def _forget(given: dict[int, Any], key: int, ref: weakref.ref[Any]) -> None:
    """A remembered state is gone: its entry goes too (unless a newer state took its id)."""
    if given.get(key, (None,))[0] is ref:
        given.pop(key, None)


def _remembering(
    decisions: Callable[[Any, Any], list[Decision]],
) -> Callable[[Any, Any], list[Decision]]:
    """A game's `decisions`, also remembering what it gave for the state (see `apply`)."""

    @functools.wraps(decisions)
    def remembered(self: GameEngine[Any], state: Any) -> list[Decision]:
        pending = decisions(self, state)
        self._remember(state, pending)
        return pending

    return remembered


def _private(view: dict[str, Any], public: dict[str, Any]) -> dict[str, Any]:
    """The parts of a seat's view that the spectator's view does not have."""
    return {k: v for k, v in view.items() if public.get(k) != v}
