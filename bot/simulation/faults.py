"""The host's and Discord's faults: the bot restarted (cleanly, or without `close()`),
REST calls failing (5xx, 429 rate limits, gateway timeouts) and a moderator deleting a
table message."""

from __future__ import annotations

from typing import TYPE_CHECKING

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
        for channel in server.channels:
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
    """A new bot on the same database. Cleanly, the old one is closed after it is detached;
    abruptly, it is never closed (as a killed process: nothing of it runs on)."""
    old = sim.env.bot
    await sim.env.restart_bot(sim.make_bot())
    if not abrupt:
        await old.close()
    await sim.bot.manager.loaded_at_start()
    sim.report.restarts += 1


async def delete_table_message(sim: Sim) -> None:
    games = sim.live_games()
    if not games:
        return
    game = sim.rng.choice(games)
    server = sim.world.server_of_channel(game.table.channel_id)
    if server is not None:
        await actions.delete_table_message(sim, server, game)
        sim.report.faults += 1
