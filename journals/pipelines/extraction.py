"""The extraction pipeline: turns a spider's :class:`JournalPages` into a clean :class:`JournalItem`."""

from __future__ import annotations

from typing import Any

from journals.items import JournalItem, JournalPages


class ExtractionPipeline:
    """Extract a journal's attributes from its pages; other items pass through."""

    async def process_item(self, item: Any) -> Any:
        """Return the :class:`JournalItem` extracted from ``item`` when it is a :class:`JournalPages`."""
        if not isinstance(item, JournalPages):
            return item
        title = item.listing_record.get("title") or item.listing_title
        return JournalItem(
            source=item.source,
            url=item.url,
            title=title,
            provenance={"title": {"raw": title, "url": item.listing_url, "xpath": None, "extractor": "listing"}},
        )
