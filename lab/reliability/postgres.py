"""Stopping and starting the throwaway PostgreSQL server of the operations tests (``tests/operations/servers.py``).

That module, made for pytest, is reused rather than copied: ``make reliability`` puts its folder on ``sys.path``.
"""

from __future__ import annotations

import glob
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from lab.crawlrun import PROJECT_ROOT


def pg_ctl(server: Any, action: str) -> None:
    """``pg_ctl stop`` (fast: open connections are cut) or ``start`` with the options ``server`` started with.

    ``server`` is a ``servers.PostgresServer``.
    """
    data = str(server.root / "data")
    if action == "stop":
        server._run("pg_ctl", "-D", data, "-m", "fast", "-w", "stop")
        return
    options = f"-p {server.port} -k {server.root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    server._run("pg_ctl", "-D", data, "-l", str(server.root / "server.log"), "-o", options, "-w", "start")


def postgres_available() -> bool:
    """Whether Debian's PostgreSQL server binaries are installed."""
    return bool(glob.glob("/usr/lib/postgresql/*/bin/initdb"))


@contextmanager
def throwaway_server(kind: str) -> Iterator[Any]:
    """A server of the operations tests' ``servers`` module (``"PostgresServer"``, ``"RedisServer"``) on a free
    port, deleted on exit."""
    sys.path.insert(0, str(PROJECT_ROOT / "tests" / "operations"))
    import servers

    server = getattr(servers, kind).start()
    try:
        yield server
    finally:
        server.stop()


def throwaway_postgres() -> AbstractContextManager[Any]:
    """A ``servers.PostgresServer`` on a free port, deleted on exit."""
    return throwaway_server("PostgresServer")
