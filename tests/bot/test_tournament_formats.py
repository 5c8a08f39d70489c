"""Round-robin and elimination tournaments played to their end on the real bot (SimCord), in
the test game and each of the four real games; an abandoned elimination table settled by its
scores; a real game typed through /move to the end of its tournament; the organiser's
replace and re-pair, and the same asked by someone else (refused, ephemeral, nothing
changed)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from meeple_hall.bot import standings
from meeple_hall.bot.i18n import t
from meeple_hall.bot.store import TableStatus, TournamentStatus
from meeple_hall.games.ai.evaluate import points_now
from tests.bot.conftest import EVERY_GAME, REAL_GAMES, awaited_humans
from tests.bot.test_tournament import (
    move_typed,
    near_the_end_in_thread,
    play_round,
    posted,
    sign_up,
    thread_of,
)

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")


@pytest.fixture
def hall(simcord_env):
    guild = simcord_env.create_guild(name="Meeple Hall")
    channel = guild.create_text_channel("tournaments")
    members = [guild.add_member(simcord_env.create_user(n)) for n in NAMES]
    return simcord_env, guild, channel, members


async def play_to_the_end(env, channel, members, rng, most_rounds: int = 8) -> int:
    """Every round played through /move until the tournament is over; the rounds played."""
    store = env.bot.store
    tournament = (await store.tournaments())[-1]
    for _ in range(most_rounds):
        tournament = await store.get_tournament(tournament.id)
        if tournament.status is not TournamentStatus.RUNNING:
            return tournament.round
        await play_round(env, channel, members, tournament.round, rng)
    raise AssertionError("the tournament did not end")


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_round_robin_of_five_at_tables_of_three_to_its_end(hall, game_id):
    env, _, channel, members = hall
    players = members[:5]
    await sign_up(channel, players, game=game_id, format="round-robin", table_size=3)
    store = env.bot.store
    (tournament,) = await store.tournaments()
    tournament = await store.get_tournament(tournament.id)
    assert tournament.schedule is not None  # fixed when it started
    schedule = await env.bot.tournaments.schedule(tournament)
    assert [p.tables for p in schedule] == list(tournament.schedule)

    rounds = await play_to_the_end(env, channel, players, random.Random(5))

    assert rounds == len(schedule)
    finished = await store.get_tournament(tournament.id)
    assert finished.status is TournamentStatus.FINISHED
    rows = [r for r in await store.tournament_tables(tournament.id) if r.state != "void"]
    assert [tuple(r.seats) for r in rows] == [table for p in schedule for table in p.tables]
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


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_an_elimination_of_six_at_tables_of_three_down_to_one_final_table(hall, game_id):
    env, _, channel, members = hall
    await sign_up(channel, members, game=game_id, format="elimination", table_size=3)
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


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_an_abandoned_elimination_table_is_settled_by_its_scores_at_that_moment(
    hall, game_id
):
    """Four players at tables of two: one table stalls after a few turns and is abandoned
    (by the organiser, however that was agreed). Its better player at that moment goes on to
    the final (the game's own scoring applied to the state then; a tie as the standings
    break it), not nobody."""
    env, _, channel, members = hall
    players = members[:4]
    await sign_up(channel, players, game=game_id, format="elimination", table_size=2)
    store = env.bot.store
    (tournament,) = await store.tournaments()
    stalled, played = await store.tournament_tables(tournament.id, 1)
    game = env.bot.manager.get(stalled.table_id)
    rng = random.Random(9)
    for _ in range(2):
        await move_typed(channel, players, stalled, game, awaited_humans(game)[0], rng)
    score = points_now(game_id)
    scores = [score(game.state, s) if score else 0 for s in range(2)]
    order = [s.user_id for s in standings.standings(stalled.seats, [], {})]
    best = min(range(2), key=lambda s: (-scores[s], order.index(stalled.seats[s])))
    await env.bot.manager.abandon(game)
    await env.settle()
    assert (await store.get_table(stalled.table_id)).status is TableStatus.ABANDONED
    assert (await store.get_tournament(tournament.id)).round == 1  # the other game goes on

    await play_round(env, channel, players, 1, rng)
    other = await store.get_table(played.table_id)
    winner = played.seats[other.result["ranks"].index(1)]
    (final,) = await store.tournament_tables(tournament.id, 2)
    assert set(final.seats) == {stalled.seats[best], winner}
    now = await store.get_tournament(tournament.id)
    assert now.player(stalled.seats[1 - best]).status == "out"
    assert now.player(stalled.seats[best]).status == "playing"
    shown = await players[0].slash(channel, "tournament standings")
    line = next(x for x in shown.response.content.splitlines() if f"<@{stalled.seats[best]}>" in x)
    assert "1 games" in line and "10 pts" in line  # settled: the abandoned game counts


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_real_game_played_to_the_end_of_its_tournament_through_move(hall, game_id):
    """Two players at one table (a round-robin of two is one round): the game made through
    the bot's move path to near its end (a whole game typed one turn at a time is
    test_coffee_table.py's), its last turns typed with /move in the table's thread."""
    env, guild, channel, members = hall
    players = members[:2]
    await sign_up(channel, players, game=game_id, format="round-robin", table_size=2)
    store = env.bot.store
    (tournament,) = await store.tournaments()
    (row,) = await store.tournament_tables(tournament.id, 1)
    game = env.bot.manager.get(row.table_id)
    assert game.table.game == game_id and len(game.table.seats) == 2
    await near_the_end_in_thread(env, channel, row, game, random.Random(4))
    typed_from = game.seq

    assert await play_to_the_end(env, channel, players, random.Random(4)) == 1
    assert game.seq > typed_from

    assert game.result() is not None
    finished = await store.get_tournament(tournament.id)
    assert finished.status is TournamentStatus.FINISHED
    final = [m for m in thread_of(channel, row.thread_id).history() if m.embeds]
    assert any("final scores" in (m.embeds[0].title or "") for m in final)
    result = (await store.get_table(row.table_id)).result
    best = min(range(2), key=lambda s: (result["ranks"][s], -result["scores"][s]))
    assert f"The winner: <@{row.seats[best]}>" in posted(channel)
    book = await env.bot.ratings.book(game_id, guild.id)
    assert sorted(p.games for p in book.players.values()) == [1, 1]


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_replace_and_re_pair_by_the_organiser_and_refused_to_others(hall, game_id):
    env, guild, channel, members = hall
    alice, bob, carol, *_ = members
    players = members[:5]
    await sign_up(channel, players, game=game_id, format="swiss", rounds=1, table_size=3)
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
    if seat in awaited_humans(game):  # the newcomer is told it is their turn (finding 5)
        thread = next(t for t in channel.threads if t.id == carols.thread_id)
        assert any(zoe.mention in (m.content or "") for m in thread.history())

    # Someone at that table moves: the round cannot be re-paired, nor the mover replaced;
    # a table-mate who has not moved still can be.
    everyone = [*members, zoe]
    mover_seat = awaited_humans(game)[0]
    mover = next(m for m in everyone if m.id == row.seats[mover_seat])
    await move_typed(channel, everyone, row, game, mover_seat, random.Random(1))
    rows_now = await store.tournament_tables(tournament.id, 1)
    refused = await alice.slash(channel, "tournament repair")
    assert refused.ephemeral and "cannot be seated again" in refused.response.content
    refused = await alice.slash(channel, "tournament replace", player=mover, replacement=carol)
    assert refused.ephemeral
    assert refused.response.content == t("en", "tournament.has_played", user=f"<@{mover.id}>")
    assert await store.tournament_tables(tournament.id, 1) == rows_now
    assert (await store.get_tournament(tournament.id)).players == now.players

    mate_seat = next(s for s in range(len(row.seats)) if s != mover_seat)
    mate = next(m for m in everyone if m.id == row.seats[mate_seat])
    done = await alice.slash(channel, "tournament replace", player=mate, replacement=carol)
    assert done.ephemeral and "replaced" in done.response.content, done.response.content
    assert game.table.seats[mate_seat].user_id == carol.id
    assert (await store.get_tournament(tournament.id)).player(carol.id).status == "playing"
    if game.decision_for(mate_seat) is not None:  # the newcomer plays on from the seat
        await move_typed(channel, everyone, row, game, mate_seat, random.Random(2))


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_re_pair_after_a_removal_while_only_the_ai_has_moved_for_the_removed_seat(
    hall, game_id
):
    env, _, channel, members = hall
    players = members[:4]
    alice = players[0]
    await sign_up(channel, players, game=game_id, format="swiss", rounds=1, table_size=2)
    store = env.bot.store
    (tournament,) = await store.tournaments()
    before = await store.tournament_tables(tournament.id, 1)
    # The organiser removes a player whose turn it is: the AI takes the seat and moves.
    row, seat = next(
        (r, s)
        for r in before
        for s in awaited_humans(env.bot.manager.get(r.table_id))
        if r.seats[s] != alice.id
    )
    removed = next(m for m in players if m.id == row.seats[seat])
    done = await alice.slash(channel, "tournament remove", player=removed)
    assert done.ephemeral and "removed" in done.response.content
    for _ in range(60):
        if any(a.seat == seat for a in await store.actions(row.table_id)):
            break
        await env.advance_time(1)
    logged = await store.actions(row.table_id)
    assert logged and all(a.user_id is None for a in logged)  # only the AI has moved

    done = await alice.slash(channel, "tournament repair")
    assert done.ephemeral and "seated again" in done.response.content, done.response.content
    fresh = [r for r in await store.tournament_tables(tournament.id, 1) if r.state != "void"]
    assert sorted(p for r in fresh for p in r.seats) == sorted(
        m.id for m in players if m.id != removed.id
    )
    assert (await store.get_table(row.table_id)).status is TableStatus.ABANDONED
    for r in fresh:
        assert (await store.get_table(r.table_id)).status is TableStatus.ACTIVE
