"""The real saved publisher pages (``../shared/data/real`` and ``real-2``): where they are, what their manifests say.

Pages are compared and served by a loose URL key: no scheme, no fragment, no default port, no trailing slash, the
host lower-cased, so ``https://www.mdpi.com/journal/ai/`` and ``http://www.mdpi.com/journal/ai#x`` are one page.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

REAL_PAGES_ENV = "JOURNALS_REAL_PAGES"
"""Environment variable overriding where the saved pages are: their folders or ``manifest.json`` files, several
joined by ``os.pathsep`` (``:``) as one corpus."""
DEFAULT_REAL_PAGES = Path(__file__).resolve().parents[3] / "shared" / "data" / "real"
"""``../shared/data/real`` from the project's root."""
DEFAULT_REAL_CORPUS = (DEFAULT_REAL_PAGES, DEFAULT_REAL_PAGES.with_name("real-2"))
"""The folders read as one corpus when nothing else is named: pages handed over later came in folders of their
own so that tests reading the first folder kept passing; every measurement reads them all."""
DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass(frozen=True)
class SavedPage:
    """One entry of ``manifest.json``: a saved page, its original URL and what it is expected to yield."""

    name: str
    """The file's stem, e.g. ``mdpi-about-journals-table``."""
    path: Path
    """The saved page on disk."""
    kind: str
    """``list`` (a publisher's list of journals) or ``journal`` (a page about one journal or one of its articles)."""
    publisher: str
    url: str | None
    """The page's original absolute URL; None when the manifest does not give a usable one."""
    expected_journals: list[dict[str, str]] = field(default_factory=list)
    """List pages: every journal of the main list, ``title`` and ``link`` (links may be relative to ``url``)."""
    expected: dict[str, Any] = field(default_factory=dict)
    """Journal pages: per attribute the value the visible page shows, None where it shows none."""

    def html(self) -> str:
        """The page's text (every saved page is UTF-8)."""
        return self.path.read_text(encoding="utf-8", errors="replace")

    def expected_links(self) -> list[str]:
        """List pages: the expected journals' links made absolute against the page's URL."""
        return [urljoin(self.url or "", journal["link"]) for journal in self.expected_journals]


def url_key(url: str) -> str:
    """The loose key two URLs are the same page by: ``host[:port]/path[?query]``, no scheme, fragment or trailing
    slash, the host lower-cased and a scheme's default port dropped."""
    parts = urlsplit(url.strip())
    host = (parts.hostname or "").lower()
    port = parts.port if parts.port not in (None, DEFAULT_PORTS.get(parts.scheme.lower())) else None
    netloc = f"{host}:{port}" if port else host
    path = parts.path.rstrip("/")
    return f"{netloc}{path}?{parts.query}" if parts.query else f"{netloc}{path}"


def is_robots_url(url: str) -> bool:
    """Whether ``url`` asks for a host's ``robots.txt``."""
    return urlsplit(url).path == "/robots.txt"


def usable_url(raw: str | None) -> str | None:
    """The absolute http(s) URL a manifest ``url`` field starts with, else None.

    One entry writes a remark after its URL (``http://www.springerlink.com/content/1000-9116 (issue 21/6; …)``):
    the first word is the URL.
    """
    if not raw or not raw.strip():
        return None
    first = raw.split()[0]
    parts = urlsplit(first)
    return first if parts.scheme in ("http", "https") and parts.hostname else None


def resolve_manifest(location: str | os.PathLike[str] | None = None) -> Path:
    """The ``manifest.json`` to read: ``location`` (a folder or the file), else ``$JOURNALS_REAL_PAGES``, else
    ``../shared/data/real`` from the project's root. ``FileNotFoundError`` when there is none."""
    chosen = Path(location or os.environ.get(REAL_PAGES_ENV) or DEFAULT_REAL_PAGES)
    manifest = chosen / "manifest.json" if chosen.is_dir() else chosen
    if not manifest.is_file():
        raise FileNotFoundError(f"no manifest.json at {chosen}")
    return manifest


def resolve_corpus(location: str | os.PathLike[str] | None = None) -> list[Path]:
    """The ``manifest.json`` files of one corpus: ``location`` (folders or files joined by ``os.pathsep``), else
    ``$JOURNALS_REAL_PAGES``, else :data:`DEFAULT_REAL_CORPUS` (those of its folders that exist, the first
    required). ``FileNotFoundError`` when a named one has no manifest."""
    named = os.fspath(location) if location else os.environ.get(REAL_PAGES_ENV)
    if named:
        return [resolve_manifest(part) for part in named.split(os.pathsep) if part]
    first, *more = DEFAULT_REAL_CORPUS
    return [resolve_manifest(first)] + [resolve_manifest(folder) for folder in more if folder.is_dir()]


def load_saved_pages(location: str | os.PathLike[str] | None = None) -> list[SavedPage]:
    """Every saved page of the corpus at ``location`` (see :func:`resolve_corpus`), in manifest order."""
    pages = []
    for manifest in resolve_corpus(location):
        pages.extend(_manifest_pages(manifest))
    return pages


def _manifest_pages(manifest: Path) -> list[SavedPage]:
    """The pages one ``manifest.json`` lists, in its order."""
    entries = json.loads(manifest.read_text(encoding="utf-8"))
    pages = []
    for entry in entries:
        path = manifest.parent / entry["file"]
        pages.append(
            SavedPage(
                name=path.stem,
                path=path,
                kind=entry["kind"],
                publisher=entry.get("publisher", ""),
                url=usable_url(entry.get("url")),
                expected_journals=list(entry.get("expected_journals") or []),
                expected=dict(entry.get("expected") or {}),
            )
        )
    return pages
