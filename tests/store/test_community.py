"""The store commands of clocks, time away, languages, ratings and tournaments, on both
backends (the bot's tests drive them on SQLite; these hold PostgreSQL to the same)."""

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from meeple_hall.bot.store import (
    AlreadySeated,
    NotSeated,
    Seat,
    SeatChanged,
    StoreError,
    TableNotActive,
    TableStatus,
    UserPrefs,
)
from meeple_hall.bot.store.base import (
    Away,
    AwayAllowance,
    LanguageChoices,
    RoundExists,
    SeatClock,
    Tournament,
    TournamentClosed,
    TournamentPlayer,
    TournamentStatus,
    TournamentTable,
)
from tests.store.conftest import GUEST, HOST, active_table, new_table, result_for

NOW = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


async def test_clocks_round_trip_and_are_dropped_with_their_game(store):
    table = await active_table(store, seats=[Seat(HOST, "Ada"), Seat(GUEST, "Bo")])
    other = await active_table(store, channel_id=501)
    clock = SeatClock(
        table.id,
        1,
        GUEST,
        reserve=5400.5,
        timeouts=1,
        since=NOW,
        deadline=NOW + timedelta(hours=24),
        next_remind=NOW + timedelta(hours=6),
        reminders=2,
        snoozed=True,
        timed_out=False,
        stalled=True,
    )
    await store.save_clock(clock)
    await store.save_clock(SeatClock(table.id, 0, HOST, reserve=-3.0))  # kept at 0
    await store.save_clock(SeatClock(other.id, 0, HOST))
    assert await store.clocks(table.id) == [SeatClock(table.id, 0, HOST, reserve=0.0), clock]
    await store.save_clock(SeatClock(table.id, 0, HOST, reserve=60.0))
    assert (await store.clocks(table.id))[0].reserve == 60.0

    await store.abandon_table(other.id)
    assert {c.table_id for c in await store.clocks()} == {table.id}  # active games only
    await store.drop_clocks(table.id)
    assert await store.clocks(table.id) == []


async def test_time_away_is_charged_within_the_allowance_even_when_asked_twice_at_once(
    store, open_another
):
    other = await open_another()
    away = Away(HOST, NOW, NOW + timedelta(days=4))
    outcomes = await asyncio.gather(
        store.start_away(away, year=2026, days=4, allowance=6),
        other.start_away(away, year=2026, days=4, allowance=6),
        return_exceptions=True,
    )
    assert sorted(type(o).__name__ for o in outcomes) == ["AwayAllowance", "NoneType"]
    assert await store.away_days_used(HOST, 2026) == 4
    assert await store.away(HOST) == away and await store.aways() == [away]
    with pytest.raises(AwayAllowance) as refused:
        await store.start_away(away, year=2026, days=3, allowance=6)
    assert (refused.value.used, refused.value.allowance) == (4, 6)

    await store.end_away(HOST, year=2026, refund=9)
    assert await store.away(HOST) is None
    assert await store.away_days_used(HOST, 2026) == 0
    assert await store.away_days_used(GUEST, 2026) == 0


async def test_quiet_hours_and_languages_leave_the_other_preferences_alone(store):
    await store.set_prefs(UserPrefs(HOST, turn_dms=False))
    await store.set_locale(HOST, "zh-TW")
    await store.set_quiet_hours(HOST, 23 * 60, 7 * 60, -300)
    await store.set_language(HOST, "ja")
    await store.set_language(GUEST, "en")
    await store.set_language(GUEST, None)
    await store.set_server_language(42, "zh-TW")
    await store.set_server_language(43, None)
    assert await store.get_prefs(HOST) == UserPrefs(
        HOST, turn_dms=False, locale="zh-TW", quiet_start=23 * 60, quiet_end=7 * 60, utc_offset=-300
    )
    assert await store.language_choices() == LanguageChoices(
        users={HOST: "ja"}, guilds={42: "zh-TW"}
    )


async def test_results_for_ratings(store):
    rated = await active_table(store, channel_id=1, seats=[Seat(HOST, "Ada"), Seat(GUEST, "Bo")])
    await store.finish_table(rated.id, result_for(rated))
    lobby = await new_table(store, channel_id=2, seats=[Seat(HOST, "Ada Lovelace")])
    await store.set_setting(lobby.id, "rated", "no")
    unrated = await store.start_table(lobby.id, min_seats=1, max_seats=4)
    await store.finish_table(unrated.id, result_for(unrated))

    rows = await store.results_since(game="pebbles")
    assert [(r.table_id, r.seat) for r in rows] == [(rated.id, 0), (rated.id, 1), (unrated.id, 0)]
    ended = rows[-1].finished_at
    assert [r.table_id for r in await store.results_since(game="pebbles", since=ended)] == [
        unrated.id
    ]
    assert await store.results_since(game="pebbles", guild_id=41) == []
    assert await store.count_results(game="pebbles") == 2
    assert await store.count_results(game="pebbles", guild_id=42) == 2
    assert await store.count_results(game="keyflower") == 0
    assert await store.tables_with_setting(game="pebbles", name="rated", value="no") == {unrated.id}
    assert await store.seat_names([HOST, GUEST, 9999]) == {HOST: "Ada Lovelace", GUEST: "Bo"}
    assert await store.seat_names([]) == {}


async def test_seats_change_hands_only_as_allowed(store):
    table = await active_table(store, seats=[Seat(HOST, "Ada"), Seat(GUEST, "Bo")])
    assert (await store.set_seat_ai(table.id, 1, True)).seats[1].ai
    assert not (await store.set_seat_ai(table.id, 1, False)).seats[1].ai
    replaced = await store.replace_seat_user(table.id, 0, HOST, 3003, "Cy")
    assert replaced.seats[0] == Seat(3003, "Cy") and replaced.host_id == 3003
    assert replaced == await store.get_table(table.id)
    with pytest.raises(SeatChanged):
        await store.replace_seat_user(table.id, 0, HOST, 3004, "Di")
    # A seat changes hands until its own player moves: a table-mate's move, or the AI's
    # for the seat, does not count.
    await store.append_action(table.id, 1, 0, ("a",), 3003)
    await store.append_action(table.id, 2, 1, ("b",), None)
    with pytest.raises(SeatChanged):
        await store.replace_seat_user(table.id, 0, 3003, 3004, "Di")
    moved_on = await store.replace_seat_user(table.id, 1, GUEST, 3004, "Di")
    assert moved_on.seats[1] == Seat(3004, "Di") and moved_on == await store.get_table(table.id)
    assert [t.id for t in await store.guild_tables(42)] == [table.id]
    await store.abandon_table(table.id)
    assert await store.guild_tables(42) == []
    with pytest.raises(TableNotActive):
        await store.set_seat_ai(table.id, 1, True)


def a_tournament(*players: TournamentPlayer) -> Tournament:
    return Tournament(
        id=0,
        guild_id=42,
        channel_id=900,
        organiser_id=HOST,
        name="Winter Cup",
        game="pebbles",
        format="swiss",
        rounds=3,
        table_size=2,
        clock="24h",
        options={"variant": "short"},
        settings={"rated": "yes"},
        bye_points=1.5,
        created_at=NOW,
        players=list(players),
    )


async def test_a_tournament_from_sign_up_to_its_end(store, open_another):
    made = await store.create_tournament(a_tournament(TournamentPlayer(HOST, "Ada")))
    assert made.id > 0 and made.status is TournamentStatus.SIGNUP and made.created_at == NOW
    assert made == await store.get_tournament(made.id)
    await store.set_tournament_message(made.id, 777)
    other = await open_another()
    users = range(2000, 2006)
    await asyncio.gather(
        *((store if u % 2 else other).join_tournament(made.id, u, f"P{u}") for u in users)
    )
    joined = await store.get_tournament(made.id)
    assert joined.message_id == 777
    assert sorted(p.user_id for p in joined.players) == sorted([HOST, *users])
    with pytest.raises(AlreadySeated):
        await store.join_tournament(made.id, HOST, "Ada")
    left = await store.leave_tournament(made.id, 2005)
    assert left.players[0].user_id == HOST and left.player(2005) is None
    with pytest.raises(NotSeated):
        await store.leave_tournament(made.id, 2005)

    await store.add_round(made.id, 1, [(HOST, 2000), (2001, 2002)], (2003,))
    with pytest.raises(RoundExists):
        await store.add_round(made.id, 1, [(HOST, 2000)], ())
    running = await store.get_tournament(made.id)
    assert (running.status, running.round) == (TournamentStatus.RUNNING, 1)
    with pytest.raises(TournamentClosed):
        await store.join_tournament(made.id, 3000, "Late")
    assert [(r.round, r.byes, r.status) for r in await store.tournament_rounds(made.id)] == [
        (1, (2003,), "opening")
    ]
    results = await asyncio.gather(
        store.set_round_status(made.id, 1, "playing", expected="opening"),
        other.set_round_status(made.id, 1, "playing", expected="opening"),
    )
    assert sorted(results) == [False, True]

    game = await active_table(store, channel_id=901, seats=[Seat(HOST, "Ada"), Seat(2000, "P")])
    await store.update_tournament_table(made.id, 1, 1, state="thread", thread_id=901)
    await store.update_tournament_table(made.id, 1, 1, state="table", table_id=game.id)
    assert await store.tournament_table_of(game.id) == TournamentTable(
        made.id, 1, 1, (HOST, 2000), 901, game.id, "table"
    )
    with pytest.raises(StoreError, match="no table"):
        await store.update_tournament_table(made.id, 1, 9, state="thread")

    swapped = await store.replace_player(made.id, 2002, 3000, "Sub")
    assert swapped.player(3000).name == "Sub" and swapped.player(2002) is None
    assert [t.seats for t in await store.tournament_tables(made.id, 1)] == [
        (HOST, 2000),
        (2001, 3000),
    ]
    dropped = await store.set_player_status(made.id, 2001, "dropped", round=1)
    assert dropped.player(2001).status == "dropped" and dropped.player(2001).left_round == 1
    with pytest.raises(NotSeated):
        await store.set_player_status(made.id, 2001, "removed", round=1)

    voided = await store.void_round_tables(made.id, 1)
    assert [t.number for t in voided] == [1, 2]
    assert {t.state for t in await store.tournament_tables(made.id)} == {"void"}
    await store.add_round(made.id, 1, [(HOST, 2000)], (), first_number=3)
    assert [t.number for t in await store.tournament_tables(made.id, 1)] == [1, 2, 3]

    ended = await store.end_tournament(made.id, TournamentStatus.FINISHED)
    assert ended.status is TournamentStatus.FINISHED
    with pytest.raises(TournamentClosed):
        await store.end_tournament(made.id, TournamentStatus.CANCELLED)
    assert [t.id for t in await store.tournaments(guild_id=42)] == [made.id]
    assert await store.tournaments(statuses=(TournamentStatus.RUNNING,)) == []
    assert await store.get_tournament(made.id + 1) is None
    assert (await store.get_table(game.id)).status is TableStatus.ACTIVE


async def test_a_round_robin_schedule_is_fixed_once_and_follows_a_replacement(store, open_another):
    made = await store.create_tournament(
        a_tournament(TournamentPlayer(HOST, "Ada"), TournamentPlayer(2000, "Bo"))
    )
    await store.join_tournament(made.id, 2001, "Cy")
    assert made.schedule is None
    rounds = [[(HOST, 2000)], [(2000, 2001)], [(2001, HOST)]]
    fixed = await store.set_tournament_schedule(made.id, rounds)
    expected = (((HOST, 2000),), ((2000, 2001),), ((2001, HOST),))
    assert fixed.schedule == expected
    other = await open_another()
    kept = await other.set_tournament_schedule(made.id, [[(2001, 2000)]])
    assert kept.schedule == expected == (await store.get_tournament(made.id)).schedule
    swapped = await store.replace_player(made.id, 2000, 3000, "Di")
    assert swapped.schedule == (((HOST, 3000),), ((3000, 2001),), ((2001, HOST),))
    assert (await other.get_tournament(made.id)).schedule == swapped.schedule
