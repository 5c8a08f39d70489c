"""The engine contract: the one surface the bot, the AI players and the tests use.

See shared DESIGN.md, "The engine contract". Every game package exposes an object that
satisfies `Engine`; nothing outside `games/` reaches into a game's state.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from meeple_hall.games.core.messages import Msg, Text

# The one grammar of option ids: a single token of ASCII letters, digits and a few safe
# marks. Whitespace and commas separate tokens in typed moves (`/move`), and colons separate
# the fields of a component's custom_id, so an id never holds any of them.
OPTION_ID = re.compile(r"[A-Za-z0-9_+\-./@]{1,32}")
# Log events a view gives (`view(...)["log"]`), and as many as the table's Log lists.
LOG_SHOWN = 15


def is_option_id(text: str) -> bool:
    return OPTION_ID.fullmatch(text) is not None


class GameError(Exception):
    """A request the engine cannot serve: unknown game, bad options, corrupt dump.

    `message` is what a player reads: a `Msg` rendered in their language (or plain text
    from a game not yet converted); `str(error)` is its English text."""

    def __init__(self, message: Text) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return str(self.message)


class IllegalAction(GameError):
    """An action the rules do not allow now. Its message is shown to the player: a game's
    own rule refusals are `IllegalAction(Msg("<game>.refuse.<why>", ...))`."""


class GameOver(IllegalAction):
    def __init__(self) -> None:
        super().__init__(Msg("core.refuse.game_over"))


class NotYourTurn(IllegalAction):
    def __init__(self, waiting: tuple[int, ...]) -> None:
        self.waiting = waiting
        seats = [Msg("core.seat", n=s + 1) for s in waiting]
        super().__init__(Msg("core.refuse.not_your_turn", waiting=seats))


class RepeatedChoice(IllegalAction):
    def __init__(self) -> None:
        super().__init__(Msg("core.refuse.repeated_choice"))


class WrongCount(IllegalAction):
    """Too few or too many options for the decision."""

    def __init__(self, prompt: Text, low: int, high: int, given: int) -> None:
        self.low, self.high, self.given = low, high, given
        if low == high:
            want = Msg("core.count.exactly", n=low)
        else:
            want = Msg("core.count.between", low=low, high=high)
        super().__init__(Msg("core.refuse.wrong_count", prompt=prompt, want=want, given=given))


class NotAChoice(IllegalAction):
    def __init__(self, prompt: Text, choice: str) -> None:
        self.choice = choice
        super().__init__(Msg("core.refuse.not_a_choice", prompt=prompt, choice=choice))


class StaleDecision(IllegalAction):
    """A decision given to `apply` that is not the state's own for that seat (a panel built
    for an earlier point of the game)."""

    def __init__(self, prompt: Text) -> None:
        super().__init__(Msg("core.refuse.stale_decision", prompt=prompt))


@dataclass(frozen=True, slots=True)
class Option:
    """One choice of a decision. `id` is a stable token of the `OPTION_ID` grammar (`S07`,
    `red`, `bank@12`); `label` a message (or plain text) shown in the reader's language;
    `fields` what the choice is, for presenters (`{"tile": "S07", "workers": 2}`): JSON-safe
    values, so nothing outside the engine parses an id or reads a label's key."""

    id: str
    label: Text
    fields: Mapping[str, Any] = field(default_factory=dict, hash=False)


@dataclass(frozen=True, slots=True, weakref_slot=True)
class Decision:
    """What one seat must decide now: pick `min_choices..max_choices` distinct options.
    (Weakly referable: the steps keep what its options meant while it lives.)"""

    seat: int
    kind: str
    prompt: Text
    options: tuple[Option, ...]
    min_choices: int = 1
    max_choices: int = 1

    def option(self, option_id: str) -> Option | None:
        return next((o for o in self.options if o.id == option_id), None)


@dataclass(frozen=True, slots=True)
class Action:
    """A seat's answer to its decision: the ids of the chosen options, in order."""

    seat: int
    choices: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "choices", tuple(self.choices))


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a game: scores and ranks by seat (rank 1 wins; ties share a rank) and
    each seat's points by scoring category, so the table can show how they came about."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    breakdown: tuple[dict[str, int], ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        for name in ("scores", "ranks", "breakdown"):
            object.__setattr__(self, name, tuple(getattr(self, name)))

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)


@dataclass(frozen=True, slots=True)
class GameOption:
    """A setup option a lobby can set before the start (`tiebreak`: `written`/`other`)."""

    id: str
    label: Text
    choices: tuple[Option, ...]
    default: str
    description: Text = ""


@runtime_checkable
class Engine(Protocol):
    """What every game provides. States are opaque to callers."""

    id: str
    name: str
    min_players: int
    max_players: int
    options: tuple[GameOption, ...]

    def new(self, num_players: int, seed: int, options: dict[str, str] | None = None) -> Any: ...

    def resolve_options(self, options: dict[str, str] | None) -> dict[str, str]:
        """The options with defaults filled in; GameError for unknown names or values."""
        ...

    def decisions(self, state: Any) -> list[Decision]: ...

    def apply(self, state: Any, action: Action, *, decision: Decision | None = None) -> Any:
        """The state after `action` (`state` itself unchanged); IllegalAction if it is not
        one of the offered choices. `decision`: the acting seat's decision in `state`, where
        the caller has it already (a panel trying each option of one decision passes it): one
        that `decisions(state)` gave is not worked out again; any other is compared with the
        state's own, and StaleDecision (an IllegalAction) refuses it if they differ."""
        ...

    def view(self, state: Any, seat: int | None) -> dict[str, Any]: ...

    def result(self, state: Any) -> Result | None: ...

    def determinize(self, state: Any, seat: int, seed: int) -> Any:
        """A state `seat` cannot tell from `state` (`view(result, seat) == view(state,
        seat)`): everything hidden from it (other seats' hands and screens, face-down
        stacks, bags) drawn again consistently with what it has seen, and the state's
        generators reseeded from `seed`, so a search on it learns no secret and no future
        draw. `state` itself is not changed."""
        ...

    def reveals(
        self,
        before: Any,
        action: Action,
        after: Any,
        *,
        views: Callable[[Any, int | None], dict[str, Any]] | None = None,
    ) -> bool:
        """Whether `action`, taking `before` to `after`, drew at random or showed anything
        hidden (a face-down component, or one seat's secret to another seat): no undo
        reaches back across such a move (games/core/undo.py). `views(state, seat)` answers
        as `view` does, from views the caller keeps already (else they are worked out)."""
        ...

    def dump(self, state: Any) -> str: ...

    def load(self, text: str) -> Any: ...


def ranks_from_scores(keys: list[tuple[Any, ...]] | list[int]) -> tuple[int, ...]:
    """Competition ranking (1, 1, 3, ...) by descending key; equal keys share a rank.

    A key is the score, or a tuple of score then tie-breakers, compared as the rules say.
    """
    order = sorted(keys, reverse=True)
    return tuple(order.index(key) + 1 for key in keys)
