"""The quiet log formatter: Scrapy's lines at DEBUG, nothing built above it."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator

import pytest
from scrapy import Request, Spider
from scrapy.http import HtmlResponse
from scrapy.logformatter import LogFormatter

from journals.logformatter import QuietLogFormatter


@pytest.fixture
def page():
    request = Request("http://127.0.0.1/a", headers={"Referer": "http://127.0.0.1/"})
    return request, HtmlResponse(request.url, body=b"<html></html>", request=request)


@pytest.mark.parametrize("level", [logging.INFO, logging.WARNING])
def test_above_debug_nothing_is_built(page, level):
    request, response = page
    with _levels(level):
        assert QuietLogFormatter().crawled(request, response, Spider("s")) is None
        assert QuietLogFormatter().scraped({"title": "T"}, response, Spider("s")) is None


def test_at_debug_the_lines_are_scrapys(page):
    request, response = page
    spider = Spider("s")
    with _levels(logging.DEBUG):
        assert QuietLogFormatter().crawled(request, response, spider) == LogFormatter().crawled(
            request, response, spider
        )
        assert QuietLogFormatter().scraped({"t": 1}, response, spider) == LogFormatter().scraped(
            {"t": 1}, response, spider
        )


@contextlib.contextmanager
def _levels(level: int) -> Iterator[None]:
    """Set the engine's and scraper's loggers to ``level`` for a block."""
    loggers = [logging.getLogger("scrapy.core.engine"), logging.getLogger("scrapy.core.scraper")]
    saved = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(level)
    try:
        yield
    finally:
        for logger, old in zip(loggers, saved, strict=True):
            logger.setLevel(old)
