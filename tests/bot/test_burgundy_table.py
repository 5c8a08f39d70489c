"""The Castles of Burgundy at the table, through the real bot: lobby with options, panels,
typed moves, /hand with its picture, /rules, and a whole game to the final scores."""

from __future__ import annotations

import random
import re

from meeple_hall.bot import presenters
from meeple_hall.bot.panels import line_styles, panel_lines
from meeple_hall.games.burgundy import scoring
from meeple_hall.games.core.catalogues import render, score_category
from tests.bot.conftest import (
    answer_panel,
    buttons,
    choose,
    play_by_move_text,
    raw_buttons,
    selects,
    start_game,
    table_message,
)


async def test_lobby_with_options_and_an_ai_seat_starts_a_three_player_table(table):
    game = await start_game(table, table.bob, ai=1, game="burgundy", options="tiebreak=other")
    assert game.table.game == "burgundy" and len(game.table.seats) == 3
    assert game.state.tiebreak == "other" and game.state.num_players == 3
    message = table_message(table.channel)
    assert message.attachments and message.attachments[0].filename == "table.png"
    assert {"Take turn", "My info", "Log"} <= set(buttons(message))


async def test_a_die_then_take_workers_through_take_turn_panels(table):
    game = await start_game(table, table.bob, game="burgundy")
    seat = game.state.active
    member = (table.alice, table.bob)[seat]
    workers = game.state.players[seat].workers
    panel = (await member.click(table_message(table.channel), label="Take turn")).response
    assert panel.ephemeral and "Choose a die" in panel.content
    rolled = str(game.state.players[seat].dice[0])
    # The die and its action are one line of the die panel (issue 29: two clicks).
    await choose(member, panel, f"{rolled}>workers")
    assert game.state.players[seat].workers == workers + 2
    assert game.state.players[seat].used.count(True) == 1


async def test_the_action_panel_says_what_each_action_brings(table):
    game = await start_game(table, table.bob, game="burgundy")
    seat = game.state.active
    member = (table.alice, table.bob)[seat]
    panel = (await member.click(table_message(table.channel), label="Take turn")).response
    rolled = game.state.players[seat].dice[0]
    action_panel = panel  # the action and its tile are folded into the die
    # Take and place are folded into the action: one line per tile taken or hex filled.
    lines = [*raw_buttons(action_panel), *(o for m in selects(action_panel) for o in m["options"])]
    labels = {line["label"] for line in lines}
    assert f"Die {rolled}: Take 2 workers" in labels
    taking = re.compile(f"Die {rolled}: Take .+ from depot {rolled}")
    assert any(taking.fullmatch(label) for label in labels)
    # Buttons carry no description, so the panel's text gives each one under its label.
    decision = game.decision_for(seat)
    styles = line_styles(
        "burgundy",
        panel_lines(game.engine, game.state, seat, decision, presenters.folded_kinds("burgundy")),
        "en-US",
    )
    assert all(s.description for s in styles.values())
    if any(":o:" in b["custom_id"] for b in raw_buttons(action_panel)):
        for style in styles.values():
            assert f"{style.emoji} {style.label}: {style.description}" in action_panel.content


async def test_a_mistyped_move_is_refused_with_the_decision_and_its_choices(table):
    game = await start_game(table, table.bob, game="burgundy")
    seat = game.state.active
    member = (table.alice, table.bob)[seat]
    rolled = game.state.players[seat].dice[0]
    result = await member.slash(table.channel, "move", text="harvest")
    content = result.response.content
    assert "`harvest` isn't a choice" in content and "Choose a die (each worker" in content
    assert f"Choices: {rolled}" in content or f", {rolled}," in content
    assert game.seq == 0


async def test_random_panel_answers_are_always_legal(table):
    game = await start_game(table, table.bob, game="burgundy")
    members = (table.alice, table.bob)
    rng = random.Random(7)
    seq = 0
    for _ in range(12):
        member = members[game.decisions()[0].seat]
        opened = await member.click(table_message(table.channel), label="Take turn")
        result = await answer_panel(member, opened.response, rng)
        assert "isn't" not in (result.response.content or "")
        assert game.seq > seq  # a folded line makes several moves at once
        seq = game.seq


async def test_move_text_takes_a_tile_and_workers_then_the_turn_passes(table):
    game = await start_game(table, table.bob, game="burgundy")
    seat = game.state.active
    member = (table.alice, table.bob)[seat]
    player = game.state.players[seat]
    first, second = player.dice
    spaces = game.view(None)["depots"][first - 1]["spaces"]
    face = next(s["tile"]["face"] for s in spaces if s["tile"])
    workers = player.workers
    text = f"{first} take {face} {second} workers"
    result = await member.slash(table.channel, "move", text=text)
    assert f"Applied: `{text}`" in result.response.content
    player = game.state.players[seat]
    assert [game.view(None)["players"][seat]["storage"][0]["face"]] == [face]
    assert player.workers == workers + 2
    # 1 silverling cannot buy from the black depot, so nothing is left to do this turn
    assert game.state.active != seat
    assert table_message(table.channel).attachments


async def test_hand_sends_the_private_picture(table):
    await start_game(table, table.bob, game="burgundy")
    result = await table.alice.slash(table.channel, "hand")
    assert result.ephemeral
    assert "Seat 1" in result.response.content and "Sold" in result.response.content
    assert [a.filename for a in result.response.attachments] == ["private.png"]


async def test_rules_shows_the_reconstructed_facts(table):
    result = await table.alice.slash(table.channel, "rules", game="burgundy")
    content = result.response.content
    assert "Castles of Burgundy" in content and "tiebreak" in content
    assert "Reconstructed" in content


async def test_a_whole_game_against_an_ai_seat_ends_with_the_breakdown(table):
    """Alice types each whole turn as one /move (panels are too slow for 25 rounds here)."""
    game = await start_game(table, ai=1, game="burgundy")
    await play_by_move_text(table, game, [table.alice], random.Random(4))
    assert not game.decisions() and game.state.over
    final = table.channel.last_message
    embed = final.embeds[0]
    assert "final scores" in embed.title and final.attachments
    result = game.result()
    fields = {f.name: f.value for f in embed.fields if f.name.startswith("#")}
    assert len(fields) == 2
    for seat, part in enumerate(result.breakdown):
        assert part == scoring.breakdown(game.state.players[seat])
        who = game.table.seats[seat].name
        shown = next(
            v for name, v in fields.items() if who in name and str(result.scores[seat]) in name
        )
        for category, points in part.items():
            if points:
                named = render("en", score_category("burgundy", category))
                assert f"{named} {points}" in shown
