"""`meeple-hall migrate-db`: a SQLite database with real games in it moves to PostgreSQL whole,
ids kept, and every game replays to the same state on both sides."""

import asyncio
import random
import re
import sqlite3
from datetime import UTC, datetime, timedelta

import asyncpg
import pytest

from meeple_hall import games
from meeple_hall.bot.live import final_result
from meeple_hall.bot.store import Seat, SQLiteStore, Table, UserPrefs, open_store
from meeple_hall.bot.store.base import Away, SeatClock
from meeple_hall.bot.store.transfer import verify
from meeple_hall.cli import main
from meeple_hall.games import Action
from meeple_hall.games.testing import random_choices
from tests.store.conftest import GUEST, HOST, new_table


@pytest.fixture
def backend() -> str:
    return "postgres"  # the target; the source is a SQLite file of the test's own


async def play(store: SQLiteStore, table: Table, moves: int, rng: random.Random) -> int:
    """Random legal moves through the store, as the bot logs them (a snapshot now and then,
    the result with the last move); the number made."""
    engine = games.get(table.game)
    state = engine.new(len(table.seats), table.seed, table.options)
    for seq in range(1, moves + 1):
        decision = rng.choice(engine.decisions(state))
        choices = random_choices(decision, rng)
        state = engine.apply(state, Action(decision.seat, choices))
        ended = engine.result(state)
        await store.append_action(
            table.id,
            seq,
            decision.seat,
            choices,
            table.seats[decision.seat].user_id,
            snapshot=engine.dump(state) if seq % 7 == 0 else None,
            result=final_result(ended, table) if ended else None,
        )
        if ended:
            return seq
    return moves


async def started(store: SQLiteStore, channel_id: int, game: str, seats: list[Seat]) -> Table:
    table = await store.create_table(
        guild_id=42,
        channel_id=channel_id,
        host_id=HOST,
        game=game,
        options={},
        seed=random.Random(channel_id).getrandbits(64),
        seats=seats,
        settings={"rated": "yes"},
    )
    engine = games.get(game)
    return await store.start_table(
        table.id, min_seats=engine.min_players, max_seats=engine.max_players
    )


async def filled_sqlite(path) -> dict[str, int]:
    """Two real games mid-way, one finished, a lobby, a cancelled one, preferences, a clock
    and time away; the ids of the games."""
    rng = random.Random(16)
    store = SQLiteStore(path)
    await store.open()
    cancelled = await new_table(store, channel_id=1)
    await store.cancel_lobby(cancelled.id)
    pair = [Seat(HOST, "Ada"), Seat(GUEST, "Bo")]
    village = await started(store, 2, "village", [*pair, Seat(None, "AI 1", ai=True)])
    coffee = await started(store, 3, "coffee", pair)
    finished = await started(store, 4, "pebbles", pair)
    await play(store, village, 25, rng)
    await play(store, coffee, 30, rng)
    assert await play(store, finished, 500, rng) < 500
    await store.resign_seat(coffee.id, 1)
    await new_table(store, channel_id=5)
    await store.set_prefs(UserPrefs(HOST, turn_dms=False))
    await store.set_locale(GUEST, "ja")
    await store.set_quiet_hours(GUEST, 22 * 60, 7 * 60, 540)
    now = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
    await store.save_clock(SeatClock(village.id, 0, HOST, reserve=3600.0, since=now))
    await store.start_away(
        Away(GUEST, now, now + timedelta(days=3)), year=2026, days=3, allowance=30
    )
    await store.close()
    return {"village": village.id, "coffee": coffee.id, "finished": finished.id}


def test_a_sqlite_database_moves_to_postgresql_whole(tmp_path, postgres_url, capsys):
    path = tmp_path / "old.db"
    ids = asyncio.run(filled_sqlite(path))

    main(["migrate-db", "--from", f"sqlite:///{path}", "--to", postgres_url])
    out = capsys.readouterr().out
    assert "the copy is complete and checked" in out
    assert "3 games replayed to the same state on both sides" in out
    with sqlite3.connect(path) as db:
        logged = db.execute("SELECT count(*) FROM actions").fetchone()[0]
    assert logged > 50 and re.search(rf"\bactions +{logged} rows", out)
    asyncio.run(the_copy_goes_on(postgres_url, ids))


async def the_copy_goes_on(postgres_url: str, ids: dict[str, int]) -> None:
    moved = open_store(postgres_url)
    await moved.open()
    try:
        assert {t.id for t in await moved.open_tables()} == {ids["village"], ids["coffee"], 5}
        assert (await moved.get_prefs(GUEST)).quiet_start == 22 * 60
        assert (await moved.get_prefs(HOST)) == UserPrefs(HOST, turn_dms=False)
        assert [c.reserve for c in await moved.clocks(ids["village"])] == [3600.0]
        assert await moved.away_days_used(GUEST, 2026) == 3
        assert len(await moved.results()) == 2
        # New ids follow the copied ones.
        assert (await new_table(moved, channel_id=6)).id == 6
        # The games go on in PostgreSQL from where they stood.
        village = await moved.get_table(ids["village"])
        seq = await moved.last_seq(village.id)
        engine = games.get("village")
        state = engine.new(len(village.seats), village.seed, village.options)
        for action in await moved.actions(village.id):
            state = engine.apply(state, Action(action.seat, action.choices))
        decision = engine.decisions(state)[0]
        choices = random_choices(decision, random.Random(1))
        await moved.append_action(village.id, seq + 1, decision.seat, choices, HOST)
    finally:
        await moved.close()


def test_a_database_with_data_is_refused_and_left_alone(tmp_path, postgres_url):
    path = tmp_path / "old.db"
    asyncio.run(filled_sqlite(path))
    asyncio.run(set_a_locale(postgres_url))

    with pytest.raises(SystemExit, match="not empty"):
        main(["migrate-db", "--from", f"sqlite:///{path}", "--to", postgres_url])
    assert asyncio.run(tables_in(postgres_url)) == []


async def set_a_locale(url: str) -> None:
    target = open_store(url)
    await target.open()
    await target.set_locale(7, "en-US")
    await target.close()


async def tables_in(url: str) -> list[Table]:
    target = open_store(url)
    await target.open()
    try:
        return await target.open_tables()
    finally:
        await target.close()


def test_the_source_must_be_a_sqlite_file_and_the_target_postgresql(tmp_path, postgres_url):
    with pytest.raises(SystemExit, match="no SQLite database"):
        main(["migrate-db", "--from", f"sqlite:///{tmp_path / 'none.db'}", "--to", postgres_url])
    assert not (tmp_path / "none.db").exists()
    with pytest.raises(SystemExit, match="must name a PostgreSQL"):
        main(["migrate-db", "--from", f"sqlite:///{tmp_path / 'a.db'}", "--to", "other.db"])


def test_the_check_finds_a_copy_that_differs(tmp_path, postgres_url):
    path = tmp_path / "old.db"
    ids = asyncio.run(filled_sqlite(path))
    main(["migrate-db", "--from", f"sqlite:///{path}", "--to", postgres_url])
    asyncio.run(tamper(postgres_url, ids["village"]))
    report = asyncio.run(verify(f"sqlite:///{path}", postgres_url))
    assert report.problems == [f"table {ids['village']} differs in seats"]


async def tamper(url: str, table_id: int) -> None:
    db = await asyncpg.connect(url)
    try:
        await db.execute(
            "UPDATE seats SET name = 'Eve' WHERE table_id = $1 AND position = 0", table_id
        )
    finally:
        await db.close()
