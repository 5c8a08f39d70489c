"""Folded panels (issue 14): a decision and the seat's next ones in one click, applied as
consecutive moves all or none, never across a draw, with the log separate clicks write."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from meeple_hall import games, renderers
from meeple_hall.bot import presenters
from meeple_hall.bot.live import Refusal
from meeple_hall.bot.panel_clicks import clicks, model_game
from meeple_hall.bot.panels import CHAIN_SEP, PICK_SEP, panel_lines, resolve_chain
from meeple_hall.games import Action
from meeple_hall.games.core import Decision, GameEngine, Option, Result, Rng
from meeple_hall.games.core.contract import OPTION_ID
from meeple_hall.games.core.hidden import HIDDEN
from meeple_hall.games.core.undo import UNDO
from meeple_hall.renderers import generic
from tests.bot.conftest import (
    acting_member,
    buttons,
    choose,
    click_as_it_was,
    panel_options,
    raw_buttons,
    selects,
    start_game,
    stored_message,
    table_message,
)


# -- a tiny game: "stay" or "draw" (a hidden draw), then "x" or "y" ------------------------
@dataclass
class TinyState:
    rng: Rng
    deck: list[int] = field(metadata=HIDDEN)
    step: str = "go"
    done: list[str] = field(default_factory=list)


class TinyEngine(GameEngine[TinyState]):
    id = "tiny"
    name = "Tiny"
    min_players = 1
    max_players = 1
    state_type = TinyState

    def setup(self, num_players: int, rng: Rng, options: dict[str, str]) -> TinyState:
        return TinyState(rng=rng, deck=[1, 2, 3])

    def decisions(self, state: TinyState) -> list[Decision]:
        if state.step == "go":
            return [Decision(0, "go", "Go", (Option("stay", "Stay"), Option("draw", "Draw")))]
        if state.step == "then":
            return [Decision(0, "then", "Then", (Option("x", "X"), Option("y", "Y")))]
        return []

    def perform(self, state: TinyState, decision: Decision, choices: tuple[str, ...]) -> None:
        state.done.append(choices[0])
        if decision.kind == "go":
            if choices[0] == "draw":
                state.deck.append(state.rng.below(9))
            state.step = "then"
        else:
            state.step = "go" if len(state.done) < 4 else "over"

    def view(self, state: TinyState, seat: int | None) -> dict[str, Any]:
        return {"num_players": 1, "done": list(state.done)}

    def result(self, state: TinyState) -> Result | None:
        return None if state.step != "over" else Result((1,), (1,), ({"moves": 1},))


class TinyStyle:
    FOLDED = frozenset({"then"})
    render = staticmethod(generic.render)

    @staticmethod
    def chain_style(
        decisions: tuple[Decision, ...], options: tuple[Option, ...]
    ) -> presenters.OptionStyle | None:
        # a game may word a folded line itself; here only "stay, then y"
        if [o.id for o in options] == ["stay", "y"]:
            return presenters.OptionStyle(label="Stay and take Y")
        return None


@pytest.fixture
def tiny():
    engine = TinyEngine()
    games.register(engine)
    presenters.register("tiny", TinyStyle)
    renderers.register("tiny", TinyStyle)
    yield engine
    games.unregister("tiny")


def test_the_chain_separator_is_outside_the_option_id_grammar():
    assert not OPTION_ID.fullmatch(f"a{CHAIN_SEP}b") and CHAIN_SEP != ":"
    # and the one between the picks of a choice of several shown as one line
    assert not OPTION_ID.fullmatch(f"a{PICK_SEP}b") and PICK_SEP not in (":", CHAIN_SEP)


def test_a_decision_is_folded_only_where_nothing_hidden_changes_on_the_way(tiny):
    state = tiny.new(1, 5)
    decision = tiny.decisions(state)[0]
    lines = panel_lines(tiny, state, 0, decision, TinyStyle.FOLDED)
    assert [line.value for line in lines] == ["stay>x", "stay>y", "draw"]
    unfolded = panel_lines(tiny, state, 0, decision, frozenset())
    assert [line.value for line in unfolded] == ["stay", "draw"]


async def test_a_chain_across_a_draw_is_refused_and_changes_nothing(table, tiny):
    game = await start_game(table, game="tiny")
    manager = table.env.bot.manager
    with pytest.raises(Refusal) as refused:
        await manager.submit_chain(
            game, 0, (("draw",), ("x",)), user_id=None, folded=TinyStyle.FOLDED
        )
    assert refused.value.key == "move.stale"
    assert game.seq == 0 and await manager.store.actions(game.id) == []
    # A kind the game does not fold is refused the same way.
    with pytest.raises(Refusal):
        await manager.submit_chain(game, 0, (("stay",), ("x",)), user_id=None)
    assert game.seq == 0


async def test_a_chain_with_an_illegal_step_is_applied_not_at_all(table, tiny):
    game = await start_game(table, game="tiny")
    manager = table.env.bot.manager
    with pytest.raises(Refusal) as refused:
        await manager.submit_chain(
            game, 0, (("stay",), ("nonsense",)), user_id=None, folded=TinyStyle.FOLDED
        )
    assert refused.value.key == "move.illegal"
    assert game.seq == 0 and await manager.store.actions(game.id) == []
    assert game.state.done == []


async def test_a_folded_click_writes_the_log_separate_moves_write(table, tiny):
    game = await start_game(table, game="tiny")
    panel = (await table.alice.click(table_message(table.channel), label="Take turn")).response
    assert panel_options(panel) == ["stay>x", "stay>y", "draw"]
    after = (await choose(table.alice, panel, "stay>y")).response
    logged = [(e.seq, e.seat, e.choices) for e in await table.env.bot.store.actions(game.id)]
    assert logged == [(1, 0, ("stay",)), (2, 0, ("y",))]
    # the confirmation quotes the line the player clicked, in the words it showed
    assert "Stay and take Y" in [b["label"] for b in raw_buttons(panel)]
    assert "✅ Stay and take Y" in after.content
    # Typed, the same two moves give the same log lines.
    await table.alice.slash(table.channel, "move", text="stay y")
    logged = [e.choices for e in await table.env.bot.store.actions(game.id)]
    assert logged[2:] == [("stay",), ("y",)]
    assert game.state.done == ["stay", "y", "stay", "y"]


async def test_a_stale_or_double_clicked_chain_is_refused(table):
    game = await start_game(table, table.bob, game="keyflower")
    member, seat = acting_member(table, game)
    panel = (await member.click(table_message(table.channel), label="Take turn")).response
    as_shown = copy.deepcopy(stored_message(table.env, panel))
    menu = next(m for m in selects(panel) if any(">" in o["value"] for o in m["options"]))
    value = next(o["value"] for o in menu["options"] if o["value"].startswith("bid>"))
    await table.env.bot.manager.submit(game, seat, ("pass",), user_id=None)
    seq = game.seq
    again = await click_as_it_was(member, as_shown, menu["custom_id"], [value])
    assert game.seq == seq  # the old panel's chain made no move
    assert "your turn" in again.response.content
    # A forged chain naming no option of the current decision makes no move either.
    forged = menu["custom_id"].rsplit(":", 2)[0]
    await click_as_it_was(member, as_shown, f"{forged}:o:bid>ZZZ")
    assert game.seq == seq


async def test_one_undo_takes_back_a_folded_click_whole(table, tiny, make_bot):
    """A player who made two moves in one click takes them back with one Undo (also after a
    restart: the log says which moves went together); moves typed one by one are taken back
    one at a time."""
    game = await start_game(table, game="tiny")
    panel = (await table.alice.click(table_message(table.channel), label="Take turn")).response
    after = (await choose(table.alice, panel, "stay>y")).response
    assert game.state.done == ["stay", "y"] and "Undo" in buttons(after.message)
    undone = (await table.alice.click(after, label="Undo")).response
    assert "Moves 1–2 taken back" in undone.content
    assert game.state.done == [] and game.seq == 4
    logged = await table.env.bot.store.actions(game.id)
    assert [(e.choices, e.chained) for e in logged] == [
        (("stay",), False),
        (("y",), True),
        ((UNDO, "2"), False),
        ((UNDO, "1"), True),
    ]
    assert panel_options(undone) == ["stay>x", "stay>y", "draw"]  # the first decision again

    await table.alice.slash(table.channel, "move", text="stay x")
    typed = await table.alice.slash(table.channel, "undo")
    assert "Move 6 taken back" in typed.response.content and game.state.done == ["stay"]
    typed = await table.alice.slash(table.channel, "undo")
    assert "Move 5 taken back" in typed.response.content and game.state.done == []

    await choose(table.alice, typed.response, "stay>x")
    await table.env.restart_bot(make_bot())
    undone = await table.alice.slash(table.channel, "undo")
    assert "Moves 9–10 taken back" in undone.response.content
    logged = await table.env.bot.store.actions(game.id)
    assert [e.choices for e in logged[-2:]] == [(UNDO, "10"), (UNDO, "9")]


async def test_a_chain_is_applied_in_one_submission(table):
    game = await start_game(table, table.bob, game="keyflower")
    member, seat = acting_member(table, game)
    panel = (await member.click(table_message(table.channel), label="Take turn")).response
    tile = game.state.offer[0]
    colour_panel = (await choose(member, panel, f"bid>{tile}")).response
    assert game.seq == 2 and game.state.move.tile == tile
    # The colour and how many are one line each.
    bids = [v for v in panel_options(colour_panel) if CHAIN_SEP in v]
    assert bids and all(len(v.split(CHAIN_SEP)) == 2 for v in bids)
    await choose(member, colour_panel, bids[0])
    colour, count = bids[0].split(CHAIN_SEP)
    entries = await table.env.bot.store.actions(game.id)
    assert [e.choices for e in entries] == [("bid",), (tile,), (colour,), (count,)]
    assert {e.seat for e in entries} == {seat}
    assert [(g.colour, g.count) for g in game.state.tiles[tile].bids] == [(colour, int(count))]


def test_a_chain_resolves_by_index_too(tiny):
    state = tiny.new(1, 5)
    decision = tiny.decisions(state)[0]
    assert resolve_chain(tiny, state, 0, decision, "#0>#1") == (("stay",), ("y",))
    assert resolve_chain(tiny, state, 0, decision, "stay>z") is None


# -- per game: the most frequent moves take at most two clicks after Take turn ------------
def _moves(game_id: str, players: int, seed: int, count: int) -> tuple[list[Any], list[Action]]:
    from meeple_hall.games.ai.levels import random_answer

    engine = games.get(game_id)
    state = engine.new(players, seed)
    rng = random.Random(seed)
    states, log = [], []
    while len(log) < count and (pending := engine.decisions(state)):
        decision = pending[0]
        states.append(state)
        log.append(Action(decision.seat, random_answer(decision, rng)))
        state = engine.apply(state, log[-1])
    return states, log


FREQUENT = {
    # game: (players, the decision kinds of the most frequent moves, as the bench finds them)
    "keyflower": (3, [("action", "location", "colour", "count")]),
    "burgundy": (3, [("die", "action", "take"), ("die", "action", "place"), ("die", "action")]),
    "village": (3, [("turn",), ("turn", "harvest")]),
    "coffee": (3, [("work", "plant_row", "plant_space"), ("trade", "build_site")]),
}


@pytest.mark.parametrize("game_id", sorted(FREQUENT))
def test_the_most_frequent_moves_take_at_most_two_clicks(game_id):
    """Random games' moves of the most frequent shapes, counted through the panel builder
    (a move ends where the seat's next decision starts another one of its kind)."""
    players, shapes = FREQUENT[game_id]
    engine = games.get(game_id)
    found: dict[tuple[str, ...], list[int]] = {shape: [] for shape in shapes}
    for seed in (1, 2, 3):
        states, log = _moves(game_id, players, seed, 260)
        kinds = [
            next(d.kind for d in engine.decisions(s) if d.seat == a.seat)
            for s, a in zip(states, log, strict=True)
        ]
        for start, first in enumerate(log):
            for shape in shapes:
                end = start + len(shape)
                if end > len(log) or tuple(kinds[start:end]) != shape:
                    continue
                if any(a.seat != first.seat or a.choices == ("back",) for a in log[start:end]):
                    continue
                if end < len(log) and log[end].seat == first.seat and kinds[end] != shape[0]:
                    continue  # a longer move
                spent, i = 0, start
                while i < end:
                    answer = clicks(
                        model_game(engine, states[i], players, seq=i),
                        first.seat,
                        [a.choices for a in log[i:end]],
                    )
                    spent, i = spent + answer.clicks, i + answer.moves
                found[shape].append(spent)
    for shape, spent in found.items():
        assert spent, f"{game_id}: no {shape} move in the sample"
        assert max(spent) <= 2, f"{game_id}: {shape} took {max(spent)} clicks"


def callback_kinds(env, since: int) -> list[int]:
    """The interaction callback types the bot sent since request number `since`: 4 an
    answer, 5 acknowledged first (an answer to follow), 6 a click on a panel acknowledged
    first, 7 the panel edited."""
    return [r.json["type"] for r in env.http_requests[since:] if r.path.endswith("/callback")]


async def test_a_panel_is_worked_out_once_and_a_move_acknowledged_first(table, tiny, monkeypatch):
    """Working out a panel tries every option: the first Take turn is acknowledged before
    it, and the lines are kept for the state, so opening the panel again and the move
    itself try nothing again. A move click is acknowledged before the move is applied; a
    click the panel does not offer is answered at once."""
    from meeple_hall.bot import panels

    worked_out = []
    real = panels.panel_lines
    monkeypatch.setattr(
        panels, "panel_lines", lambda *a, **k: worked_out.append(1) or real(*a, **k)
    )
    game = await start_game(table, game="tiny")
    env = table.env
    since = len(env.http_requests)
    first = await table.alice.click(table_message(table.channel), label="Take turn")
    assert callback_kinds(env, since) == [5]
    since = len(env.http_requests)
    again = await table.alice.click(table_message(table.channel), label="Take turn")
    assert callback_kinds(env, since) == [4]
    options = ["stay>x", "stay>y", "draw"]
    assert panel_options(first.response) == panel_options(again.response) == options
    assert len(worked_out) == 1

    as_shown = copy.deepcopy(stored_message(env, again.response))
    since = len(env.http_requests)
    applied = await choose(table.alice, again.response, "stay>x")
    assert callback_kinds(env, since) == [6] and "✅ Stay · X" in applied.response.content
    assert game.state.done == ["stay", "x"] and len(worked_out) == 2  # the next panel's

    # the panel as it was before that move, clicked again: out of date, said at once
    draw = next(b for b in raw_buttons(as_shown) if b["custom_id"].endswith(":o:draw"))
    since = len(env.http_requests)
    stale = await click_as_it_was(table.alice, as_shown, draw["custom_id"])
    assert callback_kinds(env, since) == [7] and "out of date" in stale.response.content
    assert game.seq == 2


def test_a_menu_of_one_line_names_it_once_and_legends_keep_a_whole_label():
    from meeple_hall.bot import panels

    decision = Decision(0, "go", "Go", tuple(Option(f"o{i}", f"Option {i}") for i in range(26)))
    lines = [panels.Line((decision,), (option.id,)) for option in decision.options]
    styles = {line.value: presenters.OptionStyle(label=f"Option {line.value}") for line in lines}
    ref = panels.PanelRef(1, 1, "abc")
    last = panels._menu(ref, decision, lines[25:], styles, 0, 1, frozenset(), "en", 26)
    assert last.item.placeholder == "Option o25"  # not "Option o25 … Option o25"
    first = panels._menu(ref, decision, lines[:25], styles, 0, 0, frozenset(), "en", 26)
    assert first.item.placeholder == "Option o0 … Option o24"
    label = "A label of eighty characters, as many as a button shows, " + "x" * 23
    assert len(label) == 80 and panels._shown(presenters.OptionStyle(label=label)) == label


# the folds of issue 29's third round: the panels offering them, and the kinds they fold
NEW_FOLDS = {
    "village": (("council", "travel"), ("privilege", "reward")),
    "coffee": (("sell",), ("sell_second",)),
}


@pytest.mark.parametrize("game_id", sorted(NEW_FOLDS))
def test_a_panel_folding_what_an_action_brings_keeps_within_discords_limits(game_id):
    """Village's council and travel panels (with the privilege or the city's cubes) and
    Coffee Traders' Sell panels (with what follows a first delivery), the first 12 of
    random games: at most one page of menus, and every line's words whole within a menu
    line's 100 characters in en, zh-TW and ja, not clipped."""
    from meeple_hall.bot.panels import FOLD_MAX_LINES, line_styles

    panel_kinds, folded_kinds = NEW_FOLDS[game_id]
    engine = games.get(game_id)
    folded = presenters.folded_kinds(game_id)
    chained, panels = 0, 0
    for seed in (1, 2):
        states, log = _moves(game_id, 3, seed, 300)
        for state, action in zip(states, log, strict=True):
            decision = next(d for d in engine.decisions(state) if d.seat == action.seat)
            if decision.kind not in panel_kinds or panels == 12:
                continue
            panels += 1
            lines = panel_lines(engine, state, action.seat, decision, folded)
            assert len(lines) <= FOLD_MAX_LINES
            chained += sum(line.decisions[-1].kind in folded_kinds for line in lines)
            for language in ("en", "zh-TW", "ja"):
                for style in line_styles(game_id, lines, language).values():
                    assert len(style.label) <= 100, style.label
                    assert len(style.description or "") <= 100, style.description
    assert chained, f"{game_id}: no folded line in the sample"


def test_a_delivery_folds_with_a_second_one_not_with_the_trades():
    """Coffee Traders' Sell panels: a first delivery folds with a second delivery or with
    dropping out, never with a trade (those made the panel four menus long); where a trade
    may follow, the delivery is offered alone too, and the trade is asked after it (a
    delivery to a "different kinds" space may fold its coffee)."""
    engine = games.get("coffee")
    folded = presenters.folded_kinds("coffee")
    alone, chained = 0, 0
    for seed in (1, 2, 3):
        states, log = _moves("coffee", 3, seed, 300)
        for state, action in zip(states, log, strict=True):
            decision = next(d for d in engine.decisions(state) if d.seat == action.seat)
            if decision.kind != "sell":
                continue
            for line in panel_lines(engine, state, action.seat, decision, folded):
                if len(line.decisions) == 1:
                    alone += 1
                    continue
                chained += 1
                for decision, answer in zip(line.decisions, line.options, strict=True):
                    if decision.kind == "sell_second":
                        assert answer.fields.get("action") in {"bar", "drop"}, line.steps
    assert alone and chained
