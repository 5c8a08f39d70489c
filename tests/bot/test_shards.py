"""Several bot processes on one database (issue 16): which process serves which table, a
move that another process's move overtook, following another process's changes, and a bot
process killed mid-game.

The tests with two bots run each in a process of its own (tests/bot/shard_process.py, a
SimCord environment each) on one PostgreSQL database."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from meeple_hall.bot.live import TableManager
from meeple_hall.bot.shards import Shards, shard_of
from meeple_hall.bot.store import Seat, TableStatus, open_store
from tests.bot.conftest import start_game, table_message

REPO = Path(__file__).resolve().parents[2]
SHARDS = 2


def guild_for(shard: int) -> int:
    """A guild id Discord would send to `shard` of SHARDS."""
    guild = ((400_000_000_000 + shard) << 22) | 17
    assert shard_of(guild, SHARDS) == shard
    return guild


# -- which guilds are whose --------------------------------------------------------------
def test_shard_settings_are_read_and_checked():
    assert Shards.parse("", "") == Shards()
    assert Shards.parse("4", "") == Shards(4)
    assert Shards.parse("4", "0, 2-3") == Shards(4, frozenset({0, 2, 3}))
    for count, ids, says in [
        ("", "1", "SHARD_IDS needs SHARD_COUNT"),
        ("two", "", "SHARD_COUNT must be a whole number"),
        ("0", "", "SHARD_COUNT must be a whole number"),
        ("2", "1;0", "SHARD_IDS must list shard numbers"),
        ("2", "3-1", "runs backwards"),
        ("2", "2", "outside 0–1"),
    ]:
        with pytest.raises(ValueError, match=says):
            Shards.parse(count, ids)


def test_a_guild_belongs_to_the_shard_discord_sends_it_to():
    first, second = Shards(SHARDS, frozenset({0})), Shards(SHARDS, frozenset({1}))
    assert first.serves(guild_for(0)) and not first.serves(guild_for(1))
    assert second.serves(guild_for(1)) and not second.serves(guild_for(0))
    # direct messages come to shard 0
    assert first.serves(None) and not second.serves(None)
    assert Shards().serves(guild_for(1)) and Shards(SHARDS).serves(guild_for(1))


# -- two processes, one table --------------------------------------------------------------
@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
async def test_a_panel_still_valid_after_another_process_moved_is_taken(table, database_url):
    """Bob bids through another process; Alice's bid, from a panel opened before, meets a
    move number already taken: the bot reloads the table, sees Alice's decision unchanged,
    and takes her bid instead of calling her panel out of date."""
    game = await start_game(table, table.bob)
    panel = (await table.alice.click(table_message(table.channel), label="Take turn")).response
    other_store = open_store(database_url)
    await other_store.open()
    try:
        other = TableManager(other_store)
        rival = await other.load(await other_store.get_table(game.id))
        await other.submit(rival, 1, ("bid3",), user_id=table.bob.id)
    finally:
        await other.close()
        await other_store.close()
    result = await table.alice.click(panel, label="Bid 2")
    assert "out of date" not in result.response.content
    assert game.seq == 2
    assert [p.bid for p in game.state.players] in ([2, 3], [None, None])  # bids resolved
    log = await table.env.bot.store.actions(game.id)
    assert [(a.seat, a.choices) for a in log] == [(1, ("bid3",)), (0, ("bid2",))]


async def test_a_process_follows_moves_made_by_another(postgres_url):
    """A move committed by one process reaches the other through NOTIFY: the other
    reloads its copy of the table from the log without any click."""
    stores = [open_store(postgres_url), open_store(postgres_url)]
    for store in stores:
        await store.open()
    managers = [TableManager(store) for store in stores]
    try:
        table = await stores[0].create_table(
            guild_id=guild_for(0),
            channel_id=900,
            host_id=1,
            game="pebbles",
            options={},
            seed=11,
            seats=[Seat(1, "Ada"), Seat(2, "Bo")],
        )
        table = await stores[0].start_table(table.id, min_seats=1, max_seats=6)
        games = [await manager.load(table) for manager in managers]
        heard: list[int | None] = []

        async def changed(table_id: int | None) -> None:
            heard.append(table_id)
            await managers[1].changed_elsewhere(table_id)

        await stores[1].watch(changed)
        await managers[0].submit(games[0], 0, ("bid2",), user_id=1)
        for _ in range(100):
            if games[1].seq == 1:
                break
            await asyncio.sleep(0.05)
        assert heard == [table.id]
        assert games[1].seq == 1 and games[1].state.players[0].bid == 2
        # and its own moves are not heard back as another process's
        await managers[1].submit(games[1], 1, ("bid1",), user_id=2)
        await asyncio.sleep(0.3)
        assert heard == [table.id]
        await managers[0].changed_elsewhere(table.id)
        assert games[0].seq == games[1].seq == 2
    finally:
        for manager, store in zip(managers, stores, strict=True):
            await manager.close()
            await store.close()


# -- two shard processes -----------------------------------------------------------------------
async def start_shard(url: str, shard: int, mode: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.bot.shard_process",
        url,
        str(SHARDS),
        str(shard),
        str(guild_for(shard)),
        mode,
        cwd=REPO,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )


async def event(process: asyncio.subprocess.Process, name: str) -> dict:
    while True:
        raw = await asyncio.wait_for(process.stdout.readline(), timeout=120)
        assert raw, f"the shard process stopped before {name!r}"
        line = json.loads(raw)
        if line["event"] == name:
            return line


async def ask(process: asyncio.subprocess.Process, line: str, answer: str) -> dict:
    process.stdin.write(f"{line}\n".encode())
    await process.stdin.drain()
    return await event(process, answer)


async def stop(shards: list[asyncio.subprocess.Process]) -> None:
    """Ask each process to stop, and see it end cleanly."""
    for process in shards:
        process.stdin.write(b"stop\n")
        await process.stdin.drain()
        assert await asyncio.wait_for(process.wait(), timeout=60) == 0


async def kill_left(shards: list[asyncio.subprocess.Process]) -> None:
    """Kill whichever process a failed test left running."""
    for process in shards:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_each_shard_process_serves_only_its_own_guilds_tables(postgres_url):
    store = open_store(postgres_url)
    await store.open()
    # A game without a guild (direct messages): shard 0's.
    direct = await store.create_table(
        guild_id=None,
        channel_id=77,
        host_id=5001,
        game="pebbles",
        options={},
        seed=5,
        seats=[Seat(5001, "Dee"), Seat(None, "AI 1", ai=True)],
    )
    await store.start_table(direct.id, min_seats=1, max_seats=6)
    shards = [await start_shard(postgres_url, shard, "serve") for shard in (0, 1)]
    try:
        played = [await event(process, "played") for process in shards]
        mine = [played[0]["table"], played[1]["table"]]
        assert played[0]["games"] == sorted([direct.id, mine[0]])
        assert played[1]["games"] == [mine[1]]
        # Each heard the other's moves (NOTIFY) and took none of its tables.
        now = [await ask(process, "games", "games") for process in shards]
        assert now[0]["games"] == sorted([direct.id, mine[0]]) and now[1]["games"] == [mine[1]]
        # Only shard 0 played the AI seat of the direct game: its bid, once.
        assert now[0]["seqs"][str(direct.id)] == 1
        assert [(a.seat, a.user_id) for a in await store.actions(direct.id)] == [(1, None)]
        # Each game's log is as its own process has it: Alice's bid once, the AI's moves.
        for process_now, table_id in zip(now, mine, strict=True):
            log = await store.actions(table_id)
            assert len(log) == process_now["seqs"][str(table_id)]
            assert [a.seat for a in log if a.user_id is not None] == [0]
        # A restarted process loads its own shards' games from the store, and no other.
        restarted = [await ask(process, "restart", "restarted") for process in shards]
        assert restarted[0]["games"] == sorted([direct.id, mine[0]])
        assert restarted[1]["games"] == [mine[1]]
        await stop(shards)
    finally:
        await kill_left(shards)
        await store.close()


async def until(process: asyncio.subprocess.Process, line: str, answer: str, holds) -> dict:
    """Ask again until the answer `holds` (the other process's change reaches this one by
    NOTIFY, a moment after the command that made it answered)."""
    for _ in range(40):
        heard = await ask(process, line, answer)
        if holds(heard):
            return heard
        await asyncio.sleep(0.25)
    raise AssertionError(f"{line!r} never answered as expected: {heard}")


async def test_what_a_player_changes_through_one_process_the_others_follow(postgres_url):
    """Alice plays a clocked game in each shard's guild. Her language chosen through one
    process is the one the other writes to her in; her time away taken through shard 0
    (where her DMs' commands arrive) pushes back, and then brings forward, the deadline
    shard 1 keeps for her; and a Snooze button in her DMs, whose click Discord delivers to
    shard 0, snoozes the reminders of shard 1's table, written through the store and heard
    by shard 1."""
    shards = [await start_shard(postgres_url, shard, "serve") for shard in (0, 1)]
    try:
        played = [await event(process, "played") for process in shards]
        assert played[0]["alice"] == played[1]["alice"]
        first, second = shards

        assert (await ask(first, "lang", "lang"))["language"] == "en"
        await ask(second, "language ja", "language")
        await until(first, "lang", "lang", lambda heard: heard["language"] == "ja")
        await ask(first, "language auto", "language")
        await until(second, "lang", "lang", lambda heard: heard["language"] == "en")

        before = await ask(second, "clock", "clock")
        assert before["deadline"] is not None and not before["away"], before
        away = await ask(first, "away 2", "away")
        assert "away" in away["reply"].lower(), away
        pushed = await until(second, "clock", "clock", lambda heard: heard["away"])
        deadline = datetime.fromisoformat
        assert deadline(pushed["deadline"]) - deadline(before["deadline"]) == timedelta(days=2)
        await ask(first, "away 0", "away")
        back = await until(second, "clock", "clock", lambda heard: not heard["away"])
        assert deadline(before["deadline"]) <= deadline(back["deadline"])
        assert deadline(back["deadline"]) < deadline(pushed["deadline"]) - timedelta(days=1)

        wait = f"{back['table']} {back['seat']} {back['since']}"
        assert not back["snoozed"]
        gone = await ask(
            first, f"snooze {back['table']} {back['seat']} {back['since'] - 1}", "snoozed"
        )
        assert "over" in gone["reply"], gone  # not the wait the button was sent for
        snoozed = await ask(first, f"snooze {wait}", "snoozed")
        assert "No more reminders" in snoozed["reply"], snoozed
        await until(second, "clock", "clock", lambda heard: heard["snoozed"])
        await stop(shards)
    finally:
        await kill_left(shards)


async def test_a_bot_process_killed_mid_game_loses_no_move(postgres_url):
    """SIGKILL a bot process while its players move: every move it answered as applied is
    in the log, and each game replays from the log to where it stood."""
    process = await start_shard(postgres_url, 0, "moves")
    applied: dict[int, int] = {}
    try:
        while sum(applied.values()) < 25:
            line = await event(process, "applied")
            applied[line["table"]] = line["seq"]
    finally:
        process.send_signal(signal.SIGKILL)
        await process.wait()
    assert process.returncode == -signal.SIGKILL
    store = open_store(postgres_url)
    await store.open()
    manager = TableManager(store)
    try:
        for table_id, seq in applied.items():
            table = await store.get_table(table_id)
            logged = await store.last_seq(table_id)
            assert logged >= seq  # a move in flight at the kill may have committed too
            if table.status is TableStatus.ACTIVE:
                game = await manager.load(table)
                assert game.seq == logged
            else:
                assert table.status is TableStatus.FINISHED and table.result is not None
    finally:
        await manager.close()
        await store.close()
