"""The plain data the integration works on: source records, observed values and physical attributes."""

from __future__ import annotations

from dataclasses import dataclass, field

NUMBER = "number"
STRING = "string"


@dataclass(frozen=True)
class SourceRecord:
    """One journal as one source publishes it (one page, or a page and its metrics hop)."""

    key: str
    """Unique over all sources, e.g. ``"metricsdb|http://…/journal/x"``."""
    source: str
    title: str | None = None
    issns: frozenset[str] = frozenset()
    """Every valid ISSN the source gives for this journal (print, electronic, ISSN-L), as ``NNNN-NNNC``."""


@dataclass(frozen=True)
class Observation:
    """One value a physical attribute takes on one record."""

    text: str
    """The value as extracted (affixes stripped), never empty."""
    number: float | None = None
    """The value as a number when its attribute is numeric."""
    decimals: int | None = None
    """Decimals shown in the text: the rounding tolerance of the number."""
    occurrence: str | None = None
    """Where the value was read (page URL and node path): two rules reading one occurrence overlap."""
    page_url: str | None = None
    raw: str | None = None
    """The text before affixes were stripped."""
    year: int | None = None
    """The metric year written with this value, when the page wrote one: it wins over its attribute's."""


@dataclass
class PhysicalAttribute:
    """A source attribute: the values one extraction rule (or one extracted attribute name) gives per record."""

    name: str
    """Unique over all sources, e.g. ``"elsevier.impact_factor"`` or ``"metricsdb#t0:/html/body/…/td[3]"``."""
    source: str
    unit: str
    """Local-consistency unit: the source, or the source and page template for template-bound rules."""
    kind: str
    """:data:`NUMBER` or :data:`STRING`."""
    values: dict[str, Observation] = field(default_factory=dict)
    """Record key → observation."""
    label: str | None = None
    """The vocabulary attribute this physical attribute was labelled with, if any (names the mapping)."""
    year: int | None = None
    """The metric year shown next to every value (e.g. ``(2024)``), when one is."""
    rule: str | None = None
    """The XPath of a candidate rule (None for attributes read from crawled rows)."""
    extractor: str | None = None


def record_key(source: str, url: str) -> str:
    """The key of one source's record of a journal."""
    return f"{source}|{url}"
