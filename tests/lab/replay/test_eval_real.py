"""``make eval-real``'s harness: a real crawl through the replay of one real list page is measured; the table,
the JSON and the exit statuses."""

from __future__ import annotations

import json

import pytest

from journals.replay.pages import load_saved_pages
from journals.replay.proxy import ReplayServer
from lab.replay.evaluation import evaluate_list, main

LIST_PAGE = "scitechnol-subscription-journals-list"
"""A small real list page (92 journals, 189 kB)."""
JOURNAL_PAGE = "peerj-article-4375"


@pytest.fixture(scope="module")
def saved():
    """The real saved pages, by name."""
    return {page.name: page for page in load_saved_pages()}


def test_real_crawl_of_one_list_page_is_measured(saved):
    page = saved[LIST_PAGE]
    server = ReplayServer.for_saved_pages([page])
    server.start_in_thread()
    try:
        result = evaluate_list(page, server, timeout=20)
    finally:
        server.stop()
    # Navigation is being changed elsewhere: assert that the harness measured, not what it measured.
    assert page.url in server.requested
    assert result.url == page.url
    assert result.score.expected == 92
    assert result.score.requests >= 1
    assert 0 <= result.score.reached <= 92
    assert 0.0 <= result.score.recall <= 1.0
    assert result.score.items_expected <= result.score.items
    assert result.finish_reason in ("finished", "closespider_timeout")


def test_one_table_and_the_figures_as_json(saved, tmp_path, capsys):
    figures = tmp_path / "real.json"
    assert main(["--only", JOURNAL_PAGE, "--json", str(figures)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[:4] == ["page", "kind", "recall", "precision"]
    assert lines[2].split()[:2] == [JOURNAL_PAGE, "journal"]
    assert lines[-1].startswith("total")
    data = json.loads(figures.read_text())
    assert data["lists"] == []
    (journal,) = data["journals"]
    assert set(journal["verdicts"]) == set(saved[JOURNAL_PAGE].expected)
    assert journal["shown"] == 3
    assert journal["right"] + journal["wrong"] + journal["missing"] >= 3


def test_harness_errors_exit_1(tmp_path, capsys):
    assert main(["--data", str(tmp_path)]) == 1
    assert "no manifest.json" in capsys.readouterr().err
    assert main(["--only", "no-such-page"]) == 1
    assert "no saved page named ['no-such-page']" in capsys.readouterr().err
