"""Two clicks (issue 29, item 2, round 4): a Keyflower use of a transport tile (a Home,
Farrier, Stable or Wainwright) that upgrades a tile and finishes is two clicks after **Take
turn**: Use and the tile, then "1 blue, upgrade Miner, then finish" (four before: Use, the
workers, the upgrade, Finish). The transport's panel offers "Upgrade Miner, then finish" in
one click (two before). Carries are never folded into the workers' line: it stays one page
of menus. Through SimCord in en, zh-TW and ja; each line stores the moves the separate
clicks store and leaves the same game."""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest

from meeple_hall import games
from meeple_hall.bot.panels import FOLD_MAX_LINES, Line, line_styles, offered_lines, panel_lines
from meeple_hall.bot.presenters import folded_kinds
from meeple_hall.games import Action, Decision
from meeple_hall.games.core.catalogues import render
from meeple_hall.games.keyflower.words import amount, m, tile_name
from meeple_hall.games.testing import random_choices
from tests.bot.conftest import start_game
from tests.bot.test_two_clicks import (
    ALL_LANGUAGES,
    assert_two_clicks_made_the_moves,
    assert_worded,
    kinds_of,
    moved_until,
    seated,
    shown_labels,
)

# The answers of a transport decision a line folds after the workers or an upgrade.
FOLDED_TRANSPORT = {"up", "done"}


def transport_answers(line: Line) -> list[str]:
    """The line's answers to transport decisions after its first step."""
    return [
        step
        for d, step in zip(line.decisions[1:], line.steps[1:], strict=True)
        if d.kind == "transport"
    ]


def upgrades_then_finishes(line: Line) -> bool:
    """A line that upgrades a tile and then finishes the transport."""
    return "upgrade" in kinds_of(line) and transport_answers(line)[-1:] == ["done"]


# A use's workers line that upgrades a tile and finishes: a colour, how many, Upgrade, the
# tile, Finish.
USE_UPGRADE_FINISH = ("colour", "count", "transport", "upgrade", "transport")


def after_steps(engine, state: Any, seat: int, line: Line, steps: int | None = None) -> Any:
    """The state once the line's first `steps` steps (all by default) are applied."""
    count = len(line.steps) if steps is None else steps
    for decision, step in zip(line.decisions[:count], line.steps[:count], strict=True):
        state = engine.apply(state, Action(seat, (step,)), decision=decision)
    return state


def next_lines(engine, state: Any, seat: int) -> tuple[Decision, list[Line]]:
    """The seat's decision in `state` and its panel's lines."""
    decision = next(d for d in engine.decisions(state) if d.seat == seat)
    return decision, panel_lines(engine, state, seat, decision, folded_kinds("keyflower"))


def can_carry_after(engine, state: Any, seat: int, line: Line, steps: int) -> bool:
    """Whether the transport asked after the line's first `steps` steps offers a carry."""
    after = after_steps(engine, state, seat, line, steps)
    transport = next(d for d in engine.decisions(after) if d.seat == seat)
    return transport.kind == "transport" and transport.option("move") is not None


def finish_words(language: str) -> str:
    """How a line that finishes after an upgrade ends, in the reader's language."""
    return render(language, m("chain.then_finish", label=""))


async def a_transport_use(table, game) -> tuple[int, Line, Line]:
    """Random moves made until a seat may use a transport tile whose workers' line then
    upgrades a tile and finishes (seed 14 of a 2-player game): the seat, the Use line of its
    action panel and that workers' line."""
    found: list[Line] = []

    def uses_a_transport_to_upgrade(state: Any, line: Line) -> bool:
        if line.steps[0] != "use" or len(line.steps) != 2:
            return False
        seat = line.decisions[0].seat
        _, lines = next_lines(game.engine, after_steps(game.engine, state, seat, line), seat)
        found[:] = [c for c in lines if kinds_of(c) == USE_UPGRADE_FINISH]
        return bool(found)

    seat, use = await moved_until(table, game, uses_a_transport_to_upgrade, ("action",), 14)
    return seat, use, found[0]


@pytest.mark.parametrize("language", ALL_LANGUAGES)
async def test_a_transport_use_that_upgrades_and_finishes_takes_two_clicks(table, language):
    game = await start_game(table, table.bob, game="keyflower")
    seat, use, workers = await a_transport_use(table, game)
    upgraded = workers.options[3].fields["tile"]
    player = await seated(table, game, language, seat)
    before, seq = game.state, game.seq
    assert not before.tiles[upgraded].upgraded

    panel = await player.take_turn(table)
    panel = await player.pick(panel, use.value)
    assert game.decision_for(seat).kind == "colour"
    shown = shown_labels(panel)[workers.value]
    assert render(language, tile_name(upgraded)) in shown, shown
    assert shown.endswith(finish_words(language)), shown
    placed = render(language, workers.options[1].label)  # `1 blue`: the count's own words
    assert_worded(game, player, panel, workers.value, language, placed)
    # the workers alone stay on the panel where a carry may follow them
    if can_carry_after(game.engine, game.state, seat, workers, 2):
        assert ">".join(workers.steps[:2]) in shown_labels(panel)
    await player.pick(panel, workers.value)

    await assert_two_clicks_made_the_moves(
        table, game, player, seq, before, use.value, workers.value
    )
    assert game.state.tiles[upgraded].upgraded


@pytest.mark.parametrize("language", ALL_LANGUAGES)
async def test_an_upgrade_and_finishing_are_one_click_of_the_transport_panel(table, language):
    """Typed up to the transport (Use, the tile, the colour, how many), its panel offers the
    upgrade with finishing as one line."""
    game = await start_game(table, table.bob, game="keyflower")
    seat, use, workers = await a_transport_use(table, game)
    player = await seated(table, game, language, seat)
    typed = " ".join([*use.steps, *workers.steps[:2]])
    await player.member.slash(table.channel, "move", text=typed)
    decision, lines = next_lines(game.engine, game.state, seat)
    assert decision.kind == "transport"
    line = next(c for c in lines if c.steps[0] == "up" and upgrades_then_finishes(c))
    upgraded = line.options[1].fields["tile"]
    before, seq = game.state, game.seq

    panel = await player.take_turn(table)
    upgrade = render(language, m("chain.upgrade", tile=tile_name(upgraded)))
    assert_worded(game, player, panel, line.value, language, upgrade)
    assert shown_labels(panel)[line.value].endswith(finish_words(language))
    await player.pick(panel, line.value)

    await assert_two_clicks_made_the_moves(table, game, player, seq, before, line.value)
    assert game.state.tiles[upgraded].upgraded


def transport_panels(seeds=range(1, 9)) -> list[tuple[Any, int, Any, list[Line]]]:
    """Random games' panels whose lines fold a transport after their first step: the state,
    the seat, the decision and the lines."""
    return [panel for seed in seeds for panel in transport_panels_of(seed)]


@functools.cache
def transport_panels_of(seed: int) -> tuple[tuple[Any, int, Any, list[Line]], ...]:
    """`transport_panels` of one seed's game, played once a process (two tests read them)."""
    engine = games.get("keyflower")
    folded = folded_kinds("keyflower")
    found = []
    rng, state = random.Random(seed), engine.new(3 + seed % 3, seed)
    while pending := engine.decisions(state):
        decision = pending[0]
        if decision.kind in ("colour", "count", "gather", "transport", "upgrade", "pay"):
            lines = panel_lines(engine, state, decision.seat, decision, folded)
            if any(transport_answers(line) for line in lines):
                found.append((state, decision.seat, decision, lines))
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    return tuple(found)


def test_transport_folds_keep_the_panel_to_one_page_and_never_fold_a_carry():
    """Random games' colour, count, outbid, transport, upgrade and payment panels: a line
    folds only an upgrade or finishing after the workers or an upgrade, never a carry; where a
    carry may follow, the line without the transport stays too; one page of menus, and every
    line's words whole within a menu line's 100 characters (those of a transport within a
    button's 80) in en, zh-TW and ja."""
    panels = transport_panels()
    assert len(panels) > 20, len(panels)
    engine = games.get("keyflower")
    kept_alone = 0
    for state, seat, _, lines in panels:
        assert len(lines) <= FOLD_MAX_LINES
        values = {line.value for line in lines}
        for line in lines:
            answers = transport_answers(line)
            assert set(answers) <= FOLDED_TRANSPORT, line.value
            if not answers:
                continue
            # the steps before a folded transport, offered alone where a carry follows them
            first = next(i for i, d in enumerate(line.decisions) if i and d.kind == "transport")
            if can_carry_after(engine, state, seat, line, first):
                assert ">".join(line.steps[:first]) in values, line.value
                kept_alone += 1
        for language in ALL_LANGUAGES:
            styles = line_styles("keyflower", lines, language)
            for line in lines:
                style = styles[line.value]
                assert len(style.label) <= 100, style.label
                assert len(style.description or "") <= 100, style.description
                if transport_answers(line):
                    assert len(style.label) <= 80, style.label
    assert kept_alone


def test_a_line_that_finishes_says_so_in_each_language():
    """The workers' line that finishes at once says nothing is moved or upgraded; one that
    upgrades names the tile and then finishing, in each language's words."""
    said = {"nothing": 0, "finish": 0}
    for _, _, _, lines in transport_panels(range(1, 4)):
        for line in lines:
            answers = transport_answers(line)
            if not answers or line.decisions[0].kind not in ("colour", "count"):
                continue
            for language in ALL_LANGUAGES:
                label = line_styles("keyflower", [line], language)[line.value].label
                if answers == ["done"]:
                    nothing = render(language, m("chain.no_transport", label=""))
                    assert label.endswith(nothing), label
                    said["nothing"] += 1
                elif answers[-1] == "done":
                    tile = next(o.fields["tile"] for o in line.options if o.fields.get("tile"))
                    assert render(language, tile_name(tile)) in label, label
                    assert label.endswith(finish_words(language)), label
                    said["finish"] += 1
    assert all(said.values()), said


def carries_then_finishes(line: Line) -> bool:
    """A transport panel's carry (Move, from, what, to) and Finish after it."""
    return kinds_of(line) == CARRY_FINISH and line.steps[-1] == "done"


CARRY_FINISH = ("transport", "from", "what", "to", "transport")
# The random players' seed that reaches such a line in a 2-player game.
CARRY_SEED = 16


@pytest.mark.parametrize("language", ALL_LANGUAGES)
async def test_a_carry_and_finishing_are_one_click_of_the_transport_panel(table, language):
    """Session 15: the transport's panel offers a carry with Finish after it as one line,
    "Move 1 iron from Home 1 to Workshop, then finish" (two clicks before), the carry alone
    too (another carry or an upgrade may follow it); never an upgrade after a carry."""
    game = await start_game(table, table.bob, game="keyflower")
    seat, line = await moved_until(
        table, game, lambda _, line: carries_then_finishes(line), ("transport",), CARRY_SEED
    )
    player = await seated(table, game, language, seat)
    lines = offered_lines(game, seat, game.decision_for(seat))
    values = {c.value for c in lines}
    assert ">".join(line.steps[:-1]) in values  # the carry alone
    assert not any(kinds_of(c)[3:5] == ("to", "transport") and c.steps[4] != "done" for c in lines)
    before, seq = game.state, game.seq

    panel = await player.take_turn(table)
    source, resource, dest = line.options[1:4]
    carry = m(
        "chain.move",
        what=amount(1, resource.fields["item"]),
        source=tile_name(source.fields["tile"]),
        dest=tile_name(dest.fields["tile"]),
    )
    assert_worded(game, player, panel, line.value, language, render(language, carry))
    shown = shown_labels(panel)[line.value]
    assert shown.endswith(finish_words(language)) and len(shown) <= 80, shown
    await player.pick(panel, line.value)

    await assert_two_clicks_made_the_moves(table, game, player, seq, before, line.value)
    assert game.decision_for(seat) is None or game.decision_for(seat).kind != "transport"
