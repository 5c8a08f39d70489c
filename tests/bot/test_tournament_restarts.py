"""A round's standings and the winner are posted exactly once, whenever the bot stops: before
the post (it is sent after the restart) or after it, before the step was stored (it is found
again in the channel, not sent twice)."""

from __future__ import annotations

import random

import pytest

from meeple_hall.bot.store import TournamentStatus
from meeple_hall.bot.tournaments import Tournaments
from tests.bot.test_tournament import play_round

NAMES = ("alice", "bob", "carol", "dave")


@pytest.fixture
def hall(simcord_env):
    guild = simcord_env.create_guild(name="Meeple Hall")
    channel = guild.create_text_channel("tournaments")
    members = [guild.add_member(simcord_env.create_user(n)) for n in NAMES]
    return simcord_env, channel, members


async def start_swiss(env, channel, members):
    """Two rounds of Pebbles at tables of two."""
    await members[0].slash(
        channel, "tournament create", game="pebbles", format="swiss", rounds=2, table_size=2
    )
    signup = channel.last_message
    for member in members[1:]:
        await member.click(signup, label="Join")
    await members[0].click(signup, label="Start")
    (tournament,) = await env.bot.store.tournaments()
    return tournament


def count(channel, words: str) -> int:
    return sum(words in (m.content or "") for m in channel.history())


async def round_status(store, tournament_id: int, round_no: int) -> str:
    rounds = {r.round: r.status for r in await store.tournament_rounds(tournament_id)}
    return rounds.get(round_no, "none")


async def test_stopped_before_the_standings_post_it_is_sent_after_the_restart(
    hall, make_bot, monkeypatch
):
    env, channel, members = hall
    tournament = await start_swiss(env, channel, members)
    rng = random.Random(1)

    async def stopped(self, *args, **kwargs):
        raise RuntimeError("the bot stopped here")

    with monkeypatch.context() as patch:
        patch.setattr(Tournaments, "post_standings", stopped)
        await play_round(env, channel, members, 1, rng)
    store = env.bot.store
    # Every game of round 1 has ended and is recorded; the round is not marked done.
    assert {r.state for r in await store.tournament_tables(tournament.id, 1)} == {"done"}
    assert await round_status(store, tournament.id, 1) == "playing"
    assert await round_status(store, tournament.id, 2) == "none"
    assert count(channel, "Round 1 is over.") == 0

    await env.restart_bot(make_bot())
    store = env.bot.store
    assert count(channel, "Round 1 is over.") == 1
    assert await round_status(store, tournament.id, 1) == "done"
    assert await round_status(store, tournament.id, 2) == "playing"
    assert all(r.state == "announced" for r in await store.tournament_tables(tournament.id, 2))

    await play_round(env, channel, members, 2, rng)
    assert (await store.get_tournament(tournament.id)).status is TournamentStatus.FINISHED
    assert count(channel, "Round 1 is over.") == 1
    assert count(channel, "Round 2 is over.") == 1
    assert count(channel, "The winner") == 1


async def test_stopped_after_the_post_before_its_step_is_stored_nothing_is_sent_twice(
    hall, make_bot, monkeypatch
):
    env, channel, members = hall
    tournament = await start_swiss(env, channel, members)
    rng = random.Random(2)
    store = env.bot.store
    mark = store.set_round_status

    async def stops_at_done(tournament_id, round, status, *, expected):
        if status == "done":
            raise RuntimeError("the bot stopped here")
        return await mark(tournament_id, round, status, expected=expected)

    with monkeypatch.context() as patch:
        patch.setattr(store, "set_round_status", stops_at_done)
        await play_round(env, channel, members, 1, rng)
    assert count(channel, "Round 1 is over.") == 1  # sent, but the round is not marked done
    assert await round_status(store, tournament.id, 1) == "playing"

    await env.restart_bot(make_bot())
    store = env.bot.store
    assert count(channel, "Round 1 is over.") == 1
    assert await round_status(store, tournament.id, 1) == "done"
    assert await round_status(store, tournament.id, 2) == "playing"

    # The last round: the winner is announced, then the bot stops before marking the
    # tournament finished.
    async def stops_at_the_end(*args, **kwargs):
        raise RuntimeError("the bot stopped here")

    with monkeypatch.context() as patch:
        patch.setattr(store, "end_tournament", stops_at_the_end)
        await play_round(env, channel, members, 2, rng)
    assert count(channel, "The winner") == 1
    assert (await store.get_tournament(tournament.id)).status is TournamentStatus.RUNNING

    await env.restart_bot(make_bot())
    store = env.bot.store
    assert (await store.get_tournament(tournament.id)).status is TournamentStatus.FINISHED
    assert count(channel, "Round 2 is over.") == 1
    assert count(channel, "The winner") == 1
