"""Candidate extraction rules for pages without usable labels (WEIR's unsupervised rule generation).

Pages of one source are grouped by template (same URL shape, similar sets of element paths). In a group,
every text leaf that varies across pages yields a *positional* rule (its absolute XPath in the template),
and one next to a leaf that never varies (a label) also a *label-relative* rule (the label's next or
previous sibling), which survives rows that come and go. Values are the leaves' texts with the affixes
shared by the whole vector stripped (``ISSN: ``, `` (2024)``); a stripped affix with words is the rule's
label, one with a year its metric year. Sparse, near-constant and over-long vectors are dropped, and
vectors equal to another of their group are kept once.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from lxml import etree

from journals.domain.no_value import is_missing
from journals.domain.numbers import find_year, parse_numbers
from journals.integration.model import NUMBER, STRING, Observation, PhysicalAttribute
from journals.pages.parsed import parse_html
from journals.vocabulary import label_key, normalise_label

TEMPLATE_SIMILARITY = 0.85
"""Least Jaccard similarity of element-path sets for two pages to share a template."""
MIN_PAGES = 3
INVARIANT_SHARE = 0.5
"""A text on at least this share of a group's pages is template text (a label), never a value."""
MAX_NULL_SHARE = 0.7
MAX_EQUAL_SHARE = 0.7
MAX_VALUE_LENGTH = 120
NUMERIC_SHARE = 0.9
_INDEX = re.compile(r"\[\d+\]")


@dataclass(frozen=True)
class CachedJournalPage:
    """One cached page of one source record."""

    record_key: str
    source: str
    url: str
    html: str
    shape: str = ""
    """What the URL adds to the record's own URL (``""``, ``"/insights"``…): pages of one shape are compared."""


@dataclass
class _TextLeaves:
    """A cached page's tree without scripts, styles, head and comments, its text leaves and its element paths."""

    page: CachedJournalPage
    tree: etree._ElementTree
    leaves: dict[str, str]
    """Text-node XPath → normalised text."""
    signature: frozenset[str]


def _parse(page: CachedJournalPage) -> _TextLeaves | None:
    """The page parsed as the crawl parses it (:func:`journals.pages.parsed.parse_html`), its junk dropped."""
    root = parse_html(page.html)
    if root is None:
        return None
    for junk in root.xpath("//script|//style|//head|//comment()"):
        _drop_keeping_tail(junk)
    tree = root.getroottree()
    leaves: dict[str, str] = {}
    paths: set[str] = set()
    for element in root.iter(etree.Element):
        path = tree.getpath(element)
        paths.add(_INDEX.sub("", path))
        for n, text in enumerate(element.xpath("text()"), start=1):
            cleaned = " ".join(text.split())
            if cleaned:
                leaves[f"{path}/text()[{n}]"] = cleaned
    return _TextLeaves(page, tree, leaves, frozenset(paths))


def _drop_keeping_tail(node: etree._Element) -> None:
    """Remove ``node`` and its subtree, its tail text joined to what came before it (``lxml.html``'s
    ``drop_tree``, on the plain elements of the one parser set-up)."""
    parent = node.getparent()
    if parent is None:
        return
    if node.tail:
        previous = node.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + node.tail
        else:
            parent.text = (parent.text or "") + node.tail
    parent.remove(node)


def template_groups(pages: Iterable[CachedJournalPage]) -> list[list[_TextLeaves]]:
    """Pages of one source split by URL shape, then by leader clustering on element-path sets."""
    groups: list[tuple[str, frozenset[str], list[_TextLeaves]]] = []
    for page in pages:
        parsed = _parse(page)
        if parsed is None:
            continue
        for shape, leader, members in groups:
            if shape == page.shape and _jaccard(leader, parsed.signature) >= TEMPLATE_SIMILARITY:
                members.append(parsed)
                break
        else:
            groups.append((page.shape, parsed.signature, [parsed]))
    return [members for _, _, members in groups]


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 1.0


def _label_rules(group: Sequence[_TextLeaves], invariant: set[str]) -> set[str]:
    """XPaths reading the next or previous sibling of an element whose whole text is an invariant label."""
    rules: set[str] = set()
    for parsed in group:
        for element in parsed.tree.getroot().iter(etree.Element):
            text = " ".join(element.xpath("string(.)").split())
            if len(element) or text not in invariant or not 2 <= len(text) <= 64 or "'" in text:
                continue
            for axis in ("following-sibling", "preceding-sibling"):
                sibling = element.getnext() if axis == "following-sibling" else element.getprevious()
                if sibling is not None and not len(sibling) and (sibling.text or "").strip():
                    rules.add(f"//{element.tag}[normalize-space(.)='{text}']/{axis}::*[1]/text()[1]")
    return rules


def _read(parsed: _TextLeaves, rule: str) -> tuple[str, str] | None:
    """(node XPath, text) of the first node ``rule`` selects on the page."""
    if rule.startswith("//"):
        found = parsed.tree.xpath(rule)
        if not found:
            return None
        node = found[0]
        parent = node.getparent()
        position = next(i for i, t in enumerate(parent.xpath("text()"), start=1) if t is node or t == node)
        path = f"{parsed.tree.getpath(parent)}/text()[{position}]"
        return path, " ".join(str(node).split())
    text = parsed.leaves.get(rule)
    return (rule, text) if text is not None else None


def _strip_affixes(texts: Sequence[str]) -> tuple[str, str]:
    """The prefix and suffix every text shares, cut back to word boundaries; empty when values are all equal."""
    if len(set(texts)) < 2:
        return "", ""
    prefix = texts[0]
    suffix = texts[0]
    for text in texts[1:]:
        while not text.startswith(prefix):
            prefix = prefix[:-1]
        while not text.endswith(suffix):
            suffix = suffix[1:]
    while prefix and prefix[-1].isalnum():
        prefix = prefix[:-1]
    while suffix and suffix[0].isalnum():
        suffix = suffix[1:]
    shortest = min(len(t) for t in texts)
    if len(prefix) + len(suffix) >= shortest:
        return "", ""
    return prefix, suffix


def candidate_attributes(
    pages: Iterable[CachedJournalPage],
    label_vocabulary: Mapping[str, str],
    titles: Mapping[str, str] | None = None,
) -> list[PhysicalAttribute]:
    """The candidate rules of every template group of one source's pages, as physical attributes.

    ``label_vocabulary`` maps :func:`~journals.vocabulary.label_key` forms of labels to attribute names (the
    rules' labels); ``titles`` maps record keys to their known titles: a rule reading them is labelled ``title``.
    """
    by_shape: dict[str, list[CachedJournalPage]] = defaultdict(list)
    for page in pages:
        by_shape[page.shape].append(page)
    attributes: list[PhysicalAttribute] = []
    for shape in sorted(by_shape):
        for n, group in enumerate(template_groups(by_shape[shape])):
            if len(group) >= MIN_PAGES:
                unit = f"{group[0].page.source}#{shape.strip('/') or 'home'}.{n}"
                attributes.extend(_group_attributes(group, unit, label_vocabulary, titles or {}))
    return attributes


def _group_attributes(
    group: Sequence[_TextLeaves], unit: str, label_vocabulary: Mapping[str, str], titles: Mapping[str, str]
) -> list[PhysicalAttribute]:
    share = Counter(text for parsed in group for text in set(parsed.leaves.values()))
    invariant = {text for text, count in share.items() if count >= INVARIANT_SHARE * len(group)}
    positional = {path for parsed in group for path, text in parsed.leaves.items() if text not in invariant}
    rules = sorted(_label_rules(group, invariant)) + sorted(positional)
    kept: dict[tuple[tuple[str, str], ...], PhysicalAttribute] = {}
    for rule in rules:
        attribute = _rule_attribute(group, unit, rule, label_vocabulary, titles)
        if attribute is None:
            continue
        signature = tuple(sorted((k, o.text) for k, o in attribute.values.items()))
        kept.setdefault(signature, attribute)
    return list(kept.values())


def _rule_attribute(
    group: Sequence[_TextLeaves],
    unit: str,
    rule: str,
    label_vocabulary: Mapping[str, str],
    titles: Mapping[str, str],
) -> PhysicalAttribute | None:
    """One rule applied to the group's pages, typed and filtered; None when the filters drop it."""
    read: list[tuple[_TextLeaves, str, str]] = []
    for parsed in group:
        found = _read(parsed, rule)
        if found is not None and not is_missing(found[1]):
            read.append((parsed, *found))
    if len(read) < max(2, (1 - MAX_NULL_SHARE) * len(group)):
        return None
    raw_texts = [text for _, _, text in read]
    if max(len(t) for t in raw_texts) > MAX_VALUE_LENGTH:
        return None
    prefix, suffix = _strip_affixes(raw_texts)
    texts = [t[len(prefix) : len(t) - len(suffix)].strip() for t in raw_texts]
    if Counter(texts).most_common(1)[0][1] > MAX_EQUAL_SHARE * len(texts):
        return None
    numbers = parse_numbers(texts)
    numeric = sum(n is not None for n in numbers) >= NUMERIC_SHARE * len(texts)
    values: dict[str, Observation] = {}
    for (parsed, path, raw), text, number in zip(read, texts, numbers, strict=True):
        if not text or (numeric and number is None):
            continue
        values[parsed.page.record_key] = Observation(
            text=text,
            number=number[0] if numeric and number else None,
            decimals=number[1] if numeric and number else None,
            occurrence=f"{parsed.page.url}#{path}",
            page_url=parsed.page.url,
            raw=raw,
        )
    source = group[0].page.source
    return PhysicalAttribute(
        name=f"{unit}:{rule}",
        source=source,
        unit=unit,
        kind=NUMBER if numeric else STRING,
        values=values,
        label=_label(rule, prefix, values, label_vocabulary, titles),
        year=find_year(prefix + " " + suffix),
        rule=rule,
        extractor="candidate",
    )


def _label(
    rule: str,
    prefix: str,
    values: Mapping[str, Observation],
    label_vocabulary: Mapping[str, str],
    titles: Mapping[str, str],
) -> str | None:
    """The vocabulary attribute a rule's label (or stripped prefix) names; ``title`` for a rule reading titles."""
    quoted = re.search(r"normalize-space\(\.\)='([^']*)'", rule)
    for text in (quoted[1] if quoted else "", prefix):
        name = label_vocabulary.get(label_key(text))
        if name:
            return name
    known = [k for k in values if k in titles]
    if known and sum(normalise_label(values[k].text) == normalise_label(titles[k]) for k in known) >= 0.9 * len(known):
        return "title"
    return None
