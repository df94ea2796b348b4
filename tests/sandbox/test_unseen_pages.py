"""The unseen journal-page sites (issue 23), served over real HTTP: the truth lists every journal, every truth URL is
served, and what the truth holds is on the journal's pages in the shape the site stands for."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from functools import cache
from html import escape
from urllib.parse import urljoin, urlsplit

import pytest
from lxml import html as lxml_html

from journals.sandbox.relation import METRIC_YEAR
from journals.sandbox.unseen_pages import abbreviation
from journals.sandbox.web import SandboxWeb
from tests.conftest import RunningSandbox

PAGE_SHAPES = ("sidebar", "prose", "yeartable", "masthead")
LISTING = re.compile(r"/[a-z]+/(journals/([a-z]|0-9)(\?page=\d+)?|journals(\?page=\d+)?)")
JOURNAL = re.compile(r"/[a-z]+/(journal|index\.php)/[a-z0-9-]+")


@pytest.fixture(scope="module")
def web(world_2000: RunningSandbox) -> SandboxWeb:
    return world_2000.server.web


@pytest.fixture(scope="module")
def served(world_2000: RunningSandbox) -> tuple[str, dict]:
    return world_2000.base_url, world_2000.truth


@cache
def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, ""


def page(url: str) -> lxml_html.HtmlElement:
    status, text = fetch(url)
    assert status == 200, url
    return lxml_html.fromstring(text)


def text_of(element: lxml_html.HtmlElement) -> str:
    return " ".join(" ".join(element.itertext()).split())


def journals_of(truth: dict, name: str) -> list[dict]:
    return truth["sites"][name]["journals"]


def fmt(value: float, places: int = 3) -> str:
    return f"{value:.{places}f}"


@pytest.mark.parametrize("name", PAGE_SHAPES)
def test_truth_lists_every_journal_the_listings_link(served: tuple[str, dict], name: str) -> None:
    _, truth = served
    site = truth["sites"][name]
    assert site["kind"] == "unseen"
    assert 100 <= len(site["journals"]) <= 240, "5–12% of a 2000-journal world"
    queue, seen, linked = [site["start_url"]], set(), set()
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        seen.add(url)
        for href in page(url).xpath("//a/@href"):
            absolute = urljoin(url, href)
            path = urlsplit(absolute).path + (f"?{urlsplit(absolute).query}" if urlsplit(absolute).query else "")
            if not path.startswith(f"/{name}/"):
                continue
            if LISTING.fullmatch(path):
                queue.append(absolute)
            elif JOURNAL.fullmatch(path):
                linked.add(absolute)
    assert linked == {j["url"] for j in site["journals"]}
    assert set(site["listing_pages"]) <= seen
    sizes = [len(records) for records in site["listing_pages"].values()]
    assert 10 <= max(sizes) <= 25


@pytest.mark.parametrize("name", PAGE_SHAPES)
def test_every_truth_url_is_served_and_names_its_journal(served: tuple[str, dict], name: str) -> None:
    _, truth = served
    for journal in journals_of(truth, name):
        for url in (*journal["listing_urls"], journal["url"], journal["metrics_url"]):
            if url:
                status, text = fetch(url)
                assert status == 200, url
                if url not in journal["listing_urls"]:
                    assert escape(journal["values"]["title"], quote=False) in text, url


@pytest.mark.parametrize("name", PAGE_SHAPES)
def test_truth_holds_exactly_what_the_journal_pages_show(served: tuple[str, dict], web: SandboxWeb, name: str) -> None:
    _, truth = served
    templates = web.sites[name]
    for journal in journals_of(truth, name):
        pages = "".join(fetch(url)[1] for url in (journal["url"], journal["metrics_url"]) if url)
        hidden = web.relation.journal(journal["journal_id"])
        for attribute in templates.site.spec.attributes:
            value = journal["values"][attribute]
            if attribute == "publisher":
                assert (value is not None) == ("Publisher Name" in pages)
                continue
            shown = value if value is not None else getattr(hidden, attribute)
            written = templates.shown(attribute, shown) + ("% of submissions" if attribute == "acceptance_rate" else "")
            assert (value is not None) == (written in pages), (journal["url"], attribute, written)


def test_sidebar_metrics_are_value_first_tiles_in_an_aside_beside_a_featured_decoy(served: tuple[str, dict]) -> None:
    _, truth = served
    labels = {
        "impact_factor": "Impact Factor",
        "five_year_impact_factor": "5-year Impact Factor",
        "citescore": "CiteScore",
        "sjr": "SJR",
    }
    orders = set()
    for journal in journals_of(truth, "sidebar"):
        values = journal["values"]
        assert journal["metrics_url"] is None
        home = page(journal["url"])
        asides = home.xpath("//aside[h2='Journal metrics']")
        assert len(asides) == 1
        tiles = {}
        for tile in asides[0].xpath(".//*[@class='metric-tile']"):
            if tile.tag == "li":
                value, label = tile.text.strip(), text_of(tile.xpath("span")[0])  # the value is the tile's own text
            else:
                assert [c.get("class") for c in tile] == ["metric-value", "metric-label"], "value first"
                value, label = text_of(tile[0]), text_of(tile[1])
            tiles[label] = value
        assert set(tiles) == {label for name, label in labels.items() if values[name] is not None}
        for name, label in labels.items():
            if values[name] is not None:
                assert float(tiles[label]) == values[name]
        article = text_of(home.xpath("//article[@class='journal-home']")[0])
        assert home.xpath("//article//h1")[0].text == values["title"]
        assert not any(label in article for label in labels.values()), "the content shows no metric"
        for name in ("issn", "eissn", "editor_in_chief"):
            assert values[name] is None or values[name] in article
        featured = home.xpath("//aside[h2='Featured journal']")[0]
        decoy = text_of(featured)
        assert "Impact Factor" in decoy and "ISSN" in decoy
        assert values["title"] not in decoy
        assert (values["impact_factor"] is None or fmt(values["impact_factor"]) not in decoy) and (
            values["issn"] is None or values["issn"] not in decoy
        )
        asides_in_order = [a.xpath("h2")[0].text for a in home.xpath("//aside")]
        orders.add(tuple(asides_in_order))
    assert orders == {("Journal metrics", "Featured journal"), ("Featured journal", "Journal metrics")}


def test_prose_states_metrics_in_sentences_some_without_an_impact_factor(served: tuple[str, dict]) -> None:
    _, truth = served
    journals = journals_of(truth, "prose")
    without = [j for j in journals if j["values"]["impact_factor"] is None]
    assert 0.1 <= len(without) / len(journals) <= 0.3
    assert any(j["values"]["five_year_impact_factor"] is not None for j in without)
    for journal in journals:
        values = journal["values"]
        about = text_of(page(journal["metrics_url"]).xpath("//div[@class='about']")[0])
        assert "was founded in" in about and f"issues in {METRIC_YEAR}" in about, "numbers that are not metrics"
        impact = re.search(rf"{METRIC_YEAR} Impact Factor is (\d+\.\d+)", about)
        assert (float(impact[1]) if impact else None) == values["impact_factor"]
        five = re.search(r"five-year Impact Factor is (\d+\.\d{2})\.", about)
        assert (float(five[1]) if five else None) == values["five_year_impact_factor"]
        cite = re.search(rf"CiteScore {METRIC_YEAR}: (\d+\.\d)\.", about)
        assert (float(cite[1]) if cite else None) == values["citescore"]
        accepted = re.search(r"accepts (\d+)% of submissions", about)
        assert (int(accepted[1]) if accepted else None) == values["acceptance_rate"]
        home = text_of(page(journal["url"]).xpath("//main")[0])
        assert "Impact Factor" not in home
        for name in ("issn", "eissn"):
            assert values[name] is None or values[name] in home
        editor = values["editor_in_chief"]
        assert editor is None or editor in home or editor in about


def test_yeartable_rows_come_and_go_and_the_latest_year_is_the_truth(served: tuple[str, dict]) -> None:
    _, truth = served
    journals = journals_of(truth, "yeartable")
    rows = {
        "issn": "ISSN (print)",
        "impact_factor": "Impact Factor",
        "sjr": "SJR",
        "editor_in_chief": "Editor-in-Chief",
    }
    metrics = {
        "Impact Factor": ("impact_factor", 3),
        "5-year Impact Factor": ("five_year_impact_factor", 3),
        "CiteScore": ("citescore", 1),
        "SJR": ("sjr", 3),
    }
    for name in rows:
        share = sum(j["values"][name] is None for j in journals) / len(journals)
        assert 0.12 <= share <= 0.4, name
    orders, columns, forms = set(), set(), set()
    for journal in journals:
        values = journal["values"]
        tree = page(journal["metrics_url"] or journal["url"])
        facts = tree.xpath("//*[contains(@class, 'journal-facts')]")[0]
        forms.add(facts.tag)
        cells = [text_of(c) for c in facts.xpath(".//dt | .//dd | .//td")]
        shown = dict(zip(cells[::2], cells[1::2], strict=True))
        for name, label in rows.items():
            if values[name] is None:
                assert label not in shown
            else:
                assert shown[label] == (fmt(values[name]) if isinstance(values[name], float) else values[name])
        orders.add(next(label for label in cells[::2] if label in ("ISSN (online)", "Founded")))
        table = tree.xpath("//table[@class='metrics-by-year']")[0]
        years = [text_of(th) for th in table.xpath("thead/tr/th")][1:]
        assert sorted(years) == [str(METRIC_YEAR - 2), str(METRIC_YEAR - 1), str(METRIC_YEAR)]
        columns.add(years[0])
        latest = years.index(str(METRIC_YEAR))
        seen = set()
        for row in table.xpath("tbody/tr"):
            name, places = metrics[text_of(row.xpath("th")[0])]
            numbers = [text_of(td) for td in row.xpath("td")]
            assert numbers[latest] == fmt(values[name], places)
            assert numbers.count(numbers[latest]) == 1, "older years differ from the latest"
            seen.add(name)
        assert seen == {name for name, _ in metrics.values() if values[name] is not None}
    assert orders == {"ISSN (online)", "Founded"}, "both row orders"
    assert columns == {str(METRIC_YEAR), str(METRIC_YEAR - 2)}, "oldest-first and newest-first columns"
    assert forms == {"dl", "table"}


def test_masthead_names_the_journal_in_title_and_alt_text_and_labels_its_publisher(
    served: tuple[str, dict],
) -> None:
    base, truth = served
    titles, abbreviated = set(), 0
    for journal in journals_of(truth, "masthead"):
        values = journal["values"]
        name = values["title"]
        tree = page(journal["url"])
        title = tree.findtext(".//title")
        assert title == f"Home : {name}" or re.fullmatch(
            rf"{re.escape(name)} - Current issue : [A-Z][a-z]+ 2025 - Vol \d+ No \d+", title
        )
        titles.add(title.split(" : ")[0] == "Home")
        assert tree.xpath("//div[@class='pkp_site_name']//img/@alt") == [f"{name} homepage"]
        heading = text_of(tree.xpath("//h1")[0])
        if heading == abbreviation(name) and heading != name:
            abbreviated += 1
            assert tree.xpath("//div[@class='homepage_image']/img/@alt") == [name]
        assert tree.xpath("//meta[@name='DC.source']/@content") == [f"{base}/masthead/"]
        box = text_of(tree.xpath("//div[contains(@class, 'block-about')]")[0])
        for label, key in (("Print ISSN", "issn"), ("Online ISSN", "eissn"), ("Publisher Name", "publisher")):
            assert (values[key] is not None) == (label in box)
            if values[key] is not None:
                assert re.search(rf"{label}:? {re.escape(values[key])}", box)
        footer = text_of(tree.xpath("//footer")[0])
        assert "© Quillbase Ltd unless otherwise stated" in footer
        assert values["publisher"] is None or values["publisher"] not in footer
        impact = tree.xpath("//div[contains(@class, 'block-impact')]")
        assert bool(impact) == (values["impact_factor"] is not None)
        if impact:
            assert fmt(values["impact_factor"]) in text_of(impact[0])
    assert titles == {True, False}
    assert abbreviated >= 20
    assert abbreviation("Journal of Applied Crystallography") == "J. Appl. Cryst."
