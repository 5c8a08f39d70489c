"""A whole two-round Swiss tournament of seven players on the real bot (SimCord): sign-up,
round 1 in threads played through /move, a restart in the middle of opening round 2, a
drop-out, the standings, the winner, then ratings, the leaderboard and a profile."""

from __future__ import annotations

import random

import pytest

from meeple_hall.bot.store import TableStatus, TournamentStatus
from meeple_hall.bot.tournaments import Tournaments
from tests.bot.conftest import plan_turn

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace")


@pytest.fixture
def hall(simcord_env):
    guild = simcord_env.create_guild(name="Meeple Hall")
    channel = guild.create_text_channel("tournaments")
    members = [guild.add_member(simcord_env.create_user(n)) for n in NAMES]
    return simcord_env, guild, channel, members


def thread_of(channel, table_id_thread: int):
    return next(t for t in channel.threads if t.id == table_id_thread)


async def play_round(env, channel, members, round_no: int, rng) -> None:
    """Every table of the round played to its end by its humans typing /move."""
    bot = env.bot
    by_id = {m.id: m for m in members}
    tid = (await bot.store.tournaments())[0].id
    for row in await bot.store.tournament_tables(tid, round_no):
        if row.state == "void":
            continue
        game = bot.manager.get(row.table_id)
        if game is None:
            continue
        thread = thread_of(channel, row.thread_id)
        for _ in range(400):
            if game.table.status is not TableStatus.ACTIVE:
                break
            humans = [d for d in game.decisions() if not game.table.seats[d.seat].ai]
            if not humans:
                await env.advance_time(1)
                continue
            seat = humans[0].seat
            member = by_id[game.table.seats[seat].user_id]
            text = " ".join(plan_turn(game, seat, rng))
            result = await member.slash(thread, "move", text=text)
            assert "Applied" in result.response.content, result.response.content
        assert game.table.status is not TableStatus.ACTIVE


async def test_a_two_round_swiss_of_seven(hall, make_bot, monkeypatch):
    env, guild, channel, members = hall
    alice, bob, *_ = members
    rng = random.Random(12)
    created = await alice.slash(
        channel, "tournament create", game="pebbles", format="swiss", rounds=2
    )
    signup = channel.last_message
    assert "Pebbles" in signup.embeds[0].description
    for member in members[1:]:
        await member.click(signup, label="Join")
    refused = await bob.click(signup, label="Start")
    assert refused.ephemeral and "organiser" in refused.response.content
    again = await bob.click(signup, label="Join")
    assert "already" in again.response.content
    del created
    await alice.click(signup, label="Start")

    store = env.bot.store
    (tournament,) = await store.tournaments()
    assert tournament.status is TournamentStatus.RUNNING and tournament.round == 1
    round1 = await store.tournament_tables(tournament.id, 1)
    assert sorted(len(r.seats) for r in round1) == [3, 4]  # 7 players: tables of 4 and 3
    assert all(r.state == "announced" for r in round1)
    assert sorted(p for r in round1 for p in r.seats) == sorted(m.id for m in members)
    assert len(channel.threads) == 2
    for row in round1:
        table = await store.get_table(row.table_id)
        assert table.channel_id == row.thread_id and table.status is TableStatus.ACTIVE
        assert [s.user_id for s in table.seats] == list(row.seats)
        assert table.settings["clock"] == "48h" and table.settings["away"] == "forbidden"
        pings = [m.content for m in thread_of(channel, row.thread_id).history()]
        assert any("round 1, table" in c for c in pings)
    dms = members[0].user.dm_channel.history()
    assert any("has started" in (m.content or "") for m in dms)

    # The bot stops while opening round 2: the second table's thread is made, its game not.
    real = Tournaments._find_or_make_table
    calls = []

    async def stop_at_second(self, tournament, row, thread_id):
        calls.append(row.number)
        if row.round == 2 and row.number == 2:
            raise RuntimeError("the bot stopped here")
        return await real(self, tournament, row, thread_id)

    with monkeypatch.context() as patch:
        patch.setattr(Tournaments, "_find_or_make_table", stop_at_second)
        await play_round(env, channel, members, 1, rng)
        t_now = await store.get_tournament(tournament.id)
        assert t_now.round == 2
        rows = await store.tournament_tables(tournament.id, 2)
        assert [r.state for r in rows] == ["announced", "thread"]
        (r2,) = [r for r in await store.tournament_rounds(tournament.id) if r.round == 2]
        assert r2.status == "opening"
    assert "standings after round 1" in "\n".join(m.content or "" for m in channel.history())

    await env.restart_bot(make_bot())
    store = env.bot.store
    rows = await store.tournament_tables(tournament.id, 2)
    assert [r.state for r in rows] == ["announced", "announced"]
    assert len(channel.threads) == 4  # two per round: the interrupted one was found again
    assert len({r.thread_id for r in rows}) == 2
    for row in rows:
        assert (await store.get_table(row.table_id)).status is TableStatus.ACTIVE
    (r2,) = [r for r in await store.tournament_rounds(tournament.id) if r.round == 2]
    assert r2.status == "playing"

    # Swiss: nobody who met in round 1 meets again where avoidable (7 at 4+3 cannot avoid
    # all), and the seats are the seats of the games.
    met1 = {frozenset((a, b)) for r in round1 for a in r.seats for b in r.seats if a != b}
    repeats = sum(
        frozenset((a, b)) in met1 for r in rows for a in r.seats for b in r.seats if a < b
    )
    assert repeats <= 4

    # A drop-out in the middle of round 2: their seat goes to the AI and ranks last.
    leaver_id = rows[0].seats[0]
    leaver = next(m for m in members if m.id == leaver_id)
    dropped = await leaver.slash(channel, "tournament drop")
    assert "dropped out" in dropped.response.content
    stranger = await bob.slash(channel, "tournament cancel") if bob.id != alice.id else None
    assert stranger is not None and "organiser" in stranger.response.content
    game = env.bot.manager.get(rows[0].table_id)
    assert game.table.seats[0].resigned
    await play_round(env, channel, members, 2, rng)

    t_end = await store.get_tournament(tournament.id)
    assert t_end.status is TournamentStatus.FINISHED
    assert t_end.player(leaver_id).status == "dropped"
    finished = await store.get_table(rows[0].table_id)
    assert finished.result["ranks"][0] == max(finished.result["ranks"])
    text = "\n".join(m.content or "" for m in channel.history())
    assert "The winner" in text and "standings after round 2" in text

    shown = await alice.slash(channel, "tournament standings")
    assert shown.ephemeral and shown.response.attachments
    lines = [x for x in shown.response.content.splitlines() if x[:1].isdigit()]
    assert len(lines) == 7 and "(dropped)" in shown.response.content

    # Ratings: four rated games; everyone has two (the drop-out too) — below the 5 needed.
    book = await env.bot.ratings.book("pebbles", guild.id)
    assert sorted(p.games for p in book.players.values()) == [2] * 7
    board = await alice.slash(channel, "leaderboard", game="pebbles")
    assert board.response.attachments and "rated games" in board.response.content
    profile = await alice.slash(channel, "profile")
    assert "Pebbles" in profile.response.content and "2 played" in profile.response.content
    finals = [m for m in thread_of(channel, rows[1].thread_id).history() if m.embeds]
    assert any(f.name == "Rating changes" for m in finals for f in m.embeds[0].fields)


async def test_bad_tournament_input_is_refused_and_changes_nothing(hall):
    env, _, channel, members = hall
    alice = members[0]
    for options, words in (
        ({"game": "chess", "format": "swiss"}, "chess"),
        ({"game": "pebbles", "format": "swiss", "table_size": 9}, "2 to 4"),
        ({"game": "pebbles", "format": "swiss", "rounds": 40}, "1 to 20"),
        ({"game": "pebbles", "format": "swiss", "name": "x" * 80}, "60"),
        ({"game": "pebbles", "format": "elimination", "advance": 4}, "1 to 3"),
    ):
        result = await alice.slash(channel, "tournament create", **options)
        assert result.ephemeral and words in result.response.content, result.response.content
    assert await env.bot.store.tournaments() == []
    nothing = await alice.slash(channel, "tournament standings")
    assert nothing.ephemeral and "no tournament" in nothing.response.content
    await alice.slash(channel, "tournament create", game="pebbles", format="round-robin")
    lone = await alice.click(channel.last_message, label="Start")
    assert lone.ephemeral and "at least 2" in lone.response.content
    (tournament,) = await env.bot.store.tournaments()
    assert tournament.round == 0 and tournament.status.value == "signup"
    rules = await alice.slash(channel, "tournament rules")
    assert "4 players: 10 / 6 / 3 / 1" in rules.response.content
