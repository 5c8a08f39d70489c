"""Databases written by earlier versions of the bot (tests/golden/, see its README) open in
this one: the migrations run, every game in play loads as its log replays and plays on
through the bot's move path, a finished game keeps its result, on SQLite and, through
`meeple-hall migrate-db`, on PostgreSQL. Each test works on a copy of a fixture.

A snapshot that loads but is not the state its log replays to is dropped and the game
replayed (bot/live.py, bot/snapshots.py); one such is made here by hand in a copy."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import shutil
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from meeple_hall import games
from meeple_hall.bot import loading
from meeple_hall.bot.display import result_embed
from meeple_hall.bot.i18n import game_name
from meeple_hall.bot.live import LiveGame, Refusal, TableManager
from meeple_hall.bot.snapshots import replayed, snapshot_agrees, state_at
from meeple_hall.bot.store import Store, Table, TableStatus, open_store
from meeple_hall.cli import main
from meeple_hall.games.testing import random_choices

GOLDEN = Path(__file__).parents[1] / "golden"
FIXTURES = sorted(GOLDEN.glob("v*.db"))
NEWEST = GOLDEN / "v5a34301.db"  # written by the most recent version: a newer one replaces it
LOCALES = ("en", "zh-TW", "ja")
ADA = 1001  # the seat of the finished solo game (tests/golden/make.py)
# The games whose stored snapshot is not the game its log replays to today, so the bot
# replays them from their logs once: in v2230930 those written before the engines' log
# events became message keys (Keyflower's was dropped by migration 0004: it held a cell's
# old id); in vb3fe618 those whose dictionaries the dump sorted, no longer in the live
# game's order since f31e02e. A change that makes more of them stale says so here (each
# costs a replay at its game's first load), or drops them in a migration.
STALE_SNAPSHOTS = {
    "v2230930": {"burgundy", "coffee", "village"},
    "vb3fe618": {"burgundy", "coffee", "keyflower"},
    "v5a34301": set(),
}
CELL = re.compile(r"^-?\d+_-?\d+$")  # a Keyflower cell, q_r


@pytest.fixture(params=FIXTURES, ids=lambda path: path.stem)
def golden(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """A copy of one golden database: the fixture itself is never opened."""
    copy = tmp_path / request.param.name
    shutil.copyfile(request.param, copy)
    return copy


def test_the_golden_databases_are_there_and_small():
    assert {path.stem for path in FIXTURES} == set(STALE_SNAPSHOTS)
    assert all(path.stat().st_size < 300 * 1024 for path in FIXTURES)


async def opened(url: str) -> Store:
    store = open_store(url)
    await store.open()  # the migrations run
    return store


async def in_play(store: Store) -> list[Table]:
    return [t for t in await store.open_tables() if t.status is TableStatus.ACTIVE]


async def as_logged(store: Store, table: Table) -> str:
    """The game's state as its whole log replays from its setup, ignoring any snapshot."""
    engine = games.get(table.game)
    return engine.dump(replayed(engine, table, await store.actions(table.id)))


async def loaded(manager: TableManager, table: Table) -> LiveGame:
    game = await manager.fetch(table.id)
    assert game is not None, f"{table.game} (table {table.id}) did not load"
    return game


async def play_on(manager: TableManager, game: LiveGame, moves: int, seed: int) -> None:
    """`moves` moves by whichever seats must act, each answered at random, through the
    bot's move path."""
    rng = random.Random(seed)
    for _ in range(moves):
        decision = rng.choice(game.decisions())
        user_id = game.table.seats[decision.seat].user_id
        await manager.submit(game, decision.seat, random_choices(decision, rng), user_id=user_id)


async def loads_and_plays_on(url: str) -> dict[str, int]:
    """Every game in play loads as its log replays, plays on 6 moves, and after a restart
    loads again as its (longer) log replays; the games' move numbers at the end."""
    store = await opened(url)
    manager = TableManager(store)
    try:
        await manager.index()
        tables = await in_play(store)
        assert sorted(t.game for t in tables) == ["burgundy", "coffee", "keyflower", "village"]
        for table in tables:
            game = await loaded(manager, table)
            assert game.engine.dump(game.state) == await as_logged(store, table), table.game
            assert game.seq == await store.last_seq(table.id) > 25
            await play_on(manager, game, 6, seed=table.id)
        await manager.close()
        manager = TableManager(store)  # a restart
        await manager.index()
        seqs = {}
        for table in tables:
            game = await loaded(manager, table)
            assert game.engine.dump(game.state) == await as_logged(store, table), table.game
            seqs[table.game] = game.seq
        return seqs
    finally:
        await manager.close()
        await store.close()


async def snapshots_not_agreeing(url: str) -> set[str]:
    store = await opened(url)
    try:
        stale = set()
        for table in await in_play(store):
            snapshot = await store.latest_snapshot(table.id)
            logged = await store.actions(table.id)
            engine = games.get(table.game)
            if snapshot and not snapshot_agrees(engine, table, snapshot, logged):
                stale.add(table.game)
        return stale
    finally:
        await store.close()


def test_a_golden_database_opens_and_its_games_play_on(golden):
    url = f"sqlite:///{golden}"
    assert asyncio.run(snapshots_not_agreeing(url)) == STALE_SNAPSHOTS[golden.stem]
    seqs = asyncio.run(loads_and_plays_on(url))
    assert all(seq > 25 + 6 for seq in seqs.values())


async def private_texts_sent(url: str) -> dict[TableStatus, set[str | None]]:
    """What migration 0019 made of the seats' private text last sent, by the table's status."""
    store = await opened(url)
    try:
        tables = [*await store.open_tables(), *await store.tables_for_user(ADA, tuple(TableStatus))]
        found: dict[TableStatus, set[str | None]] = {}
        for table in tables:
            found.setdefault(table.status, set()).update(s.private_sent for s in table.seats)
        return found
    finally:
        await store.close()


def test_a_golden_databases_games_in_play_take_their_private_texts_as_sent(golden):
    """Migration 0019: an earlier version never kept which private text it last sent, so the
    seats of its games in play hold None (not known: their next bot takes each seat's text
    as sent, as that version did) and every other seat "" (none sent yet)."""
    found = asyncio.run(private_texts_sent(f"sqlite:///{golden}"))
    assert found[TableStatus.ACTIVE] == {None}
    assert found[TableStatus.FINISHED] == {""}


async def keyflower_log(url: str) -> tuple[list[tuple[str, ...]], bool]:
    """Keyflower's logged choices, and whether it has a snapshot."""
    store = await opened(url)
    try:
        (table,) = [t for t in await in_play(store) if t.game == "keyflower"]
        logged = await store.actions(table.id)
        return [a.choices for a in logged], await store.latest_snapshot(table.id) is not None
    finally:
        await store.close()


def test_keyflower_past_its_placements_replays_with_its_cells_renamed(golden):
    """Cells chosen in the log are `q_r` (migration 0004 rewrote `q,r`); the snapshot the
    earlier version took mid-placement, holding the old id, is gone with it."""
    choices, has_snapshot = asyncio.run(keyflower_log(f"sqlite:///{golden}"))
    cells = [c for move in choices for c in move if CELL.match(c)]
    assert len(cells) >= 4
    assert not any("," in c for move in choices for c in move)
    assert has_snapshot is (golden.stem != "v2230930")


async def finished(url: str) -> tuple[Table, list, str]:
    store = await opened(url)
    try:
        (table,) = await store.tables_for_user(ADA, (TableStatus.FINISHED,))
        engine = games.get(table.game)
        over = replayed(engine, table, await store.actions(table.id))
        assert engine.decisions(over) == [] and engine.result(over) is not None
        return table, await store.results(), table.game
    finally:
        await store.close()


def shows_its_result(url: str) -> None:
    table, results, game = asyncio.run(finished(url))
    assert game == "village" and len(table.seats) == 1  # solo, against Karla
    score = table.result["scores"][0]
    assert [(r.table_id, r.user_id, r.score, r.rank) for r in results] == [
        (table.id, ADA, score, 1)
    ]
    for locale in LOCALES:
        embed = result_embed(table, locale)
        assert embed.title.startswith(game_name(locale, "village"))
        (field,) = embed.fields
        assert "Ada" in field.name and str(score) in field.name
        assert field.value.strip() not in ("", "—")


def test_a_finished_golden_game_shows_its_result(golden):
    shows_its_result(f"sqlite:///{golden}")


def test_a_golden_database_moves_to_postgresql_and_plays_on(golden, postgres_url, capsys):
    main(["migrate-db", "--from", f"sqlite:///{golden}", "--to", postgres_url])
    out = capsys.readouterr().out
    assert "the copy is complete and checked" in out
    assert "5 games replayed to the same state on both sides" in out
    if STALE_SNAPSHOTS[golden.stem]:
        assert re.search(r"left out \d+ snapshots that are not the state their game's log", out)
    assert asyncio.run(snapshots_not_agreeing(postgres_url)) == set()
    seqs = asyncio.run(loads_and_plays_on(postgres_url))
    assert all(seq > 25 + 6 for seq in seqs.values())
    shows_its_result(postgres_url)


# -- a snapshot that loads but is not the game ------------------------------------------------


async def one_move_early(url: str, game: str) -> tuple[int, int, str]:
    """A state that loads and is not the game's snapshot: the state one move before the
    snapshot's. The table's id, the snapshot's move and that state."""
    store = await opened(url)
    try:
        (table,) = [t for t in await in_play(store) if t.game == game]
        snapshot = await store.latest_snapshot(table.id)
        assert snapshot is not None
        engine = games.get(game)
        earlier = [a for a in await store.actions(table.id) if a.seq < snapshot.seq]
        wrong = engine.dump(replayed(engine, table, earlier))
    finally:
        await store.close()
    assert engine.dump(engine.load(wrong)) == wrong != snapshot.state
    return table.id, snapshot.seq, wrong


async def refresh_snapshots(url: str) -> list[tuple[int, int, str]]:
    """Each stored snapshot as this version writes it: its table, move and state."""
    store = await opened(url)
    try:
        fresh = []
        for table in await in_play(store):
            if (snapshot := await store.latest_snapshot(table.id)) is not None:
                engine = games.get(table.game)
                upto = [a for a in await store.actions(table.id) if a.seq <= snapshot.seq]
                fresh.append((table.id, snapshot.seq, engine.dump(replayed(engine, table, upto))))
        return fresh
    finally:
        await store.close()


def newest_copy(tmp_path: Path) -> Path:
    """A copy of the newest golden database, its snapshots written again by this version
    (whatever a change to how states are dumped made of the fixture's): each is the game
    its log replays to, as every snapshot this version writes must be."""
    path = tmp_path / "newest.db"
    shutil.copyfile(NEWEST, path)
    fresh = asyncio.run(refresh_snapshots(f"sqlite:///{path}"))
    with sqlite3.connect(path) as db:
        db.executemany(
            "UPDATE snapshots SET state = ? WHERE table_id = ? AND seq = ?",
            [(state, table_id, seq) for table_id, seq, state in fresh],
        )
    assert asyncio.run(snapshots_not_agreeing(f"sqlite:///{path}")) == set()
    return path


def unsettle_snapshot(path: Path, game: str) -> int:
    """The game's snapshot in the SQLite file replaced by one that loads and is not what
    the log replays to at its move. The table's id."""
    table_id, _, wrong = asyncio.run(one_move_early(f"sqlite:///{path}", game))
    with sqlite3.connect(path) as db:
        db.execute("UPDATE snapshots SET state = ? WHERE table_id = ?", (wrong, table_id))
    return table_id


async def load_one(url: str, table_id: int) -> tuple[str, str]:
    """The game as the bot loads it, and as its log replays; a move played on then is
    logged (and replays to the game's state)."""
    store = await opened(url)
    manager = TableManager(store)
    try:
        await manager.index()
        table = await store.get_table(table_id)
        game = await loaded(manager, table)
        state, logged = game.engine.dump(game.state), await as_logged(store, table)
        seq = game.seq
        await play_on(manager, game, 1, seed=1)
        assert await store.last_seq(table_id) == seq + 1 == game.seq
        assert game.engine.dump(game.state) == await as_logged(store, table)
        return state, logged
    finally:
        await manager.close()
        await store.close()


@pytest.mark.parametrize("game", ["burgundy", "coffee", "keyflower", "village"])
def test_a_snapshot_that_disagrees_with_its_log_is_dropped(tmp_path, game, caplog):
    newest = newest_copy(tmp_path)
    table_id = unsettle_snapshot(newest, game)
    state, logged = asyncio.run(load_one(f"sqlite:///{newest}", table_id))
    assert state == logged
    assert "is not what its log replays to; replaying" in caplog.text


async def put_back_snapshot(path: Path, old: Path) -> int:
    """Keyflower's snapshot as the earlier version wrote it (mid-placement, a cell's old
    id in it) put back after the migrations, as if 0004 had not dropped it."""
    with sqlite3.connect(old) as db:
        ((table_id, seq, state),) = db.execute(
            "SELECT s.table_id, s.seq, s.state FROM snapshots AS s"
            " JOIN tables AS t ON t.id = s.table_id WHERE t.game = 'keyflower'"
        )
    store = await opened(f"sqlite:///{path}")
    await store.close()
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO snapshots VALUES (?, ?, ?)", (table_id, seq, state))
    return table_id


def test_an_earlier_versions_keyflower_snapshot_kept_by_mistake_is_dropped(tmp_path):
    old, path = tmp_path / "old.db", tmp_path / "migrated.db"
    shutil.copyfile(GOLDEN / "v2230930.db", old)
    shutil.copyfile(GOLDEN / "v2230930.db", path)
    table_id = asyncio.run(put_back_snapshot(path, old))
    state, logged = asyncio.run(load_one(f"sqlite:///{path}", table_id))
    assert state == logged


# -- migrate-db: the check catches a snapshot that is not the game ----------------------------


async def unsettle_copied_snapshot(path: Path, url: str, game: str) -> int:
    """The game's snapshot in the PostgreSQL copy of `path` made one that loads and is not
    what the log replays to at its move. The table's id."""
    table_id, seq, wrong = await one_move_early(f"sqlite:///{path}", game)
    db = await asyncpg.connect(url)
    try:
        await db.execute(
            "INSERT INTO snapshots (table_id, seq, state) VALUES ($1, $2, $3)"
            " ON CONFLICT (table_id) DO UPDATE SET seq = excluded.seq, state = excluded.state",
            table_id,
            seq,
            wrong,
        )
    finally:
        await db.close()
    return table_id


def test_migrate_db_leaves_out_a_snapshot_that_disagrees_with_its_log(tmp_path, postgres_url):
    newest = newest_copy(tmp_path)
    table_id = unsettle_snapshot(newest, "burgundy")
    main(["migrate-db", "--from", f"sqlite:///{newest}", "--to", postgres_url])
    assert asyncio.run(snapshots_not_agreeing(postgres_url)) == set()
    state, logged = asyncio.run(load_one(postgres_url, table_id))
    assert state == logged


def test_check_only_catches_a_copied_snapshot_that_disagrees_with_its_log(
    tmp_path, postgres_url, capsys
):
    newest = newest_copy(tmp_path)
    source = f"sqlite:///{newest}"
    main(["migrate-db", "--from", source, "--to", postgres_url])
    table_id = asyncio.run(unsettle_copied_snapshot(newest, postgres_url, "coffee"))
    capsys.readouterr()
    with pytest.raises(SystemExit, match="differs in 1 places"):
        main(["migrate-db", "--check-only", "--from", source, "--to", postgres_url])
    out = capsys.readouterr().out
    assert f"table {table_id} (coffee): its snapshot at move 25 is not the state its log" in out


async def two_processes(path: Path, checked: list[int]) -> None:
    """Two bots on one database: the first loads Burgundy, the second moves it on, and the
    first, refused its own move as stale, catches up from the same snapshot."""
    url = f"sqlite:///{path}"
    stores = [await opened(url), await opened(url)]
    first, second = (TableManager(store) for store in stores)
    try:
        (table,) = [t for t in await in_play(stores[0]) if t.game == "burgundy"]
        for manager in (first, second):
            await manager.index()
        mine, theirs = await loaded(first, table), await loaded(second, table)
        assert checked == [table.id, table.id]  # each process checks the snapshot once
        await play_on(second, theirs, 1, seed=2)
        decision = mine.decisions()[0]
        choices = random_choices(decision, random.Random(3))
        with contextlib.suppress(Refusal):  # taken after all, or out of date: either way
            await first.submit(mine, decision.seat, choices, user_id=None)
        assert mine.seq == await stores[0].last_seq(table.id) >= theirs.seq  # caught up
        assert mine.engine.dump(mine.state) == await as_logged(stores[0], table)
        assert checked == [table.id, table.id]  # the catch-up did not check it again
    finally:
        for manager in (first, second):
            await manager.close()
        for store in stores:
            await store.close()


def test_a_snapshot_is_checked_once_a_process(tmp_path, monkeypatch):
    checked: list[int] = []

    def counted(engine, table, entries, seq):
        checked.append(table.id)
        return state_at(engine, table, entries, seq)

    monkeypatch.setattr(loading, "state_at", counted)
    asyncio.run(two_processes(newest_copy(tmp_path), checked))
