"""Session fixtures of the operations tests: real PostgreSQL, Redis and scrapyd servers, stopped at the end."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator

import pytest
from servers import PostgresServer, RedisServer, ScrapydServer

_database_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A throwaway PostgreSQL cluster for the session."""
    server = PostgresServer.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """A throwaway redis-server for the session."""
    server = RedisServer.start()
    yield server
    server.stop()


@pytest.fixture
def fresh_database(postgres: PostgresServer):
    """A factory of new, empty PostgreSQL databases: ``fresh_database()`` returns a URL."""

    def create() -> str:
        return postgres.create_database(f"journals_{os.getpid()}_{next(_database_numbers)}")

    return create


@pytest.fixture(scope="session")
def scrapyd_database(postgres: PostgresServer) -> str:
    """The database scrapyd's jobs write to (``DATABASE_URL`` in scrapyd's environment)."""
    return postgres.create_database("journals_scrapyd")


@pytest.fixture(scope="session")
def scrapyd(scrapyd_database: str) -> Iterator[ScrapydServer]:
    """A scrapyd started with ``make scrapyd`` on a free port, with credentials; its jobs use PostgreSQL."""
    server = ScrapydServer.start(env={"DATABASE_URL": scrapyd_database})
    yield server
    server.stop()
