"""The ground truth of a sandbox world: what a perfect crawl and a perfect extraction would find."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from journals.sandbox.faults import FaultPlan
from journals.sandbox.sources import NUMERIC
from journals.sandbox.web import SandboxWeb
from journals.vocabulary import attribute_names


def site_truth(web: SandboxWeb, site_name: str, base_url: str, faults: FaultPlan | None = None) -> dict[str, Any]:
    """One site's truth: per journal its URLs, shown values (null where the site shows none) and, under
    ``faults``, whether a crawler can reach it whole; per listing page its records in order (title, URL and the
    values the entry shows, such as a table row's ISSN and impact factor)."""
    templates = web.sites[site_name]
    site = templates.site
    journals = []
    listing_pages: dict[str, list[dict[str, str]]] = {}
    for index in site.journal_indices:
        journal = site.journal(index)
        shown = site.shown_values(journal)
        hop = templates.hop_path(index)
        url = base_url + templates.journal_path(index)
        chain = [base_url + path for path in templates.listing_chain(index)]
        metrics_url = base_url + hop if hop else None
        pages = [*chain, url, *([metrics_url] if metrics_url else [])]
        journals.append(
            {
                "url": url,
                "metrics_url": metrics_url,
                "listing_urls": chain,
                "journal_id": index,
                "reachable": faults is None or faults.reachable(pages),
                "values": {name: _normalise(name, shown.get(name)) for name in attribute_names()},
            }
        )
        record = {"title": journal.title, "url": url}
        record |= {name: _normalise(name, value) for name, value in templates.listing_values(index).items()}
        listing_pages.setdefault(chain[-1], []).append(record)
    return {
        "kind": site.spec.kind,
        "start_url": f"{base_url}/{site_name}/",
        "journals": journals,
        "listing_pages": listing_pages,
    }


def world_truth(web: SandboxWeb, base_url: str, faults: FaultPlan | None = None) -> dict[str, Any]:
    """Every site's truth and the hidden relation itself (for the integration's evaluation)."""
    relation = web.relation
    return {
        "seed": relation.seed,
        "size": relation.size,
        "faults": faults is not None,
        "sites": {name: site_truth(web, name, base_url, faults) for name in web.sites},
        "relation": [
            {name: _normalise(name, getattr(relation.journal(i), name, None)) for name in attribute_names()}
            | {"journal_id": i, "publisher": relation.journal(i).publisher}
            for i in range(relation.size)
        ],
    }


def write_truth(web: SandboxWeb, base_url: str, path: str | Path, faults: FaultPlan | None = None) -> None:
    """Write :func:`world_truth` as JSON to ``path``."""
    Path(path).write_text(json.dumps(world_truth(web, base_url, faults), ensure_ascii=False), encoding="utf-8")


def _normalise(name: str, value: object) -> object:
    if value is None:
        return None
    if name in NUMERIC:
        return float(value)  # type: ignore[arg-type]
    return value
