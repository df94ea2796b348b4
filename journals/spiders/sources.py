"""The sources of a crawl, one per start URL's site: each one's scope and listing memory, and which requests stay
on them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from journals.pages.entries import ListingMemory
from journals.pages.scope import Origin, SiteScope

if TYPE_CHECKING:
    import scrapy


@dataclass
class SiteState:
    """What the spider keeps per source for its navigation: its scope and its listing memory."""

    scope: SiteScope
    memory: ListingMemory = field(default_factory=ListingMemory)


def crawl_sources(
    seed_urls: Iterable[str], source_for: Callable[[str], str], extra_hosts: list[str]
) -> dict[str, SiteState]:
    """Per source (``source_for`` a start URL), its state: start URLs of one source share its scope, with
    ``extra_hosts``."""
    sites: dict[str, SiteState] = {}
    for url in seed_urls:
        state = sites.get(source_for(url))
        if state is None:
            sites[source_for(url)] = SiteState(SiteScope([url], extra_hosts))
        else:
            state.scope.add(url)
    return sites


def request_in_scope(sites: dict[str, SiteState], request: scrapy.Request) -> bool:
    """Whether ``request`` may be sent: on its source's site, or on the origin of the listed journal it was made
    for. A request of no source (robots.txt) may go to any source's site. A start page may redirect anywhere (a
    publisher moving its list to another host; its address is still checked): where it lands is then the site."""
    origin = Origin.of(request.url)
    if origin is None:
        return False
    if request.meta.get("start_page") or str(origin) == request.meta.get("journal_origin"):
        return True
    state = sites.get(request.meta.get("source", ""))
    states = [state] if state is not None else sites.values()
    return any(s.scope.allows_origin(origin) for s in states)
