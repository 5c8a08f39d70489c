"""Every message a game shows in a played game, collected for the typography checks: the
prompts and option labels of every decision, the log events, the status lines, every
message inside the spectator's and each seat's view, the options and the score categories,
each as the message itself (rendered later in each language)."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from meeple_hall.games import registry
from meeple_hall.games.core import Action, Msg
from meeple_hall.games.core.catalogues import score_category
from meeple_hall.games.core.messages import from_json
from meeple_hall.games.testing import random_choices

MAX_STEPS = 4_000
# The seats' views are the slow part (their logs keep the recent events): every few steps.
VIEW_EVERY = 3


class Messages:
    """The messages found so far. A message's JSON form met before, by identity, is not read
    again: a log event's JSON is one object in every view of every state after it
    (games/core/messages.py: event_json), so the views' logs are read once, not at every
    step; `walked` keeps each JSON form read alive, so that its id is not another's."""

    def __init__(self) -> None:
        self.found: set[Msg] = set()
        self.walked: dict[int, Any] = {}

    def add(self, value: Any) -> None:
        """Every message in a view (their JSON forms included), at any depth."""
        kind = type(value)
        if kind is str or kind is int or value is None:
            return
        if isinstance(value, Msg):
            self.found.add(value)
        elif isinstance(value, dict):
            if not isinstance(value.get("key"), str):
                for inner in value.values():
                    self.add(inner)
            elif id(value) not in self.walked:
                self.walked[id(value)] = value
                self.found.add(from_json(value))
        elif isinstance(value, list | tuple):
            for inner in value:
                self.add(inner)


def _game_messages(messages: Messages, game_id: str, num_players: int, seed: int) -> None:
    engine = registry.get(game_id)
    rng = random.Random(seed)
    state = engine.new(num_players=num_players, seed=seed)
    for step in range(MAX_STEPS):
        pending = engine.decisions(state)
        for decision in pending:
            messages.add([decision.prompt, *(o.label for o in decision.options)])
        messages.add(engine.view(state, None))
        if step % VIEW_EVERY == 0 or not pending:
            for seat in range(num_players):
                messages.add(engine.view(state, seat))
        if not pending:
            break
        decision = rng.choice(pending)
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    result = engine.result(state)
    if result is not None:
        for parts in result.breakdown:
            messages.add([score_category(game_id, category) for category in parts])


@cache
def shown_messages(game_id: str) -> frozenset[Msg]:
    """The messages a game shows over two played games (fewest and most players)."""
    engine = registry.get(game_id)
    messages = Messages()
    for num_players, seed in ((engine.min_players, 1), (engine.max_players, 2)):
        _game_messages(messages, game_id, num_players, seed)
    for spec in engine.options:
        messages.add([spec.label, spec.description])
        messages.add([choice.label for choice in spec.choices])
    return frozenset(messages.found)
