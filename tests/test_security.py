"""Security checks: no secret in the repository, no remote-access service on, a crawl stays on its site and obeys
robots.txt. scrapyd refusing requests without its credentials is tested with a real scrapyd in
``tests/operations/test_scrapyd_deploy.py`` (``test_unauthenticated_requests_are_refused``,
``test_make_scrapyd_refuses_to_start_without_credentials``)."""

from __future__ import annotations

import importlib
import re
import subprocess
from pathlib import Path

import pytest
from conftest import PROJECT_ROOT, SANDBOX_JOURNALS, SANDBOX_SEED, run_scrapy, serve_sandbox
from scrapy.settings import Settings

from lab.crawlrun import stats_from_log

SECRET_ASSIGNMENT = re.compile(
    r"""(?i)(?:password|passwd|pwd|secret|token|api_?key|access_?key)\w*['"]?\s*[:=]\s*['"]([^'"\s]{4,})['"]"""
)
CREDENTIALS_IN_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://[^/\s:@'\"]+:([^@\s/'\"]+)@")
PRIVATE_KEY = re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----")
PLACEHOLDERS = re.compile(r"^(?:SECRET|PASSWORD|\.\.\.|\*+|<[^>]*>|\$\{?\w+\}?|x+)$", re.IGNORECASE)
"""Values that stand for a secret in docs and examples: ``SECRET``, ``...``, ``<password>``, ``$VAR``."""
FIXTURE_DIRS = ("tests/",)
"""Test fixtures may carry made-up credentials (a refused scrapyd login, a database URL that must be hidden)."""
SETTINGS_MODULES = ("settings.default", "settings.production", "settings.distributed")


def tracked_text_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=PROJECT_ROOT, capture_output=True, check=True).stdout
    paths = [PROJECT_ROOT / name for name in listed.decode().split("\0") if name]
    return [p for p in paths if p.is_file() and not p.relative_to(PROJECT_ROOT).as_posix().startswith(FIXTURE_DIRS)]


def secrets_in(text: str) -> list[str]:
    """Password-like literals of ``text`` that are not placeholders."""
    found = [m[0] for m in PRIVATE_KEY.finditer(text)]
    for pattern in (SECRET_ASSIGNMENT, CREDENTIALS_IN_URL):
        found += [m[0] for m in pattern.finditer(text) if not PLACEHOLDERS.match(m[1])]
    return found


def test_the_scan_finds_what_it_looks_for() -> None:
    assert secrets_in('DATABASE_URL = "postgresql://journals:hunter22@db/journals"')
    assert secrets_in("SCRAPYD_PASSWORD = 'correct-horse'")
    assert secrets_in("-----BEGIN OPENSSH PRIVATE KEY-----")
    assert not secrets_in("export DATABASE_URL=postgresql+psycopg://journals:SECRET@db.example/journals")
    assert not secrets_in('password = os.environ.get("SCRAPYD_PASSWORD", "")')


def test_no_secret_in_the_repository() -> None:
    found = {}
    for path in tracked_text_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if hits := secrets_in(text):
            found[path.relative_to(PROJECT_ROOT).as_posix()] = hits
    assert found == {}


@pytest.mark.parametrize("module", SETTINGS_MODULES)
def test_remote_access_services_are_off(module: str) -> None:
    settings = Settings()
    settings.setmodule(importlib.import_module(module))
    assert settings.getbool("TELNETCONSOLE_ENABLED") is False
    assert settings.getbool("REMOTE_CONTROL_ENABLED") is False
    assert settings.getbool("ROBOTSTXT_OBEY") is True
    extensions = settings.get_component_priority_dict_with_base("EXTENSIONS")
    assert not {name for name in extensions if name.endswith((".RemoteControl", ".TelnetConsole"))}, "not even loaded"


def test_a_crawl_stays_on_its_site_and_obeys_robots_txt(tmp_path: Path) -> None:
    """Every request the spider made reached the sandbox; none asked for a disallowed path; a disallowed start
    URL is refused by robots.txt, never fetched (and the crawl, having found nothing, fails its health check)."""
    sandbox = serve_sandbox(SANDBOX_SEED, SANDBOX_JOURNALS)
    database = f"DATABASE_URL=sqlite:///{tmp_path / 'journals.db'}"
    try:
        result = run_scrapy("crawl", "bmj", "-a", f"start_url={sandbox.start_url('bmj')}", "-s", database)
        assert result.returncode == 0, result.stderr[-3000:]
        stats = stats_from_log(result.stderr)
        requests = sandbox.server.requests_per_path  # keyed "path?query"
        paths = {key.split("?", 1)[0] for key in requests}
        assert sum(requests.values()) == stats["downloader/request_count"]
        assert stats["robotstxt/response_count"] == 1
        assert all(path.startswith("/bmj/") for path in paths if path != "/robots.txt")
        assert not [path for path in paths if "/search" in path or "/admin/" in path or path.startswith("/private/")]

        disallowed = run_scrapy("crawl", "publisher", "-a", f"start_url={sandbox.base_url}/private/", "-s", database)
        assert disallowed.returncode == 3, disallowed.stderr[-3000:]
        assert (
            f"Crawl health check failed: private: start page {sandbox.base_url}/private/ could not be fetched: "
            "forbidden by robots.txt" in disallowed.stderr
        )
        assert stats_from_log(disallowed.stderr)["robotstxt/forbidden"] == 1
        assert not [key for key in sandbox.server.requests_per_path if key.startswith("/private/")]
    finally:
        sandbox.server.shutdown()
        sandbox.server.server_close()
