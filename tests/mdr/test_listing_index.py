"""A listing page's records indexed by their links, mined up to a cap of elements on a wide page."""

from urllib.parse import urldefrag, urljoin

import pytest

from journals.mdr import DEFAULT_MAX_NODES
from journals.mdr.listing import _origin, index_listing, join_link, link_key

BASE = "http://pub.example/az/a"


def _listing(journals: int, farm: int) -> str:
    entries = "".join(
        f'<li><a href="/journal/j{n}">Annals of Topic {n}</a> <span>ISSN 1234-56{n:02d}</span></li>'
        for n in range(journals)
    )
    articles = "".join(f'<li><a href="/article/{n}">a finding about cells number {n}</a></li>' for n in range(farm))
    return f'<html><body><ul class="journals">{entries}</ul><ul class="latest">{articles}</ul></body></html>'


def test_a_listing_within_the_cap_is_mined_whole() -> None:
    index = index_listing(_listing(journals=20, farm=30), BASE, 10, 0.3)
    assert index.truncated_nodes == 0
    record = index.find("http://pub.example/journal/j7")
    assert record["title"] == "Annals of Topic 7" and record["issns"] == ["1234-5607"]
    assert record["xpaths"] == ["/html/body/ul[1]/li[8]"] and record["cells"] == {}
    assert index.find("http://pub.example/article/29")["title"] == "a finding about cells number 29"
    assert index.find("http://pub.example/nowhere", "Annals of Topic 3")["link"] == "http://pub.example/journal/j3"


def test_over_the_cap_the_first_elements_are_mined_and_the_rest_counted() -> None:
    page = _listing(journals=20, farm=400)
    elements = 4 + 20 * 3 + 400 * 2  # html, body, two lists; li, a, span per journal; li, a per article
    index = index_listing(page, BASE, 10, 0.3, max_nodes=200)
    assert index.truncated_nodes == elements - 200
    assert index.find("http://pub.example/journal/j19")["xpaths"] == ["/html/body/ul[1]/li[20]"]
    assert index.find("http://pub.example/article/10"), "the farm's first records are in the mined part"
    assert index.find("http://pub.example/article/399") == {}, "its last ones are not"
    assert DEFAULT_MAX_NODES >= 3 * 10_356, "over three times the largest real list saved"


@pytest.mark.parametrize(
    "base", ["https://www.example.org/journals/a-z", "http://Example.ORG:8080/x?y#z", "ftp://h/x", ""]
)
@pytest.mark.parametrize(
    "href",
    [
        "/journal/acta",
        "/a?x=1#f",
        "/a#",
        "/a?#",
        "/a?",
        "/a#b#c",
        "/a;p",
        "/a/./b",
        "/a/../b",
        "//cdn.org/a",
        "/a\tb",
        "/",
        "/..",
        "/a//b",
        "/%2e/",
        "/ä",
        "acta.html",
        "../acta",
        "?q",
        "#top",
        "",
    ],
)
def test_a_joined_link_is_urljoins(base: str, href: str) -> None:
    """Links joined by concatenation where ``urljoin`` would leave them as they are, by ``urljoin`` elsewhere."""
    assert join_link(base, _origin(base), href) == urljoin(base, href)
    assert link_key(urljoin(base, href)) == urldefrag(urljoin(base, href))[0].split("://", 1)[-1].rstrip("/")
