"""Two clicks (issue 29, item 2): a Castles of Burgundy town hall that places a market,
carpenter or church takes the tile the building's effect takes in the same line: "Place
Church on building 3 (row 3, space 3), then Take Castle from depot 2" (the die's line, the
town hall's tile, the building's take: three clicks before, two now). In en, zh-TW and ja;
the line makes the moves the separate clicks make."""

from __future__ import annotations

import random

from meeple_hall import games
from meeple_hall.bot.panel_clicks import Answer, clicks, model_game
from meeple_hall.bot.panels import FOLD_MAX_LINES, line_styles, panel_lines
from meeple_hall.bot.presenters import folded_kinds
from meeple_hall.games import Action
from meeple_hall.games.burgundy.words import m, tile_name
from meeple_hall.games.core.catalogues import render
from meeple_hall.games.testing import random_choices
from tests.bot.test_two_clicks import ALL_LANGUAGES, kinds_of


def townhall_placing_a_building_that_takes():
    """The first town hall of a seeded random game whose tiles include a market, carpenter
    or church (whose effect takes a tile): its state and decision, and the effect's options
    after its first such tile."""
    engine = games.get("burgundy")
    for seed in range(1, 20):
        state, rng = engine.new(2, seed), random.Random(seed)
        while pending := engine.decisions(state):
            decision = rng.choice(pending)
            if decision.kind == "townhall":
                for option in decision.options:
                    after = engine.apply(state, Action(decision.seat, (option.id,)))
                    follows = engine.decisions(after)
                    if follows and follows[0].kind == "effect_take":
                        return engine, state, decision, option, follows[0]
            state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    raise AssertionError("no town hall placing a market, carpenter or church in the games tried")


def test_a_town_hall_s_building_and_the_tile_it_takes_are_one_line() -> None:
    engine, state, decision, placed, effect = townhall_placing_a_building_that_takes()
    lines = panel_lines(engine, state, decision.seat, decision, folded_kinds("burgundy"))
    assert len(lines) <= FOLD_MAX_LINES
    taking = [ln for ln in lines if kinds_of(ln) == ("townhall", "effect_take")]
    # the building placed, then each tile its effect may take (or nothing), a line each
    assert {ln.steps[1] for ln in taking if ln.steps[0] == placed.id} == {
        o.id for o in effect.options
    }
    for language in ALL_LANGUAGES:
        words = line_styles("burgundy", lines, language)
        for line in taking:
            label = words[line.value].label
            fields = line.options[1].fields
            if "depot" in fields:
                take = m("label.take_tile", tile=tile_name(fields["tile"]), depot=fields["depot"])
                assert render(language, take) in label, label
            assert len(label) <= 100
    line = next(ln for ln in taking if ln.steps[0] == placed.id)
    steps = [(step,) for step in line.steps]
    assert clicks(model_game(engine, state, 2), decision.seat, steps) == Answer(1, 2)
