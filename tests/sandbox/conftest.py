"""The 2,000-journal sandbox world the unseen sites' tests read (one per test worker, stopped at its end)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import RunningSandbox, serve_sandbox


@pytest.fixture(scope="session")
def world_2000() -> Iterator[RunningSandbox]:
    """Seed 1, 2,000 journals, served over real HTTP on a free port of 127.0.0.1, with its truth."""
    running = serve_sandbox(1, 2000)
    yield running
    running.server.shutdown()
    running.server.server_close()
