"""The shipped migrations are read from their files once a process (a bot start makes a
store, and the test suite starts hundreds of bots); every store gets the same migrations in
a list of its own, and a folder of other migrations is read each time it is asked for."""

from __future__ import annotations

from pathlib import Path

import pytest

from meeple_hall.bot.store import open_store, schema
from meeple_hall.bot.store.schema import MIGRATIONS_DIR, load_migrations


def test_stores_read_the_shipped_migrations_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    read: list[object] = []
    reading = schema._scripts_by_version

    def counted(directory):  # type: ignore[no-untyped-def]
        read.append(directory)
        return reading(directory)

    monkeypatch.setattr(schema, "_scripts_by_version", counted)
    monkeypatch.setattr(schema, "_SHIPPED", {}, raising=False)
    stores = [open_store(f"sqlite:///{tmp_path}/{n}.db") for n in range(3)]
    assert read == [MIGRATIONS_DIR]
    first, *others = (store._migrations for store in stores)  # type: ignore[attr-defined]
    assert all(other == first and other is not first for other in others)
    assert load_migrations("pg") and read == [MIGRATIONS_DIR, MIGRATIONS_DIR]

    elsewhere = tmp_path / "migrations"
    elsewhere.mkdir()
    (elsewhere / "0001_initial.sql").write_text("CREATE TABLE t (x INTEGER);")
    assert load_migrations("sqlite", elsewhere) == load_migrations("sqlite", elsewhere)
    assert read[2:] == [elsewhere, elsewhere]
