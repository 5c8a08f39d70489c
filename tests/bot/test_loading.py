"""Games loaded on first use (issue 16): a manager starting on a database reads which games
are in play without replaying any; a game is loaded when first asked for, once, however
many ask at the same moment; loads asked for together are read from the store together;
a process loads only its own shards' games; and the games whose stored `awaiting` names an
AI seat, or is not known, are the ones loaded at start."""

from __future__ import annotations

import asyncio
import random

import pytest

import tests.conftest  # noqa: F401  (registers the Pebbles test game)
from meeple_hall import games as registry
from meeple_hall.bot.live import TableManager
from meeple_hall.bot.shards import Shards, shard_of
from meeple_hall.bot.store import Seat, open_store
from meeple_hall.games.testing import random_choices
from tests.bot.conftest import EVERY_GAME

GUILD = 17
every_game = pytest.mark.parametrize("game_id", EVERY_GAME)


def guild_for(shard: int, count: int = 2) -> int:
    guild = ((500_000_000_000 + shard) << 22) | 5
    assert shard_of(guild, count) == shard
    return guild


def first_choice(game_id: str, dump: str, seat: int, level: str, seed: int) -> tuple[str, ...]:
    """An AI that answers in this process (the tests need no worker processes)."""
    engine = registry.get(game_id)
    decision = next(d for d in engine.decisions(engine.load(dump)) if d.seat == seat)
    return random_choices(decision, random.Random(seed))


async def chooser(*args):  # type: ignore[no-untyped-def]
    return first_choice(*args)


@pytest.fixture
async def store(tmp_path):
    store = open_store(f"sqlite:///{tmp_path / 'loading.db'}")
    await store.open()
    yield store
    await store.close()


class Reads:
    """Counts the store's reads of game logs (the store itself is real)."""

    def __init__(self, store) -> None:
        self.batches: list[list[int]] = []
        read = store.game_logs

        async def counted(table_ids):
            self.batches.append(list(table_ids))
            return await read(table_ids)

        store.game_logs = counted


async def settled(manager: TableManager) -> None:
    """Wait until the manager's AI seats and loads at start are done."""
    for _ in range(500):
        if manager._start is None and not manager._ai_tasks:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the AI seats never finished")


async def new_table(
    store, channel: int, seats: list[Seat], seed: int, game_id: str, guild: int = GUILD
):
    """A table of the game in the store, not started."""
    return await store.create_table(
        guild_id=guild,
        channel_id=channel,
        host_id=1,
        game=game_id,
        options={},
        seed=seed,
        seats=seats,
    )


async def new_game(
    store, manager, channel: int, seats: list[Seat], game_id: str, guild: int = GUILD, moves=4
):
    table = await new_table(store, channel, seats, seed=channel, game_id=game_id, guild=guild)
    game = await manager.start(table.id)
    rng = random.Random(channel)
    for _ in range(moves):
        humans = [d for d in game.decisions() if not game.table.seats[d.seat].ai]
        if not humans:
            break
        decision = humans[0]
        await manager.submit(game, decision.seat, random_choices(decision, rng), user_id=1)
        await settled(manager)
    return game


@every_game
async def test_a_start_replays_nothing_and_a_first_use_loads_the_game_once(store, game_id):
    first = TableManager(store, chooser)
    players = [Seat(1, "Ada"), Seat(2, "Bo")]
    games = [await new_game(store, first, 100 + n, players, game_id) for n in range(3)]
    await first.close()

    manager = TableManager(store, chooser)
    reads = Reads(store)
    await manager.index()
    await manager.resume()
    await asyncio.sleep(0)
    assert manager.games == {} and reads.batches == []  # humans only: nothing to load
    assert sorted(t.id for t in manager.served()) == [g.id for g in games]
    assert [t.awaiting for t in manager.served()] == [
        tuple(d.seat for d in g.decisions()) for g in games
    ]

    # three first uses of one game, and one of another, at the same moment
    loaded = await asyncio.gather(
        manager.fetch(games[0].id),
        manager.fetch(games[0].id),
        manager.fetch_in(games[0].table.channel_id),
        manager.fetch(games[1].id),
    )
    assert loaded[0] is loaded[1] is loaded[2] is manager.get(games[0].id)
    assert loaded[3] is manager.get(games[1].id) and loaded[3] is not loaded[0]
    assert reads.batches == [[games[0].id, games[1].id]]  # one read for both
    for live, before in zip(loaded[2:], games[:2], strict=True):
        assert live.engine.dump(live.state) == before.engine.dump(before.state)
        assert live.seq == before.seq
    assert await manager.fetch(games[0].id) is loaded[0]  # loaded: no read again
    assert reads.batches == [[games[0].id, games[1].id]]
    assert games[2].id not in manager.games
    assert await manager.fetch(999) is None and await manager.fetch_in(999) is None
    await manager.close()


@every_game
async def test_a_process_loads_only_its_own_shards_games(store, game_id):
    every = TableManager(store, chooser)
    players = [Seat(1, "Ada"), Seat(2, "Bo")]
    mine = await new_game(store, every, 200, players, game_id, guild=guild_for(0))
    theirs = await new_game(store, every, 201, players, game_id, guild=guild_for(1))
    await every.close()

    manager = TableManager(store, chooser, shards=Shards(2, frozenset({0})))
    await manager.index()
    assert [t.id for t in manager.served()] == [mine.id]
    assert await manager.fetch(theirs.id) is None
    assert await manager.fetch_in(theirs.table.channel_id) is None
    assert (await manager.fetch(mine.id)).seq == mine.seq
    await manager.close()


@every_game
async def test_the_games_an_ai_seat_or_an_unknown_awaiting_waits_on_load_at_start(store, game_id):
    first = TableManager(store, chooser)
    humans = await new_game(store, first, 300, [Seat(1, "Ada"), Seat(2, "Bo")], game_id)
    against_ai = await new_game(
        store, first, 301, [Seat(1, "Ada"), Seat(None, "AI", ai=True)], game_id
    )
    ai_to_move = 1 in ((await store.get_table(against_ai.id)).awaiting or ())
    await first.close()
    # The AI's turn came and the bot stopped before it played (awaiting names the AI seat):
    # the AI sits where the game's first decision is.
    engine = registry.get(game_id)
    awaited = sorted({d.seat for d in engine.decisions(engine.new(2, 1, {}))})
    ai_seat = awaited[0]
    seats = [Seat(1, "Ada"), Seat(None, "AI", ai=True)][:: 1 if ai_seat == 1 else -1]
    table = await new_table(store, 302, seats, seed=1, game_id=game_id)
    await store.start_table(table.id, min_seats=1, max_seats=6)
    await store.note_awaiting(table.id, 0, awaited)
    # And a game an older version logged: whose turn it is is not known.
    older = await new_table(store, 303, [Seat(1, "Ada"), Seat(2, "Bo")], seed=2, game_id=game_id)
    await store.start_table(older.id, min_seats=1, max_seats=6)
    assert (await store.get_table(older.id)).awaiting is None

    manager = TableManager(store, chooser)
    reads = Reads(store)
    await manager.index()
    await manager.resume()
    await settled(manager)
    # the game against the AI too where its AI seat was left to move (the AI moves first)
    expected = sorted([table.id, older.id] + ([against_ai.id] if ai_to_move else []))
    assert reads.batches == [expected]  # one read, at start, for all
    assert sorted(manager.games) == expected
    assert humans.id not in manager.games
    logged = await store.actions(table.id)
    assert logged and logged[0].seat == ai_seat and logged[0].user_id is None  # the AI played
    assert ai_seat not in ((await store.get_table(table.id)).awaiting or ())  # its turn is over
    older_game = engine.new(2, 2, {})
    known = tuple(sorted({d.seat for d in engine.decisions(older_game)}))
    assert (await store.get_table(older.id)).awaiting == known  # known from now on
    await manager.close()
