"""`meeple-hall migrate-db --check-only`: the check alone, run again on a copy made before
(one whose check was interrupted can be checked after all); a copy that differs is reported
and the command fails."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import asyncpg
import pytest

from meeple_hall.bot.store.transfer import CHECKING, transfer
from meeple_hall.cli import main
from tests.store.test_transfer import filled_sqlite


@pytest.fixture
def backend() -> str:
    return "postgres"  # the target; the source is a SQLite file of the test's own


class Interrupted(KeyboardInterrupt):
    """A Ctrl+C arriving while migrate-db checks the copy it has just committed."""


def interrupt_the_check(line: str) -> None:
    print(line)
    if line == CHECKING:
        raise Interrupted


def test_a_copy_whose_check_was_interrupted_is_checked_with_check_only(
    tmp_path, postgres_url, capsys
):
    path = tmp_path / "old.db"
    asyncio.run(filled_sqlite(path))
    source = f"sqlite:///{path}"
    with pytest.raises(Interrupted):
        asyncio.run(transfer(source, postgres_url, say=interrupt_the_check))
    assert "actions" in capsys.readouterr().out  # the copy was made and committed
    with pytest.raises(SystemExit, match="the target database is not empty"):
        main(["migrate-db", "--from", source, "--to", postgres_url])

    main(["migrate-db", "--check-only", "--from", source, "--to", postgres_url])
    out = capsys.readouterr().out
    assert "3 games replayed to the same state on both sides" in out
    assert out.rstrip().endswith("the copy is checked")
    assert "rows" not in out  # nothing copied


async def tamper(url: str, ids: dict[str, int]) -> None:
    """A seat renamed, a move's record lost (as a copy cut short would), a preference
    changed: three differences."""
    db = await asyncpg.connect(url)
    try:
        await db.execute(
            "UPDATE seats SET name = 'Eve' WHERE table_id = $1 AND position = 0", ids["coffee"]
        )
        await db.execute("ALTER TABLE actions DISABLE TRIGGER USER")
        await db.execute(
            "DELETE FROM actions WHERE table_id = $1 AND seq = (SELECT max(seq) FROM actions"
            " WHERE table_id = $1)",
            ids["village"],
        )
        await db.execute("UPDATE user_prefs SET turn_dms = NOT turn_dms WHERE user_id = 1001")
    finally:
        await db.close()


def test_check_only_reports_a_copy_that_differs_and_fails(tmp_path, postgres_url, capsys):
    path = tmp_path / "old.db"
    ids = asyncio.run(filled_sqlite(path))
    source = f"sqlite:///{path}"
    main(["migrate-db", "--from", source, "--to", postgres_url])
    asyncio.run(tamper(postgres_url, ids))
    capsys.readouterr()

    with pytest.raises(SystemExit, match="the copy differs in 3 places"):
        main(["migrate-db", "--check-only", "--from", source, "--to", postgres_url])
    out = capsys.readouterr().out
    assert f"  table {ids['coffee']} differs in seats" in out
    assert f"  table {ids['village']}: the action logs differ" in out
    assert "  the preferences of user 1001 differ" in out
    assert "the copy is checked" not in out

    # The command itself, as an operator runs it: the same report, and a failing exit code.
    command = ["migrate-db", "--check-only", "--from", source, "--to", postgres_url]
    run = subprocess.run(
        [sys.executable, "-m", "meeple_hall", *command],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1
    # (more places there: the test game Pebbles is known to the tests' process only)
    assert "migrate-db: the copy differs in" in run.stderr
    assert f"  table {ids['coffee']} differs in seats" in run.stdout


def test_check_only_of_an_empty_database_says_what_is_missing(tmp_path, postgres_url, capsys):
    path = tmp_path / "old.db"
    asyncio.run(filled_sqlite(path))
    with pytest.raises(SystemExit, match="the copy differs in"):
        main(["migrate-db", "--check-only", "--from", f"sqlite:///{path}", "--to", postgres_url])
    out = capsys.readouterr().out
    assert "  table 1 is missing from the copy" in out


def test_check_only_needs_a_sqlite_file_and_a_postgresql_database(tmp_path, postgres_url):
    with pytest.raises(SystemExit, match="no SQLite database"):
        main(
            [
                "migrate-db",
                "--check-only",
                "--from",
                f"sqlite:///{tmp_path / 'none.db'}",
                "--to",
                postgres_url,
            ]
        )
    assert not (tmp_path / "none.db").exists()
    with pytest.raises(SystemExit, match="must name a PostgreSQL"):
        main(["migrate-db", "--check-only", "--from", f"sqlite:///{tmp_path}/a.db", "--to", "b.db"])
