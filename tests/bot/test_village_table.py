"""Village at the table, through the real bot: lobby with options and AI seats, panels,
typed moves, /hand with its picture, /rules, a whole game to the final scores, and a
solo game against Karla to its achievement title."""

from __future__ import annotations

import copy
import random

from meeple_hall.bot.display import score_part
from meeple_hall.bot.i18n import game_text
from meeple_hall.games.core.catalogues import score_category
from meeple_hall.games.village import scoring
from tests.bot.conftest import (
    acting_member,
    buttons,
    choose,
    panel_options,
    play_by_move_text,
    selects,
    start_game,
    table_message,
)


def put_cube(game, space: str, colour: str = "green") -> None:
    """The table's seed is random: make sure the space holds a cube (from the supply). The
    live game's state is replaced, as the bot does, never changed in place (what the bot
    worked out from a state is kept while it is the state)."""
    state = copy.deepcopy(game.state)
    state.supply[colour] -= 1
    state.spaces[space].append(colour)
    game.state = state


async def test_lobby_with_options_and_ai_seats_starts_a_four_player_table(table):
    game = await start_game(
        table, table.bob, table.carol, ai=1, game="village", options="compensation=off"
    )
    assert game.table.game == "village" and len(game.table.seats) == 4
    assert game.state.num_players == 4
    # Without compensation every family starts with the same goods.
    assert len({p.grain for p in game.state.players}) == 1
    message = table_message(table.channel)
    assert message.attachments and message.attachments[0].filename == "table.png"
    assert {"Take turn", "My info", "Log"} <= set(buttons(message))


async def test_a_harvest_through_take_turn_panels(table):
    game = await start_game(table, table.bob, game="village", options="compensation=off")
    member, seat = acting_member(table, game)
    put_cube(game, "harvest")
    space, colour = "harvest", "green"
    grain = game.state.players[seat].grain
    panel = (await member.click(table_message(table.channel), label="Take turn")).response
    # The cube and whether to harvest are one click (the harvest decision is folded).
    options = panel_options(panel)
    assert panel.ephemeral and {f"{space}-{colour}>harvest", f"{space}-{colour}>skip"} <= set(
        options
    )
    await choose(member, panel, f"{space}-{colour}>harvest")
    player = game.state.players[seat]
    assert player.grain == grain + 2 and player.cubes[colour] >= 1
    assert game.decisions()[0].seat != seat


async def test_the_turn_panel_names_the_space_and_colour_and_says_what_follows(table):
    game = await start_game(table, table.bob, game="village", options="compensation=off")
    member, _ = acting_member(table, game)
    put_cube(game, "harvest")
    panel = (await member.click(table_message(table.channel), label="Take turn")).response
    lines = {o["value"]: o for m in selects(panel) for o in m["options"]}
    harvest = lines["harvest-green>harvest"]
    assert harvest["label"].startswith("Harvest (green) · ")
    assert lines["harvest-green>skip"]["label"].startswith("Harvest (green) · ")
    # its emoji: the harvest space's number on the turn's picture (the colour is in words)
    assert harvest["emoji"]["name"] == "3️⃣"
    # A space whose follow-up is not folded keeps its own line and words.
    church = next(o for v, o in lines.items() if v.startswith("church-") and ">" not in v)
    assert church["description"].startswith("Gain ")


async def test_an_illegal_typed_move_says_what_is_being_chosen(table):
    game = await start_game(table, table.bob, game="village", options="compensation=off")
    member, _ = acting_member(table, game)
    result = await member.slash(table.channel, "move", text="harvest-blue")
    content = result.response.content
    assert "harvest-blue" in content and "Take a cube from an action space" in content


async def test_move_text_takes_a_cube_and_answers_the_action(table):
    game = await start_game(table, table.bob, game="village", options="compensation=off")
    member, seat = acting_member(table, game)
    put_cube(game, "family")
    colour = "green"
    text = f"family-{colour} born"
    result = await member.slash(table.channel, "move", text=text)
    assert f"Applied: `{text}`" in result.response.content
    assert 2 in game.view(None)["players"][seat]["farm"]
    assert table_message(table.channel).attachments


async def test_hand_sends_the_private_picture(table):
    await start_game(table, table.bob, game="village")
    result = await table.alice.slash(table.channel, "hand")
    assert result.ephemeral
    assert "Your customers" in result.response.content
    assert [a.filename for a in result.response.attachments] == ["private.png"]


async def test_rules_shows_the_options_and_the_reconstructed_facts(table):
    result = await table.alice.slash(table.channel, "rules", game="village")
    content = result.response.content
    assert "Village" in content and "Karla" in content and "compensation" in content
    assert "Reconstructed" in content


async def test_a_whole_game_with_an_ai_seat_ends_with_the_breakdown(table):
    game = await start_game(table, ai=1, game="village")
    await play_by_move_text(table, game, [table.alice], random.Random(2))
    assert game.state.phase == "over"
    final = table.channel.last_message
    embed = final.embeds[0]
    assert "final scores" in embed.title and final.attachments
    fields = [f for f in embed.fields if f.name.startswith("#")]
    assert len(fields) == 2
    result = game.result()
    seats = game.table.seats
    assert {f.name for f in fields} == {
        f"#{result.ranks[s]} {seats[s].name}: {result.scores[s]}" for s in range(2)
    }
    for seat, part in enumerate(result.breakdown):
        assert part == scoring.breakdown(game.state, seat)
        shown = next(
            f.value for f in fields if f.name.endswith(f"{seats[seat].name}: {result.scores[seat]}")
        )
        for category, points in part.items():
            assert f"{category} {points}" in shown


async def test_a_solo_game_against_karla_ends_with_the_achievement_title(table):
    game = await start_game(table, game="village", options="karla=die")
    assert len(game.table.seats) == 1 and game.state.solo
    assert game.state.karla is not None
    await play_by_move_text(table, game, [table.alice], random.Random(5))
    assert game.state.phase == "over"
    result = game.result()
    score = result.scores[0]
    title = scoring.title(score)
    assert result.breakdown[0][f"title: {title}"] == 0
    assert sum(result.breakdown[0].values()) == score
    stored = await table.env.bot.store.get_table(game.id)
    assert f"title: {title}" in stored.result["breakdown"][0]
    final = table.channel.last_message
    embed = final.embeds[0]
    assert "final scores" in embed.title and final.attachments
    assert [f.name for f in embed.fields if f.name.startswith("#")] == [f"#1 alice: {score}"]
    assert game.view(None)["title_rank"] == scoring.title_rank(score)
    # the title names the score's band: shown as words, with no 0 beside them
    shown = next(f.value for f in embed.fields if f.name.startswith("#1"))
    named = game_text("en", score_category("village", f"title: {title}"))
    assert named in shown.split(" · ") and f"{named} 0" not in shown


def test_a_title_worth_nothing_shows_without_its_0_and_a_category_worth_nothing_with_it():
    assert score_part("village", "title: master", 0, "en") == "title: master"
    assert score_part("village", "title: master", 0, "zh-TW") == "成就：大師"
    assert score_part("village", "coins", 0, "en") == "coins 0"
    assert score_part("village", "church", 15, "ja").endswith(" 15")


async def test_board_focus_shows_karlas_board_in_a_solo_game(table):
    await start_game(table, game="village", options="karla=die")
    choices = await table.alice.autocomplete(table.channel, "board", "focus", "karla")
    assert choices == [{"name": "Karla's board (the solo opponent)", "value": "karla"}]
    result = await table.alice.slash(table.channel, "board", focus="karla")
    assert "Karla's board (the solo opponent)" in result.response.content
    assert [a.filename for a in result.response.attachments] == ["table.png"]
