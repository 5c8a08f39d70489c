"""Two clicks (issue 29, item 2), session 14: the moves of Coffee Traders' Sell phase still
over two clicks. A choice of several (the coffee for a "different kinds" space of a Coffee
Bar, the Stock counters put back for a warehouse) is offered as one line per set of it, so
that what follows folds into it: the coffee with the Arabica step a wild Animal counter
brings or the delivery after it, the counters with the coffee the warehouse's production
station gains; a first delivery to a "different kinds" space takes its coffee in the same
line; a trade after a first delivery (buying coffee, a bonus) takes a delivery it makes
possible. Each a click fewer. Through SimCord in en, zh-TW and ja: one click makes the
moves the separate clicks make (a choice of several the moves its menu makes), and leaves
the same game.

Only Coffee Traders' panels fold these: Keyflower's carries, The Castles of Burgundy's
castle chains and Village's last moves over two are left (bench/README.md says why)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from meeple_hall import games
from meeple_hall.bot.panels import (
    CHAIN_SEP,
    FOLD_MAX_LINES,
    PICK_SEP,
    Line,
    line_styles,
    offered_lines,
    panel_lines,
    resolve_chain,
)
from meeple_hall.bot.presenters import folded_kinds
from meeple_hall.games import Action
from tests.bot.conftest import plan_turn, seated_member, start_game
from tests.bot.test_two_clicks import (
    ALL_LANGUAGES,
    kinds_of,
    logged_since,
    seated,
    shown_labels,
    step_by_step,
)


def sets_a_choice_of_several(line: Line) -> bool:
    return any(PICK_SEP in step for step in line.steps)


# game, the panel's decision kind, which of its lines is the new fold, and the seed of the
# random players that reach it (a line of several decisions, one click)
CASES: dict[str, tuple[str, str, Callable[[Line], bool], int]] = {
    "mixed coffee and what follows": (
        "coffee",
        "mixed_pay",
        lambda line: sets_a_choice_of_several(line) and len(line.steps) > 1,
        1,
    ),
    "a delivery to different kinds with its coffee": (
        "coffee",
        "sell",
        lambda line: kinds_of(line)[:2] == ("sell", "mixed_pay"),
        1,
    ),
    "a trade and the delivery after it": (
        "coffee",
        "sell_second",
        lambda line: kinds_of(line) == ("sell_second", "sell_second"),
        1,
    ),
}


async def answer_until(table, game, kind: str, wanted, seed: int, most: int = 1500):
    """Each seat answers its decisions, a random legal answer typed with `/move`, until a
    decision of `kind` offers a line `wanted` accepts: that seat and the line."""
    rng = random.Random(seed)
    for _ in range(most):
        pending = game.decisions()
        assert pending, "the game ended first"
        decision = pending[0]
        if decision.kind == kind:
            lines = offered_lines(game, decision.seat, decision)
            found = next((line for line in lines if wanted(line)), None)
            if found is not None:
                return decision.seat, found
        token = plan_turn(game, decision.seat, rng, most=1)[0]
        await seated_member(table, game, decision.seat).slash(table.channel, "move", text=token)
    raise AssertionError(f"no such line in {most} moves")


@pytest.mark.slow
@pytest.mark.parametrize("language", ALL_LANGUAGES)
@pytest.mark.parametrize("case", sorted(CASES))
async def test_a_sell_turns_steps_fold_into_one_click(table, case, language):
    game_id, kind, wanted, seed = CASES[case]
    game = await start_game(table, table.bob, table.carol, game=game_id)
    seat, line = await answer_until(table, game, kind, wanted, seed)
    player = await seated(table, game, language, seat)
    before, seq = game.state, game.seq
    panel = await player.take_turn(table)
    decision = game.decision_for(seat)
    lines = offered_lines(game, seat, decision)
    assert len(lines) <= FOLD_MAX_LINES
    styles = line_styles(game_id, lines, language)
    shown = shown_labels(panel)[line.value]
    assert shown == styles[line.value].label[: len(shown)]
    assert all(len(s.label or "") <= 100 for s in styles.values())
    await player.pick(panel, line.value)

    assert player.clicks == 1
    moves = [tuple(step.split(PICK_SEP)) for step in line.value.split(CHAIN_SEP)]
    assert len(moves) > 1
    assert await logged_since(table, game, seq) == moves
    apart = step_by_step(game, before, seat, moves)
    assert game.engine.dump(game.state) == game.engine.dump(apart)


def first_choice_of_several(kind: str, seed: int = 1):
    """A random Coffee Traders game's first decision of `kind` (a choice of several)."""
    engine = games.get("coffee")
    rng, state = random.Random(seed), engine.new(3, seed)
    while pending := engine.decisions(state):
        decision = pending[0]
        if decision.kind == kind:
            return engine, state, decision
        token = plan_turn_state(engine, state, decision.seat, rng)
        state = engine.apply(state, Action(decision.seat, token))
    raise AssertionError(f"no {kind} in the sample")


def plan_turn_state(engine, state, seat: int, rng) -> tuple[str, ...]:
    from meeple_hall.games.testing import random_choices

    decision = next(d for d in engine.decisions(state) if d.seat == seat)
    return tuple(random_choices(decision, rng))


@pytest.mark.parametrize("kind", ["mixed_pay", "stock"])
def test_a_choice_of_several_is_one_line_per_set_each_the_menus_move(kind):
    """Every line of a choice of several offered as sets is a legal answer the menu of
    several choices could make (as many picks as it asks, each once), and its value resolves
    to that move."""
    engine, state, decision = first_choice_of_several(kind)
    lines = panel_lines(engine, state, decision.seat, decision, folded_kinds("coffee"))
    firsts = {line.steps[0] for line in lines}
    assert firsts and all(PICK_SEP in f or decision.max_choices == 1 for f in firsts)
    for first in firsts:
        picks = first.split(PICK_SEP)
        assert len(set(picks)) == len(picks) == decision.max_choices
        engine.apply(state, Action(decision.seat, tuple(picks)))  # legal
    for line in lines:
        moves = resolve_chain(engine, state, decision.seat, decision, line.value)
        assert moves == tuple(tuple(s.split(PICK_SEP)) for s in line.steps)


def test_a_trade_folds_only_with_a_delivery_it_makes_possible():
    """After a first delivery, a trade's line goes on to a delivery the trade makes possible
    (one the panel did not offer before it), never to one already offered nor to dropping
    out: those are a click of their own, and the panel stays short."""
    engine = games.get("coffee")
    folded = folded_kinds("coffee")
    chained = 0
    for seed in (1, 2, 3):
        rng, state = random.Random(seed), engine.new(3, seed)
        while pending := engine.decisions(state):
            decision = pending[0]
            if decision.kind == "sell_second":
                for line in panel_lines(engine, state, decision.seat, decision, folded):
                    if kinds_of(line)[:2] == ("sell_second", "sell_second"):
                        chained += 1
                        then = line.options[1]
                        assert then.fields.get("action") == "bar", line.steps
                        assert decision.option(then.id) is None, line.steps
            state = engine.apply(
                state, Action(decision.seat, plan_turn_state(engine, state, decision.seat, rng))
            )
    assert chained


def town_hall_placing_a_castle(seeds=range(1, 12)):
    """A Castles of Burgundy town hall decision (panels answered by their first option) with
    a castle among its tiles: the state, decision and its lines that go on to the castle's
    action."""
    engine = games.get("burgundy")
    folded = folded_kinds("burgundy")
    for seed in seeds:
        state = engine.new(3, seed)
        while pending := engine.decisions(state):
            decision = pending[0]
            if decision.kind == "townhall":
                lines = panel_lines(engine, state, decision.seat, decision, folded)
                castled = [
                    ln for ln in lines if kinds_of(ln)[:3] == ("townhall", "castle", "action")
                ]
                if castled:
                    return engine, state, decision, lines, castled
            first = tuple(o.id for o in decision.options[: max(decision.min_choices, 1)])
            state = engine.apply(state, Action(decision.seat, first))
    raise AssertionError("no town hall placing a castle in the sample")


def test_a_burgundy_town_hall_castle_and_its_action_are_one_line():
    """A castle a town hall places and the castle's action with its tile are one line of
    the town hall's panel (the castle's panel a click more before): "Place Castle on castle 5
    (row 1, space 2), then Castle die as 1: Take 2 workers"; within a button's 80
    characters in en, zh-TW and ja, one page; one click makes the moves of the separate
    clicks (through the panel model: random players seldom get there)."""
    from meeple_hall.bot.panel_clicks import Answer, clicks, model_game

    engine, state, decision, lines, castled = town_hall_placing_a_castle()
    assert len(lines) <= FOLD_MAX_LINES
    for language in ALL_LANGUAGES:
        words = line_styles("burgundy", lines, language)
        assert all(len(words[ln.value].label or "") <= 80 for ln in castled)
        assert all(len(words[ln.value].description or "") <= 100 for ln in castled)
    for line in castled[:5]:
        steps = list(line.moves)
        assert clicks(model_game(engine, state, 3), decision.seat, steps) == Answer(1, len(steps))
        apart = state
        for step in steps:
            apart = engine.apply(apart, Action(decision.seat, step))
        assert line.options[0].fields["hex"] in apart.players[decision.seat].estate
