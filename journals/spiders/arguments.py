"""What a crawl is asked to do: its start URLs and sources from the spider's arguments, and the politeness a crawl
of the public web owes its sites."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from journals.pages.rendering_state import RENDER_MODES
from journals.pages.scope import Origin, on_public_web, redact_url

if TYPE_CHECKING:
    import logging
    from collections.abc import Sequence

    from scrapy.settings import BaseSettings


def start_urls(start_url: str | None, start_urls: str | None, render: str | None, default: str | None) -> list[str]:
    """The start URLs the arguments ask for (``start_url``, then the comma-separated ``start_urls``; ``default``
    when neither gives one); ``ValueError`` naming the problem when they, or ``render``, are unusable."""
    if render is not None and render not in RENDER_MODES:
        raise ValueError(f"-a render must be one of {', '.join(RENDER_MODES)}, got {render!r}")
    urls = [u.strip() for u in (start_urls or "").split(",") if u.strip()]
    if start_url:
        urls.insert(0, start_url.strip())
    if not urls and default is not None:
        urls = [default]
    for url in urls:
        if Origin.of(url) is None:
            raise ValueError(f"start_url must be an absolute http(s) URL with a valid port, got {redact_url(url)!r}")
    return urls


def source_name(start_url: str) -> str:
    """The source a start URL stands for: its first path segment on a sandbox-like host, else the host."""
    parts = urlsplit(start_url)
    segment = parts.path.strip("/").split("/")[0]
    if parts.hostname in ("127.0.0.1", "localhost") and segment:
        return segment
    return parts.hostname or start_url


def apply_public_site_settings(
    settings: BaseSettings, seed_urls: Sequence[str], logger: logging.LoggerAdapter[logging.Logger]
) -> None:
    """A crawl of a site on the public web (:func:`~journals.pages.scope.on_public_web`) runs politely: the setting
    ``PUBLIC_SITE_SETTINGS`` (a delay, two requests per site at once, AutoThrottle) replaces the project's defaults
    at the spider's priority, so that a value chosen with ``-s`` or a settings module still wins. A crawl of the
    sandbox, on 127.0.0.1, keeps the defaults. Warns once when the user agent names no contact address (no ``@``)."""
    if settings.frozen or not any(on_public_web(url) for url in seed_urls):
        return
    for name, value in (settings.getdict("PUBLIC_SITE_SETTINGS") or {}).items():
        settings.set(name, value, priority="spider")
    if "@" not in (agent := str(settings.get("USER_AGENT") or "")):
        logger.warning(
            "Crawling the public web as %r, which names no contact: set USER_AGENT to name you and an address, "
            "e.g. -s USER_AGENT='journals (+mailto:you@example.org)'",
            agent,
        )
