"""The spider's reading of index and list pages, and the listing index built on it, give main's answers exactly.

``reading_digests.json`` holds, per saved real page and per sandbox site, the digests of what the reading and the
index gave (``python -m lab.extraction.list_outputs``, run on the code they were recorded from): the links by kind
with every field of every anchor, the journal list, the index's entries, the signs. Making the reading cheaper
must leave every one of them as it was.
"""

from __future__ import annotations

import json
from pathlib import Path

from lab.extraction.list_outputs import digests

RECORDED = Path(__file__).with_name("reading_digests.json")


def test_every_list_page_is_read_as_recorded() -> None:
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    found = digests()
    changed = sorted(key for key in recorded.keys() | found.keys() if recorded.get(key) != found.get(key))
    assert not changed, f"read differently: {changed} (diff `python -m lab.extraction.list_outputs --full` outputs)"
