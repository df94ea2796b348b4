"""The sandbox web: routes a request path to a rendered page of one of the sites, pure and stateless."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property

from journals.sandbox.prerendered import PRERENDERED
from journals.sandbox.registry import TEMPLATES
from journals.sandbox.relation import JournalRelation
from journals.sandbox.site_templates import Payload, Redirect, SiteTemplates
from journals.sandbox.sources import SITE_SPECS, Site

ROBOTS_TXT = """User-agent: *
Disallow: /*/search
Disallow: /*/admin/
Disallow: /private/
"""


@dataclass
class WebResponse:
    """What the server sends back: status, headers and body."""

    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)


class SandboxWeb:
    """Every sandbox site over one hidden relation, drawn from ``seed`` with ``size`` journals.

    With ``prerendered`` the script-built sites are served as their plain twins (:mod:`journals.sandbox.prerendered`):
    the same URLs and truth, with what their scripts would write already in the served HTML.
    """

    def __init__(self, seed: int = 1, size: int = 2000, edition: int = 1, *, prerendered: bool = False) -> None:
        self.relation = JournalRelation(seed, size, edition)
        self.prerendered = prerendered
        """Whether the script-built sites are served rendered on the server, with no script to run."""

    @cached_property
    def sites(self) -> dict[str, SiteTemplates]:
        """The templates of every site, by site name."""
        templates = {**TEMPLATES, **PRERENDERED} if self.prerendered else TEMPLATES
        return {spec.name: templates[spec.name](Site(spec, self.relation)) for spec in SITE_SPECS}

    def respond(self, path: str, query: str = "", host: str = "127.0.0.1") -> WebResponse:
        """The response to ``GET path?query`` on ``host``."""
        if path == "/robots.txt":
            return WebResponse(200, ROBOTS_TXT.encode(), {"Content-Type": "text/plain"})
        if path == "/":
            links = "".join(f'<li><a href="/{name}/">{name}</a></li>' for name in self.sites)
            return _html(f"<html><body><h1>Sandbox publishers</h1><ul>{links}</ul></body></html>")
        name = path.split("/")[1]
        templates = self.sites.get(name)
        if templates is None:
            return _not_found()
        if path == f"/{name}":
            return WebResponse(301, headers={"Location": f"/{name}/"})
        rendered = templates.route(path, query)
        if rendered is None:
            return _not_found()
        if isinstance(rendered, Redirect):
            return WebResponse(rendered.status, headers={"Location": rendered.location})
        if isinstance(rendered, Payload):
            return _html(rendered.body, f"{rendered.content_type}; charset=utf-8")
        return _html(rendered.replace("http://{host}", f"http://{host}"))


def _html(text: str, content_type: str = "text/html; charset=utf-8") -> WebResponse:
    """An HTML page (or a script, or JSON, of ``content_type``) with the validators a re-crawl revalidates against
    (RFC 9111): an ETag of its bytes and ``max-age=0``, so a cache must ask again each time and gets 304 when
    nothing changed."""
    body = text.encode("utf-8")
    return WebResponse(
        200,
        body,
        {
            "Content-Type": content_type,
            "ETag": f'"{hashlib.sha1(body, usedforsecurity=False).hexdigest()[:20]}"',
            "Cache-Control": "max-age=0",
        },
    )


def _not_found() -> WebResponse:
    return WebResponse(
        404, b"<html><body><h1>Not found</h1></body></html>", {"Content-Type": "text/html; charset=utf-8"}
    )
