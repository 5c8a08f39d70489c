"""Moves typed as text: `/move text:bid S07 red 2` walks the caller's decisions in order.

Each token answers one decision with the option id it names (case does not matter). A
decision that takes several options takes them comma-separated (`c12,c30`) or as
consecutive tokens. Autocomplete replays the typed tokens on a copy of the state and lists
the options of the decision they lead to, unless getting there would draw or turn over
something hidden: that is shown only once the move is made.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meeple_hall.bot.i18n import game_text
from meeple_hall.bot.refusals import Refusal, UnknownToken
from meeple_hall.games import Action, Decision, Engine, GameError
from meeple_hall.games.core.hidden import hidden_parts

NONE_TOKENS = {"-", "none"}


def _match(decision: Decision, token: str) -> str | None:
    lowered = token.lower()
    for option in decision.options:
        if option.id.lower() == lowered:
            return option.id
    return None


class MoveStream:
    """The tokens of a typed move, consumed one decision at a time."""

    def __init__(self, text: str) -> None:
        self.tokens = text.split()

    def __bool__(self) -> bool:
        return bool(self.tokens)

    def take(self, decision: Decision) -> tuple[str, ...]:
        token = self.tokens.pop(0)
        if token.lower() in NONE_TOKENS and decision.min_choices == 0:
            return ()
        choices = []
        for part in filter(None, token.split(",")):
            option = _match(decision, part)
            if option is None:
                raise UnknownToken(part, decision.prompt, _some_ids(decision))
            choices.append(option)
        while len(choices) < decision.max_choices and self.tokens:
            option = _match(decision, self.tokens[0])
            if option is None or option in choices:
                break
            choices.append(option)
            self.tokens.pop(0)
        return tuple(choices)


def _some_ids(decision: Decision, limit: int = 12) -> str:
    ids = [o.id for o in decision.options]
    return ", ".join(ids[:limit]) + (", …" if len(ids) > limit else "")


@dataclass(frozen=True)
class Completion:
    name: str
    value: str


def complete(
    engine: Engine, state: Any, seat: int, text: str, locale: str = "en", limit: int = 25
) -> list[Completion]:
    """What the caller could type next, given the tokens so far: each option's token as the
    value, shown with its label in the caller's language."""
    done, _, partial = text.rpartition(" ") if not text.endswith(" ") else (text, "", "")
    stream = MoveStream(done)
    secrets = hidden_parts(state)
    try:
        while stream:
            decision = _decision(engine, state, seat)
            if decision is None:
                return []
            state = engine.apply(state, Action(seat, stream.take(decision)))
    except (Refusal, GameError):
        return []
    if hidden_parts(state) != secrets:
        return []
    decision = _decision(engine, state, seat)
    if decision is None:
        return []
    prefix = f"{done.strip()} " if done.strip() else ""
    lowered = partial.lower()
    labels = {o.id: game_text(locale, o.label) for o in decision.options}
    matches = [o for o in decision.options if o.id.lower().startswith(lowered)]
    matches += [
        o
        for o in decision.options
        if o not in matches and lowered and lowered in labels[o.id].lower()
    ]
    return [
        Completion(f"{prefix}{o.id} — {labels[o.id]}", f"{prefix}{o.id}") for o in matches[:limit]
    ]


def _decision(engine: Engine, state: Any, seat: int) -> Decision | None:
    return next((d for d in engine.decisions(state) if d.seat == seat), None)
