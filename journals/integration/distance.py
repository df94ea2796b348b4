"""Instance-based distances between physical attributes of different sources, over their linked journals.

Numbers compare by symmetric relative difference, scale-sensitive (never z-normalised: impact factor and
CiteScore are correlated but are not the same attribute), with a rounding tolerance; strings by normalised
edit (Indel) distance. Too few shared journals means no direct distance; then an *indirect* distance through
intermediate sources bounds it (paper, section 4): the shortest path over direct distances.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from rapidfuzz import fuzz
from rapidfuzz.utils import default_process

from journals.integration.model import NUMBER, Observation, PhysicalAttribute

MIN_SHARED = 5
"""Least linked journals with a value on both sides for a direct distance (the paper's q, WEIR's 5)."""
MAX_SAMPLES = 60
"""Most shared journals compared per pair (a fixed sample, so the cost does not grow with journals)."""
RELATIVE_SCALE = 0.1
"""A relative difference this large (or larger) counts as a full disagreement (distance 1)."""
STRING_SCALE = 0.3
"""An edit distance this large (or larger) counts as a full disagreement: unrelated names are about 0.5 apart."""
MATCH_THRESHOLD = 0.5
"""Largest distance at which two attributes are a candidate match (WEIR's ``max_distance_threshold``)."""

JournalValues = Mapping[int, Observation]
"""One attribute's observations by linked journal."""


def number_distance(x: float, x_decimals: int | None, y: float, y_decimals: int | None) -> float:
    """0 when equal up to the coarser rounding shown, else the relative difference over ``RELATIVE_SCALE``, ≤ 1.

    ``3.2`` against ``3.25`` is 0 (3.25 rounds to 3.2 at one decimal); ``4.117`` against ``4.5`` is about 0.85.
    """
    shown = min(d for d in (x_decimals, y_decimals, 6) if d is not None)
    if abs(x - y) <= 0.5 * 10**-shown + 1e-9:
        return 0.0
    relative = abs(x - y) / max(abs(x), abs(y))
    return min(1.0, relative / RELATIVE_SCALE)


def string_distance(a: str, b: str) -> float:
    """Normalised Indel distance after case and punctuation folding, over ``STRING_SCALE``, in [0, 1].

    Small edits (a trademark sign, an abbreviation) stay small; two unrelated titles, which share half their
    characters, count as a full disagreement.
    """
    edits = 1.0 - fuzz.ratio(default_process(a), default_process(b)) / 100.0
    return min(1.0, edits / STRING_SCALE)


def value_distance(kind: str, a: Observation, b: Observation) -> float:
    """The distance of two observations of attributes of ``kind``."""
    if kind == NUMBER and a.number is not None and b.number is not None:
        return number_distance(a.number, a.decimals, b.number, b.decimals)
    return string_distance(a.text, b.text)


def _rank(journal: int) -> int:
    """A fixed pseudo-random order of journals: which shared journals a capped comparison samples."""
    return (journal * 2654435761) & 0xFFFFFFFF


def attribute_distance(
    kind: str,
    a: JournalValues,
    b: JournalValues,
    *,
    min_shared: int = MIN_SHARED,
    max_samples: int = MAX_SAMPLES,
    cutoff: float = 1.0,
) -> float | None:
    """Mean value distance over journals where both attributes have a value; None below ``min_shared``.

    Stops early once the mean must exceed ``cutoff`` and returns that lower bound (still above ``cutoff``).
    """
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    shared = [j for j in small if j in large]
    if len(shared) < min_shared:
        return None
    if len(shared) > max_samples:
        shared = heapq.nsmallest(max_samples, shared, key=_rank)
    total = 0.0
    budget = cutoff * len(shared)
    for journal in shared:
        total += value_distance(kind, a[journal], b[journal])
        if total > budget:
            return total / len(shared)
    return total / len(shared)


def by_journal(attribute: PhysicalAttribute, journal_of: Mapping[str, int]) -> dict[int, Observation]:
    """An attribute's observations keyed by linked journal (records that were not linked are left out)."""
    return {journal_of[key]: obs for key, obs in attribute.values.items() if key in journal_of}


@dataclass(frozen=True)
class Distance:
    """The distance between two physical attributes, direct or an indirect bound through ``via``."""

    a: str
    b: str
    value: float
    via: tuple[str, ...] = ()
    """Intermediate attributes of an indirect distance; empty for a direct one."""


def direct_distances(
    attributes: Sequence[PhysicalAttribute],
    journal_of: Mapping[str, int],
    *,
    threshold: float = MATCH_THRESHOLD,
    min_shared: int = MIN_SHARED,
    max_samples: int = MAX_SAMPLES,
) -> tuple[list[Distance], set[frozenset[str]]]:
    """Distances ≤ ``threshold`` between attributes of one kind and different units; and the pairs compared.

    The second result holds every pair with a direct distance (even above ``threshold``): only the others
    may get an indirect one.
    """
    vectors = {a.name: by_journal(a, journal_of) for a in attributes}
    close: list[Distance] = []
    compared: set[frozenset[str]] = set()
    for x, y in combinations(attributes, 2):
        if x.unit == y.unit or x.kind != y.kind:
            continue
        d = attribute_distance(
            x.kind, vectors[x.name], vectors[y.name], min_shared=min_shared, max_samples=max_samples, cutoff=threshold
        )
        if d is None:
            continue
        compared.add(frozenset((x.name, y.name)))
        if d <= threshold:
            close.append(Distance(x.name, y.name, d))
    return close, compared


def indirect_distances(
    attributes: Sequence[PhysicalAttribute],
    direct: Iterable[Distance],
    compared: set[frozenset[str]],
    threshold: float = MATCH_THRESHOLD,
) -> list[Distance]:
    """Shortest-path bounds ≤ ``threshold`` for pairs of different units that share too few journals.

    The paper's indirect distance: d(a, c) ≤ d(a, b) + d(b, c) through any chain of sources with enough
    overlap, the smallest bound chosen (Dijkstra from every attribute over the direct edges).
    """
    graph: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for d in direct:
        graph[d.a].append((d.b, d.value))
        graph[d.b].append((d.a, d.value))
    unit = {a.name: a.unit for a in attributes}
    found: list[Distance] = []
    for start in sorted(graph):
        best = {start: 0.0}
        previous: dict[str, str] = {}
        queue = [(0.0, start)]
        while queue:
            dist, node = heapq.heappop(queue)
            if dist > best.get(node, float("inf")):
                continue
            for neighbour, weight in graph[node]:
                candidate = dist + weight
                if candidate <= threshold and candidate < best.get(neighbour, float("inf")):
                    best[neighbour] = candidate
                    previous[neighbour] = node
                    heapq.heappush(queue, (candidate, neighbour))
        for end, dist in best.items():
            if end <= start or unit[end] == unit[start] or frozenset((start, end)) in compared:
                continue
            path = [end]
            while path[-1] != start:
                path.append(previous[path[-1]])
            found.append(Distance(start, end, dist, tuple(reversed(path[1:-1]))))
    return found
