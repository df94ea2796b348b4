"""The crawl's settings of Python's cyclic collector, applied when the spider starts its requests."""

from __future__ import annotations

import gc

import pytest
from scrapy.utils.defer import deferred_f_from_coro_f
from scrapy.utils.test import get_crawler

from journals.spiders.publisher import PublisherSpider
from tests.conftest import project_defaults


@pytest.mark.parametrize(("young", "expected"), [(50_000, 50_000), (None, 700)])
@deferred_f_from_coro_f
async def test_the_collectors_youngest_generation_is_looked_over_as_the_setting_says(young: int | None, expected: int) -> None:
    """Once the crawl starts, the youngest generation is collected every ``GC_YOUNG_THRESHOLD`` new objects (unset:
    Python's 700); the older generations keep their ratios, and what was made before is frozen."""
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        crawler = get_crawler(PublisherSpider, project_defaults(GC_YOUNG_THRESHOLD=young))
        spider = PublisherSpider.from_crawler(crawler, start_url="http://127.0.0.1:9/site/")
        await anext(spider.start())
        assert gc.get_threshold() == (expected, 10, 10)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
