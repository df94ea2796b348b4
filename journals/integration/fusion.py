"""Truth discovery: one fused value per journal and conceptual attribute, with its provenance.

Each source's accuracy is measured on the items where sources agree (the winning value has two or more
supporters); values are then chosen by the agreement of sources weighted by ``ln(acc / (1 - acc))`` (ACCU),
and the two steps alternate a few times. Numbers agree when equal up to the coarser rounding shown. A claim
whose metric year is known and older than another claim's for the same item is set aside (a stale edition).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from rapidfuzz.utils import default_process

from journals.integration.distance import number_distance

PRIOR_ACCURACY = 0.8
ROUNDS = 4
ItemKey = tuple[int, str]
"""A data item: (linked journal, conceptual attribute)."""


@dataclass(frozen=True)
class Claim:
    """What one source says about one item."""

    source: str
    attribute: str
    """The physical attribute the value was read through."""
    text: str
    number: float | None = None
    decimals: int | None = None
    year: int | None = None
    page_url: str | None = None


@dataclass
class FusedValue:
    """The value chosen for one item, and who said what."""

    journal: int
    attribute: str
    text: str
    number: float | None
    year: int | None
    supporters: list[str]
    """Sources whose claim agrees with the value."""
    claims: list[Claim] = field(default_factory=list)
    """Every claim on the item (provenance), stale ones included."""

    @property
    def conflicting(self) -> bool:
        """Whether the sources disagreed on this item."""
        return len({_canonical(c) for c in self.claims}) > 1


@dataclass
class FusionResult:
    """Fused values by item and the accuracy measured per source."""

    values: dict[ItemKey, FusedValue]
    accuracy: dict[str, float]


def agree(a: Claim, b: Claim) -> bool:
    """Whether two claims state the same value (numbers up to rounding, texts up to case and punctuation)."""
    if a.number is not None and b.number is not None:
        return number_distance(a.number, a.decimals, b.number, b.decimals) == 0.0
    return default_process(a.text) == default_process(b.text)


def _canonical(claim: Claim) -> object:
    return round(claim.number, 6) if claim.number is not None else default_process(claim.text)


def current_claims(claims: Sequence[Claim]) -> list[Claim]:
    """The claims of the latest known metric year and those without a year; all when none has one."""
    years = [c.year for c in claims if c.year is not None]
    if not years:
        return list(claims)
    latest = max(years)
    return [c for c in claims if c.year is None or c.year == latest]


def choose(claims: Sequence[Claim], weight: Mapping[str, float]) -> tuple[Claim, list[Claim]]:
    """The best-supported claim and its supporters; ties go to a dated, then a more precise, then a trusted value."""
    best: tuple[float, int, int, float, str] | None = None
    chosen: tuple[Claim, list[Claim]] | None = None
    for candidate in claims:
        supporters = [c for c in claims if agree(candidate, c)]
        score = (
            sum(weight.get(c.source, 1.0) for c in supporters),
            candidate.year or 0,
            candidate.decimals or 0,
            weight.get(candidate.source, 1.0),
            candidate.source,
        )
        if best is None or score > best:
            best, chosen = score, (candidate, supporters)
    assert chosen is not None
    return chosen


def fuse(items: Mapping[ItemKey, Sequence[Claim]], rounds: int = ROUNDS) -> FusionResult:
    """Alternate choosing values and measuring source accuracy on agreed items; return the last choice."""
    current = {key: current_claims(claims) for key, claims in items.items() if claims}
    weight: dict[str, float] = defaultdict(lambda: 1.0)
    accuracy: dict[str, float] = {}
    chosen: dict[ItemKey, tuple[Claim, list[Claim]]] = {}
    for _ in range(rounds):
        chosen = {key: choose(claims, weight) for key, claims in current.items()}
        accuracy = measure_accuracy(current, chosen)
        weight = defaultdict(lambda: _weight(PRIOR_ACCURACY), {s: _weight(a) for s, a in accuracy.items()})
    values = {}
    for key, (winner, supporters) in chosen.items():
        years = [c.year for c in supporters if c.year is not None]
        values[key] = FusedValue(
            journal=key[0],
            attribute=key[1],
            text=winner.text,
            number=winner.number,
            year=max(years) if years else None,
            supporters=sorted({c.source for c in supporters}),
            claims=list(items[key]),
        )
    return FusionResult(values=values, accuracy=accuracy)


def measure_accuracy(
    items: Mapping[ItemKey, Sequence[Claim]], chosen: Mapping[ItemKey, tuple[Claim, list[Claim]]]
) -> dict[str, float]:
    """Per source: the share of its claims that agree with the chosen value, on items where two sources agree.

    Laplace-smoothed toward :data:`PRIOR_ACCURACY`, so a source seen on few agreed items stays near the prior.
    """
    right: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    for key, claims in items.items():
        winner, supporters = chosen[key]
        if len({c.source for c in supporters}) < 2:
            continue
        for claim in claims:
            seen[claim.source] += 1
            right[claim.source] += agree(claim, winner)
    return {s: (right[s] + 2 * PRIOR_ACCURACY) / (seen[s] + 2) for s in seen}


def _weight(accuracy: float) -> float:
    """ACCU's vote weight of a source of this accuracy."""
    clipped = min(max(accuracy, 0.51), 0.999)
    return math.log(clipped / (1 - clipped))


def majority_vote(items: Mapping[ItemKey, Sequence[Claim]]) -> dict[ItemKey, Claim]:
    """The baseline: the most frequent exact value per item (ties: alphabetically first source)."""
    voted: dict[ItemKey, Claim] = {}
    for key, claims in items.items():
        if not claims:
            continue
        counts = Counter(_canonical(c) for c in claims)
        top = max(counts.values())
        voted[key] = min((c for c in claims if counts[_canonical(c)] == top), key=lambda c: c.source)
    return voted


def conflicts(values: Iterable[FusedValue]) -> int:
    """How many fused values resolved a disagreement between sources."""
    return sum(v.conflicting for v in values)
