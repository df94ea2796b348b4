"""A listing's table row gives the journal's values its own pages do not show."""

from journals.extraction import LearnedRules, extract_journal
from journals.extraction.listing_cells import add_listing_values, listing_values
from journals.items import FetchedPage
from journals.mdr.listing import index_listing

LISTING = """<html><body><table><thead><tr><th>#</th><th>Journal Name</th><th>ISSN</th><th title="Impact Factor">IF</th>
<th>Cite<br>Score</th><th>Current Issue</th></tr></thead><tbody>
<tr><td>1.</td><td><a href="/journal/acta">Acta Testica</a></td><td>2076-0825</td><td><a href="/s">2.3</a></td>
<td>4.3</td><td><a href="/2076-0825/15/2">v.15(2), Feb 2026</a></td></tr>
<tr><td>2.</td><td><a href="/journal/beta">Beta Letters</a></td><td>1424-8220</td><td>-</td>
<td>0.2</td><td><a href="/1424-8220/1/1">v.1(1), Jan 2026</a></td></tr>
<tr><td>3.</td><td><a href="/journal/gamma">Gamma Reports</a></td><td>2073-4441</td><td>3.1</td>
<td>5.5</td><td><a href="/2073-4441/9/1">v.9(1), Jan 2026</a></td></tr>
</tbody></table></body></html>"""


def test_row_cells_come_by_their_column_headers() -> None:
    index = index_listing(LISTING, "http://pub.example/journals", 10, 0.3)
    cells = index.find("http://pub.example/journal/acta")["cells"]
    assert cells["ISSN"] == "2076-0825"
    assert cells["IF"] == "2.3"
    assert cells["Cite Score"] == "4.3"


def test_row_values_are_read_by_the_vocabulary_and_a_dash_is_no_value() -> None:
    values = listing_values({"ISSN": "1424-8220", "IF": "-", "Cite Score": "0.2", "Current Issue": "v.1(1)"}, "u")
    assert {name: found.value for name, found in values.items()} == {"issn": "1424-8220", "citescore": 0.2}
    assert {found.method for found in values.values()} == {"listing"}


def test_the_journal_pages_win_and_the_listing_fills_the_rest() -> None:
    page = FetchedPage(
        url="http://pub.example/journal/acta",
        html="<html><body><main><h1>Acta Testica</h1><dl><dt>Impact Factor</dt><dd>2.5</dd>"
        "<dt>Online ISSN</dt><dd>2076-0825</dd></dl></main></body></html>",
    )
    extraction = extract_journal([page], LearnedRules())
    add_listing_values(extraction, {"ISSN": "2076-0825", "IF": "2.3", "Cite Score": "4.3"}, "http://pub.example/")
    assert extraction.value("impact_factor") == 2.5
    assert extraction.value("citescore") == 4.3
    assert extraction.value("eissn") == "2076-0825"
    assert extraction.value("issn") is None, "the row's ISSN is the one the page calls online"
