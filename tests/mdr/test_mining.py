"""MDR end to end: hand-written pages with known regions, the real pages' bars, hostile pages."""

from pathlib import Path

import lxml.html
from lxml import etree

from journals.mdr import mine_data_regions
from journals.mdr.mining import mine_tag_tree
from journals.mdr.regions import similar
from journals.mdr.tagtree import TagTree

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "mdr"


def _page(body: str) -> str:
    return f"<html><head><title>t</title></head><body>{body}</body></html>"


def test_similar_uses_mean_length_and_cutoff():
    assert similar("abcdefghij", "abcdefghiX", 0.3)
    assert not similar("abc", "abd", 0.3)  # 1 / 3 > 0.3
    assert not similar("a" * 10, "a" * 21, 0.3)  # rejected on length alone
    assert similar("", "", 0.3)


def test_simple_list_is_one_region_of_its_items():
    items = "".join(f'<li><a href="/j{i}">Journal {i}</a><span>ISSN 1234-567{i}</span></li>'
                    for i in range(5))
    regions = mine_data_regions(_page(f"<h1>Journals</h1><ul>{items}</ul>"))
    assert len(regions) == 1
    region = regions[0]
    assert (region.parent, region.k, region.start, region.count) == ("/html/body/ul", 1, 0, 5)
    assert [record.xpaths for record in region.records] == [[f"/html/body/ul/li[{i}]"] for i in range(1, 6)]
    assert region.records[2].text == "Journal 2 ISSN 1234-5672"
    assert region.score == sum(len(record.text) for record in region.records)


def test_non_contiguous_records_of_a_table():
    names = "<tr>" + "".join(f"<td><a href='/p{i}'>Product {i}</a></td>" for i in range(3)) + "</tr>"
    details = "<tr>" + "".join(f"<td><span>${i}</span><img src='i{i}.png'/></td>" for i in range(3)) + "</tr>"
    regions = mine_data_regions(_page(f"<table>{names}{details}{names}{details}</table>"))
    assert len(regions) == 1
    region = regions[0]
    assert (region.k, region.start, region.count) == (2, 0, 4)
    assert len(region.records) == 6
    assert region.records[0].xpaths == ["/html/body/table/tr[1]/td[1]", "/html/body/table/tr[2]/td[1]"]
    assert region.records[0].text == "Product 0 $0"


def test_records_outside_the_region_are_found():
    cell = "<div class='cell'><a href='/x'><img src='x.png'/></a><p>Name <b>bold</b></p></div>"
    rows = "".join(f"<div class='row'>{cell * 6}</div>" for _ in range(3))
    regions = mine_data_regions(_page(f"<div class='grid'>{rows}<div class='row'>{cell * 2}</div></div>"))
    region = regions[0]
    assert (region.k, region.start, region.count) == (1, 0, 3)
    assert len(region.records) == 20
    assert region.records[-1].xpaths == ["/html/body/div/div[4]/div[2]"]


def test_regions_inside_a_region_are_not_reported():
    row = "<div><ul><li><b>a</b></li><li><b>b</b></li><li><b>c</b></li></ul><p>x</p></div>"
    regions = mine_data_regions(_page(f"<section>{row * 3}</section>"))
    assert [region.parent for region in regions] == ["/html/body/section"]


def test_regions_are_ranked_by_content():
    menu = "<ul>" + "<li><a href='/m'>M</a></li>" * 4 + "</ul>"
    items = "".join(f"<div><h2>Title {i}</h2><p>{'long text ' * 20}</p></div>" for i in range(3))
    regions = mine_data_regions(_page(f"<nav>{menu}</nav><main>{items}</main>"), navigation=True)
    assert [region.parent for region in regions] == ["/html/body/main", "/html/body/nav/ul"]
    assert regions[0].score > regions[1].score


def test_yelp_page_is_one_region_of_40_reviews():
    html = (DATA / "scrapinghub-mdr" / "htmlpage0.html").read_bytes()
    best = mine_data_regions(html)[0]
    assert best.parent.endswith("/ul")
    assert (best.k, best.start, best.count, len(best.records)) == (1, 0, 40, 40)
    assert all(len(record.xpaths) == 1 for record in best.records)
    assert all(record.xpaths[0].startswith(best.parent + "/li[") for record in best.records)
    root = lxml.html.document_fromstring(html)
    paths = [xpath for record in best.records for xpath in record.xpaths]
    assert [root.getroottree().getpath(root.xpath(xpath)[0]) for xpath in paths] == paths


def test_iens_page_is_one_region_of_29_review_blocks():
    best = mine_data_regions((DATA / "scrapinghub-mdr" / "htmlpage1.html").read_bytes())[0]
    assert (best.k, len(best.records)) == (2, 29)
    assert all(len(record.xpaths) == 2 for record in best.records)


def test_fifty_thousand_siblings_finish():
    regions = mine_data_regions(_page("<div><span>x</span></div>" * 50_000))
    assert len(regions) == 1
    assert len(regions[0].records) == 50_000


def test_deep_nesting_finishes():
    assert mine_data_regions(_page("<div>" * 10_000 + "x" + "</div>" * 10_000)) == []
    root = lxml.html.document_fromstring(_page(""))
    node = root.find("body")
    for _ in range(10_000):
        node = etree.SubElement(node, "div")
    for _ in range(3):
        etree.SubElement(etree.SubElement(node, "p"), "b").text = "leaf"
    regions = mine_tag_tree(TagTree.build(root), 10, 0.3)
    assert len(regions) == 1
    assert len(regions[0].records) == 3


def test_empty_pages_have_no_regions():
    assert mine_data_regions("") == []
    assert mine_data_regions(_page("")) == []
    assert mine_data_regions(b"<html><body><p>one</p></body></html>") == []


def test_a_cap_of_nodes_mines_the_first_elements_only():
    page = _page("<div><span>x</span></div>" * 1_000)
    regions = mine_data_regions(page, max_nodes=4 + 2 * 200)  # html, head, title, body; div and span each
    assert [len(region.records) for region in regions] == [200]
    assert regions[0].records[-1].xpaths == ["/html/body/div[200]"]
