"""The schema's history: one numbered list of migrations for both backends.

`migrations/NNNN_name.sql` is applied as it is on SQLite and on PostgreSQL; where the two
must differ (column types, triggers), the number has a pair instead,
`NNNN_name.sqlite.sql` and `NNNN_name.pg.sql`, under the same name. A database records each
migration it applied in its `schema_version` table as (version, name), the same pairs on
either backend, so a database written by any earlier version (which kept one folder a
backend, with the same numbers and names) is recognised as it is.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable

from meeple_hall.bot.store.base import StoreError
from meeple_hall.bot.store.dialect import sqlite_statements

MIGRATIONS_DIR = files(__package__) / "migrations"
DIALECTS = ("sqlite", "pg")
_MIGRATION_NAME = re.compile(r"(\d{4})_(\w+?)(?:\.(sqlite|pg))?\.sql")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        """The script cut into single statements, as SQLite runs it (a trigger's body
        stays whole)."""
        try:
            return sqlite_statements(self.sql)
        except StoreError:
            raise StoreError(
                f"migration {self.version:04d} ends with an incomplete statement"
            ) from None


# The shipped migrations as each dialect runs them, read once a process: a store is made at
# every bot start (and a test suite starts hundreds of bots), the files never change meanwhile.
_SHIPPED: dict[str, tuple[Migration, ...]] = {}


def load_migrations(dialect: str, directory: Traversable = MIGRATIONS_DIR) -> list[Migration]:
    """The migrations in `directory` as `dialect` ("sqlite" or "pg") runs them, numbered 1,
    2, 3 … without gaps. The shipped ones (MIGRATIONS_DIR) are read once a process."""
    if dialect not in DIALECTS:
        raise StoreError(f"no dialect {dialect!r}; the store speaks {', '.join(DIALECTS)}")
    if directory is not MIGRATIONS_DIR:
        return _read_migrations(dialect, directory)
    if dialect not in _SHIPPED:
        _SHIPPED[dialect] = tuple(_read_migrations(dialect, directory))
    return list(_SHIPPED[dialect])


def _read_migrations(dialect: str, directory: Traversable) -> list[Migration]:
    scripts = _scripts_by_version(directory)
    if not scripts:
        raise StoreError(f"no migrations in {directory} (were the .sql files left out?)")
    versions = sorted(scripts)
    if versions != list(range(1, len(versions) + 1)):
        raise StoreError(f"migrations must be numbered 1, 2, 3 … without gaps; found {versions}")
    migrations = []
    for version in versions:
        name, texts = scripts[version]
        sql = texts.get(None) or texts[dialect]
        migrations.append(Migration(version, name, sql))
    return migrations


def _scripts_by_version(
    directory: Traversable,
) -> dict[int, tuple[str, dict[str | None, str]]]:
    """Each version's name and its scripts: by dialect, or under None for both."""
    found: dict[int, list[tuple[str, str | None, Traversable]]] = defaultdict(list)
    for path in directory.iterdir():
        if not path.name.endswith(".sql"):
            continue
        match = _MIGRATION_NAME.fullmatch(path.name)
        if match is None:
            raise StoreError(
                f"migration file {path.name} is not named NNNN_name.sql"
                " (or NNNN_name.sqlite.sql with NNNN_name.pg.sql)"
            )
        found[int(match[1])].append((match[2], match[3], path))
    return {version: _one_version(version, files) for version, files in found.items()}


def _one_version(
    version: int, scripts: list[tuple[str, str | None, Traversable]]
) -> tuple[str, dict[str | None, str]]:
    names = {name for name, _, _ in scripts}
    dialects = sorted(dialect or "" for _, dialect, _ in scripts)
    if len(names) != 1 or dialects not in ([""], sorted(DIALECTS)):
        listed = ", ".join(sorted(path.name for _, _, path in scripts))
        raise StoreError(
            f"migration {version:04d} must be one NNNN_name.sql or a pair"
            f" NNNN_name.sqlite.sql and NNNN_name.pg.sql of one name; found {listed}"
        )
    texts = {dialect: path.read_text(encoding="utf-8") for _, dialect, path in scripts}
    return names.pop(), texts
