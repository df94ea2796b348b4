"""End to end on the sites built from a description of the real web without reading the crawler (issues 23 and 24):
a real crawl over HTTP, rendering the script-built ones in Chromium, reaches every journal, stores nothing that is
not one, and reads each site's attributes.

Attributes a site's truth leaves out by its own convention are not held to the bar: the footer's copyright holder
of a press's own site (``rowlinks``, ``selectgo``, ``loadmore``, ``deferred``, ``hashbang``: the crawl stores it as
the publisher, the truth records none)
and the Spanish site's ``Editorial`` row (``areas``: an English page's "Editorial" is an article type, so the word
is no label). The prose site's editor named only in a sentence and its acceptance rate, and the tabs site's open
access shown only as a badge ("Open access" with no label), are known gaps.
"""

from __future__ import annotations

import re

import pytest

from journals.extraction.evaluation import evaluate, read_items
from journals.sandbox.sources import UNSEEN_NAMES
from tests.conftest import RunningSandbox, run_scrapy

KNOWN_GAPS = {
    ("rowlinks", "publisher"),
    ("selectgo", "publisher"),
    ("loadmore", "publisher"),
    ("deferred", "publisher"),
    ("hashbang", "publisher"),
    ("tabs", "open_access"),
    ("areas", "publisher"),
    ("prose", "editor_in_chief"),
    ("prose", "acceptance_rate"),
}
"""(site, attribute) pairs reported, not held to the bar (see the module's docstring)."""


@pytest.fixture(scope="module")
def crawl(sandbox: RunningSandbox, tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """One crawl of every unseen site."""
    work = tmp_path_factory.mktemp("unseen_crawl")
    feed = work / "items.jsonl"
    result = run_scrapy(
        "crawl",
        "publisher",
        "-a",
        "start_urls=" + ",".join(sandbox.start_url(site) for site in UNSEEN_NAMES),
        "-s",
        f"DATABASE_URL=sqlite:///{work / 'journals.db'}",
        "-O",
        str(feed),
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return {"report": evaluate(sandbox.truth, read_items(feed), UNSEEN_NAMES), "log": result.stderr}


def _stat(log: str, name: str) -> float:
    match = re.search(rf"'{re.escape(name)}': ([\d.]+)", log)
    return float(match[1]) if match else 0.0


@pytest.mark.parametrize("site", UNSEEN_NAMES)
def test_every_journal_is_found_and_nothing_else_is_stored(crawl: dict[str, object], site: str) -> None:
    score = crawl["report"].sites[site]  # type: ignore[attr-defined]
    assert (score.coverage, score.extra_items) == (1.0, 0)
    low = {name: round(cell.f1, 4) for name, cell in score.cells.items() if cell.f1 < 0.99}
    assert set(low) <= {name for gap_site, name in KNOWN_GAPS if gap_site == site}, low


def test_pages_linked_as_journals_are_read_for_what_they_are(crawl: dict[str, object]) -> None:
    log = str(crawl["log"])
    assert _stat(log, "journals/reclassified/listing") >= 1  # the Spanish site's subject areas
    assert _stat(log, "journals/unconfirmed") >= 1  # bysubject's partner pages
    assert "not stored, unconfirmed" in log
    assert _stat(log, "journals/requests_per_journal") > 1.0
