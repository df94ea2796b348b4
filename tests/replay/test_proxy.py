"""The replay proxy under a real Scrapy crawl: saved pages under their https and http URLs, stubs for the rest."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from scrapy import Request, Spider, signals
from scrapy.utils.defer import deferred_f_from_coro_f
from scrapy.utils.test import get_crawler

from journals.replay.proxy import ROBOTS_TXT, ReplayServer, stub_page, stub_title

LIST_URL = "https://journals.example.org/list"
LIST_HTML = (
    '<div class="az"><ul>'
    '<li><a href="/journal/alpha-studies.php">Alpha Studies</a></li>'
    '<li><a href="http://plain.example.net/beta_letters/">Beta Letters</a></li>'
    "</ul></div>"
)


@pytest.fixture
def proxy() -> Iterator[ReplayServer]:
    """The proxy on a free port of 127.0.0.1 with one saved fragment, stopped after the test."""
    server = ReplayServer({LIST_URL: LIST_HTML.encode()})
    server.start_in_thread()
    yield server
    server.stop()


class ListSpider(Spider):
    """Fetches the list under both schemes, follows its links once; one item per page."""

    name = "replay_fixture"

    async def start(self):
        """The saved page under its https URL, and under http with a trailing slash."""
        yield Request(LIST_URL, cb_kwargs={"follow": True})
        yield Request("http://journals.example.org/list/", cb_kwargs={"follow": False})

    def parse(self, response, follow: bool = False):
        """The page's URL, title and body; the links of the first list."""
        yield {"url": response.url, "title": response.css("title::text").get(), "body": response.text}
        if follow:
            yield from response.follow_all(css="a")


async def crawl_through(proxy: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> tuple[list[dict], dict]:
    """Crawl with ``http_proxy``/``https_proxy`` pointing at the proxy, as ``eval-real`` does."""
    for name in ("no_proxy", "NO_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("http_proxy", proxy.proxy_url)
    monkeypatch.setenv("https_proxy", proxy.proxy_url)
    items: list[dict] = []

    def keep(item: dict) -> None:
        items.append(item)

    crawler = get_crawler(ListSpider, {"ROBOTSTXT_OBEY": True, "HTTPCACHE_ENABLED": False, "RETRY_ENABLED": False})
    crawler.signals.connect(keep, signal=signals.item_scraped)
    await crawler.crawl_async()
    return sorted(items, key=lambda item: item["url"]), crawler.stats.get_stats()


@deferred_f_from_coro_f
async def test_crawl_gets_saved_page_under_https_and_http_and_stubs_for_the_rest(proxy, monkeypatch):
    items, stats = await crawl_through(proxy, monkeypatch)
    by_url = {item["url"]: item for item in items}
    assert by_url[LIST_URL]["body"] == LIST_HTML
    assert by_url["http://journals.example.org/list/"]["body"] == LIST_HTML
    assert by_url["https://journals.example.org/journal/alpha-studies.php"]["title"] == "alpha studies"
    assert by_url["http://plain.example.net/beta_letters/"]["title"] == "beta letters"
    assert len(items) == 4
    assert stats.get("downloader/exception_count") is None
    assert stats["robotstxt/response_status_count/200"] == 2
    assert "robotstxt/forbidden" not in stats

    requested = proxy.requested
    assert "https://journals.example.org/robots.txt" in requested  # through a CONNECT tunnel, over TLS
    assert "http://plain.example.net/robots.txt" in requested  # an absolute-URI GET (one robots.txt per host)
    assert "https://journals.example.org/journal/alpha-studies.php" in requested
    assert "http://plain.example.net/beta_letters/" in requested
    assert len([url for url in requested if not url.endswith("/robots.txt")]) == 4


def test_replies_without_a_crawl(proxy):
    assert proxy.reply("https://any.example.com/robots.txt").body == ROBOTS_TXT
    assert proxy.reply("http://JOURNALS.example.org/list#top").saved
    assert not proxy.reply("https://journals.example.org/list/other").saved
    assert proxy.requested == []


def test_stub_names_the_last_path_segment():
    assert stub_title("https://www.scitechnol.com/aging-geriatric-medicine.php") == "aging geriatric medicine"
    assert stub_title("https://www.mdpi.com/journal/ai/") == "ai"
    assert stub_title("https://www.mdpi.com/") == "www.mdpi.com"
    page = stub_page("https://x.org/a%3Cb%3E").decode()
    assert "<title>a&lt;b&gt;</title>" in page
    assert page.startswith("<!DOCTYPE html>")
