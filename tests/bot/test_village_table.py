"""Village at the table, through the real bot: lobby with options and AI seats, panels,
typed moves, /hand with its picture, /rules, a whole game to the final scores, and a
solo game against Karla to its achievement title."""

from __future__ import annotations

import copy
import random

from games.core import Action
from games.testing import random_choices
from games.village import scoring
from tests.bot.conftest import (
    buttons,
    raw_buttons,
    selects,
    start_game,
    table_message,
)


def panel_options(panel) -> list[str]:
    """The option ids a panel offers, from its buttons and menus."""
    ids = [b["custom_id"].split(":o:")[1] for b in raw_buttons(panel) if ":o:" in b["custom_id"]]
    return ids + [o["value"] for menu in selects(panel) for o in menu["options"]]


async def choose(member, panel, option_id: str):
    """Answer a panel with one option: its button, or the menu that lists it."""
    for b in raw_buttons(panel):
        if b["custom_id"].endswith(f":o:{option_id}"):
            return await member.click(panel, custom_id=b["custom_id"])
    for menu in selects(panel):
        if option_id in [o["value"] for o in menu["options"]]:
            return await member.select(panel, [option_id], custom_id=menu["custom_id"])
    raise AssertionError(f"the panel does not offer {option_id}")


def seat_member(table, game):
    seat = game.decisions()[0].seat
    return seat, (table.alice, table.bob, table.carol)[seat]


def put_cube(game, space: str, colour: str = "green") -> None:
    """The table's seed is random: make sure the space holds a cube (from the supply)."""
    game.state.supply[colour] -= 1
    game.state.spaces[space].append(colour)


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
    seat, member = seat_member(table, game)
    put_cube(game, "harvest")
    space, colour = "harvest", "green"
    grain = game.state.players[seat].grain
    panel = (await member.click(table_message(table.channel), label="Take turn")).response
    assert panel.ephemeral and f"{space}-{colour}" in panel_options(panel)
    step = (await choose(member, panel, f"{space}-{colour}")).response
    assert "harvest" in panel_options(step) and "skip" in panel_options(step)
    await choose(member, step, "harvest")
    player = game.state.players[seat]
    assert player.grain == grain + 2 and player.cubes[colour] >= 1
    assert game.decisions()[0].seat != seat


async def test_move_text_takes_a_cube_and_answers_the_action(table):
    game = await start_game(table, table.bob, game="village", options="compensation=off")
    seat, member = seat_member(table, game)
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


def plan_turns(game, seat: int, rng: random.Random, most: int = 30) -> list[str]:
    """Random legal answers for the seat's next decisions, up to `most` (on a copy)."""
    state = copy.deepcopy(game.state)
    tokens: list[str] = []
    while len(tokens) < most and (pending := game.engine.decisions(state)):
        if pending[0].seat != seat:
            break
        picked = random_choices(pending[0], rng)
        tokens.append(",".join(picked))
        state = game.engine.apply(state, Action(seat, picked))
    return tokens


async def play_by_move_text(table, game, members, rng: random.Random) -> None:
    """Each human types their next decisions as one /move until the game ends."""
    for _ in range(600):
        if not game.decisions():
            return
        seat = game.decisions()[0].seat
        tokens = plan_turns(game, seat, rng)
        result = await members[seat].slash(table.channel, "move", text=" ".join(tokens))
        assert "Applied" in result.response.content
    raise AssertionError("the game did not end")


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
