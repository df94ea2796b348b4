"""The script-built sites' plain twins (``SandboxWeb(prerendered=True)``, ``scrapy sandbox --prerendered``): the same
truth, no script on their pages, and a crawl without a browser finds every journal with the truth's values."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from conftest import SANDBOX_JOURNALS, SANDBOX_SEED, read_items, run_scrapy
from lxml import html as lxml_html

from journals.extraction.evaluation import evaluate
from journals.sandbox.server import SandboxServer
from journals.sandbox.sources import SCRIPTED_NAMES
from journals.sandbox.truth import world_truth
from journals.sandbox.web import SandboxWeb

BASE = "http://127.0.0.1:1"


@pytest.fixture(scope="module")
def twin() -> SandboxWeb:
    return SandboxWeb(seed=SANDBOX_SEED, size=SANDBOX_JOURNALS, prerendered=True)


@pytest.fixture(scope="module")
def served_truth(twin: SandboxWeb) -> Iterator[dict]:
    """The twin served on a free port for the module's tests: its truth under the served URL."""
    server = SandboxServer(twin, port=0)
    server.start_in_thread()
    yield world_truth(twin, server.base_url)
    server.shutdown()
    server.server_close()


def page(web: SandboxWeb, url: str) -> lxml_html.HtmlElement:
    parts = urlsplit(url)
    response = web.respond(parts.path, parts.query, "127.0.0.1:1")
    assert response.status == 200, url
    return lxml_html.fromstring(response.body.decode())


def test_the_truth_is_the_same_in_both_modes(twin: SandboxWeb) -> None:
    scripted = SandboxWeb(seed=SANDBOX_SEED, size=SANDBOX_JOURNALS)
    assert world_truth(twin, BASE) == world_truth(scripted, BASE)
    assert not scripted.prerendered and twin.prerendered


def test_the_twins_pages_hold_their_lists_and_rows_and_run_no_script(twin: SandboxWeb) -> None:
    truth = world_truth(twin, BASE)["sites"]
    for name in SCRIPTED_NAMES:
        site = truth[name]
        pages = [site["start_url"], *site["listing_pages"], *(j["url"] for j in site["journals"][:30])]
        for url in pages:
            tree = page(twin, url)
            assert not tree.xpath("//script | //noscript | //*[@onclick] | //button"), url
        for url, records in site["listing_pages"].items():
            hrefs = {BASE + href for href in page(twin, url).xpath("//main//a/@href")}
            assert {r["url"] for r in records} <= hrefs, url
    app = page(twin, truth["scriptapp"]["journals"][0]["url"])
    labels = app.xpath("//div[@id='root']//th/text()")
    assert "Print ISSN" in labels and "CiteScore" in labels


def test_a_plain_crawl_of_the_twin_finds_every_journal_with_the_truths_values(
    served_truth: dict, tmp_path: Path
) -> None:
    truth = served_truth
    starts = ",".join(truth["sites"][name]["start_url"] for name in SCRIPTED_NAMES)
    feed = tmp_path / "items.jsonl"
    log = tmp_path / "crawl.log"
    result = run_scrapy(
        "crawl",
        "publisher",
        "-a",
        f"start_urls={starts}",
        "-O",
        str(feed),
        "-s",
        f"DATABASE_URL=sqlite:///{tmp_path / 'journals.db'}",
        "-s",
        f"LOG_FILE={log}",
        "-s",
        "LOG_LEVEL=INFO",
    )
    crawl_log = log.read_text(encoding="utf-8", errors="replace")
    assert result.returncode == 0, crawl_log[-3000:]
    assert "playwright/" not in crawl_log and "journals/rendering/" not in crawl_log, "no page rendered, no browser"
    report = evaluate(truth, read_items(feed), SCRIPTED_NAMES)
    for name in SCRIPTED_NAMES:
        score = report.sites[name]
        assert (score.matched, score.extra_items) == (score.journals, 0), name
        assert {a: cell.f1 for a, cell in score.cells.items()} == {a: 1.0 for a in score.cells}, name
