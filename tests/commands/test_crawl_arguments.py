"""``scrapy crawl``'s spider arguments: a bad ``render`` value and a misspelt argument are one line each, before
any crawl starts; scrapyd's own arguments pass."""

from __future__ import annotations

import pytest
from conftest import run_scrapy

from journals.commands.crawl import unknown_argument
from journals.spiders.publisher import PublisherSpider
from journals.spiders.sites import SiteSpider


@pytest.mark.parametrize(
    ("argument", "line"),
    [
        ("render=sometimes", "error: -a render must be one of auto, browser, never, got 'sometimes'"),
        ("rendr=never", "error: unknown spider argument -a rendr (did you mean 'render'?); publisher takes: "),
    ],
)
def test_a_bad_spider_argument_is_one_line(tmp_path, argument, line):
    database = tmp_path / "journals.db"
    result = run_scrapy(
        "crawl", "publisher", "-a", "start_url=http://127.0.0.1:9/x/", "-a", argument,
        "-s", f"DATABASE_URL=sqlite:///{database}",
    )  # fmt: skip
    assert result.returncode != 0
    assert line in result.stderr
    assert "Traceback" not in result.stderr and "Crawler.stats" not in result.stderr
    assert not database.exists()  # refused before the database is opened


def test_the_arguments_every_spider_takes_and_scrapyds_pass():
    for spider in (PublisherSpider, SiteSpider):
        assert unknown_argument(spider, {"start_url": "u", "start_urls": "u", "source": "s", "render": "never"}) is None
        assert unknown_argument(spider, {"_job": "abc", "_version": "1"}) is None
    assert "did you mean 'source'" in (unknown_argument(PublisherSpider, {"sourse": "s"}) or "")


def test_crawl_help_lists_the_spider_arguments():
    result = run_scrapy("crawl", "-h")
    assert result.returncode == 0
    text = " ".join(result.stdout.split())
    assert "Spider arguments: start_url, start_urls, source" in text and "render (auto, browser or never" in text
