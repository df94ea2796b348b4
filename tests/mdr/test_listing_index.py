"""A listing page's records indexed by their links, mined up to a cap of elements on a wide page."""

from journals.mdr import DEFAULT_MAX_NODES
from journals.mdr.listing import index_listing

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
