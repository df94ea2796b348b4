"""The journals table through time: which journals appeared and disappeared between two crawls, which values
changed, and a metric's figure year by year.

The history (:mod:`journals.store.table_io`) keeps each journal, and each distinct value of each of its
attributes (one per year for a metric: a new year's figure is a new value beside last year's), with the first
and last *snapshot* that showed it; a snapshot is the table as one crawl left it. A journal or a value is
present in a snapshot when the snapshot falls within its span. Of two values of one attribute present in one
snapshot (one left, another came, and the first came back), the one that came last is the snapshot's.

Pure code: spans in, changes out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

APPEARED = "appeared"
DISAPPEARED = "disappeared"
CHANGED = "changed"

CHANGE_FIELDS = ("change", "key", "title", "attribute", "old_value", "old_year", "new_value", "new_year")
"""The columns of the changes feed (``scrapy changes -O``), in order."""


@dataclass(frozen=True)
class JournalSpan:
    """A journal of the table and the snapshots that listed it."""

    key: str
    title: str | None
    first: int
    """The first snapshot that listed it."""
    last: int
    """The latest snapshot that listed it."""


@dataclass(frozen=True)
class ValueSpan:
    """One value one attribute of a journal took, and the snapshots that showed it."""

    key: str
    attribute: str
    value: str
    year: int | None
    """The year a metric's value is for, when a source wrote it."""
    first: int
    last: int
    number: float | None = None


@dataclass(frozen=True)
class Change:
    """A journal that appeared or disappeared, or one of its values that changed (old and new, each with its
    year; None where there was none)."""

    change: str
    key: str
    title: str | None
    attribute: str | None = None
    old_value: str | None = None
    old_year: int | None = None
    new_value: str | None = None
    new_year: int | None = None

    def as_row(self) -> dict[str, str | int | None]:
        """The change as a row of the changes feed (:data:`CHANGE_FIELDS`)."""
        return {name: getattr(self, name) for name in CHANGE_FIELDS}


def present(span: JournalSpan | ValueSpan, snapshot: int) -> bool:
    """Whether ``snapshot`` falls within the span."""
    return span.first <= snapshot <= span.last


def value_at(spans: Iterable[ValueSpan], snapshot: int) -> ValueSpan | None:
    """The value ``snapshot`` showed among one attribute's values: of those present, the one that came last."""
    shown = [span for span in spans if present(span, snapshot)]
    return max(shown, key=lambda span: (span.first, span.year or 0, span.value), default=None)


def changes(journals: Sequence[JournalSpan], values: Sequence[ValueSpan], before: int, after: int) -> list[Change]:
    """What changed from snapshot ``before`` to snapshot ``after``: journals that appeared, journals that
    disappeared, then the values of journals listed by both that changed (a value that came or went included),
    sorted by key and attribute."""
    found: list[Change] = []
    listed_before = {span.key for span in journals if present(span, before)}
    listed_after = {span.key for span in journals if present(span, after)}
    titles = {span.key: span.title for span in journals}
    found += [Change(APPEARED, key, titles[key]) for key in sorted(listed_after - listed_before)]
    found += [Change(DISAPPEARED, key, titles[key]) for key in sorted(listed_before - listed_after)]
    by_attribute: dict[tuple[str, str], list[ValueSpan]] = defaultdict(list)
    for span in values:
        if span.key in listed_before and span.key in listed_after:
            by_attribute[span.key, span.attribute].append(span)
    for (key, name), spans in sorted(by_attribute.items()):
        old, new = value_at(spans, before), value_at(spans, after)
        if _shown(old) != _shown(new):
            found.append(
                Change(
                    CHANGED,
                    key,
                    titles[key],
                    name,
                    old.value if old else None,
                    old.year if old else None,
                    new.value if new else None,
                    new.year if new else None,
                )
            )
    return found


def _shown(span: ValueSpan | None) -> tuple[str, int | None] | None:
    return None if span is None else (span.value, span.year)


def yearly(values: Iterable[ValueSpan], attribute: str) -> dict[str, dict[int, float]]:
    """Per journal key, ``attribute``'s figure for each year a source wrote one: the latest seen of that year
    (a corrected figure replaces the first one; another year's figure never does)."""
    latest: dict[tuple[str, int], ValueSpan] = {}
    for span in values:
        if span.attribute != attribute or span.year is None or span.number is None:
            continue
        seen = latest.get((span.key, span.year))
        if seen is None or (span.last, span.first) > (seen.last, seen.first):
            latest[span.key, span.year] = span
    series: dict[str, dict[int, float]] = defaultdict(dict)
    for (key, year), span in sorted(latest.items()):
        assert span.number is not None  # filtered above
        series[key][year] = span.number
    return dict(series)


def counts(found: Iterable[Change]) -> Mapping[str, int]:
    """How many changes of each kind, every kind named."""
    tally = dict.fromkeys((APPEARED, DISAPPEARED, CHANGED), 0)
    for change in found:
        tally[change.change] += 1
    return tally
