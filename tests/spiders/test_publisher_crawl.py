"""Real crawls over HTTP of the sandbox web: every journal of every site is reached, exactly once."""

from collections import Counter
from pathlib import Path

import pytest
from conftest import RunningSandbox, read_items, run_scrapy

from journals.domain.sites import real_sites

PUBLISHERS = tuple(site.name for site in real_sites())


def crawl(spider: str, tmp_path: Path, *args: str) -> list[dict]:
    feed = tmp_path / f"{spider}.jsonl"
    result = run_scrapy(
        "crawl", spider, *args, "-O", str(feed), "-s", f"DATABASE_URL=sqlite:///{tmp_path / 'journals.db'}"
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    return read_items(feed)


def test_generic_spider_reaches_every_journal_of_every_site(sandbox: RunningSandbox, tmp_path: Path) -> None:
    sites = sandbox.truth["sites"]
    starts = ",".join(sandbox.start_url(site) for site in sites)
    items = crawl("publisher", tmp_path, "-a", f"start_urls={starts}")
    found = Counter((item["source"], item["url"]) for item in items)
    assert max(found.values()) == 1, "no journal is yielded twice"
    for site, truth in sites.items():
        expected = {journal["url"] for journal in truth["journals"]}
        assert {url for source, url in found if source == site} == expected, site


@pytest.mark.parametrize("spider", PUBLISHERS)
def test_site_spider_runs_on_its_sandbox_twin(spider: str, sandbox: RunningSandbox, tmp_path: Path) -> None:
    items = crawl(spider, tmp_path, "-a", f"start_url={sandbox.start_url(spider)}")
    assert {item["source"] for item in items} == {spider}
    assert {item["url"] for item in items} == {j["url"] for j in sandbox.truth["sites"][spider]["journals"]}
    titles = {j["url"]: j["values"]["title"] for j in sandbox.truth["sites"][spider]["journals"]}
    assert all(item["title"] == titles[item["url"]] for item in items)


def test_bad_arguments_are_one_line_errors(tmp_path: Path) -> None:
    for args, message in (
        (
            ["publisher", "-a", "start_url=not a url"],
            "start_url must be an absolute http(s) URL with a valid port, got 'not a url'",
        ),
        (
            ["publisher", "-a", "start_url=http://x.org:99999/"],
            "start_url must be an absolute http(s) URL with a valid port, got 'http://x.org:99999/'",
        ),
        (["publisher"], "the publisher spider needs -a start_url=URL"),
        (["no-such-spider"], "no spider named 'no-such-spider'"),
        (["elsevier", "-s", "DATABASE_URL=nosuchdb://x"], "cannot use DATABASE_URL nosuchdb://x"),
        (["elsevier", "-s", "DATABASE_URL=postgresql+psycopg://u:secret@127.0.0.1:1/db"], "cannot connect to"),
    ):
        result = run_scrapy("crawl", *args, "-O", str(tmp_path / "x.jsonl"))
        assert result.returncode == 2
        assert f"error: {message}" in result.stderr
        assert "Traceback" not in result.stderr
        assert "secret" not in result.stderr
