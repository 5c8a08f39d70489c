"""Organisers running tournaments, through `/tournament` and the sign-up message only: one
created in a server's tournament channel (swiss, round robin or elimination, of any game),
players joining and leaving the sign-up, the organiser starting it; while it runs, players
dropping out, the organiser removing and replacing players, re-pairing a round, and
players asking for the standings. Its tables are threads of that channel, played as any
other table (run.someone_plays)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple_hall import games
from meeple_hall.bot.store import Tournament, TournamentStatus
from meeple_hall.bot.tournaments import CLOCKS, FORMATS

from .actions import channel_message
from .world import GAMES, Player, Server

if TYPE_CHECKING:
    from .run import Sim

MOST_PLAYERS = 5  # of a server's six players, so some are left to replace others


async def organise(sim: Sim) -> None:
    """One thing happens to one server's tournament: created if it has none open, else a
    step of its sign-up or of its running."""
    server = sim.rng.choice(sim.world.servers)
    tournament = await open_tournament(sim, server)
    if tournament is None:
        await create(sim, server)
    elif tournament.status is TournamentStatus.SIGNUP:
        await sign_up_step(sim, server, tournament)
    else:
        await running_step(sim, server, tournament)


async def open_tournament(sim: Sim, server: Server) -> Tournament | None:
    found = await sim.bot.store.tournaments(
        guild_id=server.guild.id, statuses=(TournamentStatus.SIGNUP, TournamentStatus.RUNNING)
    )
    return found[-1] if found else None


def settings(sim: Sim, game_id: str, format: str) -> dict[str, Any]:
    """What the organiser asks for: small tables and few rounds, so a tournament can end
    within a season; sometimes a fixed bye or a number who go on."""
    rng = sim.rng
    engine = games.get(game_id)
    low = max(engine.min_players, 2)
    chosen: dict[str, Any] = {
        "game": game_id,
        "format": format,
        "table_size": rng.choice((low, low, min(low + 1, engine.max_players))),
        "clock": rng.choice(CLOCKS),
    }
    if format == "swiss":
        chosen["rounds"] = rng.choice((1, 2))
        if rng.random() < 0.3:
            chosen["bye_points"] = rng.choice((0.0, 5.0))
    return chosen


async def create(sim: Sim, server: Server) -> None:
    """A player of the server creates a tournament and means to seat a few players."""
    organiser = sim.rng.choice(server.players)
    format = sim.rng.choice(FORMATS)
    asked = settings(sim, sim.rng.choice(GAMES), format)
    await organiser.member.slash(server.hall, "tournament create", **asked)
    created = await open_tournament(sim, server)
    if created is not None:
        wanted: dict[int, int] = sim.memory.setdefault("wanted", {})
        wanted[created.id] = sim.rng.randint(3, MOST_PLAYERS)
        sim.memory.setdefault("tournament_names", set()).add(created.name)


async def sign_up_step(sim: Sim, server: Server, tournament: Tournament) -> None:
    """Players join on the sign-up message until as many as the organiser wants have, one
    sometimes leaving or replaced by the organiser; then the organiser starts it."""
    rng = sim.rng
    wanted = sim.memory.setdefault("wanted", {}).get(tournament.id, 3)
    signed = {p.user_id for p in tournament.players}
    outside = [p for p in server.players if p.id not in signed]
    inside = [p for p in server.players if p.id in signed and p.id != tournament.organiser_id]
    roll = rng.random()
    if inside and outside and roll < 0.15:
        await replace(sim, server, tournament, rng.choice(inside), rng.choice(outside))
        return
    if inside and roll < 0.3:
        await click(sim, server, tournament, rng.choice(inside), "leave")
        return
    for player in rng.sample(outside, max(0, min(len(outside), wanted - len(signed)))):
        await click(sim, server, tournament, player, "join")
    organiser = server.player(tournament.organiser_id)
    if organiser is not None and rng.random() < 0.7:
        await click(sim, server, tournament, organiser, "start")


async def click(sim: Sim, server: Server, tournament: Tournament, who: Player, verb: str) -> None:
    """A button of the tournament's sign-up message (join, leave, start), whatever its
    label's language."""
    if tournament.message_id is None:
        return
    try:
        signup = channel_message(server.hall, tournament.message_id)
    except StopIteration:  # the post was lost to a Discord error
        return
    await who.member.click(signup, custom_id=f"tour:{tournament.id}:{verb}")


async def running_step(sim: Sim, server: Server, tournament: Tournament) -> None:
    """A player looks at the standings or drops out; the organiser removes or replaces a
    player, or re-pairs the round."""
    rng = sim.rng
    playing = [p for p in server.players if p.id in tournament.playing()]
    organiser = server.player(tournament.organiser_id)
    roll = rng.random()
    if roll < 0.5 or not playing or organiser is None:
        reader = rng.choice(server.players)
        await reader.member.slash(server.hall, "tournament standings")
    elif roll < 0.6:
        await rng.choice(playing).member.slash(server.hall, "tournament drop")
    elif roll < 0.7:
        removed = rng.choice(playing)
        await organiser.member.slash(server.hall, "tournament remove", player=removed.member)
    elif roll < 0.9:
        outside = [p for p in server.players if tournament.player(p.id) is None]
        if outside:
            await replace(sim, server, tournament, rng.choice(playing), rng.choice(outside))
    else:
        await organiser.member.slash(server.hall, "tournament repair")


async def replace(
    sim: Sim, server: Server, tournament: Tournament, old: Player, new: Player
) -> None:
    """The organiser puts `new` in `old`'s place (refused once `old` has moved); a
    replacement done is remembered, so the round robin's schedule can be followed."""
    organiser = server.player(tournament.organiser_id)
    if organiser is None:
        return
    await organiser.member.slash(
        server.hall, "tournament replace", player=old.member, replacement=new.member
    )
    now = await sim.bot.store.get_tournament(tournament.id)
    if now is not None and now.player(new.id) is not None and now.player(old.id) is None:
        replaced: dict[int, list[tuple[int, int]]] = sim.memory.setdefault("replaced", {})
        replaced.setdefault(tournament.id, []).append((old.id, new.id))


async def tally(sim: Sim) -> tuple[int, int]:
    """How many tournaments of the season's servers started, and how many finished."""
    started = finished = 0
    for server in sim.world.servers:
        for tournament in await sim.bot.store.tournaments(guild_id=server.guild.id):
            started += tournament.status is not TournamentStatus.SIGNUP
            finished += tournament.status is TournamentStatus.FINISHED
    return started, finished
