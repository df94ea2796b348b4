"""The periodicals read from a page's microdata are those of extruct's own full reading, stand-ins or not."""

from __future__ import annotations

import random
from typing import Any

import extruct
import pytest

from journals.extraction.extruct_readers import TreeMicrodataExtractor, microdata_items
from journals.extraction.microdata import own_properties
from journals.extraction.structured import _items, _periodical_values
from journals.pages.parsed import parse_html

PERIODICAL = "http://schema.org/Periodical"
PAGES = {
    "article citing journals": f"""
        <div itemscope itemtype="http://schema.org/ScholarlyArticle"><h1 itemprop="name">An article</h1>
        <span itemprop="author" itemscope itemtype="http://schema.org/Person"><span itemprop="name">Ann</span>
         <a itemprop="affiliation" itemscope itemtype="http://schema.org/Organization" itemref="aff-1">1</a></span>
        <span itemprop="isPartOf" itemscope itemtype="{PERIODICAL}"><span itemprop="name">PeerJ</span></span>
        <ol><li itemprop="citation" itemscope itemtype="http://schema.org/ScholarlyArticle">
          <span itemprop="author" itemscope itemtype="http://schema.org/Person"><b itemprop="name">Bo</b></span>
          <span itemprop="isPartOf" itemscope itemtype="{PERIODICAL}"><i itemprop="name">Other  Journal</i>
           <span itemprop="issn">1234-5679</span></span></li></ol>
        <p id="aff-1"><span itemprop="name">A University</span></p></div>""",
    "a reference brings the periodical's publisher": f"""
        <div itemscope itemtype="{PERIODICAL}" itemref="pub"><span itemprop="name">J</span></div>
        <div itemscope itemtype="http://schema.org/Person"><span itemprop="name">Someone</span>
         <div id="pub" itemprop="publisher" itemscope itemtype="http://schema.org/Organization">
          <span itemprop="name">Press</span></div></div>""",
    "an item reached first around a reference": f"""
        <div itemscope itemtype="http://schema.org/Article"><div id="z" itemprop="issn" itemscope
         itemtype="{PERIODICAL}"><span itemprop="name">Z</span></div></div>
        <div itemscope itemtype="{PERIODICAL}" itemref="z"><span itemprop="name">Inner</span></div>""",
    "a periodical inside an untyped item is not one extruct types": f"""
        <div itemscope><div itemprop="isPartOf" itemscope itemtype="{PERIODICAL}"><span itemprop="name">U</span>
        </div></div><div itemscope itemtype="{PERIODICAL}"><span itemprop="name">T</span></div>""",
    "properties grouped by name, not by place": f"""
        <div itemscope itemtype="http://schema.org/Article">
         <div itemprop="citation" itemscope><div itemprop="isPartOf" itemscope itemtype="{PERIODICAL}">
          <span itemprop="name">First</span></div></div>
         <div itemprop="isPartOf" itemscope itemtype="{PERIODICAL}"><span itemprop="name">Second</span></div>
         <div itemprop="citation" itemscope itemtype="http://schema.org/Article"><div itemprop="isPartOf" itemscope
          itemtype="{PERIODICAL}"><span itemprop="name">Third</span><span itemprop="issn">2049-3630</span></div></div>
        </div>""",
    "texts with markup, scripts and entities": f"""
        <div itemscope itemtype="{PERIODICAL} http://schema.org/Thing"><h2 itemprop="name">Journal of
         <i>Tests</i><script>x</script> &amp; Trials</h2><span itemprop="editor">Bob&nbsp;Jones</span>
         <meta itemprop="isAccessibleForFree" content="True"><td itemprop="publisher"> Press </td></div>""",
}


def _periodicals(items: list[Any]) -> list[tuple[str, str]]:
    return [value for item in _items(items) for value in _periodical_values(item)]


def _extructs(html: str) -> list[tuple[str, str]]:
    """What extruct's own full reading of the page gives the extraction (every item built, every text read)."""
    return _periodicals(extruct.extract(html, syntaxes=["microdata"], uniform=True)["microdata"])


@pytest.mark.parametrize("name", PAGES)
def test_periodicals_are_extructs(name: str) -> None:
    html = f"<html><body>{PAGES[name]}</body></html>"
    root = parse_html(html)
    assert root is not None
    assert _periodicals(microdata_items(root)) == _extructs(html)


def test_items_far_from_any_periodical_are_stand_ins() -> None:
    root = parse_html(f"<html><body>{PAGES['article citing journals']}</body></html>")
    assert root is not None
    extractor = TreeMicrodataExtractor(root)
    assert extractor._bearing is not None
    kinds = {
        item.get("itemtype", "").rsplit("/", 1)[-1] for item in extractor._items if item in extractor._bearing.built
    }
    assert kinds == {"ScholarlyArticle", "Periodical"}  # the authors and the affiliation are not built


def test_a_type_written_as_a_property_reads_every_item() -> None:
    """An item's ``@type`` property replaces its type in extruct's uniform form: no item is then known to be no
    periodical, and every one is built."""
    root = parse_html(
        "<html><body><div itemscope itemtype='http://schema.org/Person'><span itemprop='@type'>Periodical</span>"
        "</div></body></html>"
    )
    assert root is not None
    assert TreeMicrodataExtractor(root)._bearing is None


def test_own_properties_stop_at_nested_items() -> None:
    root = parse_html(
        "<html><body><div itemscope><b itemprop='a'>1</b><!-- c --><div itemprop='b' itemscope>"
        "<i itemprop='c'>2</i></div><p><span itemprop='d'>3</span></p></div></body></html>"
    )
    assert root is not None
    item = root.find(".//div")
    assert item is not None
    assert [prop.get("itemprop") for prop in own_properties(item)] == ["a", "b", "d"]


TYPES = [PERIODICAL, "http://schema.org/Person", "http://schema.org/Organization", "http://x.org/voc#Journal", None]
PROPERTIES = ["name", "issn", "publisher", "editor", "isAccessibleForFree", "author", "isPartOf", "name issn"]


def _random_items(rng: random.Random, depth: int, ids: list[str]) -> str:
    parts = []
    for _ in range(rng.randint(0, 4)):
        attributes = [f'itemprop="{rng.choice(PROPERTIES)}"'] if rng.random() < 0.6 else []
        if rng.random() < 0.15:
            ids.append(f"i{len(ids)}")
            attributes.append(f'id="{ids[-1]}"')
        if rng.random() < 0.4 and depth < 5:
            attributes.append("itemscope")
            if kind := rng.choice(TYPES):
                attributes.append(f'itemtype="{kind}"')
            if ids and rng.random() < 0.2:
                attributes.append(f'itemref="{rng.choice(ids)} {rng.choice(ids)}"')
            parts.append(f"<div {' '.join(attributes)}>{_random_items(rng, depth + 1, ids)}</div>")
        elif rng.random() < 0.2:
            parts.append(f'<meta {" ".join(attributes)} content="{rng.choice(["true", "1234-5679"])}">')
        else:
            inner = _random_items(rng, depth + 1, ids) if depth < 5 and rng.random() < 0.5 else ""
            parts.append(f"<span {' '.join(attributes)}>T{rng.randint(0, 99)} {inner}</span>")
    return "".join(parts)


def test_random_pages_read_as_extruct_reads_them() -> None:
    """Items nested, referred to and reached twice at random: the periodicals' values and their order are
    extruct's (object addresses aside, which a name given as an item shows in its text)."""
    for seed in range(150):
        rng = random.Random(seed)
        ids = ["i0", "i1"]
        html = f"<html><body>{_random_items(rng, 0, ids)}{_random_items(rng, 0, ids)}</body></html>"
        root = parse_html(html)
        assert root is not None
        mine, extructs = _periodicals(microdata_items(root)), _extructs(html)
        assert len(mine) == len(extructs), html
        for (name, value), (extruct_name, extruct_value) in zip(mine, extructs, strict=True):
            assert name == extruct_name, html
            if " object at 0x" not in value:
                assert value == extruct_value, html
