"""Shared fixtures: a sandbox publisher web served over real HTTP, running ``scrapy`` as a user would, and a fresh
SQLite database with the schema."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings as hypothesis_settings
from sqlalchemy import Engine

from journals.sandbox.relation import make_issn
from journals.sandbox.server import SandboxServer
from journals.sandbox.truth import world_truth
from journals.sandbox.web import SandboxWeb
from journals.settings_check import SETTING_RULES
from journals.store import create_schema, engine_from_url
from settings import default as default_settings

# The suite replays the same generated examples on every run, so CI is deterministic; `make fuzz` explores anew.
hypothesis_settings.register_profile("suite", derandomize=True)
hypothesis_settings.load_profile("suite")

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SANDBOX_SEED = 1
SANDBOX_JOURNALS = 300


PAGE_STORE = "journals.extensions.page_store.PageStore"


def project_defaults(**overrides: Any) -> dict[str, Any]:
    """The project's own settings (:data:`SETTING_RULES`) at their ``settings/default.py`` values, but the database
    (none), with the crawl's page store (the extension the project's spiders and pipelines keep pages in), then
    ``overrides``: for a component built on ``get_crawler``, which knows only Scrapy's defaults, since components
    read a project setting with no default of their own."""
    defaults = {
        name: getattr(default_settings, name)
        for name in SETTING_RULES
        if hasattr(default_settings, name) and name != "DATABASE_URL"
    }
    return {**defaults, "EXTENSIONS": {PAGE_STORE: default_settings.EXTENSIONS[PAGE_STORE]}, **overrides}


@dataclass
class RunningSandbox:
    """A sandbox web served on a free port, with its ground truth."""

    server: SandboxServer
    truth: dict[str, Any]

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return self.server.base_url

    def start_url(self, site: str) -> str:
        """The start URL of one sandbox site."""
        return f"{self.base_url}/{site}/"


def serve_sandbox(seed: int, journals: int) -> RunningSandbox:
    """Start a sandbox server in a daemon thread on a free port."""
    web = SandboxWeb(seed=seed, size=journals)
    server = SandboxServer(web, port=0)
    server.start_in_thread()
    return RunningSandbox(server=server, truth=world_truth(web, server.base_url))


@pytest.fixture(scope="session")
def sandbox() -> Iterator[RunningSandbox]:
    """The test suite's sandbox: seed 1, a few hundred journals, stopped at the end of the session."""
    running = serve_sandbox(SANDBOX_SEED, SANDBOX_JOURNALS)
    yield running
    running.server.shutdown()
    running.server.server_close()


@pytest.fixture(scope="session")
def world_2000() -> Iterator[RunningSandbox]:
    """Seed 1, 2,000 journals (the unseen sites' tests read it), stopped at the end of the session."""
    running = serve_sandbox(1, 2000)
    yield running
    running.server.shutdown()
    running.server.server_close()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Where the test's SQLite database lives: in a directory not made yet, which :func:`engine_from_url` creates."""
    return tmp_path / "db" / "journals.db"


@pytest.fixture
def engine(db_path: Path) -> Iterator[Engine]:
    """An engine on a fresh SQLite file (:func:`db_path`) with the schema, disposed after the test."""
    engine = engine_from_url(f"sqlite:///{db_path}")
    create_schema(engine)
    yield engine
    engine.dispose()


def run_scrapy(*args: str, env: dict[str, str] | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run ``scrapy ARGS`` in the project as a user would, returning the completed process."""
    # DATABASE_URL in the environment would override every test's -s DATABASE_URL: only the test's own counts.
    full_env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"} | (env or {})
    return subprocess.run(
        [sys.executable, "-m", "scrapy", *args],
        cwd=PROJECT_ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def read_items(path: Path) -> list[dict[str, Any]]:
    """The items of a JSON-lines feed."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


OWN_EDITORS = ("Ada Li", "Bea Okafor", "Chen Ito", "Dara Voss", "Eli Moreau", "Femi Sato", "Gus Berg")


def journal_own_value(n: int, text: str) -> str:
    """Journal ``n``'s value in place of a row's: its own ISSN, figures and editor (a learned rule that reads one
    value for every journal is a decoy, and is dropped, so test journals must differ as real ones do)."""
    if re.fullmatch(r"\d{4}-\d{3}[\dX]", text):
        return make_issn(int(text.replace("-", "")[:7]) + n)
    if re.fullmatch(r"\d+\.\d+", text):
        decimals = len(text.split(".")[1])
        return f"{float(text) + n / 10**decimals:.{decimals}f}"
    return OWN_EDITORS[(OWN_EDITORS.index(text) + n) % len(OWN_EDITORS)] if text in OWN_EDITORS else text
