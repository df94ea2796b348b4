"""Issue 14's bars on the traps world: one crawl over every trap site (small bounds keep it short) stays on its
sites, ends by itself within its bounds, stores every real journal once, and fails its health check because the
endless-next and nested-letters traps made journals up, saying in its log which bound it hit.

A crawl that a trap holds is stopped by the harness's safety net (``CLOSESPIDER_PAGECOUNT``), never by the test's
timeout: the assertions then say how far the trap took it. A crawl that keeps to these bounds makes 193
requests (escape 19, endless-next 76, session-id 17, calendar 21, nested-letters 59, and robots.txt); the net is 600.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from journals.sandbox.traps import TRAP_KINDS
from lab.reliability.scenarios import Outcome
from lab.reliability.traps import MADE_UP_KINDS, traps_crawl

LISTING_PAGES = 10
INDEX_DEPTH = 3
SETTINGS = (f"CRAWL_MAX_LISTING_PAGES={LISTING_PAGES}", f"CRAWL_MAX_INDEX_DEPTH={INDEX_DEPTH}")


@pytest.fixture(scope="module")
def outcome(tmp_path_factory: pytest.TempPathFactory) -> Outcome:
    folder: Path = tmp_path_factory.mktemp("traps")
    return traps_crawl(folder, seed=1, settings=SETTINGS, safety_pages=600, safety_seconds=60)


def test_no_request_reaches_outside_through_links_redirects_meta_refresh_or_the_metrics_hop(outcome: Outcome) -> None:
    figures = outcome.figures
    assert figures["outside_listener_requests"] == 0, figures["escape"]
    assert figures["off_host_requests"] == 0, "a 302 to localhost:<port> was followed"
    # The two 302s and the meta refresh are hops only a downloader middleware sees: each is refused and counted.
    assert figures["scope_refused"] >= 3, figures


def test_each_trap_ends_by_itself_within_its_bound(outcome: Outcome) -> None:
    figures = outcome.figures
    assert figures["finish_reason"] == "finished", f"stopped by the safety net after {figures['requests']} requests"
    assert 0 < figures["endless-next"]["endless_letter_pages"] <= LISTING_PAGES
    assert 0 < figures["endless-next"]["repeat_letter_pages"] <= LISTING_PAGES
    assert 0 < figures["calendar"]["most_pages_of_a_letter"] <= LISTING_PAGES
    assert 1 < figures["nested-letters"]["deepest_sub_letter"] <= INDEX_DEPTH
    assert figures["session-id"]["most_requests_of_a_page"] == 1, "one page requested under several session ids"
    assert figures["bounds_hit"]["listing_pages"] > 0 and figures["bounds_hit"]["index_depth"] > 0


def test_every_real_journal_is_stored_and_none_twice(outcome: Outcome) -> None:
    for kind in TRAP_KINDS:
        figures = outcome.figures[kind]
        assert figures["real_journals"] == 6
        assert figures["real_journals_lost"] == 0, (kind, figures)
        assert figures["journals_stored_twice"] == 0, (kind, figures)
    for kind in ("escape", "session-id", "calendar"):
        assert outcome.figures[kind]["made_up_journals_stored"] == 0, (kind, outcome.figures[kind])


def test_the_crawl_fails_its_health_check_because_traps_made_journals_up(outcome: Outcome) -> None:
    figures = outcome.figures
    assert figures["exit_status"] == 3 and figures["health_failed"], figures["health_reasons"]
    for kind in MADE_UP_KINDS:
        assert figures[kind]["health_reasons"], (kind, figures["health_reasons"])
        assert figures[kind]["traps_reported"] > 0, kind
    unrelated = [reason for reason in figures["health_reasons"] if not any(kind in reason for kind in TRAP_KINDS)]
    assert unrelated == []
    came_to_nothing = [r for r in figures["health_reasons"] if "no journals found" in r or "could not be fetched" in r]
    assert came_to_nothing == [], "the crawl failed for a trap site that came to nothing, not for its trap"
    assert {"listing_pages", "index_depth"} <= set(figures["bounds_named_in_log"])


def test_the_harness_finds_no_bar_missed(outcome: Outcome) -> None:
    assert outcome.problems == []
