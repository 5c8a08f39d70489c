"""`/export` (a game as JSON, rebuilt here with the engine contract alone) and `/replay`
(the spectator's pictures, stepped through with ⏮ ◀ ▶ ⏭)."""

from __future__ import annotations

import json
import random

import pytest

from meeple_hall import games
from meeple_hall.bot import render
from meeple_hall.games import Action
from tests.bot.conftest import EVERY_GAME, raw_buttons, start_game
from tests.bot.every_game import (
    acting_seat,
    final_scores,
    joining,
    near_the_end,
    play_until,
    twice_in_a_row,
    typed,
)

every_game = pytest.mark.parametrize("game_id", EVERY_GAME)


async def played_game_with_an_undo(table, game_id: str):
    """Alice and Bob play a game to its end; one of them takes one move back with /undo on
    the way (a real game's middle is played through the bot's move path, its last moves
    typed with /move)."""
    game = await start_game(table, table.bob, game=game_id)
    members = (table.alice, table.bob)
    rng = random.Random(4)
    seat, choices, _ = await play_until(table, game, twice_in_a_row(rng), rng)
    await members[seat].slash(table.channel, "move", text=",".join(choices) or "none")
    undone = await members[seat].slash(table.channel, "undo")
    assert "taken back" in undone.response.content, undone.response.content
    await near_the_end(table, game, rng, left=8)
    while game.decisions():
        seat = acting_seat(game)
        await members[seat].slash(table.channel, "move", text=typed(game, seat, rng))
    await final_scores(table)  # the game's end, typed, is posted
    return game


async def attachment_bytes(env, result) -> bytes:
    attachment = result.response.attachments[0]
    return env.backend.cdn.get(attachment.url)


def rebuild(document: dict) -> object:
    """The export's own recipe, with nothing but the engine contract."""
    engine = games.get(document["game"])
    state = engine.new(len(document["seats"]), document["seed"], document["options"])
    for entry in document["log"]:
        if entry["kind"] == "move" and not entry["undone"]:
            state = engine.apply(state, Action(entry["seat"], tuple(entry["choices"])))
    return state


@every_game
async def test_an_export_rebuilds_into_the_same_final_state(table, game_id):
    game = await played_game_with_an_undo(table, game_id)
    engine = games.get(game_id)
    final = engine.dump(game.state)
    stored = await table.env.bot.store.get_table(game.id)
    assert stored.status.value == "finished"

    # anyone may export an ended game by its number
    result = await table.dave.slash(table.channel, "export", table=game.id)
    assert result.response.ephemeral
    assert f"Table {game.id}" in result.response.content
    filename = f"meeple-hall-table-{game.id}-{game_id}.json"
    assert result.response.attachments[0].filename == filename
    document = json.loads(await attachment_bytes(table.env, result))

    assert document["game"] == game_id and document["seed"] == stored.seed
    assert [s["user_id"] for s in document["seats"]] == [table.alice.id, table.bob.id]
    kinds = [e["kind"] for e in document["log"]]
    assert kinds.count("undo") == 1
    undo = next(e for e in document["log"] if e["kind"] == "undo")
    taken_back = next(e for e in document["log"] if e["seq"] == undo["takes_back"])
    assert taken_back["undone"] and undo["choices"] == ["!undo", str(taken_back["seq"])]
    assert len(document["log"]) == len(await table.env.bot.store.actions(game.id))
    assert engine.dump(rebuild(document)) == final
    assert document["result"]["scores"] == list(engine.result(game.state).scores)

    # a seated player gets the same file without naming the table
    mine = await table.alice.slash(table.channel, "export")
    assert json.loads(await attachment_bytes(table.env, mine)) == document


@every_game
async def test_export_refusals(table, game_id):
    game = await start_game(table, table.bob, game=game_id)
    in_play = await table.alice.slash(table.channel, "export")
    assert in_play.response.ephemeral and "still in play" in in_play.response.content
    assert not in_play.response.attachments
    named = await table.dave.slash(table.channel, "export", table=game.id)
    assert "still in play" in named.response.content
    unknown = await table.dave.slash(table.channel, "export", table=999)
    assert "There is no table 999" in unknown.response.content

    other = table.guild.create_text_channel("quiet")
    nothing = await table.dave.slash(other, "export")
    assert "no ended game in this channel" in nothing.response.content
    await table.alice.slash(other, "new", game=game_id)
    lobby = await table.dave.slash(other, "export", table=game.id + 1)
    assert "never started" in lobby.response.content


def nav(message) -> dict[str, dict]:
    """The viewer's buttons by emoji."""
    return {b["emoji"]["name"]: b for b in raw_buttons(message)}


@every_game
async def test_replay_steps_through_the_public_pictures(table, game_id):
    game = await played_game_with_an_undo(table, game_id)
    engine = games.get(game_id)
    log = await table.env.bot.store.actions(game.id)
    undos = [e for e in log if e.choices[:1] == ("!undo",)]
    taken_back = {int(seq) for e in undos for seq in e.choices[1:]}
    standing = [e for e in log if e not in undos and e.seq not in taken_back]
    total = len(standing)  # the undone move is left out

    opened = await table.dave.slash(table.channel, "replay", table=game.id)
    viewer = opened.response
    assert viewer.ephemeral and viewer.attachments[0].filename == "table.png"
    assert f"move 0 of {total}" in viewer.content and "Setup" in viewer.content
    buttons = nav(viewer)
    assert buttons["⏮"]["disabled"] and buttons["◀"]["disabled"]
    assert not buttons["▶"].get("disabled") and buttons["⏭"]["custom_id"].split(":")[2] == str(
        total
    )
    book = table.env.bot.get_cog("Archive").book
    line = book.line(await table.env.bot.store.get_table(game.id), log)

    def spectator_png(pos: int) -> bytes:
        return render.encode_png(game_id, engine.view(line.state_at(pos), None))

    assert attachment_bytes_of(table.env, viewer) == spectator_png(0)
    stepped = await table.dave.click(viewer, custom_id=buttons["▶"]["custom_id"])
    shown = stepped.response
    first = standing[0]
    moved = f"{game.table.seats[first.seat].name}: `{' '.join(first.choices) or '—'}`"
    assert "move 1 of" in shown.content and moved in shown.content, shown.content
    assert attachment_bytes_of(table.env, shown) == spectator_png(1)

    last = await table.dave.click(shown, custom_id=nav(shown)["⏭"]["custom_id"])
    assert f"move {total} of {total}" in last.response.content
    assert attachment_bytes_of(table.env, last.response) == spectator_png(total)
    assert nav(last.response)["▶"]["disabled"] and nav(last.response)["⏭"]["disabled"]
    back = await table.dave.click(last.response, custom_id=nav(last.response)["◀"]["custom_id"])
    assert f"move {total - 1} of {total}" in back.response.content
    start = await table.dave.click(back.response, custom_id=nav(back.response)["⏮"]["custom_id"])
    assert f"move 0 of {total}" in start.response.content

    # the last position is the game's final state
    assert engine.dump(line.state_at(total)) == engine.dump(game.state)


@every_game
async def test_replay_refuses_stale_positions_and_unknown_tables(table, game_id):
    """A position can go stale: an undo takes a move out of the game's standing moves."""
    game = await start_game(table, *joining(table, game_id), game=game_id)
    rng = random.Random(6)
    seat, choices, _ = await play_until(table, game, twice_in_a_row(rng), rng)
    member = (table.alice, table.bob)[seat]
    await member.slash(table.channel, "move", text=",".join(choices) or "none")
    moves = game.seq
    opened = await table.carol.slash(table.channel, "replay", table=game.id)
    viewer = opened.response
    assert f"move 0 of {moves}" in viewer.content
    await member.slash(table.channel, "undo")
    stale = await table.carol.click(viewer, custom_id=nav(viewer)["⏭"]["custom_id"])
    assert stale.response.ephemeral
    gone = f"points at move {moves}, but the game has {moves - 1}"
    assert gone in stale.response.content, stale.response.content
    if moves == 1:  # ▶ points at move 1 too (after more moves, it still stands)
        again = await table.carol.click(viewer, custom_id=nav(viewer)["▶"]["custom_id"])
        assert gone in again.response.content
    fresh = await table.carol.slash(table.channel, "replay", table=game.id)
    assert f"move 0 of {moves - 1}" in fresh.response.content
    unknown = await table.carol.slash(table.channel, "replay", table=4242)
    assert "There is no table 4242" in unknown.response.content


def attachment_bytes_of(env, message) -> bytes:
    return env.backend.cdn.get(message.attachments[0].url)
