"""Score extracted journal records against the sandbox truth: the heuristic-extraction paper's Table 3.

Items are matched to the truth by URL. Per site and attribute: a value equal to the truth (after
normalisation; numbers within 1e-6) is a true positive; a value where the truth differs or is null is a false
positive; a truth value not extracted (or extracted wrong) is a false negative.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from journals.domain.text import clean

TOLERANCE = 1e-6


@dataclass
class Cell:
    """Counts for one (site, attribute)."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        """TP / (TP + FP); 1.0 when nothing was extracted."""
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        """TP / (TP + FN); 1.0 when there was nothing to find."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        """Harmonic mean of precision and recall."""
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass
class SiteScore:
    """One site's table rows and coverage."""

    cells: dict[str, Cell] = field(default_factory=dict)
    journals: int = 0
    matched: int = 0
    extra_items: int = 0

    @property
    def coverage(self) -> float:
        """Journals found / journals published."""
        return self.matched / self.journals if self.journals else 1.0


@dataclass
class Report:
    """Every site's score."""

    sites: dict[str, SiteScore] = field(default_factory=dict)

    @property
    def macro_f1(self) -> float:
        """Mean F1 over every (site, attribute) cell."""
        cells = [c for s in self.sites.values() for c in s.cells.values()]
        return sum(c.f1 for c in cells) / len(cells) if cells else 1.0

    @property
    def coverage(self) -> float:
        """Journals found / journals published, over all sites."""
        total = sum(s.journals for s in self.sites.values())
        return sum(s.matched for s in self.sites.values()) / total if total else 1.0

    def rows(self) -> list[tuple[str, str, float, float, float, int]]:
        """(site, attribute, precision, recall, F1, support) per cell, sites and attributes in order."""
        return [
            (site, name, c.precision, c.recall, c.f1, c.tp + c.fn)
            for site, score in self.sites.items()
            for name, c in score.cells.items()
        ]


def normalise(value: Any) -> Any:
    """A value as compared: numbers as floats, text case-folded with spaces collapsed, ISSNs upper-case."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return float(value)
    text = clean(str(value))
    try:
        return float(text)
    except ValueError:
        return text.casefold()


def same(a: Any, b: Any) -> bool:
    """Whether two normalised values agree (numbers within :data:`TOLERANCE`)."""
    if isinstance(a, float) and isinstance(b, float) and not isinstance(a, bool) and not isinstance(b, bool):
        return abs(a - b) <= TOLERANCE
    return bool(a == b)


def item_values(item: Mapping[str, Any]) -> dict[str, Any]:
    """An exported item's attribute values: its fields and its ``attributes`` dict, flattened."""
    values = {k: v for k, v in item.items() if k not in ("attributes", "provenance", "source", "url")}
    extra = item.get("attributes") or {}
    if isinstance(extra, str):
        extra = json.loads(extra) if extra.strip() else {}
    values.update(extra)
    return values


def evaluate(
    truth: Mapping[str, Any], items: Iterable[Mapping[str, Any]], sites: Iterable[str] | None = None
) -> Report:
    """Score ``items`` (exported journal records) against ``truth`` (:func:`journals.sandbox.truth.world_truth`)."""
    by_url: dict[str, Mapping[str, Any]] = {}
    for item in items:
        by_url.setdefault(str(item.get("url")), item)
    report = Report()
    wanted = set(sites) if sites is not None else None
    truth_urls: set[str] = set()
    for site, site_truth in truth["sites"].items():
        if wanted is not None and site not in wanted:
            continue
        score = report.sites[site] = SiteScore(journals=len(site_truth["journals"]))
        for journal in site_truth["journals"]:
            truth_urls.add(journal["url"])
            found = by_url.get(journal["url"])
            extracted = item_values(found) if found is not None else {}
            score.matched += found is not None
            for name, expected in journal["values"].items():
                _count(score, name, normalise(expected), normalise(extracted.get(name)))
        score.cells = {k: v for k, v in score.cells.items() if v.tp + v.fp + v.fn}
    for url, item in by_url.items():
        site = str(item.get("source"))
        if url not in truth_urls and site in report.sites:
            report.sites[site].extra_items += 1
            for name, value in item_values(item).items():
                if normalise(value) is not None:
                    report.sites[site].cells.setdefault(name, Cell()).fp += 1
    return report


def _count(score: SiteScore, name: str, expected: Any, found: Any) -> None:
    if expected is None and found is None:
        return
    cell = score.cells.setdefault(name, Cell())
    if expected is not None and found is not None and same(expected, found):
        cell.tp += 1
        return
    if found is not None:
        cell.fp += 1
    if expected is not None:
        cell.fn += 1


def format_table(report: Report) -> str:
    """The report as the paper's Table 3: per site and attribute precision, recall, F1; then totals."""
    lines = [f"{'site':<10} {'attribute':<24} {'precision':>9} {'recall':>9} {'F1':>9} {'support':>8}"]
    current = None
    for site, name, p, r, f1, support in report.rows():
        shown = site if site != current else ""
        current = site
        lines.append(f"{shown:<10} {name:<24} {p:>9.4f} {r:>9.4f} {f1:>9.4f} {support:>8}")
    lines.append("")
    for site, score in report.sites.items():
        extra = f", {score.extra_items} items not in the truth" if score.extra_items else ""
        lines.append(f"coverage {site:<10} {score.matched}/{score.journals} = {score.coverage:.4f}{extra}")
    lines.append(f"macro F1 {report.macro_f1:.4f}   coverage {report.coverage:.4f}")
    return "\n".join(lines)


def read_items(path: str | Path) -> list[dict[str, Any]]:
    """Exported items from a feed file: JSON lines (``.jsonl``/``.jl``), a JSON array, or CSV."""
    file = Path(path)
    text = file.read_text(encoding="utf-8")
    if file.suffix in (".jsonl", ".jl"):
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    if file.suffix == ".csv":
        return [dict(row) for row in csv.DictReader(io.StringIO(text))]
    loaded = json.loads(text)
    return loaded if isinstance(loaded, list) else [loaded]
