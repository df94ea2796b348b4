"""Nested regions, the filters on weak regions, the split of aperiodic GNs, region widening, text."""

from pathlib import Path

from journals.mdr import mine_data_regions
from journals.mdr.mining import mine_tag_tree
from journals.mdr.regions import find_all_regions, find_regions
from journals.mdr.tagtree import TagTree
from journals.pages.parsed import parse_html

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "mdr"


def _page(body: str) -> str:
    return f"<html><head><title>t</title></head><body>{body}</body></html>"


def _item(i: int) -> str:
    return f"<li><img src='p{i}.png'/><a href='/p{i}'>Product number {i}</a><span>About product {i}</span></li>"


def test_substantial_lists_nested_in_records_are_reported():
    sections = "".join(
        f"<div class='section'><h2>Section {s}</h2><ul>{''.join(_item(10 * s + i) for i in range(4))}</ul></div>"
        for s in range(3)
    )
    regions = mine_data_regions(_page(f"<main>{sections}</main>"))
    parents = {region.parent for region in regions}
    assert "/html/body/main" in parents  # the sections themselves (the root's region)
    for s in range(1, 4):
        assert f"/html/body/main/div[{s}]/ul" in parents  # and the product list inside each one
    nested = next(region for region in regions if region.parent == "/html/body/main/div[2]/ul")
    assert [record.xpaths for record in nested.records] == [[f"/html/body/main/div[2]/ul/li[{i}]"] for i in range(1, 5)]


def test_find_all_regions_returns_what_uncovered_drs_drops():
    row = "<div><ul><li><b>a</b></li><li><b>b</b></li><li><b>c</b></li></ul><p>x</p></div>"
    tree = TagTree.build(parse_html(_page(f"<section>{row * 3}</section>")))
    top, nested = find_all_regions(tree, 10, 0.3)
    assert top == find_regions(tree, 10, 0.3)
    assert [tree.tag(region.parent) for region in top] == ["section"]
    assert [tree.tag(region.parent) for region in nested] == ["ul", "ul", "ul"]


def test_records_without_text_and_pairs_are_left_out():
    icons = "<div>" + "<span><i></i><i></i></span>" * 5 + "</div>"  # similar, but no text at all
    pair = "<div><p><b>one</b> x</p><p><b>two</b> y</p></div>"  # two similar nodes only
    items = "<ul>" + "".join(_item(i) for i in range(3)) + "</ul>"
    regions = mine_data_regions(_page(icons + pair + items))
    assert [region.parent for region in regions] == ["/html/body/ul"]


def test_a_row_of_text_less_icons_is_not_split_into_records():
    stars = "<span><svg></svg></span>" * 5
    cards = "".join(f"<div class='card'><div>{stars}</div><p>Hotel {i} by the sea</p></div>" for i in range(4))
    region = mine_data_regions(_page(f"<div class='grid'>{cards}</div>"))[0]
    assert [record.xpaths for record in region.records] == [[f"/html/body/div/div[{i}]"] for i in range(1, 5)]


def test_records_of_varying_structure_are_not_grouped():
    """Adjacent items of 3 to 12 tags break the k = 1 chain and IdentDRs covers them with GNs of 5 items,
    but they are one record each: the region has no period (an item is as similar to the next as to the
    one 5 further). The last two items are like neither neighbour, so the region is not widened to them."""
    shapes = [
        "<a href='/x'>Title</a>",
        "<a href='/x'>Title</a><span>by someone</span>",
        "<a href='/x'>Title</a><span>by someone</span><em>new</em><img src='x.png'/>",
        "<a href='/x'>Title</a><span>by <b>someone</b></span><ul><li>t1</li><li>t2</li></ul>",
    ]
    order = [0, 1, 2, 3, 1, 0, 2, 3, 0, 1, 3, 2]
    items = "".join(f"<li><div>{shapes[s]}</div></li>" for s in order)
    region = mine_data_regions(_page(f"<ul>{items}</ul>"))[0]
    assert (region.k, region.start, region.count) == (1, 0, 10)
    assert [record.xpaths for record in region.records] == [[f"/html/body/ul/li[{i}]"] for i in range(1, 11)]


def test_periodic_two_node_records_stay_together():
    blocks = "".join(
        f"<div class='divider'></div><div class='review'><h3>Reviewer {i}</h3><p>Good food {i}</p></div>"
        for i in range(5)
    )
    region = mine_data_regions(_page(f"<div id='reviews'>{blocks}</div>"))[0]
    assert region.k == 2
    assert len(region.records) == 5
    assert all(len(record.xpaths) == 2 for record in region.records)


def test_multi_node_records_between_empty_separators_are_found():
    """Each product is a card and a details block; a ``br`` ends every row of three products. IdentDRs covers
    the rows with GNs of 7 nodes; left without the ``br``s, the nodes are two-node records."""
    card = "<div class='card'><a href='/p{i}'><img src='p{i}.png'/><span>Product {i}</span></a><b>$ {i}</b></div>"
    details = "<div class='details'><ul><li><img src='a{i}.png'/></li><li><img src='b{i}.png'/></li></ul></div>"
    rows = "".join(
        "".join(card.format(i=3 * row + i) + details.format(i=3 * row + i) for i in range(3)) + "<br/>"
        for row in range(4)
    )
    region = mine_data_regions(_page(f"<div class='grid'>{rows}</div>"))[0]
    assert (region.k, region.start, region.count) == (7, 0, 28)
    assert len(region.records) == 12
    assert region.records[0].xpaths == ["/html/body/div/div[1]", "/html/body/div/div[2]"]
    assert region.records[3].xpaths == ["/html/body/div/div[7]", "/html/body/div/div[8]"]
    assert region.records[3].text == "Product 3 $ 3"


def test_a_record_is_reported_once():
    """Two similar lists side by side: the root's region splits each list into its items (FindRecords-1), and
    each list is also a nested region of those same items. The items are reported once, by the best region."""
    lists = "".join(f"<ul>{''.join(_item(10 * n + i) for i in range(3))}</ul>" for n in range(2))
    regions = mine_data_regions(_page(f"<main>{lists}</main>"))
    xpaths = [tuple(record.xpaths) for region in regions for record in region.records]
    assert len(xpaths) == len(set(xpaths)) == 6
    assert [region.parent for region in regions] == ["/html/body/main"]


def test_depta_page_4_region_is_widened_to_its_13th_listing():
    html = (DATA / "pydepta-mdr" / "resources" / "4.html").read_bytes()
    region = next(region for region in mine_data_regions(html) if region.parent == "/html/body/div[3]/div[2]/div[7]")
    assert (region.k, region.start, region.count, len(region.records)) == (1, 0, 13, 13)


def test_mine_tag_tree_texts_skip_comments_scripts_and_svg_drawings():
    body = (
        "<ul>"
        + "".join(
            f"<li><b>Item {i}</b><!-- c -->after comment<script>no()</script> after script"
            f"<svg><text>drawn</text></svg></li>"
            for i in range(3)
        )
        + "</ul>"
    )
    tree = TagTree.build(parse_html(_page(body)))
    region = mine_tag_tree(tree, 10, 0.3)[0]
    assert region.records[0].text == "Item 0 after comment after script"


def test_lists_inside_nav_are_left_out_unless_asked_for():
    menu = "<nav><ul>" + "".join(f"<li><a href='/s{i}'>Subject area {i}</a></li>" for i in range(6)) + "</ul></nav>"
    products = "<main><ul>" + "".join(_item(i) for i in range(5)) + "</ul></main>"
    page = _page(menu + products)
    assert {region.parent for region in mine_data_regions(page)} == {"/html/body/main/ul"}
    with_menus = {region.parent for region in mine_data_regions(page, navigation=True)}
    assert with_menus == {"/html/body/main/ul", "/html/body/nav/ul"}
