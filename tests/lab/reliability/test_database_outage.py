"""The database goes away mid-crawl: a locked SQLite file, a stopped PostgreSQL. Within the store's retry limit
the crawl waits and loses nothing; past it, it stops cleanly saying why, and a ``JOBDIR`` resume completes it."""

from reliability_fixtures import postgres_fixture, workspace_fixture  # noqa: F401 (fixtures)
from servers import PostgresServer

from lab.reliability.postgres import pg_ctl
from lab.reliability.scenarios import Workspace, postgres_stopped, sqlite_locked


def test_sqlite_lock_within_the_retry_limit_loses_nothing(workspace: Workspace) -> None:
    outcome = sqlite_locked(workspace, "lockshort", seconds=4, write_attempts=4)
    assert outcome.held, outcome
    assert outcome.figures["finish_reason"] == "finished"
    assert outcome.figures["store/write_retries"] > 0


def test_sqlite_lock_beyond_the_limit_stops_cleanly_and_resumes(workspace: Workspace) -> None:
    outcome = sqlite_locked(workspace, "locklong", seconds=12, write_attempts=2)
    assert outcome.held, outcome
    assert outcome.figures["finish_reason"] == "database_error"
    assert outcome.figures["resume_finish_reason"] == "finished"


def test_postgres_stopped_for_ten_seconds_loses_nothing(workspace: Workspace, postgres: PostgresServer) -> None:
    url = postgres.create_database("journals_outage")
    outcome = postgres_stopped(
        workspace, url, stop=lambda: pg_ctl(postgres, "stop"), start=lambda: pg_ctl(postgres, "start"), seconds=10
    )
    assert outcome.held, outcome
    assert outcome.figures["store/write_retries"] > 0
