"""Record linkage across sources: one journal per cluster of source records, at most one record per source.

ISSNs first: every ISSN a record gives (print, electronic, ISSN-L) names the same journal, so records sharing
one are linked. Then titles: exact after normalisation, else ``rapidfuzz`` ``token_sort_ratio`` within blocks,
always behind a guard on discriminating tokens, so "Physical Review A" never links "Physical Review B".
A title link is refused between journals whose ISSNs disagree: for an exact title, when both know a print and
an electronic ISSN and share none (two journals, one name); for a fuzzy one, as soon as both know an ISSN.
A link that would put two records of one source in one journal is refused too.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process
from rapidfuzz.utils import default_process

from journals.domain.issn import is_valid as issn_is_valid
from journals.integration.model import SourceRecord

TITLE_THRESHOLD = 95.0
"""Least ``token_sort_ratio`` for a fuzzy title link."""
_ROMAN = re.compile(r"^(?=[ivxlc]+$)c{0,3}(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
_SERIES_WORDS = frozenset({"part", "series", "section", "sect", "ser", "pt", "volume", "vol"})


class UnionFind:
    """Disjoint sets over integers whose roots keep the set of sources of their members."""

    def __init__(self, sources: Sequence[str]) -> None:
        """One singleton set per element; ``sources[i]`` is element ``i``'s source."""
        self.parent = list(range(len(sources)))
        self.sources: list[set[str]] = [{s} for s in sources]

    def find(self, i: int) -> int:
        """The root of ``i``'s set (with path halving)."""
        parent = self.parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(self, i: int, j: int) -> bool:
        """Join the sets of ``i`` and ``j`` unless they share a source; True when joined or already one."""
        a, b = self.find(i), self.find(j)
        if a == b:
            return True
        if self.sources[a] & self.sources[b]:
            return False
        if len(self.sources[a]) < len(self.sources[b]):
            a, b = b, a
        self.parent[b] = a
        self.sources[a] |= self.sources[b]
        self.sources[b] = set()
        return True


@dataclass
class Linkage:
    """The linked journals: clusters of record keys, and how they were found."""

    clusters: list[list[str]]
    """Each journal as the keys of its records, at most one per source."""
    journal_of: dict[str, int]
    """Record key → index of its cluster."""
    counts: Counter[str] = field(default_factory=Counter)
    """``issn_links``, ``title_links``, ``refused_same_source``, ``refused_title_guard``."""


def title_key(title: str) -> str:
    """A title normalised for comparison: ``&`` read as "and", case, accents kept, punctuation dropped."""
    return default_process(title.replace("&", " and "))


def discriminating_tokens(title: str) -> Counter[str]:
    """Tokens that tell sibling journals apart: single letters, numbers, roman numerals, part/series names."""
    tokens = title_key(title).split()
    found: Counter[str] = Counter()
    for i, token in enumerate(tokens):
        if len(token) == 1 or token.isdigit() or _ROMAN.match(token) or any(c.isdigit() for c in token):
            found[token] += 1
        elif token in _SERIES_WORDS and i + 1 < len(tokens):
            found[f"{token}:{tokens[i + 1]}"] += 1
    return found


def titles_may_link(a: str, b: str, threshold: float = TITLE_THRESHOLD) -> bool:
    """Whether two titles name one journal: similar enough and with the same discriminating tokens."""
    if discriminating_tokens(a) != discriminating_tokens(b):
        return False
    return fuzz.token_sort_ratio(title_key(a), title_key(b)) >= threshold


def link_records(records: Sequence[SourceRecord], threshold: float = TITLE_THRESHOLD) -> Linkage:
    """Cluster ``records`` into journals: ISSN links first, then title links; at most one record per source."""
    uf = UnionFind([r.source for r in records])
    counts: Counter[str] = Counter()
    by_issn: dict[str, int] = {}
    for i, record in enumerate(records):
        for issn in sorted(record.issns):
            if not issn_is_valid(issn):
                continue
            first = by_issn.setdefault(issn, i)
            if first != i:
                _count(counts, uf, first, i, "issn_links")
    _link_titles(records, uf, counts, threshold)
    members: dict[int, list[str]] = defaultdict(list)
    for i, record in enumerate(records):
        members[uf.find(i)].append(record.key)
    clusters = list(members.values())
    journal_of = {key: n for n, keys in enumerate(clusters) for key in keys}
    return Linkage(clusters=clusters, journal_of=journal_of, counts=counts)


def _count(counts: Counter[str], uf: UnionFind, i: int, j: int, kind: str) -> None:
    already = uf.find(i) == uf.find(j)
    if uf.union(i, j):
        if not already:
            counts[kind] += 1
    else:
        counts["refused_same_source"] += 1


def _link_titles(records: Sequence[SourceRecord], uf: UnionFind, counts: Counter[str], threshold: float) -> None:
    """Exact normalised titles, then fuzzy ones within blocks of a shared leading sorted token pair.

    The fuzzy pass scores each block at once (``process.extract``, in C) and asks :func:`titles_may_link` only
    about the pairs that reach the threshold."""
    root_issns: dict[int, set[str]] = defaultdict(set)
    for i, record in enumerate(records):
        root_issns[uf.find(i)] |= record.issns
    titled = [(i, title_key(r.title)) for i, r in enumerate(records) if r.title and title_key(r.title)]
    by_title: dict[str, list[int]] = defaultdict(list)
    for i, key in titled:
        by_title[key].append(i)
    for group in by_title.values():
        for j in group[1:]:
            _title_union(uf, counts, root_issns, group[0], j, known=2)
    # Fuzzy pass: one representative title per distinct key, blocked on its two alphabetically first tokens.
    blocks: dict[str, list[str]] = defaultdict(list)
    for key in by_title:
        blocks[" ".join(sorted(key.split())[:2])].append(key)
    pairs: list[tuple[float, str, str]] = []
    for keys in blocks.values():
        if len(keys) < 2:
            continue
        for a, key in enumerate(keys[:-1]):
            for other, score, _ in process.extract(
                key, keys[a + 1 :], scorer=fuzz.token_sort_ratio, score_cutoff=threshold, limit=None
            ):
                pairs.append((float(score), key, other))
    for _, key_a, key_b in sorted(pairs, reverse=True):
        i, j = by_title[key_a][0], by_title[key_b][0]
        if not titles_may_link(records[i].title or "", records[j].title or "", threshold):
            counts["refused_title_guard"] += 1  # scored at least the threshold above: its tokens tell them apart
            continue
        _title_union(uf, counts, root_issns, i, j, known=1)


def _title_union(
    uf: UnionFind, counts: Counter[str], root_issns: dict[int, set[str]], i: int, j: int, *, known: int
) -> None:
    """Link two records by title unless their journals both know ``known`` ISSNs and share none, or a source."""
    a, b = uf.find(i), uf.find(j)
    if a == b:
        return
    issns_a, issns_b = root_issns[a], root_issns[b]
    if len(issns_a) >= known and len(issns_b) >= known and not issns_a & issns_b:
        counts["refused_issn_conflict"] += 1
        return
    if uf.union(a, b):
        counts["title_links"] += 1
        root_issns[uf.find(a)] = issns_a | issns_b
    else:
        counts["refused_same_source"] += 1


def linked_pairs(clusters: Iterable[Sequence[str]]) -> set[frozenset[str]]:
    """Every unordered pair of record keys put in one journal: what linkage precision and recall count."""
    pairs: set[frozenset[str]] = set()
    for keys in clusters:
        for n, a in enumerate(keys):
            for b in keys[n + 1 :]:
                pairs.add(frozenset((a, b)))
    return pairs
