"""`/replay` and `/export` show nothing a seat could not see at the real table, and reach a
table only from its own server (or, in a DM, for the players who sat at it).

While a game is in play a replayed move is told by the events it added to the game's
public log, never by its option ids (bot/move_shown.py): Keyflower's winter tiles chosen
while the other seat still chooses, Coffee Traders' simultaneous steps.
"""

from __future__ import annotations

import copy
import random

import pytest

from meeple_hall.bot.i18n import game_text, t
from tests.bot.conftest import (
    LANGUAGES,
    REAL_GAMES,
    answer_seat,
    awaited_humans,
    click_as_it_was,
    raw_buttons,
    start_game,
    stored_message,
)


def nav(message) -> dict[str, dict]:
    return {b["emoji"]["name"]: b for b in raw_buttons(message)}


async def play_moves(table, game, count: int, rng) -> None:
    """Humans answer whole turns until at least `count` moves are stored."""
    while game.seq < count and (seats := awaited_humans(game)):
        await answer_seat(table, game, rng.choice(seats), rng)


async def every_frame(member, channel, game_id: int) -> list[str]:
    """The caption of every position of /replay, stepped through with ▶ from the setup (the
    viewer is one message, edited at each step)."""
    viewer = (await member.slash(channel, "replay", table=game_id)).response
    captions = [viewer.content]
    while not nav(viewer)["▶"].get("disabled"):
        viewer = (await member.click(viewer, custom_id=nav(viewer)["▶"]["custom_id"])).response
        captions.append(viewer.content)
    return captions


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_replay_in_play_tells_moves_by_their_events_not_their_choices(table, game_id):
    game = await start_game(table, table.bob, game=game_id)
    await play_moves(table, game, 12, random.Random(7))
    log = [a for a in await table.env.bot.store.actions(game.id)]
    frames = await every_frame(table.carol, table.channel, game.id)
    assert len(frames) == len(log) + 1
    for caption, move in zip(frames[1:], log, strict=True):
        assert f"`{' '.join(move.choices)}`" not in caption, caption
    # the events told, move by move, are the game's own public log
    told = [line[2:] for caption in frames[1:] for line in caption.splitlines() if line[:2] == "• "]
    public = [game_text("en", event)[:150] for event in game.view(None)["log"]]
    assert told and told[-len(public) :] == public[-len(told) :]


async def until_both_choose_winter_tiles(table, game, rng) -> None:
    """Random whole turns until both Keyflower seats choose their winter tiles at once."""
    from meeple_hall.games.testing import random_choices

    manager = table.env.bot.manager
    for _ in range(2000):
        pending = game.decisions()
        if [d.kind for d in pending] == ["winter", "winter"]:
            return
        decision = pending[0]
        await manager.submit(game, decision.seat, random_choices(decision, rng), user_id=1)
    raise AssertionError("no winter choice came")


async def test_keyflower_winter_tiles_chosen_stay_hidden_in_the_replay_and_the_log(table):
    game = await start_game(table, table.bob, game="keyflower")
    rng = random.Random(3)
    await until_both_choose_winter_tiles(table, game, rng)
    mine = game.decision_for(0)
    picked = tuple(o.id for o in mine.options[: max(mine.min_choices, 1)])
    await table.env.bot.manager.submit(game, 0, picked, user_id=table.alice.id)
    assert game.decision_for(1) is not None and game.decision_for(1).kind == "winter"

    frames = await every_frame(table.bob, table.channel, game.id)
    logged = await table.bob.slash(table.channel, "log")
    for text in [*frames, logged.response.content]:
        for tile in picked:
            assert tile not in text, text


async def test_coffee_simultaneous_steps_stay_hidden_in_the_replay(table):
    from meeple_hall.games.testing import random_choices

    game = await start_game(table, table.bob, game="coffee")
    rng, manager = random.Random(5), table.env.bot.manager
    for _ in range(2000):
        pending = game.decisions()
        if len(pending) == 2:
            break
        await manager.submit(game, pending[0].seat, random_choices(pending[0], rng), user_id=1)
    else:
        raise AssertionError("no simultaneous step came")
    first = pending[0]
    picked = random_choices(first, rng)
    await manager.submit(game, first.seat, picked, user_id=1)
    assert game.decision_for(pending[1].seat) is not None  # the other seat still chooses
    frames = await every_frame(table.carol, table.channel, game.id)
    assert f"`{' '.join(picked)}`" not in frames[-1]


async def test_a_secret_bid_stays_hidden_until_the_game_has_ended(table):
    """Pebbles' bids are secret until the last one is in; its ended replay shows every move
    as typed (tests/bot/test_export_replay.py)."""
    game = await start_game(table, table.bob)
    await table.alice.slash(table.channel, "move", text="bid1")
    frames = await every_frame(table.carol, table.channel, game.id)
    assert "bid1" not in frames[1] and "alice" in frames[1]


@pytest.fixture
def elsewhere(table):
    """A second server, with Eve, who plays there and sits at no table of the first."""
    guild = table.env.create_guild(name="Elsewhere")
    channel = guild.create_text_channel("games")
    eve = guild.add_member(table.env.create_user("eve"))
    return guild, channel, eve


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_replay_and_export_are_refused_from_another_server_and_to_strangers(
    table, elsewhere, game_id
):
    _, channel, eve = elsewhere
    game = await start_game(table, table.bob, game=game_id)
    await answer_seat(table, game, awaited_humans(game)[0])
    for name in ("replay", "export"):
        other_server = await eve.slash(channel, name, table=game.id)
        in_a_dm = await eve.user.slash(name, table=game.id)
        for refused in (other_server, in_a_dm):
            assert refused.response.ephemeral
            assert t("en", "history.unseen_table", table=game.id) in refused.response.content
            assert not refused.response.attachments

    # a seated player may replay their own table from a DM with the bot
    mine = await table.bob.user.slash("replay", table=game.id)
    assert "move 0 of" in mine.response.content and mine.response.attachments


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_replay_button_forged_in_another_server_is_refused(table, elsewhere, game_id):
    _, channel, eve = elsewhere
    game = await start_game(table, table.bob, game=game_id)
    await answer_seat(table, game, awaited_humans(game)[0])
    # a bot message in Eve's own server (her lobby), a button rewritten to point at the table
    await eve.slash(channel, "new", game=game_id)
    shown = copy.deepcopy(stored_message(table.env, channel.last_message))
    button = shown.components[0]["components"][0]
    button["custom_id"] = f"r:{game.id}:1:next"
    forged = await click_as_it_was(eve, shown, button["custom_id"])
    assert forged.response.ephemeral
    assert t("en", "history.unseen_table", table=game.id) in forged.response.content
    assert not forged.response.attachments


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_refusal_is_in_the_readers_language(table, elsewhere, lang):
    _, channel, eve = elsewhere
    game = await start_game(table, table.bob, game="village")
    await eve.slash(channel, "settings", language=lang)
    refused = await eve.slash(channel, "replay", table=game.id)
    assert t(lang, "history.unseen_table", table=game.id) in refused.response.content
