"""The integration of a perfect extraction of a sandbox world, scored against its truth.

Run ``python -m lab.integration.simulation [--seed 1 --journals 2000 | --truth truth.json]``: it simulates a perfect
extraction from :func:`journals.sandbox.truth.world_truth` for the labelled sites, generates candidate rules from
the rendered pages of the label-less one (``metricsdb``), integrates and prints the figures of
:func:`journals.integration.evaluation.evaluate` (``scrapy integrate --truth truth.json`` scores a real crawl so).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from journals.integration.candidates import CachedJournalPage, candidate_attributes
from journals.integration.evaluation import LABEL_LESS, evaluate, label_vocabulary
from journals.integration.integrator import integrate
from journals.integration.model import NUMBER, STRING, Observation, PhysicalAttribute, SourceRecord, record_key
from journals.sandbox.truth import world_truth
from journals.sandbox.web import SandboxWeb
from journals.vocabulary import load_attributes

_SHOWN_DECIMALS = {"citescore": 1}


def simulated_inputs(
    truth: Mapping[str, Any], web: SandboxWeb | None = None
) -> tuple[list[SourceRecord], list[PhysicalAttribute]]:
    """Records and physical attributes as a perfect extraction of every labelled site would give them.

    With ``web`` (the :class:`~journals.sandbox.web.SandboxWeb` of ``truth``), the label-less sites' pages are
    rendered and their candidate rules generated; without it they contribute records only.
    """
    records: list[SourceRecord] = []
    attributes: list[PhysicalAttribute] = []
    numeric = {a.name for a in load_attributes() if a.type == "number"}
    for site, data in truth["sites"].items():
        columns: dict[str, dict[str, Observation]] = defaultdict(dict)
        pages: list[CachedJournalPage] = []
        titles: dict[str, str] = {}
        for journal in data["journals"]:
            values = journal["values"]
            key = record_key(site, journal["url"])
            issns = frozenset(v for v in (values.get("issn"), values.get("eissn")) if v)
            records.append(SourceRecord(key=key, source=site, title=values["title"], issns=issns))
            titles[key] = values["title"]
            if site in LABEL_LESS:
                if web is not None:
                    html = web.sites[site].journal_home(journal["journal_id"])
                    pages.append(CachedJournalPage(key, site, journal["url"], html))
                continue
            for name, value in values.items():
                if value is None or name == "title" or isinstance(value, bool):
                    continue
                if name in numeric:
                    shown = _SHOWN_DECIMALS.get(name, 3)
                    columns[name][key] = Observation(
                        f"{value:.{shown}f}", round(float(value), shown), shown, page_url=journal["url"]
                    )
                else:
                    columns[name][key] = Observation(str(value), page_url=journal["url"])
        for name, observed in columns.items():
            kind = NUMBER if name in numeric else STRING
            attributes.append(PhysicalAttribute(f"{site}.{name}", site, site, kind, observed, label=name))
        if pages:
            attributes.extend(candidate_attributes(pages, label_vocabulary(), titles))
    return records, attributes


def _print(figures: Mapping[str, Any], out: Any) -> None:
    json.dump(figures, out, indent=2, sort_keys=True)
    out.write("\n")


def main(argv: Iterable[str] | None = None) -> int:
    """Simulate a perfect extraction of a sandbox world, integrate it and print the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--journals", type=int, default=2000)
    parser.add_argument("--truth", type=Path, help="a truth.json (its seed and size are used)")
    args = parser.parse_args(list(argv) if argv is not None else None)
    seed, size = args.seed, args.journals
    if args.truth:
        stored = json.loads(args.truth.read_text(encoding="utf-8"))
        seed, size = stored["seed"], stored["size"]
    web = SandboxWeb(seed, size)
    truth = world_truth(web, "http://sandbox")
    records, attributes = simulated_inputs(truth, web)
    result = integrate(records, attributes)
    _print(evaluate(result, truth), sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
