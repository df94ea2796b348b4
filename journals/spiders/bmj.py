"""BMJ: the real site's start URL and hosts (settings/sites.json); runs on its sandbox twin with -a start_url=."""

from journals.spiders.publisher import SiteSpider


class BMJSpider(SiteSpider):
    """Crawl BMJ's A–Z journal index."""

    name = "bmj"
