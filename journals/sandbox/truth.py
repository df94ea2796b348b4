"""The ground truth of a sandbox world: what a perfect crawl and a perfect extraction would find."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from journals.sandbox.sources import NUMERIC
from journals.sandbox.web import SandboxWeb
from journals.vocabulary import attribute_names


def site_truth(web: SandboxWeb, site_name: str, base_url: str) -> dict[str, Any]:
    """One site's truth: per journal its URLs and shown values (null where the site publishes none)."""
    templates = web.sites[site_name]
    site = templates.site
    journals = []
    for index in site.journal_indices:
        journal = site.journal(index)
        shown = site.shown_values(journal)
        values = {name: _normalise(name, shown.get(name)) for name in attribute_names()}
        hop = templates.hop_path(index)
        journals.append(
            {
                "url": base_url + templates.journal_path(index),
                "metrics_url": base_url + hop if hop else None,
                "journal_id": index,
                "values": values,
            }
        )
    listing_pages = {}
    for letter, indices in site.by_letter.items():
        for page_no, chunk in enumerate(templates.pages_of(letter), start=1):
            path = templates.letter_path(letter, page_no)
            listing_pages[base_url + path] = [
                {"title": site.relation.titles[i], "url": base_url + templates.journal_path(i)} for i in chunk
            ]
        del indices
    return {
        "kind": site.spec.kind,
        "start_url": f"{base_url}/{site_name}/",
        "journals": journals,
        "listing_pages": listing_pages,
    }


def world_truth(web: SandboxWeb, base_url: str) -> dict[str, Any]:
    """Every site's truth and the hidden relation itself (for the integration's evaluation)."""
    relation = web.relation
    return {
        "seed": relation.seed,
        "size": relation.size,
        "sites": {name: site_truth(web, name, base_url) for name in web.sites},
        "relation": [
            {name: _normalise(name, getattr(relation.journal(i), name, None)) for name in attribute_names()}
            | {"journal_id": i, "publisher": relation.journal(i).publisher}
            for i in range(relation.size)
        ],
    }


def write_truth(web: SandboxWeb, base_url: str, path: str | Path) -> None:
    """Write :func:`world_truth` as JSON to ``path``."""
    Path(path).write_text(json.dumps(world_truth(web, base_url), ensure_ascii=False), encoding="utf-8")


def _normalise(name: str, value: object) -> object:
    if value is None:
        return None
    if name in NUMERIC:
        return float(value)  # type: ignore[arg-type]
    return value
