"""Two clicks (issue 29, item 2): a Castles of Burgundy ship whose storage has room for two
new kinds of goods or more, of more kinds in the depot, takes them in its line. The goods
choice (`shipgoods`, a choice of several) is offered as a line per set of kinds
(`presenters.burgundy.pick_sets`), so the ship's panel folds it: "Depot 4: taking red 1,
pink 3" (below it "Depot 4: 5 tiles of 5 kinds (room: 2 new kinds)"), one click for what
took the ship's line, a menu of several choices and Confirm. The line makes the moves the
separate clicks make."""

from __future__ import annotations

import random
from itertools import combinations

from meeple_hall import games
from meeple_hall.bot.panel_clicks import Answer, clicks, model_game
from meeple_hall.bot.panels import FOLD_MAX_LINES, PICK_SEP, line_styles, panel_lines
from meeple_hall.bot.presenters import folded_kinds
from meeple_hall.games import Action
from meeple_hall.games.core.catalogues import render
from meeple_hall.games.testing import random_choices
from tests.bot.test_two_clicks import ALL_LANGUAGES, kinds_of


def ship_choosing_several_kinds():
    """The first ship of a seeded random game followed by a choice of two kinds or more: the
    state, the ship decision, the ship's answer and the goods decision it leads to."""
    engine = games.get("burgundy")
    for seed in range(1, 20):
        state, rng = engine.new(2, seed), random.Random(seed)
        while pending := engine.decisions(state):
            decision = pending[0]
            answer = random_choices(decision, rng)
            after = engine.apply(state, Action(decision.seat, answer))
            follows = engine.decisions(after)
            if (
                decision.kind == "ship"
                and follows
                and follows[0].kind == "shipgoods"
                and follows[0].max_choices > 1
            ):
                return engine, state, decision, answer, follows[0]
            state = after
    raise AssertionError("no ship choosing two kinds of goods in the games tried")


def test_a_ship_and_the_kinds_of_goods_it_loads_are_one_line() -> None:
    engine, state, decision, answer, goods = ship_choosing_several_kinds()
    lines = panel_lines(engine, state, decision.seat, decision, folded_kinds("burgundy"))
    assert len(lines) <= FOLD_MAX_LINES
    loading = [ln for ln in lines if kinds_of(ln) == ("ship", "shipgoods")]
    ids = [o.id for o in goods.options]
    sets = {PICK_SEP.join(c) for c in combinations(ids, goods.max_choices)}
    # every set of kinds the storage has room for, a line of the ship's depot
    assert {ln.steps[1] for ln in loading if ln.steps[0] == answer[0]} == sets
    for language in ALL_LANGUAGES:
        words = line_styles("burgundy", lines, language)
        for line in loading:
            ship, taken = line.options
            label = words[line.value].label
            # what differs first, the depot's goods and room below (issue 29 item 1, B2)
            assert words[line.value].description == render(language, ship.label), label
            assert str(ship.fields["depots"][0]) in label[:12], label
            picked = [render(language, o.label) for o in taken.fields["picks"]]
            assert all(p in label for p in picked), (label, picked)
            assert len(label) <= 100
    line = next(ln for ln in loading if ln.steps[0] == answer[0])
    steps = [(line.steps[0],), tuple(line.steps[1].split(PICK_SEP))]
    assert clicks(model_game(engine, state, 2), decision.seat, steps) == Answer(1, 2)
