"""The unseen sites (issue 23), served over real HTTP: truth lists every journal, every journal page is served with
its title, and each site's navigation shape works (trackers and row links, select and Go, journals under several
subjects, Spanish paginated areas)."""

import http.client
from collections import Counter
from html import escape
from urllib.parse import parse_qs, urljoin, urlsplit

import pytest
from lxml import html as lxml_html

from journals.sandbox.server import SandboxServer
from journals.sandbox.sources import UNSEEN_NAMES
from tests.conftest import RunningSandbox

LIST_SITES = ("rowlinks", "selectgo", "bysubject", "areas")
"""The unseen sites of :mod:`journals.sandbox.unseen_lists`."""


@pytest.fixture(scope="module")
def server(world_2000: RunningSandbox) -> SandboxServer:
    return world_2000.server


@pytest.fixture(scope="module")
def truth(world_2000: RunningSandbox) -> dict:
    return world_2000.truth


def fetch(url: str) -> tuple[int, str, str]:
    """Status, Location header and body of ``GET url``, redirects not followed."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        connection.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""))
        response = connection.getresponse()
        return response.status, response.getheader("Location") or "", response.read().decode("utf-8")
    finally:
        connection.close()


def page(url: str) -> lxml_html.HtmlElement:
    status, _, body = fetch(url)
    assert status == 200, url
    return lxml_html.fromstring(body, base_url=url)


def anchors(tree: lxml_html.HtmlElement) -> list[tuple[str, str]]:
    """(absolute href, text or image alt) of every link of a page."""
    found = []
    for a in tree.iter("a"):
        text = a.text_content().strip() or " ".join(a.xpath(".//img/@alt"))
        found.append((urljoin(tree.base_url, a.get("href", "")), text))
    return found


def test_truth_lists_every_journal_and_every_journal_page_is_served_with_its_title(truth: dict) -> None:
    assert set(LIST_SITES) <= set(UNSEEN_NAMES)
    for name in LIST_SITES:
        site = truth["sites"][name]
        assert site["kind"] == "unseen"
        assert 0.05 * 2000 <= len(site["journals"]) <= 0.12 * 2000, name
        listed = [record["url"] for records in site["listing_pages"].values() for record in records]
        assert sorted(listed) == sorted(j["url"] for j in site["journals"])
        assert len({j["url"] for j in site["journals"]}) == len(site["journals"])
        for journal in site["journals"]:
            status, _, body = fetch(journal["url"])
            assert status == 200, journal["url"]
            assert f"<h1>{escape(journal['values']['title'])}" in body or escape(journal["values"]["title"]) in body
            assert journal["metrics_url"] is None


def test_rowlinks_rows_carry_issue_links_and_the_menu_goes_through_trackers(truth: dict) -> None:
    site = truth["sites"]["rowlinks"]
    landing = page(site["start_url"])
    first_list = next(href for href, text in anchors(landing) if text == "Journals A–Z")
    assert first_list == next(href for href, text in anchors(landing) if text == "All journals")
    assert first_list == next(iter(site["listing_pages"]))
    # Pagination by page numbers reaches every journal, and each journal's own link names it.
    expected = {j["url"]: j["values"]["title"] for j in site["journals"]}
    seen: dict[str, str] = {}
    queue, visited = [first_list], set()
    while queue:
        url = queue.pop()
        if url in visited:
            continue
        visited.add(url)
        tree = page(url)
        queue += [href for href, text in anchors(tree.xpath("//div[@class='pagination']")[0]) if text.isdigit()]
        for row in tree.xpath("//tr[@class='publication']"):
            links = anchors(row)
            own = [(href, text) for href, text in links if href in expected]
            assert len(own) == 1
            href, text = own[0]
            seen[href] = text
            assert expected[href] in row.text_content() + text
            others = [text for other, text in links if other != href]
            assert others == [
                "Latest Issue",
                "Current Issue",
                "Sample Issue",
                "Back Issues",
                "Submit your article",
                "Author Services",
                "RSS",
            ]
            assert all(other.startswith(href + "/") and fetch(other)[0] == 200 for other, _ in links if other != href)
    assert seen == expected
    assert len(visited) == len(site["listing_pages"]) > 5
    # Some rows link the journal by its cover alone.
    start = page(first_list)
    assert start.xpath("//tr[@class='publication']/td[@class='cover']/a/img[@alt!='']")
    # Menu and footer links go through a tracker answering 302 to an ordinary page of links, none a journal's.
    tracked = [href for href, _ in anchors(landing) if "/action/clickThrough?" in href]
    texts = {text for href, text in anchors(landing) if "/action/clickThrough?" in href}
    assert {"Books", "Help", "Mobile", "Librarians", "Info for Advertisers", "Style Guide"} <= texts
    assert {"Reagent Chemicals", "Magazine archive", "Article Collections", "Shot of Science"} <= texts
    for href in tracked:
        status, location, _ = fetch(href)
        target = parse_qs(urlsplit(href).query)["url"][0]
        assert status == 302 and location == target
        content = page(urljoin(href, location))
        items = [item for item, _ in anchors(content.xpath("//ul[@class='item-list']")[0])]
        assert len(items) >= 10 and not set(items) & set(expected)
        assert all(fetch(item)[0] == 200 for item in items[:3])


def test_selectgo_lists_journals_only_in_a_select_and_go_redirects(truth: dict) -> None:
    site = truth["sites"]["selectgo"]
    start = page(site["start_url"])
    journal_urls = {j["url"] for j in site["journals"]}
    assert not journal_urls & {href for href, _ in anchors(start)}, "no journal is linked from the start page"
    (form,) = start.xpath("//form[@action='go']")
    assert form.get("method") == "get" and form.xpath(".//button[normalize-space()='Go']")
    options = [(o.get("value"), o.text) for o in form.xpath(".//select[@name='journal']/option") if o.get("value")]
    assert sorted(urljoin(site["start_url"], value) for value, _ in options) == sorted(journal_urls)
    titles = {j["url"]: j["values"]["title"] for j in site["journals"]}
    for value, text in options:
        assert titles[urljoin(site["start_url"], value)] == text
        status, location, _ = fetch(f"{urljoin(site['start_url'], 'go')}?journal={value}")
        assert status == 302 and urljoin(site["start_url"], location) == urljoin(site["start_url"], value)
    assert fetch(f"{site['start_url']}go?journal=journal/no-such-journal")[0] == 404
    subjects = [href for href, _ in anchors(start.xpath("//ul[@class='subject-menu']")[0])]
    assert 6 <= len(subjects) <= 8
    for href in subjects:
        links = {link for link, _ in anchors(page(href))}
        assert not links & journal_urls and any("/article/" in link for link in links)


def test_bysubject_lists_every_journal_under_two_or_three_subjects(truth: dict) -> None:
    site = truth["sites"]["bysubject"]
    start = page(site["start_url"])
    browse = next(href for href, text in anchors(start) if text == "Browse by subject")
    assert [browse] == list(site["listing_pages"])
    tree = page(browse)
    counts: Counter[str] = Counter()
    for heading in tree.xpath("//h3"):
        (listing,) = heading.xpath("following-sibling::ul[1]")
        hrefs = [href for href, _ in anchors(listing)]
        assert len(hrefs) == len(set(hrefs)) > 0
        counts.update(hrefs)
    assert len(tree.xpath("//h2")) >= 3
    assert set(counts) == {j["url"] for j in site["journals"]}
    assert set(counts.values()) == {2, 3}


def test_areas_is_spanish_and_its_paginated_areas_reach_every_journal_once(truth: dict) -> None:
    site = truth["sites"]["areas"]
    start = page(site["start_url"])
    assert start.get("lang") == "es" and "Áreas temáticas" in start.text_content()
    areas = [href for href, _ in anchors(start.xpath("//section[@class='areas']")[0])]
    assert 6 <= len(areas) <= 8
    found: Counter[str] = Counter()
    for area in areas:
        url: str | None = area
        pages = 0
        while url:
            tree = page(url)
            pages += 1
            found.update({href for href, _ in anchors(tree.xpath("//div[@class='listado']")[0])})
            nav = anchors(tree.xpath("//nav[@class='paginacion']")[0])
            url = next((href for href, text in nav if text == "Siguiente ›"), None)
            if pages > 1:
                assert any(text == "‹ Anterior" for _, text in nav)
        assert pages >= 1
    assert set(found) == {j["url"] for j in site["journals"]} and set(found.values()) == {1}
    assert any(len(records) == 10 for records in site["listing_pages"].values())
    shown_five_year = 0
    for journal in site["journals"][:40]:
        body = fetch(journal["url"])[2]
        values = journal["values"]
        if values["issn"]:
            assert "ISSN impreso" in body and values["issn"].replace("-", "–") in body
        if values["impact_factor"] is not None:
            assert "Factor de impacto" in body and f"{values['impact_factor']:.3f}".replace(".", ",") in body
        if values["five_year_impact_factor"] is not None:
            shown_five_year += 1
            assert "Factor de impacto a cinco años" in body
        else:
            assert "Factor de impacto a cinco años" not in body
        if values["editor_in_chief"]:
            assert "Editor en jefe" in body
        if values["publisher"]:
            assert "Editorial" in body and escape(values["publisher"]) in body
    assert 0 < shown_five_year < 40
