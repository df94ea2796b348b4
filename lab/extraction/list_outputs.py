"""What the crawl reads off index and list pages, as plain data and as digests: the bar a faster reading must meet.

Every saved real page (lists as the crawl reads them, journal pages read as possible listings), and every list page
of the sandbox's sites read in crawl order with one listing memory per site, go through the spider's reading
(:func:`journals.pages.reading.read_page`) and the listing index (:func:`journals.mdr.listing.index_listing`). What
comes out (the links by kind with every field of every anchor, the journal list, the index's entries, the script
signs), and MDR's data regions of every labelled MDR page, is serialised to JSON and digested per part, so a change
of how the reading is computed can be checked to give the same answers to the last character.
``python -m lab.extraction.list_outputs`` prints the digests (``--full`` the data itself, to compare two versions of
the code with ``diff``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from journals.mdr.listing import ListingIndex, index_listing, tree_rows
from journals.mdr.mining import DEFAULT_MAX_NODE_LENGTH, DEFAULT_MAX_NODES, DEFAULT_THRESHOLD, mine_data_regions
from journals.pages.entries import EntryAnchor, EntryGroup, ListingMemory
from journals.pages.meta_refresh import RefreshRule
from journals.pages.navigation import MAX_ANCHORS_PER_PAGE, PageLinks
from journals.pages.reading import ReadPage, read_page
from journals.replay.pages import load_saved_pages, resolve_corpus
from journals.sandbox.web import SandboxWeb

HTML_TYPE = "text/html; charset=utf-8"
CAPPED_ANCHORS = 300
"""A cap of anchors that cuts the real lists short: their reading on the tree of a prefix is checked too."""
CAPPED_NODES = 3000
"""A cap of elements mined that cuts the real lists short."""
SANDBOX_ORIGIN = "http://127.0.0.1:8000"


def _anchor(anchor: EntryAnchor) -> list[str]:
    return [anchor.url, anchor.text, anchor.chrome, anchor.group, anchor.shape, anchor.record_text]


def _links(links: PageLinks | None) -> Any:
    if links is None:
        return None
    kinds = ("letters", "pages", "content", "browse", "metrics")
    return {kind: [_anchor(a) for a in getattr(links, kind)] for kind in kinds} | {
        "truncated_anchors": links.truncated_anchors
    }


def _group(group: EntryGroup | None) -> Any:
    if group is None:
        return None
    return {
        "key": group.key,
        "score": repr(group.score),
        "confident": group.confident,
        "anchors": [_anchor(a) for a in group.anchors],
    }


def _index(index: ListingIndex) -> Any:
    return {
        "truncated_nodes": index.truncated_nodes,
        "by_link": list(index.by_link.items()),
        "by_title": list(index.by_title.items()),
    }


def _read(read: ReadPage) -> dict[str, Any]:
    """The parts of a page's reading, by name."""
    parts = {
        "links": _links(read.links),
        "group": _group(read.group),
        "other": {
            "signs": repr(read.signs),
            "refresh": repr(read.refresh),
            "names_data": read.names_data,
            "facts": read.facts,
        },
    }
    if read.as_index is not None:
        parts["as_index"] = {"links": _links(read.as_index.links), "group": _group(read.as_index.group)}
    return parts


def _sandbox_list_pages(web: SandboxWeb, name: str) -> list[str]:
    """A sandbox site's home and list pages, in the order of its journals' listing chains."""
    templates = web.sites[name]
    paths = [f"/{name}/"]
    for index in templates.site.journal_indices:
        for path in templates.listing_chain(index):
            if path not in paths:
                paths.append(path)
    return paths


def outputs() -> Iterator[tuple[str, dict[str, Any]]]:
    """(unit, its parts) for every unit read: a real page (and its capped reading), a sandbox site."""
    for saved in load_saved_pages():
        body = saved.path.read_bytes()
        url = saved.url or f"https://{saved.path.name}"
        if saved.kind == "list":
            for cap, nodes, suffix in (
                (MAX_ANCHORS_PER_PAGE, DEFAULT_MAX_NODES, ""),
                (CAPPED_ANCHORS, CAPPED_NODES, " capped"),
                (MAX_ANCHORS_PER_PAGE, CAPPED_NODES, " nodes capped"),
            ):
                read = read_page(
                    body, HTML_TYPE, url, cap, memory=ListingMemory(), signs=True, refreshes=RefreshRule(),
                    rows=tree_rows,
                )  # fmt: skip
                parts = _read(read)
                index = index_listing(read.page, url, DEFAULT_MAX_NODE_LENGTH, DEFAULT_THRESHOLD, nodes)
                parts["index"] = _index(index)
                parts["found"] = [index.find(a.url, a.text) for a in (read.group.anchors if read.group else [])]
                yield saved.name + suffix, parts
                # the listing index alone, on a page whose links were not read first
                alone = index_listing(body.decode("utf-8", "replace"), url, DEFAULT_MAX_NODE_LENGTH, DEFAULT_THRESHOLD)
                yield saved.name + suffix + " index alone", {"index": _index(alone)}
        else:
            read = read_page(
                body, HTML_TYPE, url, MAX_ANCHORS_PER_PAGE, memory=ListingMemory(), links="metrics", signs=True,
                final=True,
            )  # fmt: skip
            yield saved.name, _read(read)
    web = SandboxWeb(1, 2000)
    for name in web.sites:
        memory = ListingMemory()
        parts: dict[str, Any] = {"pages": []}
        for path in _sandbox_list_pages(web, name):
            route = urlsplit(path)
            response = web.respond(route.path, route.query)
            url = SANDBOX_ORIGIN + path
            letter = route.path.rstrip("/").rpartition("/")[2]
            read = read_page(
                response.body, HTML_TYPE, url, MAX_ANCHORS_PER_PAGE, memory=memory,
                letter=letter.upper() if len(letter) == 1 else None, signs=True, refreshes=RefreshRule(),
                rows=tree_rows,
            )  # fmt: skip
            page = _read(read)
            page["index"] = _index(index_listing(read.page, url, DEFAULT_MAX_NODE_LENGTH, DEFAULT_THRESHOLD))
            parts["pages"].append([path, page])
        yield f"sandbox {name}", parts
    mdr = resolve_corpus()[0].parent.parent / "mdr"  # the labelled MDR pages, mined as the extraction mines them
    for folder in sorted(path for path in mdr.glob("*") if path.is_dir()):
        pages = sorted(folder.glob("**/*.htm*"))
        regions = [[page.name, list(map(dataclasses.asdict, mine_data_regions(page.read_bytes())))] for page in pages]
        yield f"mdr {folder.name}", {"regions": regions}


def digest(value: Any) -> str:
    """A short digest of ``value``'s JSON."""
    return hashlib.sha256(json.dumps(value, ensure_ascii=False).encode()).hexdigest()[:20]


def digests() -> dict[str, str]:
    """Per unit and part (``"unit/part"``), the digest of what was read."""
    found = {}
    for unit, parts in outputs():
        if "pages" in parts:  # a sandbox site: its pages' parts digested together, part by part
            pages = parts["pages"]
            for part in pages[0][1]:
                found[f"{unit}/{part}"] = digest([[path, page.get(part)] for path, page in pages])
        else:
            for part, value in parts.items():
                found[f"{unit}/{part}"] = digest(value)
    return found


if __name__ == "__main__":
    if "--full" in sys.argv:
        json.dump(dict(outputs()), sys.stdout, ensure_ascii=False, indent=0)
    else:
        json.dump(digests(), sys.stdout, indent=1, sort_keys=True)
    print()
