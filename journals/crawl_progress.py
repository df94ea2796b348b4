"""Progress of a crawl per source: letters reached, listing pages, journals found, pages per second, errors.

Pure bookkeeping and rendering; :mod:`journals.extensions.progress` feeds it from Scrapy's signals.
"""

from __future__ import annotations

from dataclasses import dataclass, field

LETTER_COUNT = 27
"""A–Z and ``0-9``."""


@dataclass
class SourceProgress:
    """Counters of one source."""

    letters: set[str] = field(default_factory=set)
    listing_pages: int = 0
    pages: int = 0
    journals: int = 0
    unchanged: int = 0
    """Of the journals, those a re-crawl found with every page unchanged (their rows only re-confirmed)."""
    errors: int = 0


@dataclass
class ProgressBoard:
    """Every source's progress, and the page count at the last rendering (for the rate)."""

    sources: dict[str, SourceProgress] = field(default_factory=dict)
    _pages_at_last_render: dict[str, int] = field(default_factory=dict)

    def source(self, name: str) -> SourceProgress:
        """The counters of ``name``, created on first use."""
        return self.sources.setdefault(name, SourceProgress())

    def page(self, source: str, letter: str | None, listing: bool) -> None:
        """Count a page received for ``source``; a listing page also marks its letter reached."""
        progress = self.source(source)
        progress.pages += 1
        if listing:
            progress.listing_pages += 1
            if letter:
                progress.letters.add(letter)

    def lines(self, seconds_since_last: float) -> list[str]:
        """One line per source, the rate over the time since the previous call."""
        lines = []
        for name, p in sorted(self.sources.items()):
            rate = (p.pages - self._pages_at_last_render.get(name, 0)) / max(seconds_since_last, 1e-9)
            self._pages_at_last_render[name] = p.pages
            # A site that lists its journals without A–Z letters shows none, not "0/27" as if it had failed them.
            letters = f"{len(p.letters):>2}/{LETTER_COUNT}" if p.letters else f"{'-':>5}"
            lines.append(
                f"{name:<12} letters {letters}  listing pages {p.listing_pages:>5}  "
                f"journals {p.journals:>6}  {rate:>6.1f} pages/s  errors {p.errors}"
                + (f"  unchanged {p.unchanged}" if p.unchanged else "")
            )
        return lines
