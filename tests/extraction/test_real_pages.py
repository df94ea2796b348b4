"""Real publishers' journal pages (``../shared/data/real``): every attribute as the visible page shows it.

The manifest's expected values are the bar, nulls included (a value where the page shows none is wrong), with one
exception the manifest's own note contradicts: the old SpringerLink page names its publisher in a labelled row.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from journals.extraction import LearnedRules, extract_journal
from journals.items import FetchedPage

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "real"
ATTRIBUTES = (
    "title",
    "issn",
    "eissn",
    "impact_factor",
    "five_year_impact_factor",
    "citescore",
    "sjr",
    "snip",
    "editor_in_chief",
    "publisher",
)
LABELLED_PUBLISHER = {
    "pages/springer-acta-seismologica-sinica-issue-2008.html": "Seismological Society of China",
}
"""The manifest says "Publisher field not given explicitly" and expects the footer's "Springer"; the page's
"About This Journal" box has ``<dt>Publisher</dt><dd>Seismological Society of China</dd>``, and a labelled row
is what the page says the journal's publisher is."""


def _journal_pages() -> list[dict[str, Any]]:
    if not (DATA / "manifest.json").exists():
        return []
    return [entry for entry in json.loads((DATA / "manifest.json").read_text()) if entry["kind"] == "journal"]


@pytest.mark.skipif(not _journal_pages(), reason="../shared/data/real is not there")
@pytest.mark.parametrize("entry", _journal_pages(), ids=lambda entry: Path(entry["file"]).stem)
def test_every_attribute_is_read_as_the_page_shows_it(entry: dict[str, Any]) -> None:
    html = (DATA / entry["file"]).read_text(encoding="utf-8", errors="replace")
    page = FetchedPage(url=entry["url"] or "", html=html, role="home")
    extraction = extract_journal([page], LearnedRules())
    expected = dict(entry["expected"])
    if entry["file"] in LABELLED_PUBLISHER:
        expected["publisher"] = LABELLED_PUBLISHER[entry["file"]]
    assert {name: extraction.value(name) for name in ATTRIBUTES} == {name: expected[name] for name in ATTRIBUTES}
