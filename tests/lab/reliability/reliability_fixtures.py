"""Session fixtures of the reliability tests: a workspace over the test sandbox with its uninterrupted crawl, and
the operations tests' throwaway PostgreSQL, which the tests can stop and start again.

Test modules import them (as ``*_fixture``; pytest knows them by ``name``): a ``conftest.py`` here would shadow
``tests/conftest.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import RunningSandbox

from lab.reliability.scenarios import Workspace

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "operations"))  # tests/operations
from server_fixtures import postgres_fixture  # noqa: F401 (the fixture, re-exported)

SITES = ("elsevier", "wiley")
"""Two sites of the 300-journal test sandbox (156 journals, 333 pages, redirects included): enough requests that
Scrapy's duplicate filter reaches the disk before a late kill."""


_workspaces: dict[str, Workspace] = {}
"""One workspace per sandbox for the whole session: each test module that imports the fixture gets its own copy
of it, and the uninterrupted crawl is worth running once."""


@pytest.fixture(scope="session", name="workspace")
def workspace_fixture(sandbox: RunningSandbox, tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    """The sandbox's sites, a scratch folder, and the database of one uninterrupted crawl of it."""
    start_urls = ",".join(sandbox.start_url(site) for site in SITES)
    if start_urls not in _workspaces:
        workspace = Workspace(start_urls, tmp_path_factory.mktemp("reliability"))
        workspace.run_baseline()
        _workspaces[start_urls] = workspace
    return _workspaces[start_urls]
