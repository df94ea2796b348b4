"""The reactor-lag extension in a real (request-less) crawl: a spider that holds the reactor shows in the stats."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest
import scrapy
from scrapy.exceptions import NotConfigured
from scrapy.utils.defer import deferred_f_from_coro_f
from scrapy.utils.test import get_crawler

from journals.extensions.lag import ReactorLagExtension
from tests.conftest import project_defaults

SETTINGS = project_defaults(
    REACTOR_LAG_ENABLED=True,
    EXTENSIONS={"journals.extensions.lag.ReactorLagExtension": 500},
)


class BlockingSpider(scrapy.Spider):
    """Lets the reactor tick for a while, then holds it for ``block`` seconds, as parsing a wide page on it would."""

    name = "blocking"
    block = 0.0

    async def start(self) -> AsyncIterator[scrapy.Request]:
        await asyncio.sleep(0.2)
        time.sleep(self.block)
        return
        yield


@deferred_f_from_coro_f
async def test_a_reactor_held_for_0_6_s_is_measured() -> None:
    crawler = get_crawler(BlockingSpider, SETTINGS)
    await crawler.crawl_async(block=0.6)
    stats = crawler.stats.get_stats()
    assert stats["reactor/max_lag_seconds"] >= 0.55
    assert stats["reactor/lags_over_half_second"] >= 1
    assert stats["reactor/lag_ticks"] >= 2


def test_off_unless_enabled() -> None:
    with pytest.raises(NotConfigured):
        ReactorLagExtension.from_crawler(get_crawler(BlockingSpider))
