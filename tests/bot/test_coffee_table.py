"""Coffee Traders at the table through the real bot: a lobby with options, two players against
André, Take turn panels, typed moves, /hand with its picture, /rules, and a whole game."""

from __future__ import annotations

import random

from meeple_hall.games.core.catalogues import render, score_category
from tests.bot.conftest import (
    acting_member,
    answer_panel,
    buttons,
    choose,
    panel_options,
    play_by_move_text,
    start_game,
    table_message,
)


async def test_two_players_sit_down_against_andre_with_the_vicious_milestones(table):
    game = await start_game(table, table.bob, game="coffee", options="milestones=vicious")
    state = game.state
    assert game.table.game == "coffee" and len(game.table.seats) == 2
    assert state.vicious and state.andre is not None and state.andre.seat == 2
    assert state.order[-1] == 2  # André always goes last
    message = table_message(table.channel)
    assert message.attachments and message.attachments[0].filename == "table.png"
    assert {"Take turn", "My info", "Log"} <= set(buttons(message))
    assert state.phase == "work" and not state.players[2].coins


async def test_three_players_with_an_ai_seat_and_the_experienced_start(table):
    game = await start_game(table, table.bob, ai=1, game="coffee", options="start=experienced")
    assert len(game.table.seats) == 3 and game.state.andre is None
    assert game.state.phase == "setup"
    member, seat = acting_member(table, game)
    panel = (await member.click(table_message(table.channel), label="Take turn")).response
    spaces = panel_options(panel)
    assert spaces and all(s.count(".") == 2 for s in spaces)
    await choose(member, panel, spaces[0])
    coffee, row, index = spaces[0].split(".")
    planted = game.state.coops[coffee].rows[int(row) - 1][int(index)]
    assert planted is not None and planted.owner == seat and planted.level == 1


async def test_four_players_with_the_handicap_set_in_the_lobby(table):
    game = await start_game(
        table, table.bob, table.carol, ai=1, game="coffee", options="handicap=p2-4"
    )
    players = game.state.players
    assert len(game.table.seats) == 4 and game.state.rules_players == 4
    assert len(players[1].hard_sides) == 4
    assert not any(p.hard_sides for s, p in enumerate(players) if s != 1)


async def test_breeding_a_donkey_through_the_take_turn_panel(table):
    game = await start_game(table, table.bob, game="coffee")
    member, seat = acting_member(table, game)
    player = game.state.players[seat]
    donkeys, markers = player.donkeys, player.markers
    panel = (await member.click(table_message(table.channel), label="Take turn")).response
    assert panel.ephemeral
    assert {"donkey", "civet", "coins", "drop"} <= set(panel_options(panel))
    # Add a plantation is folded with the row of the board it comes from.
    assert {"plant>A", "plant>B"} <= set(panel_options(panel))
    pathway_panel = (await choose(member, panel, "donkey")).response
    assert game.state.players[seat].markers == markers - 2
    pathways = panel_options(pathway_panel)
    assert pathways  # then the donkey goes onto a pathway between two rows
    await choose(member, pathway_panel, pathways[0])
    coffee, key = pathways[0].split(".", 1)
    pathway = game.state.coops[coffee].pathways[key]
    assert pathway.owner == seat and pathway.donkeys == 1
    assert game.state.players[seat].donkeys == donkeys


async def test_income_typed_with_move_takes_two_coins_and_play_passes_on(table):
    game = await start_game(table, table.bob, game="coffee")
    member, seat = acting_member(table, game)
    coins = game.state.players[seat].coins
    result = await member.slash(table.channel, "move", text="coins")
    assert "Applied: `coins`" in result.response.content
    assert game.state.players[seat].coins == coins + 2
    assert game.decisions()[0].seat == 1 - seat  # the other human; André never works


async def test_hand_sends_the_company_board_as_text_and_picture(table):
    game = await start_game(table, table.bob, game="coffee")
    result = await table.bob.slash(table.channel, "hand")
    assert result.ephemeral
    content = result.response.content
    assert "Your company (P2)" in content
    coins = game.state.players[1].coins
    assert f"{coins} coins" in content
    assert result.response.attachments[0].filename == "private.png"


async def test_rules_say_which_components_are_reconstructed(table):
    result = await table.alice.slash(table.channel, "rules", game="coffee")
    # longer than one message: the rest follows in a second one, nothing cut off
    content = "\n".join(m.content for m in [result.response, *result.followups])
    assert "Coffee Traders" in content and "Reconstructed components" in content
    notes_end = content.index("shows your company board larger.")  # the notes, whole
    assert content.rstrip().endswith("`scoring`: End of Game")  # then the rulebook's topics
    assert "`work`" in content[notes_end:]


async def test_a_few_panel_moves_then_typed_turns_to_the_end_against_andre(table):
    """Both humans answer panels for a while, then type each whole turn as one /move (panels
    are too slow for three periods here); André's steps run between them."""
    game = await start_game(table, table.bob, game="coffee")
    members = [table.alice, table.bob]
    rng = random.Random(3)
    for _ in range(12):
        seat = game.decisions()[0].seat
        opened = await members[seat].click(table_message(table.channel), label="Take turn")
        await answer_panel(members[seat], opened.response, rng)
    await play_by_move_text(table, game, members, rng)
    assert game.state.over and game.state.period == 3
    final = table.channel.last_message
    assert "final scores" in final.embeds[0].title
    assert final.attachments
    fields = [f for f in final.embeds[0].fields if f.name.startswith("#")]
    assert len(fields) == 2  # André scores nothing and has no seat at the table
    result = game.table.result
    assert [sum(b.values()) for b in result["breakdown"]] == result["scores"]
    shown = " ".join(f.value for f in fields)
    for seat in range(2):
        for category, points in result["breakdown"][seat].items():
            if points:
                name = render("en", score_category("coffee", category))
                assert f"{name} {points}" in shown


async def test_a_move_typed_out_of_phase_is_refused_with_the_prompt_and_the_choices(table):
    """Placing a trader belongs to Trade & Build: typed during Work, the refusal says what the
    current decision is and lists what may be typed instead, and nothing changes."""
    game = await start_game(table, table.bob, game="coffee")
    member, seat = acting_member(table, game)
    coins = game.state.players[seat].coins
    result = await member.slash(table.channel, "move", text="trader.gua")
    content = result.response.content
    assert "`trader.gua` isn't a choice" in content
    assert "Phase 1 Work: choose an action" in content
    assert "coins" in content and "drop" in content
    assert game.state.phase == "work" and game.state.players[seat].coins == coins


async def test_board_focus_offers_andre_s_board_at_two_players(table):
    """At 2 players the table has two seats and André a third place in the picture: the
    focus list named him `seat3`, a seat the table has not, and autocomplete came back
    empty. His board is its own part."""
    await start_game(table, table.bob, game="coffee")
    choices = await table.carol.autocomplete(table.channel, "board", "focus", "")
    values = [c["value"] for c in choices]
    assert values[-3:] == ["seat1", "seat2", "andre"]
    assert choices[-1]["name"] == "André's board (the automaton)"
    shown = await table.carol.slash(table.channel, "board", focus="andre")
    assert not shown.ephemeral and shown.response.attachments
    assert "André's board" in shown.response.content
