"""Items as the pipelines take them: any kind of item (a dict, a dataclass, an attrs object, a ``scrapy.Item``) read
through :class:`itemadapter.ItemAdapter`, as Scrapy's own pipelines do.

An item is a journal's pages when it has every field :class:`~journals.items.JournalPages` requires and none it
lacks, and a journal record when the same holds for :class:`~journals.items.JournalItem`; the two never overlap
(a journal's pages have a ``listing_url``, a record has not). Any other item passes the pipelines untouched.
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any

from itemadapter import ItemAdapter

from journals.items import FetchedPage, JournalItem, JournalPages


def _shape(item_class: type) -> tuple[frozenset[str], frozenset[str]]:
    """The required fields and all the fields of a dataclass item."""
    every = frozenset(field.name for field in fields(item_class))
    required = frozenset(
        field.name for field in fields(item_class) if field.default is MISSING and field.default_factory is MISSING
    )
    return required, every


_PAGES_SHAPE = _shape(JournalPages)
_RECORD_SHAPE = _shape(JournalItem)


def _values(item: Any, shape: tuple[frozenset[str], frozenset[str]]) -> dict[str, Any] | None:
    """The fields of ``item`` when it has ``shape`` (every required field, no other one), else None."""
    if not ItemAdapter.is_item(item):
        return None
    adapter = ItemAdapter(item)
    present = set(adapter.keys())
    required, every = shape
    if not required <= present <= every:
        return None
    return {name: adapter[name] for name in present}


def journal_pages(item: Any) -> JournalPages | None:
    """``item`` as a :class:`JournalPages` (itself when it is one), its pages as :class:`FetchedPage`; None when
    it is not a journal's pages."""
    if isinstance(item, JournalPages):
        return item
    values = _values(item, _PAGES_SHAPE)
    if values is None:
        return None
    values["pages"] = [
        page if isinstance(page, FetchedPage) else FetchedPage(**ItemAdapter(page).asdict())
        for page in values.get("pages", [])
    ]
    return JournalPages(**values)


def journal_record(item: Any) -> JournalItem | None:
    """``item`` as a :class:`JournalItem` (itself when it is one); None when it is not a journal record."""
    if isinstance(item, JournalItem):
        return item
    values = _values(item, _RECORD_SHAPE)
    return None if values is None else JournalItem(**values)
