"""Record-level precision, recall and F1 of MDR on the labelled sets in ``../shared/data/mdr``.

A found record is right when it covers the same elements as a labelled record, one-to-one. Labels and
findings are resolved on the same ``lxml.html`` parse and compared as sets of canonical XPaths. Each set
is scored over every region found and over the top-ranked regions only (by ``score``), because the
164-page set labels only each page's main lists. Run ``python -m lab.mdr.evaluation``.

The 164-page set often labels the only child of a record's element instead (``li/div`` for a ``li``
whose one child holds everything). So each figure is given twice: strict, and with every element
that has one child element and no text of its own replaced by that child, on both sides.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from journals.mdr.mining import DEFAULT_MAX_NODE_LENGTH, DEFAULT_THRESHOLD, DataRegion, mine_data_regions
from journals.pages.parsed import parse_html

DATA_DIR = Path(__file__).resolve().parents[3] / "shared" / "data" / "mdr"
"""Where the labelled sets are: ``../shared/data/mdr`` from the project's root."""
TOP_RANKS = (None, 3, 1)
"""Region cut-offs reported: every region, then the 3 and the 1 best-scored regions."""

RecordKey = frozenset[str]
"""A record as the set of canonical XPaths of its elements (or of its whitespace-free text)."""


@dataclass(frozen=True)
class Counts:
    """Found, labelled and correctly found records, summable over pages."""

    found: int = 0
    labelled: int = 0
    correct: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.found + other.found, self.labelled + other.labelled, self.correct + other.correct)

    @property
    def precision(self) -> float:
        """Correct over found (0 when nothing was found)."""
        return self.correct / self.found if self.found else 0.0

    @property
    def recall(self) -> float:
        """Correct over labelled (0 when nothing is labelled)."""
        return self.correct / self.labelled if self.labelled else 0.0

    @property
    def f1(self) -> float:
        """Harmonic mean of precision and recall."""
        total = self.precision + self.recall
        return 2 * self.precision * self.recall / total if total else 0.0


@dataclass(frozen=True)
class LabelledPage:
    """One page of a labelled set, its labels already resolved on the page's parse."""

    name: str
    """Set and file, e.g. ``nexteval-mdr/12``."""
    html: bytes
    """The page as stored."""
    records: list[RecordKey]
    """The labelled records."""
    by_text: bool = False
    """Whether records are compared by text (labels given as text only), not by elements."""
    unresolved: int = 0
    """Labelled records dropped because an XPath of theirs does not resolve on lxml's parse."""


def count_matches(found: list[RecordKey], labelled: list[RecordKey]) -> Counts:
    """Score found records against labelled ones, each labelled record matched at most once."""
    remaining = Counter(labelled)
    correct = 0
    for record in found:
        if remaining[record] > 0:
            remaining[record] -= 1
            correct += 1
    return Counts(len(found), len(labelled), correct)


def text_key(text: str) -> RecordKey:
    """A text compared without whitespace, as a one-element key."""
    return frozenset({re.sub(r"\s+", "", text)})


def found_records(regions: list[DataRegion], page: LabelledPage, top: int | None) -> list[RecordKey]:
    """The records of the ``top`` best regions (all when ``None``) as comparable keys."""
    chosen = regions if top is None else regions[:top]
    if page.by_text:
        return [text_key(record.text) for region in chosen for record in region.records]
    return [frozenset(record.xpaths) for region in chosen for record in region.records]


def _resolve(root: etree._Element, xpaths: list[str]) -> RecordKey | None:
    tree = root.getroottree()
    paths: set[str] = set()
    for xpath in xpaths:
        elements = root.xpath(xpath)
        if not elements:
            return None
        paths.update(tree.getpath(element) for element in elements)
    return frozenset(paths)


def nexteval_pages(data_dir: Path = DATA_DIR) -> Iterator[LabelledPage]:
    """The 164 pages with every main-list record labelled by XPaths (``/body[1]/…``)."""
    folder = data_dir / "nexteval-mdr"
    for truth in sorted((folder / "groundTruth").glob("*.json"), key=lambda path: int(path.stem)):
        html = gzip.decompress((folder / "html" / f"{truth.stem}.html.gz").read_bytes())
        root = parse_html(html)
        labels = json.loads(truth.read_text())
        resolved = [_resolve(root, ["/html" + xpath for xpath in record]) for record in labels]
        records = [record for record in resolved if record is not None]
        dropped = len(resolved) - len(records)
        yield LabelledPage(f"nexteval-mdr/{truth.stem}", html, records, unresolved=dropped)


def depta_pages(data_dir: Path = DATA_DIR) -> Iterator[LabelledPage]:
    """The DEPTA test pages that list their expected records (fields tab-separated), compared by text."""
    folder = data_dir / "pydepta-mdr"
    labels = json.loads((folder / "LABELS.json").read_text())
    for name, label in labels.items():
        records_file = label.get("records_file") if isinstance(label, dict) else None
        if not records_file:
            continue
        lines = (folder / records_file).read_text(encoding="utf-8").splitlines()
        records = [text_key(line) for line in lines if line.strip()]
        yield LabelledPage(f"pydepta-mdr/{name}", (folder / name).read_bytes(), records, by_text=True)


def depta_regions(data_dir: Path = DATA_DIR) -> Iterator[tuple[str, bytes, tuple[str, int, int, int]]]:
    """The DEPTA pages' labelled regions: page name, page, and (parent XPath, k, start, count).

    A label names the region's first element (``<tag #class .id>``) and its index among the parent's
    element children; the parent is the parent of the element that fits both.
    """
    folder = data_dir / "pydepta-mdr"
    labels = json.loads((folder / "LABELS.json").read_text())
    for name, label in labels.items():
        if not isinstance(label, dict) or "regions" not in label:
            continue
        html = (folder / name).read_bytes()
        root = parse_html(html)
        for first, start, k, count in label["regions"]:
            tag, css_class, element_id = re.fullmatch(r"<(\S+) #(.*) \.(.*)>", first).groups()
            for element in root.iter(tag):
                parent = element.getparent()
                siblings = [child for child in parent if isinstance(child.tag, str)]
                if (
                    (element.get("class") or "") == css_class
                    and (element.get("id") or "") == element_id
                    and siblings.index(element) == start
                ):
                    yield name, html, (root.getroottree().getpath(parent), k, start, count)
                    break


def scrapinghub_pages(data_dir: Path = DATA_DIR) -> Iterator[LabelledPage]:
    """The Yelp page (40 ``li`` reviews) and the iens.nl page (29 divider + review pairs)."""
    folder = data_dir / "scrapinghub-mdr"
    yelp = (folder / "htmlpage0.html").read_bytes()
    root = parse_html(yelp)
    tree = root.getroottree()
    reviews = root.xpath('//ul[contains(@class, "ylist-bordered") and contains(@class, "reviews")]/li')
    yield LabelledPage("scrapinghub-mdr/yelp", yelp, [frozenset({tree.getpath(li)}) for li in reviews])
    iens = (folder / "htmlpage1.html").read_bytes()
    root = parse_html(iens)
    tree = root.getroottree()
    dividers = root.xpath('//div[@id="reviews"]/div[@class="divider-horizontal"]')
    records = [frozenset({tree.getpath(div), tree.getpath(div.getnext())}) for div in dividers]
    yield LabelledPage("scrapinghub-mdr/iens", iens, records)


SETS = {
    "nexteval-mdr (164)": nexteval_pages,
    "pydepta-mdr": depta_pages,
    "scrapinghub-mdr": scrapinghub_pages,
}
"""The record-labelled sets, by the name the table shows."""


def unwrapped_paths(html: bytes) -> dict[str, str]:
    """Per element XPath, the XPath of the element it wraps alone: through every element that has one
    child element, no text of its own and no text after that child."""
    root = parse_html(html)
    tree = root.getroottree()
    unwrapped: dict[str, str] = {}
    for element in root.iter(etree.Element):
        inner = element
        while True:
            kids = [kid for kid in inner if isinstance(kid.tag, str)]
            if len(kids) != 1 or (inner.text or "").strip() or (kids[0].tail or "").strip():
                break
            inner = kids[0]
        if inner is not element:
            unwrapped[tree.getpath(element)] = tree.getpath(inner)
    return unwrapped


def _unwrap(records: list[RecordKey], unwrapped: dict[str, str]) -> list[RecordKey]:
    return [frozenset(unwrapped.get(path, path) for path in record) for record in records]


def evaluate_set(
    pages: Iterator[LabelledPage], k: int, threshold: float
) -> tuple[dict[tuple[int | None, bool], Counts], int]:
    """Counts per (region cut-off, wrappers unwrapped) over a set, and the labelled records dropped."""
    totals = {(top, unwrap): Counts() for top in TOP_RANKS for unwrap in (False, True)}
    unresolved = 0
    for page in pages:
        regions = mine_data_regions(page.html, k, threshold)
        unresolved += page.unresolved
        unwrapped = {} if page.by_text else unwrapped_paths(page.html)
        labelled = _unwrap(page.records, unwrapped)
        for top in TOP_RANKS:
            found = found_records(regions, page, top)
            totals[top, False] += count_matches(found, page.records)
            totals[top, True] += count_matches(_unwrap(found, unwrapped), labelled)
    return totals, unresolved


def region_hits(k: int, threshold: float, data_dir: Path = DATA_DIR) -> list[tuple[str, tuple, tuple | None]]:
    """Per DEPTA labelled region: the label and the found region with the same parent, start and count, else
    the one with the same parent and start (a different count), else ``None``."""
    hits = []
    for name, html, (parent, label_k, start, count) in depta_regions(data_dir):
        regions = mine_data_regions(html, k, threshold)
        same = [r for r in regions if (r.parent, r.start, r.count) == (parent, start, count)]
        same = same or [r for r in regions if (r.parent, r.start) == (parent, start)]
        found = (same[0].k, same[0].start, same[0].count, len(same[0].records)) if same else None
        hits.append((name, (label_k, start, count), found))
    return hits


def main(argv: list[str] | None = None) -> None:
    """Print the table: per set and region cut-off, found/labelled/correct records, P, R and F1."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=DEFAULT_MAX_NODE_LENGTH)
    parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD)
    args = parser.parse_args(argv)
    print(f"MDR, K={args.k}, T={args.threshold}: records right when they cover the same elements, one-to-one")
    print(f"{'':<40}{'strict':^29}{'single-child wrappers unwrapped':^31}")
    header = f"{'correct':>8}{'P':>7}{'R':>7}{'F1':>7}"
    print(f"{'set':<22}{'regions':>9}{'found':>9}{'labelled':>9}  {header}  {header}")
    for set_name, loader in SETS.items():
        totals, unresolved = evaluate_set(loader(), args.k, args.threshold)
        for top in TOP_RANKS:
            cut = "all" if top is None else f"top {top}"
            strict, loose = totals[top, False], totals[top, True]
            print(
                f"{set_name:<22}{cut:>9}{strict.found:>9}{strict.labelled:>9}  "
                + "  ".join(f"{c.correct:>8}{c.precision:>7.3f}{c.recall:>7.3f}{c.f1:>7.3f}" for c in (strict, loose))
            )
        if unresolved:
            print(f"  ({unresolved} labelled records left out: their XPaths do not resolve on lxml's parse)")
    print("pydepta-mdr labelled regions (k, start, count) -> found (k, start, count, records):")
    for name, label, found in region_hits(args.k, args.threshold):
        verdict = "MISSED" if not found else "same region" if found[2] == label[2] else "same start, count differs"
        print(f"  {name:<22}{label!s:<16}{found!s:<22}{verdict}")


if __name__ == "__main__":
    main()
