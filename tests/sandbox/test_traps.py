"""The traps world: a handful of real journals per trap site, all reachable through on-site links, a truth that
knows them, and a web that records every request it answers."""

from __future__ import annotations

from itertools import pairwise
from urllib.parse import urljoin, urlsplit

import pytest
from lxml import html as lxml_html

from journals.sandbox.traps import JOURNALS_PER_SITE, TRAP_KINDS, TrapsWeb, traps_truth
from journals.sandbox.trapsites import JSESSIONID, made_up_ident, made_up_title
from tests.sandbox.trapworld import BASE, OUTSIDE, get


@pytest.fixture(scope="module")
def web() -> TrapsWeb:
    return TrapsWeb(OUTSIDE, seed=1)


@pytest.fixture(scope="module")
def truth(web: TrapsWeb) -> dict:
    return traps_truth(web, BASE)


def on_site_links(web: TrapsWeb, url: str) -> set[str]:
    """The page's links to its own origin, absolute, without session ids."""
    response = get(web, url)
    assert response.status == 200, url
    tree = lxml_html.fromstring(response.body.decode())
    links = {urljoin(url, href) for href in tree.xpath("//a/@href")}
    return {without_session(link) for link in links if link.startswith(BASE + "/")}


def without_session(url: str) -> str:
    parts = urlsplit(url)
    query = "&".join(pair for pair in parts.query.split("&") if pair and not pair.startswith("sid="))
    return f"{parts.scheme}://{parts.netloc}{JSESSIONID.sub('', parts.path)}" + (f"?{query}" if query else "")


def test_each_trap_site_lists_a_handful_of_real_journals_with_one_busy_letter(truth: dict) -> None:
    assert list(truth["sites"]) == list(TRAP_KINDS) == ["escape", "endless-next", "session-id", "calendar",
                                                        "nested-letters"]  # fmt: skip
    assert truth["outside_url"] == OUTSIDE
    titles = [j["values"]["title"] for site in truth["sites"].values() for j in site["journals"]]
    assert len(titles) == len(set(titles)) == JOURNALS_PER_SITE * len(TRAP_KINDS)
    for kind, site in truth["sites"].items():
        assert site["kind"] == "trap" and site["start_url"] == f"{BASE}/{kind}/"
        letters = [j["values"]["title"][0].upper() for j in site["journals"]]
        assert max(letters.count(letter) for letter in letters) >= 3, kind
        assert len(set(letters)) >= 2, kind


def test_every_real_journal_is_reachable_through_on_site_links(web: TrapsWeb, truth: dict) -> None:
    """Start page → letter → listing pages → journal page → metrics page, each linked by the one before it."""
    for kind, site in truth["sites"].items():
        for journal in site["journals"]:
            chain = [site["start_url"], *journal["listing_urls"], journal["url"]]
            for page, target in pairwise(chain):
                assert target in on_site_links(web, page), (kind, page, target)
            title = journal["values"]["title"]
            page_html = get(web, journal["url"]).body.decode()
            assert lxml_html.fromstring(page_html).xpath("string(//h1)") == title
            if journal["metrics_url"]:
                assert journal["metrics_url"] in on_site_links(web, journal["url"])
                assert title in get(web, journal["metrics_url"]).body.decode()
            assert len(journal["listing_urls"]) <= 2, "on a letter's first two pages"


def test_made_up_journals_are_named_by_their_id_and_never_real(web: TrapsWeb, truth: dict) -> None:
    title = made_up_title(1, "a-p17-2")
    assert title.startswith("Annals of ") and title.endswith(", Series A-P17-2")
    assert made_up_title(1, "0-p3-1").startswith("3D Annals of ")
    assert made_up_ident("annals-of-optics-series-a-p17-2") == "a-p17-2"
    real_slugs = [urlsplit(j["url"]).path.rpartition("/")[2] for s in truth["sites"].values() for j in s["journals"]]
    assert all(made_up_ident(slug) is None for slug in real_slugs)
    real_titles = set(web.relation.titles)
    assert not {made_up_title(1, f"a-p{page}-{k}") for page in range(1, 300) for k in (1, 2, 3)} & real_titles


def test_same_seed_same_world_another_seed_another(truth: dict) -> None:
    assert traps_truth(TrapsWeb(OUTSIDE, seed=1), BASE) == truth
    assert traps_truth(TrapsWeb(OUTSIDE, seed=2), BASE)["sites"]["escape"] != truth["sites"]["escape"]


def test_the_web_records_every_request_with_its_host_and_site() -> None:
    web = TrapsWeb(OUTSIDE)
    assert web.respond("/escape/", "", "127.0.0.1:1").status == 200
    assert web.respond("/robots.txt", "", "127.0.0.1:1").status == 200
    assert web.respond("/session-id/journals/a;jsessionid=X", "sid=Y", "localhost:1").status in (200, 404)
    assert web.respond("/nowhere/", "", "127.0.0.1:1").status == 404
    served = web.served()
    assert [(r.site, r.host) for r in served] == [
        ("escape", "127.0.0.1:1"),
        ("", "127.0.0.1:1"),
        ("session-id", "localhost:1"),
        ("nowhere", "127.0.0.1:1"),
    ]
    assert served[2].path == "/session-id/journals/a;jsessionid=X" and served[2].query == "sid=Y"
    assert [r.at for r in served] == sorted(r.at for r in served)
    served.clear()
    assert len(web.served()) == 4, "served() is a copy"
