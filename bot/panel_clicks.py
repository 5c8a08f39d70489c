"""How many clicks a move takes through the panels: the model behind `bench/clicks.py` and
the click-count tests.

A player presses **Take turn** and answers the panel; after each move the panel shows the
seat's next decision in the same message. `clicks(...)` builds the panel exactly as the bot
does (`build_panel`), finds the button or menu line that makes the seat's next logged moves
(the longest chain of them one line makes) and counts the component interactions that
takes: a button or a menu choice is one, each page turned is one more, and a decision of
several choices kept until **Confirm** costs one per menu touched plus Confirm.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from meeple_hall.bot.live_game import LiveGame
from meeple_hall.bot.panels import (
    MENU_SIZE,
    MENUS_PER_PAGE,
    answer_sets,
    build_panel,
    pages,
    resolve_chain,
    uses_confirm,
)
from meeple_hall.bot.store import Seat, Table, TableStatus
from meeple_hall.games import Decision, Engine


class NoLine(LookupError):
    """No line of the panel makes the next logged move: a random player went one step into
    a folded decision and then chose Back, which a folded panel never offers (it offers
    Back on the decision itself)."""


@dataclass(frozen=True)
class Answer:
    """One interaction with a panel: `clicks` it took and the log entries (`moves`) it made."""

    clicks: int
    moves: int


def model_game(engine: Engine, state: Any, players: int, seq: int = 0) -> LiveGame:
    """A live game around `state` for building panels (never stored)."""
    seats = [Seat(user_id=1000 + n, name=f"P{n + 1}") for n in range(players)]
    table = Table(
        id=1,
        guild_id=None,
        channel_id=1,
        host_id=1000,
        game=engine.id,
        options={},
        seed=0,
        status=TableStatus.ACTIVE,
        seats=seats,
    )
    return LiveGame(table=table, engine=engine, state=state, seq=seq)


def clicks(
    game: LiveGame, seat: int, pending: Sequence[tuple[str, ...]], *, fold: bool = True
) -> Answer:
    """The interactions the seat's panel needs for the first of `pending` (its next logged
    moves, in order), and how many of them that one interaction makes."""
    decision = game.decision_for(seat)
    assert decision is not None, "the seat has nothing to decide"
    first = tuple(pending[0])
    several = decision.max_choices != 1 and answer_sets(game.engine.id, decision) is None
    if several or not first:
        return Answer(_multi_clicks(decision, first), 1)
    best: Answer | None = None
    for page in range(pages(decision)):
        _, view = build_panel(game, seat, decision, "en-US", page=page, fold=fold)
        for value in _values(view):
            steps = resolve_chain(game.engine, game.state, seat, decision, value)
            # a log that ends mid-line (a sample cut short) was made by the line so far
            made = min(len(steps or ()), len(pending))
            if steps is None or _as_sets(pending[:made]) != _as_sets(steps[:made]):
                continue
            if best is None or made > best.moves:
                best = Answer(1 + page, made)
        if best is not None:
            return best
    raise NoLine(f"no line of the panel makes {first} ({decision.kind})")


def _as_sets(moves: Sequence[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """Moves compared as the menu makes them: the picks of a choice of several in any order
    (a line of a set names them in the decision's order)."""
    return [tuple(sorted(move)) if len(move) > 1 else tuple(move) for move in moves]


def _values(view: Any) -> list[str]:
    """What each button and menu line of a panel stands for (`o:` ids and menu values)."""
    found = []
    for child in view.children:
        item = getattr(child, "item", child)
        options = getattr(item, "options", None)
        if options:
            found += [o.value for o in options]
            continue
        parts = str(getattr(item, "custom_id", "")).split(":")
        if len(parts) == 6 and parts[4] == "o":
            found.append(parts[5])
    return found


def _multi_clicks(decision: Decision, chosen: tuple[str, ...]) -> int:
    if not chosen:
        return 1  # "Choose none"
    if not uses_confirm(decision):
        return 1
    ids = [o.id for o in decision.options]
    per_page = MENU_SIZE * MENUS_PER_PAGE
    menus = {ids.index(c) // MENU_SIZE for c in chosen}
    last_page = max(ids.index(c) // per_page for c in chosen)
    return len(menus) + last_page + 1  # a pick per menu, page turns, Confirm
