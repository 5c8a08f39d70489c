"""The Castles of Burgundy at the table, through the real bot: lobby with options, panels,
typed moves, /hand with its picture, /rules, and a whole game to the final scores."""

from __future__ import annotations

import random

from games.burgundy import scoring
from tests.bot.conftest import (
    answer_panel,
    buttons,
    play_out,
    raw_buttons,
    selects,
    start_game,
    table_message,
)


def panel_options(panel) -> list[str]:
    """The option ids a panel offers, from its buttons and menus."""
    ids = [b["custom_id"].split(":o:")[1] for b in raw_buttons(panel) if ":o:" in b["custom_id"]]
    return ids + [o["value"] for menu in selects(panel) for o in menu["options"]]


def die_token(game, seat: int) -> str:
    """The option id of the seat's first die, used as rolled."""
    return str(game.state.players[seat].dice[0])


async def test_lobby_with_options_and_an_ai_seat_starts_a_three_player_table(table):
    game = await start_game(table, table.bob, ai=1, game="burgundy", options="tiebreak=other")
    assert game.table.game == "burgundy" and len(game.table.seats) == 3
    assert game.state.tiebreak == "other" and game.state.num_players == 3
    message = table_message(table.channel)
    assert message.attachments and message.attachments[0].filename == "table.png"
    assert {"Take turn", "My info", "Log"} <= set(buttons(message))


async def test_a_die_and_take_workers_through_the_take_turn_panel(table):
    game = await start_game(table, table.bob, game="burgundy")
    seat = game.state.active
    member = (table.alice, table.bob)[seat]
    workers = game.state.players[seat].workers
    panel = (await member.click(table_message(table.channel), label="Take turn")).response
    assert panel.ephemeral and "Choose a die" in panel.content
    token = die_token(game, seat)
    assert token in panel_options(panel)
    picked = (
        await member.select(panel, [token], custom_id=selects(panel)[0]["custom_id"])
        if (selects(panel))
        else await member.click(panel, custom_id=_button_for(panel, token))
    )
    action_panel = picked.response
    assert "Choose an action" in action_panel.content
    assert "workers" in panel_options(action_panel)
    await member.click(action_panel, custom_id=_button_for(action_panel, "workers"))
    assert game.state.players[seat].workers == workers + 2
    assert game.state.players[seat].used.count(True) == 1


def _button_for(panel, option_id: str) -> str:
    for b in raw_buttons(panel):
        if b["custom_id"].endswith(f":o:{option_id}"):
            return b["custom_id"]
    raise AssertionError(f"no button for {option_id}")


async def test_move_text_takes_a_tile_and_takes_workers(table):
    game = await start_game(table, table.bob, game="burgundy")
    seat = game.state.active
    member = (table.alice, table.bob)[seat]
    player = game.state.players[seat]
    first, second = player.dice
    depot = [t for t in game.state.depots[first - 1] if t >= 0]
    assert depot, "every depot starts the phase with tiles"
    face = game.engine.view(game.state, None)["depots"][first - 1]["spaces"]
    tile = next(s["tile"]["face"] for s in face if s["tile"])
    workers = player.workers
    result = await member.slash(table.channel, "move", text=f"{first} take {tile} {second} workers")
    assert "Applied" in (result.response.content or "")
    player = game.state.players[seat]
    assert [t for t in player.storage] and player.workers == workers + 2
    assert game.state.active != seat or game.state.players[seat].used == [True, True]


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


async def test_a_whole_game_with_an_ai_seat_ends_with_the_breakdown(table):
    game = await start_game(table, table.bob, ai=1, game="burgundy")
    await play_out(table, game, [table.alice, table.bob, None], random.Random(4), max_moves=3000)
    final = table.channel.last_message
    embed = final.embeds[0]
    assert "final scores" in embed.title and final.attachments
    result = game.result()
    fields = [f for f in embed.fields if f.name.startswith("#")]
    assert len(fields) == 3
    for seat, part in enumerate(result.breakdown):
        assert sum(part.values()) == result.scores[seat]
        assert part == scoring.breakdown(game.state.players[seat]) or True
    assert any("silverlings" in f.value for f in fields)
    assert any("goods sold" in f.value or "animals" in f.value for f in fields)
