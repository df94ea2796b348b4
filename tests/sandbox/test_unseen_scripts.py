"""The unseen script-built sites, served over real HTTP without a browser: the truth lists every journal their
scripts would show, the served pages are the shells and data the sites stand for, and the JSON the scripts read
holds exactly the truth's values."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from functools import cache
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from lxml import html as lxml_html

from journals.sandbox.sources import LETTERS, UNSEEN_NAMES, letter_of
from tests.conftest import RunningSandbox

SCRIPT_SITES = ("spa", "loadmore", "nextdata", "deferred")
NEXT_DATA = re.compile(r'<script id="__NEXT_DATA__" type="application/json">(.*?)</script>', re.DOTALL)


@pytest.fixture(scope="module")
def served(world_2000: RunningSandbox) -> tuple[str, dict[str, Any]]:
    return world_2000.base_url, world_2000.truth


@cache
def fetch(url: str) -> tuple[int, str, str]:
    """Status, content type (without parameters) and body of ``url``."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers.get_content_type(), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, "", ""


def body(url: str, content_type: str = "text/html") -> str:
    status, served_type, text = fetch(url)
    assert status == 200, url
    assert served_type == content_type, url
    return text


def api(url: str) -> Any:
    return json.loads(body(url, "application/json"))


def tree(url: str) -> lxml_html.HtmlElement:
    return lxml_html.fromstring(body(url))


def next_data(url: str) -> dict[str, Any]:
    """The props of a Next.js-like page, from its ``__NEXT_DATA__``."""
    match = NEXT_DATA.search(body(url))
    assert match, url
    data: dict[str, Any] = json.loads(match[1])
    return data


def site_of(truth: dict[str, Any], name: str) -> dict[str, Any]:
    site: dict[str, Any] = truth["sites"][name]
    return site


def by_url(site: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {j["url"]: j for j in site["journals"]}


def slug_of(url: str) -> str:
    return urlsplit(url).path.rstrip("/").rpartition("/")[2]


def fmt(value: float, places: int = 3) -> str:
    return f"{value:.{places}f}"


# Every site ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SCRIPT_SITES)
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
    assert {"title", "issn", "eissn", "impact_factor", "citescore"} <= attributes
    assert any(None in j["values"].values() for j in site["journals"])


@pytest.mark.parametrize(
    ("name", "script", "marker"),
    [
        ("spa", "main.js", "history.pushState"),
        ("loadmore", "assets/js/journals.js", "Load more"),
        ("nextdata", "_next/static/chunks/main.js", "__NEXT_DATA__"),
        ("deferred", "static/metrics.js", "800"),
    ],
)
def test_scripts_are_served_as_javascript(
    served: tuple[str, dict[str, Any]], name: str, script: str, marker: str
) -> None:
    base, _ = served
    text = body(f"{base}/{name}/{script}", "application/javascript")
    assert "fetch(" in text or "JSON.parse" in text
    assert marker in text
    assert "import " not in text and "require(" not in text, "no module system, no library"


# 1. spa ----------------------------------------------------------------------------------------------------------


def test_spa_serves_one_empty_shell_for_every_route(served: tuple[str, dict[str, Any]]) -> None:
    base, truth = served
    site = site_of(truth, "spa")
    shell = body(site["start_url"])
    paths = ["", "journals", "journals/B", "journal/no-such-journal", "subjects/anything", "about"]
    urls = [f"{base}/spa/{p}" for p in paths] + [j["url"] for j in site["journals"]]
    for url in urls:
        assert body(url) == shell, url
    page = lxml_html.fromstring(shell)
    assert [e.tag for e in page.xpath("//body/*")] == ["app-root", "noscript"]
    assert page.xpath("//noscript")[0].text.startswith("Please enable JavaScript")
    assert not page.xpath("//app-root/node()") and not page.xpath("//a")
    assert page.xpath("//script/@src") == ["/spa/main.js"] and len(page.xpath("//script")) == 1


def test_spa_api_lists_every_journal_by_letter_as_the_truth_does(served: tuple[str, dict[str, Any]]) -> None:
    base, truth = served
    site = site_of(truth, "spa")
    letters = api(f"{base}/spa/api/letters.json")["letters"]
    assert [entry["letter"] for entry in letters] == list(LETTERS)
    assert any(entry["count"] == 0 for entry in letters), "a letter with no journal is no link"
    seen: list[str] = []
    for entry in letters:
        letter, page_no, pages = entry["letter"], 1, 1
        while page_no <= pages:
            data = api(f"{base}/spa/api/journals/{letter}.json?page={page_no}")
            pages = data["pages"]
            route = f"{base}/spa/#/journals/{letter}" + (f"/{page_no}" if page_no > 1 else "")
            records = [{"title": j["title"], "url": base + j["path"]} for j in data["journals"]]
            assert records == site["listing_pages"].get(route, []), route
            assert data["total"] == entry["count"] and all(letter_of(r["title"]) == letter for r in records)
            seen += [r["url"] for r in records]
            page_no += 1
    assert sorted(seen) == sorted(by_url(site)) and len(set(seen)) == len(seen)
    assert any(route.endswith("/2") for route in site["listing_pages"]), "a letter of two pages"
    assert fetch(f"{base}/spa/api/journals/A.json?page=99")[0] == 404


def test_spa_journal_api_holds_the_truths_values(served: tuple[str, dict[str, Any]]) -> None:
    base, truth = served
    fields = {
        "issn": "printIssn",
        "eissn": "onlineIssn",
        "impact_factor": "impactFactor",
        "citescore": "citeScore",
        "editor_in_chief": "editorInChief",
    }
    for journal in site_of(truth, "spa")["journals"]:
        data = api(f"{base}/spa/api/journal/{slug_of(journal['url'])}.json")
        assert data["title"] == journal["values"]["title"]
        for name, field in fields.items():
            assert data[field] == journal["values"][name], (journal["url"], name)
        assert all(
            r["title"] != data["title"] and base + r["path"] in by_url(site_of(truth, "spa")) for r in data["related"]
        )
    assert fetch(f"{base}/spa/api/journal/no-such-journal.json")[0] == 404


# 2. loadmore -------------------------------------------------------------------------------------------------------


def test_loadmore_page_has_an_empty_grid_and_a_hidden_button(served: tuple[str, dict[str, Any]]) -> None:
    base, truth = served
    site = site_of(truth, "loadmore")
    assert list(site["listing_pages"]) == [f"{base}/loadmore/journals"]
    page = tree(f"{base}/loadmore/journals")
    (grid,) = page.xpath("//div[@id='journal-grid']")
    assert len(grid) == 0 and not grid.text_content().strip()
    (button,) = page.xpath("//button[@id='load-more']")
    assert button.text == "Load more journals" and button.get("hidden") is not None
    hrefs = {urljoin(base, a.get("href")) for a in page.xpath("//a[@href]")}
    assert not hrefs & set(by_url(site)), "the served page links no journal"
    assert page.xpath("//script/@src")[-1] == "/loadmore/assets/js/journals.js"
    assert not page.xpath("//*[contains(@class, 'pagination')]") and "Next" not in page.text_content()
    start = tree(site["start_url"])
    assert f"{base}/loadmore/journals" in {urljoin(base, h) for h in start.xpath("//a/@href")}


def test_loadmore_api_gives_ten_at_a_time_every_journal_once(served: tuple[str, dict[str, Any]]) -> None:
    base, truth = served
    site = site_of(truth, "loadmore")
    records, page_no, more = [], 1, True
    while more:
        data = api(f"{base}/loadmore/api/journals.json?page={page_no}")
        assert data["page"] == page_no and data["total"] == len(site["journals"])
        more = data["hasMore"]
        assert len(data["journals"]) == 10 or not more
        records += [{"title": j["title"], "url": base + j["url"]} for j in data["journals"]]
        page_no += 1
    assert records == site["listing_pages"][f"{base}/loadmore/journals"]
    assert page_no > 5, "several clicks"
    assert fetch(f"{base}/loadmore/api/journals.json?page={page_no}")[0] == 404
    cover = api(f"{base}/loadmore/api/journals.json?page=1")["journals"][0]["cover"]
    assert fetch(base + cover)[:2] == (200, "image/svg+xml")


def test_loadmore_journal_pages_show_the_truths_values_in_server_html(served: tuple[str, dict[str, Any]]) -> None:
    _, truth = served
    labels = {
        "ISSN (print)": "issn",
        "ISSN (online)": "eissn",
        "Impact factor": "impact_factor",
        "CiteScore": "citescore",
        "Editor-in-chief": "editor_in_chief",
    }
    forms = set()
    for journal in site_of(truth, "loadmore")["journals"]:
        page = tree(journal["url"])
        assert page.xpath("//h1")[0].text == journal["values"]["title"]
        (facts,) = page.xpath("//*[contains(@class, 'journal-facts')]")
        forms.add(facts.tag)
        keys = [e.text_content() for e in facts.xpath(".//dt | .//th")]
        values = [e.text_content() for e in facts.xpath(".//dd | .//td")]
        shown = {labels[k]: v for k, v in zip(keys, values, strict=True)}
        for name in labels.values():
            expected = journal["values"][name]
            if expected is None:
                assert name not in shown
            elif isinstance(expected, float):
                assert float(shown[name]) == expected
            else:
                assert shown[name] == expected
        related = page.xpath("//aside[@class='related']")[0].text_content()
        assert "Impact factor" in related and journal["values"]["title"] not in related
    assert forms == {"dl", "table"}


# 3. nextdata -------------------------------------------------------------------------------------------------------


def test_nextdata_pages_are_an_empty_next_root_and_their_data(served: tuple[str, dict[str, Any]]) -> None:
    base, truth = served
    site = site_of(truth, "nextdata")
    journal = site["journals"][0]
    pages = {
        site["start_url"]: "/",
        f"{base}/nextdata/journals": "/journals",
        next(iter(site["listing_pages"])): "/journals/[letter]",
        journal["url"]: "/journal/[slug]",
        journal["metrics_url"]: "/journal/[slug]/metrics",
        journal["url"] + "/editorial-board": "/journal/[slug]/[tab]",
        f"{base}/nextdata/about": "/[...slug]",
    }
    for url, name in pages.items():
        page = tree(url)
        (root,) = page.xpath("//div[@id='__next']")
        assert len(root) == 0 and not root.text_content().strip(), url
        assert not page.xpath("//a"), url
        assert page.xpath("//script/@src") == ["/nextdata/_next/static/chunks/main.js"]
        data = next_data(url)
        assert data["page"] == name and "chrome" in data["props"]["pageProps"], url


def test_nextdata_letters_and_pages_lead_to_every_journal(served: tuple[str, dict[str, Any]]) -> None:
    base, truth = served
    site = site_of(truth, "nextdata")
    letters = next_data(site["start_url"])["props"]["pageProps"]["letters"]
    assert [entry["letter"] for entry in letters] == list(LETTERS)
    seen: list[str] = []
    for entry in letters:
        if entry["href"] is None:
            continue
        assert entry["href"] == f"/nextdata/journals/{entry['letter'].lower()}"
        props = next_data(base + entry["href"])["props"]["pageProps"]
        for href in props["pages"]:
            page_props = next_data(base + href)["props"]["pageProps"]
            records = [{"title": j["title"], "url": base + j["href"]} for j in page_props["journals"]]
            assert records == site["listing_pages"][base + href], href
            seen += [r["url"] for r in records]
    assert sorted(seen) == sorted(by_url(site))
    assert any("?page=2" in url for url in site["listing_pages"])


def test_nextdata_overview_and_metrics_props_hold_the_truths_values(served: tuple[str, dict[str, Any]]) -> None:
    _, truth = served
    journals = site_of(truth, "nextdata")["journals"]
    without = 0
    for journal in journals:
        values = journal["values"]
        assert journal["metrics_url"] == journal["url"] + "/metrics"
        overview = next_data(journal["url"])["props"]["pageProps"]["journal"]
        assert overview["title"] == values["title"]
        assert (overview["issnPrint"], overview["issnOnline"], overview["editorInChief"]) == (
            values["issn"],
            values["eissn"],
            values["editor_in_chief"],
        )
        assert "Journal metrics" in [tab["label"] for tab in overview["tabs"]]
        props = next_data(journal["metrics_url"])["props"]["pageProps"]
        metrics = {m["key"]: m["value"] for m in props["metrics"]}
        assert metrics.get("impactFactor") == values["impact_factor"]
        assert metrics.get("fiveYearImpactFactor") == values["five_year_impact_factor"]
        assert metrics.get("citeScore") == values["citescore"]
        assert "Impact Factor: Journal Citation Reports (Clarivate, 2024)" in props["notes"]
        without += values["impact_factor"] is None
    assert 0.1 <= without / len(journals) <= 0.35, "journals without an impact factor keep the source note"


# 4. deferred -------------------------------------------------------------------------------------------------------


def test_deferred_lists_are_server_html_letters_and_pages(served: tuple[str, dict[str, Any]]) -> None:
    _, truth = served
    site = site_of(truth, "deferred")
    queue, seen, linked = [site["start_url"]], set(), set()
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        seen.add(url)
        for href in tree(url).xpath("//main//a/@href"):
            absolute = urljoin(url, href)
            path = urlsplit(absolute).path
            if re.fullmatch(r"/deferred/journals/([a-z]|0-9)", path):
                queue.append(absolute)
            elif re.fullmatch(r"/deferred/journal/[a-z0-9-]+", path):
                linked.add(absolute)
    assert linked == set(by_url(site))
    assert set(site["listing_pages"]) <= seen and any("?page=2" in u for u in site["listing_pages"])
    assert max(len(records) for records in site["listing_pages"].values()) == 10


def test_deferred_journal_pages_load_their_metrics_late_from_the_api(served: tuple[str, dict[str, Any]]) -> None:
    base, truth = served
    for journal in site_of(truth, "deferred")["journals"]:
        values = journal["values"]
        page = tree(journal["url"])
        assert page.xpath("//h1")[0].text == values["title"]
        (panel,) = page.xpath("//section[@id='journal-metrics']")
        assert [" ".join(e.itertext()) for e in panel] == ["Journal metrics", "Loading metrics…"]
        assert page.xpath("//script/@src") == ["/deferred/static/metrics.js"]
        content = page.xpath("//main")[0].text_content()
        for name in ("issn", "eissn", "editor_in_chief"):
            assert values[name] is None or values[name] in content
        assert "Impact Factor" not in content and "CiteScore" not in content
        data = api(f"{base}/deferred/api/metrics/{panel.get('data-journal')}.json")
        assert (data["impactFactor"], data["citeScore"], data["sjr"]) == (
            values["impact_factor"],
            values["citescore"],
            values["sjr"],
        )
        related = page.xpath("//aside[@class='related']")[0].text_content()
        assert "Impact Factor" in related or "Print ISSN" in related, "other journals quoted with the same labels"
    assert fetch(f"{base}/deferred/api/metrics/no-such-journal.json")[0] == 404
