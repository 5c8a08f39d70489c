"""Two clicks (issue 29, item 2): the most frequent moves of Burgundy, Keyflower and Village
take at most two clicks after **Take turn**, through SimCord on the real games, in English
and 繁體中文 (日本語 where the folded line's words are new); a folded line writes the log the
step-by-step moves write, and leaves the game as they leave it."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from meeple_hall import games
from meeple_hall.bot.panel_clicks import Answer, clicks, model_game
from meeple_hall.bot.panels import CHAIN_SEP, Line, line_styles, offered_lines, panel_lines
from meeple_hall.bot.presenters import folded_kinds
from meeple_hall.games import Action, Decision
from meeple_hall.games.burgundy.words import tile_name as burgundy_tile
from meeple_hall.games.core.catalogues import render
from meeple_hall.games.keyflower.words import tile_name
from meeple_hall.games.testing import random_choices
from tests.bot.conftest import (
    acting_member,
    panel_options,
    raw_buttons,
    seated_member,
    selects,
    start_game,
    table_message,
)
from tests.bot.every_game import submit, table_shown

LANGUAGES = ["en", "zh-TW"]
ALL_LANGUAGES = ["en", "zh-TW", "ja"]
# What a line of each game's folded panels begins with, in each language (the rulebook's words).
DIE_LINE = {"en": "Die ", "zh-TW": "骰子", "ja": "【ダイス"}
BID_LINE = {"en": "Bid on ", "zh-TW": "競標"}


@dataclass
class Player:
    """A seated member who counts the component interactions after Take turn."""

    member: Any
    seat: int
    clicks: int = 0

    async def take_turn(self, table) -> Any:
        self.clicks = 0
        return (await self.member.click(table_message(table.channel), label="Take turn")).response

    async def pick(self, panel, value: str) -> Any:
        """The panel's button or menu line that stands for `value`, clicked once."""
        self.clicks += 1
        for b in raw_buttons(panel):
            if b["custom_id"].endswith(f":o:{value}"):
                return (await self.member.click(panel, custom_id=b["custom_id"])).response
        menu = next(m for m in selects(panel) if value in [o["value"] for o in m["options"]])
        return (await self.member.select(panel, [value], custom_id=menu["custom_id"])).response


def shown_labels(panel) -> dict[str, str]:
    """Each line's words as the panel shows them, by value (buttons by their id's end)."""
    labels = {
        b["custom_id"].split(":o:")[1]: b["label"]
        for b in raw_buttons(panel)
        if ":o:" in b["custom_id"]
    }
    labels.update({o["value"]: o["label"] for m in selects(panel) for o in m["options"]})
    return labels


async def seated(table, game, language: str, seat: int | None = None) -> Player:
    """The member at `seat` (else the first who must act), reading `language`."""
    if seat is None:
        member, seat = acting_member(table, game)
    else:
        member = seated_member(table, game, seat)
    if language != "en":
        await member.slash(table.channel, "settings", language=language)
    return Player(member, seat)


async def logged_since(table, game, seq: int) -> list[tuple[str, ...]]:
    return [e.choices for e in await table.env.bot.store.actions(game.id) if e.seq > seq]


def step_by_step(game, state: Any, seat: int, steps: list[tuple[str, ...]]) -> Any:
    """The moves applied one at a time, as separate clicks (or `/move` words) apply them."""
    for step in steps:
        state = game.engine.apply(state, Action(seat, step))
    return state


async def typed_until(
    table, game, wanted: Callable[[Line], bool], kinds: tuple[str, ...], seed: int, most=400
) -> tuple[int, Line]:
    """Random moves until a seat's panel offers a line `wanted` accepts (looked for on
    decisions of `kinds` only): that seat and the line. The moves are worked out on the
    engine first, then made through the bot's move path, the one `/move` takes (typing
    each through Discord took most of these tests' time)."""
    return await moved_until(table, game, lambda _, line: wanted(line), kinds, seed, most)


async def moved_until(
    table,
    game,
    wanted: Callable[[Any, Line], bool],
    kinds: tuple[str, ...],
    seed: int,
    most: int = 400,
) -> tuple[int, Line]:
    """`typed_until` where `wanted` looks at the state a line is offered in, as well:
    `wanted(state, line)`."""
    rng, state, line = random.Random(seed), game.state, []
    folded = folded_kinds(game.table.game)
    for _ in range(most):
        pending = game.engine.decisions(state)
        assert pending, "the game ended first"
        if any(
            wanted(state, offered)
            for decision in pending
            if decision.kind in kinds
            for offered in panel_lines(game.engine, state, decision.seat, decision, folded)
        ):
            break
        line.append(Action(pending[0].seat, random_choices(pending[0], rng)))
        state = game.engine.apply(state, line[-1])
    else:
        raise AssertionError(f"no such line in {most} moves")
    for action in line:
        await submit(table, game, action.seat, action.choices)
    await table_shown(table, game)
    for decision in game.decisions():
        if decision.kind in kinds:
            lines = offered_lines(game, decision.seat, decision)
            found = next((ln for ln in lines if wanted(game.state, ln)), None)
            if found is not None:
                return decision.seat, found
    raise AssertionError("the bot's panels do not offer the line the engine's do")


def kinds_of(line: Line) -> tuple[str, ...]:
    return tuple(d.kind for d in line.decisions)


async def assert_two_clicks_made_the_moves(
    table, game, player: Player, seq: int, before: Any, *lines: str
) -> None:
    """A click a line, at most two, and what they stored and left are the lines' moves made
    one at a time."""
    assert player.clicks == len(lines) <= 2
    steps = [(step,) for line in lines for step in line.split(CHAIN_SEP)]
    assert await logged_since(table, game, seq) == steps
    apart = step_by_step(game, before, player.seat, steps)
    assert game.engine.dump(game.state) == game.engine.dump(apart)


def assert_worded(game, player: Player, panel, value: str, language: str, start: str) -> None:
    """The line reads as one move in the reader's language, as the presenter words it."""
    decision = game.decision_for(player.seat)
    lines = offered_lines(game, player.seat, decision)
    styles = line_styles(game.table.game, lines, language)
    shown = shown_labels(panel)[value]
    assert shown == styles[value].label[: len(shown)], shown
    assert shown.startswith(start), shown


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_burgundy_turn_of_two_die_actions_takes_two_clicks(table, language):
    """Die, action and tile are one line: a turn that takes a tile with one die and workers
    with the other is two clicks after Take turn (it was five: die, action·tile, die,
    action, and a take's tile)."""
    game = await start_game(table, table.bob, game="burgundy")
    player = await seated(table, game, language)
    before, seq = game.state, game.seq
    panel = await player.take_turn(table)
    first, second = (str(d) for d in game.state.players[player.seat].dice)
    take = next(v for v in panel_options(panel) if v.startswith(f"{first}>take>"))
    assert_worded(game, player, panel, take, language, DIE_LINE[language])

    panel = await player.pick(panel, take)
    # the same seat goes on in the same panel: its other die
    assert game.decision_for(player.seat).kind == "die"
    workers = next(
        v for v in panel_options(panel) if v.split(CHAIN_SEP)[-1] == "workers" and v[0] == second
    )
    await player.pick(panel, workers)

    await assert_two_clicks_made_the_moves(table, game, player, seq, before, take, workers)
    assert game.state.active != player.seat  # 1 silverling buys nothing: the turn ended


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_keyflower_bid_takes_two_clicks(table, language):
    """Bid and the tile in one click, the colour and how many in the next."""
    game = await start_game(table, table.bob, game="keyflower")
    player = await seated(table, game, language)
    before, seq = game.state, game.seq
    panel = await player.take_turn(table)
    tile = game.state.offer[0]
    bid = f"bid{CHAIN_SEP}{tile}"
    assert_worded(game, player, panel, bid, language, BID_LINE[language])

    panel = await player.pick(panel, bid)
    colour_count = next(v for v in panel_options(panel) if CHAIN_SEP in v)
    await player.pick(panel, colour_count)

    await assert_two_clicks_made_the_moves(table, game, player, seq, before, bid, colour_count)
    colour, count = colour_count.split(CHAIN_SEP)
    assert [(b.colour, b.count) for b in game.state.tiles[tile].bids] == [(colour, int(count))]


def colour_lines_bringing_outbid(seeds=range(1, 30)) -> tuple[Any, Decision, list[Line]]:
    """A random game's colour decision where outbid workers may come along, and its panel's
    lines that bring them."""
    engine = games.get("keyflower")
    for seed in seeds:
        rng, state = random.Random(seed), engine.new(3, seed)
        while pending := engine.decisions(state):
            decision = pending[0]
            if decision.kind == "colour":
                lines = panel_lines(
                    engine, state, decision.seat, decision, folded_kinds("keyflower")
                )
                brought = [line for line in lines if "gather" in [d.kind for d in line.decisions]]
                if brought:
                    return state, decision, brought
            state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    raise AssertionError("no outbid workers to bring along in the sample")


def test_bringing_outbid_workers_along_is_one_line_of_the_colour_panel():
    """Colour, the outbid groups brought along and how many from behind the screen in one
    click (four before: colour, each group, next, how many), named by the tiles' names."""
    state, decision, brought = colour_lines_bringing_outbid()
    engine = games.get("keyflower")
    for line in brought:
        steps = [(step,) for step in line.steps]
        game = model_game(engine, state, 3)
        assert clicks(game, decision.seat, steps) == Answer(1, len(steps))
        tiles = [o.fields["tile"] for o in line.options if "tile" in o.fields]
        for language in LANGUAGES:
            style = line_styles("keyflower", [line], language)[line.value]
            # a line going on to a transport tile's upgrade names its workers by their count
            # where the whole would pass a button's 80 characters: the names are then below
            transported = "transport" in kinds_of(line)
            named = style.label + (str(style.description) if transported else "")
            assert all(render(language, tile_name(t)) in named for t in tiles), style
            assert len(style.label) <= 100


@pytest.mark.parametrize("language", ALL_LANGUAGES)
async def test_a_keyflower_tile_is_placed_with_its_cell_and_turn_in_one_click(table, language):
    """At the season's end a tile, its cell and which way round are one line (three clicks
    before): "Place Peddler W of Home 5, roads NE, W"; with one tile left, its cell and turn."""
    game = await start_game(table, table.bob, game="keyflower")

    def places_a_tile(line: Line) -> bool:
        return kinds_of(line)[-1] == "place_rot" and len(line.steps) > 1

    seat, line = await typed_until(table, game, places_a_tile, ("place_tile", "place_at"), 3)
    player = await seated(table, game, language, seat)
    before, seq = game.state, game.seq
    tile = next(
        (o.fields["tile"] for o in line.options if "tile" in o.fields),
        game.state.players[seat].to_place[0],
    )
    panel = await player.take_turn(table)
    # the tile's name where the panel's prompt does not say it (several tiles to place)
    named = kinds_of(line)[0] == "place_tile"
    start = ("Place " if language == "en" else render(language, tile_name(tile))) if named else ""
    assert_worded(game, player, panel, line.value, language, start)
    await player.pick(panel, line.value)

    await assert_two_clicks_made_the_moves(table, game, player, seq, before, line.value)
    assert tile in game.state.players[seat].village


@pytest.mark.parametrize("language", ALL_LANGUAGES)
async def test_a_burgundy_take_into_a_full_storage_discards_in_the_same_click(table, language):
    """A die, its take and the stored tile discarded for it are one line (a discard click
    more before): "Die 6: Take 3 cows from depot 6, discarding Castle"."""
    game = await start_game(table, table.bob, game="burgundy")

    def discards(line: Line) -> bool:
        return kinds_of(line)[-2:] == ("take", "discard")

    seat, line = await typed_until(table, game, discards, ("die",), 5)
    player = await seated(table, game, language, seat)
    before, seq = game.state, game.seq
    panel = await player.take_turn(table)
    assert_worded(game, player, panel, line.value, language, DIE_LINE[language])
    discarded = line.options[-1].fields["tile"]
    assert render(language, burgundy_tile(discarded)) in shown_labels(panel)[line.value]
    await player.pick(panel, line.value)

    await assert_two_clicks_made_the_moves(table, game, player, seq, before, line.value)
    assert len(game.state.players[seat].storage) == 3  # still full: one out, one in


@pytest.mark.parametrize("language", ALL_LANGUAGES)
async def test_a_village_action_and_the_member_its_time_costs_are_one_click(table, language):
    """An action whose time passes the quill and the member who then dies are one line of the
    action's panel (a click more before): "Stables: train #2, make a horse (6 time), and #1
    at the Wainwright dies"."""
    game = await start_game(table, table.bob, game="village")

    def costs_a_life(line: Line) -> bool:
        return kinds_of(line)[-1] == "die" and len(line.steps) > 1

    seat, line = await typed_until(
        table, game, costs_a_life, ("crafts", "travel", "church", "family", "council"), 7
    )
    player = await seated(table, game, language, seat)
    before, seq = game.state, game.seq
    panel = await player.take_turn(table)
    action, death = (render(language, option.label) for option in line.options)
    assert_worded(game, player, panel, line.value, language, action)
    assert shown_labels(panel)[line.value].endswith(death)
    await player.pick(panel, line.value)

    await assert_two_clicks_made_the_moves(table, game, player, seq, before, line.value)


BUY_LINE = {"en": "Buy ", "zh-TW": "花 2 個小銀幣購買", "ja": "銀貨2枚で"}


@pytest.mark.parametrize("language", ALL_LANGUAGES)
async def test_a_burgundy_buy_and_its_tile_are_one_click(table, language):
    """Buying from the black depot and the tile bought are one line of the die panel (two
    clicks before): "Buy Castle from the black depot for 2 silverlings"."""
    game = await start_game(table, table.bob, game="burgundy")

    def buys(line: Line) -> bool:
        return kinds_of(line)[:2] == ("die", "buy") and len(line.steps) > 1

    seat, line = await typed_until(table, game, buys, ("die",), 11)
    player = await seated(table, game, language, seat)
    before, seq = game.state, game.seq
    silver = game.state.players[seat].silver
    panel = await player.take_turn(table)
    assert_worded(game, player, panel, line.value, language, BUY_LINE[language])
    bought = line.options[1].fields["tile"]
    assert render(language, burgundy_tile(bought)) in shown_labels(panel)[line.value]
    await player.pick(panel, line.value)

    await assert_two_clicks_made_the_moves(table, game, player, seq, before, line.value)
    assert game.state.players[seat].silver == silver - 2


@pytest.mark.parametrize("language", ALL_LANGUAGES)
async def test_what_a_keyflower_use_asks_is_in_the_workers_line(table, language):
    """A use's workers and what the tile then asks (a skill tile given up, a resource, a
    Tavern's discard) are one line: "1 blue, giving up saw" (a click more before)."""
    game = await start_game(table, table.bob, table.carol, game="keyflower")

    def asks(line: Line) -> bool:
        return kinds_of(line)[-1] in ("resource", "skill", "discard") and len(line.steps) > 1

    seat, line = await typed_until(table, game, asks, ("colour", "count", "gather"), 3)
    player = await seated(table, game, language, seat)
    before, seq = game.state, game.seq
    panel = await player.take_turn(table)
    asked = render(language, line.options[-1].label)
    assert asked in shown_labels(panel)[line.value], shown_labels(panel)[line.value]
    await player.pick(panel, line.value)

    await assert_two_clicks_made_the_moves(table, game, player, seq, before, line.value)


@pytest.mark.parametrize("language", ALL_LANGUAGES)
@pytest.mark.parametrize(
    ("action", "brought", "seed"), [("council", "privilege", 13), ("travel", "reward", 8)]
)
async def test_a_village_action_and_what_it_brings_are_one_click(
    table, language, action, brought, seed
):
    """A council step and the privilege of its stage, a trip and the new city's two cubes
    are one line of the action's panel (a click more before): "#2 enters the council: 1
    scroll + 1 time — Take brown + green cubes". (Random players seldom build a wagon and
    travel to a city that gives cubes: seed 8 gets there.)"""
    game = await start_game(table, table.bob, game="village")

    def brings(line: Line) -> bool:
        return kinds_of(line)[:2] == (action, brought)

    seat, line = await typed_until(table, game, brings, (action,), seed)
    player = await seated(table, game, language, seat)
    before, seq = game.state, game.seq
    panel = await player.take_turn(table)
    assert_worded(game, player, panel, line.value, language, "")
    assert render(language, line.options[1].label) in shown_labels(panel)[line.value]
    await player.pick(panel, line.value)

    await assert_two_clicks_made_the_moves(table, game, player, seq, before, line.value)


SELL_LINE = {"en": "Coffee Bar ", "zh-TW": "咖啡吧", "ja": "コーヒーバー"}


@pytest.mark.parametrize("language", ALL_LANGUAGES)
async def test_a_coffee_sell_turn_of_two_deliveries_is_one_click(table, language):
    """A delivery to a Coffee Bar and what follows it in the same Sell turn (a second
    delivery, or dropping out) are one line of the Sell panel (two clicks before): "Coffee
    Bar 1: 1 Guatemala, then Coffee Bar 2: 3 Ethiopia"."""
    game = await start_game(table, table.bob, table.carol, game="coffee")

    def delivers_twice(line: Line) -> bool:
        return kinds_of(line) == ("sell", "sell_second") and line.steps[-1].startswith(
            ("bar.", "drop")
        )

    seat, line = await typed_until(table, game, delivers_twice, ("sell",), 17, most=600)
    player = await seated(table, game, language, seat)
    before, seq = game.state, game.seq
    panel = await player.take_turn(table)
    assert_worded(game, player, panel, line.value, language, SELL_LINE[language])
    await player.pick(panel, line.value)

    await assert_two_clicks_made_the_moves(table, game, player, seq, before, line.value)
    assert game.decision_for(seat) is None or game.decision_for(seat).kind != "sell_second"
