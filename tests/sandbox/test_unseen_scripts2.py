"""The second set of unseen script-built sites, served over real HTTP without a browser: the truth lists every
journal their scripts would show, the served pages are the shells, lists and panels the sites stand for, and the JSON
and fragments the scripts read hold exactly the truth's values."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from lxml import html as lxml_html

from journals.sandbox.sources import LETTERS, UNSEEN_NAMES, letter_of, slugify
from journals.sandbox.unseen_scripts2 import HASHBANG_VIEWS, INFINITE_BATCH
from tests.conftest import RunningSandbox
from tests.sandbox.test_unseen_scripts import api, body, by_url, fetch, site_of, tree

SITES = ("infinite", "tabs", "hashbang", "accordion", "skeleton")
SCRIPTS = {
    "infinite": ("assets/browse.js", "IntersectionObserver"),
    "tabs": ("js/app.4e1b7c.js", "history.pushState"),
    "hashbang": ("js/app.min.js", "hashchange"),
    "accordion": ("themes/marram/js/accordion.js", "'toggle'"),
    "skeleton": ("static/js/metrics-panel.min.js", "1200"),
}
"""Each site's script and a token of what it does."""
ISSN = r"\d{4}-\d{3}[\dX]"


@pytest.fixture(scope="module")
def served(world_2000: RunningSandbox) -> tuple[str, dict[str, Any]]:
    return world_2000.base_url, world_2000.truth


def shown(journal: dict[str, Any]) -> dict[str, Any]:
    """The values a journal's page shows (its truth without the nulls)."""
    return {name: value for name, value in journal["values"].items() if value is not None}


def text_of(element: lxml_html.HtmlElement) -> str:
    return " ".join(" ".join(element.itertext()).split())


def crawl_links(start: str, listing: str, journal: str) -> tuple[set[str], set[str]]:
    """(listing pages seen, journal URLs linked) from following ``<main>`` links whose path matches ``listing``."""
    queue, seen, linked = [start], set(), set()
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        seen.add(url)
        for href in tree(url).xpath("//main//a/@href"):
            absolute = urljoin(url, href)
            if re.fullmatch(listing, urlsplit(absolute).path):
                queue.append(absolute)
            elif re.fullmatch(journal, urlsplit(absolute).path):
                linked.add(absolute)
    return seen, linked


def assert_chrome(page: lxml_html.HtmlElement, own: set[str], titles: list[str]) -> None:
    """A menu heavier than the content and a footer of partner journals that the site does not list."""
    assert len(page.xpath("//header//a | //nav//a")) >= 20
    partners = page.xpath("//footer//a[starts-with(@href, 'https://')]/text()")
    assert len(partners) == 4 and set(partners) <= set(titles) and not set(partners) & own


# Every site ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SITES)
def test_sites_are_unseen_small_and_list_distinct_journals(served: tuple[str, dict[str, Any]], name: str) -> None:
    base, truth = served
    assert name in UNSEEN_NAMES
    site = site_of(truth, name)
    assert site["kind"] == "unseen" and site["start_url"] == f"{base}/{name}/"
    assert 60 <= len(site["journals"]) <= 100, "3–5% of a 2000-journal world"
    assert len(by_url(site)) == len(site["journals"])
    records = [r["url"] for page in site["listing_pages"].values() for r in page]
    assert sorted(records) == sorted(by_url(site)), "every journal on one listing page"
    attributes = {n for j in site["journals"] for n, v in j["values"].items() if v is not None}
    assert {"title", "issn", "eissn", "impact_factor", "citescore", "editor_in_chief"} <= attributes
    assert any(None in j["values"].values() for j in site["journals"]), "some journals lack some value"
    assert all(j["metrics_url"] is None for j in site["journals"]), "metrics on the journal's own page"


@pytest.mark.parametrize("name", SITES)
def test_scripts_are_plain_es2017_served_as_javascript(served: tuple[str, dict[str, Any]], name: str) -> None:
    base, _ = served
    path, marker = SCRIPTS[name]
    text = body(f"{base}/{name}/{path}", "application/javascript")
    assert "fetch(" in text and marker in text
    assert "import " not in text and "require(" not in text, "no module system, no library"
    assert "?." not in text and "??" not in text, "no syntax newer than ES2017"


@pytest.mark.parametrize("name", ("infinite", "tabs", "accordion", "skeleton"))
def test_server_pages_have_heavy_chrome_partners_and_decoys(served: tuple[str, dict[str, Any]], name: str) -> None:
    _, truth = served
    site = site_of(truth, name)
    own = {j["values"]["title"] for j in site["journals"]}
    titles = [j["title"] for j in truth["relation"]]
    assert_chrome(tree(site["start_url"]), own, titles)
    for journal in site["journals"][:12]:
        page = tree(journal["url"])
        assert_chrome(page, own, titles)
        (aside,) = page.xpath("//aside")
        quoted = aside.xpath(".//a/text()")
        assert len(quoted) == 3 and set(quoted) <= own and journal["values"]["title"] not in quoted
        assert re.search(r"[Ii]mpact [Ff]actor[^:]*: \d+\.\d{3}", text_of(aside)), "other journals, same labels"


def test_hashbang_chrome_is_the_apps_data(served: tuple[str, dict[str, Any]]) -> None:
    base, truth = served
    site = site_of(truth, "hashbang")
    data = api(f"{base}/hashbang/api/site.json")
    hrefs = [item["href"] for section in data["menu"] for item in section["links"]]
    assert len(hrefs) >= 20 and all(h.startswith("#!/") for h in hrefs), "every menu link a hash route"
    own = {j["values"]["title"] for j in site["journals"]}
    partners = [p["title"] for p in data["partners"]]
    assert len(partners) == 4 and not set(partners) & own


# 1. infinite -----------------------------------------------------------------------------------------------------


def test_infinite_browse_page_is_an_empty_list_and_a_sentinel(served: tuple[str, dict[str, Any]]) -> None:
    base, truth = served
    site = site_of(truth, "infinite")
    assert list(site["listing_pages"]) == [f"{base}/infinite/browse"]
    page = tree(f"{base}/infinite/browse")
    (listing,) = page.xpath("//ul[@id='journal-list']")
    assert len(listing) == 0 and listing.get("data-api") == "/infinite/api/v2/journals"
    (sentinel,) = page.xpath("//*[@id='scroll-sentinel']")
    assert sentinel.getprevious() is listing and not text_of(sentinel)
    main = page.xpath("//main")[0]
    assert not main.xpath(".//button") and not main.xpath(".//a"), "no letters, page numbers or Load more"
    assert "Load more" not in text_of(main) and "Next" not in text_of(main)
    assert page.xpath("//script/@src")[-1] == "/infinite/assets/browse.js"
    start = tree(site["start_url"])
    assert f"{base}/infinite/browse" in {urljoin(base, h) for h in start.xpath("//main//a/@href")}


def test_infinite_api_gives_twelve_at_a_time_every_journal_once(served: tuple[str, dict[str, Any]]) -> None:
    base, truth = served
    site = site_of(truth, "infinite")
    records: list[dict[str, str]] = []
    offset: int | None = 0
    batches = 0
    while offset is not None:
        data = api(f"{base}/infinite/api/v2/journals?offset={offset}&limit={INFINITE_BATCH}")
        assert data["offset"] == offset and data["total"] == len(site["journals"])
        assert len(data["items"]) == INFINITE_BATCH or data["nextOffset"] is None
        records += [{"title": j["title"], "url": base + j["url"]} for j in data["items"]]
        offset, batches = data["nextOffset"], batches + 1
    assert records == site["listing_pages"][f"{base}/infinite/browse"]
    assert batches >= 6, "the reader scrolls to the bottom several times"
    assert api(f"{base}/infinite/api/v2/journals")["items"] == api(f"{base}/infinite/api/v2/journals?offset=0")["items"]
    assert len(api(f"{base}/infinite/api/v2/journals?limit=500")["items"]) == 48
    assert fetch(f"{base}/infinite/api/v2/journals?offset={len(records) + 1}")[0] == 404


def test_infinite_journal_pages_show_the_truths_values_in_a_table(served: tuple[str, dict[str, Any]]) -> None:
    _, truth = served
    fields = {
        "Print ISSN": "issn",
        "ISSN (Print)": "issn",
        "Online ISSN": "eissn",
        "ISSN (Online)": "eissn",
        "Journal Impact Factor": "impact_factor",
        "Impact factor (2024)": "impact_factor",
        "Impact Factor™": "impact_factor",
        "CiteScore": "citescore",
        "CiteScore 2024": "citescore",
        "CiteScore (Scopus)": "citescore",
        "Editor-in-Chief": "editor_in_chief",
        "Editor in Chief": "editor_in_chief",
        "Chief Editor": "editor_in_chief",
    }
    tables, not_available = set(), 0
    for journal in site_of(truth, "infinite")["journals"]:
        page = tree(journal["url"])
        assert page.xpath("//h1")[0].text == journal["values"]["title"]
        (table,) = page.xpath("//main//table")
        tables.add(table.get("class"))
        got: dict[str, Any] = {"title": journal["values"]["title"]}
        for row in table.xpath(".//tbody/tr | ./tr"):
            label, value = (text_of(cell) for cell in row.xpath("th | td"))
            if label == "ISSN":
                for number, kind in re.findall(rf"({ISSN}) \((print|online)\)", value):
                    got["issn" if kind == "print" else "eissn"] = number
            elif value == "Not available":
                not_available += 1
            else:
                name = fields[label]
                got[name] = float(value) if name in ("impact_factor", "citescore") else value
        assert got == shown(journal), journal["url"]
    assert tables == {"journal-details", "tbl tbl--striped", "metrics-table"}, "three templates"
    assert not_available, "a few absent metrics are written 'Not available'"


# 2. tabs ---------------------------------------------------------------------------------------------------------


def test_tabs_az_index_is_server_html_letters_and_next_pages(served: tuple[str, dict[str, Any]]) -> None:
    base, truth = served
    site = site_of(truth, "tabs")
    seen, linked = crawl_links(site["start_url"], r"/tabs/journals", r"/tabs/journal/[a-z0-9-]+")
    assert linked == set(by_url(site))
    assert set(site["listing_pages"]) <= seen
    assert any("&page=2" in url for url in site["listing_pages"])
    for url, records in site["listing_pages"].items():
        page = tree(url)
        assert re.fullmatch(r".*/tabs/journals\?letter=([A-Z]|0-9)(&page=\d+)?", url)
        entries = [
            {"title": a.text, "url": urljoin(base, a.get("href"))}
            for a in page.xpath("//ul[@class='journal-results']/li/a")
        ]
        assert entries == records, url
        pager = page.xpath("//nav[@class='pager']")
        if pager:
            assert {a.text for a in pager[0].xpath(".//a")} <= {"Previous", "Next"}, "no page numbers"
    assert max(len(records) for records in site["listing_pages"].values()) == 6


def test_tabs_router_api_matches_the_server_pages(served: tuple[str, dict[str, Any]]) -> None:
    base, truth = served
    site = site_of(truth, "tabs")
    for url, records in site["listing_pages"].items():
        query = urlsplit(url).query
        data = api(f"{base}/tabs/api/journals?{query}")
        assert [{"title": j["title"], "url": base + j["url"]} for j in data["journals"]] == records
        assert [entry["letter"] for entry in data["letters"]] == list(LETTERS)
    assert fetch(f"{base}/tabs/api/journals?letter=A&page=99")[0] == 404


def test_tabs_journal_pages_are_shells_with_empty_tab_panels(served: tuple[str, dict[str, Any]]) -> None:
    _, truth = served
    forms, access = set(), set()
    for journal in site_of(truth, "tabs")["journals"]:
        values = journal["values"]
        page = tree(journal["url"])
        assert page.xpath("//h1")[0].text == values["title"]
        hero = text_of(page.xpath("//div[contains(@class, 'journal-hero')]")[0])
        for name in ("issn", "eissn"):
            assert (values[name] in hero) if values[name] else True
        forms.add("ISSN:" in hero)
        tabs = page.xpath("//*[@role='tablist']/button[@role='tab']")
        assert [text_of(t) for t in tabs] == ["Overview", "Journal metrics", "Editorial board"]
        assert [t.get("aria-selected") for t in tabs] == ["true", "false", "false"]
        for key in ("metrics", "board"):
            (panel,) = page.xpath(f"//section[@id='panel-{key}']")
            assert panel.get("hidden") is not None and len(panel) == 0 and not text_of(panel)
        overview = text_of(page.xpath("//section[@id='panel-overview']")[0])
        if values["publisher"]:
            assert values["publisher"] in overview
        if values["open_access"] is not None:
            access.add(values["open_access"])
            assert ("Open access" in overview) == values["open_access"]
            assert ("Subscription" in overview) != values["open_access"]
        main = text_of(page.xpath("//main")[0])
        assert "Impact factor" not in main and "CiteScore" not in main
        assert values["editor_in_chief"] is None or values["editor_in_chief"] not in main, "the board is fetched"
        assert "Impact factor" in text_of(page.xpath("//aside")[0]), "decoys quote other journals"
        assert page.xpath("//script/@src")[-1] == "/tabs/js/app.4e1b7c.js"
    assert forms == {True, False} and access == {True, False}


def test_tabs_tab_apis_hold_the_truths_values(served: tuple[str, dict[str, Any]]) -> None:
    base, truth = served
    journals = site_of(truth, "tabs")["journals"]
    without = 0
    for journal in journals:
        values, slug = journal["values"], urlsplit(journal["url"]).path.rpartition("/")[2]
        metrics = api(f"{base}/tabs/api/journal/{slug}/metrics")
        assert (metrics["impactFactor"], metrics["fiveYearImpactFactor"], metrics["citeScore"], metrics["sjr"]) == (
            values["impact_factor"],
            values["five_year_impact_factor"],
            values["citescore"],
            values["sjr"],
        )
        without += not metrics["inJcr"]
        board = api(f"{base}/tabs/api/journal/{slug}/editorial-board")
        chief = board["editorInChief"]
        assert (chief["name"] if chief else None) == values["editor_in_chief"]
        assert all(m["name"] != values["editor_in_chief"] for m in board["associateEditors"] + board["advisoryBoard"])
    assert 0.05 <= without / len(journals) <= 0.3, "some journals are not in the Journal Citation Reports"
    assert fetch(f"{base}/tabs/api/journal/no-such-journal/metrics")[0] == 404


# 3. hashbang -----------------------------------------------------------------------------------------------------


def test_hashbang_serves_one_empty_ng_app_shell(served: tuple[str, dict[str, Any]]) -> None:
    base, truth = served
    site = site_of(truth, "hashbang")
    shell = body(site["start_url"])
    assert body(f"{base}/hashbang/index.html") == shell
    page = lxml_html.fromstring(shell)
    (app,) = page.xpath("//body/div[@ng-app]")
    assert [e.tag for e in app] == ["div"] and app[0].get("ng-view") is not None and len(app[0]) == 0
    assert not text_of(app) and not page.xpath("//a")
    assert "enable JavaScript" in page.xpath("//noscript")[0].text
    assert page.xpath("//script/@src") == ["/hashbang/js/app.min.js"]
    for path in ("journals", "journal/anything", "browse/A", "about", f"journal/{slugify('x')}"):
        assert fetch(f"{base}/hashbang/{path}")[0] == 404, "every route is a hash route on the start page"


def test_hashbang_urls_are_hash_routes_and_the_api_lists_every_journal(served: tuple[str, dict[str, Any]]) -> None:
    base, truth = served
    site = site_of(truth, "hashbang")
    root = f"{base}/hashbang/"
    assert all(re.fullmatch(re.escape(root) + r"#!/journal/[a-z0-9-]+", url) for url in by_url(site))
    letters = api(f"{root}api/letters.json")["letters"]
    assert [entry["letter"] for entry in letters] == list(LETTERS)
    seen: list[str] = []
    for entry in letters:
        data = api(f"{root}api/browse/{entry['letter']}.json")
        records = [{"title": j["title"], "url": f"{root}#!/journal/{j['slug']}"} for j in data["journals"]]
        assert records == site["listing_pages"].get(f"{root}#!/browse/{entry['letter']}", []), entry["letter"]
        assert data["total"] == entry["count"] and all(letter_of(r["title"]) == entry["letter"] for r in records)
        seen += [r["url"] for r in records]
    assert sorted(seen) == sorted(by_url(site))


def test_hashbang_journal_api_holds_the_truths_values(served: tuple[str, dict[str, Any]]) -> None:
    base, truth = served
    site = site_of(truth, "hashbang")
    fields = {
        "issn": "printIssn",
        "eissn": "onlineIssn",
        "impact_factor": "impactFactor",
        "citescore": "citeScore",
        "editor_in_chief": "editorInChief",
    }
    for journal in site["journals"]:
        slug = journal["url"].rpartition("/")[2]
        data = api(f"{base}/hashbang/api/journal/{slug}.json")
        assert data["title"] == journal["values"]["title"]
        for name, field in fields.items():
            assert data[field] == journal["values"][name], (journal["url"], name)
        related = {f"{base}/hashbang/#!/journal/{r['slug']}" for r in data["related"]}
        assert len(related) == 3 and related <= set(by_url(site)) and journal["url"] not in related
    assert fetch(f"{base}/hashbang/api/journal/no-such-journal.json")[0] == 404


def test_hashbang_views_are_angular_templates(served: tuple[str, dict[str, Any]]) -> None:
    base, _ = served
    for name in HASHBANG_VIEWS:
        text = body(f"{base}/hashbang/views/{name}")
        assert "{{" in text or name == "404.html"
    journal = body(f"{base}/hashbang/views/journal.html")
    assert "<dl" in journal and 'ng-if="journal.impactFactor"' in journal and "number:3" in journal
    assert fetch(f"{base}/hashbang/views/missing.html")[0] == 404


# 4. accordion ----------------------------------------------------------------------------------------------------


def test_accordion_letters_are_server_links(served: tuple[str, dict[str, Any]]) -> None:
    _, truth = served
    site = site_of(truth, "accordion")
    seen, linked = crawl_links(
        site["start_url"], r"/accordion/journals/a-z/([a-z]|0-9)", r"/accordion/journals/[a-z0-9-]+/"
    )
    assert linked == set(by_url(site)) and set(site["listing_pages"]) <= seen
    assert all(url.endswith("/") for url in by_url(site))


def test_accordion_pages_hold_ids_and_an_empty_metrics_section(served: tuple[str, dict[str, Any]]) -> None:
    _, truth = served
    forms = set()
    for journal in site_of(truth, "accordion")["journals"]:
        values = journal["values"]
        page = tree(journal["url"])
        assert page.xpath("//h1")[0].text == values["title"]
        (ld,) = page.xpath("//head/script[@type='application/ld+json']/text()")
        data = json.loads(ld)
        assert data["name"] == values["title"]
        assert data["issn"] == [values[n] for n in ("issn", "eissn") if values[n]]
        assert set(data) == {"@context", "@type", "name", "issn"}, "no metric in the JSON-LD"
        banner = text_of(page.xpath("//div[@class='journal-banner']")[0])
        for name in ("issn", "eissn", "editor_in_chief"):
            assert (values[name] in banner) if values[name] else True
        buttons = page.xpath("//button[@aria-expanded='false']")
        details = page.xpath("//details")
        if buttons:
            forms.add("button")
            assert [text_of(b) for b in buttons] == [
                "About this journal",
                "Journal metrics",
                "Abstracting and indexing",
            ]
            (metrics,) = page.xpath("//div[@id='acc-metrics']")
            assert metrics.get("hidden") is not None
        else:
            forms.add("details")
            assert [text_of(d.xpath("summary")[0]) for d in details] == [
                "About this journal",
                "Journal metrics",
                "Abstracting and indexing",
            ]
            (metrics,) = page.xpath("//details[@data-section='metrics']/div")
        assert len(metrics) == 0 and not text_of(metrics), "empty, not Loading…, until opened"
        assert "Loading" not in page.text_content()
        src = metrics.get("data-src") or metrics.getparent().get("data-src")
        assert src == f"/accordion/ajax/journal-metrics/{journal['url'].rstrip('/').rpartition('/')[2]}"
        main = text_of(page.xpath("//main")[0])
        assert "CiteScore" not in main and "mpact factor" not in main.lower(), "no metric before the section opens"
    assert forms == {"button", "details"}, "two templates mid-redesign"


def test_accordion_metrics_fragments_hold_the_truths_values(served: tuple[str, dict[str, Any]]) -> None:
    base, truth = served
    not_available = 0
    for journal in site_of(truth, "accordion")["journals"]:
        values = journal["values"]
        slug = journal["url"].rstrip("/").rpartition("/")[2]
        fragment = lxml_html.fragment_fromstring(
            body(f"{base}/accordion/ajax/journal-metrics/{slug}"), create_parent="div"
        )
        got = {}
        for row in fragment.xpath(".//tr | .//li"):
            text = text_of(row)
            not_available += "Not available" in text
            number = re.search(r"(\d+\.\d+)$", text)
            if number:
                name = (
                    "five_year_impact_factor" if "5-" in text else "impact_factor" if "mpact" in text else "citescore"
                )
                got[name] = float(number[1])
        assert got == {n: values[n] for n in ("impact_factor", "five_year_impact_factor", "citescore") if values[n]}
    assert not_available, "a few absent metrics are written 'Not available'"
    assert fetch(f"{base}/accordion/ajax/journal-metrics/no-such-journal")[0] == 404


# 5. skeleton -----------------------------------------------------------------------------------------------------


def test_skeleton_letters_are_paginated_with_numbers(served: tuple[str, dict[str, Any]]) -> None:
    _, truth = served
    site = site_of(truth, "skeleton")
    seen, linked = crawl_links(
        site["start_url"], r"/skeleton/titles/([a-z]|0-9)(/\d+)?", r"/skeleton/journal/[a-z0-9-]+"
    )
    assert linked == set(by_url(site)) and set(site["listing_pages"]) <= seen
    assert any(url.endswith("/3") for url in site["listing_pages"]), "a letter of three pages"
    for url in site["listing_pages"]:
        pager = tree(url).xpath("//nav[@class='c-pager']")
        if pager:
            assert all(a.text.isdigit() for a in pager[0].xpath(".//a")), "numbered links only"
    assert max(len(records) for records in site["listing_pages"].values()) == 8


def test_skeleton_metrics_panel_is_placeholders_and_the_api_holds_the_values(
    served: tuple[str, dict[str, Any]],
) -> None:
    base, truth = served
    layouts, unavailable = set(), 0
    for journal in site_of(truth, "skeleton")["journals"]:
        values = journal["values"]
        page = tree(journal["url"])
        head = text_of(page.xpath("//div[@class='c-journal']")[0])
        for name in ("issn", "eissn", "editor_in_chief"):
            assert (values[name] in head) if values[name] else True
        (panel,) = page.xpath("//div[@id='journal-metrics']")
        assert page.xpath("//h2[@id='metrics-heading']")[0].text == "Metrics"
        assert len(panel.xpath("div[@class='skeleton-line' or @class='skeleton-line skeleton-line--short']")) == 4
        assert panel.xpath("*[local-name()='svg']"), "a spinner"
        assert not text_of(panel) and "Loading" not in page.text_content() and "loading" not in page.text_content()
        layouts.add(panel.get("data-layout"))
        data = api(f"{base}/skeleton/api/journals/{panel.get('data-code')}/metrics")
        assert (data["impactFactor"], data["citeScore"], data["sjr"], data["snip"]) == (
            values["impact_factor"],
            values["citescore"],
            values["sjr"],
            values["snip"],
        )
        assert all(data[key] is None for key in data["unavailable"])
        unavailable += len(data["unavailable"])
        main = text_of(page.xpath("//main")[0])
        assert "CiteScore" not in main and "SNIP" not in main
    assert layouts == {"tiles", "lines"} and unavailable
    assert fetch(f"{base}/skeleton/api/journals/1/metrics")[0] == 404
    script = body(f"{base}/skeleton/static/js/metrics-panel.min.js", "application/javascript")
    assert "setTimeout" in script and "DELAY_MS = 1200" in script
