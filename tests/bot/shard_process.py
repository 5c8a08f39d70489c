"""One bot process of a bot split over shards, in a SimCord environment of its own (SimCord
runs one bot per environment and one environment per event loop): the tests in
test_shards.py start two of these on one PostgreSQL database.

    python -m tests.bot.shard_process DATABASE_URL SHARD_COUNT SHARD_ID GUILD_ID MODE [GAME]

The bot runs shard SHARD_ID of SHARD_COUNT and plays GAME (Pebbles unless named) in a
guild with id GUILD_ID (pinned, so the test knows whose shard it is). It reports on
stdout, one JSON object a line, flushed at once:
- serve: Alice starts a game with a 12 h clock against one AI seat and, once the AI seat
  has played whatever came before her turn, types one move; prints
  {"event": "played", "table", "seq", "games", "alice"} (games: the ids of the games in
  play its manager serves, loaded or not; alice: her user id, the same in every process,
  as a Discord user is). Then each line on stdin: "games" prints {"event": "games",
  "games", "seqs"} (seqs: of the games loaded); "restart" restarts the bot (a new one on
  the same shards reads its games from the store) and prints {"event": "restarted",
  "games"}; "language CHOICE" and "away DAYS" are Alice's /settings language: and /away
  (prints {"event": "language"|"away", "reply"}); "lang" prints the language this process
  writes to Alice in ({"event": "lang", "language"}); "clock" prints her seat's clock at
  her game here ({"event": "clock", "table", "seat", "since", "deadline", "snoozed",
  "away"}: since in whole seconds, deadline ISO); "snooze TABLE SEAT SINCE" has the bot DM
  her a reminder's Snooze button for that wait and her click it, as Discord delivers a
  DM's click to shard 0 ({"event": "snoozed", "reply"}); "dm" prints her direct-message
  channel with the bot ({"event": "dm", "channel"}); "stop" ends the process.
- moves: Alice and Bob play game after game by /move (random legal answers), printing
  {"event": "applied", "table", "seq"} once each move is in; it never stops by itself.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys

from simcord import Env

import tests.conftest  # noqa: F401  (registers the Pebbles test game and its picture)
from meeple_hall import games
from meeple_hall.bot import create_bot, render
from meeple_hall.bot.components import Components, button
from meeple_hall.bot.shards import Shards
from meeple_hall.games.testing import random_choices
from tests.bot.conftest import Table, start_game
from tests.bot.every_game import table_shown, typed


def say(**fields: object) -> None:
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


async def read_line() -> str:
    return (await asyncio.to_thread(sys.stdin.readline)).strip()


async def main(url: str, count: int, shard: int, guild_id: int, mode: str, game_id: str) -> None:
    shards = Shards(count, frozenset({shard}))
    seeds = random.Random(shard)
    bots = [create_bot(url, shards=shards, new_seed=lambda: seeds.getrandbits(63))]
    await warm_picture_workers(game_id)
    # Only the process running shard 0 syncs the commands (they are the same for all).
    env = Env(bots[0], settle_timeout=60, strict_sync=shard == 0)
    await env.start()
    try:
        with env.time_context():
            # Each process's SimCord numbers its own snowflakes from the same instant: the
            # players, made at one instant in every process, have the same ids in all (a
            # Discord user is the same person in every guild); then the clock moves on, so
            # that this process's channels' ids differ from the other's.
            await env.advance_time(60)
            people = [env.create_user(n) for n in ("alice", "bob", "carol")]
            await env.advance_time(3600 * (shard + 1))
            guild = env.create_guild(name=f"Shard {shard}", id=guild_id)
            members = [guild.add_member(user) for user in people]
            if mode == "serve":
                await serve(env, guild, members, bots, shards, url, game_id)
            else:
                await play_moves(env, guild, members, game_id)
    finally:
        await env.shutdown()
        for bot in bots:
            await bot.manager.close()
            await bot.store.close()


async def warm_picture_workers(game_id: str) -> None:
    """Start the picture worker processes before the bot does: SimCord gives a starting
    bot 5 s to settle, and a game the bot plays on at start (an AI seat to move) is drawn
    at once, which on a busy machine can take a new worker process longer than that."""
    engine = games.get(game_id)
    await render.pool.run(game_id, render.encode_png, engine.view(engine.new(2, 1, {}), None))


async def serve(env: Env, guild, members, bots, shards: Shards, url: str, game_id: str) -> None:
    shard = next(iter(shards.ids))
    table = Table(env, guild, guild.create_text_channel("games"), *members, None)
    game = await start_game(table, ai=1, game=game_id, options="clock=12h")
    await table_shown(table, game)  # the AI seat's moves before Alice's turn
    await table.alice.slash(table.channel, "move", text=typed(game, 0, random.Random(shard)))
    await table_shown(table, game)
    alice = table.alice.user.id
    say(event="played", table=game.id, seq=game.seq, games=served(env), alice=alice)
    while (line := await read_line()) != "stop":
        word, _, rest = line.partition(" ")
        if word in ("games", "lang", "clock"):
            await env.advance_time(0.5)  # let the bot follow what it heard meanwhile
        if word == "games":
            seqs = {i: g.seq for i, g in env.bot.manager.games.items()}
            say(event="games", games=served(env), seqs=seqs)
        elif word == "restart":
            bots.append(create_bot(url, shards=shards))
            await env.restart_bot(bots[-1])
            say(event="restarted", games=served(env))
        elif word == "language":
            reply = await table.alice.slash(table.channel, "settings", language=rest)
            say(event="language", reply=reply.response.content)
        elif word == "away":
            reply = await table.alice.slash(table.channel, "away", days=int(rest))
            say(event="away", reply=reply.response.content)
        elif word == "lang":
            say(event="lang", language=env.bot.languages.user(alice, "en-US"))
        elif word == "clock":
            row = env.bot.clocks.rows.get((game.id, 0))
            say(
                event="clock",
                table=game.id,
                seat=0,
                since=int(row.since.timestamp()) if row and row.since else None,
                deadline=row.deadline.isoformat() if row and row.deadline else None,
                snoozed=bool(row and row.snoozed),
                away=env.bot.clocks.away_of(alice) is not None,
            )
        elif word == "dm":
            say(event="dm", channel=table.alice.user.dm_channel.id)
        elif word == "snooze":
            say(event="snoozed", reply=await snooze_by_dm(env, table, rest.replace(" ", ":")))


async def snooze_by_dm(env: Env, table: Table, wait: str) -> str:
    """Alice clicks Snooze on a reminder in her DMs: the bot sends her the reminder's button
    for `wait` ("table:seat:since") and she clicks it."""
    view = Components()
    view.add_item(button(f"z:{wait}", "Snooze", emoji="💤"))
    user = await env.bot.fetch_user(table.alice.user.id)
    await user.send("You are awaited", view=view)
    reminder = table.alice.user.dm_channel.history()[-1]
    clicked = await table.alice.user.click(reminder, label="Snooze")
    return clicked.response.content


def served(env: Env) -> list[int]:
    return sorted(table.id for table in env.bot.manager.served())


async def play_moves(env: Env, guild, members, game_id: str) -> None:
    rng = random.Random(7)
    while True:
        table = Table(env, guild, guild.create_text_channel("games"), *members, None)
        game = await start_game(table, table.bob, game=game_id)
        while game.decisions():
            decision = rng.choice(game.decisions())
            tokens = ",".join(random_choices(decision, rng)) or "none"
            member = (table.alice, table.bob)[decision.seat]
            result = await member.slash(table.channel, "move", text=tokens)
            assert "Applied" in result.response.content, result.response.content
            say(event="applied", table=game.id, seq=game.seq)


if __name__ == "__main__":
    url, count, shard, guild_id, mode = sys.argv[1:6]
    game_id = sys.argv[6] if len(sys.argv) > 6 else "pebbles"
    asyncio.run(main(url, int(count), int(shard), int(guild_id), mode, game_id))
