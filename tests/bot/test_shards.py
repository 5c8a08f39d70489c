"""Several bot processes on one database (issue 16): which process serves which table, a
move that another process's move overtook, following another process's changes, and a bot
process killed mid-game.

The tests with two bots run each in a process of its own (tests/bot/shard_process.py, a
SimCord environment each) on one PostgreSQL database."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from meeple_hall import games
from meeple_hall.bot.live import TableManager
from meeple_hall.bot.shards import Shards, shard_of
from meeple_hall.bot.store import Seat, TableStatus, open_store
from meeple_hall.games.testing import random_choices
from tests.bot.conftest import EVERY_GAME, answer_panel, awaited_humans, start_game, table_message
from tests.bot.every_game import acting_seat, play_until, said

every_game = pytest.mark.parametrize("game_id", EVERY_GAME)


def typed_choices(game, seat: int, rng: random.Random) -> tuple[str, ...]:
    return random_choices(game.decision_for(seat), rng)


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
@pytest.mark.parametrize("game_id", ["pebbles", "keyflower"])  # with simultaneous steps
async def test_a_panel_still_valid_after_another_process_moved_is_taken(
    table, database_url, game_id
):
    """Bob answers through another process; Alice's answer, from a panel opened before,
    meets a move number already taken: the bot reloads the table, sees Alice's decision
    unchanged, and takes her answer instead of calling her panel out of date. (Pebbles'
    bids, Keyflower's simultaneous steps.)"""
    game = await start_game(table, table.bob, game=game_id)
    rng = random.Random(3)
    await play_until(table, game, lambda g: awaited_humans(g) == [0, 1], rng)
    seq = game.seq
    panel = (await table.alice.click(table_message(table.channel), label="Take turn")).response
    bob_answer = random_choices(game.decision_for(1), rng)
    other_store = open_store(database_url)
    await other_store.open()
    try:
        other = TableManager(other_store)
        rival = await other.load(await other_store.get_table(game.id))
        await other.submit(rival, 1, bob_answer, user_id=table.bob.id)
    finally:
        await other.close()
        await other_store.close()
    result = await answer_panel(table.alice, panel, rng)
    assert "out of date" not in said(result), said(result)
    assert game.seq == seq + 2
    log = await table.env.bot.store.actions(game.id, after=seq)
    assert (log[0].seat, log[0].choices) == (1, bob_answer) and log[1].seat == 0


@every_game
async def test_a_process_follows_moves_made_by_another(postgres_url, game_id):
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
            game=game_id,
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
        rng = random.Random(11)
        seat = acting_seat(games[0])
        await managers[0].submit(games[0], seat, typed_choices(games[0], seat, rng), user_id=1)
        for _ in range(100):
            if games[1].seq == 1:
                break
            await asyncio.sleep(0.05)
        assert heard == [table.id]
        assert games[1].seq == 1
        assert games[1].engine.dump(games[1].state) == games[0].engine.dump(games[0].state)
        # and its own moves are not heard back as another process's
        seat = acting_seat(games[1])
        await managers[1].submit(games[1], seat, typed_choices(games[1], seat, rng), user_id=2)
        await asyncio.sleep(0.3)
        assert heard == [table.id]
        await managers[0].changed_elsewhere(table.id)
        assert games[0].seq == games[1].seq == 2
    finally:
        for manager, store in zip(managers, stores, strict=True):
            await manager.close()
            await store.close()


# -- two shard processes -----------------------------------------------------------------------
async def start_shard(
    url: str, shard: int, mode: str, game_id: str = "pebbles"
) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.bot.shard_process",
        url,
        str(SHARDS),
        str(shard),
        str(guild_for(shard)),
        mode,
        game_id,
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


@every_game
async def test_each_shard_process_serves_only_its_own_guilds_tables(postgres_url, game_id):
    store = open_store(postgres_url)
    await store.open()
    shards = [await start_shard(postgres_url, shard, "serve", game_id) for shard in (0, 1)]
    try:
        played = [await event(process, "played") for process in shards]
        mine = [played[0]["table"], played[1]["table"]]
        assert [p["games"] for p in played] == [[mine[0]], [mine[1]]]
        # Each heard the other's moves (NOTIFY) and took none of its tables.
        now = [await ask(process, "games", "games") for process in shards]
        assert [n["games"] for n in now] == [[mine[0]], [mine[1]]]
        # Each game's log is as its own process has it: Alice's move once, the AI's moves.
        for process_now, table_id in zip(now, mine, strict=True):
            log = await store.actions(table_id)
            assert len(log) == process_now["seqs"][str(table_id)]
            assert [a.seat for a in log if a.user_id is not None] == [0]
        # A game without a guild, in Alice's direct messages, is shard 0's. Its AI seat is the
        # one the game's first decision asks; it plays at random, in the bot's own process.
        engine = games.get(game_id)
        ai_seat = engine.decisions(engine.new(2, 5, {}))[0].seat
        ai = Seat(None, "AI 1", ai=True, ai_level="random")
        alice = played[0]["alice"]
        seats = [Seat(alice, "Alice"), ai][:: 1 if ai_seat == 1 else -1]
        dm = await ask(shards[0], "dm", "dm")
        direct = await store.create_table(
            guild_id=None,
            channel_id=dm["channel"],
            host_id=alice,
            game=game_id,
            options={},
            seed=5,
            seats=seats,
        )
        await store.start_table(direct.id, min_seats=1, max_seats=6)
        # A restarted process loads its own shards' games from the store, and no other.
        restarted = [await ask(process, "restart", "restarted") for process in shards]
        assert restarted[0]["games"] == sorted([direct.id, mine[0]])
        assert restarted[1]["games"] == [mine[1]]
        # Shard 0 played the AI seat of the direct game (as it heard of the game, or as it
        # started again): its turn, up to Alice's, and no more.
        for _ in range(40):
            if ai_moves := await store.actions(direct.id):
                break
            await ask(shards[0], "games", "games")
        state = engine.new(2, 5, {})
        for action in ai_moves:
            assert (action.seat, action.user_id) == (ai_seat, None)
            state = engine.apply(state, games.Action(action.seat, choices=action.choices))
        assert {d.seat for d in engine.decisions(state)} == {1 - ai_seat}
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


@every_game
async def test_what_a_player_changes_through_one_process_the_others_follow(postgres_url, game_id):
    """Alice plays a clocked game in each shard's guild. Her language chosen through one
    process is the one the other writes to her in; her time away taken through shard 0
    (where her DMs' commands arrive) pushes back, and then brings forward, the deadline
    shard 1 keeps for her; and a Snooze button in her DMs, whose click Discord delivers to
    shard 0, snoozes the reminders of shard 1's table, written through the store and heard
    by shard 1."""
    shards = [await start_shard(postgres_url, shard, "serve", game_id) for shard in (0, 1)]
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


@every_game
async def test_a_bot_process_killed_mid_game_loses_no_move(postgres_url, game_id):
    """SIGKILL a bot process while its players move: every move it answered as applied is
    in the log, and each game replays from the log to where it stood."""
    process = await start_shard(postgres_url, 0, "moves", game_id)
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
