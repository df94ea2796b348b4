"""The generic spider on real publishers' journal lists, replayed offline under their original URLs: it finds
the list wherever it is (a table with metrics per row, subject boxes inside ``<nav>``, cards, plain lists) and
requests every journal on it, and little else."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from journals.replay.pages import SavedPage, load_saved_pages
from journals.replay.proxy import ReplayServer
from lab.replay.evaluation import evaluate_list

LISTS = {page.name: page for page in load_saved_pages() if page.kind == "list"}
CRAWLED = ("mdpi-about-journals-table", "omics-open-access-journals-list", "longdom-journals-by-title")
"""The three list shapes the suite crawls (a table with metrics per row, subject boxes inside ``<nav>``, cards);
``make eval-real`` crawls all five."""
BAR = 0.95
"""Issue 13's bar: recall and precision of every real list page."""


@pytest.fixture(scope="module")
def replay() -> Iterator[ReplayServer]:
    """The replay proxy serving every real list page (every other URL gets a stub journal page)."""
    server = ReplayServer.for_saved_pages(list(LISTS.values()))
    server.start_in_thread()
    yield server
    server.stop()


@pytest.mark.parametrize("name", CRAWLED)
def test_every_journal_of_a_real_list_is_requested(name: str, replay: ReplayServer) -> None:
    page: SavedPage = LISTS[name]
    result = evaluate_list(page, replay, timeout=60)
    assert result.finish_reason == "finished"
    assert result.score.recall >= BAR, (result.score.reached, result.score.expected)
    assert result.score.precision >= BAR, (result.score.items_expected, result.score.items)
    assert result.score.requests <= result.score.expected * 1.1 + 5, "no crawl of menus, stats or search pages"


def test_listed_journals_on_sister_hosts_are_followed_only_when_allowed(replay: ReplayServer) -> None:
    """omics lists 224 of its journals on sister hosts: with ``FOLLOW_LISTED_JOURNAL_HOSTS`` off, none is
    requested and every journal on the start host still is."""
    page = LISTS["omics-open-access-journals-list"]
    result = evaluate_list(page, replay, timeout=60, settings=["FOLLOW_LISTED_JOURNAL_HOSTS=False"])
    assert result.score.expected == 687
    assert result.score.reached == 463
    assert result.score.precision == 1.0
