"""The rules of the real web (:mod:`lab.reliability.rules`), each a crawl of a small local site as a user runs it:
a robots.txt that cannot be read shuts the site, a rate-limited site is crawled whole (only slower), ``Retry-After``
is waited for, a page nested 300 deep is read, and a password in a URL neither crashes the crawl nor shows."""

from __future__ import annotations

import csv
import itertools
import json
import re
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from journals.csv_cells import defuse_formula
from lab.reliability.harness import url_path
from lab.reliability.rules import CHARSET_RULES, DISALLOWING, HIDDEN_WORD, RETRY_AFTER, rules_crawl

ROBOTS_SETTINGS = ("DOWNLOAD_TIMEOUT=2", "RETRY_TIMES=1")
"""A robots.txt that never answers is given up after two tries of 2 s."""


@pytest.mark.parametrize("rule", DISALLOWING)
def test_a_robots_txt_that_cannot_be_read_shuts_the_site(tmp_path: Path, rule: str) -> None:
    run = rules_crawl(tmp_path, rule, ROBOTS_SETTINGS)
    assert run.pages_served == [], f"{rule}: pages fetched beside robots.txt"
    assert run.result.returncode == 3, run.result.log[-2000:]
    # A robots.txt that answered says the start page was forbidden; one that could not be fetched, why.
    assert "could not be fetched" in " ".join(run.result.stats.get("health/reasons", []))
    kind = "truncated" if rule in ("robots-oversize", "robots-gzip") else "unreachable"
    assert run.result.stats.get(f"robotstxt/{kind}") == 1
    lines = [line for line in run.result.log.splitlines() if "[journals.downloadermiddlewares.robotstxt] WARNING" in line]
    assert len(lines) == 1, lines
    assert "Traceback" not in run.result.log


def test_a_missing_robots_txt_allows_the_whole_site(tmp_path: Path) -> None:
    run = rules_crawl(tmp_path, "robots-404")
    assert run.result.returncode == 0, run.result.log[-2000:]
    assert run.journals_lost == []
    assert run.result.stats.get("robotstxt/unavailable") == 1


@pytest.mark.parametrize("settings_module", ["settings.default", "settings.production"])
def test_a_rate_limited_site_is_crawled_whole_only_slower(
    tmp_path: Path, settings_module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCRAPY_SETTINGS_MODULE", settings_module)
    run = rules_crawl(tmp_path, "rate-limit", ("AUTOTHROTTLE_START_DELAY=0.05",))
    refused = [path for _, path, status in run.server.served if status == 429]
    assert refused, "the site never refused a request: the test shows nothing"
    assert run.journals_lost == [], run.result.log[-3000:]
    assert run.result.returncode == 0, run.result.log[-3000:]
    assert run.result.stats.get("ratelimit/retries", 0) >= len(refused) - 1
    assert not run.result.stats.get("ratelimit/gave_up")


def test_retry_after_is_waited_for_and_the_page_kept(tmp_path: Path) -> None:
    run = rules_crawl(tmp_path, "retry-after")
    answers = run.server.answers(run.server.retry_after_path)
    assert [status for _, status in answers] == [429, 429, 200]
    gaps = [later - earlier for (earlier, _), (later, _) in itertools.pairwise(answers)]
    assert all(gap >= RETRY_AFTER - 0.05 for gap in gaps), gaps
    assert run.journals_lost == []


def test_a_listing_nested_300_deep_gives_every_journal(tmp_path: Path) -> None:
    run = rules_crawl(tmp_path, "deep")
    assert run.journals_lost == [], run.result.log[-2000:]
    assert run.result.returncode == 0


def test_a_password_in_urls_neither_crashes_nor_shows(tmp_path: Path) -> None:
    run = rules_crawl(tmp_path, "credentials")
    assert run.result.returncode == 0, run.result.log[-2000:]
    assert run.journals_lost == []
    assert "Traceback" not in run.result.log and "ValueError" not in run.result.log
    assert HIDDEN_WORD not in run.result.log
    assert _database_holds(tmp_path / "credentials.db", HIDDEN_WORD) == []


def _database_holds(path: Path, secret: str) -> list[str]:
    """The tables of an SQLite database with a row holding ``secret``."""
    engine = create_engine(f"sqlite:///{path}")
    found = []
    try:
        with engine.connect() as conn:
            tables = [row[0] for row in conn.execute(text("SELECT name FROM sqlite_master WHERE type = 'table'"))]
            for table in tables:
                if not re.fullmatch(r"\w+", table):
                    continue
                if any(secret in str(row) for row in conn.execute(text(f"SELECT * FROM {table}"))):
                    found.append(table)
    finally:
        engine.dispose()
    return found


def test_a_journal_lost_to_a_redirect_loop_is_a_failed_page_logged_as_such(tmp_path: Path) -> None:
    run = rules_crawl(tmp_path, "redirect-loop")
    assert len(run.journals_lost) == 1, run.result.log[-2000:]
    assert run.result.stats.get("journals/failed_pages/redirect_loop") == 1
    assert "Page failed (redirect_loop)" in run.result.log


@pytest.mark.parametrize("rule", [*CHARSET_RULES, "charset-euc_kr", "charset-cp1253"])
def test_journal_pages_in_an_undeclared_legacy_charset_keep_their_titles(tmp_path: Path, rule: str) -> None:
    run = rules_crawl(tmp_path, rule)
    assert run.result.returncode == 0, run.result.log[-2000:]
    assert run.journals_lost == []
    expected = {url_path(j["url"]): run.server.titles[j["values"]["title"]] for j in run.truth["journals"]}
    assert run.stored == expected


@pytest.mark.parametrize("rule", ["titles-hostile", "titles-hostile-other"])
def test_hostile_titles_are_stored_as_shown_and_defused_only_in_the_csv(tmp_path: Path, rule: str) -> None:
    feeds = {str(tmp_path / "journals.json"): {"format": "json"}, str(tmp_path / "journals.csv"): {"format": "csv"}}
    run = rules_crawl(tmp_path, rule, (f"FEEDS={json.dumps(feeds)}",))
    assert run.result.returncode == 0, run.result.log[-2000:]
    hostile = set(run.server.titles.values())
    assert len(hostile) == 8
    stored = {title for title in run.stored.values() if title in hostile}
    assert stored == hostile
    exported = {item["title"] for item in json.loads((tmp_path / "journals.json").read_text(encoding="utf-8"))}
    assert hostile <= exported
    cells = {row["title"] for row in csv.DictReader((tmp_path / "journals.csv").open(encoding="utf-8"))}
    assert {defuse_formula(title) for title in hostile} <= cells
