"""Where a crawl may go: the origins of its site, and one canonical form per URL.

Pure functions, free of Scrapy, used by the spider (which links to follow) and by
:class:`journals.downloadermiddlewares.offsite.ScopeMiddleware` (which requests may be sent, redirects and meta
refreshes included).

A site is the scheme, host and port of its start URL. ``www.example.org`` and ``example.org`` are one site, and a
site on the default ports is one site over ``http`` and ``https`` (publishers link their pages with either and
redirect one to the other); a site on another port (``127.0.0.1:8000``) is that scheme and port only, so another
service on the same machine is never in scope. Host names are compared in their ASCII (IDNA) form.
"""

from __future__ import annotations

import contextlib
import functools
import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from w3lib.url import canonicalize_url

DEFAULT_PORTS = {"http": 80, "https": 443}

SESSION_PARAMETERS = frozenset(
    {
        "jsessionid",
        "phpsessid",
        "aspsessionid",
        "sessionid",
        "session_id",
        "sessid",
        "sid",
        "cfid",
        "cftoken",
        "zenid",
        "oscsid",
    }
)
"""Query and path parameters that name a visitor's session, not a page: dropped from every URL."""
TRACKING_PARAMETERS = frozenset({"fbclid", "gclid", "dclid", "msclkid", "mc_cid", "mc_eid", "_ga", "_hsenc", "_hsmi"})
"""Query parameters that name a campaign or a click, not a page (and every ``utm_*``): dropped from every URL."""
_PATH_PARAMETER = re.compile(r";([^/;?=]+)=[^/;?]*")


@functools.lru_cache(maxsize=4096)
def ascii_host(host: str) -> str:
    """A host name in the form compared everywhere: lower case, IDNA-encoded (``bücher.example`` →
    ``xn--bcher-kva.example``), without ``www.``; an IP address or a name IDNA refuses is only lower-cased.

    Remembered for the last few thousand hosts: a crawl asks it of every request and every link it judges, on a
    handful of hosts, and IDNA's codec is slow."""
    host = host.strip().rstrip(".").lower()
    with contextlib.suppress(UnicodeError):
        host = host.encode("idna").decode("ascii")
    return host.removeprefix("www.")


def is_ignored_parameter(name: str) -> bool:
    """Whether a URL parameter names a session or a click rather than the page."""
    name = name.lower()
    return name in SESSION_PARAMETERS or name in TRACKING_PARAMETERS or name.startswith("utm_")


VIEW_PARAMETERS = frozenset(
    {
        "per_page",
        "perpage",
        "per-page",
        "page_size",
        "pagesize",
        "items_per_page",
        "itemsperpage",
        "limit",
        "rows",
        "sort",
        "sortby",
        "sort_by",
        "order",
        "orderby",
        "order_by",
        "dir",
        "direction",
        "view",
        "display",
        "layout",
    }
)
"""Query parameters that choose how a list is shown (its page size, order, layout), not which list it is."""


def listing_url(url: str) -> str:
    """The one form of a listing page's URL: :func:`canonical_url` less its view parameters
    (:data:`VIEW_PARAMETERS`), so that a list shown 20, 50 or 100 a page, or sorted two ways, is read once."""
    parts = urlsplit(url)
    if not parts.query:
        return canonical_url(url)
    query = "&".join(
        pair for pair in parts.query.split("&") if pair and pair.partition("=")[0].lower() not in VIEW_PARAMETERS
    )
    return canonical_url(parts._replace(query=query).geturl())


ROUTE_FRAGMENT = re.compile(r"#!?/")
"""The start of a fragment that is a script's route (``#/journals/B``, ``#!/journal/acta``), not a place in the page:
hash routers show one view per route, so the URL with its route is a page of its own."""


def route_of(url: str) -> str:
    """The route fragment of ``url`` (``#!/journal/acta``, see :data:`ROUTE_FRAGMENT`), ``""`` when it has none."""
    at = url.find("#")
    return url[at:] if at >= 0 and ROUTE_FRAGMENT.match(url, at) else ""


def strip_user_info(parts: SplitResult) -> SplitResult:
    """``parts`` without the user name and password of its authority."""
    if "@" not in parts.netloc:
        return parts
    return parts._replace(netloc=parts.netloc.rpartition("@")[2])


def redact_url(url: str) -> str:
    """``url`` fit to be logged or stored: its password, if any, replaced by ``***``."""
    parts = urlsplit(url)
    user_info, at, host = parts.netloc.rpartition("@")
    if not at or ":" not in user_info:
        return url
    return parts._replace(netloc=f"{user_info.partition(':')[0]}:***@{host}").geturl()


def canonical_url(url: str) -> str:
    """The one form of ``url`` the crawl requests and stores: session and tracking parameters dropped (in the query
    and as ``;jsessionid=…`` path parameters), the query sorted, the fragment dropped unless it is a route
    (:func:`route_of`), the host in IDNA form (:func:`w3lib.url.canonicalize_url`), so that one page found under
    endless session URLs is one request. A user name and password in the authority are dropped: the crawl logs and
    stores the URLs it requests, and a crawler of public pages has no account to use."""
    parts = strip_user_info(urlsplit(url))
    path = _PATH_PARAMETER.sub(lambda m: "" if is_ignored_parameter(m.group(1)) else m.group(0), parts.path)
    query = "&".join(
        pair for pair in parts.query.split("&") if pair and not is_ignored_parameter(pair.partition("=")[0])
    )
    return canonicalize_url(parts._replace(path=path, query=query, fragment="").geturl()) + route_of(url)


@dataclass(frozen=True)
class Origin:
    """Scheme, ASCII host and port of a URL."""

    scheme: str
    host: str
    port: int

    @classmethod
    def of(cls, url: str) -> Origin | None:
        """The origin of an absolute http(s) URL; None for other schemes, no host, or a port out of range."""
        parts = urlsplit(url)
        return _origin_of(parts.scheme, parts.netloc)

    @property
    def on_default_port(self) -> bool:
        """Whether the origin uses its scheme's default port (80 or 443)."""
        return DEFAULT_PORTS[self.scheme] == self.port

    def __str__(self) -> str:
        return f"{self.scheme}://{self.host}:{self.port}"


@functools.lru_cache(maxsize=4096)
def _origin_of(scheme: str, netloc: str) -> Origin | None:
    """:meth:`Origin.of` a URL's scheme and authority, remembered for the last few thousand: a crawl judges every
    request and every link it follows on a handful of origins."""
    scheme = scheme.lower()
    parts = SplitResult(scheme, netloc, "", "", "")
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    try:
        port = parts.port or DEFAULT_PORTS[scheme]
    except ValueError:
        return None
    return Origin(scheme, ascii_host(parts.hostname), port)


class SiteScope:
    """The origins one crawl of a site may request: its start URLs' and its extra hosts' (on default ports)."""

    def __init__(self, start_urls: Iterable[str], extra_hosts: Iterable[str] = ()) -> None:
        self.origins: set[Origin] = set()
        """Origins on other ports than their scheme's default: in scope with that scheme and port only."""
        self.default_port_hosts: set[str] = {ascii_host(host) for host in extra_hosts}
        """Hosts in scope over http on port 80 and https on port 443."""
        for url in start_urls:
            self.add(url)

    def add(self, start_url: str) -> None:
        """Put another start URL's origin in scope; ``ValueError`` if it is not an absolute http(s) URL."""
        origin = Origin.of(start_url)
        if origin is None:
            raise ValueError(f"not an absolute http(s) URL: {start_url!r}")
        if origin.on_default_port:
            self.default_port_hosts.add(origin.host)
        else:
            self.origins.add(origin)

    def allows(self, url: str) -> bool:
        """Whether ``url`` is on the site: an origin of a start URL, or a site host over http(s) on default ports."""
        origin = Origin.of(url)
        return origin is not None and self.allows_origin(origin)

    def allows_origin(self, origin: Origin) -> bool:
        """Whether ``origin`` is the site's."""
        return origin in self.origins or (origin.on_default_port and origin.host in self.default_port_hosts)


def may_be_sister_site(url: str) -> bool:
    """Whether a journal listed on another host may be followed there: a host name (not an IP address, not
    ``localhost``) on its scheme's default port. A list is the publisher's word on its journals, but an entry
    pointing at an address or another port of a machine is no publisher's sister site."""
    origin = Origin.of(url)
    return (
        origin is not None
        and origin.on_default_port
        and not is_ip_address(origin.host)
        and origin.host != "localhost"
        and not origin.host.endswith(".localhost")
        and "." in origin.host
    )


@functools.lru_cache(maxsize=4096)
def is_ip_address(host: str) -> bool:
    """Whether ``host`` is an IPv4 or IPv6 address rather than a name.

    Remembered for the last few thousand hosts: the scope middleware asks it of every request, on a handful of
    hosts, and ``ipaddress`` parses a name twice (as IPv4, then IPv6) before refusing it."""
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


RESERVED_TOP_LEVEL_NAMES = frozenset({"localhost", "test", "example", "invalid", "local"})
"""Top-level names no public site has (RFC 2606, RFC 6762): test worlds and local networks use them."""


def on_public_web(url: str) -> bool:
    """Whether ``url``'s host is on the public internet: a name (but ``localhost`` and the names RFC 2606 and
    RFC 6762 keep off it: ``*.test``, ``*.example``, ``*.invalid``, ``*.localhost``, ``*.local``) or a public address.
    Decided on the URL alone, without resolving the name: politeness is owed to named sites."""
    host = (urlsplit(url).hostname or "").rstrip(".").lower()
    if not host or host.rpartition(".")[2] in RESERVED_TOP_LEVEL_NAMES:
        return False
    try:
        return not is_private_address(host)
    except ValueError:
        return True  # a name, not an address


@functools.lru_cache(maxsize=4096)
def is_private_address(address: str) -> bool:
    """Whether an IP address is not on the public internet: private, loopback, link-local (cloud metadata
    services), shared, reserved, multicast or unspecified; IPv4 mapped into IPv6 is judged as IPv4. ``ValueError``
    for what is no address.

    Remembered for the last few thousand addresses (a ``ValueError`` is raised anew each time): the scope middleware
    asks it of every request's resolved address, and ``is_global`` tests the address against some twenty networks."""
    ip = ipaddress.ip_address(address.strip("[]"))
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not ip.is_global or ip.is_multicast
