"""`/tournament drop`: the player leaves after their current game; their seat in it goes to
the AI (at `good` where the game has it), which plays it out, and ranks last; later rounds
seat them nowhere. A drop while the next round is opening hands the new seat over at once.
Each in the test game and the four real games."""

from __future__ import annotations

import random

import pytest

from meeple_hall.bot import ai
from meeple_hall.bot.store import TableStatus, TournamentStatus
from meeple_hall.bot.tournaments import Tournaments
from tests.bot.conftest import EVERY_GAME, REAL_GAMES, awaited_humans
from tests.bot.test_ai_seats import Recording, in_process
from tests.bot.test_tournament import move_typed, play_round, sign_up, small_tables


@pytest.fixture
def hall(simcord_env):
    guild = simcord_env.create_guild(name="Meeple Hall")
    channel = guild.create_text_channel("tournaments")
    names = ("alice", "bob", "carol", "dave", "erin")
    members = [guild.add_member(simcord_env.create_user(n)) for n in names]
    return simcord_env, guild, channel, members


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_drop_mid_game_hands_the_seat_to_the_ai_ranks_last_and_ends_the_pairings(
    hall, game_id
):
    env, _, channel, members = hall
    by_id = {m.id: m for m in members}
    await sign_up(channel, members, game=game_id, format="swiss", rounds=2, **small_tables(game_id))
    store = env.bot.store
    (tournament,) = await store.tournaments()
    rows = await store.tournament_tables(tournament.id, 1)
    three = next(r for r in rows if len(r.seats) == 3)
    game = env.bot.manager.get(three.table_id)
    # The leaver has played: their turn typed in the table's thread.
    seat = awaited_humans(game)[0]
    leaver = by_id[three.seats[seat]]
    await move_typed(channel, members, three, game, seat, random.Random(2))

    dropped = await leaver.slash(channel, "tournament drop")
    assert dropped.ephemeral and "dropped out" in dropped.response.content
    taken = game.table.seats[seat]
    assert taken.user_id == leaver.id and taken.resigned and taken.ai
    assert game.table.status is TableStatus.ACTIVE  # the game goes on for the others
    now = await store.get_tournament(tournament.id)
    assert now.player(leaver.id).status == "dropped" and now.player(leaver.id).left_round == 1
    again = await leaver.slash(channel, "tournament drop")
    assert again.ephemeral and "not playing" in again.response.content

    await play_round(env, channel, members, 1, random.Random(3))
    result = (await store.get_table(three.table_id)).result
    others = [rank for s, rank in enumerate(result["ranks"]) if s != seat]
    assert result["ranks"][seat] > max(others)  # played out by the AI, ranked below everyone

    second = [r for r in await store.tournament_tables(tournament.id, 2) if r.state != "void"]
    (round2,) = [r for r in await store.tournament_rounds(tournament.id) if r.round == 2]
    assert second and all(leaver.id not in r.seats for r in second)
    assert leaver.id not in round2.byes
    seated = sorted([p for r in second for p in r.seats] + list(round2.byes))
    assert seated == sorted(m.id for m in members if m.id != leaver.id)

    await play_round(env, channel, members, 2, random.Random(4))
    finished = await store.get_tournament(tournament.id)
    assert finished.status is TournamentStatus.FINISHED
    shown = await members[0].slash(channel, "tournament standings")
    line = next(x for x in shown.response.content.splitlines() if f"<@{leaver.id}>" in x)
    assert "(dropped)" in line and "1 games" in line


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_drop_while_the_next_round_opens_hands_the_new_seat_over_at_once(
    hall, monkeypatch, game_id
):
    env, _, channel, members = hall
    players = members[:4]
    by_id = {m.id: m for m in players}
    await sign_up(channel, players, game=game_id, format="swiss", rounds=2, table_size=2)
    store = env.bot.store
    (tournament,) = await store.tournaments()
    real = Tournaments._find_or_make_table

    async def stop_in_round_two(self, tournament, row, thread_id):
        if row.round == 2:
            raise RuntimeError("the bot stopped here")
        return await real(self, tournament, row, thread_id)

    with monkeypatch.context() as patch:
        patch.setattr(Tournaments, "_find_or_make_table", stop_in_round_two)
        await play_round(env, channel, players, 1, random.Random(6))
    rows = await store.tournament_tables(tournament.id, 2)
    assert rows and all(r.table_id is None for r in rows)  # round 2 seated, no game made
    leaver = by_id[rows[0].seats[0]]

    dropped = await leaver.slash(channel, "tournament drop")
    assert "dropped out" in dropped.response.content
    rows = await store.tournament_tables(tournament.id, 2)
    assert all(r.state == "announced" for r in rows)
    table = await store.get_table(rows[0].table_id)
    assert table.status is TableStatus.ACTIVE and table.game == game_id
    assert table.seats[0].user_id == leaver.id and table.seats[0].resigned and table.seats[0].ai
    assert not table.seats[1].resigned
    assert (await store.get_tournament(tournament.id)).player(leaver.id).left_round == 2


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_dropped_seat_in_a_real_game_is_played_by_the_good_ai(hall, game_id):
    env, _, channel, members = hall
    players = members[:2]
    await sign_up(channel, players, game=game_id, format="round-robin", table_size=2)
    recording = Recording(in_process)
    env.bot.manager.chooser = recording
    store = env.bot.store
    (tournament,) = await store.tournaments()
    (row,) = await store.tournament_tables(tournament.id, 1)
    game = env.bot.manager.get(row.table_id)
    leaver_seat = 1
    leaver = next(m for m in players if m.id == row.seats[leaver_seat])
    stayer_seat = 1 - leaver_seat

    dropped = await leaver.slash(channel, "tournament drop")
    assert "dropped out" in dropped.response.content
    seat = game.table.seats[leaver_seat]
    assert seat.resigned and seat.ai and ai.seat_level(game_id, seat) == "good"
    rng = random.Random(7)
    for _ in range(200):
        if any(asked[1] == leaver_seat for asked in recording.asked):
            break
        if game.decision_for(stayer_seat) is None:
            await env.advance_time(1)
            continue
        await move_typed(channel, players, row, game, stayer_seat, rng)
    played = [asked for asked in recording.asked if asked[1] == leaver_seat]
    assert played, "the AI did not play the dropped seat"
    assert {level for _, _, level, _, _ in played} == {"good"}
    assert game.table.status is TableStatus.ACTIVE
