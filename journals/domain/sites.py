"""The site registry: every site the project crawls, read once from ``settings/sites.json``.

The spiders (one per real publisher), the sandbox (one twin per site), the crawl runners and the Makefile all
take their list of sites from here. Standard library only, so that ``python3 -m journals.domain.sites`` runs
before the project's virtual environment exists (the Makefile reads its list of sites that way).
"""

from __future__ import annotations

import argparse
import json
import pkgutil
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

KINDS = ("publisher", "aggregator", "realweb", "heldout", "scripted", "unseen")
"""What a site is: a real publisher, a metrics aggregator, a sandbox site with the real web's list shapes, the
held-out sandbox site (never developed against, crawled by ``make evaluate`` only), or a sandbox site whose journal
list or metrics are built by JavaScript in the browser (Scrapy alone sees none of them), or a sandbox site built
from a written description of real sites by someone who never read the crawler (``unseen``: its first-contact
figure tells whether the crawler generalises; crawled by ``make evaluate`` only)."""


@dataclass(frozen=True)
class Site:
    """One site of the registry."""

    name: str
    """The site's name: its records' ``source``, its spider's name, its sandbox path (``/elsevier/``)."""
    kind: str
    """One of :data:`KINDS`."""
    labelled: bool = True
    """Whether its pages label their values; a label-less site's values are mapped by integration alone."""
    start_url: str | None = None
    """A real publisher's A–Z list of journals, where its spider starts when given no start URL."""
    allowed_hosts: tuple[str, ...] = ()
    """A real publisher's hosts where its journal pages live, besides its start URL's."""
    render: str = "auto"
    """Which of its pages are rendered in a browser: those whose served HTML is script-built (``auto``) or every
    one (``browser``, for a site known to build all its pages with scripts)."""


@cache
def load_sites() -> tuple[Site, ...]:
    """Every site of ``settings/sites.json``, in its order (the crawl order)."""
    raw = pkgutil.get_data("settings", "sites.json")
    if raw is None:  # pragma: no cover - only when the package data is missing from an install
        raise RuntimeError("settings/sites.json is missing from the installed package")
    sites = []
    for name, entry in json.loads(raw).items():
        if name.startswith("_"):
            continue
        if entry.get("render", "auto") not in ("auto", "browser"):
            raise ValueError(f"settings/sites.json: site {name!r} has render {entry['render']!r}, not auto or browser")
        if entry["kind"] not in KINDS:
            raise ValueError(f"settings/sites.json: site {name!r} has kind {entry['kind']!r}, not one of {KINDS}")
        sites.append(
            Site(
                name=name,
                kind=entry["kind"],
                labelled=entry.get("labels", True),
                start_url=entry.get("start_url"),
                allowed_hosts=tuple(entry.get("allowed_hosts", ())),
                render=entry.get("render", "auto"),
            )
        )
    return tuple(sites)


def site(name: str) -> Site:
    """The site called ``name``; ``KeyError`` when the registry has none."""
    for candidate in load_sites():
        if candidate.name == name:
            return candidate
    raise KeyError(name)


def site_names(*kinds: str) -> tuple[str, ...]:
    """Names of the sites of ``kinds`` (every site when none is given), in the registry's order."""
    return tuple(s.name for s in load_sites() if not kinds or s.kind in kinds)


def real_sites() -> tuple[Site, ...]:
    """The real publishers' sites: those with a start URL, each crawled by a spider of its own name."""
    return tuple(s for s in load_sites() if s.start_url is not None)


def main(argv: Sequence[str] | None = None) -> None:
    """Print site names, space-separated, for the Makefile: ``--kind`` keeps only those kinds (repeatable),
    ``--labelled`` only the sites whose pages label their values."""
    parser = argparse.ArgumentParser(prog="python3 -m journals.domain.sites", description=main.__doc__)
    parser.add_argument("--kind", action="append", choices=KINDS, default=[], help="keep this kind of site")
    parser.add_argument("--labelled", action="store_true", help="keep the sites whose pages label their values")
    args = parser.parse_args(argv)
    kept = [s for s in load_sites() if (not args.kind or s.kind in args.kind) and (s.labelled or not args.labelled)]
    print(" ".join(s.name for s in kept))


if __name__ == "__main__":
    main()
