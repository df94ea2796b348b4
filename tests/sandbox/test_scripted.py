"""The script-built sites (issue 16) without a browser: their served HTML holds no journal list and no metric label,
their JSON holds every journal of the truth once, with the values the truth says the pages show."""

import json
import re
from urllib.parse import urlsplit

import pytest
from lxml import html as lxml_html

from journals.sandbox.sources import LETTERS, SCRIPTED_NAMES, letter_of
from journals.sandbox.truth import world_truth
from journals.sandbox.web import SandboxWeb, WebResponse
from journals.vocabulary import attribute

BASE = "http://127.0.0.1:1"


@pytest.fixture(scope="module")
def web() -> SandboxWeb:
    return SandboxWeb(seed=1, size=2000)


@pytest.fixture(scope="module")
def truth(web: SandboxWeb) -> dict:
    return world_truth(web, BASE)


def fetch(web: SandboxWeb, url: str, content_type: str = "text/html") -> WebResponse:
    parts = urlsplit(url)
    response = web.respond(parts.path, parts.query, "127.0.0.1:1")
    assert response.status == 200, url
    assert response.headers["Content-Type"].split(";")[0] == content_type, url
    return response


def page(web: SandboxWeb, url: str) -> lxml_html.HtmlElement:
    return lxml_html.fromstring(fetch(web, url).body.decode())


def api(web: SandboxWeb, url: str) -> dict:
    return json.loads(fetch(web, url, "application/json").body)


def visible_text(tree: lxml_html.HtmlElement) -> str:
    """The text a crawler without a browser reads: no script or style, no comment."""
    for element in tree.xpath("//script | //style | //comment()"):
        element.drop_tree()
    return " ".join(tree.xpath("//body")[0].text_content().split())


def labels_in(text: str, names: tuple[str, ...]) -> list[str]:
    """The vocabulary labels of ``names`` that ``text`` holds as words (short upper-case ones in that case only)."""
    found = []
    for name in names:
        for label in attribute(name).labels:
            flags = 0 if label.isupper() and len(label) <= 4 else re.IGNORECASE
            if re.search(rf"(?<!\w){re.escape(label)}(?!\w)", text, flags):
                found.append(label)
    return found


def shown_names(web: SandboxWeb, name: str) -> tuple[str, ...]:
    return tuple(n for n in web.sites[name].site.spec.attributes if n != "title")


def number_or_text(name: str, text: str) -> object:
    return float(text) if name not in ("issn", "eissn", "editor_in_chief") else text


def test_both_sites_are_in_the_truth_and_serve_their_scripts(web: SandboxWeb, truth: dict) -> None:
    assert SCRIPTED_NAMES == ("scriptlist", "scriptapp")
    for name in SCRIPTED_NAMES:
        site = truth["sites"][name]
        assert site["kind"] == "scripted" and site["start_url"] == f"{BASE}/{name}/"
        assert len(site["journals"]) > 100
    for path in ("/scriptlist/static/list.js", "/scriptapp/static/letters.js", "/scriptapp/static/journal.js"):
        assert b"fetch(" in fetch(web, BASE + path, "application/javascript").body
    for path in ("/scriptlist/static/letters.js", "/scriptapp/static/list.js", "/scriptlist/api/journals?letter=AB"):
        assert web.respond(*urlsplit(path)[2:4]).status == 404
    assert web.respond("/scriptlist/api/journals", "letter=A&page=99").status == 404
    assert web.respond("/scriptapp/api/letters/AB.json").status == 404
    assert web.respond("/scriptapp/api/journal/no-such-journal.json").status == 404


def test_scriptlist_start_page_has_real_letter_links_and_its_shells_no_journal(web: SandboxWeb, truth: dict) -> None:
    site = truth["sites"]["scriptlist"]
    start = page(web, site["start_url"])
    letters = start.xpath("//nav[@class='az']//a")
    assert [a.text for a in letters] == list(LETTERS)
    assert [a.get("href") for a in letters] == [f"/scriptlist/journals/{c}" for c in LETTERS]
    assert len(start.xpath("//header//a")) > len(letters) / 2, "a menu heavier than a few links"
    journal_paths = {urlsplit(j["url"]).path for j in site["journals"]}
    assert len(site["listing_pages"]) > len(site["journals"]) / 20
    for url in site["listing_pages"]:
        shell = page(web, url)
        (app,) = shell.xpath("//div[@id='app']")
        assert len(app) == 0 and not app.text_content().strip(), url
        assert shell.xpath("//noscript")[0].text == "You need to enable JavaScript to run this app."
        assert shell.xpath("//script/@src") == ["/scriptlist/static/list.js"]
        assert not {a.get("href") for a in shell.iter("a")} & journal_paths, "no journal of the list is linked"
        assert not labels_in(visible_text(shell), shown_names(web, "scriptlist"))


def test_scriptlist_api_pages_hold_every_journal_once_as_the_truth_lists_them(web: SandboxWeb, truth: dict) -> None:
    site = truth["sites"]["scriptlist"]
    seen: list[str] = []
    longest = 0
    for letter in LETTERS:
        shell = f"{BASE}/scriptlist/journals/{letter}"
        data = api(web, f"{BASE}/scriptlist/api/journals?letter={letter}&page=1")
        pages = 1
        while True:
            assert data["letter"] == letter and data["page"] == pages
            records = [{"title": j["title"], "url": BASE + j["url"]} for j in data["journals"]]
            assert records == site["listing_pages"].get(shell, []), shell
            assert all(letter_of(j["title"]) == letter for j in data["journals"])
            seen += [r["url"] for r in records]
            if data["next"] is None:
                assert data["next_api"] is None and data["pages"] == pages
                break
            pages += 1
            shell = f"{BASE}/scriptlist/journals/{letter}?page={pages}"
            assert data["next"] == shell.removeprefix(BASE)
            data = api(web, BASE + data["next_api"])
        longest = max(longest, pages)
    assert sorted(seen) == sorted(j["url"] for j in site["journals"]) and len(set(seen)) == len(seen)
    assert longest >= 2 and max(len(r) for r in site["listing_pages"].values()) == 20


def test_scriptlist_journal_pages_show_the_truths_values_in_server_html(web: SandboxWeb, truth: dict) -> None:
    forms = set()
    for journal in truth["sites"]["scriptlist"]["journals"][:60]:
        tree = page(web, journal["url"])
        assert tree.xpath("//h1")[0].text == journal["values"]["title"]
        labels = [x.text_content() for x in tree.xpath("//*[@class='lx-facts']//*[self::dt or @class='lx-label']")]
        values = [x.text_content() for x in tree.xpath("//*[@class='lx-facts']//*[self::dd or @class='lx-value']")]
        forms.add(tree.xpath("//*[@class='lx-facts']")[0].tag)
        assert labels[0] == "Print ISSN" and "CiteScore" in labels
        names = shown_names(web, "scriptlist")
        for name, text in zip(names, values, strict=True):
            expected = journal["values"][name]
            assert (text == "–") if expected is None else number_or_text(name, text) == expected
    assert forms == {"dl", "table"}


def test_scriptapp_start_page_letters_are_script_handlers_over_an_empty_results(web: SandboxWeb, truth: dict) -> None:
    site = truth["sites"]["scriptapp"]
    start = page(web, site["start_url"])
    controls = start.xpath("//*[@data-letter]")
    assert [c.text for c in controls] == list(LETTERS)
    anchors = [c for c in controls if c.tag == "a"]
    assert all(a.get("href") == "javascript:void(0)" and a.get("onclick") for a in anchors)
    assert {c.tag for c in controls} == {"a", "button"} and all(
        c.get("type") == "button" for c in controls if c.tag == "button"
    )
    (results,) = start.xpath("//div[@id='results']")
    assert len(results) == 0 and not results.text_content().strip()
    assert "enable JavaScript" in start.xpath("//noscript")[0].text
    journal_paths = {urlsplit(j["url"]).path for j in site["journals"]}
    assert not {a.get("href") for a in start.iter("a")} & journal_paths
    assert list(site["listing_pages"]) == [site["start_url"]]


def test_scriptapp_letters_api_holds_every_journal_once(web: SandboxWeb, truth: dict) -> None:
    site = truth["sites"]["scriptapp"]
    seen = []
    for letter in LETTERS:
        data = api(web, f"{BASE}/scriptapp/api/letters/{letter}.json")
        assert data["letter"] == letter and all(letter_of(j["title"]) == letter for j in data["journals"])
        seen += [BASE + j["url"] for j in data["journals"]]
    assert sorted(seen) == sorted(j["url"] for j in site["journals"]) and len(set(seen)) == len(seen)
    assert sorted(seen) == sorted(r["url"] for r in site["listing_pages"][site["start_url"]])


def test_scriptapp_journal_pages_hold_no_metric_label_and_the_api_the_truths_values(
    web: SandboxWeb, truth: dict
) -> None:
    labels = {
        "issn": "Print ISSN",
        "eissn": "Online ISSN",
        "impact_factor": "Impact Factor (2024)",
        "five_year_impact_factor": "5-Year Impact Factor",
        "citescore": "CiteScore",
        "editor_in_chief": "Editor-in-Chief",
    }
    names = shown_names(web, "scriptapp")
    journals = truth["sites"]["scriptapp"]["journals"]
    for journal in journals:
        tree = page(web, journal["url"])
        assert tree.xpath("//h1")[0].text == journal["values"]["title"]
        (root,) = tree.xpath("//div[@id='root']")
        assert len(root) == 0 and not root.text_content().strip()
        assert tree.xpath("//noscript")[0].text == "Please enable JavaScript to view this journal's metrics."
        assert tree.xpath("//script/@src") == ["/scriptapp/static/journal.js"]
        text = visible_text(tree)
        assert not labels_in(text, names), (journal["url"], labels_in(text, names))
        slug = urlsplit(journal["url"]).path.rpartition("/")[2]
        data = api(web, f"{BASE}/scriptapp/api/journal/{slug}.json")
        assert data["title"] == journal["values"]["title"]
        rows = {row["label"]: row["value"] for row in data["rows"]}
        for name in names:
            expected = journal["values"][name]
            shown = rows.get(labels[name])
            assert (shown is None) if expected is None else number_or_text(name, shown or "") == expected
    assert any(None in (j["values"][n] for n in names) for j in journals), "some values are not shown"


def test_scripted_sites_footers_name_partner_journals_that_are_not_theirs(web: SandboxWeb, truth: dict) -> None:
    for name in SCRIPTED_NAMES:
        titles = {j["values"]["title"] for j in truth["sites"][name]["journals"]}
        tree = page(web, truth["sites"][name]["start_url"])
        partners = [a for a in tree.xpath("//footer//a") if "/partners/" in a.get("href")]
        assert len(partners) == 4 and not {a.text for a in partners} & titles
        assert fetch(web, BASE + partners[0].get("href")).status == 200
