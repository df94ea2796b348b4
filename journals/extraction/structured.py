"""Structured data a page carries about its journal: meta tags, JSON-LD and microdata (read with extruct).

extruct's extractors read the page's one tree (:class:`journals.pages.parsed.ParsedPage`), not the text parsed again.

When present it is the most reliable source of title, ISSNs and publisher; the label heuristics fill the rest.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from lxml import etree

from journals.extraction.microdata import PERIODICAL_TYPES, resolved
from journals.extraction.xpaths import literal

SITE_NAME = "site_name"
"""The key :func:`structured_values` gives the site's brand (``og:site_name``), which is no attribute of its own."""
META_NAMES: dict[str, str] = {
    "citation_journal_title": "title",
    "prism.publicationname": "title",
    "dc.source": "title",
    "citation_issn": "issn",
    "prism.issn": "issn",
    "prism.eissn": "eissn",
    "citation_publisher": "publisher",
    "dc.publisher": "publisher",
    "og:site_name": SITE_NAME,
}
"""``<meta name>`` (case-folded) → attribute, the first tag of an attribute here winning over the later ones
(``dc.source`` names the journal too, with its year: "Nature 2020"). ``og:site_name`` is the site's brand: the
journal's name on a journal's own site, the platform's or publisher's elsewhere (see ``extract``)."""
_RANK = {name: rank for rank, name in enumerate(META_NAMES)}
ARTICLE_MARKERS = ("citation_title", "citation_doi", "prism.doi", "citation_firstpage", "citation_abstract_html_url")
"""Meta tags only an article's page carries: its heading is the article's title, not the journal's."""
_EMBEDDED_MARKERS = ("application/ld+json", "itemscope")
"""What JSON-LD and microdata (read by extruct) cannot be written without."""


TREE_TEST_FROM = 16_384
"""Characters from which JSON-LD and microdata are looked for in the parsed tree rather than in the text: a
text search grows with the page's characters and the markers looked for, the tree walk is a fixed cost plus a C
pass over the elements, so the walk wins on long pages."""
_ITEMSCOPE = etree.XPath("boolean(//@itemscope)")


def has_structured_data(html: str, root: etree._Element) -> bool:
    """Whether the page may carry structured data at all (a cheap test before the real reading).

    Meta tags are looked for among the head's children, where HTML puts them (a ``<meta>`` in the body is a
    microdata property or a widget's, not the page's metadata). JSON-LD and microdata are looked for in the
    text of small pages and in the tree of large ones.
    """
    head = _head(root)
    if head is not None:
        for meta in head:
            if meta.tag == "meta" and _meta_name(meta)[1].casefold() in META_NAMES:
                return True
    if len(html) < TREE_TEST_FROM:
        return _EMBEDDED_MARKERS[0] in html or _EMBEDDED_MARKERS[1] in html
    return _embedded_markup(root)


def _head(root: etree._Element) -> etree._Element | None:
    """The page's ``<head>`` (the root's first element child, where lxml's parser puts it)."""
    for child in root:
        if child.tag == "head":
            return child
        if isinstance(child.tag, str):
            return None
    return None


def _meta_name(meta: etree._Element) -> tuple[str, str]:
    """Which attribute names a meta tag (``name``, else ``property`` as Open Graph writes it) and the name."""
    key = "name" if meta.get("name") is not None else "property"
    return key, meta.get(key) or ""


def _head_metas(root: etree._Element) -> list[tuple[str, str, str, int]]:
    """(attribute, content, XPath of the content, rank in META_NAMES) of the head's meta tags that name one."""
    head = _head(root)
    if head is None:
        return []
    found = []
    for meta in head:
        if meta.tag != "meta":
            continue
        key, name = _meta_name(meta)
        attribute = META_NAMES.get(name.casefold())
        content = (meta.get("content") or "").strip()
        if attribute is not None and content:
            where = f"/html/head/meta[@{key}={literal(name)}]/@content"
            found.append((attribute, content, where, _RANK[name.casefold()]))
    return found


def _embedded_markup(root: etree._Element) -> bool:
    """A JSON-LD script or microdata: what extruct reads."""
    for script in root.iter("script"):
        if (script.get("type") or "").strip().casefold() == "application/ld+json":
            return True
    return bool(_ITEMSCOPE(root))


def is_article_page(root: etree._Element) -> bool:
    """Whether the page's meta tags say it is one article's page (``citation_title``, ``og:type`` article…)."""
    head = _head(root)
    if head is None:
        return False
    for meta in head:
        if meta.tag != "meta":
            continue
        name = _meta_name(meta)[1].casefold()
        if name in ARTICLE_MARKERS or (name == "og:type" and (meta.get("content") or "").strip() == "article"):
            return True
    return False


def structured_values(html: str, root: etree._Element) -> dict[str, tuple[str, str]]:
    """Attribute → (raw text, where: ``meta[name=…]``, ``json-ld``, ``microdata``): meta tags by the order of
    :data:`META_NAMES`, then JSON-LD, then microdata."""
    found: dict[str, tuple[str, str]] = {}
    ranks: dict[str, int] = {}
    for attribute, content, where, rank in _head_metas(root):
        if rank < ranks.get(attribute, len(_RANK)):
            found[attribute], ranks[attribute] = (content, where), rank
    if len(html) < TREE_TEST_FROM and not any(marker in html for marker in _EMBEDDED_MARKERS):
        return found  # (a large page is not looked over first: extruct's own searches find nothing as fast)
    from journals.extraction.extruct_readers import TreeJsonLdExtractor, microdata_items  # only now: see that module

    data = {"json-ld": _extracted(TreeJsonLdExtractor().extract_items, root), "microdata": microdata_items(root)}
    for syntax in ("json-ld", "microdata"):
        try:
            values = [value for item in _items(data[syntax]) for value in _periodical_values(item)]
        except Exception:  # a property's text extruct fails to read: no microdata, as when extruct reads them all
            continue
        for attribute, raw in values:
            found.setdefault(attribute, (raw, syntax))
    return found


def _extracted(extract: Any, root: etree._Element) -> list[Any]:
    """What one of extruct's extractors reads on the tree; nothing when it fails (extruct's ``errors="ignore"``)."""
    try:
        return list(extract(root, base_url=None))
    except Exception:  # a page's broken markup must not stop its extraction, as in extruct.extract
        return []


def _items(items: list[Any]) -> Iterator[dict[str, Any]]:
    """Every dict of a JSON-LD/microdata tree, ``@graph`` and nested values included."""
    for item in items:
        if isinstance(item, dict):
            yield item
            for value in item.values():
                yield from _items(value if isinstance(value, list) else [value])


def _types(item: dict[str, Any]) -> set[str]:
    kind = item.get("@type", [])
    return {str(k).rsplit("/", 1)[-1] for k in (kind if isinstance(kind, list) else [kind])}


def _text(value: Any) -> str | None:
    value = resolved(value)
    if isinstance(value, dict):
        value = resolved(value.get("name"))
    if isinstance(value, list):
        value = ", ".join(t for t in (_text(v) for v in value) if t)
    return str(value).strip() if value not in (None, "") else None


def _periodical_values(item: dict[str, Any]) -> Iterator[tuple[str, str]]:
    if not _types(item) & PERIODICAL_TYPES:
        return
    if (title := _text(item.get("name"))) is not None:
        yield "title", title
    issns = resolved(item.get("issn"))
    issns = [issns] if isinstance(issns, str) else list(issns or [])
    for attribute, issn in zip(("issn", "eissn"), issns, strict=False):
        yield attribute, str(issn)
    if (publisher := _text(item.get("publisher"))) is not None:
        yield "publisher", publisher
    if (editor := _text(item.get("editor"))) is not None:
        yield "editor_in_chief", editor
    free = resolved(item.get("isAccessibleForFree"))
    if isinstance(free, bool | str):
        yield "open_access", "Open access" if str(free).lower() == "true" else "Subscription"
