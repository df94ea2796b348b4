"""The sites with the real web's shapes (issue 13): each shape is present, the truth covers them, they are served."""

import re
from html import escape
from urllib.parse import urlsplit

import pytest
from lxml import html as lxml_html

from journals.sandbox.sources import LETTERS, REALWEB_NAMES
from journals.sandbox.truth import world_truth
from journals.sandbox.web import SandboxWeb

BASE = "http://127.0.0.1:1"


@pytest.fixture(scope="module")
def web() -> SandboxWeb:
    return SandboxWeb(seed=1, size=2000)


@pytest.fixture(scope="module")
def truth(web: SandboxWeb) -> dict:
    return world_truth(web, BASE)


def get(web: SandboxWeb, url: str) -> str:
    parts = urlsplit(url)
    response = web.respond(parts.path, parts.query, "127.0.0.1:1")
    assert response.status == 200, url
    return response.body.decode()


def tree(web: SandboxWeb, url: str) -> lxml_html.HtmlElement:
    return lxml_html.fromstring(get(web, url))


def test_truth_covers_the_new_sites_and_every_page_is_served(web: SandboxWeb, truth: dict) -> None:
    assert REALWEB_NAMES == ("openaccess", "societypress", "campuspress")
    for name in REALWEB_NAMES:
        site = truth["sites"][name]
        assert site["kind"] == "realweb" and site["start_url"] == f"{BASE}/{name}/"
        assert len(site["journals"]) > 100
        for journal in site["journals"]:
            for url in (*journal["listing_urls"], journal["url"], journal["metrics_url"]):
                if url:
                    assert escape(journal["values"]["title"]) in get(web, url) or url in journal["listing_urls"]
        listed = [record["url"] for records in site["listing_pages"].values() for record in records]
        assert sorted(listed) == sorted(j["url"] for j in site["journals"])


def test_same_seed_same_pages(web: SandboxWeb) -> None:
    again = SandboxWeb(seed=1, size=2000)
    for name in REALWEB_NAMES:
        index = web.sites[name].site.journal_indices[7]
        for path in (f"/{name}/", web.sites[name].journal_path(index)):
            assert web.respond(path).body == again.respond(path).body


def test_openaccess_start_page_is_the_whole_list_as_a_paginated_table(web: SandboxWeb, truth: dict) -> None:
    site = truth["sites"]["openaccess"]
    start = tree(web, site["start_url"])
    hrefs = [a.get("href") for a in start.iter("a")]
    assert not any(re.search(r"(letter|browse|az)[=/]", h or "") for h in hrefs), "no letter links"
    assert not [a for a in start.iter("a") if re.fullmatch(r"[A-Z]|0-9", a.text_content().strip())]
    pages = site["listing_pages"]
    assert list(pages) == [site["start_url"], f"{site['start_url']}?page=2", f"{site['start_url']}?page=3"]
    rows = start.xpath("//table[@class='journaltable']/tbody/tr")
    assert len(rows) == 100 == len(pages[site["start_url"]])
    assert start.xpath("//nav[@aria-label='pagination']//a[@href='?page=2']")
    first, record = rows[0], pages[site["start_url"]][0]
    assert first.xpath("td[2]/a")[0].text == record["title"]
    assert first.xpath("td[3]")[0].text == record["issn"]
    assert float(first.xpath("td[5]")[0].text) == record["impact_factor"]
    assert [a.text_content() or a.xpath("img/@alt")[0] for a in first.xpath(".//a")][2:] == ["Statistics", "RSS"]
    assert web.respond("/openaccess/journals/a").status == 404


def test_societypress_letters_are_scripts_over_one_page_of_logo_tiles(web: SandboxWeb, truth: dict) -> None:
    site = truth["sites"]["societypress"]
    page = get(web, site["start_url"])
    start = lxml_html.fromstring(page)
    assert """<a href="#" onclick="showLetter('B')" class="az-link">B</a>""" in page
    assert '<a href="javascript:void(0)" data-letter="B" class="az-link">B</a>' in page
    templates = web.sites["societypress"]
    assert len(start.xpath("//section[@class='letter-group']")) == len(templates.site.by_letter)
    assert list(site["listing_pages"]) == [site["start_url"]]
    index = start.xpath("//div[@role='navigation' and @class='journal-index']")[0]
    tiles = index.xpath(".//a[@class='tile-link']")
    assert len(tiles) == len(site["journals"])
    assert all(not a.text_content().strip() for a in tiles), "logo tiles have no text of their own"
    names = {a.get("title") or a.xpath("img/@alt")[0] for a in tiles}
    assert names == {j["values"]["title"] for j in site["journals"]}
    assert {bool(a.get("title")) for a in tiles} == {True, False}, "alt and title forms both appear"
    lookalikes = start.xpath("//section[@class='topics' or @class='news']//a[@class='tile-link']/@href")
    assert lookalikes and all("/topics/" in h or "/news/" in h for h in lookalikes)


def test_campuspress_short_letters_sit_beside_heavier_menus(web: SandboxWeb, truth: dict) -> None:
    templates = web.sites["campuspress"]
    start = tree(web, BASE + templates.root)
    assert not start.xpath("//div[@class='az']//a"), "letters are no links"
    assert [b.get("onclick") for b in start.xpath("//div[@class='az']/button")] == [
        f"location.href='{templates.letter_href(c)}'" for c in LETTERS
    ]
    short = [letter for letter, indices in templates.site.by_letter.items() if len(indices) <= 3]
    assert short
    forms = set()
    for letter in short:
        page = tree(web, BASE + templates.letter_path(letter))
        cards = page.xpath("//*[contains(@class, 'journal-list') or self::ul[@class='card-list']][1]//a")
        journal_links = [a for a in page.xpath("//a[@class='card-link']") if "/journal/" in a.get("href")]
        assert 1 <= len(journal_links) <= 3 and cards
        menu = page.xpath("//div[contains(@class, 'subject-menu')]//a")
        sidebar = page.xpath("//div[contains(@class, 'sidebar')]//a")
        listing_text = sum(len(a.text_content()) for a in journal_links)
        for heavier in (menu, sidebar):
            assert len(heavier) > len(journal_links)
            assert sum(len(a.text_content()) for a in heavier) > listing_text
        lookalikes = [a.get("href") for a in page.xpath("//a[@class='card-link']") if "/journal/" not in a.get("href")]
        assert any("/topics/" in h for h in lookalikes) and any("/news/" in h for h in lookalikes)
        for href in lookalikes:
            assert web.respond(href).status == 200, "topic and news pages exist and are not journals"
        assert page.xpath("//div[@class='az']//option/@value")[1:] == [templates.letter_href(c) for c in LETTERS]
        forms.add(templates.list_form(letter))
    all_forms = {templates.list_form(letter) for letter in templates.site.by_letter}
    assert all_forms == {0, 1, 2}, "plain lists, <nav> and role=navigation all occur"
    big = max(templates.site.by_letter, key=lambda letter: len(templates.site.by_letter[letter]))
    page = get(web, BASE + templates.letter_path(big))
    assert '<nav aria-label="pagination">' in page and f"browse/{big.lower()}?page=2" in page
    assert f"{BASE}{templates.letter_path(big, 2)}" in truth["sites"]["campuspress"]["listing_pages"]
    assert forms


@pytest.mark.parametrize("name", REALWEB_NAMES)
def test_journal_pages_carry_the_real_webs_traps(web: SandboxWeb, truth: dict, name: str) -> None:
    templates = web.sites[name]
    journals = truth["sites"][name]["journals"]
    featured_seen = 0
    for journal in journals[:40]:
        index = journal["journal_id"]
        pages = [get(web, journal["url"])] + ([get(web, journal["metrics_url"])] if journal["metrics_url"] else [])
        home = lxml_html.fromstring(pages[0])
        heading = home.xpath("//h1")[0]
        assert heading.xpath(".//span[@class='sr-only']") and heading.xpath(".//span[@style='display:none']")
        assert templates.issue_label(index) in heading.text_content()
        assert heading.text_content().strip() != journal["values"]["title"]
        menu = [a.text_content() for a in home.xpath("//ul[@class='journal-menu']//a")]
        assert menu[0] == "Editors" and len(menu) > 1
        if journal["values"]["editor_in_chief"] is None:
            assert "Editor-in-Chief" not in pages[0]
        sisters = home.xpath("//footer//ul[@class='sisters']/li")
        assert len(sisters) == 6 and all(re.search(r"ISSN \d{4}-\d{3}[\dX]", li.text_content()) for li in sisters)
        for page in pages:
            box = lxml_html.fromstring(page).xpath("//section[@class='featured-journal']")
            if not box:
                continue
            featured_seen += 1
            assert box[0].xpath("h3/a")[0].text != journal["values"]["title"]
            own = box[0].getparent().xpath("section[@class='journal-metrics']")[0]
            labels = "//*[self::dt or self::th or @class='label']/text()"
            assert box[0].xpath("." + labels) == own.xpath("." + labels)
            assert "Impact Factor" in own.xpath("." + labels) and "ISSN" in own.xpath("." + labels)
    assert featured_seen >= 40
    if name == "openaccess":
        assert all(j["values"]["editor_in_chief"] is None for j in journals), "the site shows no editor-in-chief"


def test_lookalike_pages_are_not_in_the_truth(web: SandboxWeb, truth: dict) -> None:
    for name in REALWEB_NAMES:
        urls = {j["url"] for j in truth["sites"][name]["journals"]}
        start = get(web, f"{BASE}/{name}/")
        linked = {BASE + h for h in re.findall(r'href="(/[^"]+/(?:topics|news|subjects)/[^"]+)"', start)}
        assert linked and not linked & urls
        index = web.sites[name].site.journal_indices[0]
        for sub in ("issue", "stats", "rss", "editors", "aims", "submit"):
            assert web.respond(f"{web.sites[name].journal_path(index)}/{sub}").status == 200
