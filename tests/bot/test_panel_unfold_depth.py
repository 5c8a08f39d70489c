"""A panel unfolds its options no deeper than lines that could still fit (issue 29: the bot's
side of a move). `panel_lines` used to unfold every option through every folded decision
after it, one move applied a line, then cut the chains that did not fit the page back to
fewer steps: a Coffee Traders Sell panel applied some 300 moves for 100 lines. It now
unfolds depth first and stops where the lines found cut to some number of steps already
pass the room the option could still get. The lines are the ones the whole unfolding cut
to fit gives (`eager_lines` below, the old way), in the same order, with fewer moves tried.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from meeple_hall import games
from meeple_hall.bot import presenters
from meeple_hall.bot.panels import (
    FOLD_MAX_DEPTH,
    FOLD_MAX_LINES,
    FOLD_MAX_OPTIONS,
    STEP_BACK,
    Line,
    answer_sets,
    panel_lines,
    step_option,
)
from meeple_hall.games import Action, Decision, GameError
from meeple_hall.games.core.hidden import hidden_parts


def eager_lines(engine, state, seat: int, decision: Decision, folded) -> list[Line]:
    """The lines as panels worked them out before: each option unfolded to the end, then
    the options whose chains fit whole, then the others cut to as many steps as fit."""
    sets = answer_sets(engine.id, decision)
    if sets is None:
        plain = [Line((decision,), (o.id,), (o,)) for o in decision.options]
    else:
        plain = [Line((decision,), (a,), (step_option(decision, a),)) for a in sets]
    if not folded or (decision.max_choices != 1 and sets is None) or len(plain) > FOLD_MAX_LINES:
        return plain
    secrets = hidden_parts(state)
    walked = [_chains(engine, seat, folded, secrets, state, decision, line, 0) for line in plain]
    room = FOLD_MAX_LINES - len(plain)
    unfolded: dict[int, list[Line]] = {}
    for whole in (True, False):
        for index, chains in enumerate(walked):
            fitting = _fitting(chains, room, whole)
            if index not in unfolded and fitting and fitting != [plain[index]]:
                unfolded[index] = fitting
                room -= len(fitting) - 1
    return [line for index, one in enumerate(plain) for line in unfolded.get(index, [one])]


def _fitting(chains: list[Line], room: int, whole: bool) -> list[Line]:
    longest = max((len(c.steps) for c in chains), default=0)
    for depth in range(longest, longest - 1 if whole else 1, -1):
        cut = {c.steps[:depth]: c for c in chains}
        if len(cut) - 1 <= room:
            return [
                Line(c.decisions[:depth], c.steps[:depth], c.known and c.known[:depth])
                for c in cut.values()
            ]
    return []


def _chains(engine, seat, folded, secrets, state, decision, line: Line, depth: int) -> list[Line]:
    try:
        after = engine.apply(state, Action(seat, line.moves[-1]), decision=decision)
    except GameError:
        return []
    follows = next((d for d in engine.decisions(after) if d.seat == seat), None)
    if (
        follows is None
        or depth >= FOLD_MAX_DEPTH
        or follows.kind not in folded
        or not presenters.folds_after(engine.id, decision.kind, follows.kind)
        or len(follows.options) > FOLD_MAX_OPTIONS
        or hidden_parts(after) != secrets
    ):
        return [line]
    sets = answer_sets(engine.id, follows)
    if sets is None and (follows.min_choices, follows.max_choices) != (1, 1):
        return [line]
    found: list[Line] = []
    for answer in sets or [o.id for o in follows.options]:
        option = step_option(follows, answer)
        if option is None or answer in STEP_BACK:
            continue
        if sets is None and not presenters.folds_answer(engine.id, follows.kind, option):
            if line not in found:
                found.append(line)
            continue
        known = (*line.known, option) if line.known is not None else None
        longer = Line((*line.decisions, follows), (*line.steps, answer), known)
        if not presenters.folds_line(engine.id, longer.decisions, longer.options):
            if line not in found:
                found.append(line)
            continue
        found += _chains(engine, seat, folded, secrets, after, follows, longer, depth + 1)
    return found or [line]


class Counted:
    """The engine's moves applied, counted."""

    def __init__(self, engine: Any) -> None:
        self.engine, self.applied = engine, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def apply(self, *args: Any, **kwargs: Any) -> Any:
        self.applied += 1
        return self.engine.apply(*args, **kwargs)


def panels_of_a_game(game_id: str, players: int, seed: int, moves: int):
    """Each panel of a seeded random game (a random line of each): the lines now and the
    old way, and the moves each applied."""
    engine = games.get(game_id)
    folded = presenters.folded_kinds(game_id)
    rng = random.Random(seed)
    state = engine.new(players, seed)
    for _ in range(moves):
        pending = engine.decisions(state)
        if not pending or engine.result(state) is not None:
            return
        decision = pending[0]
        seat = decision.seat
        now, then = Counted(engine), Counted(engine)
        lines = panel_lines(now, state, seat, decision, folded)
        old = eager_lines(then, state, seat, decision, folded)
        yield lines, old, now.applied, then.applied
        if decision.max_choices == 1 or answer_sets(game_id, decision) is not None:
            moves_made = rng.choice(lines).moves
        else:
            ids = [o.id for o in decision.options]
            count = rng.randint(decision.min_choices, min(decision.max_choices, len(ids)))
            moves_made = (tuple(rng.sample(ids, count)),)
        for index, choices in enumerate(moves_made):
            asked = (
                decision
                if index == 0
                else next(d for d in engine.decisions(state) if d.seat == seat)
            )
            state = engine.apply(state, Action(seat, choices), decision=asked)


def same(lines: list[Line], old: list[Line]) -> bool:
    return [(x.decisions, x.steps, x.known) for x in lines] == [
        (x.decisions, x.steps, x.known) for x in old
    ]


@pytest.mark.slow
@pytest.mark.parametrize(
    "game_id, players, seed",
    [("coffee", 4, 2), ("burgundy", 2, 1), ("keyflower", 3, 1), ("village", 3, 1)],
)
def test_the_lines_are_the_whole_unfoldings_cut_to_fit(game_id, players, seed):
    panels = 0
    for lines, old, _, _ in panels_of_a_game(game_id, players, seed, 60):
        assert same(lines, old)
        panels += 1
    assert panels == 60


def test_a_panel_cut_to_fit_tries_fewer_moves():
    """Coffee Traders' Sell panels whose deliveries' chains are cut to fit (moves 30-34 of
    this game, 77-98 lines) try fewer moves than unfolding them whole, and no panel tries
    more; every panel's lines are the same."""
    fewer = 0
    for lines, old, applied, applied_then in panels_of_a_game("coffee", 2, 3, 35):
        assert same(lines, old)
        assert applied <= applied_then
        fewer += applied < applied_then
    assert fewer >= 3


# -- the seat's next decision, of the kinds that may fold only --------------------------


def random_states(game_id: str, players: int, seed: int, moves: int):
    engine = games.get(game_id)
    rng = random.Random(seed)
    state = engine.new(players, seed)
    for _ in range(moves):
        yield state
        pending = engine.decisions(state)
        if not pending:
            return
        decision = rng.choice(pending)
        ids = [o.id for o in decision.options]
        count = rng.randint(decision.min_choices, min(decision.max_choices, len(ids)))
        action = Action(decision.seat, tuple(rng.sample(ids, count)))
        state = engine.apply(state, action, decision=decision)


@pytest.mark.parametrize("game_id", ["coffee", "burgundy"])
def test_decision_of_is_the_seats_first_decision_of_those_kinds(game_id):
    engine = games.get(game_id)
    folded = presenters.folded_kinds(game_id)
    for state in random_states(game_id, 3, 2, 150):
        pending = engine.decisions(state)
        for seat in range(3):
            first = next((d for d in pending if d.seat == seat), None)
            for kinds in (folded, frozenset(engine.steps.kinds), frozenset()):
                wanted = first if first is not None and first.kind in kinds else None
                assert engine.decision_of(state, seat, kinds) == wanted


class Asked(Counted):
    """The engine, counting the moves applied and the calls for every seat's decisions."""

    def __init__(self, engine: Any) -> None:
        super().__init__(engine)
        self.asked = 0

    def decisions(self, state: Any) -> Any:
        self.asked += 1
        return self.engine.decisions(state)


def test_a_panel_works_out_no_other_seats_decisions():
    """A Coffee Traders Sell panel asks the states it tries for the seat's decision of a
    folded kind only (`decision_of`): never for every seat's decisions, though most of
    those states ask another seat (the next player's Sell turn)."""
    engine = games.get("coffee")
    state = next(
        s
        for s in random_states("coffee", 2, 3, 400)
        if any(d.kind == "sell" and len(d.options) > 5 for d in engine.decisions(s))
    )
    decision = engine.decisions(state)[0]
    asked = Asked(engine)
    lines = panel_lines(asked, state, decision.seat, decision, presenters.folded_kinds("coffee"))
    assert len(lines) > len(decision.options)  # a delivery and what follows it, folded
    assert asked.applied > len(decision.options)
    assert asked.asked == 0
