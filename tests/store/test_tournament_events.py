"""What organisers run events with (issue 28, migrations 0016 and 0017), on both backends:
the tournament's options (how a passed deadline settles its tables too), check-in, round
deadlines and the final, and the organiser's results."""

import sqlite3
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from meeple_hall.bot.store import NotSeated, SQLiteStore, StoreError, TournamentResult
from meeple_hall.bot.store.base import TournamentClosed, TournamentPlayer
from meeple_hall.bot.store.schema import load_migrations
from tests.store.conftest import GUEST, HOST, active_table, result_for
from tests.store.test_community import a_tournament

NOW = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


async def test_the_options_round_trip(store):
    asked = replace(
        a_tournament(TournamentPlayer(HOST, "Ada")),
        checkin_minutes=30,
        deadline_days=3,
        seeding="rating",
        points=(6, 4, 2, 1),
        final_size=4,
        at_deadline="organiser",
    )
    made = await store.create_tournament(asked)
    assert (made.checkin_minutes, made.deadline_days, made.seeding) == (30, 3, "rating")
    assert made.at_deadline == "organiser"
    assert (made.points, made.final_size, made.checkin_until) == ((6, 4, 2, 1), 4, None)
    plain = await store.create_tournament(a_tournament(TournamentPlayer(HOST, "Ada")))
    assert plain.at_deadline == "ai"
    assert (plain.points, plain.seeding, plain.deadline_days, plain.final_size) == (
        None,
        "random",
        None,
        None,
    )


async def test_check_in_only_while_its_window_is_open(store):
    made = await store.create_tournament(
        replace(a_tournament(TournamentPlayer(HOST, "Ada")), checkin_minutes=10)
    )
    await store.join_tournament(made.id, GUEST, "Bo")
    with pytest.raises(TournamentClosed):
        await store.check_in(made.id, GUEST)  # the window is not open yet
    opened = await store.open_checkin(made.id, NOW + timedelta(minutes=10))
    assert opened.checkin_until == NOW + timedelta(minutes=10)
    confirmed = await store.check_in(made.id, GUEST)
    assert [(p.user_id, p.checked_in) for p in confirmed.players] == [(HOST, False), (GUEST, True)]
    with pytest.raises(NotSeated):
        await store.check_in(made.id, 4242)
    await store.add_round(made.id, 1, [(HOST, GUEST)], ())
    with pytest.raises(TournamentClosed):
        await store.check_in(made.id, HOST)  # running: check-in is over
    with pytest.raises(TournamentClosed):
        await store.open_checkin(made.id, NOW)


async def test_a_round_keeps_its_deadline_and_whether_it_is_the_final(store):
    made = await store.create_tournament(a_tournament(TournamentPlayer(HOST, "Ada")))
    due = NOW + timedelta(days=3)
    await store.add_round(made.id, 1, [(HOST, GUEST)], (), deadline=due)
    await store.add_round(made.id, 2, [(HOST, GUEST)], (), deadline=due, final=True)
    rounds = await store.tournament_rounds(made.id)
    assert [(r.round, r.deadline, r.final) for r in rounds] == [(1, due, False), (2, due, True)]
    await store.add_round(made.id, 3, [(HOST, GUEST)], ())
    assert (await store.tournament_rounds(made.id))[-1].deadline is None


async def test_an_organisers_result_is_kept_once(store):
    made = await store.create_tournament(a_tournament(TournamentPlayer(HOST, "Ada")))
    table = await active_table(store)
    await store.finish_table(table.id, result_for(table))
    decided = TournamentResult(made.id, table.id, (2, 1), (0,), "no-show", HOST, NOW)
    await store.record_tournament_result(decided)
    assert await store.tournament_results(made.id) == [decided]
    with pytest.raises(StoreError):
        await store.record_tournament_result(replace(decided, reason="again"))
    assert await store.tournament_results(made.id) == [decided]


async def test_a_tournament_stored_before_0017_still_has_the_ai_play_out(db_path):
    """Migration 0017's default keeps a stored tournament as it was; it refuses a value
    that is neither way of settling."""
    older = SQLiteStore(db_path, migrations=load_migrations("sqlite")[:16])
    await older.open()
    await older.close()
    with sqlite3.connect(db_path) as db:
        db.execute(
            "INSERT INTO tournaments (guild_id, channel_id, organiser_id, name, game, format,"
            " table_size, clock, created_at, deadline_days)"
            " VALUES (42, 900, ?, 'Old Cup', 'pebbles', 'swiss', 2, '24h', ?, 3)",
            (HOST, NOW.isoformat()),
        )
    store = SQLiteStore(db_path)
    await store.open()
    try:
        (kept,) = await store.tournaments()
        assert (kept.name, kept.deadline_days, kept.at_deadline) == ("Old Cup", 3, "ai")
    finally:
        await store.close()
    with sqlite3.connect(db_path) as db, pytest.raises(sqlite3.IntegrityError):
        db.execute("UPDATE tournaments SET at_deadline = 'nobody'")
