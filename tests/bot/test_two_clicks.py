"""Two clicks (issue 29, item 2): the most frequent moves of Burgundy and Keyflower take at
most two clicks after **Take turn**, through SimCord on the real games, in English and
繁體中文; a folded line writes the log the step-by-step moves write, and leaves the game as
they leave it."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from meeple_hall import games
from meeple_hall.bot.panel_clicks import Answer, clicks, model_game
from meeple_hall.bot.panels import CHAIN_SEP, Line, line_styles, offered_lines, panel_lines
from meeple_hall.bot.presenters import folded_kinds
from meeple_hall.games import Action, Decision
from meeple_hall.games.core.catalogues import render
from meeple_hall.games.keyflower.words import tile_name
from meeple_hall.games.testing import random_choices
from tests.bot.conftest import (
    acting_member,
    panel_options,
    raw_buttons,
    selects,
    start_game,
    table_message,
)

LANGUAGES = ["en", "zh-TW"]
# What a line of each game's folded panels begins with, in each language (the rulebook's words).
DIE_LINE = {"en": "Die ", "zh-TW": "骰子"}
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


async def seated(table, game, language: str) -> Player:
    member, seat = acting_member(table, game)
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


async def assert_two_clicks_made_the_moves(
    table, game, player: Player, seq: int, before: Any, *lines: str
) -> None:
    """Two clicks, and what they stored and left are the lines' moves made one at a time."""
    assert player.clicks == 2
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
            label = line_styles("keyflower", [line], language)[line.value].label
            assert all(render(language, tile_name(t)) in label for t in tiles), label
            assert len(label) <= 100
