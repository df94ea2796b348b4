"""Values a listing shows in a journal's row: a table listing often gives each journal's ISSN and metrics.

The row's cells come by their column headers (:func:`journals.mdr.listing.row_cells`); a header naming an
attribute of the vocabulary ("ISSN", "IF", "Cite Score") makes its cell that attribute's value. The journal's
own pages win: the listing only fills attributes they do not show.
"""

from __future__ import annotations

from collections.abc import Mapping

from journals.extraction.extract import Extraction, Found
from journals.extraction.labels import default_matcher
from journals.extraction.values import parse_value
from journals.vocabulary import attribute


def listing_values(cells: Mapping[str, str], listing_url: str) -> dict[str, Found]:
    """The attribute values of one listing row, keyed by attribute; titles are left to the journal's pages."""
    matcher = default_matcher()
    found: dict[str, Found] = {}
    for header, text in cells.items():
        name = matcher.whole(header)
        if name is None or name == "title" or name in found:
            continue
        parsed = parse_value(attribute(name).type, text)
        if parsed is not None and parsed.value is not None:
            found[name] = Found(parsed.value, parsed.raw, listing_url, None, "listing")
    return found


def add_listing_values(extraction: Extraction, cells: Mapping[str, str], listing_url: str) -> None:
    """Fill the attributes the journal's pages did not show with its listing row's values.

    A row's bare "ISSN" that the pages show as the e-ISSN is not a second, print ISSN.
    """
    shown = {found.value for found in extraction.values.values()}
    for name, found in listing_values(cells, listing_url).items():
        held = extraction.values.get(name)
        if (held is None or held.value is None) and not (name in ("issn", "eissn") and found.value in shown):
            extraction.values[name] = found
