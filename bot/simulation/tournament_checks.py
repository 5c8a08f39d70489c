"""The tournaments' share of the invariants: `community` (standings equal their
recomputation from the results table; pairings valid) and `progress` (every round ends).
Each reads the store only; what it must remember between steps is in `sim.memory`."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from meeple_hall import games
from meeple_hall.bot import standings
from meeple_hall.bot.store import (
    ResultRow,
    TableStatus,
    Tournament,
    TournamentRound,
    TournamentStatus,
    TournamentTable,
)

if TYPE_CHECKING:
    from .run import Sim

ENDED = (TableStatus.FINISHED, TableStatus.ABANDONED, TableStatus.CANCELLED)
# A tournament moves on in a task of its own after a game ends, and after a restart when
# the new bot resumes; a step it owes that is still not taken after this long is lost.
ROUND_GRACE = timedelta(minutes=50)


async def all_tournaments(sim: Sim) -> list[Tournament]:
    found: list[Tournament] = []
    for server in sim.world.servers:
        found += await sim.bot.store.tournaments(guild_id=server.guild.id)
    return [t for t in found if t.status is not TournamentStatus.SIGNUP]


async def seated_rows(sim: Sim, tournament: Tournament) -> list[TournamentTable]:
    """The tournament's tables, void ones (re-paired) left out."""
    rows = await sim.bot.store.tournament_tables(tournament.id)
    return [r for r in rows if r.state != "void"]


# -- community: standings ------------------------------------------------------------------
async def standings_agree(sim: Sim, tournament: Tournament) -> list[str]:
    """The standings the bot shows (`/tournament standings`, the round posts) equal the
    standings worked out here from the results table (one row per seat of each finished
    game), the rounds' byes and who is still listed. A tournament with an abandoned game
    is skipped: that game is settled by its scores when it ended, not in the results."""
    store = sim.bot.store
    rows = await seated_rows(sim, tournament)
    by_table = await result_rows(sim, tournament, rows)
    results = []
    for row in rows:
        table = await store.get_table(row.table_id) if row.table_id else None
        if table is None:
            continue
        if table.status is TableStatus.ABANDONED:
            return []
        seats = by_table.get(table.id)
        if table.status is TableStatus.FINISHED and seats:
            results.append(
                standings.TableResult(
                    row.round,
                    tuple(s.user_id or 0 for s in seats),
                    tuple(s.rank for s in seats),
                    tuple(s.score for s in seats),
                    tuple(s.resigned for s in seats),
                )
            )
    byes = {r.round: list(r.byes) for r in await store.tournament_rounds(tournament.id)}
    listed = [p.user_id for p in tournament.players if p.status != "removed"]
    truth = standings.standings(listed, results, byes, tournament.bye_points)
    shown = await sim.bot.tournaments.standings(tournament)
    if as_table(shown) != as_table(truth):
        return [
            f"tournament {tournament.id}: standings {as_table(shown)} are not their "
            f"recomputation from the results {as_table(truth)}"
        ]
    return []


async def result_rows(
    sim: Sim, tournament: Tournament, rows: list[TournamentTable]
) -> dict[int, list[ResultRow]]:
    """The results table's rows of the tournament's games, by table, in seat order."""
    ids = {r.table_id for r in rows if r.table_id}
    out: dict[int, list[ResultRow]] = {}
    found = await sim.bot.store.results(game=tournament.game, guild_id=tournament.guild_id)
    for result in found:
        if result.table_id in ids:
            out.setdefault(result.table_id, []).append(result)
    return {table: sorted(seats, key=lambda s: s.seat) for table, seats in out.items()}


def as_table(ranked: list[standings.Standing]) -> dict[int, tuple[float, float, int]]:
    """Each player's points, opponents' points and games: what the standings rank by."""
    return {s.user_id: (s.points, s.opponents_points, s.games) for s in ranked}


# -- community: pairings -------------------------------------------------------------------
def size_bounds(tournament: Tournament) -> tuple[int, int]:
    """Seats a table may have: within the game's range, and at most one over the
    tournament's table size (bot/pairing.py: uneven counts take one seat more or fewer)."""
    engine = games.get(tournament.game)
    return max(engine.min_players, 2), min(engine.max_players, tournament.table_size + 1)


async def pairings_valid(sim: Sim, tournament: Tournament) -> list[str]:
    """Nobody twice in a round; every table within its bounds; nobody who dropped, was
    removed or knocked out seated in a later round; a round robin's tables follow its
    stored schedule, which never changes but for replacements."""
    rows = await seated_rows(sim, tournament)
    rounds = await sim.bot.store.tournament_rounds(tournament.id)
    problems = once_a_round(tournament, rows, rounds)
    low, high = size_bounds(tournament)
    for row in rows:
        if not low <= len(row.seats) <= high:
            problems.append(
                f"tournament {tournament.id} round {row.round} table {row.number}: "
                f"{len(row.seats)} seats, not {low}–{high}"
            )
    for player in tournament.players:
        if player.status == "playing" or player.left_round is None:
            continue
        later = [r.round for r in rows if r.round > player.left_round and player.user_id in r.seats]
        if later:
            problems.append(
                f"tournament {tournament.id}: user {player.user_id} ({player.status} in round "
                f"{player.left_round}) seated again in round {later[0]}"
            )
    if tournament.format == "round-robin":
        problems += follows_schedule(sim, tournament, rows)
    return problems


def once_a_round(
    tournament: Tournament, rows: list[TournamentTable], rounds: list[TournamentRound]
) -> list[str]:
    seated: dict[int, Counter[int]] = {}
    for row in rows:
        seated.setdefault(row.round, Counter()).update(row.seats)
    for rnd in rounds:
        seated.setdefault(rnd.round, Counter()).update(rnd.byes)
    return [
        f"tournament {tournament.id} round {round_no}: user {user} seated {times} times"
        for round_no, counts in sorted(seated.items())
        for user, times in counts.items()
        if times > 1
    ]


def follows_schedule(sim: Sim, tournament: Tournament, rows: list[TournamentTable]) -> list[str]:
    """The schedule first seen is kept (a replacement takes the replaced player's place in
    it), and each table of round r is a table of the schedule's round r, less the players
    who have left."""
    if tournament.schedule is None:
        return [f"tournament {tournament.id}: a round robin running without a schedule"]
    kept: dict[int, Any] = sim.memory.setdefault("schedules", {})
    first = kept.setdefault(tournament.id, tournament.schedule)
    swaps = sim.memory.get("replaced", {}).get(tournament.id, [])
    expected = tuple(
        tuple(tuple(replaced(p, swaps) for p in table) for table in rnd) for rnd in first
    )
    if tournament.schedule != expected:
        return [f"tournament {tournament.id}: the round robin's schedule changed"]
    problems = []
    for row in rows:
        planned = expected[row.round - 1] if row.round <= len(expected) else ()
        # a table played before a replacement keeps its players; one in play may have
        # been given the replacement already
        ways = {tuple(row.seats), tuple(replaced(p, swaps) for p in row.seats)}
        if not any(
            tuple(p for p in table if p in seats) == seats for table in planned for seats in ways
        ):
            problems.append(
                f"tournament {tournament.id} round {row.round} table {row.number}: "
                f"{list(row.seats)} is no table of the schedule's round"
            )
    return problems


def replaced(user: int, swaps: list[tuple[int, int]]) -> int:
    """Who holds `user`'s place now, after every replacement (old, new) in the order they
    were made: a player replaced out may come back later in another's place (seed 1618),
    which a mapping from old to new followed to its end took for their own place."""
    for old, new in swaps:
        if user == old:
            user = new
    return user


# -- progress: rounds end ----------------------------------------------------------------------
def round_deadline(tournament: Tournament, rnd: TournamentRound) -> datetime | None:
    """When the round must be over: its stored deadline (issue 28, when the organiser gave
    rounds one and the AI plays out its unfinished tables then), else none (a round ends
    when its games do, and each game has its clock; or, where the organiser decides what a
    passed deadline leaves unfinished, when the organiser has)."""
    return rnd.deadline if tournament.at_deadline == "ai" else None


async def rounds_end(sim: Sim) -> list[str]:
    """Every running tournament's current round moves on: a round still opening, a round
    whose games have all ended, or a round done whose tournament neither paired the next
    nor finished, is a step the tournament owes; owed for longer than ROUND_GRACE, it is
    lost. A round past its deadline (`round_deadline`) with games still going is late."""
    now = sim.env.now()
    owed: dict[tuple[int, int, str], datetime] = sim.memory.setdefault("owed", {})
    told: set[tuple[int, int, str]] = sim.memory.setdefault("owed_told", set())
    still: set[tuple[int, int, str]] = set()
    problems = []
    for tournament in await all_tournaments(sim):
        if tournament.status is not TournamentStatus.RUNNING:
            continue
        rounds = await sim.bot.store.tournament_rounds(tournament.id)
        if not rounds:
            continue
        current = rounds[-1]
        ended = await games_ended(sim, tournament, current.round)
        key = (tournament.id, current.round, current.status)
        if current.status != "playing" or ended:
            still.add(key)
            since = owed.setdefault(key, now)
            if now - since > ROUND_GRACE and key not in told:
                told.add(key)
                problems.append(
                    f"tournament {tournament.id}: round {current.round} {current.status}"
                    f"{', its games all ended,' if ended else ''} and not moved on since "
                    f"{since:%d %H:%M}"
                )
        deadline = round_deadline(tournament, current)
        if deadline is not None and now > deadline + ROUND_GRACE and not ended:
            problems.append(
                f"tournament {tournament.id}: round {current.round} is past its deadline"
            )
    for key in set(owed) - still:
        del owed[key]
    return problems


async def games_ended(sim: Sim, tournament: Tournament, round_no: int) -> bool:
    """Whether every game of the round has ended (a round with no game has not)."""
    rows = [r for r in await sim.bot.store.tournament_tables(tournament.id, round_no)]
    rows = [r for r in rows if r.state != "void"]
    if not rows:
        return False
    for row in rows:
        table = await sim.bot.store.get_table(row.table_id) if row.table_id else None
        if table is None or table.status not in ENDED:
            return False
    return True
