"""The generic A–Z spider: start page → letters → paginated listings → journal page → metrics hop.

It uses no site-specific XPath: :mod:`journals.navigation` classifies each page's anchors. It yields one
:class:`~journals.items.JournalPages` per journal, holding the pages that matter; the item pipelines extract.
"""

from __future__ import annotations

import json
import pkgutil
from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import urlsplit

import scrapy
from scrapy.http import Response, TextResponse

from journals.decoding import decode_html, looks_binary
from journals.entries import ListingMemory, find_journal_list
from journals.health import START_FAILED_STATS
from journals.items import FetchedPage, JournalPages
from journals.navigation import Anchor, PageLinks, page_links


def site_profiles() -> dict[str, dict[str, Any]]:
    """The real publishers' profiles from ``settings/sites.json``."""
    raw = pkgutil.get_data("settings", "sites.json")
    assert raw is not None
    return {k: v for k, v in json.loads(raw).items() if not k.startswith("_")}


def index_letter(anchor_text: str) -> str:
    """The A–Z letter an index anchor stands for: ``Ab`` → ``A``; digits and ``#`` → ``0-9``."""
    first = anchor_text[:1].upper()
    return first if "A" <= first <= "Z" else "0-9"


def site_host(url: str) -> str:
    """The host a URL's site is known by: ``www.example.org`` and ``example.org`` are one site."""
    return (urlsplit(url).hostname or "").removeprefix("www.")


def source_name(start_url: str) -> str:
    """The source a start URL stands for: its first path segment on a sandbox-like host, else the host."""
    parts = urlsplit(start_url)
    segment = parts.path.strip("/").split("/")[0]
    if parts.hostname in ("127.0.0.1", "localhost") and segment:
        return segment
    return parts.hostname or start_url


class PublisherSpider(scrapy.Spider):
    """Crawl any site that lists its journals under A–Z links.

    Arguments: ``start_url`` (one site) or ``start_urls`` (comma-separated, one source each); ``source`` names
    the source when there is one start URL (default: from the URL).
    """

    name = "publisher"
    max_browse_depth = 2
    """How many "Browse journals A–Z" hops the spider takes from a start page without letters."""

    def __init__(
        self, start_url: str | None = None, start_urls: str | None = None, source: str | None = None, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        urls = self.check_arguments(start_url=start_url, start_urls=start_urls)
        self.seed_urls = urls
        self._requested: set[str] = set(urls)
        self.source_override = source if len(urls) == 1 else None
        self._listing_memory: dict[str, ListingMemory] = {}

    @classmethod
    def check_arguments(cls, start_url: str | None = None, start_urls: str | None = None, **_: Any) -> list[str]:
        """The start URLs the arguments ask for; ``ValueError`` naming the problem when they are unusable."""
        urls = [u.strip() for u in (start_urls or "").split(",") if u.strip()]
        if start_url:
            urls.insert(0, start_url.strip())
        if not urls:
            urls = [cls.default_start_url()]
        for url in urls:
            parts = urlsplit(url)
            if parts.scheme not in ("http", "https") or not parts.hostname:
                raise ValueError(f"start_url must be an absolute http(s) URL, got {url!r}")
        return urls

    @classmethod
    def default_start_url(cls) -> str:
        """The start URL when none is given: the generic spider needs one."""
        raise ValueError("the publisher spider needs -a start_url=URL (or -a start_urls=URL1,URL2)")

    def source_for(self, start_url: str) -> str:
        """The source name of the records found from ``start_url``."""
        return self.source_override or source_name(start_url)

    def allowed_hosts(self, start_url: str) -> set[str]:
        """Hosts the crawl from ``start_url`` may follow links to."""
        return {site_host(start_url)}

    async def start(self) -> AsyncIterator[scrapy.Request]:
        """One request per start URL, carrying its source and scope."""
        for url in self.seed_urls:
            scope = {"source": self.source_for(url), "hosts": sorted(self.allowed_hosts(url))}
            yield scrapy.Request(
                url,
                callback=self.parse_start,
                cb_kwargs={"scope": scope, "depth": 0},
                errback=self.start_failed,
                meta={"source": scope["source"]},
            )

    def _read(self, response: Response) -> tuple[str, PageLinks] | None:
        """The page's text (decoded even when its charset is missing or wrong) and its links; None if binary."""
        content_type = response.headers.get("Content-Type", b"").decode("latin-1")
        if not isinstance(response, TextResponse) or looks_binary(response.body):
            self.logger.warning("Skipping binary response %s (%s)", response.url, content_type or "no type")
            self.crawler.stats.inc_value("journals/skipped_binary")
            return None
        text, encoding = decode_html(response.body, content_type)
        if encoding != response.encoding:
            self.crawler.stats.inc_value("journals/encoding_corrected")
        return text, page_links(text, response.url)

    def _in_scope(self, url: str, scope: dict[str, Any]) -> bool:
        return site_host(url) in scope["hosts"]

    def _new(self, url: str, scope: dict[str, Any] | None) -> bool:
        """Whether to follow ``url``: in scope (unless ``scope`` is None) and not yet requested by this spider.

        Every listing page links all 27 letters again; Scrapy's duplicate filter would drop those requests, but
        only after each went through the spider middlewares and a task of its own (a third of a cache replay's
        time, measured with pyinstrument), so the spider drops them first.
        """
        if url in self._requested or (scope is not None and not self._in_scope(url, scope)):
            return False
        self._requested.add(url)
        return True

    def parse_start(self, response: Response, scope: dict[str, Any], depth: int) -> Iterator[scrapy.Request]:
        """The start page, or a page its "Browse journals A–Z" link led to: an index page that may be the list."""
        yield from self.parse_index(response, scope, depth)

    def parse_listing(self, response: Response, scope: dict[str, Any]) -> Iterator[scrapy.Request]:
        """A letter's listing or one of its pages."""
        yield from self.parse_index(response, scope, None)

    def parse_index(self, response: Response, scope: dict[str, Any], depth: int | None) -> Iterator[scrapy.Request]:
        """An index page: follow its letters and pages, request its journal entries, or hop to the A–Z page.

        ``depth`` counts the browse hops taken from the start page; None for pages reached by a letter or a page
        link. The start page may itself be the list; letters that are scripts are not links, and the list they
        would filter is read where it is. On a start page that has letters, the entries are read only when they
        surely are a journal list (a home page's boxes are not).
        """
        page = self._read(response)
        if page is None:
            return
        text, links = page
        letter = response.meta.get("letter")
        letters = [a for a in links.letters if self._in_scope(a.url, scope)]
        for anchor in letters + links.pages:
            if self._new(anchor.url, scope):
                yield response.follow(
                    anchor.url,
                    self.parse_listing,
                    cb_kwargs={"scope": scope},
                    errback=self.request_failed,
                    meta={
                        "source": scope["source"],
                        "letter": letter if anchor in links.pages else index_letter(anchor.text),
                    },
                )
        group = find_journal_list(links.content, self._memory(scope["source"]), letter)
        entries = group.anchors if group is not None and (depth is None or group.confident or not letters) else []
        if entries:
            self.crawler.stats.inc_value("journals/listing_pages")
            listing = FetchedPage(url=response.url, html=text, role="listing", from_cache="cached" in response.flags)
            yield from self._journal_requests(response, entries, listing, scope)
        if letters or entries or depth is None:
            return
        if depth < self.max_browse_depth:
            for anchor in links.browse:
                if self._new(anchor.url, scope):
                    yield response.follow(
                        anchor.url,
                        self.parse_start,
                        cb_kwargs={"scope": scope, "depth": depth + 1},
                        errback=self.request_failed,
                        meta={"source": scope["source"]},
                    )
        if not links.browse:
            self.logger.warning("No journal list, A–Z letters or browse link on the start page %s", response.url)

    def _memory(self, source: str) -> ListingMemory:
        """What the source's earlier listing pages showed."""
        return self._listing_memory.setdefault(source, ListingMemory())

    def _journal_requests(
        self, response: Response, entries: list[Anchor], listing: FetchedPage, scope: dict[str, Any]
    ) -> Iterator[scrapy.Request]:
        """A request per journal entry of a listing.

        The list is the publisher's word on which journals are its own: an entry on another host (an imprint's
        site) is followed too, with its own host as the scope of its metrics hop, unless
        ``FOLLOW_LISTED_JOURNAL_HOSTS`` is off. Letters, pages and browse hops never leave the start site.
        """
        other_hosts = self.settings.getbool("FOLLOW_LISTED_JOURNAL_HOSTS", True)
        for anchor in entries:
            if not self._new(anchor.url, None if other_hosts else scope):
                continue
            yield response.follow(
                anchor.url,
                self.parse_journal,
                cb_kwargs={"scope": scope, "listing": listing, "listing_title": anchor.text},
                errback=self.request_failed,
                meta={"source": scope["source"]},
            )

    def parse_journal(
        self, response: Response, scope: dict[str, Any], listing: FetchedPage, listing_title: str
    ) -> Iterator[scrapy.Request | JournalPages]:
        """A journal's home page: hop to its metrics page when it links one, else yield the journal."""
        page = self._read(response)
        if page is None:
            return
        text, links = page
        item = JournalPages(
            source=scope["source"],
            url=response.url,
            listing_url=listing.url,
            listing_title=listing_title,
            pages=[
                listing,
                FetchedPage(url=response.url, html=text, role="home", from_cache="cached" in response.flags),
            ],
        )
        journal_host = site_host(response.url)
        hops = [
            a
            for a in links.metrics
            if (self._in_scope(a.url, scope) or site_host(a.url) == journal_host) and a.url != response.url
        ]
        if hops:
            yield response.follow(
                hops[0].url,
                self.parse_metrics,
                cb_kwargs={"item": item},
                errback=self.metrics_failed,
                dont_filter=True,
                meta={"source": scope["source"]},
            )
        else:
            self.crawler.stats.inc_value("journals/journal_pages")
            yield item

    def parse_metrics(self, response: Response, item: JournalPages) -> Iterator[JournalPages]:
        """The metrics page: add it to the journal's pages and yield the journal."""
        page = self._read(response)
        if page is not None:
            item.pages.append(
                FetchedPage(url=response.url, html=page[0], role="metrics", from_cache="cached" in response.flags)
            )
        self.crawler.stats.inc_value("journals/journal_pages")
        yield item

    def request_failed(self, failure: Any) -> None:
        """A listing or journal page failed for good: log it once with its URL and count it by cause."""
        self._count_failure(failure)

    def start_failed(self, failure: Any) -> None:
        """A start page failed for good (after retries): count it, and record it for the health check.

        The record is the stat ``journals/start_failed/SOURCE`` (:data:`journals.health.START_FAILED_STATS`): a
        list with one ``{"url", "cause", "error"}`` per failed start page, its URL as given, before redirects.
        """
        cause = self._count_failure(failure)
        request = failure.request
        key = f"{START_FAILED_STATS}{request.meta.get('source')}"
        record = {
            "url": request.meta.get("redirect_urls", [request.url])[0],
            "cause": cause,
            "error": str(failure.value).strip().split("\n")[0],
        }
        self.crawler.stats.set_value(key, [*(self.crawler.stats.get_value(key) or []), record])

    def _count_failure(self, failure: Any) -> str:
        """Count a failed page by cause and source, log it once; return the cause (``http_404``, an error name)."""
        error = failure.value
        response = getattr(error, "response", None)
        cause = f"http_{response.status}" if response is not None else type(error).__name__
        self.crawler.stats.inc_value(f"journals/failed_pages/{cause}")
        self.crawler.stats.inc_value(f"journals/failed_pages_by_source/{failure.request.meta.get('source')}")
        self.logger.warning("Page failed (%s): %s", cause, failure.request.url)
        return cause

    def metrics_failed(self, failure: Any) -> Iterator[JournalPages]:
        """The metrics page failed: keep what the journal page gave rather than lose the journal."""
        item: JournalPages = failure.request.cb_kwargs["item"]
        self._count_failure(failure)
        self.crawler.stats.inc_value("journals/metrics_page_failed")
        self.crawler.stats.inc_value("journals/journal_pages")
        yield item


class SiteSpider(PublisherSpider):
    """A real publisher's spider: its start URL and allowed hosts come from ``settings/sites.json``."""

    name = ""  # abstract: only the subclasses, named after their publisher, are spiders

    @classmethod
    def default_start_url(cls) -> str:
        """The real site's start URL."""
        return site_profiles()[cls.name]["start_url"]

    def source_for(self, start_url: str) -> str:
        """Records are always named after the publisher, on its real site or its sandbox twin."""
        return self.name

    def allowed_hosts(self, start_url: str) -> set[str]:
        """The start URL's host and the hosts the real site keeps journal pages on."""
        extra = site_profiles()[self.name].get("allowed_hosts", [])
        return super().allowed_hosts(start_url) | {host.removeprefix("www.") for host in extra}
