"""Wiley: the real site's start URL and hosts (settings/sites.json); runs on its sandbox twin with -a start_url=."""

from journals.spiders.publisher import SiteSpider


class WileySpider(SiteSpider):
    """Crawl Wiley's A–Z journal index."""

    name = "wiley"
