"""One spider per real publisher of the site registry (``settings/sites.json``): its start URL and allowed hosts
come from there, so a new publisher is one entry of the registry. Each runs on its sandbox twin with
``-a start_url=``."""

from __future__ import annotations

from journals.domain.sites import Site, real_sites, site
from journals.spiders.publisher import PublisherSpider


class SiteSpider(PublisherSpider):
    """A real publisher's spider, named after its site in the registry."""

    name = ""  # abstract: only the subclasses, named after their publisher, are spiders

    @classmethod
    def default_start_url(cls) -> str:
        """The real site's start URL."""
        start_url = site(cls.name).start_url
        assert start_url is not None  # every spider's site is one of real_sites()
        return start_url

    def site_entry(self) -> Site:
        """The spider's site in the registry."""
        return site(self.name)

    def registry_render_mode(self) -> str | None:
        """The registry's word on rendering the site (``"render": "browser"`` renders every page)."""
        return self.site_entry().render

    def source_for(self, start_url: str) -> str:
        """Records are always named after the publisher, on its real site or its sandbox twin."""
        return self.name

    def extra_hosts(self) -> list[str]:
        """The hosts the real site keeps journal pages on, besides its start URL's."""
        return list(site(self.name).allowed_hosts)


def _site_spider(registered: Site) -> type[SiteSpider]:
    """The spider class of one real publisher (Scrapy's spider loader finds it in this module's namespace)."""
    return type(
        f"{registered.name.capitalize()}Spider",
        (SiteSpider,),
        {"name": registered.name, "__module__": __name__, "__doc__": f"Crawl {registered.name}'s A–Z journal index."},
    )


globals().update({spider.__name__: spider for spider in map(_site_spider, real_sites())})
