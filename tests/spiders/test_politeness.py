"""A crawl of the public web runs politely; a crawl of the sandbox on 127.0.0.1 keeps its speed (issue 26)."""

from __future__ import annotations

import logging

import pytest
from scrapy.crawler import AsyncCrawlerRunner

from journals.pages.scope import on_public_web
from journals.spiders.publisher import PublisherSpider
from settings import default

PROJECT_SETTINGS = {name: getattr(default, name) for name in dir(default) if name.isupper()}


def settings_for(start_url: str, **chosen: object) -> dict[str, object]:
    """The settings a crawl from ``start_url`` runs with, ``chosen`` given as with ``-s``."""
    crawler = AsyncCrawlerRunner(PROJECT_SETTINGS).create_crawler(PublisherSpider)
    for name, value in chosen.items():
        crawler.settings.set(name, value, priority="cmdline")
    PublisherSpider.from_crawler(crawler, start_url=start_url)
    names = ("DOWNLOAD_DELAY", "CONCURRENT_REQUESTS_PER_DOMAIN", "AUTOTHROTTLE_ENABLED")
    return {name: crawler.settings.get(name) for name in names}


def test_a_real_site_is_crawled_with_a_delay_two_requests_at_once_and_autothrottle() -> None:
    polite = settings_for("https://www.sciencedirect.com/browse/journals-and-books")
    assert polite == {"DOWNLOAD_DELAY": 1.0, "CONCURRENT_REQUESTS_PER_DOMAIN": 2, "AUTOTHROTTLE_ENABLED": True}


def test_the_sandbox_keeps_the_defaults_and_a_chosen_setting_wins() -> None:
    sandbox = settings_for("http://127.0.0.1:8000/elsevier/")
    assert sandbox["DOWNLOAD_DELAY"] == default.DOWNLOAD_DELAY
    assert sandbox["CONCURRENT_REQUESTS_PER_DOMAIN"] == default.CONCURRENT_REQUESTS_PER_DOMAIN
    assert settings_for("https://journals.example.org/", DOWNLOAD_DELAY=5)["DOWNLOAD_DELAY"] == 5


def test_a_crawl_of_the_public_web_without_a_contact_is_warned_about(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        settings_for("https://journals.example.org/")
        settings_for("https://journals.example.org/", USER_AGENT="journals (+mailto:me@example.org)")
    assert sum("names no contact" in record.getMessage() for record in caplog.records) == 1


@pytest.mark.parametrize(
    ("url", "public"),
    [
        ("https://www.nature.com/", True),
        ("http://127.0.0.1:8000/", False),
        ("http://localhost:8000/", False),
        ("http://publisher.test/journals", False),
        ("http://10.0.0.5/", False),
        ("http://[::1]:80/", False),
        ("http://93.184.216.34/", True),
    ],
)
def test_the_public_web_is_told_from_the_url_alone(url: str, public: bool) -> None:
    assert on_public_web(url) is public
