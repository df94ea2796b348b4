"""One spider per real publisher of the site registry, configured from it."""

from __future__ import annotations

from scrapy.spiderloader import SpiderLoader
from scrapy.utils.project import get_project_settings

from journals.domain.sites import real_sites
from journals.spiders.sites import SiteSpider


def test_the_spider_loader_finds_one_spider_per_real_publisher() -> None:
    loader = SpiderLoader.from_settings(get_project_settings())
    assert set(loader.list()) == {"publisher", *(site.name for site in real_sites())}
    assert real_sites(), "the registry names real publishers"


def test_each_site_spider_starts_and_stays_where_the_registry_says() -> None:
    loader = SpiderLoader.from_settings(get_project_settings())
    for site in real_sites():
        spider_class = loader.load(site.name)
        assert issubclass(spider_class, SiteSpider)
        assert spider_class.default_start_url() == site.start_url
        assert spider_class.__dict__["name"] == site.name
