"""The tournament export (bot/tournament_export.py) on a tournament stored in a real SQLite
file: read back through `csv.reader`, headers in each reader's language, Chinese and
Japanese names through Excel's byte-order mark, and names that a spreadsheet would run as
formulas kept as text."""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from meeple_hall.bot import standings
from meeple_hall.bot.i18n import t
from meeple_hall.bot.store import FinalResult, Seat, Store, TableStatus, open_store
from meeple_hall.bot.store.base import TournamentPlayer, TournamentResult
from meeple_hall.bot.tournament_export import (
    FORMULA_STARTS,
    TournamentRecord,
    load_record,
    tournament_csv,
)
from tests.store.test_community import a_tournament

NOW = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
ORGANISER = 1001
PLAYERS = {  # user id: name (the first three CJK, the next three formulas in a spreadsheet)
    1001: "Ada",
    1002: "王小明",
    1003: "さくら",
    1004: '=HYPERLINK("http://evil.example","x")',
    1005: "-Bob",
    1006: "@admin",
    1007: "＋Dana",
}
ROUND_1 = ((1001, 1002, 1003), (1004, 1005, 1006))
BYE = 1007
FINAL = (1001, 1003, 1007)
POINTS = (6, 4, 2, 1)
REASON = "=1+1 no-show"


@pytest.fixture
async def store(tmp_path: Path):
    store = open_store(f"sqlite:///{tmp_path / 'export.db'}")
    await store.open()
    yield store
    await store.close()


async def play_table(
    store: Store, tournament_id: int, round_no: int, number: int, seats: tuple[int, ...]
) -> int:
    """A game of the tournament's table, started, its row pointing at it."""
    table = await store.create_table(
        guild_id=42,
        channel_id=5000 + 10 * round_no + number,
        host_id=ORGANISER,
        game="pebbles",
        options={},
        seed=7,
        seats=[Seat(user, PLAYERS[user]) for user in seats],
    )
    await store.start_table(table.id, min_seats=1, max_seats=6)
    await store.update_tournament_table(
        tournament_id,
        round_no,
        number,
        state="announced",
        thread_id=table.channel_id,
        table_id=table.id,
    )
    return table.id


async def stored_tournament(store: Store) -> TournamentRecord:
    """Round 1: two tables of three (the second settled by the organiser, its first seat
    forfeited) and a bye; round 2, the final with a deadline, still in play."""
    made = await store.create_tournament(
        replace(
            a_tournament(TournamentPlayer(ORGANISER, PLAYERS[ORGANISER])),
            name="=Winter Cup",
            table_size=3,
            points=POINTS,
            final_size=3,
            deadline_days=3,
            bye_points=None,
        )
    )
    for user, name in PLAYERS.items():
        if user != ORGANISER:
            await store.join_tournament(made.id, user, name)
    await store.add_round(made.id, 1, list(ROUND_1), (BYE,))
    first = await play_table(store, made.id, 1, 1, ROUND_1[0])
    await store.finish_table(first, FinalResult((30, 45, 12), (2, 1, 3), ({}, {}, {})))
    second = await play_table(store, made.id, 1, 2, ROUND_1[1])
    await store.finish_table(second, FinalResult((-3, 20, 20), (3, 1, 2), ({}, {}, {})))
    await store.record_tournament_result(
        TournamentResult(made.id, second, (3, 1, 2), (0,), REASON, ORGANISER, NOW)
    )
    await store.add_round(made.id, 2, [FINAL], (), deadline=NOW + timedelta(days=3), final=True)
    await play_table(store, made.id, 2, 1, FINAL)
    tournament = await store.get_tournament(made.id)
    assert tournament is not None
    counted = await counted_results(store, tournament.id)
    ranked = standings.standings(PLAYERS, counted, {1: [BYE]}, None, POINTS)
    return await load_record(store, tournament, ranked, counted)


async def counted_results(store: Store, tournament_id: int) -> list[standings.TableResult]:
    """The finished games as the standings count them."""
    counted = []
    for row in await store.tournament_tables(tournament_id):
        game = await store.get_table(row.table_id) if row.table_id else None
        if game is None or game.status is not TableStatus.FINISHED or game.result is None:
            continue
        counted.append(
            standings.TableResult(
                row.round,
                tuple(s.user_id or 0 for s in game.seats),
                tuple(game.result["ranks"]),
                tuple(game.result["scores"]),
                tuple(s.played_out for s in game.seats),
            )
        )
    return counted


def sections(text: str) -> list[list[list[str]]]:
    """The CSV's sections: each its title row, header row and rows."""
    assert text.startswith("\ufeff")
    out: list[list[list[str]]] = [[]]
    for row in csv.reader(io.StringIO(text[1:], newline="")):
        if row:
            out[-1].append(row)
        else:
            out.append([])
    return out


def by_header(section: list[list[str]], locale: str, *keys: str) -> list[dict[str, str]]:
    """A section's rows as dicts keyed by the export's header keys."""
    header = section[1]
    columns = [header.index(t(locale, f"export.{key}")) for key in keys]
    return [{key: row[c] for key, c in zip(keys, columns, strict=True)} for row in section[2:]]


def unescaped(cell: str) -> str:
    return cell[1:] if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS) else cell


async def test_standings_pairings_and_results_read_back(store: Store) -> None:
    record = await stored_tournament(store)
    about, ranked, pairings, results = sections(tournament_csv(record, "en"))
    assert [s[0] for s in (about, ranked, pairings, results)] == [
        ["Tournament"],
        ["Standings"],
        ["Pairings"],
        ["Game results"],
    ]
    settings = {row[0]: row[1] for row in about[1:]}
    per_place = next(row[1:] for row in about if row[0] == "Points per place")
    assert per_place == ["6", "4", "2", "1"]  # one number a cell, as the organiser gave them
    assert settings["Format"] == "swiss" and settings["Round deadline (days)"] == "3"
    assert datetime.fromisoformat(settings["Created (UTC)"]).replace(tzinfo=UTC) == NOW

    rows = by_header(
        ranked, "en", "place", "player_id", "points", "opponents", "share", "total_score", "byes"
    )
    assert [int(r["player_id"]) for r in rows] == [s.user_id for s in record.standings]
    assert [r["place"] for r in rows] == [str(n) for n in range(1, len(PLAYERS) + 1)]
    for row, standing in zip(rows, record.standings, strict=True):
        assert float(row["points"]) == standing.points
        assert float(row["opponents"]) == standing.opponents_points
        assert float(row["share"]) == pytest.approx(standing.winner_share, abs=1e-4)
        assert int(row["total_score"]) == standing.total_score
    assert rows[0]["player_id"] == "1002" and rows[0]["points"] == "6"  # won at 45
    bye = next(r for r in rows if r["player_id"] == str(BYE))
    assert bye["byes"] == "1" and bye["points"] == "4"  # the round's average: 24 / 6

    assert pairings[1][:6] == ["Round", "Final table", "Deadline (UTC)", "Table", *pairings[1][4:6]]
    assert pairings[1][6:] == ["Seat 1", "Seat 2", "Seat 3"]
    table_rows = [(r[0], r[1], r[3], r[5], *r[6:]) for r in pairings[2:]]
    assert table_rows == [
        ("1", "0", "1", "finished", "Ada", "王小明", "さくら"),
        ("1", "0", "2", "finished", "'" + PLAYERS[1004], "'-Bob", "'@admin"),
        ("1", "0", "", "bye", "'＋Dana"),
        ("2", "1", "1", "active", "Ada", "さくら", "'＋Dana"),
    ]
    deadline = datetime.fromisoformat(pairings[5][2]).replace(tzinfo=UTC)
    assert deadline == NOW + timedelta(days=3)

    seats = by_header(
        results,
        "en",
        "round",
        "table",
        "game_number",
        "seat",
        "player_id",
        "rank",
        "score",
        "points",
        "forfeit",
        "by_organiser",
        "reason",
        "decided_by",
        "ended",
    )
    assert [
        (r["table"], r["seat"], r["player_id"], r["rank"], r["score"], r["points"]) for r in seats
    ] == [
        ("1", "1", "1001", "2", "30", "4"),
        ("1", "2", "1002", "1", "45", "6"),
        ("1", "3", "1003", "3", "12", "2"),
        ("2", "1", "1004", "3", "-3", "2"),
        ("2", "2", "1005", "1", "20", "6"),
        ("2", "3", "1006", "2", "20", "4"),
    ]
    assert [r["forfeit"] for r in seats] == ["0", "0", "0", "1", "0", "0"]
    assert [r["by_organiser"] for r in seats] == ["0"] * 3 + ["1"] * 3
    assert {r["reason"] for r in seats[3:]} == {"'" + REASON}
    assert {r["decided_by"] for r in seats[3:]} == {str(ORGANISER)}
    for row in seats:
        game = record.games[int(row["game_number"])]
        assert game.ended_at is not None
        ended = datetime.fromisoformat(row["ended"]).replace(tzinfo=UTC)
        assert abs(ended - game.ended_at) < timedelta(seconds=1)


@pytest.mark.parametrize("locale", ["en", "zh-TW", "ja"])
async def test_headers_in_the_readers_language_and_names_through_excels_bom(
    store: Store, locale: str
) -> None:
    record = await stored_tournament(store)
    data = tournament_csv(record, locale).encode()
    assert data.startswith(b"\xef\xbb\xbf")  # Excel reads the file as UTF-8
    about, ranked, pairings, results = sections(data.decode("utf-8"))
    assert about[0] == [t(locale, "export.section.about")]
    assert ranked[1][:3] == [t(locale, f"export.{key}") for key in ("place", "player_id", "player")]
    assert results[1][-1] == t(locale, "export.ended")
    assert pairings[1][-1] == t(locale, "export.seat_n", seat=3)
    names = {r["player_id"]: r["player"] for r in by_header(ranked, locale, "player_id", "player")}
    assert names["1002"] == "王小明" and names["1003"] == "さくら"
    if locale != "en":  # the headers are not the English ones
        assert ranked[1][2] != t("en", "export.player")


async def test_names_a_spreadsheet_would_run_are_text(store: Store) -> None:
    record = await stored_tournament(store)
    cells = [
        cell
        for section in sections(tournament_csv(record, "en"))
        for row in section
        for cell in row
    ]
    formulas = [cell for cell in cells if cell.startswith(FORMULA_STARTS)]
    # numbers may start with a minus: they are numbers, not formulas
    assert all(float(cell) < 0 for cell in formulas), formulas
    assert "-3" in formulas
    for name in [*PLAYERS.values(), REASON, "=Winter Cup"]:
        escaped = "'" + name if name.startswith(FORMULA_STARTS) else name
        assert escaped in cells, name
        assert unescaped(escaped) == name


async def test_a_void_table_and_a_settled_abandoned_game(store: Store) -> None:
    """A round seated again keeps its void table in the pairings; a game abandoned after a
    player left is in the results as the standings settled it, that seat played out by the
    AI."""
    made = await store.create_tournament(
        replace(a_tournament(TournamentPlayer(1001, "Ada")), table_size=2)
    )
    await store.join_tournament(made.id, 1002, "王小明")
    await store.add_round(made.id, 1, [(1002, 1001)], ())
    await store.void_round_tables(made.id, 1)
    await store.add_round(made.id, 1, [(1001, 1002)], (), first_number=2)
    game = await play_table(store, made.id, 1, 2, (1001, 1002))
    await store.resign_seat(game, 0)
    await store.abandon_table(game)
    tournament = await store.get_tournament(made.id)
    assert tournament is not None
    settled = standings.TableResult(1, (1001, 1002), (2, 1), (14, 9), (True, False))
    ranked = standings.standings([1001, 1002], [settled], {}, None, None)
    record = await load_record(store, tournament, ranked, [settled])
    about, _, pairings, results = sections(tournament_csv(record, "zh-TW"))
    per_place = next(row[1:] for row in about if row[0] == t("zh-TW", "export.place_points"))
    assert per_place == ["10", "4"]  # the default points at tables of two
    assert [(r[3], r[5], *r[6:]) for r in pairings[2:]] == [
        ("1", "void", "王小明", "Ada"),
        ("2", "abandoned", "Ada", "王小明"),
    ]
    seats = by_header(results, "zh-TW", "table", "player_id", "rank", "score", "played_by_ai")
    assert seats == [
        {"table": "2", "player_id": "1001", "rank": "2", "score": "14", "played_by_ai": "1"},
        {"table": "2", "player_id": "1002", "rank": "1", "score": "9", "played_by_ai": "0"},
    ]
