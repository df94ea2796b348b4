"""Session fixtures of the operations tests: real PostgreSQL, Redis and scrapyd servers, stopped at the end.

Test modules import them (as ``*_fixture``; pytest knows them by ``name``): a second ``conftest.py`` would shadow
``tests/conftest.py``, which other tests import as ``conftest``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from servers import PostgresServer, RedisServer, ScrapydServer


@pytest.fixture(scope="session", name="postgres")
def postgres_fixture() -> Iterator[PostgresServer]:
    """A throwaway PostgreSQL cluster for the session."""
    server = PostgresServer.start()
    yield server
    server.stop()


@pytest.fixture(scope="session", name="redis_server")
def redis_server_fixture() -> Iterator[RedisServer]:
    """A throwaway redis-server for the session, with the project's configuration (settings/redis.conf)."""
    server = RedisServer.start()
    yield server
    server.stop()


@pytest.fixture(scope="session", name="scrapyd_database")
def scrapyd_database_fixture(postgres: PostgresServer) -> str:
    """The database scrapyd's jobs write to (``DATABASE_URL`` in scrapyd's environment)."""
    return postgres.create_database("journals_scrapyd")


@pytest.fixture(scope="session", name="scrapyd")
def scrapyd_fixture(scrapyd_database: str) -> Iterator[ScrapydServer]:
    """A scrapyd started with ``make scrapyd`` on a free port, with credentials; its jobs use PostgreSQL."""
    server = ScrapydServer.start(env={"DATABASE_URL": scrapyd_database})
    yield server
    server.stop()
