"""Every message a game shows in a played game, collected for the typography checks: the
prompts and option labels of every decision, the log events, the status lines, every
message inside the spectator's and each seat's view, the options and the score categories,
each as the message itself (rendered later in each language)."""

from __future__ import annotations

import random
from collections.abc import Iterator
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


def messages_in(value: Any) -> Iterator[Msg]:
    """Every message in a view (their JSON forms included), at any depth."""
    value = from_json(value)
    if isinstance(value, Msg):
        yield value
    elif isinstance(value, dict):
        for inner in value.values():
            yield from messages_in(inner)
    elif isinstance(value, list | tuple):
        for inner in value:
            yield from messages_in(inner)


def _game_messages(game_id: str, num_players: int, seed: int) -> Iterator[Msg]:
    engine = registry.get(game_id)
    rng = random.Random(seed)
    state = engine.new(num_players=num_players, seed=seed)
    for step in range(MAX_STEPS):
        pending = engine.decisions(state)
        for decision in pending:
            yield from messages_in([decision.prompt, *(o.label for o in decision.options)])
        yield from messages_in(engine.view(state, None))
        if step % VIEW_EVERY == 0 or not pending:
            for seat in range(num_players):
                yield from messages_in(engine.view(state, seat))
        if not pending:
            break
        decision = rng.choice(pending)
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    result = engine.result(state)
    if result is not None:
        for parts in result.breakdown:
            yield from messages_in([score_category(game_id, category) for category in parts])


@cache
def shown_messages(game_id: str) -> frozenset[Msg]:
    """The messages a game shows over two played games (fewest and most players)."""
    engine = registry.get(game_id)
    found: set[Msg] = set()
    for num_players, seed in ((engine.min_players, 1), (engine.max_players, 2)):
        found.update(_game_messages(game_id, num_players, seed))
    for spec in engine.options:
        found.update(messages_in([spec.label, spec.description]))
        found.update(messages_in([choice.label for choice in spec.choices]))
    return frozenset(found)
