"""The host's and Discord's faults: the bot restarted (cleanly, or without `close()`),
REST calls failing (5xx, 429 rate limits, gateway timeouts), a moderator deleting a table
message, and a table's channel deleted (its game paused; the moderator later reopens it
in a new channel with `/reopen table:`)."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from . import actions

if TYPE_CHECKING:
    from .run import Sim

# (status, code, message) of the errors Discord answers with.
ERRORS = (
    (500, 0, "Internal Server Error"),
    (503, 0, "Service Unavailable"),
    (504, 0, "Gateway Timeout"),
    (429, 0, "You are being rate limited."),
)


def targets(sim: Sim) -> list[tuple[str, str]]:
    """(method, path pattern) of the calls a fault may hit: a table channel's posts and
    edits, a player's DMs, and interaction replies and follow-ups."""
    out: list[tuple[str, str]] = [
        ("PATCH", "/webhooks/*/messages/@original"),
        ("POST", "/webhooks/*"),
    ]
    for server in sim.world.servers:
        for channel in (*server.table_channels(), server.hall):
            out += [
                ("POST", f"/channels/{channel.id}/messages"),
                ("PATCH", f"/channels/{channel.id}/messages/*"),
            ]
        for player in server.players:
            if player.behaviour != "dms_closed":
                out.append(("POST", f"/channels/{player.member.user.dm_channel.id}/messages"))
    return out


async def inject(sim: Sim) -> None:
    """A Discord error on some calls from now on, once or a few times."""
    method, path = sim.rng.choice(targets(sim))
    status, code, message = sim.rng.choice(ERRORS)
    times = sim.rng.choice((1, 1, 2, 3, 6))
    sim.env.inject_error(method, path, status=status, code=code, message=message, times=times)
    sim.report.faults += 1


async def restart(sim: Sim, *, abrupt: bool) -> None:
    """A new bot on the same database. The old one's timers and the posts and DMs it had
    not sent yet stop first, as they stop with its process (stopped, or killed); cleanly,
    it is then closed too, abruptly never (its store is left as a killed process leaves
    it). A detached bot whose work went on in the same process waited for ever on Discord
    answers no longer meant for it (SIMULATION_FINDINGS.md, finding 3)."""
    old = sim.env.bot
    stop_work(old)
    await sim.env.restart_bot(sim.make_bot())
    if not abrupt:
        await old.close()
    await sim.bot.manager.loaded_at_start()
    sim.report.restarts += 1


def stop_work(bot: Any) -> None:
    """What ends with the bot's process: its clocks' timers, its table posts and DMs not
    yet sent, its reviews under way (and their worker process)."""
    for part in (getattr(bot, "clocks", None), getattr(bot, "display", None)):
        if part is not None:
            part.close()
    reviewing = bot.get_cog("Review")
    if reviewing is not None:
        reviewing.reviews.close()


async def delete_table_message(sim: Sim) -> None:
    games = sim.live_games()
    if not games:
        return
    game = sim.rng.choice(games)
    server = sim.world.server_of_channel(game.table.channel_id)
    if server is not None:
        await actions.delete_table_message(sim, server, game)
        sim.report.faults += 1


async def delete_channel(sim: Sim) -> None:
    """A table channel (not a tournament's thread) holding a game is deleted, as in
    Discord itself; the world forgets the channel and the moderator means to reopen the
    game elsewhere some hours later."""
    held = [
        (server, channel, game)
        for server in sim.world.servers
        for channel in server.channels
        if (game := sim.live(channel.id)) is not None
    ]
    if not held:
        return
    server, channel, game = sim.rng.choice(held)
    server.channels.remove(channel)
    sim.env.backend.delete_channel(channel.id)
    await sim.env.settle()
    paused: dict[int, Any] = sim.memory.setdefault("paused", {})
    paused[game.id] = sim.env.now() + timedelta(hours=sim.rng.uniform(1, 30))
    sim.memory.setdefault("reopened", {}).pop(game.id, None)  # paused again, if it was back
    sim.report.faults += 1


async def reopen_due(sim: Sim) -> None:
    """The moderator reopens each paused game whose time has come in a new channel, which
    the world then uses as a table channel; the game must be in play there again."""
    paused: dict[int, Any] = sim.memory.setdefault("paused", {})
    for table_id, due in sorted(paused.items()):
        if sim.env.now() < due:
            continue
        table = await sim.bot.store.get_table(table_id)
        server = next(
            (s for s in sim.world.servers if table and s.guild.id == table.guild_id), None
        )
        del paused[table_id]
        if server is None:
            continue
        channel = server.guild.create_text_channel(f"table-{table_id}-again")
        server.channels.append(channel)
        await server.moderator.slash(channel, "reopen", table=table_id)
        reopened: dict[int, int] = sim.memory.setdefault("reopened", {})
        reopened[table_id] = channel.id
