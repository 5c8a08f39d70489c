"""Round-robin and elimination tournaments played to their end on the real bot (SimCord),
one of them a real game of Coffee Traders typed through /move; the organiser's replace and re-pair,
and the same asked by someone else (refused, ephemeral, nothing changed)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from meeple_hall.bot.store import TableStatus, TournamentStatus
from tests.bot.test_tournament import play_round, thread_of

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")


@pytest.fixture
def hall(simcord_env):
    guild = simcord_env.create_guild(name="Meeple Hall")
    channel = guild.create_text_channel("tournaments")
    members = [guild.add_member(simcord_env.create_user(n)) for n in NAMES]
    return simcord_env, guild, channel, members


async def sign_up(channel, members, **settings):
    """The first member creates the tournament, the others join, the first starts it."""
    organiser = members[0]
    await organiser.slash(channel, "tournament create", **settings)
    signup = channel.last_message
    for member in members[1:]:
        await member.click(signup, label="Join")
    await organiser.click(signup, label="Start")
    return signup


async def play_to_the_end(env, channel, members, rng, most_rounds: int = 8) -> int:
    """Every round played through /move until the tournament is over; the rounds played."""
    store = env.bot.store
    (tournament,) = await store.tournaments()
    for _ in range(most_rounds):
        tournament = await store.get_tournament(tournament.id)
        if tournament.status is not TournamentStatus.RUNNING:
            return tournament.round
        await play_round(env, channel, members, tournament.round, rng)
    raise AssertionError("the tournament did not end")


def posted(channel) -> str:
    return "\n".join(m.content or "" for m in channel.history())


async def test_a_round_robin_of_five_at_tables_of_three_to_its_end(hall):
    env, _, channel, members = hall
    players = members[:5]
    await sign_up(channel, players, game="pebbles", format="round-robin", table_size=3)
    store = env.bot.store
    (tournament,) = await store.tournaments()
    schedule = env.bot.tournaments.schedule(tournament)

    rounds = await play_to_the_end(env, channel, players, random.Random(5))

    assert rounds == len(schedule)
    finished = await store.get_tournament(tournament.id)
    assert finished.status is TournamentStatus.FINISHED
    rows = [r for r in await store.tournament_tables(tournament.id) if r.state != "void"]
    met = {frozenset(pair) for r in rows for pair in combinations(r.seats, 2)}
    assert met == {frozenset(pair) for pair in combinations([m.id for m in players], 2)}
    for row in rows:
        table = await store.get_table(row.table_id)
        assert table.status is TableStatus.FINISHED and len(row.seats) in (2, 3)
    text = posted(channel)
    for round_no in range(1, rounds + 1):
        assert text.count(f"Round {round_no} is over.") == 1
        assert f"round {round_no} is open" in text
    assert text.count("The winner") == 1
    shown = await players[1].slash(channel, "tournament standings")
    lines = [x for x in shown.response.content.splitlines() if x[:1].isdigit()]
    assert len(lines) == 5
    # The winner announced is the first of the final standings.
    winner = lines[0].split(":")[0].split(". ", 1)[1]
    assert f"The winner: {winner}" in text


async def test_an_elimination_of_six_at_tables_of_three_down_to_one_final_table(hall):
    env, _, channel, members = hall
    await sign_up(channel, members, game="pebbles", format="elimination", table_size=3)
    store = env.bot.store
    (tournament,) = await store.tournaments()
    first = await store.tournament_tables(tournament.id, 1)
    assert sorted(len(r.seats) for r in first) == [3, 3]

    rng = random.Random(8)
    await play_round(env, channel, members, 1, rng)
    # One of three goes on from each table (all who tie for first).
    winners = set()
    for row in first:
        table = await store.get_table(row.table_id)
        winners |= {row.seats[s] for s, rank in enumerate(table.result["ranks"]) if rank == 1}
    final = await store.tournament_tables(tournament.id, 2)
    assert [set(r.seats) for r in final] == [winners]
    now = await store.get_tournament(tournament.id)
    out = {p.user_id for p in now.players if p.status == "out"}
    assert out == {m.id for m in members} - winners
    assert all(now.player(u).left_round == 1 for u in out)

    assert await play_to_the_end(env, channel, members, rng) == 2
    finished = await store.get_tournament(tournament.id)
    assert finished.status is TournamentStatus.FINISHED
    last = await store.get_table(final[0].table_id)
    champions = [final[0].seats[s] for s, rank in enumerate(last.result["ranks"]) if rank == 1]
    text = posted(channel)
    assert f"The winner: <@{champions[0]}>" in text
    ranked = await env.bot.tournaments.standings(finished)
    assert ranked[0].user_id == champions[0]
    # Knocked out in round 1 rank below everyone who reached the final.
    places = {s.user_id: i for i, s in enumerate(ranked)}
    assert max(places[u] for u in winners) < min(places[u] for u in out)


async def test_a_tournament_of_coffee_traders_played_to_its_end_through_move(hall):
    """A real game: two players at one Coffee Traders table (a round-robin of two is one
    round), every turn typed with /move in the table's thread."""
    env, guild, channel, members = hall
    players = members[:2]
    await sign_up(channel, players, game="coffee", format="round-robin", table_size=2)
    store = env.bot.store
    (tournament,) = await store.tournaments()
    (row,) = await store.tournament_tables(tournament.id, 1)
    game = env.bot.manager.get(row.table_id)
    assert game.table.game == "coffee" and len(game.table.seats) == 2

    assert await play_to_the_end(env, channel, players, random.Random(4)) == 1

    assert game.state.over
    finished = await store.get_tournament(tournament.id)
    assert finished.status is TournamentStatus.FINISHED
    final = [m for m in thread_of(channel, row.thread_id).history() if m.embeds]
    assert any("final scores" in (m.embeds[0].title or "") for m in final)
    result = (await store.get_table(row.table_id)).result
    best = min(range(2), key=lambda s: (result["ranks"][s], -result["scores"][s]))
    assert f"The winner: <@{row.seats[best]}>" in posted(channel)
    book = await env.bot.ratings.book("coffee", guild.id)
    assert sorted(p.games for p in book.players.values()) == [1, 1]


async def test_replace_and_re_pair_by_the_organiser_and_refused_to_others(hall):
    env, guild, channel, members = hall
    alice, bob, carol, *_ = members
    players = members[:5]
    await sign_up(channel, players, game="pebbles", format="swiss", rounds=1)
    store = env.bot.store
    (tournament,) = await store.tournaments()
    before = await store.tournament_tables(tournament.id, 1)
    zoe = guild.add_member(env.create_user("zoe"))

    # Someone else asks: a private refusal, and nothing changes.
    for result in (
        await bob.slash(channel, "tournament replace", player=carol, replacement=zoe),
        await bob.slash(channel, "tournament repair"),
    ):
        assert result.ephemeral and "Only the organiser" in result.response.content
    assert await store.tournament_tables(tournament.id, 1) == before
    assert (await store.get_tournament(tournament.id)).players == tournament.players
    assert len(channel.threads) == len(before)

    # Re-pair before any move: the round's games are abandoned and seated afresh.
    done = await alice.slash(channel, "tournament repair")
    assert done.ephemeral and "seated again" in done.response.content
    rows = await store.tournament_tables(tournament.id, 1)
    old = [r for r in rows if r.state == "void"]
    fresh = [r for r in rows if r.state != "void"]
    assert {r.number for r in old} == {r.number for r in before}
    assert min(r.number for r in fresh) > max(r.number for r in before)
    assert all(r.state == "announced" for r in fresh)
    assert sorted(p for r in fresh for p in r.seats) == sorted(m.id for m in players)
    for row in before:
        assert (await store.get_table(row.table_id)).status is TableStatus.ABANDONED
    for row in fresh:
        assert (await store.get_table(row.table_id)).status is TableStatus.ACTIVE
    assert len(channel.threads) == len(before) + len(fresh)

    # Replace a player who has not played: the newcomer takes the seat in the running game.
    carols = next(r for r in fresh if carol.id in r.seats)
    seat = carols.seats.index(carol.id)
    done = await alice.slash(channel, "tournament replace", player=carol, replacement=zoe)
    assert done.ephemeral and "replaced" in done.response.content
    now = await store.get_tournament(tournament.id)
    assert now.player(carol.id) is None and now.player(zoe.id).status == "playing"
    game = env.bot.manager.get(carols.table_id)
    assert game.table.seats[seat].user_id == zoe.id
    assert (await store.get_table(carols.table_id)).seats[seat].user_id == zoe.id
    row = next(
        r for r in await store.tournament_tables(tournament.id, 1) if r.number == carols.number
    )
    assert row.seats[seat] == zoe.id
    thread = thread_of(channel, carols.thread_id)
    moved = await zoe.slash(thread, "move", text="bid1")
    assert "Applied" in moved.response.content, moved.response.content

    # A move was made: the round cannot be re-paired, nor someone at that table replaced.
    rows_now = await store.tournament_tables(tournament.id, 1)
    refused = await alice.slash(channel, "tournament repair")
    assert refused.ephemeral and "cannot be seated again" in refused.response.content
    neighbour = next(m for m in members if m.id in row.seats)
    refused = await alice.slash(channel, "tournament replace", player=neighbour, replacement=carol)
    assert refused.ephemeral and "has played already" in refused.response.content
    assert await store.tournament_tables(tournament.id, 1) == rows_now
    assert (await store.get_tournament(tournament.id)).players == now.players
