"""A tournament as one CSV file an organiser opens in a spreadsheet (issue 28, item 4).

The file has four sections, one after another, an empty row between them, each opening
with its title row: the tournament (its settings, a label and its value a row), then, each
with a header row, the standings (points and the three tie-breaks), the pairings (one row
per table of every round, its seats in columns, then one row per bye) and every counted
game's result (one row per seat: rank, score, tournament points, played out by the AI,
forfeit, the organiser's decision and reason).

Titles and headers are in the reader's language; values are for machines: ids and tokens
(`swiss`, `finished`, `dropped`), numbers with a decimal point, booleans as 1 and 0, moments
as `YYYY-MM-DD HH:MM:SS` in UTC (which Excel, LibreOffice and `datetime.fromisoformat` read).
The text starts with a byte-order mark: encoded as UTF-8 (`text.encode()`), Excel reads it
as UTF-8 and shows Chinese and Japanese names. A text cell that a spreadsheet would run as
a formula (a name starting with `=`, `+`, `-`, `@`, …) is prefixed with an apostrophe.

Use (in the bot, with a `Tournaments` service):

    _, counted, _ = await service.history(tournament)
    ranked = await service.standings(tournament)
    record = await load_record(store, tournament, ranked, counted)
    data = tournament_csv(record, locale).encode()   # a discord.File's bytes
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from meeple_hall.bot.i18n import t
from meeple_hall.bot.standings import Standing, TableResult, place_points, points_for_ranks
from meeple_hall.bot.standings import points_text as number_text
from meeple_hall.bot.store import (
    Store,
    Table,
    Tournament,
    TournamentResult,
    TournamentRound,
    TournamentTable,
)

BOM = "\ufeff"
# What a spreadsheet reads as the start of a formula (and the full-width forms a Japanese or
# Chinese input method types for them).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠")
Cells = list[str]


@dataclass(frozen=True)
class TournamentRecord:
    """Everything the export reads, as the store and the standings give it."""

    tournament: Tournament
    standings: Sequence[Standing]  # best first, as `Tournaments.standings` orders them
    rounds: Sequence[TournamentRound]
    tables: Sequence[TournamentTable]  # of every round, void ones included
    games: Mapping[int, Table]  # the tournament's games by table id
    counted: Sequence[TableResult]  # the results the standings counted (`history()[1]`)
    decisions: Sequence[TournamentResult]  # the organiser's results


async def load_record(
    store: Store,
    tournament: Tournament,
    ranked: Sequence[Standing],
    counted: Sequence[TableResult],
) -> TournamentRecord:
    """Read the rounds, tables, games and organiser's results of `tournament` from the store;
    `ranked` and `counted` are the standings and the results they were made from."""
    tables = await store.tournament_tables(tournament.id)
    games: dict[int, Table] = {}
    for row in tables:
        game = await store.get_table(row.table_id) if row.table_id is not None else None
        if game is not None:
            games[game.id] = game
    return TournamentRecord(
        tournament,
        tuple(ranked),
        tuple(await store.tournament_rounds(tournament.id)),
        tuple(tables),
        games,
        tuple(counted),
        tuple(await store.tournament_results(tournament.id)),
    )


def tournament_csv(record: TournamentRecord, locale: str) -> str:
    """The whole tournament as CSV text (BOM first; lines end in CRLF), its titles and
    headers in `locale`'s language."""
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out)
    sections = (
        ("export.section.about", _about(record, locale)),
        ("export.section.standings", _standings(record, locale)),
        ("export.section.pairings", _pairings(record, locale)),
        ("export.section.results", _results(record, locale)),
    )
    for index, (title, rows) in enumerate(sections):
        if index:
            writer.writerow([])
        writer.writerow([t(locale, title)])
        writer.writerows(rows)
    return out.getvalue()


# -- cells ------------------------------------------------------------------------------------
def safe_text(text: str) -> str:
    """Text as a spreadsheet shows it, never run as a formula."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def moment(when: datetime | None) -> str:
    """A moment in UTC as `YYYY-MM-DD HH:MM:SS` (empty when there is none)."""
    if when is None:
        return ""
    return when.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")


def flag(value: bool) -> str:
    return "1" if value else "0"


def optional(value: object | None) -> str:
    return "" if value is None else str(value)


def headers(locale: str, *keys: str) -> Cells:
    return [t(locale, f"export.{key}") for key in keys]


def _names(record: TournamentRecord) -> dict[int, str]:
    return {p.user_id: p.name for p in record.tournament.players}


def _name(names: Mapping[int, str], user_id: int | None) -> str:
    if user_id is None:
        return ""
    return safe_text(names.get(user_id, str(user_id)))


# -- sections ---------------------------------------------------------------------------------
def _about(record: TournamentRecord, locale: str) -> list[Cells]:
    """The tournament's settings, one a row: its label, then its value (points per place:
    one number a cell, the organiser's whole list or the default for the table size)."""
    tour = record.tournament
    per_place = [str(p) for p in tour.points or place_points(tour.table_size)]
    settings: tuple[tuple[str, str | list[str]], ...] = (
        ("name", safe_text(tour.name)),
        ("game", tour.game),
        ("format", tour.format),
        ("status", tour.status.value),
        ("created", moment(tour.created_at)),
        ("rounds", optional(tour.rounds)),
        ("table_size", str(tour.table_size)),
        ("place_points", per_place),
        ("bye_points", "" if tour.bye_points is None else number_text(tour.bye_points)),
        ("seeding", tour.seeding),
        ("checkin", optional(tour.checkin_minutes)),
        ("deadline_days", optional(tour.deadline_days)),
        ("at_deadline", tour.at_deadline),
        ("final_size", optional(tour.final_size)),
    )
    return [
        [t(locale, f"export.{key}"), *(value if isinstance(value, list) else [value])]
        for key, value in settings
    ]


def _standings(record: TournamentRecord, locale: str) -> list[Cells]:
    names = _names(record)
    status = {p.user_id: p.status for p in record.tournament.players}
    rows = [
        headers(
            locale,
            "place",
            "player_id",
            "player",
            "status",
            "points",
            "opponents",
            "share",
            "total_score",
            "games",
            "wins",
            "byes",
        )
    ]
    for place, s in enumerate(record.standings, start=1):
        rows.append(
            [
                str(place),
                str(s.user_id),
                _name(names, s.user_id),
                status.get(s.user_id, ""),
                number_text(s.points),
                number_text(s.opponents_points),
                f"{s.winner_share:.4f}",
                str(s.total_score),
                str(s.games),
                str(s.wins),
                str(s.byes),
            ]
        )
    return rows


def _pairings(record: TournamentRecord, locale: str) -> list[Cells]:
    """One row per table of every round (its seats in columns), then the round's byes."""
    names = _names(record)
    widest = max([record.tournament.table_size, *(len(row.seats) for row in record.tables)])
    seat_headers = [t(locale, "export.seat_n", seat=n) for n in range(1, widest + 1)]
    rows = [
        headers(locale, "round", "final", "deadline", "table", "game_number", "game_status")
        + seat_headers
    ]
    tables = {
        r.round: [row for row in record.tables if row.round == r.round] for r in record.rounds
    }
    for rnd in sorted(record.rounds, key=lambda r: r.round):
        for row in sorted(tables[rnd.round], key=lambda r: r.number):
            game = record.games.get(row.table_id) if row.table_id is not None else None
            state = "void" if row.state == "void" else game.status.value if game else "planned"
            rows.append(
                _round_cells(rnd)
                + [str(row.number), optional(row.table_id), state]
                + [_name(names, user_id) for user_id in row.seats]
            )
        for user_id in rnd.byes:
            rows.append([*_round_cells(rnd), "", "", "bye", _name(names, user_id)])
    return rows


def _round_cells(rnd: TournamentRound) -> Cells:
    return [str(rnd.round), flag(rnd.final), moment(rnd.deadline)]


def _results(record: TournamentRecord, locale: str) -> list[Cells]:
    """One row per seat of every game the standings counted, in round and table order."""
    decided = {d.table_id: d for d in record.decisions}
    where = _tables_by_players(record)
    rows = [
        headers(
            locale,
            "round",
            "table",
            "game_number",
            "seat",
            "player_id",
            "player",
            "rank",
            "score",
            "points",
            "played_by_ai",
            "forfeit",
            "by_organiser",
            "reason",
            "decided_by",
            "ended",
        )
    ]
    placed = [
        (result, where.get(_players_key(result.round, result.players))) for result in record.counted
    ]
    placed.sort(key=lambda pair: (pair[0].round, pair[1].number if pair[1] else 0))
    for result, row in placed:
        game = record.games.get(row.table_id) if row and row.table_id is not None else None
        decision = decided.get(game.id) if game else None
        rows += _game_rows(record, result, row, game, decision)
    return rows


def _game_rows(
    record: TournamentRecord,
    result: TableResult,
    row: TournamentTable | None,
    game: Table | None,
    decision: TournamentResult | None,
) -> list[Cells]:
    """A counted game's seats, each with its rank, score and points, and the organiser's
    decision on the table if there is one."""
    names = _names(record)
    points = points_for_ranks(result.ranks, record.tournament.points)
    decided = [
        flag(decision is not None),
        safe_text(decision.reason) if decision else "",
        str(decision.decided_by) if decision else "",
    ]
    return [
        [
            str(result.round),
            str(row.number) if row else "",
            str(game.id) if game else "",
            str(seat + 1),
            str(user_id) if user_id else "",
            _name(names, user_id or None),
            str(result.ranks[seat]),
            str(result.scores[seat]),
            number_text(points[seat]),
            flag(result.played_by_ai(seat)),
            flag(decision is not None and seat in decision.forfeits),
            *decided,
            moment(game.ended_at) if game else "",
        ]
        for seat, user_id in enumerate(result.players)
    ]


def _players_key(round_no: int, players: Sequence[int | None]) -> tuple[int, frozenset[int]]:
    return round_no, frozenset(p or 0 for p in players)


def _tables_by_players(
    record: TournamentRecord,
) -> dict[tuple[int, frozenset[int]], TournamentTable]:
    """The table of a counted result: the one of its round where its players sat (a player
    sits at one table a round that is not void)."""
    found = {}
    for row in record.tables:
        game = record.games.get(row.table_id) if row.table_id is not None else None
        if row.state == "void" or game is None:
            continue
        found[_players_key(row.round, [seat.user_id for seat in game.seats])] = row
    return found
