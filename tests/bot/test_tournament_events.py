"""The organisers' tools (issue 28) through the real bot (SimCord), each feature on its own
and fast, in the test game and the four real games: the event options refused when they
do not fit; a check-in window (who does not confirm is dropped and told); round 1 seeded by
the server's ratings; a round's deadline announced as a Discord timestamp and, once passed,
every unfinished table played out by the AI, or (as the tournament says) left to the
organiser, who is pinged and whose last result closes the round; the organiser's result
for a table (counted in standings and ratings, kept, refused when it does not fit or comes
from someone else); the tournament's own points in `/tournament rules`; and
`/tournament list` with past tournaments, this server's only."""

from __future__ import annotations

import asyncio
import csv
import io
import random

import discord
import pytest

from meeple_hall import games
from meeple_hall.bot.i18n import t
from meeple_hall.bot.store import FinalResult, Seat, TableStatus, TournamentStatus
from meeple_hall.bot.tournaments import deadline_line
from tests.bot.conftest import EVERY_GAME, LANGUAGES, awaited_humans, buttons
from tests.bot.test_tournament import (
    choose_languages,
    click_verb,
    move_typed,
    near_the_end_in_thread,
    posted,
    sign_up,
    thread_of,
)

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy")
MINUTE, DAY = 60, 24 * 3600


@pytest.fixture
def hall(simcord_env):
    """A server whose first member (the organiser) may manage it, a tournaments channel and
    ten members."""
    guild = simcord_env.create_guild(name="Meeple Hall")
    channel = guild.create_text_channel("tournaments")
    managers = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    members = [guild.add_member(simcord_env.create_user(NAMES[0]), roles=[managers])]
    members += [guild.add_member(simcord_env.create_user(n)) for n in NAMES[1:]]
    return simcord_env, guild, channel, members


async def rate(store, guild_id: int, game_id: str, strongest_first: list[int]) -> None:
    """Rated games on the server in which each player beats everyone after them (head to
    head), so the server's ratings order them as listed."""
    engine = games.get(game_id)
    for i, better in enumerate(strongest_first):
        for j, worse in enumerate(strongest_first[i + 1 :]):
            table = await store.create_table(
                guild_id=guild_id,
                channel_id=990_000 + 100 * i + j,
                host_id=better,
                game=game_id,
                options=engine.resolve_options({}),
                seed=1,
                seats=[Seat(better, str(better)), Seat(worse, str(worse))],
            )
            await store.start_table(table.id, min_seats=2, max_seats=6)
            await store.finish_table(table.id, FinalResult((10, 5), (1, 2), ({}, {})))


async def finished(env, tournament_id: int, days: int = 40) -> None:
    """Let virtual time run (deadlines pass, the AI plays out) until the tournament ends."""
    for _ in range(days * 24):
        tournament = await env.bot.store.get_tournament(tournament_id)
        if tournament.status is not TournamentStatus.RUNNING:
            return
        await env.advance_time(3600)
    raise AssertionError("the tournament did not end")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_event_options_that_do_not_fit_are_refused_and_change_nothing(hall, game_id, lang):
    env, _, channel, members = hall
    alice = members[0]
    await alice.slash(channel, "settings", language=lang)
    high = games.get(game_id).max_players
    low = max(games.get(game_id).min_players, 2)
    base = {"game": game_id, "format": "swiss", "table_size": 2}
    for options, key, fields in (
        ({"points": "6,4,x"}, "tournament.bad_points_format", {}),
        ({"points": "4,6"}, "tournament.bad_points", {"size": 2, "max": high}),
        ({"points": "3", "table_size": 2}, "tournament.bad_points", {"size": 2, "max": high}),
        (
            {"points": ",".join(["1"] * (high + 1))},
            "tournament.bad_points",
            {"size": 2, "max": high},
        ),
        ({"deadline": 0}, "tournament.bad_deadline", {"max": 30}),
        ({"deadline": -2}, "tournament.bad_deadline", {"max": 30}),
        ({"checkin": 0}, "tournament.bad_checkin", {"max": 1440}),
        ({"final": high + 1}, "tournament.bad_final", {"min": low, "max": high}),
        ({"final": 2, "format": "round-robin"}, "tournament.bad_final", {"min": low, "max": high}),
        ({"at_deadline": "organiser"}, "tournament.at_deadline_needs_deadline", {"max": 30}),
    ):
        result = await alice.slash(channel, "tournament create", **{**base, **options})
        assert result.ephemeral, options
        assert result.response.content == t(lang, key, **fields), options
    assert await env.bot.store.tournaments() == []


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_check_in_drops_who_did_not_confirm_and_starts_with_the_others(hall, game_id):
    env, _, channel, members = hall
    alice, bob, carol, dave = members[:4]
    await alice.slash(
        channel, "tournament create", game=game_id, format="swiss", table_size=2, checkin=15
    )
    signup = channel.last_message
    for member in (bob, carol, dave):
        await click_verb(member, signup, "join")
    await click_verb(alice, signup, "start")
    store = env.bot.store
    (tournament,) = await store.tournaments()
    assert tournament.status is TournamentStatus.SIGNUP and tournament.checkin_until is not None
    assert "check-in is open for 15 minutes" in posted(channel)
    signup = next(m for m in channel.history() if m.id == signup.id)  # as it is now
    assert any(c.endswith(":checkin") for c in buttons(signup).values())
    for member in (bob, carol):
        await click_verb(member, signup, "checkin")
    outsider = members[5]
    refused = await click_verb(outsider, signup, "checkin")
    assert refused.ephemeral and "not playing" in refused.response.content
    await env.advance_time(14 * MINUTE)
    assert (await store.get_tournament(tournament.id)).status is TournamentStatus.SIGNUP
    await env.advance_time(2 * MINUTE)
    await env.settle()
    running = await store.get_tournament(tournament.id)
    assert running.status is TournamentStatus.RUNNING and running.player(dave.id) is None
    assert sorted(running.playing()) == sorted(m.id for m in (alice, bob, carol))
    assert f"<@{dave.id}> did not check in" in posted(channel)
    seated = {p for row in await store.tournament_tables(tournament.id, 1) for p in row.seats}
    assert dave.id not in seated and seated <= {alice.id, bob.id, carol.id}


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_round_one_seeded_by_rating_spreads_the_strongest(hall, game_id):
    env, guild, channel, members = hall
    players = members[:8]
    by_strength = [m.id for m in reversed(players)]  # judy … alice: the newest strongest
    await rate(env.bot.store, guild.id, game_id, by_strength)
    await sign_up(
        channel,
        players,
        game=game_id,
        format="swiss",
        table_size=4,
        seeding="rating",
    )
    (tournament,) = await env.bot.store.tournaments()
    assert tournament.seeding == "rating"
    tables = [row.seats for row in await env.bot.store.tournament_tables(tournament.id, 1)]
    assert len(tables) == 2
    top_two = [next(i for i, seats in enumerate(tables) if p in seats) for p in by_strength[:2]]
    assert sorted(top_two) == [0, 1]  # the two strongest do not meet in round 1
    assert {frozenset(s) for s in tables} == {
        frozenset(by_strength[i] for i in (0, 3, 4, 7)),
        frozenset(by_strength[i] for i in (1, 2, 5, 6)),
    }


# The AI plays a whole game out within one step of virtual time: on a loaded machine that
# takes longer than a move's usual settling time (a Coffee Traders game took over 60 s).
AI_PLAYS_OUT = pytest.mark.simcord(settle_timeout=600)


@AI_PLAYS_OUT
@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_passed_deadline_has_the_ai_play_out_the_round(hall, game_id):
    env, _, channel, members = hall
    alice, bob = members[:2]
    await sign_up(
        channel,
        [alice, bob],
        game=game_id,
        format="swiss",
        rounds=1,
        table_size=2,
        deadline=2,
        clock="72h",
    )
    store = env.bot.store
    (tournament,) = await store.tournaments()
    (rnd,) = await store.tournament_rounds(tournament.id)
    assert rnd.deadline is not None
    stamp = int(rnd.deadline.timestamp())
    text = posted(channel)
    assert f"<t:{stamp}:F>" in text and f"<t:{stamp}:R>" in text
    assert f"<@{alice.id}>" in text and f"<@{bob.id}>" in text
    (row,) = await store.tournament_tables(tournament.id, 1)
    await env.advance_time(2 * DAY - MINUTE)
    table = await store.get_table(row.table_id)
    assert table.status is TableStatus.ACTIVE and not any(s.ai for s in table.seats)
    await env.advance_time(2 * MINUTE)
    table = await store.get_table(row.table_id)
    assert all(s.ai for s in table.seats) or table.status is TableStatus.FINISHED
    assert "deadline has passed" in posted(channel)
    assert any(
        "deadline has passed" in (m.content or "")
        for m in thread_of(channel, row.thread_id).history()
    )
    await finished(env, tournament.id)
    assert (await store.get_table(row.table_id)).status is TableStatus.FINISHED
    assert (await store.get_tournament(tournament.id)).status is TournamentStatus.FINISHED
    pictures = [a.filename for m in channel.history() for a in m.attachments]
    assert f"podium-{tournament.id}.png" in pictures  # the podium picture, at the end
    exported = await bob.slash(channel, "tournament export")
    (attachment,) = exported.response.attachments
    assert exported.ephemeral and attachment.filename == f"tournament-{tournament.id}.csv"
    text = (await attachment.read()).decode("utf-8-sig")
    assert str(alice.id) in text and str(bob.id) in text


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_the_organiser_sets_a_tables_result_with_a_reason(hall, game_id):
    env, guild, channel, members = hall
    alice, bob, carol, dave = members[:4]
    await sign_up(
        channel,
        [alice, bob, carol, dave],
        game=game_id,
        format="swiss",
        rounds=1,
        table_size=2,
        points="5,1",
    )
    store = env.bot.store
    (tournament,) = await store.tournaments()
    rows = await store.tournament_tables(tournament.id, 1)
    row = rows[0]
    for who, options, words in (
        (bob, {"table": 1, "ranks": "2,1", "reason": "no-show"}, "Only the organiser"),
        (alice, {"table": 9, "ranks": "2,1", "reason": "no-show"}, "no table 9"),
        (alice, {"table": 1, "ranks": "1,3", "reason": "no-show"}, "each of the 2 seats"),
        (alice, {"table": 1, "ranks": "2,1,3", "reason": "no-show"}, "each of the 2 seats"),
        (alice, {"table": 1, "forfeits": "1,2", "reason": "no-show"}, "at least one seat"),
        (alice, {"table": 1, "reason": "no-show"}, "ranks, or the seats"),
        (alice, {"table": 1, "ranks": "2,1", "reason": "x" * 201}, "at most 200"),
    ):
        result = await who.slash(channel, "tournament result", **options)
        assert result.ephemeral and words in result.response.content, result.response.content
    assert (await store.get_table(row.table_id)).status is TableStatus.ACTIVE
    assert await store.tournament_results(tournament.id) == []

    done = await alice.slash(channel, "tournament result", table=1, ranks="2,1", reason="no-show")
    assert done.ephemeral and "set and announced" in done.response.content
    table = await store.get_table(row.table_id)
    assert table.status is TableStatus.FINISHED and table.result["ranks"] == [2, 1]
    (kept,) = await store.tournament_results(tournament.id)
    assert (kept.table_id, kept.ranks, kept.reason, kept.decided_by) == (
        row.table_id,
        (2, 1),
        "no-show",
        alice.id,
    )
    said = f"<@{row.seats[1]}> · 2. <@{row.seats[0]}>"
    assert said in posted(channel)
    assert any(said in (m.content or "") for m in thread_of(channel, row.thread_id).history())
    book = await env.bot.ratings.book(game_id, guild.id)
    assert book.players[row.seats[1]].wins == 1  # counted in ratings
    standing = {s.user_id: s.points for s in await env.bot.tournaments.standings(tournament)}
    assert (standing[row.seats[1]], standing[row.seats[0]]) == (5, 1)  # and in standings
    again = await alice.slash(channel, "tournament result", table=1, ranks="1,2", reason="oops")
    assert again.ephemeral and "ended already" in again.response.content
    rules = await bob.slash(channel, "tournament rules")
    assert "2 players: 5 / 1" in rules.response.content


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_the_list_shows_this_servers_tournaments_past_ones_included(hall, game_id):
    env, _, channel, members = hall
    alice, bob = members[:2]
    await alice.slash(channel, "tournament create", game=game_id, format="swiss", name="Spring")
    await alice.slash(channel, "tournament cancel")
    await alice.slash(channel, "tournament create", game=game_id, format="swiss", name="Summer")
    other = env.create_guild(name="Elsewhere")
    there = other.create_text_channel("t")
    stranger = other.add_member(env.create_user("zed"))
    await stranger.slash(there, "tournament create", game=game_id, format="swiss", name="Far")
    await env.advance_time(30 * DAY)
    listed = await bob.slash(channel, "tournament list")
    text = listed.response.content
    assert listed.ephemeral and "Spring" in text and "Summer" in text and "Far" not in text
    assert text.index("Summer") < text.index("Spring")  # newest first
    assert "Cancelled" in text and "Sign-up open" in text
    far = (await env.bot.store.tournaments(guild_id=other.id))[0]
    refused = await alice.slash(channel, "tournament standings", tournament=str(far.id))
    assert refused.ephemeral and "another server" in refused.response.content


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_check_in_window_and_a_deadline_survive_a_restart(hall, make_bot, game_id):
    """Both are re-armed from the store at start: the window still closes on time, and the
    round's deadline still hands its table to the AI."""
    env, _, channel, members = hall
    alice, bob, carol = members[:3]
    await alice.slash(
        channel,
        "tournament create",
        game=game_id,
        format="swiss",
        rounds=1,
        table_size=2,
        checkin=10,
        deadline=1,
        clock="72h",
    )
    signup = channel.last_message
    for member in (bob, carol):
        await click_verb(member, signup, "join")
    await click_verb(alice, signup, "start")
    signup = next(m for m in channel.history() if m.id == signup.id)  # with Check in
    await click_verb(bob, signup, "checkin")
    await env.restart_bot(make_bot())
    await env.advance_time(11 * MINUTE)
    store = env.bot.store
    (tournament,) = await store.tournaments()
    assert tournament.status is TournamentStatus.RUNNING and tournament.player(carol.id) is None
    (row,) = await store.tournament_tables(tournament.id, 1)
    await env.restart_bot(make_bot())

    async def thinks_on(*question):
        # The seats are handed to the AI; its playing the game out is test_a_passed_
        # deadline_has_the_ai_play_out_the_round's: here it thinks on, on virtual time.
        await env.external_wait(asyncio.sleep(30 * DAY), reason="the AI thinks on")

    env.bot.manager.chooser = thinks_on
    await env.advance_time(DAY)
    table = await env.bot.store.get_table(row.table_id)
    assert all(s.ai for s in table.seats)


async def play_to_its_end(env, channel, players, row, rng):
    """The table's players make their moves through the bot's move path to near the game's
    end, then type the last ones in its thread until it ends (a seat of the AI plays on its
    own); the game."""
    game = await env.bot.manager.fetch(row.table_id)
    await near_the_end_in_thread(env, channel, row, game, rng)
    for _ in range(3000):
        if game.table.status is not TableStatus.ACTIVE:
            return game
        humans = awaited_humans(game)
        if not humans:
            await env.advance_time(1)
            continue
        await move_typed(channel, players, row, game, humans[0], rng)
    raise AssertionError(f"table {row.number}'s game did not end")


def sent_by_bot_starting(env, channel, start: str) -> list[discord.Message]:
    return [
        m
        for m in channel.history()
        if m.author.id == env.bot.user.id and (m.content or "").startswith(start)
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_at_a_passed_deadline_the_organiser_decides_and_the_last_result_closes_the_round(
    hall, make_bot, game_id, lang
):
    """A tournament whose organiser decides at the deadline: the round's post says so, and
    `/tournament rules` too; when the deadline passes, no seat goes to the AI, each table's
    thread is told, and the organiser is pinged once (a restart does not ping again) with
    the unfinished tables and how to settle them; one table is then played to its end by
    its players (it counts as played), and the round closes when the organiser sets the
    other's result; the export keeps the setting."""
    env, _, channel, members = hall
    players = members[:4]
    alice, bob = players[:2]
    await choose_languages(env, channel, alice, players, lang)
    await sign_up(
        channel,
        players,
        game=game_id,
        format="swiss",
        rounds=1,
        table_size=2,
        deadline=1,
        at_deadline="organiser",
        clock="72h",
    )
    store = env.bot.store
    (tournament,) = await store.tournaments()
    assert tournament.at_deadline == "organiser"
    (rnd,) = await store.tournament_rounds(tournament.id)
    assert deadline_line(lang, rnd.deadline, "organiser") in posted(channel)
    rules = await bob.slash(channel, "tournament rules")
    setting = t(
        lang,
        "tournament.rules_setting",
        name=t(lang, "tournament.at_deadline"),
        value=t(lang, "tournament.at_deadline.organiser"),
    )
    assert setting in rules.response.content
    rows = await store.tournament_tables(tournament.id, 1)
    assert len(rows) == 2

    await env.advance_time(DAY + MINUTE)
    heading = t(
        lang, "tournament.deadline_decide", organiser=alice.mention, name=tournament.name, round=1
    )
    (ping,) = sent_by_bot_starting(env, channel, heading)
    assert t(lang, "tournament.deadline_decide_how") in ping.content
    for row in rows:
        seats = ", ".join(f"<@{u}>" for u in row.seats)
        line = t(lang, "tournament.table_line", table=row.number, thread=row.thread_id, seats=seats)
        assert line in ping.content
        said = [m.content for m in thread_of(channel, row.thread_id).history()]
        assert t(lang, "tournament.deadline_table_organiser") in said
        assert t(lang, "tournament.deadline_table") not in said
        table = await store.get_table(row.table_id)
        assert table.status is TableStatus.ACTIVE and not any(s.ai for s in table.seats)
    assert t(lang, "tournament.deadline_passed", name=tournament.name, round=1, tables=2) not in (
        posted(channel)
    )

    await env.restart_bot(make_bot())
    await env.advance_time(MINUTE)
    store = env.bot.store
    assert len(sent_by_bot_starting(env, channel, heading)) == 1  # pinged once
    played = await play_to_its_end(env, channel, players, rows[0], random.Random(5))
    assert played.table.status is TableStatus.FINISHED and not any(s.ai for s in played.table.seats)
    await env.settle()
    assert [r.status for r in await store.tournament_rounds(tournament.id)] == ["playing"]
    ended = await alice.slash(channel, "tournament result", table=1, ranks="2,1", reason="late")
    assert ended.ephemeral and ended.response.content == t(lang, "tournament.result_ended")
    last = await alice.slash(channel, "tournament result", table=2, forfeits="2", reason="absent")
    assert last.ephemeral and last.response.content == t(lang, "tournament.result_done")
    await env.settle()
    assert [r.status for r in await store.tournament_rounds(tournament.id)] == ["done"]
    assert (await store.get_tournament(tournament.id)).status is TournamentStatus.FINISHED
    assert t(lang, "tournament.round_done", round=1) in posted(channel)
    (decided,) = await store.tournament_results(tournament.id)
    assert decided.table_id == rows[1].table_id and decided.forfeits == (1,)

    exported = await bob.slash(channel, "tournament export")
    (attachment,) = exported.response.attachments
    rows_read = csv.reader(io.StringIO((await attachment.read()).decode("utf-8-sig")))
    settings = {row[0]: row[1:] for row in rows_read if row}
    assert settings[t(lang, "export.at_deadline")] == ["organiser"]
