"""Two clicks (issue 29, item 2): the last folds of The Castles of Burgundy and Coffee
Traders. A town hall that places a ship takes its depot in the same click: "Place Ship on
ship 1 (row 4, space 2), then Depot 3: red 1, pink 3" (the town hall's tile, then the
ship's depot: a click each before, a third after the die's line); a ship whose goods must be
chosen (room for one new kind) takes them in its line. A Coffee Traders plantation that
empties its row of the player board builds or removes that row's farm in the same click:
"Level 2 in Guatemala: row 2, space 4, then a farm in Colombia" (work·row, the space, the
farm: three clicks before). Through SimCord in en, zh-TW and ja (the ship's goods through the
panel model, bot/panel_clicks.py: random players seldom reach it); each line stores the moves
the separate clicks store and leaves the same game. The position is reached through the bot's
move path on answers worked out on the engine first (not typed one `/move` at a time)."""

from __future__ import annotations

import random

import pytest

from meeple_hall import games
from meeple_hall.bot.panel_clicks import Answer, clicks, model_game
from meeple_hall.bot.panels import FOLD_MAX_LINES, Line, line_styles, offered_lines, panel_lines
from meeple_hall.bot.presenters import chain_style, folded_kinds
from meeple_hall.bot.presenters.coffee import shaped
from meeple_hall.games import Action
from meeple_hall.games.core.catalogues import render
from meeple_hall.games.testing import random_choices
from tests.bot.conftest import start_game
from tests.bot.every_game import submit, table_shown
from tests.bot.test_two_clicks import (
    ALL_LANGUAGES,
    assert_two_clicks_made_the_moves,
    assert_worded,
    kinds_of,
    seated,
    shown_labels,
)

# How a town hall's line with its ship begins, in each language (the tile placed first).
TOWNHALL_LINE = {"en": "Place ", "zh-TW": "把", "ja": "置く："}


def worded_whole(game_id: str, line: Line) -> bool:
    """The line's own words (not the panel's steps joined) in every language, within a
    button's 80 characters."""
    style = chain_style(game_id, line.decisions, line.options)
    return style is not None and all(
        len(render(language, style.label)) <= 80 for language in ALL_LANGUAGES
    )


def places_a_ship(line: Line) -> bool:
    return kinds_of(line)[:2] == ("townhall", "ship")


def a_line_to_a_town_hall_placing_a_ship(engine, state) -> list[Action]:
    """Random answers, worked out on the engine from `state`, that bring a seat to a town
    hall whose panel offers a ship with its depot: the shortest of a few seeded lines tried
    (a town hall with a ship in storage is rare: a random line takes 50-450 moves)."""
    for most in (60, 150, 450):
        for seed in range(40):
            rng, now, line = random.Random(seed), state, []
            while (pending := engine.decisions(now)) and len(line) < most:
                if any(offers_a_ship(engine, now, decision) for decision in pending):
                    return line
                line.append(Action(pending[0].seat, random_choices(pending[0], rng)))
                now = engine.apply(now, line[-1])
    raise AssertionError("no town hall placing a ship in the lines tried")


def offers_a_ship(engine, state, decision) -> bool:
    if decision.kind != "townhall" or not any(o.id.startswith("ship") for o in decision.options):
        return False
    lines = panel_lines(engine, state, decision.seat, decision, folded_kinds("burgundy"))
    return any(places_a_ship(line) for line in lines)


@pytest.mark.parametrize("language", ALL_LANGUAGES)
async def test_a_burgundy_town_hall_places_a_ship_and_ships_in_one_click(table, language):
    """The town hall's tile (a ship) and the depot it ships from are one line of the town
    hall's panel: the die's line and this one make the move two clicks (three before). The
    game is brought there through the bot's move path (a line of random answers found on
    the engine first), the panel through SimCord."""
    game = await start_game(table, table.bob, table.carol, game="burgundy")
    for action in a_line_to_a_town_hall_placing_a_ship(game.engine, game.state):
        await submit(table, game, action.seat, action.choices)
    await table_shown(table, game)
    decision = next(d for d in game.decisions() if d.kind == "townhall")
    seat, lines = decision.seat, offered_lines(game, decision.seat, decision)
    line = next(line for line in lines if places_a_ship(line))
    player = await seated(table, game, language, seat)
    before, seq = game.state, game.seq
    panel = await player.take_turn(table)
    whole = worded_whole("burgundy", line)
    assert_worded(
        game, player, panel, line.value, language, TOWNHALL_LINE[language] if whole else ""
    )
    assert render(language, line.options[1].label) in shown_labels(panel)[line.value]
    await player.pick(panel, line.value)

    await assert_two_clicks_made_the_moves(table, game, player, seq, before, line.value)
    assert line.options[0].fields["hex"] in game.state.players[seat].estate


def first_answers_until(engine, state, kind: str, wanted, most: int = 900) -> list[Action]:
    """Each seat answering its decisions by their first option (a random answer where
    several are chosen at once), worked out on the engine from `state`, until a decision of
    `kind` offers a line `wanted` accepts: the answers until then."""
    line: list[Action] = []
    while pending := engine.decisions(state):
        decision = pending[0]
        if decision.kind == kind:
            lines = panel_lines(engine, state, decision.seat, decision, folded_kinds("coffee"))
            if any(wanted(ln) for ln in lines):
                return line
        assert len(line) < most, f"no such line in {most} moves"
        if decision.max_choices == 1:
            choices: tuple[str, ...] = (decision.options[0].id,)
        else:
            choices = random_choices(decision, random.Random(0))
        line.append(Action(decision.seat, choices))
        state = engine.apply(state, line[-1])
    raise AssertionError("the game ended first")


@pytest.mark.parametrize("language", ALL_LANGUAGES)
async def test_a_coffee_plantation_and_its_rows_farm_are_one_click(table, language):
    """A plantation that empties its row of the player board and the farm built (or
    removed) are one line of the plantation's panel: Work·row, then this line (three clicks
    before: the row, the space, the farm)."""
    game = await start_game(table, table.bob, table.carol, game="coffee")

    def builds_the_farm(line: Line) -> bool:
        return kinds_of(line) == ("plant_space", "farm") and line.steps[-1] != "discard"

    for action in first_answers_until(game.engine, game.state, "plant_space", builds_the_farm):
        await submit(table, game, action.seat, action.choices)
    await table_shown(table, game)
    decision = game.decisions()[0]
    seat, lines = decision.seat, offered_lines(game, decision.seat, decision)
    line = next(line for line in lines if builds_the_farm(line))
    player = await seated(table, game, language, seat)
    before, seq = game.state, game.seq
    coins = game.state.players[seat].coins
    panel = await player.take_turn(table)
    planted = line.options[0]
    start = render(language, shaped(planted.label, planted.fields["coffee"]))
    style = chain_style("coffee", line.decisions, line.options)
    said = render(language, style.label) if style is not None else ""
    if not worded_whole("coffee", line) or not said.startswith(start):
        start = start.split("：" if language != "en" else ":")[0]  # by its space only
    assert_worded(game, player, panel, line.value, language, start)
    lines = offered_lines(game, seat, game.decision_for(seat))
    assert len(lines) <= FOLD_MAX_LINES
    removing = next(ln for ln in lines if ln.steps == (line.steps[0], "discard"))
    words = line_styles("coffee", lines, language)
    assert words[removing.value].label != words[line.value].label
    await player.pick(panel, line.value)

    await assert_two_clicks_made_the_moves(table, game, player, seq, before, line.value)
    farm = line.options[1].fields
    assert game.state.coops[farm["coffee"]].buildings["farm"][farm["space"]] == seat
    assert game.state.players[seat].coins < coins


def ship_loading_one_kind_of_several(seed: int = 1):
    """The first ship decision of a game whose panels pick each first option that leads to
    a choice of the goods (room for one new kind of several): its state and decision."""
    engine = games.get("burgundy")
    state = engine.new(3, seed)
    while pending := engine.decisions(state):
        decision = pending[0]
        first = tuple(o.id for o in decision.options[: max(decision.min_choices, 1)])
        after = engine.apply(state, Action(decision.seat, first))
        follows = engine.decisions(after)
        if decision.kind == "ship" and follows and follows[0].kind == "shipgoods":
            return engine, state, decision
        state = after
    raise AssertionError("no ship loading a choice of goods in the sample")


def test_a_burgundy_ship_and_the_goods_it_loads_are_one_line():
    """A ship's depot and the one new kind of goods it has room for are one line of the ship
    panel (a click more before): "Depot 2: taking pink 3", below it "Depot 2: purple 2,
    pink 3 (room: 1 new kind)"; one click makes both moves, as the separate clicks make them."""
    engine, state, decision = ship_loading_one_kind_of_several()
    lines = panel_lines(engine, state, decision.seat, decision, folded_kinds("burgundy"))
    loading = [ln for ln in lines if kinds_of(ln) == ("ship", "shipgoods")]
    assert loading and len(lines) <= FOLD_MAX_LINES
    for language in ALL_LANGUAGES:
        words = line_styles("burgundy", lines, language)
        for line in loading:
            ship, goods = (render(language, o.label) for o in line.options)
            # the goods taken first, the depot's goods below (issue 29 item 1, B2)
            assert words[line.value].description == ship and goods in words[line.value].label
    line = loading[0]
    steps = [(step,) for step in line.steps]
    assert clicks(model_game(engine, state, 3), decision.seat, steps) == Answer(1, 2)
