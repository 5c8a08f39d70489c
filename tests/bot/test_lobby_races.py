"""Lobby actions that arrive at the same moment. SimCord settles one click at a time, so the
real handlers are awaited together here, with the real interactions of real clicks."""

from __future__ import annotations

import asyncio
import copy

import pytest

from meeple_hall.bot.cogs.lobby import Lobby
from meeple_hall.bot.live import Refusal
from meeple_hall.bot.store import TableStatus
from tests.bot.conftest import EVERY_GAME, click_as_it_was, raw_buttons, stored_message

every_game = pytest.mark.parametrize("game_id", EVERY_GAME)


async def interactions_of(table, monkeypatch, *members, label: str = "Join"):
    """Each member's click on the lobby's button, as the interaction the bot received; the
    handler is held back, so nothing has happened yet."""
    caught = []

    async def hold(self, interaction, lobby_table):
        caught.append(interaction)
        raise Refusal("lobby.none")

    verb = {"Join": "do_join", "Start": "do_start"}[label]
    with monkeypatch.context() as patch:
        patch.setattr(Lobby, verb, hold)
        for member in members:
            await member.click(table.channel.last_message, label=label)
    return caught


@every_game
async def test_two_joins_at_the_same_moment_both_get_their_seat(table, monkeypatch, game_id):
    await table.alice.slash(table.channel, "new", game=game_id)
    bob, carol = await interactions_of(table, monkeypatch, table.bob, table.carol)
    cog = table.env.bot.get_cog("Lobby")
    # Each click's handler read the lobby for itself before either changed it.
    seen_by_bob, seen_by_carol = [
        await table.env.bot.store.open_table_in(table.channel.id) for _ in range(2)
    ]
    notes = await asyncio.gather(cog.do_join(bob, seen_by_bob), cog.do_join(carol, seen_by_carol))
    assert [note for note, _ in notes] == ["lobby.joined", "lobby.joined"]
    stored = await table.env.bot.store.open_table_in(table.channel.id)
    assert [s.user_id for s in stored.seats][1:] in (
        [table.bob.id, table.carol.id],
        [table.carol.id, table.bob.id],
    )


@every_game
@pytest.mark.parametrize("join_first", [True, False])
async def test_a_join_racing_start_plays_with_the_seats_the_store_holds(
    table, monkeypatch, join_first, game_id
):
    await table.alice.slash(table.channel, "new", game=game_id)
    await table.bob.click(table.channel.last_message, label="Join")
    (carol,) = await interactions_of(table, monkeypatch, table.carol)
    (alice,) = await interactions_of(table, monkeypatch, table.alice, label="Start")
    cog = table.env.bot.get_cog("Lobby")
    seen_by_carol, seen_by_alice = [
        await table.env.bot.store.open_table_in(table.channel.id) for _ in range(2)
    ]
    join, start = cog.do_join(carol, seen_by_carol), cog.do_start(alice, seen_by_alice)
    if join_first:
        joined, _ = await asyncio.gather(join, start, return_exceptions=True)
    else:
        _, joined = await asyncio.gather(start, join, return_exceptions=True)
    game = table.env.bot.manager.in_channel(table.channel.id)
    stored = await table.env.bot.store.get_table(game.id)
    assert stored.status is TableStatus.ACTIVE
    # Whichever got in first, the game plays with exactly the seats the store holds, and a
    # Join that came too late was told so.
    assert game.table.seats == stored.seats
    assert game.engine.view(game.state, None)["num_players"] == len(stored.seats)
    if isinstance(joined, Refusal):
        assert joined.key == "lobby.already_started"
        assert len(stored.seats) == 2
    else:
        assert joined[0] == "lobby.joined" and len(stored.seats) == 3
    # The first move is taken: the live game and the stored one agree.
    seat = game.decisions()[0].seat
    option = game.decisions()[0].options[0].id
    await table.env.bot.manager.submit(game, seat, (option,), user_id=None)
    assert await table.env.bot.store.last_seq(game.id) == 1


@every_game
async def test_a_join_after_start_is_told_the_game_has_started(table, game_id):
    await table.alice.slash(table.channel, "new", game=game_id)
    lobby = table.channel.last_message
    await table.bob.click(lobby, label="Join")
    shown = copy.deepcopy(stored_message(table.env, lobby))
    await table.alice.click(lobby, label="Start")
    join = next(b["custom_id"] for b in raw_buttons(shown) if b["custom_id"].endswith(":join"))
    late = await click_as_it_was(table.carol, shown, join)
    assert late.response.ephemeral and "already started" in late.response.content
    game = table.env.bot.manager.in_channel(table.channel.id)
    assert table.carol.id not in [s.user_id for s in game.table.seats]
