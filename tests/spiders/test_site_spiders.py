"""One spider per real publisher of the site registry, configured from it."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import scrapy
from scrapy.spiderloader import SpiderLoader
from scrapy.utils.project import get_project_settings
from scrapy.utils.test import get_crawler

from journals.domain.sites import Site, real_sites
from journals.domain.sites import site as registry_site
from journals.spiders.sites import SiteSpider
from settings import default

PROJECT_SETTINGS = {name: getattr(default, name) for name in dir(default) if name.isupper()}


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


class BrowserSiteSpider(SiteSpider):
    """A site spider whose registry entry says ``"render": "browser"``."""

    name = "elsevier"

    def site_entry(self) -> Site:
        """The registry's entry for the site, as ``settings/sites.json`` would give it with ``"render": "browser"``."""
        return dataclasses.replace(registry_site(self.name), render="browser")


def test_a_registry_render_mode_takes_effect_and_an_argument_or_a_chosen_setting_overrides_it() -> None:
    def spider(settings: dict[str, object], **arguments: str) -> BrowserSiteSpider:
        crawler = get_crawler(BrowserSiteSpider, {**PROJECT_SETTINGS, **settings})
        return BrowserSiteSpider.from_crawler(crawler, **arguments)

    def mode(settings: dict[str, object], **arguments: str) -> str:
        return spider(settings, **arguments).render_mode

    registry = spider({})
    assert registry.rendering.mode == "browser", "the project's default RENDER_PAGES does not override the registry"
    journal = scrapy.Request("https://publisher.example/j/x", meta={"source": "elsevier", "page_role": "journal"})
    assert registry.rendering.wants_rendering(journal), "every page of the site is rendered"
    assert mode({}, render="never") == "never"

    class ChosenSpider(BrowserSiteSpider):
        custom_settings: ClassVar[dict[str, object]] = {"RENDER_PAGES": "auto"}  # above the project's priority, as -s is

    chosen = get_crawler(ChosenSpider, PROJECT_SETTINGS)
    assert ChosenSpider.from_crawler(chosen).render_mode == "auto", "a setting chosen for the crawl does"
