"""Keyflower at the table through the real bot: lobby, picture, panels, /move, /hand, a game."""

from __future__ import annotations

import random

from tests.bot.conftest import (
    acting_member,
    answer_panel,
    buttons,
    choose,
    panel_options,
    play_out,
    selects,
    start_game,
    table_message,
)


async def test_a_keyflower_table_starts_with_the_picture_and_a_turn_to_take(table):
    game = await start_game(table, table.bob, ai=1, game="keyflower")
    assert game.table.game == "keyflower" and len(game.table.seats) == 3
    message = table_message(table.channel)
    assert message.attachments and message.attachments[0].filename == "table.png"
    assert {"Take turn", "My info", "Log"} <= set(buttons(message))
    assert game.state.phase == "play" and len(game.state.offer) == 7


async def test_a_bid_typed_with_move_puts_workers_beside_the_tile(table):
    game = await start_game(table, table.bob, table.carol, game="keyflower")
    member, seat = acting_member(table, game)
    tile = game.state.offer[0]
    screen = game.state.players[seat].screen
    colour = max(screen, key=lambda c: screen[c])
    before = screen[colour]
    result = await member.slash(table.channel, "move", text=f"bid {tile} {colour} 1")
    assert f"Applied: `bid {tile} {colour} 1`" in result.response.content
    bids = game.state.tiles[tile].bids
    assert [(g.seat, g.colour, g.count) for g in bids] == [(seat, colour, 1)]
    assert game.state.players[seat].screen.get(colour, 0) == before - 1
    assert game.decisions()[0].seat == (seat + 1) % 3


async def test_take_turn_panels_walk_a_turn_and_pass_moves_play_on(table):
    game = await start_game(table, table.bob, game="keyflower")
    member, seat = acting_member(table, game)
    panel = (await member.click(table_message(table.channel), label="Take turn")).response
    # Bid and Use are folded with their tile: one menu line per tile, and Pass.
    values = panel_options(panel)
    assert "pass" in values
    assert {f"bid>{t}" for t in [*game.state.offer, *game.state.turn_order]} <= set(values)
    await choose(member, panel, "pass")
    assert game.state.passes == 1 and game.decisions()[0].seat == 1 - seat
    member, other = acting_member(table, game)
    seq = game.seq
    opened = await member.click(table_message(table.channel), label="Take turn")
    await answer_panel(member, opened.response, random.Random(4))
    assert game.seq > seq and game.acted[game.seq] == other


async def test_a_use_typed_with_move_sends_the_resources_to_the_home_tile(table):
    from meeple_hall.games.keyflower.components import spec

    game = await start_game(table, table.bob, game="keyflower")
    member, seat = acting_member(table, game)
    tile = next(t for t in game.state.offer if spec(t).front["effect"] == "resources")
    (kind, n), *_ = spec(tile).front["give"].items()
    screen = game.state.players[seat].screen
    colour = max(screen, key=lambda c: screen[c])
    home = game.state.players[seat].home
    await member.slash(table.channel, "move", text=f"use {tile} {colour} 1")
    assert game.state.tiles[home].resources.get(kind, 0) == n
    assert [(g.seat, g.count) for g in game.state.tiles[tile].workers] == [(seat, 1)]


async def test_hand_sends_the_screen_as_text_and_picture(table):
    game = await start_game(table, table.bob, game="keyflower")
    result = await table.bob.slash(table.channel, "hand")
    assert result.ephemeral
    content = result.response.content
    assert "Behind your screen" in content
    for tile in game.state.players[1].winter_hand:
        assert tile in content
    for tile in set(game.state.players[0].winter_hand) - set(game.state.players[1].winter_hand):
        assert tile not in content
    assert result.response.attachments[0].filename == "private.png"


async def test_rules_say_which_components_are_reconstructed(table):
    result = await table.alice.slash(table.channel, "rules", game="keyflower")
    content = result.response.content
    assert "Keyflower" in content and "Reconstructed components" in content


async def test_a_whole_game_ends_with_the_scores_and_their_breakdown(table):
    game = await start_game(table, ai=1, game="keyflower")
    await play_out(table, game, [table.alice, table.bob], random.Random(2), max_moves=3000)
    final = table.channel.last_message
    assert "final scores" in final.embeds[0].title
    assert final.attachments
    fields = [f for f in final.embeds[0].fields if f.name.startswith("#")]
    assert len(fields) == 2
    breakdown = game.table.result["breakdown"]
    assert [sum(b.values()) for b in breakdown] == game.table.result["scores"]


async def test_the_bid_panel_names_each_tile_by_its_code_and_name(table):
    from meeple_hall.games.keyflower.components import spec

    game = await start_game(table, table.bob, game="keyflower")
    member, _ = acting_member(table, game)
    panel = (await member.click(table_message(table.channel), label="Take turn")).response
    lines = {o["value"]: o for menu in selects(panel) for o in menu["options"]}
    for tile in [*game.state.offer, *game.state.turn_order]:
        line = lines[f"bid>{tile}"]
        assert line["label"].startswith(f"Bid on {tile} {spec(tile).name}")
        if spec(tile).upgrade:  # the upgrade cost is in the description
            assert "upgrade for" in line["description"]
