"""One bot process of a bot split over shards, in a SimCord environment of its own (SimCord
runs one bot per environment and one environment per event loop): the tests in
test_shards.py start two of these on one PostgreSQL database.

    python -m tests.bot.shard_process DATABASE_URL SHARD_COUNT SHARD_ID GUILD_ID MODE

The bot runs shard SHARD_ID of SHARD_COUNT and plays Pebbles in a guild with id GUILD_ID
(pinned, so the test knows whose shard it is). It reports on stdout, one JSON object a
line, flushed at once:
- serve: Alice starts a game against one AI seat and bids; prints {"event": "played",
  "table", "seq", "games"} (games: the table ids its manager serves). Then each line on
  stdin: "games" prints {"event": "games", "games", "seqs"}; "restart" restarts the bot
  (a new one on the same shards loads from the store) and prints {"event": "restarted",
  "games"}; "stop" ends the process.
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
from meeple_hall.bot import create_bot
from meeple_hall.bot.shards import Shards
from tests.bot.conftest import Table, start_game


def say(**fields: object) -> None:
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


async def read_line() -> str:
    return (await asyncio.to_thread(sys.stdin.readline)).strip()


async def main(url: str, count: int, shard: int, guild_id: int, mode: str) -> None:
    shards = Shards(count, frozenset({shard}))
    seeds = random.Random(shard)
    bots = [create_bot(url, shards=shards, new_seed=lambda: seeds.getrandbits(63))]
    # Only the process running shard 0 syncs the commands (they are the same for all).
    env = Env(bots[0], settle_timeout=60, strict_sync=shard == 0)
    await env.start()
    try:
        with env.time_context():
            # Each process's SimCord numbers its own snowflakes from the same instant: move
            # this one's clock on so that its channels' ids differ from the other's.
            await env.advance_time(3600 * (shard + 1))
            guild = env.create_guild(name=f"Shard {shard}", id=guild_id)
            members = [guild.add_member(env.create_user(n)) for n in ("alice", "bob", "carol")]
            if mode == "serve":
                await serve(env, guild, members, bots, shards, url)
            else:
                await play_moves(env, guild, members)
    finally:
        await env.shutdown()
        for bot in bots:
            await bot.manager.close()
            await bot.store.close()


async def serve(env: Env, guild, members, bots, shards: Shards, url: str) -> None:
    table = Table(env, guild, guild.create_text_channel("games"), *members, None)
    game = await start_game(table, ai=1)
    await table.alice.slash(table.channel, "move", text="bid1")
    say(event="played", table=game.id, seq=game.seq, games=sorted(env.bot.manager.games))
    while (line := await read_line()) != "stop":
        if line == "games":
            await env.advance_time(0.5)  # let the bot follow what it heard meanwhile
            games = env.bot.manager.games
            say(event="games", games=sorted(games), seqs={i: g.seq for i, g in games.items()})
        elif line == "restart":
            bots.append(create_bot(url, shards=shards))
            await env.restart_bot(bots[-1])
            say(event="restarted", games=sorted(env.bot.manager.games))


async def play_moves(env: Env, guild, members) -> None:
    rng = random.Random(7)
    while True:
        table = Table(env, guild, guild.create_text_channel("games"), *members, None)
        game = await start_game(table, table.bob)
        while game.decisions():
            decision = rng.choice(game.decisions())
            count = rng.randint(decision.min_choices, decision.max_choices)
            tokens = ",".join(o.id for o in rng.sample(list(decision.options), count))
            member = (table.alice, table.bob)[decision.seat]
            result = await member.slash(table.channel, "move", text=tokens)
            assert "Applied" in result.response.content, result.response.content
            say(event="applied", table=game.id, seq=game.seq)


if __name__ == "__main__":
    url, count, shard, guild_id, mode = sys.argv[1:6]
    asyncio.run(main(url, int(count), int(shard), int(guild_id), mode))
